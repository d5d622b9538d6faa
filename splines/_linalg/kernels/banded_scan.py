"""Banded solves as `lax.scan` sweeps, with independent systems in lanes.

A system's matrix comes as its *rows* (`banded`'s layout): ``rows[i, m] =
A[i, i - l + m]``, m = 0 … l+u, for l subdiagonals and u superdiagonals; entries
outside the matrix are 0.  Each kernel runs a sweep over the bands alone (the
factorisation, once for all the right-hand sides that share them), then a forward
and a backward sweep per right-hand side.  Loops carry a window of a few rows; the
systems are the lanes of every array, so B systems cost n steps of B-wide work.

**Partial pivoting** (`lu_solve`, as LAPACK ``gbsv``).  Give the system l leading
identity rows and unknowns (x_{-l} … x_{-1} = 0): then step j always sees the
same window, rows j … j+l of the partly reduced matrix in columns j … j+l+u
(a row's band plus the fill-in that row swaps bring), and every step is alike:

    pivot    the window row with the largest |entry in column j| (the first on a
             tie, as LAPACK's ``idamax``) swaps with row 0 and becomes U's row j,
             ``U[j, j … j+l+u]``;
    reduce   the other rows lose ``m_r = W[r, 0] / U[j, j]`` times it (|m_r| ≤ 1);
    shift    they move up one row and one column, and original row j+1-l+l
             enters at the bottom (its band is exactly the window's columns).

The right-hand side repeats the swaps and the multipliers; the backward sweep is
``x_j = (t_j − Σ_{m≥1} U[j, j+m] x_{j+m}) / U[j, j]``.  A zero pivot (a singular
matrix) makes inf/NaN, never a plausible number.

**Without pivoting** (`ldu_solve`), for matrices on which Gaussian elimination
needs no row swaps (totally nonnegative ones, such as B-spline collocation
matrices: de Boor & Pinkus 1977; and diagonally dominant ones): ``A = L D U``, L
and U unit triangular, row by row, in one sweep with the right-hand side (bands
shared by several right-hand sides: a sweep over the bands, then one over them).
Row i, ``a[m] = A[i, i-l+m]``, loses the previous l rows of U, column by column:

    for r = 0 … l-1 (column j = i-l+r):   a[r+1 … r+u] −= a[r] · U[j, j+1 … j+u]
                                          b_i          −= a[r] · z_j
    then  d_i = a[l],   U[i, i+m] = a[l+m] / d_i,   z_i = b_i / d_i

(a[r] is ``L[i, j] d_j``; the window never grows, as no row is swapped in), and
the backward sweep is ``x_i = z_i − Σ_{m≥1} U[i, i+m] x_{i+m}``.  The sweep
carries l rows of u+1 entries (U's row and z_i, one array) where the pivoting
sweep carries l+1 rows of l+u+1 and the swaps, so it stays within XLA:CPU's
native small loop for wider bands and larger unrolls (docs/architecture.md §6),
and it makes no comparisons: (2, 2) bands, n = 1e4, float64, 0.18 ms against
1.4 ms pivoting.  A zero pivot gives inf/NaN.

**Symmetric positive definite** (`ldl_solve`): ``A = L D Lᵀ`` with L unit lower
triangular of bandwidth p and D > 0 diagonal, row by row (no square roots):

    L[i, j] = (A[i, j] − Σ_{k<j} L[i, k] conj(L[j, k]) d_k) / d_j      (i-p ≤ j < i)
    d_i     = A[i, i] − Σ_{k<i} |L[i, k]|² d_k

then ``z_i = b_i − Σ_{k<i} L[i, k] z_k`` and ``x_i = z_i / d_i − Σ_{k>i} conj(L[k, i]) x_k``
(a Hermitian A; conj is nothing for a real one).
For an SPD matrix every d_i > 0 and the growth is bounded without pivoting; a
d_i ≤ 0 (a matrix that is not positive definite) is made NaN, and so is x.

Divisions follow `thomas_scan.divider` (float32 divides, by a pivot of the
dividend's shape; float64 multiplies by the reciprocal).
"""

import math

import jax
import jax.numpy as jnp
from jax import lax

from .thomas_scan import divider


