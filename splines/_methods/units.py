"""The unit of every knot's slope: a width of one of its cells.

The slope rules return ``u_i = s_i g_i``, the slope dy/dx at knot i times

    g_i = h_i  (its right cell),    g_{n-1} = h_{n-2}  (the last knot: its left cell),

a value-sized number (a value difference times a ratio of widths), where
dy/dx itself over- or underflows when the values are far smaller or larger
than the knots (values of 1e-30 on knots 1e30 apart: dy/dx = 1e-60).  Each
knot has its own unit: one global scale would be a scalar that every width
waits for, which makes a small fit on XLA:CPU over half again as slow.
`_pieces.polynomials.cubic_pieces` takes ``u`` as it is (``S_0 = u_j``,
``S_1 = u_{j+1} h_j / h_{j+1}``).
"""

import jax.numpy as jnp


def knot_units(h):
    """``g (n,)`` for the widths ``h (n-1,)``."""
    return jnp.concatenate([h, h[-1:]])


def as_dydx(u, h):
    """The slopes dy/dx ``(n, k)`` of ``u (n, k)``: ``u_i / g_i`` (may underflow: the
    true slope's own rounding)."""
    return u / knot_units(h)[:, None]
