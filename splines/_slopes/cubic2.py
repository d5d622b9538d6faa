"""Knot slopes of the C² cubic spline ("cubic2"), as scipy's `CubicSpline`.

With ``h_i = x_{i+1} − x_i`` and secants ``m_i = (y_{i+1} − y_i)/h_i``, second-
derivative continuity at an interior knot i gives (de Boor 1978, ch. IV)

    h_i s_{i-1} + 2 (h_{i-1} + h_i) s_i + h_{i-1} s_{i+1} = 3 (h_i m_{i-1} + h_{i-1} m_i).

End rows, for a first-derivative value v at the start:  s_0 = v;
for a second-derivative value v:  2 s_0 + s_1 = 3 m_0 − v h_0 / 2
(mirrored at the end: s_{n-2} + 2 s_{n-1} = 3 m_{n-2} + v h_{n-2} / 2).
Every such row is diagonally dominant, so the solve skips pivoting
(``pivoting=False``: Thomas, the fast path).

Not-a-knot (third derivative continuous at x_1) is not diagonally dominant
as scipy writes it (``h_1 s_0 + (h_0+h_1) s_1 = b_0``), so we eliminate s_0:
subtracting that row from row 1 leaves, with d = h_0 + h_1,

    d s_1 + h_0 s_2 = (h_1² m_0 + h_0 (2 h_0 + 3 h_1) m_1) / d,

a dominant row with positive coefficients only; the reduced system solves for
s_1..s_{n-2} and s_0 = (b_0 − d s_1)/h_1 follows, with
b_0 = ((h_0 + 2d) h_1 m_0 + h_0² m_1)/d.  The end is the mirror image.
With neighbouring cells of very unequal width (ratio R) not-a-knot still
amplifies rounding by up to ~R², as in scipy (tests/test_interp_scipy.py
measures both against the exact spline).
"""

import jax.numpy as jnp

from .._boundary import NOT_A_KNOT, PERIODIC, EndConditions
from .._cyclic import cyclic_tridiagonal_solve
from .._tridiagonal import tridiagonal_solve


def cubic2_slopes(h, fp, ends: EndConditions):
    """Slopes ``(n, k)`` at the knots for cell widths ``h (n-1,)`` and values ``fp (n, k)``.

    ``ends.values`` hold arrays of shape ``(k,)``.  For periodic ends the last
    knot closes the period (``fp[-1] == fp[0]``).  Scale-free: every product
    of widths and secants is formed as ``(h · m) · (width ratio)`` — a value
    difference times an O(1) number — never as ``h² · m`` or ``h · Δy``, which
    over- or underflow f32 at large or small spans.  What must be representable
    is the slopes' own scale, max |Δy| / h.
    """
    secant = (jnp.diff(fp, axis=0) / h[:, None]).T  # (k, n-1)
    if ends.kinds[0] == PERIODIC:
        slopes = _periodic_slopes(h, secant)
    else:
        slopes = _clamped_or_free_slopes(h, secant, *_short_spline_ends(ends, secant))
    return slopes.T


def _short_spline_ends(ends: EndConditions, secant):
    """scipy's rule for two knots: a not-a-knot end fixes the slope to the secant."""
    if secant.shape[-1] > 1:
        return ends
    kinds = tuple(1 if k == NOT_A_KNOT else k for k in ends.kinds)
    values = tuple(
        secant[:, 0] if k == NOT_A_KNOT else v for k, v in zip(ends.kinds, ends.values)
    )
    return EndConditions(kinds, values)


def _clamped_or_free_slopes(h, m, kinds, values):
    n = h.shape[0] + 1
    start_free, end_free = (k == NOT_A_KNOT for k in kinds)
    if n == 3 and start_free and end_free:
        return _parabola_slopes(h, m)
    # Interior rows 1..n-2 as (sub, diag, super, rhs) per row.
    rows = (h[1:], 2 * (h[:-1] + h[1:]), h[:-1], 3 * (h[1:] * m[:, :-1] + h[:-1] * m[:, 1:]))
    if start_free:
        rows = _replace_row(rows, 0, _not_a_knot_row(h[0], h[1], m[:, 0], m[:, 1]))
    else:
        rows = _add_row(rows, 0, _derivative_row(kinds[0], values[0], h[0], m[:, 0], +1))
    if end_free:
        rows = _replace_row(rows, -1, _not_a_knot_row(h[-1], h[-2], m[:, -1], m[:, -2]))
    else:
        rows = _add_row(rows, -1, _derivative_row(kinds[1], values[1], h[-1], m[:, -1], -1))
    sub, diag, sup, rhs = rows
    s = tridiagonal_solve(sub[1:], diag, sup[:-1], rhs, pivoting=False)  # dominant rows
    if start_free:
        s0 = _not_a_knot_end(h[0], h[1], m[:, 0], m[:, 1], s[:, 0])
        s = jnp.concatenate([s0[:, None], s], axis=-1)
    if end_free:
        s1 = _not_a_knot_end(h[-1], h[-2], m[:, -1], m[:, -2], s[:, -1])
        s = jnp.concatenate([s, s1[:, None]], axis=-1)
    return s


