"""Adversarial checks of two changes: the in-place CPU Thomas kernel and grid node data.

1. `thomas_inplace` (one system of <= 1024 rows on CPU) against `thomas_scan`, bit for
   bit, through the public `tridiagonal_solve`, `cyclic_tridiagonal_solve` and 1-D fits,
   across the 1024-row boundary, under jit / vmap / grad.
2. `interp2d` / `interp3d` / `Interpolator2D` / `Interpolator3D` (node data per knot, each
   cell built from its 2^d corners) against scipy and an independent numpy reference:
   scipy's 1-D slopes per axis, then the tensor cubic Hermite form (CubicHermiteSpline
   along each axis in turn).

Cases that found a defect are `xfail(strict=True)`; the reason names the cause.
Programs are grouped so that one compilation serves many cases.
"""

import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from scipy.interpolate import (
    Akima1DInterpolator,
    CubicHermiteSpline,
    CubicSpline,
    PchipInterpolator,
    RectBivariateSpline,
    RegularGridInterpolator,
)
from scipy.linalg import solve_banded

import splines
from splines._interpolate import evaluate as _evaluate_module
from splines._interpolate import functions as _functions
from splines._linalg.kernels import splines_thomas_inplace, splines_thomas_scan, thomas_inplace

sys.path.insert(0, str(Path(__file__).parent))
from _compiles import compiles  # noqa: E402

F32 = np.float32


# --------------------------------------------------------------------------------------
# Part 1: the in-place Thomas kernel
# --------------------------------------------------------------------------------------


def _system(n, dtype, seed, scale=1.0):
    """A diagonally dominant system (real bands; a complex dtype gets a complex rhs)."""
    rng = np.random.default_rng(seed)
    lower, upper = rng.uniform(-1, 1, (2, n - 1))
    diag, rhs = 2.5 + rng.uniform(0, 1, n), rng.normal(size=n)
    if np.issubdtype(np.dtype(dtype), np.complexfloating):
        rhs = rhs + 1j * rng.normal(size=n)
    return [jnp.asarray(v * s, dtype) for v, s in
            ((lower, scale), (diag, scale), (upper, scale), (rhs, scale))]  # fmt: skip


def _public(*s):
    return splines.tridiagonal_solve(*s, pivoting=False)


def _kernel_cases():
    cases = []
    for dtype in (np.float32, np.float64, np.complex64, np.complex128, jnp.bfloat16,
                  np.float16):  # fmt: skip
        for n in (1, 2, 3, 5, 1024) + ((1023,) if dtype is np.float64 else ()):
            cases.append((f"{jnp.dtype(dtype).name} n={n}", _system(n, dtype, n)))
    # Huge but finite f32 magnitudes (each row's scale ~1e37: no reciprocal below FLT_MIN).
    cases.append(("f32 1e37", _system(7, np.float32, 1, scale=1e37)))
    # Denormals: XLA:CPU flushes them; both kernels must flush alike.
    den = _system(6, np.float32, 2)
    den[3] = den[3].at[2].set(F32(1e-40))
    den[0] = den[0].at[1].set(F32(3e-41))
    cases.append(("f32 denormals", den))
    # Zero pivot decoupled by upper[2] = 0 (rows <= 2 finite), NaN below; n % 4 == 0.
    broken = _system(8, np.float64, 9)
    broken[1] = broken[1].at[3].set(0.0)
    broken[2] = broken[2].at[2].set(0.0)
    broken[0] = broken[0].at[6].set(np.nan)
    cases.append(("f64 zero pivot / NaN", broken))
    return cases


KERNEL_CASES = _kernel_cases()


def test_inplace_equals_scan_and_public_solve_bit_for_bit():
    """One jit over every case: in-place kernel == scan kernel == public solve (constants)."""
    systems = [s for _, s in KERNEL_CASES]

    @jax.jit
    def run(systems):
        out = []
        for s in systems:
            out.append((splines_thomas_inplace(*s), splines_thomas_scan(*s), _public(*s)))
        return out

    # The public solve again with the data closed over (constants inside jit).
    closed = jax.jit(lambda: [_public(*s) for s in systems])()
    for (name, _), (ip, sc, pub), const in zip(KERNEL_CASES, run(systems), closed):
        for other in (sc, pub, const):
            np.testing.assert_array_equal(np.asarray(ip, np.complex128),
                                          np.asarray(other, np.complex128), err_msg=name)


