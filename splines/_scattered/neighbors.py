"""Local RBF interpolation: each query fits its k nearest sites only.

The k nearest sites are found without a tree: for a chunk of queries, the
squared distances to every site and `lax.top_k`. Memory grows with
chunk × sites, never with queries × sites; time grows with queries × sites
(a k-d tree, as scipy's, would grow with queries × log sites, but needs host
code). XLA:CPU's `top_k` is fast in float32 only (float64 falls back to a sort,
15x slower), so candidates are chosen on float32 distances — rounding is
monotone, so they contain the k nearest unless more than `_MARGIN` sites tie
with the k-th to float32 rounding — and the k nearest are then picked on the
distances in the data's precision.
"""

import jax.numpy as jnp
from jax import lax

from .interpolant import CHUNK_ENTRIES, evaluate, fit
from .kernels import squared_distances
from .polynomial import domain

# Extra float32 candidates per query, beyond k (see the module docstring).
_MARGIN = 8


def nearest(x, y, k: int):
    """The indices of the k sites nearest to each query, nearest first: (q, k)."""
    n = len(y)
    shift, scale = domain(y)
    unit = jnp.max(scale)  # one scale for every axis keeps the Euclidean order
    xs, ys = (x - shift) / unit, (y - shift) / unit
    exact = jnp.finfo(y.dtype).bits > 32
    candidates = min(n, k + _MARGIN) if exact else k

    def one(query):
        rho = squared_distances(query[None], ys, 1)[0]
        _, index = lax.top_k(-rho.astype(jnp.float32), candidates)
        if not exact:
            return index
        return index[jnp.argsort(rho[index])[:k]]

    return lax.map(one, xs, batch_size=max(1, CHUNK_ENTRIES // n))


def local_values(x, y, d, smoothing, epsilon, kernel: str, powers: tuple, k: int):
    """Each query's value from the interpolant of its k nearest sites: (q, s)."""

    def one(query_and_sites):
        query, sites = query_and_sites
        ys, ds, ss = y[sites], d[sites], smoothing[sites]
        shift, scale, coefficients = fit(ys, ds, ss, epsilon, kernel, powers)
        return evaluate(query[None], ys, shift, scale, coefficients, epsilon, kernel, powers)[0]

    size = (k + len(powers)) ** 2
    return lax.map(one, (x, nearest(x, y, k)), batch_size=max(1, CHUNK_ENTRIES // size))
