"""The per-platform kernels' arithmetic, run on CPU.

`splines_cusparse_gtsv` is the CUDA/ROCm kernel for ``pivoting=False``; on CPU
the same function runs LAPACK ``gtsv`` underneath (and its closed forms for
n ≤ 2), so its layout and closed forms are checked here against the scan
kernels and dense solves: n = 2 by one Thomas step, scale-free (not Cramer's
rule, whose determinant squares the matrix's scale: spline fits meet n = 2 for
4 knots with not-a-knot ends and for periodic data with 2 distinct knots), half
precision solved in float32 (jaxlib's cuSPARSE handler, ``Gtsv2``, takes F32,
F64, C64 and C128 only), odd and empty shapes.  The public API runs on them
too: eagerly (`jax.disable_jit`) with the CPU entry of `PLATFORM_KERNELS`
pointing at `GPU_KERNELS`, the primitive's eager rule calls exactly the
functions the CUDA lowering would.

The Pallas candidates (`pallas_thomas`, `pallas_gtsv`) run here in interpret
mode: the same kernel body, executed by XLA:CPU — against dense solves and
their scan kernels, on integer systems (exact zeros, pivot ties, singular
matrices), empty batches, and lanes independent of each other.

CUDA programs lowered without a GPU: a half-precision solve hands cuSPARSE
float32, a Pallas candidate is one Triton call for odd shapes, and the public
API on short grids (systems of n ≤ 2) has no loop and at most one cuSPARSE call
per solve.  (Every entry point's CUDA program: tests/test_lowering.py.)

Huge but well-conditioned systems (docs/architecture.md §4): float32 kernels
divide by the pivot, float64 kernels multiply by its reciprocal.
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _lowered import custom_calls, functions, lowered_text
from _systems import dense, lapack_solve

import splines
from splines._linalg.kernels import (
    DEFAULT_KERNELS,
    GPU_KERNELS,
    PLATFORM_KERNELS,
    gpu_kernels,
    kernels_for,
    splines_cusparse_gtsv,
    splines_gtsv_scan,
    splines_thomas_scan,
)
from splines._linalg.kernels._pallas import lanes_per_program
from splines._linalg.kernels.pallas_gtsv import splines_pallas_gtsv
from splines._linalg.kernels.pallas_thomas import splines_pallas_thomas

CUSPARSE = "cusparse_gtsv2_ffi"
TRITON = "__gpu$xla.gpu.triton"

# (20, 6): more systems than the pivoting kernel stacks (`gtsv_scan._MAX_STACKED_LANES`)
SHAPES = [(1,), (2,), (3,), (4,), (17,), (5, 1), (5, 2), (5, 3), (2, 3, 9), (20, 6)]


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


@pytest.mark.parametrize(
    "pivoting, shape, dtype, kernel",
    [
        (True, (3, 64), np.float32, "splines_pallas_gtsv"),
        (True, (64,), np.float64, "splines_pallas_gtsv"),
        (True, (3, 64), np.float16, "splines_pallas_gtsv"),  # in float32
        (True, (3, 64), np.complex64, "splines_gtsv_scan"),  # Triton has no complex numbers
        (False, (3, 64), np.float32, "splines_cusparse_gtsv"),
        (False, (100_000,), np.float32, "splines_cusparse_gtsv"),  # one long system
        (False, (100_000, 4), np.float32, "splines_cusparse_gtsv"),  # many systems
        (False, (3, 64), np.complex64, "splines_cusparse_gtsv"),
    ],
    ids=str,
)
def test_cuda_kernel_is_chosen_by_pivoting_batch_and_dtype(pivoting, shape, dtype, kernel):
    """`kernels/gpu.py`: the measured choice, seen in the CUDA program."""
    args = [jax.ShapeDtypeStruct(shape[:-1] + (shape[-1] - 1,), dtype),
            jax.ShapeDtypeStruct(shape, dtype)] * 2  # fmt: skip
    solve = lambda *a: splines.tridiagonal_solve(*a, pivoting=pivoting)  # noqa: E731
    names = {f for f in functions(lowered_text(solve, *args, platform="cuda"))
             if f.startswith("splines_")}  # fmt: skip
    assert kernel in names
    assert not names & ({"splines_pallas_gtsv", "splines_pallas_thomas", "splines_gtsv_scan",
                         "splines_cusparse_gtsv"} - {kernel})  # fmt: skip


@pytest.mark.parametrize("pivoting", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.complex128])
def test_gpu_kernels_solve_as_the_scan_kernels(pivoting, dtype):
    """The GPU's choice (its Pallas kernel in interpret mode) on many small systems and on
    one, every dtype."""
    kernels = gpu_kernels(interpret=True)
    for shape in [(1_000, 3), (40,)]:
        system = _dominant_system(np.random.default_rng(shape[0]), shape, dtype)
        wide = [a.astype(np.result_type(dtype, np.float32)) for a in system]
        got = np.asarray(jax.jit(kernels.pick(pivoting))(*system))
        want = np.asarray(splines_gtsv_scan(*wide)).astype(dtype)
        assert got.dtype == np.dtype(dtype)
        tol = {np.float16: 2e-3, np.float32: 1e-5}.get(dtype, 1e-12)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=f"{shape}")


def test_eager_solve_runs_the_kernel_of_the_arguments_platform(monkeypatch):
    """Arrays on the CPU of a machine whose default backend is a GPU: the CPU's kernels
    (the GPU's pivoting kernel, Pallas, would refuse to run on the CPU)."""
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")  # jax's name for CUDA, ROCm
    system = _dominant_system(np.random.default_rng(1), (3, 16), np.float32)
    with jax.disable_jit():
        got = np.asarray(splines.tridiagonal_solve(*system))
    np.testing.assert_allclose(got, np.asarray(splines_gtsv_scan(*system)), rtol=1e-5)


def test_a_device_platform_finds_the_kernels_its_lowering_uses():
    """jax names a CUDA or ROCm device's platform "gpu" (`Device.platform`,
    `jax.default_backend`); the lowering rules are registered as "cuda" and "rocm"."""
    assert kernels_for("gpu") is GPU_KERNELS is kernels_for("cuda") is kernels_for("rocm")
    assert kernels_for("cpu") is PLATFORM_KERNELS["cpu"]
    assert kernels_for("tpu") is DEFAULT_KERNELS


def test_cuda_solves_without_pivoting_export_at_any_batch():
    """cuSPARSE (no Triton call): a fit of 10 000 columns exports for CUDA as it is."""
    x, xp = jnp.array([0.3, 0.7]), np.linspace(0, 1, 6)
    fit = jax.jit(lambda fp: splines.interp1d(x, xp, fp, "cubic2"))
    exported = jax.export.export(fit, platforms=("cuda",))(jnp.ones((6, 10_000)))
    assert exported.platforms == ("cuda",)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16], ids=lambda d: d.__name__)