def test_solution_is_right_for_f32_1e37_and_python_lists():
    s = _system(7, np.float32, 1, scale=1e37)
    x = np.asarray(_public(*s), np.float64)
    bands = np.stack([np.r_[0, s[2]], s[1], np.r_[s[0], 0]]).astype(np.float64)
    ref = solve_banded((1, 1), bands, np.asarray(s[3], np.float64))
    np.testing.assert_allclose(x, ref, rtol=2e-6)
    # Python lists and ints, n = 2: [[4, 1], [1, 4]] x = [1, 2].
    np.testing.assert_allclose(_public([1], [4, 4], [1], [1, 2]), [2 / 15, 7 / 15], rtol=1e-15)


def _lowered(f, *args):
    return jax.jit(f).lower(*args).as_text()


@pytest.mark.parametrize("shape, kernel", [
    ((1024,), "splines_thomas_inplace"), ((1025,), "splines_thomas_scan"),
    ((1, 1, 1024), "splines_thomas_inplace"), ((2, 1024), "splines_thomas_scan"),
    ((0, 5), "splines_thomas_scan"),
])  # fmt: skip
def test_kernel_is_chosen_by_static_shape(shape, kernel):
    n = shape[-1]
    args = [jnp.ones(shape[:-1] + (n - 1,)), 4 * jnp.ones(shape), jnp.ones(shape[:-1] + (n - 1,)),
            jnp.ones(shape)]  # fmt: skip
    text = _lowered(_public, *args)
    other = ({"splines_thomas_inplace", "splines_thomas_scan"} - {kernel}).pop()
    assert kernel in text and other not in text


def test_vmap_turns_one_system_into_a_batch():
    """vmap of size 1 keeps the in-place kernel, size 2 takes the scan: same numbers."""
    s = _system(1024, np.float64, 3)
    one = jax.vmap(_public)(*(v[None] for v in s))
    assert "splines_thomas_inplace" in _lowered(jax.vmap(_public), *(v[None] for v in s))
    two = jax.vmap(_public)(*(jnp.stack([v, v]) for v in s))
    np.testing.assert_array_equal(one[0], _public(*s))
    np.testing.assert_array_equal(two[1], _public(*s))
    assert _public(jnp.zeros((0, 4)), jnp.ones((0, 5)), jnp.zeros((0, 4)),
                   jnp.ones((0, 5))).shape == (0, 5)  # fmt: skip


def test_grads_order_2_across_the_1024_boundary():
    systems = tuple(tuple(_system(n, np.float64, n)) for n in (1, 2, 1024, 1025))
    f = jax.jit(lambda ss: jnp.concatenate([_public(*s) for s in ss]))
    check_grads(f, (systems,), order=2, modes=("rev",))  # fwd-over-rev: test_tridiagonal


def test_cyclic_solve_and_eager_path_do_not_recompile():
    with compiles(splines_thomas_inplace) as counter:
        for k in range(3):
            _public(np.ones(4), 4 * np.ones(5) + k, np.ones(4), np.arange(5.0))
    assert counter.count <= 1
    x = splines.cyclic_tridiagonal_solve([1.0, 1.0, 1.0], [4.0, 4.0, 4.0], [1.0, 1.0, 1.0],
                                         [6.0, 6.0, 6.0], pivoting=False)  # fmt: skip
    np.testing.assert_allclose(x, [1.0, 1.0, 1.0], rtol=1e-15)


def _fit_1d(n, dtype, bc):
    rng = np.random.default_rng(n)
    xp = np.cumsum(rng.uniform(0.5, 1.5, n)).astype(dtype)
    fp = (1e3 * np.sin(xp)).astype(dtype)
    x = np.linspace(xp[0], xp[-1], 301).astype(dtype)
    return xp, fp, x


def test_1d_cubic2_across_the_boundary_matches_scipy_and_forced_scan():
    """Not-a-knot on 1026 knots solves 1024 rows (in place), 1027: 1025 (scan)."""
    cases = [(n, bc) for n in (2, 3, 4, 1025, 1026, 1027) for bc in ("not-a-knot", "natural")]
    data = [_fit_1d(n, np.float64, bc) for n, bc in cases]

    def run():
        f = jax.jit(lambda data: [splines.approx_df(xp, fp, "cubic2", bc_type=bc)
                                  for (xp, fp, _), (_, bc) in zip(data, cases)])  # fmt: skip
        return [np.asarray(v) for v in f(data)]

    ours = run()
    for (n, bc), (xp, fp, x), s in zip(cases, data, ours):
        ref = CubicSpline(xp, fp, bc_type=bc)(xp, 1)
        np.testing.assert_allclose(s, ref, rtol=0, atol=1e-12 * np.abs(ref).max(),
                                   err_msg=f"n={n} {bc}")  # fmt: skip
    saved = thomas_inplace._MAX_ROWS
    try:
        thomas_inplace._MAX_ROWS = 0  # every system through the scan
        jax.clear_caches()
        scan = run()
    finally:
        thomas_inplace._MAX_ROWS = saved
        jax.clear_caches()
    for (n, bc), a, b in zip(cases, ours, scan):
        np.testing.assert_array_equal(a, b, err_msg=f"n={n} {bc}")


