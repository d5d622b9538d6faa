"""One RBF interpolant: its fit on a set of sites and its evaluation at queries.

f(x) = Σ_j c_j φ(ε ‖x − y_j‖) + Σ_k b_k p_k((x − shift) / scale), with
(K + diag(smoothing)) c + P b = d and Pᵀ c = 0 (`solve.py`). The global
interpolant fits all sites once; the local one (`neighbors.py`) fits each query's
nearest sites with the same two functions.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .._utils.validate import poison
from .kernels import KERNELS, squared_distances
from .polynomial import domain, polynomial_matrix
from .solve import saddle_point_solve

# Queries are evaluated in batches of at most this many kernel entries
# (8 MiB in float64): the whole (queries × sites) matrix is never formed.
CHUNK_ENTRIES = 1 << 20

# Products at the data's precision (a GPU's default float32 dot rounds to TF32).
_EXACT = lax.Precision.HIGHEST


def fit(y, d, smoothing, epsilon, kernel: str, powers: tuple):
    """Shift, scale and the coefficients (c; b) of the interpolant through (y, d).

    y: (n, N) sites, d: (n, s) values, smoothing: (n,), epsilon: ().
    Coefficients of invalid data (`_solvable`) are NaN, with NaN gradients.
    """
    shift, scale = domain(y)
    rho = squared_distances(y, y, epsilon)
    # The diagonal by a scatter: + jnp.diag's compare in the kernel's fusion would make
    # it 3x slower (kernels.py).
    a = KERNELS[kernel](rho).at[jnp.arange(len(y)), jnp.arange(len(y))].add(smoothing)
    p = polynomial_matrix(y, shift, scale, powers)
    c, b = saddle_point_solve(a, p, d)
    valid = _solvable(rho, p, smoothing) & data_are_valid(y, d, smoothing, epsilon)
    return shift, scale, jnp.concatenate([c, b]) * poison(valid)


@partial(jax.custom_jvp, nondiff_argnums=(5, 6))
def held_fit(fitted, y, d, smoothing, epsilon, kernel: str, powers: tuple):
    """``fitted`` (`fit`'s result, computed before), with `fit`'s derivatives with
    respect to the data it came from.

    A fitted module holds its coefficients; differentiating a call of it with respect
    to the module's data (equinox's `filter_grad` of a model that holds one) must see
    how the coefficients follow them. The module holds them without derivatives
    (`lax.stop_gradient`) and every derivative comes from here, at the cost of one
    more fit in the derivative's program only.
    """
    return fitted


@held_fit.defjvp
def _held_fit_jvp(kernel, powers, primals, tangents):
    fitted, *data = primals
    held, *data_tangents = tangents
    refit, follows = jax.jvp(lambda *a: fit(*a, kernel, powers), tuple(data), tuple(data_tangents))
    # The value held, with the refit's derivatives (for the second derivatives, taken
    # through this rule).
    value = jax.tree_util.tree_map(lambda f, r: f + (r - lax.stop_gradient(r)), fitted, refit)
    return value, jax.tree_util.tree_map(jnp.add, held, follows)


def _solvable(rho, p, smoothing):
    """No two sites coincide unless one is smoothed; the polynomial block has full rank."""
    unsmoothed = smoothing == 0
    clash = (rho == 0) & unsmoothed[:, None] & unsmoothed[None, :]
    clash = clash & ~jnp.eye(len(rho), dtype=bool)
    return ~jnp.any(clash) & full_rank(p)


def data_are_valid(y, d, smoothing, epsilon):
    """Finite sites and values, smoothing ≥ 0 and 0 < ε < ∞ (the values enter the
    solution linearly: without this test a NaN value would leave its gradient finite)."""
    return (
        jnp.all(jnp.isfinite(y))
        & jnp.all(jnp.isfinite(d))
        & jnp.all(smoothing >= 0)
        & (epsilon > 0)
        & jnp.isfinite(epsilon)
    )


def distinct_sites(y, smoothing):
    """No two unsmoothed sites coincide, by sorting (n log n; `fit` compares all pairs).
    Equal sites sort unsmoothed first, so a smoothed one cannot part two that clash."""
    order = jnp.lexsort((smoothing != 0, *y.T[::-1]))
    ys, unsmoothed = y[order], smoothing[order] == 0
    same = jnp.all(ys[1:] == ys[:-1], axis=1) & unsmoothed[1:] & unsmoothed[:-1]
    return ~jnp.any(same)


def full_rank(p):
    """P's columns are independent: each column's part orthogonal to the previous ones
    (|R_jj| of P = Q R) above numpy's `matrix_rank` tolerance, max(n, m) · ε times the
    largest (|R_jj| stands in for the singular values).

    Gram–Schmidt, twice per column, in plain array operations: a LAPACK QR here
    would be a second LAPACK call beside the solve's in one XLA:CPU program, and two
    that can run at once deadlock it (docs/architecture.md §6).
    """
    basis, sizes = [], []
    for column in p.T:
        for _ in range(2):
            for q in basis:
                column = column - jnp.dot(q, column, precision=_EXACT) * q
        size = jnp.linalg.norm(column)
        basis.append(column / jnp.where(size > 0, size, 1))
        sizes.append(size)
    if not sizes:
        return jnp.ones((), bool)
    sizes = jnp.stack(sizes)
    return jnp.all(sizes > max(p.shape) * jnp.finfo(p.dtype).eps * jnp.max(sizes))


def evaluate(x, y, shift, scale, coefficients, epsilon, kernel: str, powers: tuple):
    """The interpolant at the queries x: (q, N) → (q, s), in batches of queries."""

    def values(queries):
        return values_at(queries, y, shift, scale, coefficients, epsilon, kernel, powers)

    return in_batches(values, (x,), CHUNK_ENTRIES // (len(y) + len(powers)))


def values_at(x, y, shift, scale, coefficients, epsilon, kernel: str, powers: tuple):
    """The interpolant at the queries x, at once: (q, N) → (q, s)."""
    k = KERNELS[kernel](squared_distances(x, y, epsilon))
    p = polynomial_matrix(x, shift, scale, powers)
    c, b = coefficients[: len(y)], coefficients[len(y) :]
    if c.shape[1] == 1:
        # One column: products and sum in the pass that computes the kernel, which is
        # never stored (XLA:CPU fuses a reduction with its producer, not a dot): 3x
        # faster than storing the block for a dot, which wins from 3 columns up.
        kc = jnp.sum(k * c[:, 0], axis=1, keepdims=True)
    else:
        kc = jnp.dot(k, c, precision=_EXACT)
    return kc + jnp.dot(p, b, precision=_EXACT)


def in_batches(f, rows: tuple, size: int):
    """``f`` of ``size`` rows of each array in ``rows`` at a time, over all rows.

    One loop over equal batches, the rows padded by repeats of the first (a valid row:
    a padding row's NaN would reach the gradients through its zero cotangent).
    `lax.map`'s ``batch_size`` would run the remainder as a second computation beside
    the loop, and XLA:CPU deadlocks when two batched LAPACK calls (the local solves)
    run at once (docs/architecture.md §6).
    """
    count = len(rows[0])
    size = max(1, min(size, count))
    batches = -(-count // size)
    pad = batches * size - count

    def batched(a):
        a = jnp.concatenate([a, jnp.repeat(a[:1], pad, axis=0)])
        return a.reshape(batches, size, *a.shape[1:])

    out = lax.map(lambda r: f(*r), tuple(batched(a) for a in rows))
    return out.reshape(batches * size, *out.shape[2:])[:count]