def test_gpu_kernel_closed_forms_solve_half_precision_in_float32(dtype):
    """n ≤ 2 are closed forms: computed in float32 and rounded once, as longer systems."""
    lower, diag, upper, rhs = ([[-0.711]], [[3.375, 2.797]], [[-0.338]], [[-0.262, 2.172]])
    half = [jnp.asarray(a, dtype) for a in (lower, diag, upper, rhs)]
    in_float32 = splines_cusparse_gtsv(*(a.astype(jnp.float32) for a in half)).astype(dtype)
    np.testing.assert_array_equal(splines_cusparse_gtsv(*half), in_float32)


def test_gpu_kernel_of_an_empty_batch_calls_no_cusparse():
    """cuSPARSE rejects a batch of zero systems: the empty solution needs no call."""
    empty = [jnp.zeros((0, 4)), jnp.ones((0, 5)), jnp.zeros((0, 4)), jnp.ones((0, 5))]
    text = lowered_text(splines_cusparse_gtsv, *empty, platform="cuda")
    assert not custom_calls(text)
    assert splines_cusparse_gtsv(*empty).shape == (0, 5)


def _fixed_system(shape, dtype, scale=1.0):
    """A fixed, diagonally dominant system (seeded by n), scaled by ``scale``."""
    batch, n = shape[:-1], shape[-1]
    rng = np.random.default_rng(n)
    lower, upper = (rng.uniform(-1, 1, batch + (n - 1,)) for _ in range(2))
    diag = 2.5 + rng.uniform(0, 1, shape)
    rhs = rng.normal(size=shape)
    return tuple(jnp.asarray(scale * a, dtype) for a in (lower, diag, upper, rhs))


