"""Dense references for tridiagonal systems, shared by the solver and kernel tests."""

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
