"""Piecewise polynomials: every method becomes breakpoints + local coefficients.

On piece j, ``[b_j, b_{j+1}]``, with ``t = x − b_j`` the interpolant is
``Σ_k c[j, :, k] t^k`` — scipy's `PPoly` form, with coefficients stored in
ascending order along the last axis.  For cubic Hermite data (values y,
slopes s, width h, secant m = (y_{i+1} − y_i)/h):

    c_0 = y_i,   c_1 = s_i,   c_2 = (3m − 2 s_i − s_{i+1}) / h,
    c_3 = (s_i + s_{i+1} − 2m) / h².

Evaluation is elementwise Horner, never a matmul (GPU matmuls default to
reduced precision).
"""

from math import factorial

import jax.numpy as jnp


def cubic_pieces(xp, fp, slopes):
    """Cubic Hermite pieces on the knots: ``(n-1, k, 4)`` coefficients."""
    h = jnp.diff(xp)[:, None]
    m = jnp.diff(fp, axis=0) / h
    s0, s1 = slopes[:-1], slopes[1:]
    c2 = (3 * m - 2 * s0 - s1) / h
    c3 = (s0 + s1 - 2 * m) / h**2
    return xp, jnp.stack([fp[:-1], s0, c2, c3], axis=-1)


def linear_pieces(xp, fp, slopes=None):
    """Chords between the knots: ``(n-1, k, 2)`` coefficients."""
    m = jnp.diff(fp, axis=0) / jnp.diff(xp)[:, None]
    return xp, jnp.stack([fp[:-1], m], axis=-1)


def nearest_pieces(xp, fp, slopes=None):
    """Constants between midpoints: breaks ``x_0, (x_0+x_1)/2, …, x_{n-1}``."""
    midpoints = (xp[:-1] + xp[1:]) / 2
    breaks = jnp.concatenate([xp[:1], midpoints, xp[-1:]])
    return breaks, fp[..., None]


def horner(coefficients, t, derivative: int):
    """``d^k/dt^k Σ_j c[..., j] t^j`` for a static k ≥ 0 (zero past the degree)."""
    degree = coefficients.shape[-1] - 1
    if derivative > degree:  # zero, but NaN coefficients (invalid data) stay NaN
        return 0 * (coefficients[..., 0] * t)
    scale = [factorial(j) // factorial(j - derivative) for j in range(derivative, degree + 1)]
    result = scale[-1] * coefficients[..., degree]
    for j in range(degree - 1, derivative - 1, -1):
        result = scale[j - derivative] * coefficients[..., j] + t * result
    return result
