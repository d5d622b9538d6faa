"""Shape-preserving slopes (Fritsch–Carlson / Fritsch–Butland): ``"monotonic"``, ``"monotonic-0"``.

As `scipy.interpolate.PchipInterpolator`.  With secants m_j and widths h_j,
an interior knot where the secants change sign or either is zero is a local
extremum or a flat spot and gets ``s_i = 0``; otherwise the weighted harmonic
mean of the two secants,

    1 / s_i = (w_1 / m_{i-1} + w_2 / m_i) / (w_1 + w_2),
    w_1 = 2 h_i + h_{i-1},   w_2 = h_i + 2 h_{i-1},

which lies between them, so the interpolant never leaves the range of its
two neighbouring values: monotone data give a monotone interpolant.  The
weights enter as the ratios ``w_1 / (w_1 + w_2) = (1 + λ)/3`` and
``w_2 / (w_1 + w_2) = (2 − λ)/3`` with ``λ = h_i / (h_{i-1} + h_i)``.

Ends (Moler, *Numerical Computing with MATLAB*, pchiptx): the three-point
one-sided estimate ``s_0 = ((2 h_0 + h_1) m_0 − h_0 m_1) / (h_0 + h_1)``, set
to 0 if its sign differs from m_0's, and to 3 m_0 if m_0 and m_1 differ in
sign and |s_0| > 3 |m_0| (mirrored at the other end).  Two knots: the
chord's slope at both.  ``"monotonic-0"`` (interpax): the same interior
slopes with zero slopes at both ends.

Every formula is homogeneous of degree one in the secants and its tests
compare signs and ratios of secants, so each knot's slope comes in its own
unit (`units`) from the secants in that unit: ``(Δ_{i-1} h_i/h_{i-1}, Δ_i)``
at an interior knot, ``(Δ_0, Δ_1 h_0/h_1)`` at the first, mirrored at the
last; ``r = h_0/(h_0 + h_1) = 1/(1 + h_1/h_0)``.
"""

import jax.numpy as jnp

from .local import interior_secants, share


def monotonic_slopes(h, values, keep):
    delta = jnp.diff(values, axis=0)
    if delta.shape[0] == 1:
        return jnp.concatenate([delta, delta])[keep]
    first = _end_slope(h[0], h[1], delta[0], delta[1])
    last = _end_slope(h[-1], h[-2], delta[-1], delta[-2])
    return jnp.concatenate([first[None], _interior(h, delta), last[None]])[keep]


def monotonic_zero_end_slopes(h, values, keep):
    delta = jnp.diff(values, axis=0)
    zero = jnp.zeros_like(delta[:1])
    return jnp.concatenate([zero, _interior(h, delta), zero])[keep]


def _interior(h, delta):
    """Harmonic-mean slopes at knots 1 … n-2, zero at extrema and flat spots.

    With the weights a = w_1/(w_1+w_2), b = w_2/(w_1+w_2) and the secants
    (in the knot's unit) ordered by magnitude (m_s the smaller, of weight w_s;
    m_l the larger),

        s = 1 / (a/m_{i-1} + b/m_i) = m_s / (w_s + w_l · m_s/m_l),

    whose ratio is at most 1 and whose denominator lies in (0, 1]: nothing
    overflows, and no reciprocal of a large secant flushes to zero.
    """
    before, after = interior_secants(h, delta)
    flat = (jnp.sign(before) != jnp.sign(after)) | (before == 0) | (after == 0)
    lam = share(h[:-1], h[1:])[:, None]  # h_i / (h_{i-1} + h_i)
    a, b = (1 + lam) / 3, (2 - lam) / 3
    before_smaller = jnp.abs(before) <= jnp.abs(after)
    small, large = (
        jnp.where(before_smaller, before, after),
        jnp.where(before_smaller, after, before),
    )
    w_small, w_large = jnp.where(before_smaller, a, b), jnp.where(before_smaller, b, a)
    # Where `flat`, a zero secant would divide by zero: feed 1s instead.
    ratio = small / jnp.where(flat, 1, large)
    return jnp.where(flat, 0, small / (w_small + w_large * ratio))


def _end_slope(h_end, h_next, delta_end, delta_next):
    """The end knot's slope in the unit h_end, from Δ_end and the next secant in that unit."""
    r = share(h_next, h_end)  # h_end / (h_end + h_next)
    m_next = delta_next * (h_end / h_next)
    s = (1 + r) * delta_end - r * m_next  # ((2 h0 + h1) m0 − h0 m1) / (h0 + h1), times h0
    overshoot = (jnp.sign(delta_end) != jnp.sign(m_next)) & (jnp.abs(s) > 3 * jnp.abs(delta_end))
    s = jnp.where(overshoot, 3 * delta_end, s)
    return jnp.where(jnp.sign(s) != jnp.sign(delta_end), 0, s)
