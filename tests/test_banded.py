"""Banded solves (`splines.solve_banded`, `splines.solveh_banded`) against LAPACK through
scipy: values, pivoting, batches, gradients, transformations, errors, the program."""

import itertools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.linalg as sl
from _lowered import lowered_text
from jax.test_util import check_grads

from splines import solve_banded, solveh_banded

SHAPES = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 2), (1, 3), (3, 0), (4, 5)]


def dense(ab, lower, upper):
    """The matrix of scipy's diagonal-ordered form."""
    n = ab.shape[-1]
    a = np.zeros((n, n), ab.dtype)
    for i in range(n):
        for j in range(max(0, i - lower), min(n, i + upper + 1)):
            a[i, j] = ab[upper + i - j, j]
    return a


def general(rng, lower, upper, n, dtype=np.float64, batch=()):
    """A random banded matrix, not diagonally dominant: partial pivoting has work to do."""
    ab = rng.normal(size=batch + (lower + upper + 1, n))
    if np.issubdtype(dtype, np.complexfloating):
        ab = ab + 1j * rng.normal(size=ab.shape)
    return ab.astype(dtype)


def positive_definite(rng, p, n, dtype=np.float64):
    """Upper form of a random Hermitian positive definite matrix of bandwidth p."""
    ab = 0.3 * rng.normal(size=(p + 1, n))
    if np.issubdtype(dtype, np.complexfloating):
        ab = ab + 0.3j * rng.normal(size=ab.shape)
    ab[p] = 1 + p + np.abs(rng.normal(size=n))  # diagonally dominant: positive definite
    return ab.astype(dtype)


def rel_err(ours, ref):
    ours, ref = np.asarray(ours), np.asarray(ref)
    return np.max(np.abs(ours - ref)) / max(np.max(np.abs(ref)), 1e-300)


# ----------------------------------------------------------------- values --


def test_solve_banded_matches_lapack():
    """Every band shape at n = 1, 3 (< l + u + 1 for the wider bands) and 17: one program
    (a compile per shape would be most of the time)."""
    systems = {}
    for (lower, upper), n in itertools.product(SHAPES, (1, 3, 17)):
        rng = np.random.default_rng(100 * lower + 10 * upper + n)
        systems[lower, upper, n] = general(rng, lower, upper, n), rng.normal(size=(n, 2))
    solve = jax.jit(lambda s: {case: solve_banded(case[:2], *s[case]) for case in s})
    for (lower, upper, n), x in jax.device_get(solve(systems)).items():
        ab, b = systems[lower, upper, n]
        ref = sl.solve_banded((lower, upper), ab, b)
        cond = np.linalg.cond(dense(ab, lower, upper))
        assert rel_err(x, ref) <= 1e-15 * max(cond, 1) * n, (lower, upper, n)
        np.testing.assert_allclose(dense(ab, lower, upper) @ x, b, atol=1e-12 * cond,
                                   err_msg=f"l, u, n = {lower, upper, n}")  # fmt: skip


