"""Transform safety: no host callbacks, no conditionals, loops only in the solve kernel.

Programs are lowered for CPU and — without a GPU, which a CPU-only jaxlib can
do — for CUDA (docs/architecture.md §6), and their StableHLO text is inspected.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _lowered import (
    KERNEL_PREFIXES,
    custom_calls,
    functions,
    kernel_functions,
    loops_outside_kernels,
    lowered_text,
)

import splines

N, M = 64, 32  # enough knots that the solve's scan stays a loop after unrolling
XP = jnp.linspace(0.0, 2.0, N) ** 1.5
FP = jnp.sin(3 * XP)
X = jnp.linspace(0.1, 2.5, M)
BC = jnp.array([0.5, -1.0])
GRID_3D = tuple(jnp.linspace(0.0, 1.0, n) ** 1.3 for n in (9, 7, 6))
VALUES_3D = jnp.cos(sum(jnp.meshgrid(*GRID_3D, indexing="ij")))
XI_3D = jnp.linspace(0.05, 0.95, 3 * M).reshape(M, 3)
GRID_5D = tuple(jnp.linspace(0.0, 1.0, n) for n in (3, 4, 3, 2, 3))
VALUES_5D = jnp.sin(sum(jnp.meshgrid(*GRID_5D, indexing="ij")))
XI_5D = jnp.linspace(0.05, 0.95, 5 * M).reshape(M, 5)


def cubic(x, xp, fp, bc=BC):
    return splines.interp1d(
        x, xp, fp, "cubic2", bc_type=((1, bc[0]), (2, bc[1])), extrap=(0.0, 1.0)
    )


def loss(x, xp, fp, bc=BC):
    return jnp.sum(cubic(x, xp, fp, bc) ** 2)


PROGRAMS = {
    "forward": (cubic, (X, XP, FP)),
    "not-a-knot": (lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2", extrap=True), (X, XP, FP)),
    "periodic": (lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2", period=5.0), (X, XP, FP)),
    "linear": (lambda x, xp, fp: splines.interp1d(x, xp, fp, "linear"), (X, XP, FP)),
    "nearest": (lambda x, xp, fp: splines.interp1d(x, xp, fp, "nearest"), (X, XP, FP)),
    "grad fp": (jax.grad(loss, argnums=2), (X, XP, FP)),
    "grad xp": (jax.grad(loss, argnums=1), (X, XP, FP)),
    "grad x": (jax.grad(loss, argnums=0), (X, XP, FP)),
    "grad bc": (jax.grad(loss, argnums=3), (X, XP, FP, BC)),
    "grad period": (
        jax.grad(lambda p: jnp.sum(splines.interp1d(X, XP, FP, "cubic2", period=p))),
        (jnp.asarray(5.0),),
    ),
    "jvp": (lambda fp, t: jax.jvp(lambda f: cubic(X, XP, f), (fp,), (t,)), (FP, FP)),
    "vmap grids": (
        jax.vmap(cubic, in_axes=(None, 0, 0)),
        (X, jnp.stack([XP, 2 * XP]), jnp.stack([FP, -FP])),
    ),
    "hessian bc": (jax.hessian(loss, argnums=3), (X, XP, FP, BC)),
    "hessian fp": (jax.hessian(loss, argnums=2), (X, XP, FP)),
    "interpolator": (lambda x, xp, fp: splines.Interpolator1D(xp, fp, "cubic2")(x, 1), (X, XP, FP)),
    "interpn cubic 3-D": (
        lambda xi, v: splines.interpn(GRID_3D, v, xi, method="cubic", bounds_error=False),
        (XI_3D, VALUES_3D)),
    "interpn linear 5-D": (
        lambda xi, v: splines.interpn(GRID_5D, v, xi, bounds_error=False), (XI_5D, VALUES_5D)),
    "grad interpn values": (
        jax.grad(lambda v: jnp.sum(splines.interpn(GRID_3D, v, XI_3D, method="akima",
                                                   bounds_error=False) ** 2)), (VALUES_3D,)),
    "RegularGridInterpolator": (
        lambda xi, v: splines.RegularGridInterpolator(GRID_3D, v, "cubic2", fill_value=None)(
            xi, nu=(1, 0, 2)), (XI_3D, VALUES_3D)),
    "solve": (splines.tridiagonal_solve, (XP[1:], 4 + FP, XP[1:], FP)),
    "solve, no pivoting": (
        lambda *a: splines.tridiagonal_solve(*a, pivoting=False), (XP[1:], 4 + FP, XP[1:], FP)),
    "solve, no pivoting, two systems": (
        lambda *a: splines.tridiagonal_solve(*a, pivoting=False),
        tuple(jnp.stack([v, 2 * v]) for v in (XP[1:], 4 + FP, XP[1:], FP))),
    "solve, no pivoting, bands shared by 8 right-hand sides": (
        lambda *a: splines.tridiagonal_solve(*a, pivoting=False),
        (XP[1:], 4 + FP, XP[1:], jnp.stack([FP * k for k in range(8)]))),
    "cyclic solve": (splines.cyclic_tridiagonal_solve, (XP, 4 + FP, XP, FP)),
    "cyclic solve, no pivoting": (
        lambda *a: splines.cyclic_tridiagonal_solve(*a, pivoting=False), (XP, 4 + FP, XP, FP)),
    "grad solve": (
        jax.grad(lambda *a: jnp.sum(splines.tridiagonal_solve(*a) ** 2), argnums=(0, 1, 2, 3)),
        (XP[1:], 4 + FP, XP[1:], FP)),
}  # fmt: skip


PIVOTED = {"solve", "cyclic solve", "grad solve"}  # the public default: pivoting=True
CUSPARSE = "cusparse_gtsv2_ffi"  # cuSPARSE gtsv2StridedBatch (`_kernels/cusparse_gtsv.py`)
TRITON = "__gpu$xla.gpu.triton"  # a Pallas kernel (`kernels/pallas_gtsv.py`: pivoting on GPUs)


@pytest.mark.parametrize("platform", ["cpu", "cuda"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_no_host_callbacks_and_no_custom_calls_but_the_gpu_solves(name, platform):
    fun, args = PROGRAMS[name]
    text = lowered_text(fun, *args, platform=platform)
    assert "callback" not in text
    allowed = {"cpu": set(), "cuda": {TRITON} if name in PIVOTED else {CUSPARSE}}[platform]
    assert set(custom_calls(text)) <= allowed


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - PIVOTED))
def test_cuda_program_without_pivoting_has_no_loop_and_one_call_per_solve(name):
    """No host-driven `while` at all: every non-pivoting solve is one cuSPARSE call."""
    fun, args = PROGRAMS[name]
    text = lowered_text(fun, *args, platform="cuda")
    assert "stablehlo.while" not in text
    solves = sum(f.startswith("splines_cusparse_gtsv") for f in functions(text))
    assert custom_calls(text) == [CUSPARSE] * solves or (solves == 0 and not custom_calls(text))


def test_cuda_program_of_a_long_system_is_one_call():
    """n = 200 000 knots: still no loop (cuSPARSE, not jax's scan fallback)."""
    xp = jnp.linspace(0.0, 1.0, 200_000)
    text = lowered_text(lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2"), X, xp, jnp.sin(xp),
                        platform="cuda")  # fmt: skip
    assert "stablehlo.while" not in text
    assert custom_calls(text) == [CUSPARSE]


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_cuda_program_has_no_conditionals_and_loops_only_in_the_solve(name):
    fun, args = PROGRAMS[name]
    text = lowered_text(fun, *args, platform="cuda")
    assert "stablehlo.case" not in text
    assert "stablehlo.if" not in text
    assert loops_outside_kernels(text) == []


@pytest.mark.parametrize(
    "name, platform, kernel",
    [
        ("solve", "cpu", "splines_gtsv_scan"),  # pivoting by default
        ("solve", "cuda", "splines_pallas_gtsv"),  # one Triton kernel
        # XLA:CPU: one small system in place, several (or long ones) in lanes of a scan.
        ("solve, no pivoting", "cpu", "splines_thomas_inplace"),
        ("solve, no pivoting", "cuda", "splines_cusparse_gtsv"),
        ("solve, no pivoting, two systems", "cpu", "splines_thomas_scan"),
        ("cyclic solve", "cpu", "splines_gtsv_scan"),
        ("cyclic solve", "cuda", "splines_pallas_gtsv"),
        ("solve, no pivoting, bands shared by 8 right-hand sides", "cpu", "splines_thomas_scan"),
        ("solve, no pivoting, bands shared by 8 right-hand sides", "cuda", "splines_cusparse_gtsv"),
        # Two float64 right-hand sides: one native loop of the scan (in place, float32 only).
        ("cyclic solve, no pivoting", "cpu", "splines_thomas_scan"),
        ("cyclic solve, no pivoting", "cuda", "splines_cusparse_gtsv"),
        ("forward", "cpu", "splines_thomas_inplace"),  # a spline fit never pivots
        ("forward", "cuda", "splines_cusparse_gtsv"),
    ],
)
def test_the_solve_kernel_is_one_named_function(name, platform, kernel):
    fun, args = PROGRAMS[name]
    text = lowered_text(fun, *args, platform=platform)
    funcs = functions(text)
    kernels = kernel_functions(funcs)
    names = {prefix for prefix in KERNEL_PREFIXES for f in kernels if f.startswith(prefix)}
    assert names == {kernel}
    loops = sum(funcs[f].count("stablehlo.while") for f in kernels)
    # XLA:CPU's loops: forward elimination and back substitution, with the shared bands'
    # own sweep before them for many right-hand sides; a GPU's kernel is one device call
    # (cuSPARSE, Triton), with none.
    assert loops == (0 if platform == "cuda" else 3 if "shared by 8" in name else 2)
    assert loops_outside_kernels(text) == []
    # Branch-free on both platforms (the pivot choice is a select).
    for forbidden in ("callback", "stablehlo.case", "stablehlo.if"):
        assert forbidden not in text


def test_jaxpr_has_no_control_flow_outside_the_primitive():
    """Around the opaque solve primitive: no cond/while, and scans only fully unrolled.

    (`searchsorted(method="scan_unrolled")` is a scan with ``unroll=length``.)
    """
    jaxpr = jax.make_jaxpr(jax.grad(loss, argnums=(0, 1, 2, 3)))(X, XP, FP, BC)
    eqns = list(_equations(jaxpr.jaxpr))
    names = {eqn.primitive.name for eqn in eqns}
    assert "splines_tridiagonal_solve" in names
    assert not names & {"cond", "while", "pure_callback", "io_callback"}
    scans = [eqn.params for eqn in eqns if eqn.primitive.name == "scan"]
    assert all(p["unroll"] >= p["length"] for p in scans)


def _equations(jaxpr):
    for eqn in jaxpr.eqns:
        yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _equations(sub)


def test_lowering_helper_finds_loops_outside_kernels():
    """Guard the guard: a scan in user code is reported."""

    def with_loop(x):
        return jax.lax.scan(lambda c, v: (c + v, c), 0.0, x)[1]

    assert loops_outside_kernels(lowered_text(with_loop, np.ones(100), platform="cuda"))


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.float64])
@pytest.mark.parametrize("shape", [(300, 256), (200_000,)], ids=str)
@pytest.mark.parametrize("kernel", ["splines_pallas_thomas", "splines_pallas_gtsv"])
def test_pallas_candidates_lower_for_cuda_to_one_triton_call(kernel, shape, dtype):
    """The loop over n is inside the kernel: no `while` in the program, one Triton call."""
    from splines._linalg.kernels import pallas_gtsv, pallas_thomas

    fun = getattr({"splines_pallas_thomas": pallas_thomas,
                   "splines_pallas_gtsv": pallas_gtsv}[kernel], kernel)  # fmt: skip
    band = jax.ShapeDtypeStruct(shape[:-1] + (shape[-1] - 1,), dtype)
    full = jax.ShapeDtypeStruct(shape, dtype)
    text = lowered_text(fun, band, full, band, full, platform="cuda")
    assert custom_calls(text) == ["__gpu$xla.gpu.triton"]
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text