def splines_banded_scan(rows, rhs, *, lower: int, upper: int, symmetric: bool, pivoting: bool):
    """The kernel for `banded`'s parameters: LDLᴴ, LU with or without pivoting."""
    if symmetric:
        return ldl_solve(rows, rhs, lower)
    if pivoting:
        return lu_solve(rows, rhs, lower, upper)
    return ldu_solve(rows, rhs, lower, upper)


def lu_solve(rows, rhs, lower: int, upper: int):
    """Solve with partial pivoting; ``rows`` ``(*bands, n, l+u+1)``, ``rhs`` ``(*batch, n)``.

    The bands' leading shape broadcasts to rhs's (size-1 axes: shared bands).
    """
    band_rows = jnp.moveaxis(rows, (-2, -1), (0, 1))  # (n, w, *bands)
    d = jnp.moveaxis(rhs, -1, 0)  # (n, *batch)
    u_rows, chosen, multipliers = _lu_factor(band_rows, lower)
    t = _lu_forward(d, chosen, multipliers, lower)
    x = _lu_backward(u_rows, t, lower + upper)
    return jnp.moveaxis(x[lower:], 0, -1)


def _lu_factor(rows, lower):
    """The pivoting sweep over the bands: U's rows ``(n+l, w, *bands)``, each step's
    chosen row ``(n+l, *bands)`` (an index into the window) and multipliers
    ``(n+l, l, *bands)``.

    The window is one array, its rows picked by a chain of compares and selects
    (no reduction, no gather in the loop body).
    """
    w, lanes = rows.shape[1], rows.shape[2:]
    eye = jnp.eye(w, dtype=rows.dtype).reshape((w, w) + (1,) * len(lanes))
    identity = jnp.broadcast_to(eye, (w, w) + lanes)
    # Window at step 0: the l identity rows, then original row 0; then rows 1 … n-1 enter,
    # and l+1 identity rows after them (1 on their diagonal, window column l): n+l steps.
    window = jnp.concatenate([identity[:lower], rows[:1]])
    entering = jnp.concatenate([rows[1:], identity[lower : lower + 1].repeat(lower + 1, 0)])

    def step(window, row):
        best, index = jnp.abs(window[0, 0]), jnp.zeros(lanes, jnp.int32)
        for r in range(1, lower + 1):  # the first largest |W[r, 0]| (LAPACK's idamax)
            larger = jnp.abs(window[r, 0]) > best
            best = jnp.where(larger, jnp.abs(window[r, 0]), best)
            index = jnp.where(larger, r, index)
        pivot = window[0]
        for r in range(1, lower + 1):
            pivot = jnp.where(index == r, window[r], pivot)
        rows_below = jnp.arange(1, lower + 1).reshape((lower, 1) + (1,) * len(lanes))
        others = jnp.where(index == rows_below, window[:1], window[1:])  # row 0 ↔ the pivot's
        m = divider(pivot[0], others[:, 0])(others[:, 0])
        reduced = others[:, 1:] - m[:, None] * pivot[None, 1:]
        zero = jnp.zeros_like(others[:, :1])
        window = jnp.concatenate([jnp.concatenate([reduced, zero], axis=1), row[None]])
        return window, (pivot, index, m)

    _, out = lax.scan(step, window, entering)
    return out


def _lu_forward(d, chosen, multipliers, lower):
    """The right-hand sides through the factor sweep's swaps and multipliers: U's
    right-hand side t, ``(n+l, *batch)``."""
    zeros = jnp.zeros_like(d[:1])
    window = jnp.concatenate([zeros.repeat(lower, 0), d[:1]])
    entering = jnp.concatenate([d[1:], zeros.repeat(lower + 1, 0)])
    rows_below = jnp.arange(1, lower + 1).reshape((lower,) + (1,) * (d.ndim - 1))

    def step(window, xs):
        value, index, m = xs
        pivot = window[0]
        for r in range(1, lower + 1):
            pivot = jnp.where(index == r, window[r], pivot)
        others = jnp.where(index == rows_below, window[:1], window[1:]) - m * pivot
        return jnp.concatenate([others, value[None]]), pivot

    _, t = lax.scan(step, window, (entering, chosen, multipliers))
    return t