def test_pivoting_solves_a_matrix_with_zero_diagonal():
    # A banded permutation-like matrix: every diagonal entry 0, so elimination without
    # row interchanges divides by 0 at once; gbsv's choice of pivot solves it exactly.
    n = 9
    ab = np.zeros((5, n))
    ab[0, 2:] = 1.0  # a[i, i+2] = 1
    ab[4, :-2] = 1.0  # a[i+2, i] = 1
    ab[1, 1:] = 0.5
    b = np.arange(1.0, n + 1)
    assert np.all(dense(ab, 2, 2).diagonal() == 0)
    x = solve_banded((2, 2), ab, b)
    np.testing.assert_allclose(x, sl.solve_banded((2, 2), ab, b), rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_systems(dtype):
    rng = np.random.default_rng(3)
    ab = general(rng, 2, 1, 12, dtype)
    ab[2] += 4  # well conditioned, so that complex64 is close to the reference
    b = (rng.normal(size=12) + 1j * rng.normal(size=12)).astype(dtype)
    x = solve_banded((2, 1), ab, b)
    assert x.dtype == dtype
    ref = sl.solve_banded((2, 1), ab.astype(np.complex128), b.astype(np.complex128))
    assert rel_err(x, ref) < (1e-14 if dtype == np.complex128 else 1e-5)
    ah = positive_definite(rng, 2, 12, dtype)
    xh = solveh_banded(ah, b)
    refh = sl.solveh_banded(ah.astype(np.complex128), b.astype(np.complex128))
    assert rel_err(xh, refh) < (1e-14 if dtype == np.complex128 else 1e-5)


def test_float32_matches_float64_reference_of_the_rounded_inputs():
    rng = np.random.default_rng(4)
    ab = general(rng, 2, 2, 50, np.float32)
    ab[2] += 5
    b = rng.normal(size=50).astype(np.float32)
    x = solve_banded((2, 2), ab, b)
    assert x.dtype == np.float32
    ref = sl.solve_banded((2, 2), ab.astype(np.float64), b.astype(np.float64))
    assert rel_err(x, ref) < 2e-6


def test_solveh_banded_matches_lapack_in_both_forms():
    """Bandwidths p = 0 … 5 at n = 1 … 30, the upper and the lower form: one program."""
    systems = {}
    for p, n in itertools.product((0, 1, 2, 3, 5), (1, 2, 4, 30)):
        rng = np.random.default_rng(10 * p + n)
        upper_form = positive_definite(rng, p, n)
        a = dense(upper_form, 0, p)
        a = np.triu(a) + np.triu(a, 1).T
        lower_form = np.zeros_like(upper_form)
        for q in range(p + 1):
            lower_form[q, : max(n - q, 0)] = np.diagonal(a, -q)
        systems[p, n] = upper_form, lower_form, rng.normal(size=(n, 3)), a

    @jax.jit
    def solve(s):
        return {case: (solveh_banded(upper, b), solveh_banded(lower, b, lower=True))
                for case, (upper, lower, b, _) in s.items()}  # fmt: skip

    for (p, n), (upper, lower) in jax.device_get(solve(systems)).items():
        upper_form, _, b, a = systems[p, n]
        ref = np.linalg.solve(a, b)  # scipy's solveh_banded fails at n = 1, p = 1 (its ptsv call)
        if n > 1:
            np.testing.assert_allclose(sl.solveh_banded(upper_form, b), ref, rtol=1e-12,
                                       atol=1e-14, err_msg=f"p, n = {p, n}")  # fmt: skip
        assert rel_err(upper, ref) < 1e-14, (p, n)
        assert rel_err(lower, ref) < 1e-14, (p, n)


def test_unused_corners_of_ab_are_not_read():
    rng = np.random.default_rng(5)
    ab, b = general(rng, 2, 1, 6), rng.normal(size=6)
    ref = sl.solve_banded((2, 1), ab, b)
    ab[0, 0] = ab[3, -1] = ab[2, -1] = ab[3, -2] = np.nan  # the corners LAPACK skips
    # (scipy's check_finite looks at them too: so do we)
    np.testing.assert_allclose(solve_banded((2, 1), ab, b, check_finite=False), ref, rtol=1e-14)
    ah, bh = positive_definite(rng, 2, 6), rng.normal(size=6)
    refh = sl.solveh_banded(ah, bh)
    ah[0, :2] = ah[1, 0] = np.nan
    np.testing.assert_allclose(solveh_banded(ah, bh, check_finite=False), refh, rtol=1e-14)


# ------------------------------------------------------ invalid matrices --


@pytest.mark.parametrize("jit", [False, True])
def test_singular_matrix_is_not_finite(jit):
    ab = np.array([[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])  # rows 0, 1 equal
    solve = (lambda ab, b: solve_banded((1, 1), ab, b)) if not jit else None
    solve = solve or jax.jit(lambda ab, b: solve_banded((1, 1), ab, b))
    assert np.linalg.matrix_rank(dense(ab, 1, 1)) == 2
    assert not np.all(np.isfinite(solve(ab, np.ones(3))))


@pytest.mark.parametrize("jit", [False, True])
def test_not_positive_definite_is_nan(jit):
    # Symmetric, indefinite (eigenvalues 1 ± 2): no plausible number comes back.
    ab = np.array([[0.0, 2.0], [1.0, 1.0]])
    solve = jax.jit(solveh_banded) if jit else solveh_banded
    assert np.all(np.isnan(solve(ab, np.ones(2))))
    grad = jax.grad(lambda ab: jnp.sum(solveh_banded(ab, np.ones(2))))(jnp.asarray(ab))
    assert np.all(np.isnan(grad[1])) and np.isnan(grad[0, 1])  # ab[0, 0] is not read


# ------------------------------------------------------------------ batches --


def test_batches_broadcast_as_scipys():
    rng = np.random.default_rng(6)
    ab = general(rng, 1, 2, 8, batch=(3, 1))
    ab[..., 1, :] += 3
    b = rng.normal(size=(4, 8, 2))
    x = solve_banded((1, 2), ab, b)
    ref = sl.solve_banded((1, 2), ab, b)
    assert x.shape == ref.shape == (3, 4, 8, 2)
    assert rel_err(x, ref) < 1e-14
    ah = np.stack([positive_definite(rng, 2, 8) for _ in range(3)])
    xh = solveh_banded(ah, b[:1])
    refh = sl.solveh_banded(ah, b[:1])
    assert xh.shape == refh.shape == (3, 8, 2)
    assert rel_err(xh, refh) < 1e-14


@pytest.mark.parametrize("in_axes", [(0, 0), (None, 0), (0, None)])
def test_vmap_is_the_loop(in_axes):
    rng = np.random.default_rng(7)
    ab = np.stack([general(rng, 2, 2, 9) for _ in range(4)])
    b = rng.normal(size=(4, 9))
    args = [a if axis == 0 else a[0] for a, axis in zip((ab, b), in_axes)]
    mapped = jax.jit(jax.vmap(lambda ab, b: solve_banded((2, 2), ab, b), in_axes=in_axes))
    loop = [
        sl.solve_banded((2, 2), *(a[i] if axis == 0 else a for a, axis in zip(args, in_axes)))
        for i in range(4)
    ]
    assert rel_err(mapped(*args), np.stack(loop)) < 1e-13


# ---------------------------------------------------------------- gradients --


def test_check_grads_of_both_solves():
    """solve_banded (pivoting), solveh_banded in the upper and in the lower form: one
    function of all their arguments, so that check_grads compiles its programs once."""
    rng = np.random.default_rng(8)
    ab, b = general(rng, 2, 1, 6), rng.normal(size=(6, 2))
    ab[1] += 3  # the diagonal (row u): well conditioned, for finite differences
    rng = np.random.default_rng(9)
    upper, bh = positive_definite(rng, 2, 6), rng.normal(size=6)
    lower = upper[::-1].copy()  # a valid lower form of another SPD matrix

    @jax.jit
    def solves(ab, b, upper, lower, bh):
        return (solve_banded((2, 1), ab, b), solveh_banded(upper, bh),
                solveh_banded(lower, bh, lower=True))  # fmt: skip

    check_grads(solves, (ab, b, upper, lower, bh), order=2, modes=("fwd", "rev"))


def test_gradient_matches_the_dense_formula():
    # d/dA of c·x with x = A⁻¹ b is −λ xᵀ on the band, λ = A⁻ᵀ c.
    rng = np.random.default_rng(10)
    ab, b, c = general(rng, 1, 2, 7), rng.normal(size=7), rng.normal(size=7)
    a = dense(ab, 1, 2)
    grad = jax.grad(lambda ab: jnp.dot(c, solve_banded((1, 2), ab, b)))(ab)
    x, lam = np.linalg.solve(a, b), np.linalg.solve(a.T, c)
    full = -np.outer(lam, x)
    expected = np.zeros_like(ab)
    for i in range(7):
        for j in range(max(0, i - 1), min(7, i + 3)):
            expected[2 + i - j, j] = full[i, j]
    np.testing.assert_allclose(grad, expected, rtol=1e-12, atol=1e-14)


def test_transpose_is_the_transposed_solve():
    rng = np.random.default_rng(11)
    ab, b = general(rng, 3, 1, 8), rng.normal(size=8)
    transpose = jax.linear_transpose(lambda b: solve_banded((3, 1), ab, b), b)
    (b_bar,) = transpose(b)
    np.testing.assert_allclose(b_bar, np.linalg.solve(dense(ab, 3, 1).T, b), rtol=1e-12)


# ------------------------------------------------------------------- errors --


@pytest.mark.parametrize(
    "l_and_u, match",
    [((1,), "`l_and_u`"), ((1, -1), "`l_and_u`"), ((1.0, 1), "`l_and_u`"), (3, "`l_and_u`")],
)
def test_bad_l_and_u_is_named(l_and_u, match):
    with pytest.raises((TypeError, ValueError), match=match):
        solve_banded(l_and_u, np.ones((3, 4)), np.ones(4))


@pytest.mark.parametrize(
    "ab_shape, b_shape, match",
    [((2, 4), (4,), "`ab`"), ((3, 4), (5,), "`b`"), ((3, 4), (2, 4), "`b`"), ((3,), (3,), "`ab`")],
)
def test_shape_errors_name_the_argument(ab_shape, b_shape, match):
    with pytest.raises(ValueError, match=match):
        solve_banded((1, 1), np.ones(ab_shape), np.ones(b_shape))


def test_non_finite_data_is_named_or_propagates():
    ab, b = np.ones((3, 4)) + np.eye(3, 4), np.ones(4)
    ab[1, 2] = 4.0
    b[2] = np.nan
    with pytest.raises(ValueError, match=r"`b\[2\]` = nan"):
        solve_banded((1, 1), ab, b)
    with pytest.raises(ValueError, match=r"`b\[2\]` = nan"):
        solveh_banded(ab[:2], b)
    assert np.isnan(solve_banded((1, 1), ab, b, check_finite=False)).any()
    assert np.isnan(jax.jit(lambda b: solve_banded((1, 1), ab, b))(b)).any()


# ------------------------------------------------------------------ program --


def test_program_has_no_callbacks():
    ab, b = np.ones((5, 6)), np.ones(6)

    def f(ab, b):
        return solve_banded((2, 2), ab, b) + solveh_banded(ab[:3], b)

    text = lowered_text(jax.grad(lambda ab, b: jnp.sum(f(ab, b)), argnums=(0, 1)), ab, b)
    assert "callback" not in text and "custom_call" not in text


def test_traced_non_finite_matrix_gives_nan():
    # An inf pivoted into the solution would divide it away into a plausible number.
    rng = np.random.default_rng(12)
    ab, b = general(rng, 1, 2, 6), rng.normal(size=6)
    ab[2, 3] = np.inf
    x = jax.jit(lambda ab, b: solve_banded((1, 2), ab, b))(ab, b)
    assert np.all(np.isnan(x))
    assert np.all(np.isnan(solve_banded((1, 2), ab, b, check_finite=False)))


def test_solveh_banded_as_scipy_reads_lower_and_the_diagonal():
    rng = np.random.default_rng(13)
    ab = positive_definite(rng, 2, 7, np.complex128)
    b = rng.normal(size=7)
    lower_form = ab[::-1].copy()
    np.testing.assert_allclose(
        solveh_banded(lower_form, b, lower=1), sl.solveh_banded(lower_form, b, lower=1), rtol=1e-13
    )
    ab[2] += 0.5j  # a Hermitian diagonal is real: LAPACK reads the real part only
    np.testing.assert_allclose(solveh_banded(ab, b), sl.solveh_banded(ab, b), rtol=1e-13)


# ------------------------------------------------------ without pivoting --
# `banded_solve(..., pivoting=False)`: LDU in one sweep, for the matrices that need no
# row swaps (the B-spline fits' totally nonnegative collocation matrices).


def dominant_rows(rng, lower, upper, n, batch=(), dtype=np.float64):
    """The rows layout (`splines._linalg.banded`) of a diagonally dominant matrix."""
    from splines._linalg.banded import rows_from_diagonals

    ab = general(rng, lower, upper, n, dtype, batch)
    ab[..., upper, :] += (lower + upper + 1) * 2.0
    return ab, rows_from_diagonals(jnp.asarray(ab), lower, upper)


def test_solve_without_pivoting_matches_lapack():
    """Every band shape with one right-hand side at n = 1, 3, 18 and 20 (each remainder
    of the unrolled sweeps' length); some shapes with two right-hand sides sharing the
    bands, a batch of systems, float32 and complex.  One program (each solve compiles
    its loops: ~0.4 s)."""
    from splines._linalg.banded import banded_solve

    kinds = {"one": ((), (), np.float64), "shared": ((1,), (2,), np.float64),
             "batch": ((3,), (3,), np.float64), "f32": ((), (), np.float32),
             "complex": ((1,), (2,), np.complex128)}  # fmt: skip
    cases = [(shape, n, "one") for shape in SHAPES for n in (1, 3, 18, 20)]
    cases += [(shape, 17, kind) for shape in ((0, 0), (1, 1), (2, 2), (1, 3), (4, 5))
              for kind in ("shared", "batch", "f32", "complex")]  # fmt: skip
    systems = {}
    for (lower, upper), n, case in cases:
        rng = np.random.default_rng(100 * lower + 10 * upper + n)
        batch, columns, dtype = kinds[case]
        ab, rows = dominant_rows(rng, lower, upper, n, batch, dtype)
        b = rng.normal(size=columns + (n,)).astype(dtype)
        systems[lower, upper, n, case] = ab, rows, b

    @jax.jit
    def solve(rows_and_b):
        return {key: banded_solve(rows, b, lower=key[0], upper=key[1], pivoting=False)
                for key, (rows, b) in rows_and_b.items()}  # fmt: skip

    got = jax.device_get(solve({key: (rows, b) for key, (_, rows, b) in systems.items()}))
    for (lower, upper, n, case), x in got.items():
        ab, _, b = systems[lower, upper, n, case]
        ab = np.broadcast_to(ab, b.shape[:-1] + ab.shape[-2:])
        ref = np.stack([sl.solve_banded((lower, upper), a, r) for a, r in
                        zip(ab.reshape(-1, *ab.shape[-2:]), b.reshape(-1, n))])  # fmt: skip
        tol = 1e-5 if case == "f32" else 1e-14
        assert x.dtype == b.dtype and rel_err(x.reshape(-1, n), ref) <= tol, (lower, upper, n, case)


def test_check_grads_without_pivoting():
    """Forward and reverse, order 2: the JVP's solve and the transposed solve (Aᵀ's
    rows, l and u swapped) both run without pivoting; shared bands and a batch."""
    from splines._linalg.banded import banded_solve

    rng = np.random.default_rng(13)
    _, rows = dominant_rows(rng, 2, 1, 7)
    _, batch = dominant_rows(rng, 1, 2, 7, batch=(2,))
    b, columns = rng.normal(size=7), rng.normal(size=(3, 7))

    @jax.jit
    def solves(rows, batch, b, columns):
        return (banded_solve(rows, b, lower=2, upper=1, pivoting=False),
                banded_solve(rows[None], columns, lower=2, upper=1, pivoting=False),
                banded_solve(batch, columns[:2], lower=1, upper=2, pivoting=False))  # fmt: skip

    check_grads(solves, (rows, batch, b, columns), order=2, modes=("fwd", "rev"))
    pivoted = banded_solve(rows[None], columns, lower=2, upper=1)
    assert rel_err(solves(rows, batch, b, columns)[1], pivoted) <= 1e-15


def test_solve_without_pivoting_runs_as_native_loops():
    # XLA:CPU compiles a loop into one native call (`xla_cpu_small_call`) only while an
    # iteration stays small; the unrolls of `ldu_unrolls` keep every sweep there (one
    # system: n = 1e4, (2, 2) float64, 0.18 ms against 0.31 at unroll 1; see
    # docs/architecture.md §6).  Shared bands: the bands' sweep, then the columns'.
    from splines._linalg.banded import banded_solve

    rng = np.random.default_rng(14)
    for (lower, upper), dtype, columns, loops in (((2, 2), np.float64, (), 2),
                                                  ((2, 3), np.float64, (), 2),
                                                  ((3, 3), np.float32, (), 2),
                                                  ((2, 2), np.float64, (3,), 3)):  # fmt: skip
        _, rows = dominant_rows(rng, lower, upper, 101, dtype=dtype)
        b = jnp.asarray(rng.normal(size=columns + (101,)), dtype)
        solve = jax.jit(lambda r, b, l=lower, u=upper: banded_solve(r, b, lower=l, upper=u,
                                                                    pivoting=False))  # fmt: skip
        text = solve.lower(rows, b).compile().as_text()
        assert text.count(" while(") == loops, (lower, upper, dtype, columns)
        assert text.count('xla_cpu_small_call="true"') == loops, (lower, upper, dtype, columns)


def test_zero_pivot_without_pivoting_is_not_finite():
    from splines._linalg.banded import banded_solve

    _, rows = dominant_rows(np.random.default_rng(15), 1, 1, 6)
    rows = rows.at[2, 1].set(0.0).at[2, 0].set(0.0)  # row 2 reduces to a zero pivot
    x = banded_solve(rows, jnp.ones(6), lower=1, upper=1, pivoting=False)
    assert not np.all(np.isfinite(np.asarray(x)))


# -------------------------------------------------------------- GPU kernel --
# `kernels.pallas_banded`: one Pallas (Triton) call per solve, one system per GPU thread,
# run here in interpret mode; its CUDA program is lowered below without a GPU.


def _pallas(rows, b, **params):
    from splines._linalg.kernels.pallas_banded import splines_pallas_banded

    return splines_pallas_banded(rows, b, **params, interpret=True)


def test_gpu_kernel_matches_lapack():
    """Each of the three eliminations (LU with and without pivoting, LDLᵀ) on every band
    shape (float64, n = 9; n = 1 and 2 for (2, 2)), a batch over two blocks of lanes
    (129 systems: the second padded with identity systems) and bands shared by
    right-hand sides; some in float32.  One program per dtype (interpret mode compiles
    slowly); a failure names its case."""
    from splines._linalg.banded import rows_from_diagonals, rows_from_upper_form

    batches = [((2, 1), 6, (129,), (129,)), ((1, 2), 5, (1, 3), (2, 3))]
    cases = {np.float64: [(shape, 9, (), ()) for shape in SHAPES]
                         + [((2, 2), n, (), ()) for n in (1, 2)] + batches,
             np.float32: [((1, 1), 9, (), ()), ((2, 2), 9, (), ())] + batches[:1]}  # fmt: skip
    for dtype in (np.float32, np.float64):
        systems = {}
        for (lower, upper), n, band_batch, batch in cases[dtype]:
            rng = np.random.default_rng(10 * lower + upper + n)
            ab, rows = dominant_rows(rng, lower, upper, n, band_batch, dtype)
            pivot_ab = general(rng, lower, upper, n, dtype, band_batch)  # rows swap here
            spd = positive_definite(rng, lower, n, dtype)
            b = rng.normal(size=batch + (n,)).astype(dtype)
            systems[lower, upper, n, batch] = (ab, rows, pivot_ab, spd, b)

        @jax.jit
        def solve(inputs):
            out = {}
            for (lower, upper, n, batch), (rows, pivot_ab, spd, b) in inputs.items():
                pivot_rows = rows_from_diagonals(pivot_ab, lower, upper)
                spd_rows = rows_from_upper_form(spd)
                gpu = dict(lower=lower, upper=upper, symmetric=False)
                out[lower, upper, n, batch] = (
                    _pallas(rows, b, **gpu, pivoting=False),
                    _pallas(pivot_rows, b, **gpu, pivoting=True),
                    _pallas(spd_rows, b, lower=lower, upper=0, symmetric=True, pivoting=False),
                )
            return out

        inputs = {key: (rows, pivot_ab, spd, b) for key, (_, rows, pivot_ab, spd, b)
                  in systems.items()}  # fmt: skip
        tol = 2e-5 if dtype == np.float32 else 1e-12
        for key, solved in jax.device_get(solve(inputs)).items():
            ab, _, pivot_ab, spd, b = systems[key]
            lower, upper, n, batch = key
            flat_b = np.broadcast_to(b, np.broadcast_shapes(b.shape, ab.shape[:-2] + (n,)))
            upper_part = dense(spd, 0, lower)  # the Hermitian matrix from its upper form
            matrices = [np.broadcast_to(dense(a, lower, upper) if a.ndim == 2 else
                                        np.stack([dense(m, lower, upper) for m in a.reshape(-1, *a.shape[-2:])]).reshape(a.shape[:-2] + (n, n)),
                                        flat_b.shape[:-1] + (n, n))
                        for a in (ab, pivot_ab)]  # fmt: skip
            matrices.append(upper_part + np.triu(upper_part, 1).T)
            references = [
                np.linalg.solve(
                    m,
                    np.broadcast_to(flat_b, np.broadcast_shapes(flat_b.shape, m.shape[:-1]))[
                        ..., None
                    ],
                )[..., 0].reshape(-1, n)
                for m in matrices
            ]
            for kind, got, ref in zip(("ldu", "lu", "ldl"), solved, references):
                assert got.dtype == dtype and got.shape == flat_b.shape, (key, kind)
                assert rel_err(got.reshape(-1, n), ref) <= tol, (key, kind, dtype)


def test_gpu_kernel_breakdowns_are_not_finite():
    """A zero pivot (singular, or no pivoting where a swap is needed) and a matrix that is
    not positive definite give inf/NaN, as the scans do; LU's pivoting solves what LDU
    cannot."""
    from splines._linalg.banded import rows_from_diagonals

    rows = rows_from_diagonals(jnp.array([[0.0, 2.0, 1.0], [0.0, 1.0, 3.0], [1.0, 1.0, 0.0]]), 1, 1)
    b = jnp.array([2.0, 4.0, 7.0])  # rows: [0 2 .], [1 1 1], [. 1 3]
    dense_a = np.array([[0.0, 2.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 3.0]])
    params = dict(lower=1, upper=1, symmetric=False)
    np.testing.assert_allclose(_pallas(rows, b, **params, pivoting=True),
                               np.linalg.solve(dense_a, b), rtol=1e-6)  # fmt: skip
    assert not np.all(np.isfinite(_pallas(rows, b, **params, pivoting=False)))
    singular = rows_from_diagonals(jnp.array([[0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]), 1, 1)
    assert not np.all(np.isfinite(_pallas(singular, b[:2], **params, pivoting=True)))
    indefinite = jnp.array([[0.0, 1.0], [2.0, 1.0]])  # lower band, p = 1: [[1, 2], [2, 1]]
    x = _pallas(indefinite, b[:2], lower=1, upper=0, symmetric=True, pivoting=False)
    assert np.all(np.isnan(x))


def test_gpu_kernel_choice_for_complex_and_half_precision():
    """Complex systems scan (Triton has none); float16 solves in float32 and rounds back."""
    from splines._linalg.banded import rows_from_diagonals
    from splines._linalg.kernels import gpu

    solve = gpu.banded(interpret=True)
    rng = np.random.default_rng(16)
    for dtype in (np.complex64, np.float16):
        ab, rows = dominant_rows(rng, 1, 2, 8, dtype=np.float64)
        ab = ab.astype(dtype) if dtype == np.float16 else (ab + 0.1j * ab).astype(dtype)
        rows = rows_from_diagonals(jnp.asarray(ab), 1, 2)
        b = rng.normal(size=8).astype(dtype)
        x = solve(rows, jnp.asarray(b), lower=1, upper=2, symmetric=False, pivoting=True)
        ref = sl.solve_banded((1, 2), ab.astype(np.complex128), b.astype(np.complex128))
        assert x.dtype == dtype and rel_err(x, ref) <= (2e-3 if dtype == np.float16 else 1e-5)


@pytest.mark.parametrize(
    "name, program, args, solves",
    [
        ("solve_banded", lambda ab, b: solve_banded((2, 1), ab, b), ((4, 50), (50,)), 1),
        ("solveh_banded", lambda ab, b: solveh_banded(ab, b), ((3, 50), (50, 2)), 1),
        (
            "its gradient",
            jax.grad(lambda ab, b: jnp.sum(solve_banded((2, 1), ab, b) ** 2), argnums=(0, 1)),
            ((4, 50), (50,)),
            2,
        ),  # fmt: skip
        (
            "a batch",
            jax.vmap(lambda ab, b: solve_banded((1, 1), ab, b)),
            ((64, 3, 50), (64, 50)),
            1,
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_cuda_program_is_one_kernel_call_per_solve(name, program, args, solves):
    """No host-driven `while` on a GPU (~8 µs a step): each solve is one Triton call, the
    loops inside it (the gradient: the solve and its transposed solve)."""
    from _lowered import custom_calls, functions

    ab = np.ones(args[0][:-2] + (args[0][-2] - 1, args[0][-1]))
    ab = np.concatenate([ab, np.full(args[0][:-2] + (1, args[0][-1]), 9.0)], axis=-2)
    text = lowered_text(program, ab, np.ones(args[1]), platform="cuda")
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text
    kernels = [body for f, body in functions(text).items() if f.startswith("splines_pallas_banded")]
    assert len(kernels) == solves
    assert all(custom_calls(body) == ["__gpu$xla.gpu.triton"] for body in kernels)
    assert len(custom_calls(text)) == solves
