"""Local polynomial pieces and their evaluation in Horner form.

On a cell ``[x_i, x_{i+1}]`` of width h, with ``t = x − x_i``, every method is a
polynomial ``c_0 + c_1 t + c_2 t² + c_3 t³``.  For cubic Hermite data (values
y, slopes s, secant m = (y_{i+1} − y_i)/h):

    c_0 = y_i,   c_1 = s_i,   c_2 = (3m − 2 s_i − s_{i+1}) / h,
    c_3 = (s_i + s_{i+1} − 2m) / h²,

the same local form as scipy's `PPoly`.  Evaluation is elementwise Horner,
never a matmul (GPU matmuls default to reduced precision).
"""

from math import factorial

import jax.numpy as jnp


def cubic_pieces(t, h, y0, y1, s0, s1):
    m = (y1 - y0) / h
    return [y0, s0, (3 * m - 2 * s0 - s1) / h, (s0 + s1 - 2 * m) / h**2]


def linear_pieces(t, h, y0, y1, s0=None, s1=None):
    return [y0, (y1 - y0) / h]


def nearest_pieces(t, h, y0, y1, s0=None, s1=None):
    """The nearer knot's value; a tie (midpoint) takes the left one, as scipy."""
    return [jnp.where(t <= h / 2, y0, y1)]


def horner(coefficients, t, derivative: int):
    """``d^k/dt^k Σ_j c_j t^j`` at t, for a static k ≥ 0 (zero past the degree)."""
    terms = [
        c * (factorial(j) // factorial(j - derivative))
        for j, c in enumerate(coefficients)
        if j >= derivative
    ]
    if not terms:
        return jnp.zeros_like(coefficients[0] * t)
    result = terms[-1]
    for c in reversed(terms[:-1]):
        result = c + t * result
    return result
