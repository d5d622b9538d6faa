"""The per-platform kernels' arithmetic, run on CPU.

`splines_cusparse_gtsv` is the CUDA/ROCm kernel for ``pivoting=False``; on CPU
the same function runs LAPACK ``gtsv`` underneath (and its closed forms for
n ≤ 2), so its layout and closed forms are checked here against the scan
kernels and dense solves.  The Pallas candidates (`pallas_thomas`,
`pallas_gtsv`) run here in interpret mode: the same kernel body, executed by
XLA:CPU.  The CUDA programs themselves are checked in tests/test_lowering.py.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from _systems import dense
from splines._linalg.kernels import splines_cusparse_gtsv, splines_gtsv_scan, splines_thomas_scan
from splines._linalg.kernels._pallas import lanes_per_program
from splines._linalg.kernels.pallas_gtsv import splines_pallas_gtsv
from splines._linalg.kernels.pallas_thomas import splines_pallas_thomas

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


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_gpu_kernel_matches_dense_solve_and_the_scan_kernels(dtype):
    """Every shape of `SHAPES` in one compiled program per dtype (they differ in shape
    only, and compiling dominates); a failure names its shape and kernel."""
    systems = [_dominant_system(np.random.default_rng(len(shape) * 100 + shape[-1]), shape, dtype)
               for shape in SHAPES]  # fmt: skip
    kernels = (splines_cusparse_gtsv, splines_thomas_scan, splines_gtsv_scan)
    solved = jax.jit(lambda systems: [[k(*s) for k in kernels] for s in systems])(systems)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for shape, system, (got, *scans) in zip(SHAPES, systems, solved):
        got = np.asarray(got)
        matrix = dense(*map(np.asarray, system[:3]))
        expected = np.linalg.solve(matrix, np.asarray(system[3])[..., None])[..., 0]
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=f"shape {shape}")
        for kernel, scan in zip(kernels[1:], scans):
            np.testing.assert_allclose(got, np.asarray(scan), rtol=tol, atol=tol,
                                       err_msg=f"shape {shape}, {kernel.__name__}")  # fmt: skip


def test_gpu_kernel_two_by_two_singular_is_not_finite():
    lower, diag, upper, rhs = (jnp.array([[1.0]]), jnp.array([[1.0, 1.0]]), jnp.array([[1.0]]),
                               jnp.array([[1.0, 2.0]]))  # fmt: skip
    assert not np.all(np.isfinite(np.asarray(splines_cusparse_gtsv(lower, diag, upper, rhs))))


def test_gpu_kernel_is_one_named_function_without_loops():
    args = _dominant_system(np.random.default_rng(0), (4, 64), np.float32)
    text = jax.jit(splines_cusparse_gtsv).lower(*args).as_text()
    assert "stablehlo.while" not in text and "callback" not in text


# --- Pallas candidates, interpret mode ------------------------------------------------

PALLAS = {"thomas": (splines_pallas_thomas, splines_thomas_scan),
          "gtsv": (splines_pallas_gtsv, splines_gtsv_scan)}  # fmt: skip
# The closed-form sizes, one system, small batches, and batches over several
# blocks: 300 systems are three blocks of 128 lanes, the last one padded with
# identity systems; 129 spill one system into a second block.
PALLAS_SHAPES = [(1,), (2,), (3,), (17,), (5, 2), (300, 7), (129, 1, 5)]


def _general_system(rng, shape, dtype):
    """Random bands with no dominance: partial pivoting swaps rows here."""
    batch, n = shape[:-1], shape[-1]
    lower, upper = (rng.uniform(-1, 1, batch + (n - 1,)) for _ in range(2))
    diag, rhs = rng.uniform(-1, 1, shape), rng.normal(size=shape)
    return tuple(jnp.asarray(a, dtype) for a in (lower, diag, upper, rhs))


def _pallas(kernel, *system):
    return np.asarray(PALLAS[kernel][0](*system, interpret=True))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kernel", list(PALLAS))
def test_pallas_kernel_matches_dense_solve_and_its_scan_kernel(kernel, dtype):
    """Every shape of `PALLAS_SHAPES` in one compiled program per kernel and dtype; a
    failure names its shape."""
    systems = [_dominant_system(np.random.default_rng(shape[-1] * 10 + len(shape)), shape, dtype)
               for shape in PALLAS_SHAPES]  # fmt: skip
    pallas, scan = PALLAS[kernel]
    solved = jax.jit(lambda systems: [(pallas(*s, interpret=True), scan(*s))
                                      for s in systems])(systems)  # fmt: skip
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for shape, system, (got, by_scan) in zip(PALLAS_SHAPES, systems, solved):
        got = np.asarray(got)
        matrix = dense(*map(np.asarray, system[:3]))
        expected = np.linalg.solve(matrix, np.asarray(system[3])[..., None])[..., 0]
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=f"shape {shape}")
        # The same recurrences in the same order as the scan: equal to rounding.
        np.testing.assert_allclose(got, np.asarray(by_scan), rtol=4 * np.finfo(dtype).eps,
                                   atol=0, err_msg=f"shape {shape}, against the scan")  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6,), (300, 7)], ids=str)
def test_pallas_gtsv_pivots_like_the_scan_and_lapack(shape, dtype):
    system = _general_system(np.random.default_rng(7), shape, dtype)
    got = _pallas("gtsv", *system)
    scan = np.asarray(splines_gtsv_scan(*system))
    np.testing.assert_allclose(got, scan, rtol=1e-4 if dtype == np.float32 else 1e-11,
                               atol=1e-5 if dtype == np.float32 else 1e-12)  # fmt: skip
    lapack = np.asarray(jax.lax.linalg.tridiagonal_solve(
        *(jnp.concatenate([jnp.zeros_like(system[3][..., :1]), system[0]], -1), system[1],
          jnp.concatenate([system[2], jnp.zeros_like(system[3][..., :1])], -1)),
        system[3][..., None])[..., 0])  # fmt: skip
    scale = 1 + np.abs(lapack)
    assert np.max(np.abs(got - lapack) / scale) < (1e-3 if dtype == np.float32 else 1e-10)


def test_pallas_gtsv_needs_a_swap_where_thomas_breaks_down():
    """A zero leading diagonal: Thomas divides by 0, partial pivoting does not."""
    lower, diag, upper, rhs = (jnp.array([[1.0, 1.0]]), jnp.array([[0.0, 1.0, 3.0]]),
                               jnp.array([[2.0, 1.0]]), jnp.array([[2.0, 4.0, 7.0]]))  # fmt: skip
    x = _pallas("gtsv", lower, diag, upper, rhs)
    matrix = dense(*map(np.asarray, (lower, diag, upper)))
    np.testing.assert_allclose(x, np.linalg.solve(matrix, np.asarray(rhs)[..., None])[..., 0],
                               rtol=1e-6)  # fmt: skip
    assert not np.all(np.isfinite(_pallas("thomas", lower, diag, upper, rhs)))


@pytest.mark.parametrize("kernel", list(PALLAS))
def test_pallas_kernel_singular_system_is_not_finite(kernel):
    lower, diag, upper, rhs = (jnp.array([[1.0]]), jnp.array([[1.0, 1.0]]), jnp.array([[1.0]]),
                               jnp.array([[1.0, 2.0]]))  # fmt: skip
    assert not np.all(np.isfinite(_pallas(kernel, lower, diag, upper, rhs)))


@pytest.mark.parametrize("kernel", list(PALLAS))
def test_pallas_kernel_refuses_complex_systems(kernel):
    system = _dominant_system(np.random.default_rng(0), (2, 5), np.complex128)
    with pytest.raises(TypeError, match="real systems only"):
        _pallas(kernel, *system)


@pytest.mark.parametrize("systems, width", [(1, 1), (3, 4), (64, 64), (100, 128), (10**6, 128)])
def test_pallas_blocks_are_powers_of_two_lanes(systems, width):
    assert lanes_per_program(systems) == width