def _lu_backward(u_rows, t, width):
    """``x_j = (t_j − Σ_{m≥1} U[j, j+m] x_{j+m}) / U[j, j]``, from the last row up."""
    later = jnp.zeros_like(t[:1]).repeat(width, 0)  # x_{j+1} … x_{j+width}

    def step(later, xs):
        u, t = xs
        rest = t
        for m in range(width):
            rest = rest - u[m + 1] * later[m]
        x = divider(u[0], t)(rest)
        return (jnp.concatenate([x[None], later[:-1]]) if width else later), x

    _, x = lax.scan(step, later, (u_rows, t), reverse=True)
    return x


# Unrolls of the two sweeps for one system with one right-hand side, measured on
# CPU (2-core AMD EPYC VM, jax 0.10.2): XLA:CPU compiles a loop into one native call
# while an iteration touches < 1 KiB (docs/architecture.md §6), which the factor sweep
# keeps at unroll 2 up to (l+1)(u+1) entries of 96 bytes (float64 (2, 3), float32
# (3, 3); (2, 2) at n = 1e4: 0.31 ms at unrolls (1, 1), 0.18 at (2, 4)), and the
# backward sweep at unroll 4 up to u+1 entries of 24 bytes, 2 up to 48.  Other lanes,
# and one system's bands shared by several right-hand sides: 1 (the bands' sweep alone
# is no longer a native loop at 2, float64 (2, 2)).
_LDU_FORWARD_BYTES = 96
_LDU_BACKWARD_BYTES = (24, 48)


def ldu_unrolls(lower: int, upper: int, itemsize: int, single: bool) -> tuple[int, int]:
    """The unrolls of `ldu_solve`'s forward and backward sweeps."""
    if not single:
        return 1, 1
    forward = 2 if itemsize * (lower + 1) * (upper + 1) <= _LDU_FORWARD_BYTES else 1
    row = itemsize * (upper + 1)
    backward = 4 if row <= _LDU_BACKWARD_BYTES[0] else 2 if row <= _LDU_BACKWARD_BYTES[1] else 1
    return forward, backward


def ldu_solve(rows, rhs, lower: int, upper: int):
    """Solve without pivoting; ``rows`` ``(*bands, n, l+u+1)``, ``rhs`` ``(*batch, n)``.

    The bands' leading shape broadcasts to rhs's.  One system's bands shared by
    several right-hand sides are factorised once (a sweep over the bands, then one
    over the right-hand sides); bands of several systems are copied to every
    right-hand side's lane, and one sweep does both.  One system's size-1 lanes are
    dropped: the loops then carry plain rows, which XLA:CPU runs faster (n = 1e4,
    (2, 2) bands: 0.34 against 0.49 ms at unroll 1).
    """
    shape, n, width = rhs.shape, rhs.shape[-1], lower + upper + 1
    one_band, one_rhs = _single(rows.shape[:-2]), _single(shape[:-1])
    if one_band:
        rows = jnp.reshape(rows, (n, width))
    else:
        rows = jnp.broadcast_to(rows, shape[:-1] + (n, width))
    if one_band and one_rhs:
        rhs = jnp.reshape(rhs, (n,))
    band_rows = jnp.moveaxis(rows, (-2, -1), (0, 1))  # (n, w, *lanes)
    d = jnp.moveaxis(rhs, -1, 0)  # (n, *batch)
    forward, backward = ldu_unrolls(lower, upper, rhs.dtype.itemsize, one_band and one_rhs)
    pad = -n % math.lcm(forward, backward)
    if pad:  # identity rows in front, so that the length is a multiple of the unrolls
        zeros = jnp.zeros_like(band_rows[:1, :1]).repeat(pad, 0)
        identity = jnp.concatenate(
            [zeros.repeat(lower, 1), zeros + 1, zeros.repeat(upper, 1)], axis=1
        )
        band_rows = jnp.concatenate([identity, band_rows])
        d = jnp.concatenate([jnp.zeros_like(d[:1]).repeat(pad, 0), d])
    if one_band and not one_rhs:
        factors = _ldu_factor(band_rows, lower, upper, forward)
        z = _ldu_substitute(factors, d, lower)
        x = _ldu_backward((factors[:, lower + 1 :], z), upper, backward, lambda xs: xs)
    else:
        packed = _ldu_forward(band_rows, d, lower, upper, forward)
        x = _ldu_backward(packed, upper, backward, lambda row: (row[:upper], row[upper]))
    return jnp.reshape(jnp.moveaxis(x[pad:], 0, -1), shape)


