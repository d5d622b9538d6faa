"""Derivatives, antiderivatives and integrals of piecewise polynomials in local form.

On piece j of width h, ``q(t) = Σ_p q_p t^p`` with ``t = (x − b_j) / h`` (`_pieces.polynomials`), so

    dq/dx = (1/h) Σ_p (p+1) q_{p+1} t^p,
    ∫ q dx = C_j + h Σ_p q_p t^{p+1} / (p+1).

The constants make the antiderivative continuous and zero at the lowest
break: ``C_{j+1} = C_j + h_j Σ_p q_{j,p} / (p+1)`` (the integral over piece
j), a running sum.  (scipy's anchor is its first breakpoint ``x[0]``: our
lowest break, also for descending breakpoints, held as −x.)  Coefficients keep the units of the values (times h per
antiderivative), so nothing here overflows for tiny or huge spans.
"""

import jax.numpy as jnp
import numpy as np

from .search import wrap


def derivative_pieces(breaks, coefficients, nu: int):
    """Local coefficients of the ``nu``-th x-derivative (a zero constant past the degree)."""
    degree = coefficients.shape[-1] - 1
    if nu > degree:  # scipy keeps one (zero) coefficient; NaN data stays NaN
        return 0 * coefficients[..., :1]
    inverse = 1 / jnp.diff(breaks)[:, None, None]
    for _ in range(nu):
        powers = jnp.arange(1, coefficients.shape[-1], dtype=coefficients.real.dtype)
        coefficients = coefficients[..., 1:] * powers * inverse
    return coefficients


def antiderivative_pieces(breaks, coefficients, nu: int):
    """Local coefficients of the ``nu``-th antiderivative, zero (with its first
    ``nu − 1`` derivatives) at the lowest break."""
    widths = jnp.diff(breaks)[:, None, None]
    for _ in range(nu):
        powers = jnp.arange(1, coefficients.shape[-1] + 1, dtype=coefficients.real.dtype)
        rising = coefficients * widths / powers  # h q_p / (p+1): the powers t^1 … t^{d+1}
        totals = jnp.sum(rising, axis=-1)  # ∫ over each piece, (m, k)
        starts = jnp.cumsum(totals, axis=0) - totals  # C_j, zero at the lowest break
        coefficients = jnp.concatenate([starts[..., None], rising], axis=-1)
    return coefficients


def integral(evaluate_at, a, b, breaks, periodic: bool):
    """``∫_a^b`` from an antiderivative F evaluated by ``evaluate_at(points)`` (first axis).

    Periodic: the antiderivative of the periodic extension is
    ``G(x) = F(wrap(x)) + n(x) T`` with ``n(x) = floor((x − b_0) / P)`` whole
    periods of integral ``T = F(b_m) − F(b_0)``; the result is ``G(b) − G(a)``.
    """
    if not periodic:
        ends = evaluate_at(jnp.stack([a, b]))
        return ends[1] - ends[0]
    start, period = breaks[0], breaks[-1] - breaks[0]
    points = jnp.stack([a, b])
    turns = jnp.floor((points - start) / period)
    values = evaluate_at(jnp.concatenate([wrap(points, start, period), breaks[np.array([0, -1])]]))
    whole = values[3] - values[2]
    return (values[1] - values[0]) + (turns[1] - turns[0]) * whole
