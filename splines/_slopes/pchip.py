"""Shape-preserving slopes (Fritsch–Carlson / Fritsch–Butland): ``"monotonic"``, ``"monotonic-0"``.

As `scipy.interpolate.PchipInterpolator`.  With secants m_j and widths h_j,
an interior knot where the secants change sign or either is zero is a local
extremum or a flat spot and gets ``s_i = 0``; otherwise the weighted harmonic
mean of the two secants,

    1 / s_i = (w_1 / m_{i-1} + w_2 / m_i) / (w_1 + w_2),
    w_1 = 2 h_i + h_{i-1},   w_2 = h_i + 2 h_{i-1},

which lies between them, so the interpolant never leaves the range of its
two neighbouring values: monotone data give a monotone interpolant.  The
weights enter as the ratios ``w / (w_1 + w_2)`` (scale-free).

Ends (Moler, *Numerical Computing with MATLAB*, pchiptx): the three-point
one-sided estimate ``s_0 = ((2 h_0 + h_1) m_0 − h_0 m_1) / (h_0 + h_1)``, set
to 0 if its sign differs from m_0's, and to 3 m_0 if m_0 and m_1 differ in
sign and |s_0| > 3 |m_0| (mirrored at the other end).  Two knots: the
chord's slope at both.  ``"monotonic-0"`` (interpax): the same interior
slopes with zero slopes at both ends.
"""

import jax.numpy as jnp

from ._local import secants


def monotonic_slopes(h, values, keep):
    m = secants(h, values)
    if m.shape[0] == 1:
        return jnp.concatenate([m, m])[keep]
    first = _end_slope(h[0], h[1], m[0], m[1])
    last = _end_slope(h[-1], h[-2], m[-1], m[-2])
    return jnp.concatenate([first[None], _interior(h, m), last[None]])[keep]


def monotonic_zero_end_slopes(h, values, keep):
    m = secants(h, values)
    zero = jnp.zeros_like(m[:1])
    return jnp.concatenate([zero, _interior(h, m), zero])[keep]


def _interior(h, m):
    """Harmonic-mean slopes at knots 1 … n-2, zero at extrema and flat spots.

    With the weights a = w_1/(w_1+w_2), b = w_2/(w_1+w_2) and the secants
    ordered by magnitude (m_s the smaller, of weight w_s; m_l the larger),

        s = 1 / (a/m_{i-1} + b/m_i) = m_s / (w_s + w_l · m_s/m_l),

    whose ratio is at most 1 and whose denominator lies in (0, 1]: nothing
    overflows, and no reciprocal of a large secant flushes to zero.
    """
    before, after = m[:-1], m[1:]
    flat = (jnp.sign(before) != jnp.sign(after)) | (before == 0) | (after == 0)
    h_before, h_after = h[:-1, None], h[1:, None]
    w1, w2 = 2 * h_after + h_before, h_after + 2 * h_before
    a, b = w1 / (w1 + w2), w2 / (w1 + w2)
    before_smaller = jnp.abs(before) <= jnp.abs(after)
    small, large = jnp.where(before_smaller, before, after), jnp.where(before_smaller, after, before)
    w_small, w_large = jnp.where(before_smaller, a, b), jnp.where(before_smaller, b, a)
    # Where `flat`, a zero secant would divide by zero: feed 1s instead.
    ratio = small / jnp.where(flat, 1, large)
    return jnp.where(flat, 0, small / (w_small + w_large * ratio))


def _end_slope(h_end, h_next, m_end, m_next):
    r = h_end / (h_end + h_next)
    s = (1 + r) * m_end - r * m_next  # ((2 h0 + h1) m0 − h0 m1) / (h0 + h1)
    overshoot = (jnp.sign(m_end) != jnp.sign(m_next)) & (jnp.abs(s) > 3 * jnp.abs(m_end))
    s = jnp.where(overshoot, 3 * m_end, s)
    return jnp.where(jnp.sign(s) != jnp.sign(m_end), 0, s)
