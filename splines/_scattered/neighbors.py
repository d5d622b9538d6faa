"""Local RBF interpolation: each query fits its k nearest sites only.

The k nearest sites are found without a tree: for a batch of queries, the
squared distances to every site and `lax.top_k`. Memory grows with
batch × sites, never with queries × sites; time grows with queries × sites
(a k-d tree, as scipy's, would grow with queries × log sites, but needs host
code). XLA:CPU's `top_k` is fast in float32 only (float64 falls back to a sort,
15x slower), so candidates are chosen on float32 distances — rounding is
monotone, so they contain the k nearest unless more than `_MARGIN` sites tie
with the k-th to float32 rounding — and the k nearest are then picked on the
distances in the data's precision.
"""

import jax
import jax.numpy as jnp
from jax import lax

from .._utils.validate import poison
from .interpolant import CHUNK_ENTRIES, data_are_valid, distinct_sites, fit, in_batches, values_at
from .kernels import squared_distances
from .polynomial import domain

# Extra float32 candidates per query, beyond k (see the module docstring).
_MARGIN = 8


def nearest(x, y, k: int):
    """The indices of the k sites nearest to each query, nearest first: (q, k)."""
    search = _searcher(y, k)
    return in_batches(jax.vmap(search), (x,), CHUNK_ENTRIES // len(y))


def _searcher(y, k: int):
    """A function of one query: the indices of its k nearest sites, nearest first."""
    n = len(y)
    shift, scale = domain(y)
    unit = jnp.max(scale)  # one scale for every axis keeps the Euclidean order
    ys = (y - shift) / unit
    exact = jnp.finfo(y.dtype).bits > 32
    candidates = min(n, k + _MARGIN) if exact else k

    def search(query):
        rho = squared_distances((query[None] - shift) / unit, ys, 1)[0]
        _, index = lax.top_k(-rho.astype(jnp.float32), candidates)
        if not exact:
            return index
        return index[jnp.argsort(rho[index])[:k]]

    return search


def local_values(x, y, d, smoothing, epsilon, kernel: str, powers: tuple, k: int):
    """Each query's value from the interpolant of its k nearest sites: (q, s).

    One loop over batches of queries, each searching and solving: memory grows with
    the batch × (sites + (k + R)²), not with the queries. Invalid data anywhere
    (`interpolant.data_are_valid`, coincident unsmoothed sites) make every value NaN,
    as in the global fit; a neighbourhood whose own system is singular makes its
    query's value NaN.
    """
    search = _searcher(y, k)

    def one(query):
        sites = search(query)
        ys, ds, ss = y[sites], d[sites], smoothing[sites]
        shift, scale, coefficients = fit(ys, ds, ss, epsilon, kernel, powers)
        return values_at(query[None], ys, shift, scale, coefficients, epsilon, kernel, powers)[0]

    size = CHUNK_ENTRIES // max(len(y), (k + len(powers)) ** 2)
    valid = data_are_valid(y, d, smoothing, epsilon) & distinct_sites(y, smoothing)
    return in_batches(jax.vmap(one), (x,), size) * poison(valid)
