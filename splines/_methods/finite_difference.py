"""Slopes from neighbouring secants, no solve: ``"cubic"``, ``"cardinal"``, ``"catmull-rom"``.

With secants ``m_j = (y_{j+1} − y_j) / h_j`` (interpax's definitions):

    cubic (C¹ local spline):   s_i = (m_{i-1} + m_i) / 2,      s_0 = m_0,  s_{n-1} = m_{n-2}
    cardinal, tension c:       s_i = (1 − c) (y_{i+1} − y_{i-1}) / (x_{i+1} − x_{i-1}),
                               s_0 = (1 − c) m_0,  s_{n-1} = (1 − c) m_{n-2}
    catmull-rom:               cardinal with c = 0

c = 1 gives zero slopes (flat at every knot); c in [0, 1].  All three are
linear in the values.  In the knots' units (`units`, ``u_i = s_i g_i``),
with ``Δ_j = y_{j+1} − y_j``:

    cubic:     u_i = Δ_{i-1} (h_i / h_{i-1}) / 2 + Δ_i / 2,   u_0 = Δ_0,  u_{n-1} = Δ_{n-2}
    cardinal:  u_i = (1 − c) (Δ_{i-1} w_i + Δ_i w_i),  w_i = h_i / (h_{i-1} + h_i),
               u_0 = (1 − c) Δ_0,  u_{n-1} = (1 − c) Δ_{n-2}

(halves and products taken before the sums, and w_i = 1 / (1 + h_{i-1}/h_i):
nothing overflows where the answer does not).
"""

import jax.numpy as jnp

from .local import interior_secants, share


def cubic_slopes(h, values, keep):
    delta = jnp.diff(values, axis=0)
    before, after = interior_secants(h, delta)
    middle = before / 2 + after / 2
    return jnp.concatenate([delta[:1], middle, delta[-1:]])[keep]


def cardinal_slopes(h, values, keep, tension=0.0):
    delta = jnp.diff(values, axis=0)
    w = share(h[:-1], h[1:])[:, None]
    centred = delta[:-1] * w + delta[1:] * w
    return (1 - tension) * jnp.concatenate([delta[:1], centred, delta[-1:]])[keep]


def catmull_rom_slopes(h, values, keep):
    return cardinal_slopes(h, values, keep, 0.0)
