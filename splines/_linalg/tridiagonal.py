"""`tridiagonal_solve`: a callback-free JAX primitive with its rules side by side.

The system, for each leading (batch) index, is ``A x = rhs`` with

    A[i, i-1] = lower[i-1],   A[i, i] = diag[i],   A[i, i+1] = upper[i].

The primitive's operands share one dtype and one rank; ``rhs`` has the full
batch shape and the three bands one shape of their own that broadcasts to it.
A band axis of size 1 is shared by every right-hand side along that axis: the
bands are eliminated once for all of them (a multi-column fit, every axis of a
grid fit, the two right-hand sides of the cyclic solve, a vmap over the data
with the knots fixed).  `tridiagonal_solve` (the public wrapper) lays the
operands out so.  Its one parameter, ``pivoting`` (a Python bool), picks the
algorithm; every rule below keeps it.
Rules:

- JVP:        x' = A⁻¹ (rhs' − A' x)      — one more solve with the same A
              and the same ``pivoting``.
- transpose:  the solve is linear in ``rhs`` only; rhs̄ = A⁻ᵀ x̄, and Aᵀ is the
              tridiagonal matrix with ``lower`` and ``upper`` swapped (a
              pivoted solve's transpose is a pivoted solve of Aᵀ: it pivots
              on Aᵀ's own columns, not on A's factors).
              Cotangents of the diagonals come from transposing the JVP's
              ``A' x`` product: diag̅ = −λ⊙x, lower̅_i = −λ_{i+1} x_i,
              upper̅_i = −λ_i x_{i+1}, with λ = A⁻ᵀ x̄ (summed over the
              right-hand sides that share a band).
- batching:   vmapped axes move to the front and become more lanes of the
              kernel, never a loop over systems; bands not mapped get an axis
              of size 1 there, shared by the mapped right-hand sides.
- lowering:   a kernel per platform and ``pivoting`` from `kernels`
              (CPU: scan Gaussian elimination with partial pivoting, or scan
              Thomas for ``pivoting=False``; CUDA/ROCm: one device call,
              cuSPARSE or a Pallas kernel, as `kernels/gpu.py` chooses),
              and whether the program is partitioned over devices.
"""

from typing import TYPE_CHECKING, Union

import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir
from jaxtyping import Array, Float

from .._utils.dtypes import lists_to_arrays, promote_inexact
from .._utils.types import ArrayInput
from .._utils.variance import varying_alike
from .kernels import DEFAULT_KERNELS, PLATFORM_KERNELS, kernels_for, platform_of
from .operators import bands_and_rhs

if TYPE_CHECKING:
    import lineax

tridiagonal_solve_p = Primitive("splines_tridiagonal_solve")