@pytest.fixture
def gpu_kernels_on_cpu(monkeypatch):
    """Run the public API eagerly with the kernels that the CUDA lowering uses."""
    monkeypatch.setitem(PLATFORM_KERNELS, "cpu", gpu_kernels(interpret=True))
    with jax.disable_jit():
        yield


@pytest.mark.parametrize(
    "dtype, scale",
    [(np.float32, 1e20), (np.float32, 1e-20), (np.float64, 1e160), (np.float64, 1e-160)],
)
def test_gpu_kernel_two_by_two_is_scale_free(dtype, scale):
    """x does not change when A and rhs are scaled together; det = d0·d1 − u·l does (²)."""
    system = _fixed_system((1, 2), dtype, scale)
    expected = np.asarray(splines_thomas_scan(*system))
    assert np.all(np.isfinite(expected))  # the scan kernels are fine at this scale
    got = np.asarray(splines_cusparse_gtsv(*system))
    np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12)


F32_SPLINES = {
    # 4 knots, not-a-knot at both ends: the reduced system is 2×2 (`_slopes`).
    "not-a-knot, 4 knots": (np.array([0.0, 1.0, 2.5, 4.0]), np.array([0.0, 1.0, -1.0, 0.5]), {}),
    # Periodic with 2 distinct knots: a cyclic 2×2 system.
    "periodic, 3 knots": (np.array([0.0, 1.0, 2.5]), np.array([0.0, 1.0, 0.0]),
                          {"bc_type": "periodic"}),
}  # fmt: skip


@pytest.mark.parametrize("case, scale", [
    ("not-a-knot, 4 knots", 1.0), ("not-a-knot, 4 knots", 1e20), ("not-a-knot, 4 knots", 1e-20),
    ("periodic, 3 knots", 1e20),
], ids=str)  # fmt: skip
def test_spline_fit_with_the_gpu_kernels_is_scale_free(case, scale, gpu_kernels_on_cpu):
    """README: knot spans from 1e-30 to 1e30 in float32 keep their accuracy, on CUDA too."""
    knots, values, kwargs = F32_SPLINES[case]
    xp, fp = (knots * scale).astype(np.float32), values.astype(np.float32)
    x = (np.array([0.5, 2.0]) * scale).astype(np.float32)
    got = np.asarray(splines.interp1d(x, xp, fp, "cubic2", **kwargs))
    # The same fit at scale 1 (same kernels): the answer is scale-invariant.
    unit = np.asarray(splines.interp1d(x / np.float32(scale), knots.astype(np.float32), fp, "cubic2",
                                       **kwargs))  # fmt: skip
    assert np.all(np.isfinite(unit))
    np.testing.assert_allclose(got, unit, rtol=0, atol=1e-5)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16], ids=lambda d: d.__name__)
