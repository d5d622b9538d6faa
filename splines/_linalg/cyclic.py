"""Cyclic (periodic) tridiagonal solve by Sherman–Morrison on `tridiagonal_solve`.

The cyclic matrix is ``A = T + u vᵀ`` with T tridiagonal and

    u = (γ, 0, …, 0, α)ᵀ,   v = (1, 0, …, 0, β/γ)ᵀ,
    α = A[n-1, 0] = upper[n-1],   β = A[0, n-1] = lower[0],

so T equals A's tridiagonal part with ``T[0,0] = diag[0] − γ`` and
``T[n-1,n-1] = diag[n-1] − αβ/γ``.  Then, with ``T y = rhs`` and ``T z = u``
solved together as two lanes of one call,

    x = y − z (v·y) / (1 + v·z).

Any γ ≠ 0 gives the same x in exact arithmetic; it is chosen to keep T well
behaved.  Numerical Recipes (§2.7) takes γ = −diag[0], which divides by zero
when diag[0] = 0 even though A may be nonsingular.  Here, with
m = max(|diag[0]|, |β|, |α|) and s = sign(diag[0]) (s = 1 when diag[0] = 0;
diag[0]/|diag[0]| when complex),

    γ = −s·m        (γ = −1 when m = 0: diag[0] and both corners are 0, A is
                     plain tridiagonal, and T is A with T[0,0] = 1).

γ is never 0.  It keeps T at least as diagonally dominant as γ = −diag[0]
did when A is dominant: |T[0,0]| = |diag[0]| + m ≥ 2|diag[0]| (the two add
with one sign), and the change to the last row, |αβ/γ| = |α||β|/m, is at most
|α||β|/|diag[0]| (the old change) since m ≥ |diag[0]|, and at most |α| since
m ≥ |β| — so T's last row keeps A's dominance margin with the corner entry α
taken out.  For a non-dominant A, Sherman–Morrison needs T to be nonsingular
too, which holds for all but special values of A; a T that is nearly singular
while A is not costs accuracy.  γ only splits A into T + u vᵀ, so x does not
depend on it and no derivative flows through it.
"""

import jax
import jax.numpy as jnp
from jaxtyping import Array, Float

from .._utils.dtypes import lists_to_arrays, promote_inexact
from .._utils.types import ArrayInput
from .tridiagonal import check_pivoting, tridiagonal_solve