# ---- defects -------------------------------------------------------------------------


# Found here as a defect (inf against NaN: the scan's identity pad rows, then after the
# system, gave 0 * inf = NaN and the backward sweep carried it into every row) and fixed
# at its cause: `_lanes.to_lanes` pads in front.  Kept as regression tests.
def test_inf_rhs_inplace_vs_scan_when_n_is_not_a_multiple_of_4():
    n = 5
    lower = upper = jnp.ones(n - 1)
    diag, rhs = 4 * jnp.ones(n), jnp.zeros(n).at[-1].set(jnp.inf)
    np.testing.assert_array_equal(splines_thomas_inplace(lower, diag, upper, rhs),
                                  splines_thomas_scan(lower, diag, upper, rhs))  # fmt: skip


def test_inf_rhs_single_vs_batched_beyond_1024():
    n = 1025
    lower = upper = jnp.ones(n - 1)
    diag, rhs = 4 * jnp.ones(n), jnp.zeros(n).at[-1].set(jnp.inf)
    one = _public(lower, diag, upper, rhs)
    two = jax.vmap(lambda r: _public(lower, diag, upper, r))(jnp.stack([rhs, rhs]))
    np.testing.assert_array_equal(one, two[0])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_bands_inplace_vs_scan(dtype):
    """Complex bands: the one-system scan (unroll 4) rounds its complex products
    differently from the in-place loop (and from the batched scan), so the two agree to
    an ulp of the solution's scale, not bit for bit (thomas_inplace's docstring)."""
    n, f = 8, jax.jit(lambda s: (splines_thomas_inplace(*s), splines_thomas_scan(*s)))
    for seed in range(10):  # 5-8 of these 10 differ in the last bit
        rng = np.random.default_rng(seed)
        lower = jnp.asarray(rng.uniform(-1, 1, n - 1) * (1 + 0.5j), dtype)
        upper = jnp.asarray(rng.uniform(-1, 1, n - 1), dtype)
        diag = jnp.asarray(2.5 + rng.uniform(0, 1, n), dtype)
        rhs = jnp.asarray(rng.normal(size=n) + 1j * rng.normal(size=n), dtype)
        inplace, scan = f((lower, diag, upper, rhs))
        ulp = np.finfo(dtype).eps * float(np.max(np.abs(scan)))
        np.testing.assert_allclose(inplace, scan, rtol=0, atol=2 * ulp, err_msg=f"seed {seed}")


# Found here as a defect (1/w flushed to 0: x = 0 for a well-conditioned system with
# entries > 1/FLT_MIN) and fixed for float32: the kernels divide (`thomas_scan.divider`).
# float64 keeps the reciprocal (a division there makes the loop ~20x slower), so entries
# above 4.5e307 still flush: a documented limit.
F64_FLUSH = pytest.mark.xfail(strict=True, reason="float64 kernels multiply by 1/w (speed): "
                              "|w| > 4.5e307 flushes it to 0")  # fmt: skip


@pytest.mark.parametrize("dtype, big", [(np.float32, 2e38),
                                        pytest.param(np.float64, 1e308, marks=F64_FLUSH)])
@pytest.mark.parametrize("pivoting", [False, True])
def test_huge_but_well_conditioned_system_is_not_solved_as_zero(dtype, big, pivoting):
    n = 3
    lower = upper = np.full(n - 1, big / 4, dtype)
    diag, rhs = np.full(n, big, dtype), np.full(n, big, dtype)
    x = splines.tridiagonal_solve(lower, diag, upper, rhs, pivoting=pivoting)
    np.testing.assert_allclose(np.asarray(x, np.float64), [6 / 7, 4 / 7, 6 / 7], rtol=1e-5)


# --------------------------------------------------------------------------------------
# Part 2: grids
# --------------------------------------------------------------------------------------


def _slopes(method, x, y, bc="not-a-knot", c=0.0):
    """The 1-D method's knot slopes along axis 0 of y (scipy where scipy has the method)."""
    if method == "cubic2":
        return CubicSpline(x, y, bc_type=bc, axis=0)(x, 1)
    if method == "monotonic":
        return PchipInterpolator(x, y, axis=0)(x, 1)
    if method in ("akima", "makima"):
        return Akima1DInterpolator(x, y, axis=0, method=method)(x, 1)
    shape = (-1,) + (1,) * (y.ndim - 1)
    m = np.diff(y, axis=0) / np.diff(x).reshape(shape)
    if method == "cubic":
        return np.concatenate([m[:1], (m[:-1] + m[1:]) / 2, m[-1:]])
    centred = (y[2:] - y[:-2]) / (x[2:] - x[:-2]).reshape(shape)
    return (1 - c) * np.concatenate([m[:1], centred, m[-1:]])  # cardinal / catmull-rom