def test_gpu_kernel_solves_half_precision(dtype):
    """Half precision solves in float32 (LAPACK underneath takes no float16/bfloat16)."""
    system = _fixed_system((3, 5), dtype)
    expected = np.asarray(splines_thomas_scan(*system), np.float32)
    got = np.asarray(splines_cusparse_gtsv(*system), np.float32)
    np.testing.assert_allclose(got, expected, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("dtype", [jnp.float16, jnp.bfloat16], ids=lambda d: d.__name__)
def test_cuda_solve_hands_cusparse_no_half_precision(dtype):
    """jaxlib's gtsv2 handler takes F32/F64/C64/C128 only: a half-precision solve hands
    it float32."""
    n = 5
    args = (jnp.ones(n - 1, dtype), 4 * jnp.ones(n, dtype), jnp.ones(n - 1, dtype),
            jnp.arange(n).astype(dtype))  # fmt: skip
    solve = lambda *a: splines.tridiagonal_solve(*a, pivoting=False)  # noqa: E731
    assert np.all(np.isfinite(np.asarray(solve(*args), np.float32)))  # fine on CPU
    text = lowered_text(solve, *args, platform="cuda")
    calls = [line for line in text.splitlines() if f"custom_call @{CUSPARSE}" in line]
    operand_types = [re.search(r"\}\s*:\s*\((.*)\)\s*->", line).group(1) for line in calls]
    assert not [t for t in operand_types if re.search(r"xb?f16>", t)], operand_types


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_gpu_kernel_odd_shapes_match_the_scan(dtype):
    """Empty batches, empty systems, n = 1 and 2: every shape in one compiled program
    per dtype (they differ in shape only); a failure names its shape."""
    shapes = [(0, 2), (3, 0, 4), (1,), (2,), (7, 3)]
    systems = []
    for shape in shapes:
        system = _fixed_system(shape, np.float64)
        if np.issubdtype(dtype, np.complexfloating):
            system = system[:3] + (system[3] * (1 + 0.5j),)
        systems.append(tuple(jnp.asarray(a, dtype) for a in system))
    solved = jax.jit(lambda systems: [(splines_cusparse_gtsv(*s), splines_gtsv_scan(*s))
                                      for s in systems])(systems)  # fmt: skip
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for shape, (got, scan) in zip(shapes, solved):
        got = np.asarray(got)
        assert got.shape == shape and got.dtype == dtype, (shape, got.shape, got.dtype)
        np.testing.assert_allclose(got, np.asarray(scan), rtol=tol, atol=tol,
                                   err_msg=f"shape {shape}")  # fmt: skip


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
    lapack = np.asarray(lapack_solve(*(np.asarray(a) for a in system)))
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


@pytest.mark.parametrize("shape", [(0, 5), (3, 0, 4)], ids=str)
@pytest.mark.parametrize("kernel", ["thomas", "gtsv"])
def test_pallas_kernel_returns_an_empty_batch(kernel, shape):
    pallas, scan = PALLAS[kernel]
    system = _fixed_system(shape, np.float32)
    assert scan(*system).shape == shape  # the scan kernels return an empty result
    got = pallas(*system, interpret=True)
    assert got.shape == shape


INTEGER_CASES = [("thomas", 7, np.float64), ("gtsv", 3, np.float32), ("gtsv", 7, np.float64)]


def test_pallas_kernel_equals_its_scan_on_integer_systems():
    """Small integer entries: many exact zeros, pivot ties and singular systems.

    129 systems span two blocks of 128 lanes.  The NaN pattern and the values
    must equal the scan kernel's (the same recurrences in the same order).  The
    cases (kernel, n, dtype) run in one compiled program; a failure names its case.
    """
    systems = []
    for _kernel, n, dtype in INTEGER_CASES:
        rng = np.random.default_rng(n)
        b = 129
        system = tuple(jnp.asarray(rng.integers(-2, 3, (b, m)), dtype)
                       for m in (n - 1, n, n - 1))  # fmt: skip
        systems.append(system + (jnp.asarray(rng.integers(-3, 4, (b, n)), dtype),))
    kernels = [PALLAS[kernel] for kernel, _, _ in INTEGER_CASES]

    @jax.jit
    def solve(systems):
        return [(pallas(*s, interpret=True), scan(*s))
                for (pallas, scan), s in zip(kernels, systems)]  # fmt: skip

    with np.errstate(all="ignore"):
        solved = [tuple(map(np.asarray, pair)) for pair in solve(systems)]
    for (kernel, n, dtype), (got, expected) in zip(INTEGER_CASES, solved):
        what = f"{kernel}, n = {n}, {np.dtype(dtype).name}"
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=what)
        both = np.isfinite(got) & np.isfinite(expected)
        np.testing.assert_allclose(got[both], expected[both], rtol=4 * np.finfo(dtype).eps,
                                   atol=0, err_msg=what)  # fmt: skip
        np.testing.assert_array_equal(got[~both & ~np.isnan(got)],
                                      expected[~both & ~np.isnan(got)], err_msg=what)  # fmt: skip


