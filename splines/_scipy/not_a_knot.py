"""The not-a-knot fast path of `make_interp_spline`: an unpivoted banded solve.

With scipy's default (not-a-knot) knots, no end derivatives and n ≥ 2k + 2 sites,
the collocation matrix is totally nonnegative (the sites increase and satisfy the
Schoenberg–Whitney conditions; de Boor & Pinkus 1977, "Backward error analysis for
totally positive linear systems"), so Gaussian elimination needs no pivoting: every
multiplier and every reduced entry is ≥ 0, and the computed factors satisfy
|L||U| ≈ |A|, a componentwise backward-stable solve.

The system.  With s = ⌈k/2⌉ and p = ⌊k/2⌋, site i lies in interval
l_i = clip(i + s, k, n − 1) (for odd k the sites are the inner knots, t_{i+s} = x_i;
for even k the inner knots are the midpoints around x_i), so row i holds
B_{l_i−k} … B_{l_i} at x_i in columns l_i − k … l_i: inside, columns i − p … i + p
(for odd k B_{l_i}(x_i) = 0: t_{l_i} = x_i starts its support), a band of p sub- and
superdiagonals.  Only the first s rows (columns 0 … k) and the last s
(n−1−k … n−1) reach further; the p rows after (before) them reach into their first
(last) s columns: each end is a dense k × (k + s) block, and n ≥ 2k + 2 keeps the
two apart.

The method.  The ends are reduced by elimination: columns 0 … s−1 with rows
0 … s−1 (a Schur complement of a TN matrix is TN), which leaves rows s … k−1 within
the band; the last s columns with the last s rows from the bottom up (the same step
on the flipped matrix JAJ, also TN).  What remains is the band of rows and columns
s … n−1−s, solved without pivoting in one sweep (`_linalg.banded.banded_solve`,
``pivoting=False``: `_linalg.kernels.banded_scan.ldu_solve`), and the end
coefficients follow by back substitution.  No interval search, no placement in a
band of width 2k + 1 (the timings: benchmarks/results/cpu_fitting_quick.json).
"""

import jax.numpy as jnp
import numpy as np

from .._linalg.banded import banded_solve


def not_a_knot_solve(x, y, t, k: int):
    """The coefficients (n, ncols) of the not-a-knot interpolant on its knots ``t``
    (`not_a_knot_knots`), n ≥ 2k + 2 sites (module docstring)."""
    n, s, p = x.shape[0], (k + 1) // 2, k // 2
    l = np.clip(np.arange(n) + s, k, n - 1)
    flip = slice(None, None, -1)
    ends = _end_basis(t, jnp.concatenate([x[:k], x[n - k :]]), np.r_[l[:k], l[n - k :]], k)
    head = _place(ends[:k], l[:k] - k, k + s)
    tail = _place(ends[k:], l[n - k :] - (n - s), k + s)[flip, flip]
    head, head_rows, head_rhs = _reduce_end(head, y[:k], s, p)
    tail, tail_rows, tail_rhs = _reduce_end(tail, y[n - k :][flip], s, p)
    inner = jnp.stack(inner_basis(t, x, k, n - k, k), axis=1)
    band = jnp.concatenate([head_rows, inner, tail_rows[flip, flip]]).astype(y.dtype)
    rhs = jnp.concatenate([head_rhs, y[k : n - k], tail_rhs[flip]])
    c = banded_solve(band[None], rhs.T, lower=p, upper=p, pivoting=False).T
    start = _back_substitute(*head, c[:k])
    end = _back_substitute(*tail, c[flip][:k])
    return jnp.concatenate([start, c, end[flip]])


def _place(rows, first, width: int):
    """Rows of k + 1 values from static columns ``first`` on, in a dense block: a sum of
    exact products with 0 and 1 (no scatter; no matmul, whose precision may be reduced)."""
    columns = first[:, None, None] + np.arange(rows.shape[1])[:, None] == np.arange(width)
    return jnp.sum(rows[:, :, None] * columns, axis=1)


def _reduce_end(block, rhs, s: int, p: int):
    """Eliminate the block's first s columns with its first s rows (no pivoting).

    Returns those rows and their right-hand sides (for `_back_substitute`), and the
    other p rows in the band layout of the system left (``(p, 2p+1)``, row s + r
    holding columns s + r − p … s + r + p, those left of column s zero) with theirs.
    """
    for c in range(s):
        m = block[c + 1 :, c : c + 1] / block[c, c]
        block = jnp.concatenate([block[: c + 1], block[c + 1 :] - m * block[c]])
        rhs = jnp.concatenate([rhs[: c + 1], rhs[c + 1 :] - m.astype(rhs.dtype) * rhs[c]])
    rows = [jnp.pad(block[s + r, s : s + r + p + 1], (p - r, 0)) for r in range(p)]
    rows = jnp.stack(rows) if p else block[:0, : 2 * p + 1]
    return (block[:s], rhs[:s]), rows, rhs[s:]