def _nodes(method, knots, f, bc="not-a-knot", c=0.0):
    """Node data D_S: slopes along the last axis of S of D_{S without it}."""
    node = {0: f}
    for mask in range(1, 2 ** len(knots)):
        a = mask.bit_length() - 1
        src = np.moveaxis(node[mask ^ (1 << a)], a, 0)
        node[mask] = np.moveaxis(_slopes(method, knots[a], src, bc, c), 0, a)
    return node


def _hermite(knots, node, points, orders):
    """The tensor cubic Hermite interpolant of node data, point by point (extrapolating)."""
    out = []
    for p in zip(*points):
        cur = dict(node)
        for a in range(len(knots)):
            cur = {mask: CubicHermiteSpline(knots[a], cur[mask], cur[mask | 1 << a], axis=0)(
                p[a], orders[a]) for mask in cur if not mask & (1 << a)}  # fmt: skip
        out.append(cur[0])
    return np.array(out)


RNG = np.random.default_rng(20240601)
K2 = (np.cumsum(RNG.uniform(0.3, 1.5, 6)), np.cumsum(RNG.uniform(0.3, 1.5, 5)))
F2 = RNG.normal(size=(6, 5))
Q2 = [RNG.uniform(k[0], k[-1], 40) for k in K2]
for _q, _k in zip(Q2, K2):
    _q[:4] = _k[[0, 1, -2, -1]]  # exactly on knots and at both ends
K3 = (np.array([0.0, 0.5, 2.0]), np.array([-1.0, 1.0]), np.array([0.0, 0.25, 1.0, 1.75]))
F3 = RNG.normal(size=(3, 2, 4))
Q3 = [RNG.uniform(k[0], k[-1], 25) for k in K3]
for _q, _k in zip(Q3, K3):
    _q[:2] = _k[[0, -1]]

CUBIC = ["cubic2", "cubic", "catmull-rom", "cardinal", "monotonic", "akima", "makima"]
ORDERS2 = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (3, 0), (4, 2)]
ORDERS3 = [(0, 0, 0), (1, 1, 1), (0, 2, 1), (3, 0, 2)]


def _cubic_kw(method):
    return {"c": 0.3} if method == "cardinal" else {}


def test_grid_cubic_methods_match_tensor_hermite_reference():
    """Every cubic method, 2-D (6x5) and 3-D (3x2x4 knots), stacked derivative orders."""

    @jax.jit
    def run(q2, q3):
        return ([splines.interp2d(*q2, *K2, F2, m, derivative=ORDERS2, **_cubic_kw(m))
                 for m in CUBIC],
                [splines.interp3d(*q3, *K3, F3, m, derivative=ORDERS3, **_cubic_kw(m))
                 for m in CUBIC])  # fmt: skip

    two, three = run(Q2, Q3)
    for m, got2, got3 in zip(CUBIC, two, three):
        c = 0.3 if m == "cardinal" else 0.0
        node2, node3 = _nodes(m, K2, F2, c=c), _nodes(m, K3, F3, c=c)
        for k, order in enumerate(ORDERS2):
            ref = _hermite(K2, node2, Q2, order)
            scale = max(1.0, np.abs(ref).max())
            np.testing.assert_allclose(got2[k], ref, rtol=0, atol=1e-12 * scale,
                                       err_msg=f"{m} {order}")  # fmt: skip
        for k, order in enumerate(ORDERS3):
            ref = _hermite(K3, node3, Q3, order)
            scale = max(1.0, np.abs(ref).max())  # 3rd derivatives: scipy's rounding x 1/h^3
            np.testing.assert_allclose(got3[k], ref, rtol=0, atol=1e-11 * scale,
                                       err_msg=f"{m} {order}")  # fmt: skip


