"""The per-platform kernels' arithmetic, run on CPU.

`splines_cusparse_gtsv` is the CUDA/ROCm kernel for ``pivoting=False``; on CPU
the same function runs LAPACK ``gtsv`` underneath (and its closed forms for
n ≤ 2), so its layout and closed forms are checked here against the scan
kernels and dense solves.  The CUDA program itself is checked in
tests/test_lowering.py.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from splines._kernels import splines_cusparse_gtsv, splines_gtsv_scan, splines_thomas_scan

SHAPES = [(1,), (2,), (3,), (4,), (17,), (5, 1), (5, 2), (5, 3), (2, 3, 9)]


def _dominant_system(rng, shape, dtype):
    batch, n = shape[:-1], shape[-1]
    lower, upper = (rng.uniform(-1, 1, batch + (n - 1,)) for _ in range(2))
    diag = rng.choice([-1, 1], shape) * (2.5 + rng.uniform(0, 1, shape))
    rhs = rng.normal(size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        rhs = rhs + 1j * rng.normal(size=shape)
        lower = lower * np.exp(1j * rng.uniform(0, 3, lower.shape))
    return tuple(jnp.asarray(a, dtype) for a in (lower, diag, upper, rhs))


def _dense(lower, diag, upper):
    n = diag.shape[-1]
    a = np.zeros(diag.shape + (n,), np.result_type(lower, diag, upper))
    idx = np.arange(n)
    a[..., idx, idx] = diag
    a[..., idx[1:], idx[:-1]] = lower
    a[..., idx[:-1], idx[1:]] = upper
    return a


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_gpu_kernel_matches_dense_solve_and_the_scan_kernels(shape, dtype):
    system = _dominant_system(np.random.default_rng(len(shape) * 100 + shape[-1]), shape, dtype)
    got = np.asarray(splines_cusparse_gtsv(*system))
    matrix = _dense(*map(np.asarray, system[:3]))
    expected = np.linalg.solve(matrix, np.asarray(system[3])[..., None])[..., 0]
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)
    for scan in (splines_thomas_scan, splines_gtsv_scan):
        np.testing.assert_allclose(got, np.asarray(scan(*system)), rtol=tol, atol=tol)


def test_gpu_kernel_two_by_two_singular_is_not_finite():
    lower, diag, upper, rhs = (jnp.array([[1.0]]), jnp.array([[1.0, 1.0]]), jnp.array([[1.0]]),
                               jnp.array([[1.0, 2.0]]))  # fmt: skip
    assert not np.all(np.isfinite(np.asarray(splines_cusparse_gtsv(lower, diag, upper, rhs))))


def test_gpu_kernel_is_one_named_function_without_loops():
    args = _dominant_system(np.random.default_rng(0), (4, 64), np.float32)
    text = jax.jit(splines_cusparse_gtsv).lower(*args).as_text()
    assert "stablehlo.while" not in text and "callback" not in text
