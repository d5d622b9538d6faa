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

Scaled system.  The unknowns are the slopes in each knot's unit (`units`),
``u_i = s_i g_i`` (g_i = h_i, g_{n-1} = h_{n-2}): a column scaling, and each
row is scaled too, so that every coefficient is a ratio of widths and every
right-hand side a value difference Δ_j = y_{j+1} − y_j times such ratios —
nothing of size Δ/h, no sum of two widths.  The LU multipliers of a row- and
column-scaled matrix are those of the original, so Thomas without pivoting is
as stable as on the dominant rows above.  With ρ_i = h_{i-1}/h_i, q_i = 1/ρ_i,
a_i = h_i/(h_{i-1} + h_i) = 1/(1 + ρ_i) and b_i = 1 − a_i = ρ_i a_i, the
interior row i (de Boor's row in the u_j, times a_i: its diagonal becomes 2):

    a_i q_i u_{i-1} + 2 u_i + b_i (h_i/g_{i+1}) u_{i+1} = 3 (a_i q_i Δ_{i-1} + b_i Δ_i),

(h_i/g_{i+1} = ρ_{i+1}, or 1 next to the last knot).  End rows (times h_0,
resp. h_{n-2}): u_0 = v h_0;  2 u_0 + (h_0/g_1) u_1 = 3 Δ_0 − (v h_0) h_0 / 2;
mirrored u_{n-1} = v h_{n-2};  u_{n-2} + 2 u_{n-1} = 3 Δ_{n-2} + (v h_{n-2}) h_{n-2} / 2.
Not-a-knot, the reduced row next to each end (row 1 times a_1, row n-2 times
a_{n-2}, as the interior rows; the off-diagonal stays the interior one):

    start:  u_1 + … = a_1 (a_1 q_1) Δ_0 + b_1 (2 + a_1) Δ_1,
            u_0 = (2 + b_1) Δ_0 + ρ_1 ((b_1 ρ_1) Δ_1 − (1 + ρ_1) u_1);
    end:    … + u_{n-2} = b (b Δ_{n-2}) + (2 + b) (a q) Δ_{n-3},
            u_{n-1} = (2 + a) Δ_{n-2} + q ((a q) Δ_{n-3}) − (1 + q) u_{n-2}

(a, b, q of row n-2).  Periodic rows: the same, cyclically (`_periodic_slopes`).
What must be representable is the slopes in these units — about the values
times neighbouring width ratios — and those ratios, not dy/dx.
"""

import jax.numpy as jnp

from .._linalg.cyclic import cyclic_tridiagonal_solve
from .._linalg.tridiagonal import tridiagonal_solve
from .ends import NOT_A_KNOT, PERIODIC, EndConditions


def cubic2_slopes(h, fp, ends: EndConditions):
    """Slopes ``(n, k)`` at the knots, in each knot's unit (`units`), for cell widths
    ``h (n-1,)`` and values ``fp (n, k)``.

    ``ends.values`` hold arrays of shape ``(k,)``, derivatives in x units.  For
    periodic ends the last knot closes the period (``fp[-1] == fp[0]``).
    """
    delta = jnp.diff(fp, axis=0).T  # (k, n-1)
    if ends.kinds[0] == PERIODIC:
        slopes = _periodic_slopes(h, delta)
    else:
        kinds, values = _short_spline_ends(ends.kinds, _in_cell_units(ends, h), delta)
        slopes = _clamped_or_free_slopes(h, delta, kinds, values)
    return slopes.T


def _in_cell_units(ends: EndConditions, h):
    """The end values in the end knots' units: v h for a slope, (v h) h for a second
    derivative (in that order: v h lies between v and v h², so it over- or
    underflows only if one of them does)."""
    scaled = []
    for kind, value, width in zip(ends.kinds, ends.values, (h[0], h[-1])):
        scaled.append(value * width if kind == 1 else value * width * width if kind == 2 else value)
    return tuple(scaled)


def _short_spline_ends(kinds, values, delta):
    """scipy's rule for two knots: a not-a-knot end fixes the slope to the secant (u = Δ_0)."""
    if delta.shape[-1] > 1:
        return kinds, values
    values = tuple(delta[:, 0] if k == NOT_A_KNOT else v for k, v in zip(kinds, values))
    return tuple(1 if k == NOT_A_KNOT else k for k in kinds), values


def _interior_rows(h, delta):
    """(sub, diag, super, rhs) of rows 1..n-2 and their ``(a, b, q, ρ)`` (module docstring)."""
    rho = h[:-1] / h[1:]  # one ratio per row; everything else follows from it
    a = 1 / (1 + rho)
    b, q = rho * a, 1 / rho
    sub = a * q
    sup = b * jnp.concatenate([rho[1:], jnp.ones_like(rho[:1])])  # h_i / g_{i+1}
    rhs = 3 * (sub * delta[:, :-1] + b * delta[:, 1:])
    return (sub, 2 * jnp.ones_like(a), sup, rhs), (a, b, q, rho)


def _clamped_or_free_slopes(h, delta, kinds, values):
    n = h.shape[0] + 1
    start_free, end_free = (k == NOT_A_KNOT for k in kinds)
    if n == 3 and start_free and end_free:
        return _parabola_slopes(h, delta)
    rows, (a, b, q, rho) = _interior_rows(h, delta)
    if start_free:
        start = (a[0], b[0], q[0], rho[0])
        rows = _replace_row(rows, 0, _not_a_knot_start_row(*start, delta[:, 0], delta[:, 1]))
    else:
        off = rho[0] if n > 2 else jnp.ones_like(h[0])  # h_0 / g_1
        rows = _add_row(rows, 0, _derivative_row(kinds[0], values[0], delta[:, 0], off, +1))
    if end_free:
        end = (a[-1], b[-1], q[-1], rho[-1])
        rows = _replace_row(rows, -1, _not_a_knot_end_row(*end, delta[:, -1], delta[:, -2]))
    else:
        one = jnp.ones_like(h[0])  # h_{n-2} / g_{n-2}
        rows = _add_row(rows, -1, _derivative_row(kinds[1], values[1], delta[:, -1], one, -1))
    sub, diag, sup, rhs = rows
    u = tridiagonal_solve(sub[1:], diag, sup[:-1], rhs, pivoting=False)  # scaled dominant rows
    if start_free:
        u0 = _not_a_knot_start(*start, delta[:, 0], delta[:, 1], u[:, 0])
        u = jnp.concatenate([u0[:, None], u], axis=-1)
    if end_free:
        u1 = _not_a_knot_end(*end, delta[:, -1], delta[:, -2], u[:, -1])
        u = jnp.concatenate([u, u1[:, None]], axis=-1)
    return u


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


def _derivative_row(kind, value, delta_end, off, sign):
    """(off-diagonal, diagonal, rhs) of an end row with a derivative condition
    (``value`` in the end knot's unit, `_in_cell_units`)."""
    one = jnp.ones_like(off)
    if kind == 1:
        return 0 * one, one, jnp.broadcast_to(value, delta_end.shape).astype(delta_end.dtype)
    return off, 2 * one, 3 * delta_end - sign * value / 2


def _not_a_knot_start_row(a, b, q, rho, delta_out, delta_in):
    """(diagonal, rhs) of row 1 with u_0 eliminated (row 1's a, b, q, ρ)."""
    return jnp.ones_like(a), a * (a * q) * delta_out + b * (2 + a) * delta_in


def _not_a_knot_start(a, b, q, rho, delta_out, delta_in, u_in):
    """The eliminated u_0 from u_1 (ρ_1 = h_0/h_1; the unit of u_1 is h_1)."""
    return (2 + b) * delta_out + rho * ((b * rho) * delta_in - (1 + rho) * u_in)


def _not_a_knot_end_row(a, b, q, rho, delta_out, delta_in):
    """(diagonal, rhs) of row n-2 with u_{n-1} eliminated (row n-2's a, b, q, ρ)."""
    return jnp.ones_like(a), b * (b * delta_out) + (2 + b) * ((a * q) * delta_in)


def _not_a_knot_end(a, b, q, rho, delta_out, delta_in, u_in):
    """The eliminated u_{n-1} from u_{n-2} (q = h_{n-2}/h_{n-3}; both in the unit h_{n-2})."""
    return (2 + a) * delta_out + q * ((a * q) * delta_in) - (1 + q) * u_in


def _parabola_slopes(h, delta):
    """Three knots, not-a-knot at both ends: the parabola through the points.

    In x units the slopes are m_0 − c h_0, m_0 + c h_0, m_0 + c (h_0 + 2 h_1)
    with c = (m_1 − m_0)/(h_0 + h_1); in the knots' units (h_0, h_1, h_1), with
    α = h_0/(h_0 + h_1), β = 1 − α, ρ = h_0/h_1, q = 1/ρ:

        u_0 = (1 + α) Δ_0 − (α ρ) Δ_1,   u_1 = (β q) Δ_0 + α Δ_1,   u_2 = (1 + β) Δ_1 − (β q) Δ_0.
    """
    rho, q = h[0] / h[1], h[1] / h[0]
    alpha, beta = 1 / (1 + q), 1 / (1 + rho)
    d0, d1 = delta[:, 0], delta[:, 1]
    u0 = (1 + alpha) * d0 - (alpha * rho) * d1
    u1 = (beta * q) * d0 + alpha * d1
    u2 = (1 + beta) * d1 - (beta * q) * d0
    return jnp.stack([u0, u1, u2], -1)


def _periodic_slopes(h, delta):
    """Cyclic rows for the distinct knots 0 … c-1; the closing knot c repeats s_0.

    Knot 0 is solved for in the unit of its left cell, h_{c-1} — the closing
    knot's unit (`units`) — and the others in their right cells' (the
    interior rows of the module docstring, cyclically).  That keeps the two
    corner entries, a_0 and b_{c-1}, below the diagonal 2, as in de Boor's
    dominant rows, where the cyclic solve's Sherman–Morrison split is
    accurate (with knot 0 in h_0 the corners grow with h_0/h_{c-1}).
    Row 0 (times b_0):  a_0 u_{c-1} + 2 v_0 + b_0 (h_{c-1}/h_1) u_1 = 3 (a_0 Δ_{c-1} + (b_0 ρ_0) Δ_0).
    """
    if h.shape[0] == 1:  # one interval, equal ends: the constant spline
        return jnp.zeros((delta.shape[0], 2), delta.dtype)
    h_prev, delta_prev = jnp.roll(h, 1), jnp.roll(delta, 1, axis=-1)
    rho, q = h_prev / h, h / h_prev
    a, b = 1 / (1 + rho), 1 / (1 + q)
    before = jnp.concatenate([a[:1], (a * q)[1:]])  # a_i q_i = a_i h_i / h_{i-1}
    after = jnp.concatenate([b[:1] * rho[:1], b[1:]])
    rhs = 3 * (before * delta_prev + after * delta)
    # Column 0 in the unit h_{c-1}: the entries of v_0 in rows 1 and c-1.
    sub = jnp.concatenate([a[:1], a[1:2] * (h[1:2] / h[-1:]), (a * q)[2:]])
    sup = jnp.concatenate([b[:1] * (h[-1:] / h[1:2]), (b * jnp.roll(rho, -1))[1:-1], b[-1:]])
    w = cyclic_tridiagonal_solve(sub, 2 * jnp.ones_like(a), sup, rhs, pivoting=False)
    u0 = w[:, :1] * (h[0] / h[-1])  # s_0 h_0
    return jnp.concatenate([u0, w[:, 1:], w[:, :1]], axis=-1)
