"""`banded_solve`: a callback-free JAX primitive for banded systems, with its rules.

A system with l subdiagonals and u superdiagonals is held as its *rows*,

    rows[..., i, m] = A[i, i - l + m],      m = 0 … l+u,

0 where ``i - l + m`` falls outside the matrix (the layout converters below
make it so).  A symmetric (Hermitian) system holds its lower band alone
(l = p, u = 0; ``A[i, i+q] = conj(rows[i+q, p-q])``).  The operands ``rows``
and ``rhs`` (``(..., n)``) share one dtype and one rank; the bands' batch
broadcasts to rhs's, a size-1 axis being bands shared by every right-hand
side along it, factorised once for all of them.  Parameters: ``lower``,
``upper`` (Python ints), ``symmetric`` (a Python bool: LDLᴴ without
pivoting for a positive definite matrix) and ``pivoting`` (a Python bool, for
a matrix that is not symmetric: LU with partial pivoting as LAPACK ``gbsv``,
or without for matrices that need none — totally nonnegative ones, as B-spline
collocation matrices, whose transposes are too; `kernels.banded_scan`).

Rules, as `tridiagonal`'s:

- JVP:        x' = A⁻¹ (rhs' − A' x)  — one more solve with the same A.
- transpose:  linear in ``rhs`` only: rhs̄ = A⁻ᵀ x̄, where Aᵀ's rows are
              A's sheared (`transposed_rows`), or conj(A)'s for a Hermitian
              A, solved with A's ``pivoting``.  The bands' cotangents come from
              transposing the JVP's ``A' x`` (`banded_matvec`), which JAX does
              itself.
- batching:   mapped axes move to the front and become lanes of the kernel;
              bands not mapped get a size-1 axis there, shared.
- lowering:   on CUDA/ROCm one Pallas kernel call per solve (`kernels.gpu.banded`:
              one system per thread, the loops inside it; complex systems
              scan), elsewhere the scan kernels of `kernels.banded_scan`.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir
from jaxtyping import Array, Inexact

from .._utils.dtypes import lists_to_arrays, promote_inexact
from .._utils.types import ArrayInput
from .._utils.validate import check_values_eagerly, is_concrete, poison, static_int
from .._utils.variance import varying_alike
from .kernels import gpu, platform_of
from .kernels.banded_scan import splines_banded_scan

banded_solve_p = Primitive("splines_banded_solve")


def solve_banded(
    l_and_u: tuple[int, int],
    ab: Inexact[ArrayInput, "*#batch l+u+1 n"],
    b: Inexact[ArrayInput, "..."],
    overwrite_ab: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Inexact[Array, "..."]:
    """Solve the banded system ``a x = b``, as `scipy.linalg.solve_banded`.

    A JAX primitive without host callbacks: Gaussian elimination with partial
    pivoting (row interchanges, as LAPACK ``gbsv``) in a scan, jittable,
    vmappable (a batch is more lanes of one loop) and differentiable w.r.t.
    ``ab`` and ``b``, forward and reverse, to any order.

    Parameters
    ----------
    l_and_u : (int, int)
        The numbers of non-zero lower and upper diagonals, l and u (Python ints).
    ab : array_like, shape (..., l + u + 1, n)
        The matrix in LAPACK's diagonal-ordered form, ``ab[u + i - j, j] = a[i,
        j]``; the corners outside the matrix are not read.  Leading axes are
        batches of matrices.
    b : array_like, shape (n,) or (..., n, k)
        The right-hand side: a vector, or k columns (scipy's convention: a
        ``b`` of two or more axes has the columns last), with leading batch
        axes that broadcast with ``ab``'s.
    overwrite_ab, overwrite_b : bool, optional
        Accepted for scipy's signature; JAX arrays are never overwritten.
    check_finite : bool, default True
        Whether to raise for concrete (not traced) ``ab`` or ``b`` holding
        infs or NaNs, naming the first; traced ones give NaN.

    Returns
    -------
    x : jax.Array, shape (n,) or (..., n, k)
        The solution, in the common floating dtype of ``ab`` and ``b``.

    Raises
    ------
    ValueError
        ``l_and_u`` not two non-negative ints; ``ab``'s second-to-last axis not
        l + u + 1 long or ``b``'s ``n`` not ``ab``'s; batch shapes that do not
        broadcast; non-finite concrete data with ``check_finite``.  A singular
        matrix raises nothing (scipy raises ``LinAlgError``): a zero pivot
        gives inf/NaN.

    See Also
    --------
    solveh_banded : Hermitian positive definite banded systems.
    tridiagonal_solve : l = u = 1, with faster kernels.

    Notes
    -----
    Step j takes as pivot the row of largest magnitude in column j among the
    l rows below the diagonal (multipliers ``|m| ≤ 1``); the fill-in keeps U
    within l + u superdiagonals.  O(n (l + 1)(l + u + 1)) operations.
    Derivatives take one more solve with the same matrix: ``x' = a⁻¹ (b' −
    a' x)`` forward, ``b̄ = a⁻ᵀ x̄`` in reverse.

    Examples
    --------
    >>> import numpy as np
    >>> import splines
    >>> ab = np.array([[0, 0, -1, -1, -1],
    ...                [0, 2, 2, 2, 2],
    ...                [5, 4, 3, 2, 1],
    ...                [1, 1, 1, 1, 0]], dtype=float)
    >>> b = np.array([0, 1, 2, 2, 3], dtype=float)
    >>> print(np.round(np.asarray(splines.solve_banded((1, 2), ab, b)), 6))
    [-2.372881  3.932203 -4.        4.355932 -1.355932]
    """
    del overwrite_ab, overwrite_b
    lower, upper = _check_l_and_u(l_and_u)
    ab, b = _operands(ab, b, lower + upper + 1, "`l + u + 1`", check_finite)
    return _solve_diagonal_form(ab, b, lower=lower, upper=upper)


def solveh_banded(
    ab: Inexact[ArrayInput, "*#batch p+1 n"],
    b: Inexact[ArrayInput, "..."],
    overwrite_ab: bool = False,
    overwrite_b: bool = False,
    lower: bool = False,
    check_finite: bool = True,
) -> Inexact[Array, "..."]:
    """Solve ``a x = b`` for a Hermitian positive definite banded ``a``, as
    `scipy.linalg.solveh_banded`.

    A JAX primitive without host callbacks: the LDLᴴ factorisation (no
    square roots, no pivoting) in a scan, jittable, vmappable and
    differentiable w.r.t. ``ab`` and ``b`` to any order.

    Parameters
    ----------
    ab : array_like, shape (..., p + 1, n)
        The matrix's p superdiagonals and diagonal, ``ab[p + i - j, j] = a[i,
        j]`` for i ≤ j (upper form), or with ``lower=True`` its diagonal and p
        subdiagonals, ``ab[i - j, j] = a[i, j]`` for i ≥ j.  Unused corners are
        not read; leading axes are batches of matrices.
    b : array_like, shape (n,) or (..., n, k)
        The right-hand side, as in `solve_banded`.
    overwrite_ab, overwrite_b : bool, optional
        Accepted for scipy's signature; JAX arrays are never overwritten.
    lower : bool, default False
        Whether ``ab`` is in the lower form.
    check_finite : bool, default True
        Whether to raise for concrete ``ab`` or ``b`` holding infs or NaNs.

    Returns
    -------
    x : jax.Array, shape (n,) or (..., n, k)
        The solution, in the common floating dtype of ``ab`` and ``b``.

    Raises
    ------
    ValueError
        Shapes that do not fit (as `solve_banded`); non-finite concrete data
        with ``check_finite``.  A matrix that is not positive definite raises
        nothing (scipy raises ``LinAlgError``): a pivot ``d_i ≤ 0`` makes the
        solution NaN.

    See Also
    --------
    solve_banded : General banded systems, with pivoting.

    Notes
    -----
    ``a = L D Lᴴ`` row by row, ``d_i = a_ii − Σ_k |L_ik|² d_k``; for a positive
    definite ``a`` every ``d_i > 0`` and the factorisation is backward stable
    without pivoting.  O(n p²) operations.

    Examples
    --------
    >>> import numpy as np
    >>> import splines
    >>> ab = np.array([[0.0, -1.0, -1.0], [2.0, 2.0, 2.0]])  # upper form, p = 1
    >>> print(np.round(np.asarray(splines.solveh_banded(ab, np.array([1.0, 0.0, 1.0]))), 6))
    [1. 1. 1.]
    """
    del overwrite_ab, overwrite_b
    if not isinstance(lower, (bool, np.bool_, int, np.integer)):
        raise TypeError(f"`lower` must be a bool; got {lower!r}.")
    ab, b = _operands(ab, b, None, None, check_finite)
    return _solve_hermitian_form(ab, b, lower=bool(lower))


def _check_l_and_u(l_and_u) -> tuple[int, int]:
    if not isinstance(l_and_u, (tuple, list)) or len(l_and_u) != 2:
        raise ValueError(f"`l_and_u` must be a pair of ints (l, u); got {l_and_u!r}.")
    return tuple(
        static_int(v, "l_and_u", 0, "a pair of non-negative ints (l, u)", shown=l_and_u)
        for v in l_and_u
    )


def _operands(ab, b, diagonals, what, check_finite):
    """``ab`` and ``b`` as arrays of their common inexact dtype, their shapes checked."""
    ab, b = promote_inexact(*lists_to_arrays(ab, b))
    if ab.ndim < 2 or ab.shape[-1] < 1:
        raise ValueError(f"`ab` must have shape (..., diagonals, n ≥ 1); got {ab.shape}.")
    if diagonals is not None and ab.shape[-2] != diagonals:
        raise ValueError(
            f"`ab` must have {what} = {diagonals} rows (its second-to-last axis); got "
            f"`ab.shape`={ab.shape}."
        )
    n = ab.shape[-1]
    column = b.ndim == 1
    if (b.shape[0] if column else b.shape[-2] if b.ndim >= 2 else None) != n:
        raise ValueError(
            f"`b` must have shape (n,) or (..., n, k) with n = {n} (`ab.shape[-1]`); got "
            f"`b.shape`={b.shape}."
        )
    try:
        np.broadcast_shapes(ab.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the batch shapes of `ab` {ab.shape[:-2]} and `b` {b.shape[:-2]} do not broadcast."
        ) from None
    if check_finite and is_concrete(ab, b):
        check_values_eagerly(np.asarray(ab), "ab")
        check_values_eagerly(np.asarray(b), "b")
    return ab, b


@partial(jax.jit, static_argnames=("lower", "upper"))
def _solve_diagonal_form(ab, b, *, lower, upper):
    rows = rows_from_diagonals(ab, lower, upper)
    return _solve_columns(rows, b, lower=lower, upper=upper, symmetric=False)


@partial(jax.jit, static_argnames="lower")
def _solve_hermitian_form(ab, b, *, lower):
    p = ab.shape[-2] - 1
    rows = rows_from_diagonals(ab, p, 0) if lower else rows_from_upper_form(ab)
    if jnp.iscomplexobj(rows):  # a Hermitian diagonal is real: LAPACK reads its real part
        rows = rows.at[..., p].set(jnp.real(rows[..., p]).astype(rows.dtype))
    return _solve_columns(rows, b, lower=p, upper=0, symmetric=True)


def _solve_columns(rows, b, **params):
    """scipy's ``b``, ``(n,)`` or ``(..., n, k)``, as right-hand sides on the last axis;
    a matrix with a non-finite entry gives NaN (an inf could be pivoted into a zero)."""
    finite = poison(jnp.all(jnp.isfinite(rows), axis=(-2, -1)))
    if b.ndim == 1:
        return banded_solve(rows, b, **params) * finite[..., None]
    x = banded_solve(rows[..., None, :, :], jnp.swapaxes(b, -1, -2), **params)
    return jnp.swapaxes(x, -1, -2) * finite[..., None, None]


def banded_solve(
    rows, rhs, *, lower: int, upper: int, symmetric: bool = False, pivoting: bool = True
):
    """Solve ``A x = rhs`` along the last axis, A given by its rows (module docstring).

    ``rows`` ``(*#batch, n, l+u+1)`` and ``rhs`` ``(*#batch, n)`` of one inexact dtype;
    their batch shapes broadcast.  No checks: the public wrappers make the operands.
    ``pivoting=False`` only for matrices that are safe without (module docstring).
    """
    batch = jnp.broadcast_shapes(rows.shape[:-2], rhs.shape[:-1])
    band_batch = (1,) * (len(batch) - (rows.ndim - 2)) + rows.shape[:-2]
    rows = jnp.reshape(rows, band_batch + rows.shape[-2:])
    rhs = jnp.broadcast_to(rhs, batch + rhs.shape[-1:])
    params = dict(lower=lower, upper=upper, symmetric=symmetric, pivoting=pivoting)
    return _solve(rows, rhs, **params)


def _solve(rows, rhs, **params):
    return banded_solve_p.bind(*varying_alike(rows, rhs), **params)


# ------------------------------------------------------------------- layouts --


def rows_from_diagonals(ab, lower: int, upper: int):
    """Rows from LAPACK's (and scipy's ``solve_banded``'s) diagonal-ordered form,
    ``ab[..., u + i - j, j] = A[i, j]``; the unused corners of ``ab`` are ignored."""
    n = ab.shape[-1]
    columns = []
    for m in range(lower + upper + 1):
        diagonal = ab[..., upper + lower - m, :]  # rows[i, m] = diagonal[i - l + m]
        columns.append(_shift(diagonal, m - lower, n))
    return jnp.stack(columns, axis=-1)


def rows_from_upper_form(ab):
    """Hermitian rows (lower band) from ``solveh_banded``'s upper form,
    ``ab[..., p + i - j, j] = A[i, j]`` for i ≤ j: ``rows[i, m] = ab[m, i]``, masked."""
    p, n = ab.shape[-2] - 1, ab.shape[-1]
    i, m = jnp.arange(n)[:, None], jnp.arange(p + 1)
    inside = i - p + m >= 0
    return jnp.where(inside, jnp.conj(jnp.swapaxes(ab, -1, -2)), 0).astype(ab.dtype)


def _shift(v, s: int, n: int):
    """``out[i] = v[i + s]``, 0 where ``i + s`` is outside ``0 … n-1``."""
    pad = [(0, 0)] * (v.ndim - 1)
    if s >= 0:
        return jnp.pad(v[..., min(s, n) :], pad + [(0, min(s, n))])
    return jnp.pad(v[..., : max(n + s, 0)], pad + [(min(-s, n), 0)])


def transposed_rows(rows, lower: int, upper: int):
    """Aᵀ's rows (u subdiagonals, l superdiagonals): ``Aᵀ[i, i - u + m] = A[i - u + m, i]
    = rows[i - u + m, l + u - m]``."""
    n = rows.shape[-2]
    columns = [_shift(rows[..., lower + upper - m], m - upper, n) for m in range(lower + upper + 1)]
    return jnp.stack(columns, axis=-1)


def banded_matvec(rows, x, lower: int, upper: int, symmetric: bool = False):
    """``A x`` along the last axis; for a Hermitian A its lower rows' mirror adds
    ``Σ_q conj(rows[i+q, p-q]) x[i+q]``."""
    n = x.shape[-1]
    y = sum(rows[..., m] * _shift(x, m - lower, n) for m in range(lower + upper + 1))
    if symmetric:
        p = lower
        for q in range(1, p + 1):
            y = y + _shift(jnp.conj(rows[..., p - q]), q, n) * _shift(x, q, n)
    return y


# --------------------------------------------------------------------- rules --


def _abstract_eval(rows, rhs, **params):
    return rhs.update(weak_type=False)


def _jvp(primals, tangents, *, lower, upper, symmetric, pivoting):
    rows, rhs = primals
    d_rows, d_rhs = tangents
    params = dict(lower=lower, upper=upper, symmetric=symmetric, pivoting=pivoting)
    x = _solve(rows, rhs, **params)
    residual = ad.instantiate_zeros(d_rhs)
    if type(d_rows) is not ad.Zero:
        residual = residual - banded_matvec(d_rows, x, lower, upper, symmetric)
    return x, _solve(rows, residual, **params)


def _transpose(cotangent, rows, rhs, *, lower, upper, symmetric, pivoting):
    if ad.is_undefined_primal(rows):
        raise NotImplementedError("banded_solve is linear in `rhs` only.")
    if type(cotangent) is ad.Zero:
        return [None, ad.Zero(rhs.aval)]
    if symmetric:  # Aᵀ = conj(A)
        transposed = dict(rows=jnp.conj(rows), lower=lower, upper=upper)
    else:
        transposed = dict(rows=transposed_rows(rows, lower, upper), lower=upper, upper=lower)
    rows_t = transposed.pop("rows")
    return [None, _solve(rows_t, cotangent, **transposed, symmetric=symmetric, pivoting=pivoting)]


def _batch(args, dims, **params):
    rows, rhs = args
    rows_dim, rhs_dim = dims
    size = rows.shape[rows_dim] if rows_dim is not None else rhs.shape[rhs_dim]
    rows = (
        jnp.expand_dims(rows, 0)
        if rows_dim is None
        else batching.bdim_at_front(rows, rows_dim, size)
    )
    return _solve(rows, batching.bdim_at_front(rhs, rhs_dim, size), **params), 0


_PARAMS = ("lower", "upper", "symmetric", "pivoting")
_GPU_KERNELS = {"cuda": gpu.banded(), "rocm": gpu.banded()}  # elsewhere the scans


def _impl(rows, rhs, **params):
    """Eager evaluation (also under `jax.disable_jit`): the kernel of the arguments'
    platform (`kernels.platform_of`), as the lowering rules below pick it."""
    platform, _ = platform_of((rows, rhs))
    return _compiled(rows, rhs, **params, platform="cuda" if platform == "gpu" else platform)


@partial(jax.jit, static_argnames=(*_PARAMS, "platform"))
def _compiled(rows, rhs, *, platform, **params):
    return _GPU_KERNELS.get(platform, splines_banded_scan)(rows, rhs, **params)


banded_solve_p.def_impl(_impl)
banded_solve_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[banded_solve_p] = _jvp
ad.primitive_transposes[banded_solve_p] = _transpose
batching.primitive_batchers[banded_solve_p] = _batch
mlir.register_lowering(banded_solve_p, mlir.lower_fun(splines_banded_scan, multiple_results=False))
for _platform, _kernel in _GPU_KERNELS.items():
    mlir.register_lowering(
        banded_solve_p, mlir.lower_fun(_kernel, multiple_results=False), platform=_platform
    )
