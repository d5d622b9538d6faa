"""Akima slopes, ``"akima"`` and ``"makima"``, as `scipy.interpolate.Akima1DInterpolator`.

At knot i the four secants around it, ``m_{i-2}, m_{i-1}, m_i, m_{i+1}``,
give the slope as a weighted mean of the middle two:

    s_i = m_{i-1} + f_2 / (f_1 + f_2) · (m_i − m_{i-1}),
    akima:   f_1 = |m_{i+1} − m_i|,                     f_2 = |m_{i-1} − m_{i-2}|
    makima:  f_1 = |m_{i+1} − m_i| + |m_{i+1} + m_i|/2,  f_2 = |m_{i-1} − m_{i-2}| + |m_{i-1} + m_{i-2}|/2

(makima's extra terms damp the overshoot of Akima's at flat runs).  Where
``f_1 + f_2 ≤ 10⁻⁹ · max(f_1 + f_2)`` — the maximum over every knot and
column of the fit, as scipy (the kept knots of periodic data, `_local`) —
the weights are undefined and
``s_i = (m_{i-2} + m_{i+1}) / 2``.  Two secants are extrapolated linearly
beyond each end, ``m_{-1} = 2 m_0 − m_1``, ``m_{-2} = 2 m_{-1} − m_0`` (and
mirrored).  Two knots: the chord's slope at both.
"""

import jax.numpy as jnp

from ._local import safe_divide, secants

_BREAK = 1e-9  # scipy's cutoff for undefined weights, relative to their maximum


def akima_slopes(h, values, keep):
    return _akima(h, values, keep, modified=False)


def makima_slopes(h, values, keep):
    return _akima(h, values, keep, modified=True)


def _akima(h, values, keep, modified: bool):
    m = secants(h, values)
    if m.shape[0] == 1:
        return jnp.concatenate([m, m])[keep]
    # A quarter of the secants (exact: a power of two): the extension reaches
    # 3 m_0 − 2 m_1 and a weight sum four secant jumps, which would overflow
    # for secants within a few times of the largest float; weights are ratios.
    q = _extend(m / 4)  # (n + 3, k): m_{-2} … m_{n}, quartered
    jumps = jnp.abs(jnp.diff(q, axis=0))
    if modified:
        jumps = jumps + jnp.abs(q[1:] + q[:-1]) / 2
    f1, f2 = jumps[2:][keep], jumps[:-2][keep]
    total = f1 + f2
    defined = total > _BREAK * _finite_max(total)
    before, after = q[1:-2][keep], q[2:-1][keep]
    weighted = before + safe_divide(f2, jnp.where(defined, total, 0), 0) * (after - before)
    return 4 * jnp.where(defined, weighted, (q[3:][keep] + q[:-3][keep]) / 2)


def _finite_max(total):
    """The largest finite weight sum (0 if none): a NaN or inf from bad data at one
    knot must not move every knot's cutoff (traced data are not checked eagerly)."""
    return jnp.max(jnp.where(jnp.isfinite(total), total, 0), initial=0)


def _extend(m):
    """Two linearly extrapolated secants beyond each end."""
    low1 = 2 * m[0] - m[1]
    low2 = 2 * low1 - m[0]
    high1 = 2 * m[-1] - m[-2]
    high2 = 2 * high1 - m[-1]
    return jnp.concatenate([low2[None], low1[None], m, high1[None], high2[None]])