def test_grid_cubic2_bcs_rbs_and_linear_nearest_vs_scipy():
    """cubic2 end conditions, RectBivariateSpline derivatives, RGI linear/nearest with ties."""
    k = (np.array([0.0, 0.25, 1.0, 1.5]), np.array([0.0, 0.5, 0.75, 2.0, 2.25]))
    f = RNG.normal(size=(4, 5))
    mids = [np.concatenate([a, (a[:-1] + a[1:]) / 2]) for a in k]  # exact midpoint ties
    grid = [g.ravel() for g in np.meshgrid(*mids, indexing="ij")]
    bcs = ["not-a-knot", "natural", "clamped"]

    @jax.jit
    def run(q, grid):
        cub = [splines.interp2d(*q, *K2, F2, bc_type=bc, derivative=[(0, 0), (1, 2)])
               for bc in bcs]  # fmt: skip
        lin = [splines.interp2d(*grid, *k, f, m) for m in ("linear", "nearest")]
        lin3 = [splines.interp3d(*Q3, *K3, F3, m) for m in ("linear", "nearest")]
        return cub, lin, lin3

    cub, lin, lin3 = run(Q2, grid)
    for bc, got in zip(bcs, cub):
        node = _nodes("cubic2", K2, F2, bc=bc)
        for j, order in enumerate([(0, 0), (1, 2)]):
            ref = _hermite(K2, node, Q2, order)
            np.testing.assert_allclose(got[j], ref, rtol=0, atol=1e-12 * np.abs(ref).max())
    rbs = RectBivariateSpline(*K2, F2)
    got = jax.jit(lambda q: splines.interp2d(*q, *K2, F2, derivative=[(0, 0), (1, 1), (2, 2)]))(Q2)
    for j, (dx, dy) in enumerate([(0, 0), (1, 1), (2, 2)]):
        ref = rbs.ev(*Q2, dx=dx, dy=dy)
        np.testing.assert_allclose(got[j], ref, rtol=0, atol=1e-11 * np.abs(ref).max())
    for m, got in zip(("linear", "nearest"), lin):
        ref = RegularGridInterpolator(k, f, method=m)(np.stack(grid, -1))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15, err_msg=m)
    for m, got in zip(("linear", "nearest"), lin3):
        ref = RegularGridInterpolator(K3, F3, method=m)(np.stack(Q3, -1))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15, err_msg=m)


def test_grid_periodic_concrete_traced_open_closed_vs_scipy():
    """x periodic (open knots, closed knots; period concrete or traced), y not-a-knot."""
    xp, yp = K2[0][:4], K2[1][:4]
    period = xp[-1] - xp[0] + 0.7
    f = RNG.normal(size=(4, 4))
    xc, fc = np.append(xp, xp[0] + period), np.concatenate([f, f[:1]])
    q = [RNG.uniform(xp[0] - 3 * period, xp[0] + 3 * period, 30),
         RNG.uniform(yp[0], yp[-1], 30)]  # fmt: skip
    q[0][:3] = [xp[0], xp[0] + period, xp[-1]]
    orders = [(0, 0), (1, 0), (2, 1)]

    def call(knots, values, p, method="cubic2"):
        return splines.interp2d(*q, knots, yp, values, method, period=(p, None),
                                derivative=orders)  # fmt: skip

    results = jax.jit(lambda: [call(xp, f, period), call(xc, fc, period)])()  # concrete
    traced = jax.jit(lambda p, xp, xc: [call(xp, f, p), call(xc, fc, p)])(period, xp, xc)
    node = {0: fc, 1: CubicSpline(xc, fc, bc_type="periodic", axis=0)(xc, 1)}
    node[2], node[3] = (CubicSpline(yp, v, axis=1)(yp, 1) for v in (node[0], node[1]))
    wrapped = xc[0] + np.mod(q[0] - xc[0], period)
    for j, order in enumerate(orders):
        ref = _hermite((xc, yp), node, (wrapped, q[1]), order)
        for got in results + list(traced):
            np.testing.assert_allclose(got[j], ref, rtol=0, atol=1e-13 * np.abs(ref).max())
    # Every method: traced period == concrete period, 3-D, two periodic axes.
    fz = RNG.normal(size=(4, 2, 3))
    fz[-1] = fz[0]
    px, pz = K3[0][-1] - K3[0][0], 2.5
    kx = np.array([0.0, 0.3, 1.1, K3[0][-1]])
    qz = [RNG.uniform(-5, 5, 20), RNG.uniform(-1, 1, 20), RNG.uniform(-5, 5, 20)]
    methods = ["cubic2", "nearest"]

    def all3(px, pz):
        return [splines.interp3d(*qz, kx, K3[1], K3[2][:3], fz, m, period=(px, None, pz))
                for m in methods]  # fmt: skip

    concrete = jax.jit(lambda: all3(px, pz))()  # the periods closed over: concrete
    for m, a, b in zip(methods, concrete, jax.jit(all3)(px, pz)):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * np.abs(a).max(), err_msg=m)