def tridiagonal_solve(
    lower: Union[Float[ArrayInput, "*#batch n-1"], "lineax.AbstractLinearOperator"],
    diag: Float[ArrayInput, "*#batch n"] | None = None,
    upper: Float[ArrayInput, "*#batch n-1"] | None = None,
    rhs: Float[ArrayInput, "*#batch n"] | None = None,
    *,
    pivoting: bool = True,
) -> Float[Array, "*batch n"]:
    """Solve the tridiagonal system ``A x = rhs`` along the last axis.

    A JAX primitive without host callbacks: jittable, vmappable (a batch is
    more lanes of one kernel, never a loop over systems) and differentiable
    w.r.t. all four arguments, forward and reverse, to any order, with
    either ``pivoting``.  One kernel per platform: a scan on CPUs, one
    device call (cuSPARSE or a Pallas kernel) on GPUs.

    Also ``tridiagonal_solve(operator, rhs)`` with a tridiagonal lineax
    operator (``lineax.TridiagonalLinearOperator``, or any that
    ``lineax.is_tridiagonal`` accepts): its bands, by lineax's convention,
    the same as ours.  This skips `lineax.linear_solve`'s wrapper and its
    error check, whose host callbacks a program cannot be exported with (see
    `Tridiagonal` to keep lineax's interface).

    Parameters
    ----------
    lower : array_like, shape (..., n - 1), or lineax operator
        The subdiagonal, ``lower[..., i] = A[i+1, i]``; or a tridiagonal
        lineax operator on vectors of shape (n,).
    diag : array_like, shape (..., n)
        The diagonal, ``diag[..., i] = A[i, i]``; with an operator, ``rhs``
        may come here (positionally).
    upper : array_like, shape (..., n - 1)
        The superdiagonal, ``upper[..., i] = A[i, i+1]``; not given with an
        operator.
    rhs : array_like, shape (..., n)
        The right-hand side.  The leading (batch) dimensions of all four
        broadcast (numpy's rules); bands shared by several right-hand sides
        are eliminated once.
    pivoting : bool, default True
        A Python bool, which selects the kernel.  ``True``: Gaussian
        elimination with partial pivoting (row interchanges as LAPACK
        ``gtsv``), backward stable for any nonsingular system.  ``False``:
        the Thomas algorithm, faster; exact to rounding for diagonally
        dominant systems (by rows or by columns), but a zero or tiny pivot,
        which a nonsingular non-dominant matrix can have, gives inf/NaN or a
        wrong answer: use it only for systems known to be dominant.

    Returns
    -------
    x : jax.Array, shape (..., n)
        The solution, in the common floating dtype of the arguments
        (integers become the default float); the batch shape is the
        broadcast one.

    Raises
    ------
    ValueError
        Last-axis lengths that do not match (``n`` for ``diag`` and ``rhs``,
        ``n − 1`` for the bands, ``n >= 1``), batch shapes that do not
        broadcast, a lineax operator that is not tridiagonal.  A singular
        matrix raises nothing: an exactly zero pivot gives inf/NaN.
    TypeError
        ``pivoting`` not a Python bool; arguments that fit neither call form.

    See Also
    --------
    cyclic_tridiagonal_solve : Periodic (cyclic) tridiagonal systems.
    Tridiagonal : A lineax solver on this primitive.

    Notes
    -----
    The Thomas algorithm is Gaussian elimination without pivoting on the
    three bands: a forward sweep ``c'_i = upper_i / (diag_i − lower_{i−1}
    c'_{i−1})`` and ``d'_i = (rhs_i − lower_{i−1} d'_{i−1}) / (diag_i −
    lower_{i−1} c'_{i−1})``, then back substitution ``x_i = d'_i − c'_i
    x_{i+1}``: O(n) operations.  Derivatives take one more solve with the
    same matrix: ``x' = A⁻¹ (rhs' − A' x)`` forward, and ``rhs̄ = A⁻ᵀ x̄``
    (a solve with ``lower`` and ``upper`` swapped) in reverse.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> lower, upper = jnp.array([1.0, 1.0]), jnp.array([1.0, 1.0])
    >>> diag, rhs = jnp.array([2.0, 2.0, 2.0]), jnp.array([3.0, 4.0, 3.0])
    >>> print(np.round(np.asarray(splines.tridiagonal_solve(lower, diag, upper, rhs)), 6))
    [1. 1. 1.]
    >>> x = splines.tridiagonal_solve(lower, diag, upper, rhs, pivoting=False)
    >>> print(np.round(np.asarray(x), 6))
    [1. 1. 1.]
    """
    check_pivoting(pivoting)
    lower, diag, upper, rhs = bands_and_rhs(lower, diag, upper, rhs)
    lower, diag, upper, rhs = promote_inexact(*lists_to_arrays(lower, diag, upper, rhs))
    n = diag.shape[-1] if diag.ndim else 0
    if n < 1 or rhs.ndim < 1 or rhs.shape[-1] != n:
        raise ValueError(
            f"`diag` and `rhs` need the same last-axis length n ≥ 1; got "
            f"`diag.shape`={diag.shape} and `rhs.shape`={rhs.shape}."
        )
    for name, band in (("lower", lower), ("upper", upper)):
        if band.ndim < 1 or band.shape[-1] != n - 1:
            raise ValueError(
                f"`{name}` must have last-axis length n-1 = {n - 1}; got "
                f"`{name}.shape`={band.shape}."
            )
    try:
        band_batch = jnp.broadcast_shapes(*(a.shape[:-1] for a in (lower, diag, upper)))
        batch = jnp.broadcast_shapes(band_batch, rhs.shape[:-1])
    except (ValueError, TypeError):
        raise ValueError(
            "the leading (batch) dimensions of `lower`, `diag`, `upper` and `rhs` do not "
            f"broadcast: shapes {lower.shape}, {diag.shape}, {upper.shape}, {rhs.shape}."
        ) from None
    # The bands keep their own batch (1s in front up to rhs's rank): shared, not copied.
    band_batch = (1,) * (len(batch) - len(band_batch)) + band_batch
    bands = (jnp.broadcast_to(a, band_batch + a.shape[-1:]) for a in (lower, diag, upper))
    return _solve(*bands, jnp.broadcast_to(rhs, batch + (n,)), pivoting=pivoting)


