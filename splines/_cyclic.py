"""Cyclic (periodic) tridiagonal solve by Sherman–Morrison on `tridiagonal_solve`.

The cyclic matrix is ``A = T + u vᵀ`` with T tridiagonal and

    u = (γ, 0, …, 0, α)ᵀ,   v = (1, 0, …, 0, β/γ)ᵀ,
    α = A[n-1, 0] = upper[n-1],   β = A[0, n-1] = lower[0],   γ = −diag[0],

so T equals A's tridiagonal part with ``T[0,0] = diag[0] − γ`` and
``T[n-1,n-1] = diag[n-1] − αβ/γ``.  Then, with ``T y = rhs`` and ``T z = u``
solved together as two lanes of one call,

    x = y − z (v·y) / (1 + v·z).

γ = −diag[0] keeps T diagonally dominant when A is (Numerical Recipes §2.7).
"""

import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from ._dtypes import promote_inexact
from ._tridiagonal import tridiagonal_solve


def cyclic_tridiagonal_solve(
    lower: Float[ArrayLike, "*#batch n"],
    diag: Float[ArrayLike, "*#batch n"],
    upper: Float[ArrayLike, "*#batch n"],
    rhs: Float[ArrayLike, "*#batch n"],
) -> Float[Array, "*batch n"]:
    """Solve ``A x = rhs`` for a cyclic tridiagonal A along the last axis.

    ``lower[..., i] = A[i, i-1]`` and ``upper[..., i] = A[i, i+1]`` with
    indices taken modulo n, so ``lower[..., 0] = A[0, n-1]`` and
    ``upper[..., n-1] = A[n-1, 0]``.  For n = 2 both entries that land on the
    same matrix element add up.  Needs n ≥ 2; leading dimensions broadcast.
    """
    lower, diag, upper, rhs = promote_inexact(lower, diag, upper, rhs)
    n = diag.shape[-1] if diag.ndim else 0
    shapes = {a.shape[-1] if a.ndim else 0 for a in (lower, diag, upper, rhs)}
    if n < 2 or shapes != {n}:
        raise ValueError(
            "cyclic_tridiagonal_solve needs `lower`, `diag`, `upper` and `rhs` with "
            f"one last-axis length n ≥ 2; got shapes {lower.shape}, {diag.shape}, "
            f"{upper.shape} and {rhs.shape}."
        )
    alpha, beta, gamma = upper[..., -1], lower[..., 0], -diag[..., 0]
    ratio = beta / gamma
    diag_t = diag.at[..., 0].add(-gamma).at[..., -1].add(-alpha * ratio)
    u = jnp.zeros(alpha.shape + (n,), diag.dtype)
    u = u.at[..., 0].set(gamma).at[..., -1].set(alpha)
    rhs, u = jnp.broadcast_arrays(rhs, u)
    y_and_z = tridiagonal_solve(
        lower[..., None, 1:],
        diag_t[..., None, :],
        upper[..., None, :-1],
        jnp.stack([rhs, u], axis=-2),
    )
    y, z = y_and_z[..., 0, :], y_and_z[..., 1, :]
    factor = (y[..., 0] + ratio * y[..., -1]) / (1 + z[..., 0] + ratio * z[..., -1])
    return y - factor[..., None] * z