def test_grid_extrap_fills_nan_and_inf_queries():
    xp, yp = np.array([0.0, 1.0, 2.5, 3.0]), np.array([-1.0, 0.0, 2.0])
    f = RNG.normal(size=(4, 3))
    qx = np.array([-1.0, 0.0, 3.0, 4.0, np.nan, 1.5, -np.inf, 1.0, 1.0])
    qy = np.array([0.5, -2.0, 3.0, 1.0, 0.5, np.nan, 0.5, -np.inf, 2.0])
    options = [False, True, 7.0, (1.0, 2.0), (True, 9.0), ((1.0, 2.0), (3.0, 4.0))]
    got = [np.asarray(g) for g in jax.jit(lambda qx, qy: [
        splines.interp2d(qx, qy, xp, yp, f, extrap=e) for e in options])(qx, qy)]  # fmt: skip
    nan = np.nan
    np.testing.assert_array_equal(np.isnan(got[0]), np.arange(9) < 8)  # (1, 2) is inside
    v = f[1, 2]  # (1, 2) is a knot pair, inside
    np.testing.assert_array_equal(got[2][:8], [7, 7, 7, 7, nan, nan, 7, 7])
    np.testing.assert_array_equal(got[3][:8], [1, 1, 2, 2, nan, nan, 1, 1])
    np.testing.assert_array_equal(got[5][:8], [1, 3, 4, 2, nan, nan, 1, 3])
    for k in (0, 1, 2, 3, 5):  # on the last y knot: the data, exactly
        assert got[k][8] == v
    node = _nodes("cubic2", (xp, yp), f)
    finite = [0, 1, 2, 3, 8]
    ref = _hermite((xp, yp), node, (qx[finite], qy[finite]), (0, 0))
    np.testing.assert_allclose(got[1][finite], ref, rtol=1e-13)
    assert np.isnan(got[1][[4, 5, 6]]).all()  # an extended cubic has no value at -inf
    np.testing.assert_allclose(got[4][[0, 3, 8]], ref[[0, 3, 4]], rtol=1e-13)  # x extends
    np.testing.assert_array_equal(got[4][[1, 2, 7]], 9.0)  # y fills


def test_grid_one_ulp_last_cell_and_two_knot_axes():
    rows = []
    for dtype in (np.float32, np.float64):
        xp = np.array([0.0, 1.0, 2.0], dtype)
        xp = np.append(xp, np.nextafter(xp[-1], dtype(9))).astype(dtype)
        yp = np.array([0.0, 1.0], dtype)  # two knots along y
        f = RNG.normal(size=(4, 2)).astype(dtype)
        fc = f.copy()
        fc[-1] = fc[0]
        qx = np.array([xp[-1], xp[-2], xp[0], xp[1]], dtype)
        qy = np.array([1.0, 0.0, 0.0, 1.0], dtype)
        methods = ("cubic2", "linear", "nearest", "monotonic")
        got = jax.jit(lambda qx, qy: [splines.interp2d(qx, qy, xp, yp, f, m)
                                      for m in methods])(qx, qy)  # fmt: skip
        for m, g in zip(methods, got):
            np.testing.assert_allclose(g, [f[-1, 1], f[-2, 0], f[0, 0], f[1, 1]],
                                       rtol=32 * np.finfo(dtype).eps, err_msg=m)  # fmt: skip
        period = xp[-1] - xp[0]
        g = jax.jit(lambda p: splines.interp2d(qx, qy, xp, yp, fc, period=(p, None)))
        concrete = jax.jit(lambda: splines.interp2d(qx, qy, xp, yp, fc, period=(period, None)))
        rows.append((g(period), concrete(), fc, dtype))
    for traced, concrete, fc, dtype in rows:
        np.testing.assert_allclose(traced, concrete, rtol=32 * np.finfo(dtype).eps)
        np.testing.assert_allclose(traced[0], fc[0, 1], rtol=32 * np.finfo(dtype).eps)


def test_grid_f32_tiny_and_huge_values():
    xp = np.array([0.0, 1.0, 2.5, 3.0, 4.2], F32)
    yp = np.array([-1.0, 0.0, 2.0, 2.5], F32)
    f0 = np.clip(RNG.normal(size=(5, 4)), -1.5, 1.5)
    q = [RNG.uniform(0, 4.2, 30).astype(F32), RNG.uniform(-1, 2.5, 30).astype(F32)]
    k64, q64 = [k.astype(float) for k in (xp, yp)], [v.astype(float) for v in q]
    methods = ["cubic2", "monotonic", "akima", "catmull-rom"]
    for scale in (1e30, 1e-30):
        f = (f0 * scale).astype(F32)
        got = jax.jit(lambda q, f: [splines.interp2d(*q, xp, yp, f, m, derivative=[(0, 0), (1, 1)])
                                    for m in methods])(q, f)  # fmt: skip
        for m, g in zip(methods, got):
            assert g.dtype == F32
            node = _nodes(m, k64, f.astype(float))
            for j, order in enumerate([(0, 0), (1, 1)]):
                ref = _hermite(k64, node, q64, order)
                np.testing.assert_allclose(g[j], ref, rtol=0, atol=4e-6 * np.abs(ref).max(),
                                           err_msg=f"{m} {scale}")  # fmt: skip


