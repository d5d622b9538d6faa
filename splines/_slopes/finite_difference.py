"""Slopes from neighbouring secants, no solve: ``"cubic"``, ``"cardinal"``, ``"catmull-rom"``.

With secants ``m_j = (y_{j+1} − y_j) / h_j`` (interpax's definitions):

    cubic (C¹ local spline):   s_i = (m_{i-1} + m_i) / 2,      s_0 = m_0,  s_{n-1} = m_{n-2}
    cardinal, tension c:       s_i = (1 − c) (y_{i+1} − y_{i-1}) / (x_{i+1} − x_{i-1}),
                               s_0 = (1 − c) m_0,  s_{n-1} = (1 − c) m_{n-2}
    catmull-rom:               cardinal with c = 0

c = 1 gives zero slopes (flat at every knot); c in [0, 1].  The cardinal
centred difference is the width-weighted mean of the two secants,
``(h_{i-1} m_{i-1} + h_i m_i) / (h_{i-1} + h_i)``, formed with width ratios
so that nothing overflows.  All three are linear in the values.
"""

import jax.numpy as jnp

from ._local import secants


def cubic_slopes(h, values, keep):
    m = secants(h, values)
    # m/2 + m/2 rather than (m + m)/2: no overflow near the largest float
    middle = m[:-1] / 2 + m[1:] / 2
    return jnp.concatenate([m[:1], middle, m[-1:]])[keep]


def cardinal_slopes(h, values, keep, tension=0.0):
    m = secants(h, values)
    span = h[:-1] + h[1:]
    left, right = (h[:-1] / span)[:, None], (h[1:] / span)[:, None]
    centred = m[:-1] * left + m[1:] * right
    return (1 - tension) * jnp.concatenate([m[:1], centred, m[-1:]])[keep]


def catmull_rom_slopes(h, values, keep):
    return cardinal_slopes(h, values, keep, 0.0)