def _back_substitute(pivot_rows, pivot_rhs, later):
    """The s unknowns of `_reduce_end`'s pivot rows, given the next k (``later``)."""
    s = pivot_rows.shape[0]
    pivot_rows = pivot_rows.astype(later.dtype)[..., None]
    known = later  # unknowns j+1, j+2, …
    for j in reversed(range(s)):
        total = pivot_rhs[j] - jnp.sum(pivot_rows[j, j + 1 :] * known, axis=0)
        known = jnp.concatenate([(total / pivot_rows[j, j])[None], known])
    return known[:s]


def _end_basis(t, x, l, k: int):
    """B_{l_i−k+j}(x_i), j = 0 … k ``(rows, k+1)``, for a few sites and their static
    intervals ``l``: de Boor's recurrence (as `bsplines.basis_values`: ratios of knot
    differences, then times the values of the level below), each level one array of its
    j+1 values (a small program: few operations to compile)."""
    knots = t[l[:, None] + np.arange(1 - k, k + 1)]  # t_{l+o}: column o + k − 1
    x = x[:, None]
    h = jnp.ones_like(x)
    for j in range(1, k + 1):
        right, left = knots[:, k : k + j], knots[:, k - j : k]  # t_{l+m}, t_{l+m−j}
        falling, rising = h * ((right - x) / (right - left)), h * ((x - left) / (right - left))
        h = jnp.pad(falling, ((0, 0), (0, 1))) + jnp.pad(rising, ((0, 0), (1, 0)))
    return h


def inner_basis(t, x, start: int, stop: int, k: int, offset: int | None = None):
    """The band's 2p + 1 columns at the inner sites ``start ≤ i < stop`` (interval
    l_i = i + s, or i + ``offset``: `periodic_fits`): B_{l_i−k+j}(x_i), j = 0 … 2p, by de Boor's recurrence on slices of
    the knots, with the reciprocals of the knot differences computed once per
    difference (float32 divides by each: a reciprocal of a difference > 8.5e37 would be
    subnormal, flushed to 0).  For odd k, t_{l_i} = x_i: B_{l_i}(x_i) = 0 and every
    term it makes are left out.  The not-a-knot (and periodic) knots leave no empty
    span around a site: no guard against zero differences (invalid sites make NaN, and
    the fit is poisoned)."""
    s, at_knots = (k + 1) // 2 if offset is None else offset, k % 2 == 1
    x = x[start:stop]
    divide = jnp.dtype(x.dtype).itemsize <= 4

    def knot(o):  # t_{l+o}
        return t[start + s + o : stop + s + o]

    h = [jnp.ones_like(x)]
    for j in range(1, k + 1):
        a = start + s + 1 - j  # t_{b+j} − t_b, b = l+m−j = a … for m = 1 …
        differences = t[a + j : stop + s + j] - t[a : stop + s]
        inverse = differences if divide else 1 / differences
        new = [None] * (j + 1)
        for m in range(1, j + 1):
            if h[m - 1] is None:
                continue
            taken = inverse[m - 1 : m - 1 + x.shape[0]]

            def ratio(v, taken=taken):  # of knot differences, O(1): before h multiplies
                return v / taken if divide else v * taken

            falling = h[m - 1] * ratio(knot(m) - x)
            new[m - 1] = falling if new[m - 1] is None else new[m - 1] + falling
            if not (at_knots and m == j):  # x − t_l = 0
                new[m] = h[m - 1] * ratio(x - knot(m - j))
        h = new
    return h[: 2 * (k // 2) + 1]


def not_a_knot_knots(x, k: int):
    """scipy's ``_not_a_knot``: the sites (odd k) or midpoints (even k), without k2 at each
    end, and each end site k + 1 times."""
    if k % 2:
        half, inner = (k + 1) // 2, x
    else:
        half, inner = k // 2, (x[1:] + x[:-1]) / 2
    inner = inner[half : inner.shape[0] - half]
    return jnp.concatenate([jnp.full(k + 1, x[0]), inner, jnp.full(k + 1, x[-1])])