def test_grid_complex_columns_dtype_mixes_and_constants_in_jit():
    xp, yp = K2
    f = RNG.normal(size=(6, 5, 2, 3)) + 1j * RNG.normal(size=(6, 5, 2, 3))
    qx, qy = RNG.uniform(xp[0], xp[-1], (7, 2)), RNG.uniform(yp[0], yp[-1], (1, 2))
    orders = [(0, 0), (1, 1)]
    methods = ["cubic2", "linear", "nearest"]

    @jax.jit
    def run(qx, qy):
        return [[splines.interp2d(qx, qy, xp, yp, v, m, derivative=orders)
                 for v in (f, f.real, f.imag)] for m in methods]  # fmt: skip

    for m, (c, re, im) in zip(methods, run(qx, qy)):
        assert c.shape == (2, 7, 2, 2, 3) and c.dtype == np.complex128
        np.testing.assert_allclose(c.real, re, rtol=0, atol=1e-13 * np.abs(re).max(), err_msg=m)
        np.testing.assert_allclose(c.imag, im, rtol=0, atol=1e-13 * np.abs(im).max(), err_msg=m)
    fill = splines.interp2d(np.array([-1.0]), np.array([7.0]), xp, yp, f[..., 0, 0],
                            extrap=1 + 2j)  # fmt: skip
    np.testing.assert_array_equal(fill, [1 + 2j])
    # f32 knots, f64 values: f64 result; f32 queries too.
    out = splines.interp2d(Q2[0].astype(F32), Q2[1].astype(F32), xp.astype(F32),
                           yp.astype(F32), F2)  # fmt: skip
    assert out.dtype == np.float64
    # Python scalars, numpy constants and a numpy-scalar period inside jit.
    g = jax.jit(lambda x: splines.interp2d(x, 2.0, np.array([0.0, 1, 2]), [0, 1, 2, 3],
                                           np.arange(12.0).reshape(3, 4),
                                           period=(np.float64(3.0), None)))  # fmt: skip
    np.testing.assert_allclose(g(1.5), 9.5, rtol=1e-15)
    assert splines.interp2d(1.0, 2.0, [0, 1, 2], [0, 1, 2, 3],
                            np.arange(12).reshape(3, 4)) == 6.0  # fmt: skip


def test_grid_vmap_over_grids_and_periods():
    xp, yp = K2[0][:4], K2[1][:4]
    fs = RNG.normal(size=(3, 4, 4))
    fs[2, -1] = fs[2, 0]
    q = [RNG.uniform(xp[0], xp[-1], 9), RNG.uniform(yp[0], yp[-1], 9)]
    periods = np.array([xp[-1] - xp[0] + 0.5, xp[-1] - xp[0] + 1.5, xp[-1] - xp[0]])
    batched = jax.vmap(lambda p, f: splines.interp2d(*q, xp, yp, f, period=(p, None)))(
        periods, fs)  # fmt: skip
    classes = jax.vmap(lambda f: splines.Interpolator2D(xp, yp, f, "akima")(*q))(fs)
    for k in range(3):
        one = splines.interp2d(*q, xp, yp, fs[k], period=(periods[k], None))
        np.testing.assert_allclose(batched[k], one, rtol=0, atol=1e-13)
        np.testing.assert_allclose(classes[k], splines.interp2d(*q, xp, yp, fs[k], "akima"),
                                   rtol=0, atol=1e-14)  # fmt: skip


def test_grid_grads_wrt_values_knots_queries_and_period():
    """check_grads for cubic2 values and mixed derivatives w.r.t. queries, knots and values
    (orders 1 and 2); d/dperiod through a traced periodic closing."""
    xp, yp = np.array([0.0, 0.7, 1.5, 2.4]), np.array([0.0, 0.6, 1.7])
    f = RNG.normal(size=(4, 3))
    q0, q1 = np.array([0.3, 1.1, 2.0]), np.array([0.2, 1.0, 1.5])

    def values_and_mixed(q0, q1, xp, yp, f):
        return splines.interp2d(q0, q1, xp, yp, f, derivative=[(0, 0), (1, 1)])

    def periodic(q0, q1, xp, yp, f, p):
        return splines.interp2d(q0, q1, xp, yp, f, period=(p, None))

    smooth = jax.jit(values_and_mixed)
    # Order 1 here (order 2 w.r.t. the node data: test_grid_transforms); order 2: +10 s.
    check_grads(smooth, (q0, q1, xp, yp, f), order=1, modes=("fwd", "rev"))
    # d/dperiod through the traced closing against a central difference (open knots here).
    p, eps = 3.1, 1e-6
    value = jax.jit(lambda p: jnp.sum(periodic(q0, q1, xp, yp, f, p)))
    grad = jax.jit(jax.grad(lambda p: jnp.sum(periodic(q0, q1, xp, yp, f, p))))(p)
    np.testing.assert_allclose(grad, (value(p + eps) - value(p - eps)) / (2 * eps), rtol=1e-6)