SINGULAR = {
    "zero row": ([[0.0, 0.0]], [[1.0, 0.0, 1.0]], [[0.0, 0.0]], [[1.0, 2.0, 3.0]]),
    "rank one 2x2, consistent": ([[1.0]], [[1.0, 1.0]], [[1.0]], [[1.0, 1.0]]),
    "rank two 3x3": ([[1.0, 1.0]], [[1.0, 2.0, 1.0]], [[1.0, 1.0]], [[1.0, 2.0, 1.0]]),
    "all zero": ([[0.0, 0.0]], [[0.0, 0.0, 0.0]], [[0.0, 0.0]], [[0.0, 0.0, 0.0]]),
    "n = 1, zero": (np.zeros((1, 0)), [[0.0]], np.zeros((1, 0)), [[1.0]]),
}


def test_singular_systems_are_never_plausible_numbers():
    """Every GPU-path kernel: a singular matrix gives inf/NaN somewhere, never all finite.
    Every case and kernel in one compiled program; a failure names both."""
    kernels = {name: (lambda *a, k=k: k(*a, interpret=True))
               for name, (k, _) in PALLAS.items()}  # fmt: skip
    kernels["cusparse_gtsv"] = splines_cusparse_gtsv
    systems = {case: tuple(jnp.asarray(a, jnp.float32) for a in system)
               for case, system in SINGULAR.items()}  # fmt: skip
    solved = jax.jit(lambda systems: {case: {name: kernel(*system) for name, kernel in
                                             kernels.items()}
                                      for case, system in systems.items()})(systems)  # fmt: skip
    for case, by_kernel in solved.items():
        for name, x in by_kernel.items():
            with np.errstate(all="ignore"):
                assert not np.all(np.isfinite(np.asarray(x))), (case, name)


def test_pallas_lanes_are_independent_and_pivoting_solves_a_zero_diagonal():
    """A NaN system in one lane leaves its neighbours exact; gtsv pivots past diag[0] = 0."""
    pallas = PALLAS
    lower, diag, upper, rhs = map(np.asarray, _fixed_system((3, 5), np.float64))
    diag = diag.copy()
    diag[1, 2] = np.nan
    diag[2, 0] = 0.0  # Thomas breaks down here; partial pivoting does not
    system = tuple(map(jnp.asarray, (lower, diag, upper, rhs)))
    solution = np.linalg.solve(dense(lower[[0, 2]], diag[[0, 2]], upper[[0, 2]]),
                               rhs[[0, 2], :, None])[..., 0]  # fmt: skip
    x = np.asarray(pallas["gtsv"][0](*system, interpret=True))
    np.testing.assert_allclose(x[[0, 2]], solution, rtol=1e-12, atol=1e-12)
    assert np.all(np.isnan(x[1]))
    x = np.asarray(pallas["thomas"][0](*system, interpret=True))
    np.testing.assert_allclose(x[0], solution[0], rtol=1e-12)
    assert not np.any(np.isfinite(x[1])) and not np.all(np.isfinite(x[2]))


@pytest.mark.parametrize("shape, dtype", [((1,), "float32"), ((5, 3), "float64"),
                                          ((2, 3, 3), "float32"), ((129, 4), "float32")],
                         ids=str)  # fmt: skip
@pytest.mark.parametrize("kernel", ["thomas", "gtsv"])
def test_pallas_kernel_cuda_program_is_one_triton_call_for_odd_shapes(kernel, shape, dtype):
    pallas, _ = PALLAS[kernel]
    band = jax.ShapeDtypeStruct(shape[:-1] + (shape[-1] - 1,), dtype)
    full = jax.ShapeDtypeStruct(shape, dtype)
    text = lowered_text(pallas, band, full, band, full, platform="cuda")
    assert custom_calls(text) == [TRITON]
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text


# --- CUDA programs of the public API on short grids ---------------------------------


