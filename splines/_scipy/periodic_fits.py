"""scipy's periodic interpolating B-spline, ``make_interp_spline(..., bc_type="periodic")``.

The knots are scipy's ``_periodic_knots``: ``x`` itself for odd k; for even k,
``x`` with its inner sites moved half a cell left (the midpoints
``x_i − (x_i − x_{i−1})/2``, scipy's rounding); then k more on each side, whose
spacings repeat the ``m = n − 1`` cells of one period.  The period's spline
space has dimension m: coefficients that repeat, ``c_{j+m} = c_j`` (what scipy's
full system of k − 1 derivative conditions also gives, its Notes), unknowns
``e_r = c_{r+p}`` (p = ⌊k/2⌋).  Site x_i, i = 0 … m − 1 (``y[-1]`` repeats
``y[0]``), lies in interval l_i = k + i and touches ``c_i … c_{i+k}``, of which
``c_{i+k}`` at odd k with value 0 (x_i = t_{i+k} starts its support): row i of
the system holds ``B_{i+p+o}(x_i)`` at column ``(i + o) mod m``, o = −p … p — a
cyclic band of p sub- and superdiagonals.

The solve, for m ≥ 2p + 1.  The cyclic matrix is ``A = B + U Vᵀ``: B its band
without the wrap-around (p × p corner blocks, upper triangular at the top right,
lower triangular at the bottom left), U the 2p unit columns of the rows they sit
in, Vᵀ the corners' entries.  B is a contiguous square section of the
bi-infinite collocation matrix of the periodic extension (increasing sites, the
B-splines in order), so it is totally nonnegative with a non-zero diagonal
(B_{i+p}(x_i) > 0: a Schoenberg–Whitney matrix) and nonsingular: Gaussian
elimination without pivoting is backward stable on it (de Boor & Pinkus 1977),
as in `not_a_knot`.  Woodbury's identity then gives

    A⁻¹ y = B⁻¹ y − Z S⁻¹ Vᵀ B⁻¹ y,     Z = B⁻¹ U,   S = I + Vᵀ Z   (2p × 2p),

with ``B⁻¹ [y | U]`` one unpivoted banded solve (the band shared by the data
columns and the 2p columns of U) and S, nonsingular as A and B are (det S =
det A / det B), a tiny dense solve with partial pivoting (a band of 2p − 1 sub-
and superdiagonals).  For m ≤ 2p (n ≤ k at odd k, n ≤ k + 1 at even k; scipy
solves n ≤ k densely) the wrap-around entries fold onto the band's and the
m × m matrix is solved densely, with pivoting, as a band of m − 1 sub- and
superdiagonals.  The basis values are `not_a_knot`'s recurrence on slices of
the knots (no interval search).  Products are elementwise sums, never matmuls
(docs/architecture.md §4).

k = 0 and 1 are scipy's: the plain spline (``x`` with its last site, or with both
ends doubled; ``c = y``), extrapolated by its end pieces, not periodically.

Everything is jnp on ``x`` and ``y``: jittable, vmappable and differentiable
w.r.t. both.  Concrete data are checked in numpy (`ValueError` naming the
argument); traced data that break a rule (``x`` not finite and increasing, ends
of ``y`` that differ) make the knots and coefficients NaN, a non-finite column
of ``y`` its own column.  ``y[-1]`` enters the fit as ``0 · y[-1]``, so its
gradient is 0 — and NaN for invalid data.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from .._linalg.banded import banded_solve
from .._utils.dtypes import data_dtypes
from .._utils.validate import (
    check_ends_match_eagerly,
    check_knots_eagerly,
    check_values_eagerly,
    ends_match,
    is_concrete,
    knot_eps,
    knots_are_valid,
    poison,
    poison_columns,
)
from .bsplines import PERIODIC, _new
from .not_a_knot import inner_basis

# scipy's test of the ends, ``np.allclose(y[0], y[-1], atol=1e-15)``.
_SCIPY_RTOL, _SCIPY_ATOL = 1e-5, 1e-15


def make_periodic_spline(x, y, k: int, t, columns: tuple, axis: int, check_finite: bool):
    """`make_interp_spline` with ``bc_type="periodic"``: ``x`` checked 1-D and real, ``y``
    with ``axis`` first (``(n, *columns)``), ``k`` a checked int."""
    n = x.shape[0]
    if t is not None:
        if k == 0:
            raise ValueError("Too much information for k = 0: `t` must be None.")
        raise NotImplementedError(
            "`bc_type`='periodic' makes its own knots: `t` must be None (as in scipy)."
        )
    if n < (1 if k == 0 else 2):
        raise ValueError(
            f"`x` needs at least {1 if k == 0 else 2} sites for `bc_type`='periodic' with "
            f"degree `k`={k}; got {n}."
        )
    real, dtype = data_dtypes(x, y)
    eps = knot_eps(jnp.result_type(x), real)
    x = jnp.asarray(x, real) if isinstance(x, jax.Array) else np.asarray(x, real)
    y = jnp.asarray(y, dtype) if isinstance(y, jax.Array) else np.asarray(y, dtype)
    if is_concrete(x, y):
        _check_eagerly(x, y, axis, eps, check_finite)
    y2 = jnp.reshape(jnp.asarray(y), (n, -1))
    t, c = _periodic_fit(jnp.asarray(x), y2, k=k, eps=eps)
    return _new(t, jnp.reshape(c, (c.shape[0],) + columns), k, PERIODIC if k >= 2 else True, axis)


def ends_agree(y, eps: float, xnp=jnp):
    """Per column, ``y[0]`` and ``y[-1]`` equal to scipy's test or to the library's
    rounding rule (`_utils.validate.ends_match`: float32 data closing to f32 rounding,
    which scipy's absolute tolerance would reject near 0)."""
    first, last = y[0], y[-1]
    scipy_close = abs(first - last) <= _SCIPY_ATOL + _SCIPY_RTOL * abs(last)
    return scipy_close | ends_match(y, eps, xnp)


def _check_eagerly(x, y, axis: int, eps: float, check_finite: bool) -> None:
    x, y = np.asarray(x), np.asarray(y)
    if check_finite:
        check_values_eagerly(x, "x")
        check_values_eagerly(y, "y")
    if x.shape[0] > 1:
        check_knots_eagerly(x, "x")
    check_ends_match_eagerly(
        np.moveaxis(y, 0, axis), axis, "y", "`bc_type`='periodic'", eps, agree=ends_agree
    )


@partial(jax.jit, static_argnames=("k", "eps"))
def _periodic_fit(x, y, *, k: int, eps: float):
    """Knots and coefficients (n + k − 1, ncols); NaN for invalid traced data: all of them
    for ends that differ, a column for a non-finite value (at an end too: not a mismatch)."""
    finite = jnp.isfinite(y[0]) & jnp.isfinite(y[-1])
    valid = knots_are_valid(x) & jnp.all(ends_agree(y, eps) | ~finite)
    if k == 0:
        t, c = jnp.concatenate([x, x[-1:]]), y
    elif k == 1:
        t, c = jnp.concatenate([x[:1], x, x[-1:]]), y
    else:
        t = periodic_knots(x, k)
        c = periodic_solve(x, y, t, k)
    factor = poison(valid)
    return t * factor, c * factor * poison_columns(c, 1)


def periodic_knots(x, k: int):
    """scipy's ``_periodic_knots`` (module docstring), ``(n + 2k,)``, with its rounding."""
    n = x.shape[0]
    m = n - 1
    xc = x
    if k % 2 == 0 and n > 2:
        inner = x[1:-1]
        xc = jnp.concatenate([x[:1], inner - (inner - x[:-2]) / 2, x[-1:]])
    dx = jnp.diff(xc)
    left, right = [xc[0]], [xc[-1]]
    for i in range(k):
        left.append(left[-1] - dx[m - 1 - i % m])
        right.append(right[-1] + dx[i % m])
    return jnp.concatenate([jnp.stack(left[:0:-1]), xc, jnp.stack(right[1:])])


def periodic_solve(x, y, t, k: int):
    """The coefficients ``(n + k − 1, ncols)`` of the periodic interpolant of degree
    k ≥ 2 on its knots ``t`` (`periodic_knots`), ``y`` ``(n, ncols)`` (module docstring)."""
    n = x.shape[0]
    m, p = n - 1, k // 2
    basis = jnp.stack(inner_basis(t, x, 0, m, k, offset=k), axis=1).astype(y.dtype)
    rhs = jnp.concatenate([y[:1] + 0 * y[-1:], y[1:m]])  # y[-1] repeats y[0]
    offsets = np.arange(m)[:, None] + np.arange(-p, p + 1)  # row i's columns i + o
    if m <= 2 * p:
        # dense: the wrapped columns fold onto each other, rows[i, j − i + m − 1] = A[i, j]
        position = offsets % m - np.arange(m)[:, None] + m - 1
        rows = _rows(basis, position, 2 * m - 1)
        e = banded_solve(rows[None], rhs.T, lower=m - 1, upper=m - 1).T
    else:
        e = _woodbury(basis, rhs, offsets, m, p)
    return e[(np.arange(m + k) - p) % m]  # c_j = e_{(j − p) mod m}


def _woodbury(basis, rhs, offsets, m: int, p: int):
    """``A⁻¹ rhs`` for the cyclic band ``A = B + U Vᵀ`` of ``basis`` (module docstring)."""
    inside = (offsets >= 0) & (offsets < m)
    band = jnp.where(inside, basis, 0)  # B's rows, o + p = their band slot
    # Vᵀ: the top corner (rows a < p, columns m − p + c, c ≥ a) holds B_{a+p+o}(x_a)
    # with o = c − p − a; the bottom one (rows m − p + b, columns c ≤ b) o = c + p − b.
    a, c = np.arange(p)[:, None], np.arange(p)
    top = jnp.where(c >= a, basis[a, np.clip(c - a, 0, 2 * p)], 0)
    bottom = jnp.where(c <= a, basis[m - p + a, np.clip(c + 2 * p - a, 0, 2 * p)], 0)

    def v_t(v):  # (..., m) → (..., 2p)
        upper = jnp.sum(top * v[..., None, m - p :], axis=-1)
        lower = jnp.sum(bottom * v[..., None, :p], axis=-1)
        return jnp.concatenate([upper, lower], axis=-1)

    units = np.zeros((2 * p, m))
    units[np.arange(2 * p), np.r_[np.arange(p), np.arange(m - p, m)]] = 1
    columns = jnp.concatenate([jnp.asarray(units, rhs.dtype), rhs.T])
    solved = banded_solve(band[None], columns, lower=p, upper=p, pivoting=False)
    z, b_y = solved[: 2 * p], solved[2 * p :]  # B⁻¹ U (as rows), B⁻¹ y
    s = jnp.eye(2 * p, dtype=rhs.dtype) + v_t(z).T  # S[r, a] = δ + (Vᵀ Z)[r, a]
    width = 4 * p - 1
    position = np.arange(2 * p) - np.arange(2 * p)[:, None] + 2 * p - 1
    q = banded_solve(_rows(s, position, width)[None], v_t(b_y), lower=2 * p - 1, upper=2 * p - 1)
    e = b_y - jnp.sum(q[:, :, None] * z[None], axis=1)  # (ncols, m)
    return e.T


def _rows(values, position, width: int):
    """Band rows ``(r, width)`` holding ``values[i, j]`` at static ``position[i, j]``,
    values at one position summed: sums of exact products with 0 and 1 (no scatter)."""
    return jnp.sum(values[:, :, None] * (position[:, :, None] == np.arange(width)), axis=1)