def _single(lanes) -> bool:
    """Whether a batch shape holds one system (only size-1 axes, all known)."""
    return all(isinstance(size, int) and size == 1 for size in lanes)


def eliminate_row(a, window, lower, upper):
    """Row i's entries ``a`` (a list) less the previous l rows of U (``window[r, :u]``, an
    array or nested sequences: the Pallas kernel takes the same step)."""
    for r in range(lower):  # rows before the first: zeros, as its entries there
        for m in range(1, upper + 1):
            a[r + m] = a[r + m] - a[r] * _entry(window, r, m - 1)
    return a


def _entry(rows, r, m):
    """``rows[r, m]`` of an array (one slice: two make the XLA:CPU loop body larger, out
    of its native loop) or of nested sequences (the Pallas kernels' registers)."""
    return rows[r, m] if isinstance(rows, jax.Array) else rows[r][m]


def _ldu_forward(rows, d, lower, upper, unroll):
    """Each row's ``U[i, i+1 … i+u]`` and ``z_i`` (``(L D)⁻¹ b``), packed as
    ``(n, u+1, *lanes)``: the loop carries the last l of them, one array (fewer
    bytes an iteration than apart: (3, 3) float64 stays a native loop)."""
    window = jnp.zeros_like(rows[:1, :1]).repeat(lower, 0).repeat(upper + 1, 1)

    def step(window, xs):
        row, b = xs
        a = eliminate_row([row[m] for m in range(lower + upper + 1)], window, lower, upper)
        for r in range(lower):
            b = b - a[r] * window[r, upper]
        divide = divider(a[lower])  # entry by entry: a pivot of each entry's shape
        new = jnp.stack([divide(v) for v in a[lower + 1 :]] + [divide(b)])
        return (jnp.concatenate([window[1:], new[None]]) if lower else window), new

    _, packed = lax.scan(step, window, (rows, d), unroll=unroll)
    return packed


def _ldu_factor(rows, lower, upper, unroll):
    """The bands alone: each row's ``L[i, i-l … i-1]·D``, ``d_i`` and ``U[i, i+1 … i+u]``
    (``(n, l+u+1)``)."""
    window = jnp.zeros_like(rows[:1, :1]).repeat(lower, 0).repeat(upper, 1)

    def step(window, row):
        a = eliminate_row([row[m] for m in range(lower + upper + 1)], window, lower, upper)
        divide = divider(a[lower])
        u_row = [divide(v) for v in a[lower + 1 :]]
        new = jnp.stack(u_row) if upper else row[:0]
        window = jnp.concatenate([window[1:], new[None]]) if lower else window
        return window, jnp.stack(a[: lower + 1] + u_row)

    _, factors = lax.scan(step, window, rows, unroll=unroll)
    return factors


def _ldu_substitute(factors, d, lower):
    """``z_i = (b_i − Σ_r L[i, i-l+r] d_{i-l+r} z_{i-l+r}) / d_i`` for every right-hand side."""
    earlier = jnp.zeros_like(d[:1]).repeat(lower, 0)  # z_{i-l} … z_{i-1}

    def step(earlier, xs):
        row, b = xs
        for r in range(lower):
            b = b - row[r] * earlier[r]
        z = divider(row[lower], b)(b)
        return (jnp.concatenate([earlier[1:], z[None]]) if lower else earlier), z

    _, z = lax.scan(step, earlier, (factors, d))
    return z


def _ldu_backward(xs, upper, unroll, split):
    """``x_i = z_i − Σ_{m≥1} U[i, i+m] x_{i+m}``, from the last row up; ``split`` takes
    a row of ``xs`` to ``(U[i, i+1 … i+u], z_i)``."""
    _, z = split(jax.tree.map(lambda v: v[0], xs))
    later = jnp.zeros_like(z[None]).repeat(upper, 0)  # x_{i+1} … x_{i+u}

    def step(later, row):
        u_row, x = split(row)
        for m in range(upper):
            x = x - u_row[m] * later[m]
        return (jnp.concatenate([x[None], later[:-1]]) if upper else later), x

    _, x = lax.scan(step, later, xs, reverse=True, unroll=unroll)
    return x


