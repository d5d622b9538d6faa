"""One RBF interpolant: its fit on a set of sites and its evaluation at queries.

f(x) = Σ_j c_j φ(ε ‖x − y_j‖) + Σ_k b_k p_k((x − shift) / scale), with
(K + diag(smoothing)) c + P b = d and Pᵀ c = 0 (`solve.py`). The global
interpolant fits all sites once; the local one (`neighbors.py`) fits each query's
nearest sites with the same two functions.
"""

import jax.numpy as jnp
from jax import lax

from .._utils.validate import poison
from .kernels import KERNELS, squared_distances
from .polynomial import domain, polynomial_matrix
from .solve import saddle_point_solve

# Queries are evaluated in chunks of at most this many kernel entries
# (8 MiB in float64): the whole (queries × sites) matrix is never formed.
CHUNK_ENTRIES = 1 << 20

# Products at the data's precision (a GPU's default float32 dot rounds to TF32).
_EXACT = lax.Precision.HIGHEST


def fit(y, d, smoothing, epsilon, kernel: str, powers: tuple):
    """Shift, scale and the coefficients (c; b) of the interpolant through (y, d).

    y: (n, N) sites, d: (n, s) values, smoothing: (n,), epsilon: ().
    Coefficients of duplicate sites without smoothing (a singular system), of a
    negative smoothing or of an ε that is not finite and positive are NaN, with
    NaN gradients.
    """
    shift, scale = domain(y)
    rho = squared_distances(y, y, epsilon)
    a = KERNELS[kernel](rho) + jnp.diag(smoothing)
    p = polynomial_matrix(y, shift, scale, powers)
    c, b = saddle_point_solve(a, p, d)
    valid = _solvable(rho, p, smoothing, epsilon)
    return shift, scale, jnp.concatenate([c, b]) * poison(valid)


def _solvable(rho, p, smoothing, epsilon):
    """No two sites coincide unless one is smoothed; the polynomial block has full
    rank; smoothing ≥ 0; 0 < ε < ∞."""
    unsmoothed = smoothing == 0
    clash = (rho == 0) & unsmoothed[:, None] & unsmoothed[None, :]
    clash = clash & ~jnp.eye(len(rho), dtype=bool)
    return (
        ~jnp.any(clash)
        & full_rank(p)
        & jnp.all(smoothing >= 0)
        & (epsilon > 0)
        & jnp.isfinite(epsilon)
    )


def full_rank(p):
    """P's columns are independent: R's diagonal (P = Q R) above numpy's `matrix_rank`
    tolerance, max(n, m) · ε · its largest entry (|R_ii| stands in for the singular
    values)."""
    if p.shape[1] == 0:
        return jnp.ones((), bool)
    size = jnp.abs(jnp.diagonal(jnp.linalg.qr(p, mode="r")))
    return jnp.all(size > max(p.shape) * jnp.finfo(p.dtype).eps * jnp.max(size))


def evaluate(x, y, shift, scale, coefficients, epsilon, kernel: str, powers: tuple):
    """The interpolant at the queries x: (q, N) → (q, s), in chunks of queries."""
    n = len(y)
    c, b = coefficients[:n], coefficients[n:]

    def value(query):
        query = query[None]
        k = KERNELS[kernel](squared_distances(query, y, epsilon))
        p = polynomial_matrix(query, shift, scale, powers)
        return (jnp.dot(k, c, precision=_EXACT) + jnp.dot(p, b, precision=_EXACT))[0]

    return lax.map(value, x, batch_size=max(1, CHUNK_ENTRIES // (n + len(powers))))