TINY_ENTRY_POINTS = {
    "interp1d": lambda x, xp, fp, method: splines.interp1d(x, xp, fp, method=method),
    "interpn": lambda x, xp, fp, method: splines.interpn(
        (xp,), fp, x[:, None], "cubic2" if method == "cubic2" else method, bounds_error=False
    ),
    "Interpolator1D": lambda x, xp, fp, method: splines.Interpolator1D(xp, fp, method)(x),
}


@pytest.mark.parametrize("entry", list(TINY_ENTRY_POINTS))
@pytest.mark.parametrize("method", ["cubic2", "linear", "akima", "monotonic"])
def test_a_tiny_program_runs_on_the_calling_thread(method, entry):
    """XLA:CPU's client runs an executable inline only below 1000 flops of
    HloCostAnalysis (`cheap_computation_`); above, every call hops to a worker
    thread and back (~50–100 µs blocked on 2 cores, docs/architecture.md §6).  A tiny
    interpolation (8 knots, 8 queries, f32) must stay below: jnp's bounds
    handling in one gather once took cubic2 from 996 to 1370 flops."""
    xp = jnp.linspace(0.0, 1.0, 8, dtype=jnp.float32)
    x = jnp.linspace(0.05, 0.95, 8, dtype=jnp.float32)
    if jax.default_backend() != "cpu":
        pytest.skip("the 1000-flop line is XLA:CPU's")
    program = jax.jit(lambda x, xp, fp: TINY_ENTRY_POINTS[entry](x, xp, fp, method))
    cost = program.lower(x, xp, jnp.sin(xp)).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost  # a list in older jax
    assert 0 < cost["flops"] < 1000