def _solves(jaxpr):
    count = 0
    for eqn in jaxpr.eqns:
        count += eqn.primitive.name == "splines_tridiagonal_solve"
        count += sum(_solves(sub) for sub in jax.extend.core.jaxprs_in_params(eqn.params))
    return count


def _short_grid_programs():
    x = jnp.asarray([-0.3, 0.2, 1.1, 2.9])
    programs = {}
    for n in (2, 3, 4):
        xp = jnp.linspace(0.0, 2.0, n) ** 1.2
        fp = jnp.cos(xp)
        closed = fp.at[-1].set(fp[0])
        period = jnp.asarray(3.0)
        bc = jnp.asarray([0.4, -0.3])
        programs |= {
            f"n={n} not-a-knot, grad xp": (jax.grad(
                lambda xp, fp: splines.interp1d(x, xp, fp, "cubic2", extrap=True).sum()), (xp, fp)),
            f"n={n} (1, v)/(2, w), hessian bc": (jax.hessian(lambda b, xp=xp, fp=fp: (
                splines.interp1d(x, xp, fp, "cubic2", bc_type=((1, b[0]), (2, b[1])), extrap=True) ** 2
            ).sum()), (bc,)),
            f"n={n} periodic, jacrev fp": (jax.jacrev(
                lambda fp, xp=xp: splines.interp1d(x, xp, fp, "cubic2", bc_type="periodic"), argnums=0),
                (closed,)),
            f"n={n} traced period, grad period": (jax.grad(
                lambda p, xp=xp, fp=fp: splines.interp1d(x, xp, fp, "cubic2", period=p).sum()), (period,)),
        }  # fmt: skip
        if n == 4:
            programs[f"n={n} vmap Interpolator1D, derivative 3"] = (jax.vmap(
                lambda xp, fp: splines.Interpolator1D(xp, fp, "cubic2", extrap=True)(x, 3)),
                (jnp.stack([xp, 2 * xp]), jnp.stack([fp, -fp])))  # fmt: skip
    return programs


SHORT_GRIDS = _short_grid_programs()


@pytest.mark.parametrize("name", list(SHORT_GRIDS))
def test_cuda_program_of_a_short_grid_has_no_loop_and_one_call_per_solve(name):
    fun, args = SHORT_GRIDS[name]
    text = lowered_text(fun, *args, platform="cuda")
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text
    assert set(custom_calls(text)) <= {CUSPARSE}
    for function, body in functions(text).items():
        calls = body.count(f"custom_call @{CUSPARSE}")
        assert calls <= 1 and (not calls or function.startswith("splines_cusparse_gtsv"))
    assert len(custom_calls(text)) <= _solves(jax.make_jaxpr(fun)(*args).jaxpr)


# --- huge but well-conditioned systems ------------------------------------------------


# A reciprocal 1/w of an entry above 1/FLT_MIN is subnormal and flushed to 0, which
# would solve a well-conditioned system as x = 0: float32 kernels divide instead
# (`thomas_scan.divider`).  float64 keeps the reciprocal (a division there makes the
# loop ~20x slower), so entries above 4.5e307 still flush: a documented limit, pinned
# as a strict xfail.
F64_FLUSH = pytest.mark.xfail(jax.default_backend() == "cpu", strict=True,
                              reason="XLA:CPU's float64 kernels multiply by 1/w (speed): "
                              "|w| > 4.5e307 flushes it to 0")  # fmt: skip


@pytest.mark.parametrize(
    "dtype, big", [(np.float32, 2e38), pytest.param(np.float64, 1e308, marks=F64_FLUSH)]
)
@pytest.mark.parametrize("pivoting", [False, True])
def test_huge_but_well_conditioned_system_is_not_solved_as_zero(dtype, big, pivoting):
    n = 3
    lower = upper = np.full(n - 1, big / 4, dtype)
    diag, rhs = np.full(n, big, dtype), np.full(n, big, dtype)
    x = splines.tridiagonal_solve(lower, diag, upper, rhs, pivoting=pivoting)
    np.testing.assert_allclose(np.asarray(x, np.float64), [6 / 7, 4 / 7, 6 / 7], rtol=1e-5)
