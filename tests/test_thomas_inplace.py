"""XLA:CPU's kernel for one small system (`thomas_inplace`) is `thomas_scan`, bit for bit.

Same recurrences, same order of operations: the results must be identical,
also where they are not finite (a zero pivot, inf or NaN in the data, an
infinite right-hand side whatever n mod 4) — the kernels directly, through the
public `tridiagonal_solve` (with the data as arguments or as constants),
`cyclic_tridiagonal_solve` and the 1-D fits, for every dtype, across the
1024-row boundary (one system of at most 1024 rows in place; longer ones, and
batches, by the scan), and under vmap and grad.  Complex bands are the one
exception: the one-system scan rounds its complex products differently, so
there the two agree to an ulp of the solution's scale.  The kernel is chosen by
the static shape, and eager solves compile it once.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _compiles import compiles
from _lowered import lowered_text
from jax.test_util import check_grads
from scipy.interpolate import CubicSpline
from scipy.linalg import solve_banded

import splines
from splines._linalg.kernels import splines_thomas_inplace, splines_thomas_scan, thomas_inplace

F32 = np.float32


def _system(rng, shape, dtype):
    n = shape[-1]
    lower, upper = (rng.uniform(-1, 1, shape[:-1] + (n - 1,)) for _ in range(2))
    diag, rhs = 2.5 + rng.uniform(0, 1, shape), rng.normal(size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        rhs = rhs + 1j * rng.normal(size=shape)
    return [np.asarray(a, dtype) for a in (lower, diag, upper, rhs)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_equals_the_scan_bit_for_bit(dtype):
    shapes = [(1,), (2,), (3,), (17,), (1, 64), (1, 1, 1024)]
    systems = [_system(np.random.default_rng(k), s, dtype) for k, s in enumerate(shapes)]
    broken = _system(np.random.default_rng(9), (8,), dtype)  # zero pivot, inf, NaN
    broken[1][3], broken[3][5], broken[0][6] = 0, np.inf, np.nan
    broken[2][2] = 0  # decouples rows ≤ 2, so the zero pivot's inf/NaN stays below
    systems.append(broken)
    both = jax.jit(lambda ss: [(splines_thomas_inplace(*s), splines_thomas_scan(*s)) for s in ss])
    for system, (inplace, scan) in zip(systems, both(systems)):
        np.testing.assert_array_equal(np.asarray(inplace), np.asarray(scan),
                                      err_msg=f"shape {system[3].shape}")  # fmt: skip


def test_suits_one_system_of_at_most_1024_rows_with_a_few_right_hand_sides():
    fits = thomas_inplace.small_enough
    assert fits((1024,), (1024,)) and fits((1, 1, 7), (1, 1, 7)) and fits((1, 9), (4, 9))
    assert not fits((1025,), (1025,)) and not fits((2, 8), (2, 8)) and not fits((1, 9), (5, 9))
    assert fits((1, 9), (1, 9), np.float64) and not fits((1, 9), (2, 9), np.float64)
    assert fits((1, 9), (1, 9), np.complex128)  # one system of any dtype
    assert not fits((1, 9), (0, 9))  # no right-hand side


def test_the_public_solve_uses_it_for_one_small_system():
    args = [jnp.ones(7), 4 * jnp.ones(8), jnp.ones(7), jnp.arange(8.0)]
    text = lowered_text(lambda *a: __import__("splines").tridiagonal_solve(*a, pivoting=False),
                        *args, platform="cpu")  # fmt: skip
    assert "splines_thomas_inplace" in text and "splines_thomas_scan" not in text


# ------------------------------------------ through the public solves, across 1024 rows


def _seeded_system(n, dtype, seed, scale=1.0):
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
            cases.append((f"{jnp.dtype(dtype).name} n={n}", _seeded_system(n, dtype, n)))
    # Huge but finite f32 magnitudes (each row's scale ~1e37: no reciprocal below FLT_MIN).
    cases.append(("f32 1e37", _seeded_system(7, np.float32, 1, scale=1e37)))
    # Denormals: XLA:CPU flushes them; both kernels must flush alike.
    den = _seeded_system(6, np.float32, 2)
    den[3] = den[3].at[2].set(F32(1e-40))
    den[0] = den[0].at[1].set(F32(3e-41))
    cases.append(("f32 denormals", den))
    # Zero pivot decoupled by upper[2] = 0 (rows <= 2 finite), NaN below; n % 4 == 0.
    broken = _seeded_system(8, np.float64, 9)
    broken[1] = broken[1].at[3].set(0.0)
    broken[2] = broken[2].at[2].set(0.0)
    broken[0] = broken[0].at[6].set(np.nan)
    cases.append(("f64 zero pivot / NaN", broken))
    return cases


KERNEL_CASES = _kernel_cases()


def test_inplace_equals_scan_and_public_solve_bit_for_bit():
    """One jit over every case: in-place kernel == scan kernel == public solve (constants).

    On the CPU, whose kernel the public solve then runs, on any machine.
    """
    cpu = jax.devices("cpu")[0]
    systems = jax.device_put([s for _, s in KERNEL_CASES], cpu)

    @jax.jit
    def run(systems):
        out = []
        for s in systems:
            out.append((splines_thomas_inplace(*s), splines_thomas_scan(*s), _public(*s)))
        return out

    # The public solve again with the data closed over (constants inside jit).
    with jax.default_device(cpu):
        closed = jax.jit(lambda: [_public(*s) for s in systems])()
    for (name, _), (ip, sc, pub), const in zip(KERNEL_CASES, run(systems), closed):
        for other in (sc, pub, const):
            np.testing.assert_array_equal(
                np.asarray(ip, np.complex128), np.asarray(other, np.complex128), err_msg=name
            )


def test_solution_is_right_for_f32_1e37_and_python_lists():
    s = _seeded_system(7, np.float32, 1, scale=1e37)
    x = np.asarray(_public(*s), np.float64)
    bands = np.stack([np.r_[0, s[2]], s[1], np.r_[s[0], 0]]).astype(np.float64)
    ref = solve_banded((1, 1), bands, np.asarray(s[3], np.float64))
    np.testing.assert_allclose(x, ref, rtol=2e-6)
    # Python lists and ints, n = 2: [[4, 1], [1, 4]] x = [1, 2].
    np.testing.assert_allclose(_public([1], [4, 4], [1], [1, 2]), [2 / 15, 7 / 15], rtol=1e-15)


@pytest.mark.parametrize("shape, kernel", [
    ((1024,), "splines_thomas_inplace"), ((1025,), "splines_thomas_scan"),
    ((1, 1, 1024), "splines_thomas_inplace"), ((2, 1024), "splines_thomas_scan"),
    ((0, 5), "splines_thomas_scan"),
])  # fmt: skip
def test_kernel_is_chosen_by_static_shape(shape, kernel):
    n = shape[-1]
    args = [jnp.ones(shape[:-1] + (n - 1,)), 4 * jnp.ones(shape), jnp.ones(shape[:-1] + (n - 1,)),
            jnp.ones(shape)]  # fmt: skip
    text = lowered_text(_public, *args)
    other = ({"splines_thomas_inplace", "splines_thomas_scan"} - {kernel}).pop()
    assert kernel in text and other not in text


def test_vmap_turns_one_system_into_a_batch():
    """vmap of size 1 keeps the in-place kernel, size 2 takes the scan: same numbers."""
    s = _seeded_system(1024, np.float64, 3)
    one = jax.vmap(_public)(*(v[None] for v in s))
    assert "splines_thomas_inplace" in lowered_text(jax.vmap(_public), *(v[None] for v in s))
    two = jax.vmap(_public)(*(jnp.stack([v, v]) for v in s))
    np.testing.assert_array_equal(one[0], _public(*s))
    np.testing.assert_array_equal(two[1], _public(*s))
    assert _public(jnp.zeros((0, 4)), jnp.ones((0, 5)), jnp.zeros((0, 4)),
                   jnp.ones((0, 5))).shape == (0, 5)  # fmt: skip


def test_grads_order_2_across_the_1024_boundary():
    systems = tuple(tuple(_seeded_system(n, np.float64, n)) for n in (1, 2, 1024, 1025))
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
    for (n, bc), (xp, fp, _), s in zip(cases, data, ours):
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


# An infinite right-hand side gives the same inf/NaN pattern in every kernel, whatever
# n mod 4 and beyond 1024 rows: the scan pads its lanes with identity rows in front of
# the system (`_lanes.to_lanes`); after it, 0 * inf = NaN would reach every row in the
# backward sweep.
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