def _add_row(rows, where, row):
    """Put ``row`` = (off-diagonal, diagonal, rhs) first (``where=0``) or last (-1)."""
    off, diag, rhs = row
    zero = jnp.zeros_like(diag)
    new = (zero, diag, off, rhs) if where == 0 else (off, diag, zero, rhs)
    return tuple(_concat(n, r) if where == 0 else _concat(r, n) for n, r in zip(new, rows))


def _replace_row(rows, where, row):
    """Replace the diagonal and rhs of the first (0) or last (-1) interior row."""
    sub, diag, sup, rhs = rows
    new_diag, new_rhs = row
    if where == 0:
        return sub, _concat(new_diag, diag[1:]), sup, _concat(new_rhs, rhs[:, 1:])
    return sub, _concat(diag[:-1], new_diag), sup, _concat(rhs[:, :-1], new_rhs)


def _concat(a, b):
    """Join along the last axis; a missing last axis on either side means one entry."""
    a, b = (v[..., None] if v.ndim < max(a.ndim, b.ndim) else v for v in (a, b))
    return jnp.concatenate([a, b], axis=-1)


def _derivative_row(kind, value, h_end, m_end, sign):
    """(off-diagonal, diagonal, rhs) of an end row with a derivative condition."""
    one = jnp.ones_like(h_end)
    if kind == 1:
        return 0 * one, one, jnp.broadcast_to(value, m_end.shape).astype(m_end.dtype)
    return one, 2 * one, 3 * m_end - sign * value * h_end / 2


def _not_a_knot_row(h_out, h_in, m_out, m_in):
    """(diagonal, rhs) of the row next to a not-a-knot end, reduced to dominance."""
    d = h_out + h_in
    return d, (h_in * m_out) * (h_in / d) + (h_out * m_in) * ((2 * h_out + 3 * h_in) / d)


def _not_a_knot_end(h_out, h_in, m_out, m_in, s_in):
    """The eliminated end slope: s_end = (b_end − d s_in) / h_in."""
    d = h_out + h_in
    b_end = (h_in * m_out) * ((h_out + 2 * d) / d) + (h_out * m_in) * (h_out / d)
    return (b_end - d * s_in) / h_in


def _parabola_slopes(h, m):
    """Three knots, not-a-knot at both ends: the parabola through the points.

    With q = (m_1 − m_0)/(h_0 + h_1) the second divided difference, the slopes
    are m_0 − q h_0, m_0 + q h_0, m_0 + q (h_0 + 2 h_1); q alone can overflow
    (f/h²), so each is formed as m_0 + (m_1 − m_0) · (a width ratio).
    """
    dm, d = m[:, 1] - m[:, 0], h[0] + h[1]
    ratios = (-h[0] / d, h[0] / d, (h[0] + 2 * h[1]) / d)
    return jnp.stack([m[:, 0] + dm * r for r in ratios], -1)


def _periodic_slopes(h, m):
    """Cyclic interior rows for all distinct knots; the closing knot repeats s_0."""
    if h.shape[0] == 1:  # one interval, equal ends: the constant spline
        return jnp.zeros((m.shape[0], 2), m.dtype)
    h_prev, m_prev = jnp.roll(h, 1), jnp.roll(m, 1, axis=-1)
    rhs = 3 * (h * m_prev + h_prev * m)
    s = cyclic_tridiagonal_solve(h, 2 * (h_prev + h), h_prev, rhs, pivoting=False)
    return jnp.concatenate([s, s[:, :1]], axis=-1)