def ldl_solve(rows, rhs, bandwidth: int):
    """Solve an SPD system; ``rows`` ``(*bands, n, p+1)`` its lower band (the diagonal
    last), ``rhs`` ``(*batch, n)``; the bands' leading shape broadcasts to rhs's."""
    p = bandwidth
    band_rows = jnp.moveaxis(rows, (-2, -1), (0, 1))  # (n, p+1, *bands)
    d = jnp.moveaxis(rhs, -1, 0)
    l_rows, pivots = _ldl_factor(band_rows, p)
    z = _ldl_forward(d, l_rows, p)
    # L's columns below each diagonal: below[i, q-1] = L[i+q, i] = l_rows[i+q, p-q].
    lanes = [(0, 0)] * (l_rows.ndim - 2)
    n = l_rows.shape[0]
    below = [jnp.pad(l_rows[q:, p - q], [(0, min(q, n))] + lanes) for q in range(1, p + 1)]
    below = jnp.stack(below, axis=1) if p else l_rows[:, :0]
    x = _ldl_backward(z, pivots, below, p)
    return jnp.moveaxis(x, 0, -1)


def _ldl_factor(rows, p):
    """L's rows ``(n, p, *bands)`` (``L[i, i-p+m]``, m < p) and D ``(n, *bands)``."""
    lanes = rows.shape[2:]
    # Rows before the first: L = 0, d = 1 (A's entries there are 0: L[i, j<0] = 0 / 1).
    previous = jnp.zeros((p, p) + lanes, rows.dtype)
    pivots = jnp.ones((p,) + lanes, rows.dtype)

    def step(carry, row):
        previous, pivots = carry
        entries, d = ldl_row(row, previous, pivots, p, divider)
        if p:
            new = jnp.stack(entries)
            previous = jnp.concatenate([previous[1:], new[None]])
            pivots = jnp.concatenate([pivots[1:], d[None]])
            return (previous, pivots), (new, d)
        return (previous, pivots), (row[:0], d)

    _, (l_rows, d) = lax.scan(step, (previous, pivots), rows)
    return l_rows, d


def ldl_row(row, previous, pivots, p, divide):
    """Row i of the LDLᴴ factors: ``L[i, i-p+m]`` (m < p, a list) and ``d_i``, from A's row
    ``row[m] = A[i, i-p+m]``, the previous p rows of L (``previous[r][m]``) and their
    pivots; ``divide(pivot)`` gives ``x ↦ x / pivot`` (the Pallas kernel takes the same
    step with a plain division)."""
    entries = []  # L[i, i-p+m], m = 0 … p-1
    for m in range(p):
        # Σ over k = i-p+m' (m' < m) of L[i, k] L[j, k] d_k, j = i-p+m: L[j, k] is
        # previous[m, p+m'-m].
        total = row[m]
        for mm in range(m):
            total = total - entries[mm] * jnp.conj(_entry(previous, m, p + mm - m)) * pivots[mm]
        entries.append(divide(pivots[m])(total))
    d = row[p]
    for mm in range(p):
        d = d - entries[mm] * jnp.conj(entries[mm]) * pivots[mm]
    return entries, jnp.where(jnp.real(d) > 0, d, jnp.nan)  # not positive definite: NaN


def _ldl_forward(d, l_rows, p):
    """``z_i = b_i − Σ_m L[i, i-p+m] z_{i-p+m}``."""
    earlier = jnp.zeros_like(d[:1]).repeat(p, 0)  # z_{i-p} … z_{i-1}

    def step(earlier, xs):
        b, l_row = xs
        z = b - jnp.sum(l_row * earlier, axis=0) if p else b
        return (jnp.concatenate([earlier[1:], z[None]]) if p else earlier), z

    _, z = lax.scan(step, earlier, (d, l_rows))
    return z


def _ldl_backward(z, pivots, below, p):
    """``x_i = z_i / d_i − Σ_q L[i+q, i] x_{i+q}``, from the last row up."""
    later = jnp.zeros_like(z[:1]).repeat(p, 0)  # x_{i+1} … x_{i+p}

    def step(later, xs):
        z, d, column = xs
        x = divider(d, z)(z)
        if p:
            x = x - jnp.sum(jnp.conj(column) * later, axis=0)
            return jnp.concatenate([x[None], later[:-1]]), x
        return later, x

    _, x = lax.scan(step, later, (z, pivots, below), reverse=True)
    return x