def test_grid_no_recompiles():
    xp, yp = K2
    with compiles(_functions._interpolate) as counter:
        for k in range(3):
            splines.interp2d(np.array([1.0 + k]), np.array([1.5]), xp, yp, F2 + k,
                             extrap=float(k))  # fmt: skip
        for p in (9.0, 10.0):
            splines.interp2d(np.array([1.0]), np.array([1.5]), xp, yp, F2, period=(p, None))
    assert counter.count <= 2  # one for the fills, one for the periodic fit
    spline = splines.Interpolator2D(xp, yp, F2)
    spline(1.0, 2.0)
    with compiles(_evaluate_module.jit_evaluate) as counter:
        spline(1.5, 2.5)
        spline(jnp.asarray(1.2), 2.0)
    assert counter.count == 0


def test_grid_errors_are_clear():
    xp, yp = np.array([0.0, 1, 2, 3]), np.array([0.0, 1, 3])
    f = RNG.normal(size=(4, 3))
    with pytest.raises(ValueError, match="`xp` must be strictly increasing"):
        splines.interp2d(1.5, 0.5, [0.0, 1, 1, 3], yp, f)
    with pytest.raises(ValueError, match="`derivative`"):
        splines.interp2d(1.5, 0.5, xp, yp, f, derivative=(1, 0, 0))
    with pytest.raises(TypeError, match="`x` must be real"):
        splines.interp2d(1.5j, 0.5, xp, yp, f)
    with pytest.raises(ValueError, match="`period` must be finite and positive"):
        splines.interp2d(1.5, 0.5, xp, yp, f, period=(0.0, None))
    with pytest.raises(TypeError, match="`extrap`"):
        splines.interp2d(-1.0, 0.5, xp, yp, f, extrap=1j)
    traced = jax.jit(lambda xp, p: splines.interp2d(1.5, 0.5, xp, yp, f, period=(p, None)))
    assert np.isnan(traced(jnp.asarray([0.0, 1, 1, 3]), 4.0))  # bad knots: NaN
    assert np.isnan(traced(jnp.asarray(xp), 2.0))  # knots past the period: NaN


# ---- defects -------------------------------------------------------------------------


# Found here as a defect (ZeroDivisionError from jnp.reshape(nodes, (-1, 0, slots)) in
# _evaluate_grid._gather_corners) and fixed in the working tree meanwhile; kept.
@pytest.mark.parametrize("method", ["cubic2", "linear"])
def test_grid_zero_columns(method):
    # interp1d returns shape (1, 0) for fp of shape (3, 0); so must the grids.
    out = splines.interp2d([1.0], [1.0], [0.0, 1, 2], [0.0, 1, 2], np.zeros((3, 3, 0)), method)
    assert out.shape == (1, 0)


@pytest.mark.xfail(strict=True, reason="cell_pieces builds power-basis coefficients per "
                   "axis; they grow ~2^d (linear) to ~6^d (cubic) x |f| and overflow f32")
@pytest.mark.parametrize("case", ["2d linear 2e38", "3d linear 5e37", "3d monotonic 1e36"])
def test_grid_f32_large_values_overflow(case):
    sign = np.array([1, -1, 1], F32)
    if case == "2d linear 2e38":
        k, f = np.array([0, 1], F32), F32(2e38) * np.outer(sign[:2], sign[:2])
        got = splines.interp2d(F32(0.5), F32(0.25), k, k, f.astype(F32), "linear")
        want = RegularGridInterpolator((k, k), f)([[0.5, 0.25]])[0]  # 0
    else:
        n, scale, method = (2, 5e37, "linear") if "linear" in case else (3, 1e36, "monotonic")
        k, s = np.arange(n, dtype=F32), sign[:n]
        f = (F32(scale) * s[:, None, None] * s[None, :, None] * s[None, None, :]).astype(F32)
        got = splines.interp3d(F32(0.5), F32(0.5), F32(0.5), k, k, k, f, method)
        small = splines.interp3d(0.5, 0.5, 0.5, k.astype(float), k.astype(float),
                                 k.astype(float), f.astype(float) / scale, method)  # fmt: skip
        want = float(small) * scale  # the f64 answer, scaled: |want| <= |f|
    assert np.isfinite(got)
    np.testing.assert_allclose(float(got), want, rtol=1e-5, atol=1e-6 * abs(float(np.max(f))))