def _solve(lower, diag, upper, rhs, *, pivoting):
    """Bind the primitive to operands that vary over `shard_map`'s manual axes alike, so
    that the output's abstract value is the right-hand side's (`_utils.variance`)."""
    operands = varying_alike(lower, diag, upper, rhs)
    return tridiagonal_solve_p.bind(*operands, pivoting=pivoting)


def check_pivoting(pivoting):
    if not isinstance(pivoting, bool):
        raise TypeError(
            f"`pivoting` must be a Python bool (True or False); got {pivoting!r} of type "
            f"{type(pivoting).__name__}."
        )


def _abstract_eval(lower, diag, upper, rhs, *, pivoting):
    return rhs.update(weak_type=False)  # its shape, dtype and variance over manual axes


def _jvp(primals, tangents, *, pivoting):
    lower, diag, upper, rhs = primals
    d_lower, d_diag, d_upper, d_rhs = tangents
    x = _solve(*primals, pivoting=pivoting)
    # rhs' − A' x, skipping symbolic-zero tangents.
    residual = ad.instantiate_zeros(d_rhs)
    if type(d_diag) is not ad.Zero:
        residual = residual - d_diag * x
    if type(d_lower) is not ad.Zero:
        residual = residual.at[..., 1:].add(-d_lower * x[..., :-1])
    if type(d_upper) is not ad.Zero:
        residual = residual.at[..., :-1].add(-d_upper * x[..., 1:])
    return x, _solve(lower, diag, upper, residual, pivoting=pivoting)


def _transpose(cotangent, lower, diag, upper, rhs, *, pivoting):
    if any(ad.is_undefined_primal(a) for a in (lower, diag, upper)):
        raise NotImplementedError("tridiagonal_solve is linear in `rhs` only.")
    if type(cotangent) is ad.Zero:
        return [None, None, None, ad.Zero(rhs.aval)]
    # Aᵀ swaps the off-diagonals.
    rhs_bar = _solve(upper, diag, lower, cotangent, pivoting=pivoting)
    return [None, None, None, rhs_bar]


def _batch(args, dims, *, pivoting):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    *bands, rhs = args
    if all(d is None for d in dims[:3]):  # shared by every mapped right-hand side
        bands = [jnp.expand_dims(band, 0) for band in bands]
    else:
        bands = [batching.bdim_at_front(b, d, size) for b, d in zip(bands, dims[:3])]
    return _solve(*bands, batching.bdim_at_front(rhs, dims[3], size), pivoting=pivoting), 0


def _impl(*args, pivoting):
    """Eager evaluation (also under `jax.disable_jit`): the kernel of the arguments'
    platform (`kernels.platform_of`)."""
    platform, devices = platform_of(args)
    return kernels_for(platform).pick(pivoting, partitioned=devices > 1)(*args)


def _lowering(kernels):
    """Lowering rule for one platform: its kernel for the equation's ``pivoting``."""

    def rule(ctx, *args, pivoting):
        kernel = kernels.pick(pivoting, partitioned=_partitioned(ctx.module_context.axis_context))
        return mlir.lower_fun(kernel, multiple_results=False)(ctx, *args)

    return rule


def _partitioned(axis_context) -> bool:
    """Whether the partitioner splits the program over devices (`kernels` says why it matters).

    A jitted program names its device count; inside `shard_map`, the mesh axes
    that are not manual are the partitioner's.
    """
    devices = getattr(axis_context, "num_devices", None)
    if devices is not None:
        return devices > 1
    mesh = getattr(axis_context, "mesh", None)
    manual = getattr(axis_context, "manual_axes", frozenset())
    return mesh is not None and any(
        size > 1 for name, size in mesh.shape.items() if name not in manual
    )


# Registration, in one place.
tridiagonal_solve_p.def_impl(_impl)
tridiagonal_solve_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[tridiagonal_solve_p] = _jvp
ad.primitive_transposes[tridiagonal_solve_p] = _transpose
batching.primitive_batchers[tridiagonal_solve_p] = _batch
mlir.register_lowering(tridiagonal_solve_p, _lowering(DEFAULT_KERNELS))
for _platform, _kernels in PLATFORM_KERNELS.items():
    mlir.register_lowering(tridiagonal_solve_p, _lowering(_kernels), platform=_platform)
