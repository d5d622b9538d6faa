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

import jax.numpy as jnp
from jax import lax

from .thomas_scan import divider


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
        entries = []  # L[i, i-p+m], m = 0 … p-1
        for m in range(p):
            # Σ over k = i-p+m' (m' < m) of L[i, k] L[j, k] d_k, j = i-p+m: L[j, k] is
            # previous[m, p+m'-m].
            total = row[m]
            for mm in range(m):
                total = total - entries[mm] * jnp.conj(previous[m, p + mm - m]) * pivots[mm]
            entries.append(divider(pivots[m])(total))
        d = row[p]
        for mm in range(p):
            d = d - entries[mm] * jnp.conj(entries[mm]) * pivots[mm]
        d = jnp.where(jnp.real(d) > 0, d, jnp.nan)  # not positive definite: NaN, not a guess
        if p:
            new = jnp.stack(entries)
            previous = jnp.concatenate([previous[1:], new[None]])
            pivots = jnp.concatenate([pivots[1:], d[None]])
            return (previous, pivots), (new, d)
        return (previous, pivots), (row[:0], d)

    _, (l_rows, d) = lax.scan(step, (previous, pivots), rows)
    return l_rows, d


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