def cyclic_tridiagonal_solve(
    lower: Float[ArrayInput, "*#batch n"],
    diag: Float[ArrayInput, "*#batch n"],
    upper: Float[ArrayInput, "*#batch n"],
    rhs: Float[ArrayInput, "*#batch n"],
    *,
    pivoting: bool = True,
) -> Float[Array, "*batch n"]:
    """Solve ``A x = rhs`` for a cyclic (periodic) tridiagonal A along the last axis.

    Sherman–Morrison around one call of `tridiagonal_solve` (with two
    right-hand sides); jittable, vmappable and differentiable w.r.t. all four
    arguments, as it is.

    Parameters
    ----------
    lower : array_like, shape (..., n)
        ``lower[..., i] = A[i, i−1]``, indices modulo n: ``lower[..., 0]`` is
        the corner ``A[0, n−1]``.  Note the length n and the indexing, which
        differ from `tridiagonal_solve`'s ``lower``.
    diag : array_like, shape (..., n)
        The diagonal, ``diag[..., i] = A[i, i]``.
    upper : array_like, shape (..., n)
        ``upper[..., i] = A[i, i+1]``, indices modulo n: ``upper[..., n−1]``
        is the corner ``A[n−1, 0]``.  For n = 2 the two entries that land on
        one matrix element add up.
    rhs : array_like, shape (..., n)
        The right-hand side.  Leading (batch) dimensions of all four
        broadcast.
    pivoting : bool, default True
        A Python bool, passed to the tridiagonal solve (see
        `tridiagonal_solve`).  ``True``: partial pivoting as LAPACK ``gtsv``,
        so A need not be diagonally dominant, and a zero ``diag[0]`` is
        fine.  ``False``: the Thomas algorithm, for diagonally dominant A (T
        below is then dominant too); a zero pivot gives inf/NaN.

    Returns
    -------
    x : jax.Array, shape (..., n)
        The solution, in the common floating dtype of the arguments.

    Raises
    ------
    ValueError
        ``n < 2``, or last-axis lengths that differ.  A singular A raises
        nothing: it gives inf/NaN.
    TypeError
        ``pivoting`` not a Python bool.

    See Also
    --------
    tridiagonal_solve : The non-cyclic solve.

    Notes
    -----
    A is split as ``A = T + u vᵀ`` with T tridiagonal,
    ``u = (γ, 0, …, 0, α)ᵀ``, ``v = (1, 0, …, 0, β/γ)ᵀ``, where
    ``α = A[n−1, 0]`` and ``β = A[0, n−1]``: T is A's tridiagonal part with
    ``T[0, 0] = diag[0] − γ`` and ``T[n−1, n−1] = diag[n−1] − αβ/γ``.  With
    ``T y = rhs`` and ``T z = u`` solved together, the Sherman–Morrison
    formula gives
    ::

        x = y − z (v·y) / (1 + v·z).

    Any γ ≠ 0 gives the same x in exact arithmetic.  Numerical Recipes
    (§2.7) takes ``γ = −diag[0]``, which fails when ``diag[0] = 0``; here
    ``γ = −s · max(|diag[0]|, |α|, |β|)`` with ``s`` the sign of ``diag[0]``
    (1 when it is 0; ``γ = −1`` when all three are 0), which is never 0 and
    keeps T diagonally dominant when A is.  No derivative flows
    through γ: x does not depend on it.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> ones = jnp.ones(4)
    >>> x = splines.cyclic_tridiagonal_solve(ones, 4 * ones, ones, jnp.array([6.0, 6, 6, 6]))
    >>> print(np.round(np.asarray(x), 6))
    [1. 1. 1. 1.]
    """
    check_pivoting(pivoting)
    lower, diag, upper, rhs = promote_inexact(*lists_to_arrays(lower, diag, upper, rhs))
    n = diag.shape[-1] if diag.ndim else 0
    shapes = {a.shape[-1] if a.ndim else 0 for a in (lower, diag, upper, rhs)}
    if n < 2 or shapes != {n}:
        raise ValueError(
            "cyclic_tridiagonal_solve needs `lower`, `diag`, `upper` and `rhs` with "
            f"one last-axis length n ≥ 2; got shapes {lower.shape}, {diag.shape}, "
            f"{upper.shape} and {rhs.shape}."
        )
    alpha, beta = upper[..., -1], lower[..., 0]
    # γ = −s·max(|diag[0]|, |β|, |α|), never 0 (module docstring).  x does not
    # depend on γ, so no derivative is taken through it.
    d0, a0, b0 = (jax.lax.stop_gradient(v) for v in (diag[..., 0], alpha, beta))
    m = jnp.maximum(jnp.abs(d0), jnp.maximum(jnp.abs(a0), jnp.abs(b0)))
    s = jnp.where(d0 == 0, 1, jnp.sign(d0))  # d0/|d0| for a complex d0
    gamma = jnp.where(m == 0, -1, -s * m).astype(diag.dtype)
    ratio = beta / gamma
    # T's diagonal and u, joined from pieces (no scatter: a small solve's program then
    # has fewer steps, and XLA:CPU runs it on the calling thread, docs/architecture.md §6).
    ends = (gamma[..., None], alpha[..., None])
    diag_t = jnp.concatenate(
        [diag[..., :1] - ends[0], diag[..., 1:-1], diag[..., -1:] - ends[1] * ratio[..., None]],
        axis=-1,
    )
    u = jnp.concatenate([ends[0], jnp.zeros(alpha.shape + (n - 2,), diag.dtype), ends[1]], axis=-1)
    rhs, u = jnp.broadcast_arrays(rhs, u)
    y_and_z = tridiagonal_solve(
        lower[..., None, 1:],
        diag_t[..., None, :],
        upper[..., None, :-1],
        jnp.stack([rhs, u], axis=-2),
        pivoting=pivoting,
    )
    y, z = y_and_z[..., 0, :], y_and_z[..., 1, :]
    factor = (y[..., 0] + ratio * y[..., -1]) / (1 + z[..., 0] + ratio * z[..., -1])
    return y - factor[..., None] * z
