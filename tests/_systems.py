"""Dense references for tridiagonal systems, shared by the solver and kernel tests."""

import jax
import numpy as np


def dense(lower, diag, upper):
    """(..., n, n) matrix of a tridiagonal system (lower/upper of length n-1).

    In float64, or complex128 for complex bands: the reference is never less
    precise than the solve under test.
    """
    lower, diag, upper = map(np.asarray, (lower, diag, upper))
    dtype = np.result_type(np.float64, lower, diag, upper)
    n = diag.shape[-1]
    batch = np.broadcast_shapes(lower.shape[:-1], diag.shape[:-1], upper.shape[:-1])
    a = np.zeros(batch + (n, n), dtype)  # assignments below cast to it
    i = np.arange(n)
    a[..., i, i] = diag
    a[..., i[1:], i[:-1]] = lower
    a[..., i[:-1], i[1:]] = upper
    return a


def lapack_solve(lower, diag, upper, rhs):
    """LAPACK gtsv through `jax.lax.linalg.tridiagonal_solve` (its own layout), on the CPU.

    (On a GPU, lax's solve is cuSPARSE, which pivots for one system only.)
    """
    zero = np.zeros(lower.shape[:-1] + (1,), lower.dtype)
    dl = np.concatenate([zero, lower], axis=-1)
    du = np.concatenate([upper, zero], axis=-1)
    dl, d, du, b = jax.device_put((dl, diag, du, rhs[..., None]), jax.devices("cpu")[0])
    return jax.lax.linalg.tridiagonal_solve(dl, d, du, b)[..., 0]
