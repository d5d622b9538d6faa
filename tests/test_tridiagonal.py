"""`tridiagonal_solve` and `cyclic_tridiagonal_solve` against dense numpy solves.

Covers values (shapes, broadcasting, dtypes, errors, zero pivots), the
primitive's JVP / transpose rules (check_grads, hessians, dense formulas) and
its batching rule (vmap against Python loops, one primitive per vmapped solve),
then partial pivoting (the default) against LAPACK gtsv on systems that are not
diagonally dominant, and ``pivoting=False`` (Thomas).
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _lowered import lowered_text
from _systems import dense, lapack_solve
from jax.sharding import PartitionSpec as P
from jax.test_util import check_grads

from splines import cyclic_tridiagonal_solve, tridiagonal_solve

PRIMITIVE = "splines_tridiagonal_solve"


# ---------------------------------------------------------------- helpers --


def random_system(rng, batch, n, cyclic=False, dtype=np.float64):
    """A strictly diagonally dominant (..., n) system with random diagonal signs."""
    m = n if cyclic else n - 1
    lower = rng.uniform(-1, 1, batch + (m,))
    upper = rng.uniform(-1, 1, batch + (m,))
    off = np.zeros(batch + (n,))
    if cyclic:
        off += np.abs(lower) + np.abs(upper)
    else:
        off[..., 1:] += np.abs(lower)
        off[..., :-1] += np.abs(upper)
    sign = rng.choice([-1.0, 1.0], batch + (n,))
    diag = sign * (off + 0.5 + rng.uniform(0, 1, batch + (n,)))
    rhs = rng.normal(size=batch + (n,))
    return tuple(a.astype(dtype) for a in (lower, diag, upper, rhs))


def dense_cyclic(lower, diag, upper):
    """(..., n, n) cyclic matrix; entries that land on one element add (n = 2)."""
    lower, diag, upper = (np.asarray(a, np.float64) for a in (lower, diag, upper))
    n = diag.shape[-1]
    batch = np.broadcast_shapes(lower.shape[:-1], diag.shape[:-1], upper.shape[:-1])
    a = np.zeros(batch + (n, n))
    for i in range(n):
        a[..., i, i] += diag[..., i]
        a[..., i, (i - 1) % n] += lower[..., i]
        a[..., i, (i + 1) % n] += upper[..., i]
    return a


def dense_solve(a, rhs):
    wide = np.result_type(np.asarray(a).dtype, np.asarray(rhs).dtype, np.float64)
    a, rhs = np.asarray(a, wide), np.asarray(rhs, wide)  # complex systems stay complex
    batch = np.broadcast_shapes(a.shape[:-2], rhs.shape[:-1])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-1:])
    return np.linalg.solve(a, rhs[..., None])[..., 0]


def assert_rel(actual, expected, rel, what=""):
    """max |actual - expected| ≤ rel · max |expected| (norm-wise relative error)."""
    wide = np.result_type(np.asarray(actual).dtype, np.asarray(expected).dtype, np.float64)
    actual, expected = np.asarray(actual, wide), np.asarray(expected, wide)  # complex kept
    assert actual.shape == expected.shape
    if expected.size == 0:  # e.g. the (empty) off-diagonals of n = 1
        return
    scale = np.max(np.abs(expected))
    err = np.max(np.abs(actual - expected))
    assert err <= rel * scale, f"{what}relative error {err / scale:.3g} > {rel:.3g}"


SOLVES = {
    "tridiagonal": (tridiagonal_solve, dense, False),
    "cyclic": (cyclic_tridiagonal_solve, dense_cyclic, True),
}
# Transformed programs are jitted as a whole: one compile per test instead of
# one per operation and shape (eager dispatch is covered by the value tests).
JITTED = {kind: jax.jit(solve) for kind, (solve, _, _) in SOLVES.items()}


def count_eqns(jaxpr, name):
    """Equations called ``name`` in a (closed) jaxpr, including sub-jaxprs."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    total = 0
    for eqn in jaxpr.eqns:
        total += eqn.primitive.name == name
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            total += count_eqns(sub, name)
    return total


def loop_vmap(f, in_axes, args):
    """What ``jax.vmap(f, in_axes)(*args)`` must equal: a Python loop, stacked on 0."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = []
    for k in range(size):
        sliced = [a if ax is None else np.take(a, k, axis=ax) for a, ax in zip(args, in_axes)]
        outs.append(np.asarray(f(*sliced)))
    return np.stack(outs)


# ------------------------------------------------------------------ values --


@pytest.mark.parametrize("n", [1, 2, 3, 10, 257])
def test_matches_dense_f64(n):
    rng = np.random.default_rng(n)
    lower, diag, upper, rhs = random_system(rng, (), n)
    x = tridiagonal_solve(lower, diag, upper, rhs)
    assert x.dtype == jnp.float64
    assert_rel(x, dense_solve(dense(lower, diag, upper), rhs), 1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 10, 257])
def test_matches_dense_f32(n):
    rng = np.random.default_rng(100 + n)
    args = random_system(rng, (5,), n, dtype=np.float32)
    x = tridiagonal_solve(*args)
    assert x.dtype == jnp.float32
    # A dominance margin ≥ 0.5 keeps cond∞(A) ≤ 11; Thomas' backward error is a few ulps
    # per row, so 1e-5 (~80 f32 ulps) relative is comfortable but not loose.
    assert_rel(x, dense_solve(dense(*args[:3]), args[3]), 1e-5)


@pytest.mark.parametrize(
    "shapes, out_batch",
    [
        # matrix (3, 1, n) with rhs (4, n) → (3, 4, n)
        ({"lower": (3, 1), "diag": (3, 1), "upper": (3, 1), "rhs": (4,)}, (3, 4)),
        # every argument with its own broadcastable batch
        ({"lower": (2, 1, 1), "diag": (1, 3, 1), "upper": (), "rhs": (4,)}, (2, 3, 4)),
        # one batched diagonal, everything else shared
        ({"lower": (), "diag": (6,), "upper": (), "rhs": ()}, (6,)),
        # batched rhs only (many right-hand sides, one matrix)
        ({"lower": (), "diag": (), "upper": (), "rhs": (2, 5)}, (2, 5)),
    ],
)
def test_broadcast_batches(shapes, out_batch):
    n, rng = 3, np.random.default_rng(7)
    # |lower| + |upper| ≤ 2 < |diag|: dominant for every broadcast combination.
    lower = rng.uniform(-1, 1, shapes["lower"] + (n - 1,))
    upper = rng.uniform(-1, 1, shapes["upper"] + (n - 1,))
    diag_shape = shapes["diag"] + (n,)
    diag = rng.choice([-1.0, 1.0], diag_shape) * rng.uniform(2.5, 3.5, diag_shape)
    rhs = rng.normal(size=shapes["rhs"] + (n,))
    x = tridiagonal_solve(lower, diag, upper, rhs)
    assert x.shape == out_batch + (n,)
    assert_rel(x, dense_solve(dense(lower, diag, upper), rhs), 1e-12)


@pytest.mark.parametrize("n", [2, 3, 10])
def test_cyclic_matches_dense(n):
    rng = np.random.default_rng(20 + n)
    lower, diag, upper, rhs = random_system(rng, (), n, cyclic=True)
    # Make the corner entries clearly non-zero so they matter.
    lower[0], upper[-1] = 0.9, -0.8
    diag = np.sign(diag) * (np.abs(diag) + 1.7)
    x = cyclic_tridiagonal_solve(lower, diag, upper, rhs)
    a = dense_cyclic(lower, diag, upper)
    assert_rel(x, dense_solve(a, rhs), 1e-12)
    # The corners really are A[0, n-1] and A[n-1, 0]: the residual vanishes.
    np.testing.assert_allclose(a @ np.asarray(x), rhs, rtol=0, atol=1e-12)


def test_cyclic_n2_entries_add():
    # A = [[d0, u0 + l0], [l1 + u1, d1]]
    lower, diag, upper = np.array([0.3, -0.2]), np.array([3.0, 2.5]), np.array([0.5, 0.4])
    rhs = np.array([1.0, -2.0])
    a = np.array([[3.0, 0.5 + 0.3], [-0.2 + 0.4, 2.5]])
    x = cyclic_tridiagonal_solve(lower, diag, upper, rhs)
    np.testing.assert_allclose(x, np.linalg.solve(a, rhs), rtol=1e-14, atol=0)


def test_cyclic_broadcast_and_f32():
    rng = np.random.default_rng(3)
    lower, diag, upper, rhs = random_system(rng, (3, 1), 10, cyclic=True)
    rhs = rng.normal(size=(4, 10))
    solve = JITTED["cyclic"]
    x = solve(lower, diag, upper, rhs)
    assert x.shape == (3, 4, 10)
    assert_rel(x, dense_solve(dense_cyclic(lower, diag, upper), rhs), 1e-12)
    args32 = [a.astype(np.float32) for a in (lower, diag, upper, rhs)]
    x32 = solve(*args32)
    assert x32.dtype == jnp.float32
    assert_rel(x32, dense_solve(dense_cyclic(*args32[:3]), args32[3]), 1e-5)


def test_integer_inputs_are_promoted():
    lower, diag, upper, rhs = [1, 2], [5, 6, 7], [1, -1], [1, 2, 3]
    x = tridiagonal_solve(np.array(lower), np.array(diag), np.array(upper), np.array(rhs))
    assert x.dtype == jnp.float64  # jax's default float (x64 is on in the tests)
    np.testing.assert_allclose(x, np.linalg.solve(dense(lower, diag, upper), rhs), rtol=1e-14)
    # Integers next to an f32 argument join f32 (no silent upcast to f64).
    x32 = tridiagonal_solve(np.array(lower), np.array(diag, np.float32), np.array(upper),
                            np.array(rhs))  # fmt: skip
    assert x32.dtype == jnp.float32
    xc = cyclic_tridiagonal_solve(np.array([1, 1, 2]), np.array([6, 7, 8]), np.array([2, 1, 1]),
                                  np.array([1, 0, -1]))  # fmt: skip
    assert xc.dtype == jnp.float64
    a = dense_cyclic([1, 1, 2], [6, 7, 8], [2, 1, 1])
    np.testing.assert_allclose(xc, np.linalg.solve(a, [1, 0, -1]), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize(
    "bad, name",
    [
        ({"lower": np.ones(3)}, "lower"),
        ({"upper": np.ones(5)}, "upper"),
        ({"rhs": np.ones(4)}, "rhs"),
        ({"diag": np.ones(6)}, "diag"),
        ({"diag": np.float64(2.0)}, "diag"),
        ({"lower": np.ones((2, 3))}, "lower"),
    ],
)
def test_shape_errors_name_the_argument(bad, name):
    args = {"lower": np.ones(4), "diag": np.full(5, 4.0), "upper": np.ones(4), "rhs": np.ones(5)}
    args.update(bad)
    with pytest.raises(ValueError, match=f"`{name}`"):
        tridiagonal_solve(**args)


def test_batch_mismatch_error_names_the_arguments():
    with pytest.raises(ValueError, match="`lower`.*`rhs`|`rhs`.*`lower`"):
        tridiagonal_solve(np.ones((3, 4)), np.full(5, 4.0), np.ones(4), np.ones((4, 5)))


@pytest.mark.parametrize(
    "shapes",
    [((5,), (5,), (5,), (4,)), ((4,), (5,), (5,), (5,)), ((1,), (1,), (1,), (1,))],
)
def test_cyclic_shape_errors(shapes):
    args = [np.ones(s) for s in shapes]
    with pytest.raises(ValueError, match="`rhs`") as info:
        cyclic_tridiagonal_solve(*args)
    assert str(shapes[-1]) in str(info.value)  # the shapes received are reported


@pytest.mark.parametrize("dtype, jit", [(np.float64, False), (np.float32, True)])
def test_zero_pivot_is_not_finite(dtype, jit):
    # Without pivoting (Thomas), a zero pivot gives inf/NaN, never a number.
    solve = functools.partial(tridiagonal_solve, pivoting=False)
    solve = jax.jit(solve) if jit else solve
    # A zero leading pivot.
    x = solve(*(np.asarray(a, dtype) for a in ([1.0], [0.0, 1.0], [1.0], [1.0, 2.0])))
    assert not np.all(np.isfinite(x))
    # A non-singular matrix whose *second* Thomas pivot is 0 (no pivoting).
    args = [np.asarray(a, dtype) for a in ([1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0], [1, 2, 3])]
    assert abs(np.linalg.det(dense(*args[:3]))) > 0.5
    x = solve(*args)
    if jax.default_backend() == "cpu":
        assert not np.all(np.isfinite(x))
    else:  # one system on a GPU is cuSPARSE's gtsv2, which pivots: the exact answer
        np.testing.assert_allclose(x, np.linalg.solve(dense(*args[:3]), args[3]), rtol=1e-6)
    # (A zero diag[0] in the cyclic solve is no longer a zero pivot: see
    # test_cyclic_zero_diag0_is_solved.)


def test_works_under_disable_jit():
    args = random_system(np.random.default_rng(0), (), 4)
    with jax.disable_jit():
        x = tridiagonal_solve(*args)
    assert_rel(x, dense_solve(dense(*args[:3]), args[3]), 1e-12)


# ------------------------------------------------------------- gradients --


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_check_grads_all_arguments(kind):
    solve, _, cyclic = SOLVES[kind]
    # Small on purpose (order-2 checks compile many programs): n = 4 with two
    # right-hand sides for the plain solve; n = 3 for the cyclic one, where
    # every entry of A is a band or corner entry.  Default f64 tolerances.
    # The cyclic solve is many small operations: jitted as a whole it compiles
    # a few programs instead of every operation under every transformation.
    n = 3 if cyclic else 4
    args = random_system(np.random.default_rng(1), (), n, cyclic=cyclic)
    if not cyclic:
        args = args[:3] + (np.random.default_rng(2).normal(size=(2, n)),)
    check_grads(JITTED[kind] if cyclic else solve, args, order=2, modes=("fwd", "rev"))


def _dense_value(kind, theta, n, w):
    """g(θ) = wᵀ A⁻¹ b with θ = (lower, diag, upper, rhs) concatenated; numpy."""
    m = n if kind == "cyclic" else n - 1
    lower, diag, upper, rhs = np.split(theta, [m, m + n, 2 * m + n])
    return w @ dense_solve(SOLVES[kind][1](lower, diag, upper), rhs)


def _jax_value(kind, n, w):
    solve, _, cyclic = SOLVES[kind]
    m = n if cyclic else n - 1

    def g(theta):
        lower, diag, upper, rhs = jnp.split(theta, [m, m + n, 2 * m + n])
        return jnp.vdot(w, solve(lower, diag, upper, rhs))

    return g


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_hessian_and_grad_of_grad_match_finite_differences(kind):
    n = 3
    rng = np.random.default_rng(5)
    theta = np.concatenate(random_system(rng, (), n, cyclic=kind == "cyclic"))
    w = rng.normal(size=n)
    g = _jax_value(kind, n, w)
    # Central second differences of the dense numpy value, h = 1e-4:
    # truncation O(h²) ≈ 1e-8 and rounding O(ε/h²) ≈ 1e-8; 1e-6 leaves margin.
    h, p = 1e-4, theta.size
    eye = np.eye(p) * h
    f = lambda t: _dense_value(kind, t, n, w)  # noqa: E731
    h_fd = np.array(
        [[(f(theta + eye[i] + eye[j]) - f(theta + eye[i] - eye[j])
           - f(theta - eye[i] + eye[j]) + f(theta - eye[i] - eye[j])) / (4 * h * h)
          for j in range(p)] for i in range(p)]
    )  # fmt: skip
    v = rng.normal(size=p)

    @jax.jit  # the three second-order programs compiled as one
    def second_order(theta, v):
        hvp = jax.grad(lambda t: jnp.vdot(jax.grad(g)(t), v))(theta)
        return jax.hessian(g)(theta), hvp, jax.jacrev(jax.grad(g))(theta)

    hess, hvp, jac_rev_rev = (np.asarray(a) for a in second_order(theta, v))
    np.testing.assert_allclose(hess, h_fd, rtol=0, atol=1e-6)
    np.testing.assert_allclose(hess, hess.T, rtol=0, atol=1e-12)
    # grad-of-grad (reverse over reverse): a Hessian-vector product.
    np.testing.assert_allclose(hvp, h_fd @ v, rtol=0, atol=1e-5)
    # Reverse-over-reverse full matrix agrees with forward-over-reverse.
    np.testing.assert_allclose(jac_rev_rev, hess, rtol=1e-12, atol=1e-12)


# n = 1 (no off-diagonals) and n = 2 for the cyclic solve (entries that add).
RULE_CASES = [("tridiagonal", 1), ("tridiagonal", 5), ("cyclic", 2), ("cyclic", 5)]


@pytest.mark.parametrize("kind, n", RULE_CASES)
def test_jvp_matches_dense_formula_and_finite_differences(kind, n):
    solve, make_dense, cyclic = SOLVES[kind]
    rng = np.random.default_rng(11 * n)
    primals = random_system(rng, (3,), n, cyclic=cyclic)
    tangents = tuple(rng.normal(size=a.shape) for a in primals)

    @jax.jit
    def jvps(primals, tangents):
        # All tangents, then each argument's tangent alone (the others are
        # symbolic zeros inside the JVP rule).
        full = jax.jvp(solve, primals, tangents)
        alone = []
        for k in range(4):

            def partial_solve(arg, k=k):
                return solve(*primals[:k], arg, *primals[k + 1 :])

            alone.append(jax.jvp(partial_solve, (primals[k],), (tangents[k],))[1])
        return full, alone

    (x, dx), alone = jvps(primals, tangents)
    a, da = make_dense(*primals[:3]), make_dense(*tangents[:3])
    x_ref = dense_solve(a, primals[3])
    # x' = A⁻¹ (b' − A' x)
    dx_ref = dense_solve(a, tangents[3] - np.einsum("...ij,...j->...i", da, x_ref))
    assert_rel(x, x_ref, 1e-12)
    assert_rel(dx, dx_ref, 1e-12)
    # Central difference in the tangent direction, eps = 1e-6: error O(eps²).
    eps = 1e-6
    plus = dense_solve(make_dense(*(p + eps * t for p, t in zip(primals[:3], tangents[:3]))),
                       primals[3] + eps * tangents[3])  # fmt: skip
    minus = dense_solve(make_dense(*(p - eps * t for p, t in zip(primals[:3], tangents[:3]))),
                        primals[3] - eps * tangents[3])  # fmt: skip
    assert_rel(dx, (plus - minus) / (2 * eps), 1e-8)
    # Tangents in one argument only.
    for k, dx_k in enumerate(alone):
        only = tuple(t if j == k else np.zeros_like(t) for j, t in enumerate(tangents))
        da_k = make_dense(*only[:3])
        ref = dense_solve(a, only[3] - np.einsum("...ij,...j->...i", da_k, x_ref))
        assert_rel(dx_k, ref, 1e-12)


def _band_cotangents(kind, abar):
    """Cotangents of (lower, diag, upper) from a dense cotangent Ā (..., n, n)."""
    n = abar.shape[-1]
    i = np.arange(n)
    diag = abar[..., i, i]
    if kind == "cyclic":  # lower_i ↦ A[i, i-1], upper_i ↦ A[i, i+1] (mod n)
        return abar[..., i, (i - 1) % n], diag, abar[..., i, (i + 1) % n]
    return abar[..., i[1:], i[:-1]], diag, abar[..., i[:-1], i[1:]]


@pytest.mark.parametrize("kind, n", RULE_CASES)
def test_vjp_matches_dense_formula(kind, n):
    solve, make_dense, cyclic = SOLVES[kind]
    rng = np.random.default_rng(13 * n)
    primals = random_system(rng, (2,), n, cyclic=cyclic)
    xbar = rng.normal(size=(2, n))

    @jax.jit
    def value_and_pullback(primals, xbar):
        x, pullback = jax.vjp(solve, *primals)
        return x, pullback(xbar)

    x, cotangents = value_and_pullback(primals, xbar)
    a = make_dense(*primals[:3])
    x_ref = dense_solve(a, primals[3])
    # λ = A⁻ᵀ x̄;  b̄ = λ;  Ā = −λ xᵀ, read off on the bands.
    lam = dense_solve(np.swapaxes(a, -1, -2), xbar)
    abar = -lam[..., :, None] * x_ref[..., None, :]
    expected = _band_cotangents(kind, abar) + (lam,)
    assert_rel(x, x_ref, 1e-12)
    for got, want in zip(cotangents, expected):
        assert_rel(got, want, 1e-12)
    # The primitive's documented formulas, spelled out (non-cyclic only).
    if kind == "tridiagonal":
        assert_rel(cotangents[1], -lam * x_ref, 1e-12)
        assert_rel(cotangents[0], -lam[..., 1:] * x_ref[..., :-1], 1e-12)
        assert_rel(cotangents[2], -lam[..., :-1] * x_ref[..., 1:], 1e-12)


def test_transpose_is_the_transposed_solve():
    rng = np.random.default_rng(17)
    lower, diag, upper, rhs = random_system(rng, (), 7)
    lower = lower * 3  # make A clearly non-symmetric
    transpose = jax.linear_transpose(lambda b: tridiagonal_solve(lower, diag, upper, b), rhs)
    (rhs_bar,) = transpose(rhs)
    assert_rel(rhs_bar, np.linalg.solve(dense(lower, diag, upper).T, rhs), 1e-12)


def test_grad_with_broadcast_arguments_sums_over_the_broadcast():
    # One shared matrix, four right-hand sides: cotangents of the matrix bands
    # sum over the rhs batch; shapes match the inputs.
    rng = np.random.default_rng(19)
    lower, diag, upper, _ = random_system(rng, (), 5)
    rhs = rng.normal(size=(4, 5))
    w = rng.normal(size=(4, 5))
    loss = lambda *a: jnp.sum(w * tridiagonal_solve(*a))  # noqa: E731
    grads = jax.grad(loss, argnums=(0, 1, 2, 3))(lower, diag, upper, rhs)
    assert [g.shape for g in grads] == [(4,), (5,), (4,), (4, 5)]
    a = dense(lower, diag, upper)
    x = dense_solve(a, rhs)
    lam = dense_solve(a.T, w)
    abar = -np.einsum("bi,bj->ij", lam, x)
    for got, want in zip(grads, _band_cotangents("tridiagonal", abar) + (lam,)):
        assert_rel(got, want, 1e-12)


# ----------------------------------------------------------- shared bands --
#
# Bands whose batch broadcasts to rhs's reach the primitive with that batch (size-1 axes
# where shared) and are eliminated once for all the right-hand sides along those axes.

SHARED = [((), (2,)), ((), (2, 5)), ((1, 4), (3, 1)), ((3, 1), (3, 6)), ((2,), (7, 2))]


def _shared_system(rng, bands, rhs, n):
    lower, diag, upper, _ = random_system(rng, bands, n)
    return lower, diag, upper, rng.normal(size=rhs + (n,))


@pytest.mark.parametrize("bands, rhs", SHARED, ids=str)
def test_shared_bands_solve_as_if_copied_to_every_right_hand_side(bands, rhs):
    """Sizes on both sides of the in-place kernel's limit (1024 rows), with and without
    pivoting: the shape's 20 solves in one program (compiles dominate)."""
    batch = np.broadcast_shapes(bands, rhs)
    cases = {}
    for n in (1, 2, 5, 300, 1100):
        system = _shared_system(np.random.default_rng(n), bands, rhs, n)
        copied = tuple(np.broadcast_to(v, batch + v.shape[-1:]) for v in system)
        for pivoting in (False, True):
            cases[n, pivoting] = system, copied

    @jax.jit
    def solve_each(cases):
        return {(n, pivoting): [tridiagonal_solve(*args, pivoting=pivoting) for args in pair]
                for (n, pivoting), pair in cases.items()}  # fmt: skip

    for (n, pivoting), (shared, own) in solve_each(cases).items():
        what = f"n={n}, pivoting={pivoting}: "
        if pivoting:  # x_{n-1} = r / p: XLA may divide by a shared p as a product with 1/p
            np.testing.assert_allclose(shared, own, rtol=0, atol=4e-16 * np.abs(own).max(),
                                       err_msg=what)  # fmt: skip
        else:
            np.testing.assert_array_equal(shared, own, err_msg=what)
        copied = cases[n, pivoting][1]
        assert_rel(shared, dense_solve(dense(*copied[:3]), copied[3]), 1e-12, what)


@pytest.mark.parametrize("pivoting", [False, True])
@pytest.mark.parametrize("columns", [2, 5, 12])
def test_shared_bands_near_the_float32_limit_divide(columns, pivoting):
    # XLA turns a division by a broadcast pivot into a product with its reciprocal, which
    # flushes to 0 past 8.5e37 in float32: the solution would be 0 (from a break-it pass).
    scale = np.float32(1e38)
    for n in (1, 3, 40):
        lower, upper = np.full((2, n - 1), 0.25, np.float32)
        diag, b = np.full(n, 2, np.float32), np.ones((columns, n), np.float32)
        solve = jax.jit(functools.partial(tridiagonal_solve, pivoting=pivoting))
        x = solve(scale * lower, scale * diag, scale * upper, scale * b / 2)
        np.testing.assert_allclose(x, solve(lower, diag, upper, b / 2), rtol=1e-6)


@pytest.mark.parametrize("pivoting", [False, True])
def test_shared_bands_with_no_right_hand_side(pivoting):
    solve = jax.jit(functools.partial(tridiagonal_solve, pivoting=pivoting))
    for shape in [(0, 5), (3, 0, 5), (0, 1, 5)]:
        x = solve(np.ones(4), np.full(5, 4.0), np.ones(4), np.zeros(shape))
        assert x.shape == shape


def test_shared_bands_reach_the_primitive_unbroadcast():
    args = _shared_system(np.random.default_rng(1), (), (8,), 6)
    jaxpr = jax.make_jaxpr(functools.partial(tridiagonal_solve, pivoting=False))(*args)
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == PRIMITIVE]
    assert [v.aval.shape for v in eqn.invars] == [(1, 5), (1, 6), (1, 5), (8, 6)]
    # vmapped over the right-hand sides only: the bands get a shared axis of size 1.
    jaxpr = jax.make_jaxpr(jax.vmap(functools.partial(tridiagonal_solve, pivoting=False),
                                    in_axes=(None, None, None, 0)))(*args)  # fmt: skip
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == PRIMITIVE]
    assert [v.aval.shape for v in eqn.invars] == [(1, 5), (1, 6), (1, 5), (8, 6)]


@pytest.mark.parametrize("pivoting", [False, True])
@pytest.mark.parametrize("columns", [2, 12])  # one native loop; the bands' own sweep first
def test_check_grads_with_shared_bands(columns, pivoting):
    args = _shared_system(np.random.default_rng(columns), (), (columns,), 7)
    solve = functools.partial(tridiagonal_solve, pivoting=pivoting)
    check_grads(solve, args, order=2, modes=["fwd", "rev"])


@pytest.mark.parametrize("pivoting", [False, True])
@pytest.mark.parametrize("columns", [3, 12])
def test_a_non_finite_right_hand_side_stays_in_its_column(columns, pivoting):
    lower, diag, upper, b = _shared_system(np.random.default_rng(3), (), (columns,), 40)
    b[1, 17], b[2, 5] = np.nan, np.inf
    x = np.asarray(jax.jit(functools.partial(tridiagonal_solve, pivoting=pivoting))(
        lower, diag, upper, b))  # fmt: skip
    assert not np.isfinite(x[1:3]).all() and np.isfinite(np.delete(x, [1, 2], 0)).all()
    clean = np.delete(b, [1, 2], 0)
    assert_rel(np.delete(x, [1, 2], 0), dense_solve(dense(lower, diag, upper), clean), 1e-12)


# --------------------------------------------------------------- batching --


def _batched_args(rng, n, in_axes, size=3, cyclic=False):
    """Arguments where each mapped one carries a batch of `size` at its axis."""
    base = random_system(rng, (size, 2), n, cyclic=cyclic)  # (size, 2, m)
    args = []
    for a, ax in zip(base, in_axes):
        if ax is None:
            args.append(a[0])  # shape (2, m): a leading batch that broadcasts
        else:
            args.append(np.moveaxis(a, 0, ax if ax >= 0 else a.ndim + ax))
    return args


IN_AXES = [
    (0, None, None, None),
    (None, 0, None, None),
    (None, None, 0, None),
    (None, None, None, 0),
    (0, 0, 0, 0),
    (1, None, -1, 0),
    (None, 1, None, -1),
    (-1, -1, -1, -1),
    (None, 2, 0, None),
]


# The cyclic solve batches through the same primitive; a subset suffices.
CASES = [("tridiagonal", a) for a in IN_AXES] + [
    ("cyclic", a) for a in [(0, None, None, None), (None, None, None, 0), (1, None, -1, 0)]
]


@pytest.mark.parametrize("kind, in_axes", CASES, ids=str)
def test_vmap_equals_loop(kind, in_axes):
    solve, _, cyclic = SOLVES[kind]
    args = _batched_args(np.random.default_rng(23), 6, in_axes, cyclic=cyclic)
    # Eager vmap of the primitive: every case batches to the same operand shapes.  The
    # cyclic solve (many small operations) is jitted as a whole: one compile, not one per
    # operation; it batches through the same primitive.
    vmapped = jax.vmap(solve, in_axes=in_axes)
    out = (jax.jit(vmapped) if cyclic else vmapped)(*args)
    expected = loop_vmap(JITTED[kind], in_axes, args)
    assert out.shape == expected.shape == (3, 2, 6)
    np.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("in_axes", [(0, None, None, 0), (None, 1, None, -1)], ids=str)
def test_vmap_out_axes(in_axes):
    args = _batched_args(np.random.default_rng(29), 5, in_axes)
    out = jax.jit(jax.vmap(tridiagonal_solve, in_axes=in_axes, out_axes=-1))(*args)
    np.testing.assert_allclose(
        out, np.moveaxis(loop_vmap(JITTED["tridiagonal"], in_axes, args), 0, -1),
        rtol=1e-13, atol=1e-14,
    )  # fmt: skip


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_nested_vmap_equals_double_loop(kind):
    solve, _, cyclic = SOLVES[kind]
    rng = np.random.default_rng(31)
    n, m = 5, (5 if cyclic else 4)
    lower = rng.uniform(-1, 1, (3, m))  # batched over the outer axis
    upper = rng.uniform(-1, 1, (m, 4))  # batched over the inner axis (at the end)
    diag = 3 + rng.uniform(0, 1, (n,))  # shared
    rhs = rng.normal(size=(4, 3, n))  # inner axis 0, outer axis 1
    inner = jax.vmap(solve, in_axes=(None, None, -1, 0))
    outer = jax.vmap(inner, in_axes=(0, None, None, 1))
    out = jax.jit(outer)(lower, diag, upper, rhs)
    assert out.shape == (3, 4, n)
    one = JITTED[kind]
    expected = np.array(
        [[one(lower[i], diag, upper[:, j], rhs[j, i]) for j in range(4)] for i in range(3)]
    )
    np.testing.assert_allclose(out, expected, rtol=1e-13, atol=1e-14)
    jaxpr = jax.make_jaxpr(outer)(lower, diag, upper, rhs)
    assert count_eqns(jaxpr, PRIMITIVE) == 1


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_vmap_of_grad_equals_loop(kind):
    solve, _, cyclic = SOLVES[kind]
    in_axes = (0, None, 0, 0)
    args = _batched_args(np.random.default_rng(37), 5, in_axes, cyclic=cyclic)
    w = np.random.default_rng(38).normal(size=(2, 5))

    def loss(*a):
        x = solve(*a)
        return jnp.sum(w * x**2)

    grad = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))
    batched = jax.jit(jax.vmap(grad, in_axes=in_axes))(*args)
    for k, got in enumerate(batched):
        want = loop_vmap(lambda *a, k=k: grad(*a)[k], in_axes, args)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
    # Transposed and batched: still primitives only, no loop over systems.
    jaxpr = jax.make_jaxpr(jax.vmap(grad, in_axes=in_axes))(*args)
    assert count_eqns(jaxpr, PRIMITIVE) >= 2  # forward solve + adjoint solve
    assert count_eqns(jaxpr, "scan") == count_eqns(jaxpr, "while") == 0


@pytest.mark.parametrize("in_axes", IN_AXES, ids=str)
@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_vmap_goes_through_one_primitive(kind, in_axes):
    solve, _, cyclic = SOLVES[kind]
    args = _batched_args(np.random.default_rng(41), 6, in_axes, size=7, cyclic=cyclic)
    jaxpr = jax.make_jaxpr(jax.vmap(solve, in_axes=in_axes))(*args)
    assert count_eqns(jaxpr, PRIMITIVE) == 1
    assert count_eqns(jaxpr, "scan") == count_eqns(jaxpr, "while") == 0
    # The one equation sees the whole batch: the vmapped axis is a kernel lane.
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == PRIMITIVE]
    assert 7 in eqn.outvars[0].aval.shape


@pytest.mark.parametrize(
    "pivoting, kernel", [(True, "splines_gtsv_scan"), (False, "splines_thomas_scan")]
)
def test_compiled_program_does_not_loop_over_systems(pivoting, kernel):
    # The kernel's sweeps are the only loops: the lowered program has the same
    # loops and kernel calls whatever the batch size (a loop over systems would
    # add a `while`, or one kernel call per system if unrolled).  The unroll
    # factor inside the sweeps may differ between one system and a batch.
    n = 257
    structure = set()
    solve = functools.partial(tridiagonal_solve, pivoting=pivoting)
    for size in (2, 32):  # (one small system is solved in place: `thomas_inplace`)
        args = random_system(np.random.default_rng(size), (size,), n)
        text = lowered_text(jax.vmap(solve), *args, platform="cpu")
        # Exactly one of the two kernels, the one `pivoting` asks for.
        assert ("splines_thomas_scan" in text) != ("splines_gtsv_scan" in text)
        structure.add((text.count("stablehlo.while"), text.count(f"call @{kernel}")))
    assert len(structure) == 1
    ((loops, calls),) = structure
    assert 1 <= loops <= 2 and calls >= 1  # forward and backward sweeps


# -------------------------------------------------------------- pivoting --
#
# Accuracy bound used below.  LAPACK gtsv is Gaussian elimination with partial
# pivoting: the computed x̂ solves (A + ΔA) x̂ = b with |ΔA| ≤ c·u·|L||U| for a
# small constant c (each entry of LU is a sum of at most three products), where
# |L| ≤ 1 entrywise (partial pivoting) and U's entries are at most twice A's
# largest (partial pivoting's growth factor on a tridiagonal matrix is ≤ 2:
# Higham, "Accuracy and Stability of Numerical Algorithms", ch. 9).  So the normwise
# backward error η = ‖b − A x̂‖∞ / (‖A‖∞ ‖x̂‖∞ + ‖b‖∞) is a small multiple of
# the unit roundoff, independent of n and of the conditioning, and the forward
# error is at most ~2 κ∞(A) η.  We ask η ≤ 8 ε and forward error ≤ 32 κ∞(A) ε
# (ε = machine epsilon = 2u) — both with room over the ~0.5 ε measured for gtsv
# and for us on these systems, and far below what an unpivoted solve reaches
# on them.  Residuals and reference solves are computed in f64 from the exact
# (dtype-rounded) inputs.

ETA_BOUND = 8  # × ε: backward error
FORWARD_BOUND = 32  # × κ∞(A) ε: forward error


def nondominant_system(rng, batch, n, cyclic=False, dtype=np.float64):
    """Standard normal bands and rhs: no dominance, pivots of every size, swaps."""
    m = n if cyclic else n - 1
    shapes = (batch + (m,), batch + (n,), batch + (m,), batch + (n,))
    return tuple(rng.normal(size=shape).astype(dtype) for shape in shapes)


def backward_error(a, x, b):
    """Normwise backward error per system, in f64: ‖b − A x‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞)."""
    x, b = np.asarray(x, np.float64), np.asarray(b, np.float64)
    r = b - np.einsum("...ij,...j->...i", a, x)
    scale = np.abs(a).sum(-1).max(-1) * np.abs(x).max(-1) + np.abs(b).max(-1)
    return np.abs(r).max(-1) / scale


def assert_solved_as_gtsv(x, a, b, dtype, x_lapack=None):
    """x solves A x = b (batched dense a) to LAPACK gtsv's accuracy (bounds above)."""
    eps = np.finfo(dtype).eps
    x = np.asarray(x, np.float64)
    assert x.shape == np.shape(b) and np.all(np.isfinite(x))
    eta = backward_error(a, x, b)
    assert np.max(eta) <= ETA_BOUND * eps, f"backward error {np.max(eta) / eps:.3g} ε"
    exact = dense_solve(a, b)
    kappa = np.linalg.cond(a, np.inf)
    for ref in (exact,) if x_lapack is None else (exact, np.asarray(x_lapack, np.float64)):
        err = np.abs(x - ref).max(-1) / np.abs(exact).max(-1)
        assert np.all(err <= FORWARD_BOUND * kappa * eps), np.max(err / (kappa * eps))


def gtsv_swaps(lower, diag, upper):
    """Row interchanges of LAPACK dgtsv's elimination: a numpy port of its loop."""
    d, du = np.array(diag, np.float64), np.array(upper, np.float64)
    swaps = []
    for i in range(len(d) - 1):
        swap = abs(d[i]) < abs(lower[i])  # dgtsv: IF( ABS( D(I) ).GE.ABS( DL(I) ) ) no swap
        if swap:
            fact = d[i] / lower[i]
            d[i], d[i + 1], du[i] = lower[i], du[i] - fact * d[i + 1], d[i + 1]
            if i + 1 < len(du):
                du[i + 1] = -fact * du[i + 1]
        else:
            d[i + 1] -= lower[i] / d[i] * du[i]
        swaps.append(swap)
    return swaps


def thomas_numpy(lower, diag, upper, rhs):
    """The Thomas recurrence of `splines_thomas_scan`, in f64 numpy (one system)."""
    n = len(diag)
    a = np.concatenate([[0.0], lower])
    c_p, d_p = np.zeros(n), np.zeros(n)
    for i in range(n):
        inv_w = 1 / (diag[i] - a[i] * (c_p[i - 1] if i else 0.0))
        c_p[i] = (upper[i] if i < n - 1 else 0.0) * inv_w
        d_p[i] = (rhs[i] - a[i] * (d_p[i - 1] if i else 0.0)) * inv_w
    x = np.zeros(n)
    for i in reversed(range(n)):
        x[i] = d_p[i] - c_p[i] * (x[i + 1] if i < n - 1 else 0.0)
    return x


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_the_issue_reproducer_is_solved(dtype):
    # A[0, 0] = 1e-20 is a tiny but nonzero pivot: Thomas returned [0, 1, 2].
    x = tridiagonal_solve(*(np.asarray(a, dtype) for a in ([1, 1], [1e-20, 1, 1], [1, 1],
                                                           [1, 2, 3])))  # fmt: skip
    assert x.dtype == dtype
    np.testing.assert_allclose(x, [-1.0, 1.0, 2.0], rtol=np.finfo(dtype).eps, atol=0)
    # The call exactly as the issue wrote it (Python lists).
    np.testing.assert_allclose(
        tridiagonal_solve([1, 1], [1e-20, 1, 1], [1, 1], [1, 2, 3]), [-1, 1, 2], rtol=1e-15
    )


def _block_diagonal(systems):
    """One tridiagonal system holding independent blocks (zero coupling entries)."""
    zero = np.zeros(systems[0][0].shape[:-1] + (1,), systems[0][0].dtype)
    lower = np.concatenate(sum(([zero, s[0]] for s in systems), [])[1:], axis=-1)
    upper = np.concatenate(sum(([s[2], zero] for s in systems), [])[:-1], axis=-1)
    diag, rhs = (np.concatenate([s[k] for s in systems], axis=-1) for k in (1, 3))
    return lower, diag, upper, rhs


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_non_dominant_systems_are_solved_as_lapack_gtsv(dtype):
    rng = np.random.default_rng(47)
    cases = []
    # One system (the kernel's one-system unroll: n = 1…4 cover every padding,
    # and a longer one), batches (4, 3) and (20,), and every n = 1…50 as the blocks of
    # one batched system of length 1275 (zero couplings: the elimination
    # restarts at each block as for a new system) — one compile, not fifty.
    for n in (1, 2, 3, 4, 50):
        cases.append([nondominant_system(rng, (), n, dtype=dtype)])
    for n in (2, 50):
        cases.append([nondominant_system(rng, (4, 3), n, dtype=dtype)])
    # Batches the CPU chains (`_lanes.to_chains`: 20 systems in 4 or 2 lanes), and one
    # too large to chain, in lanes past what the kernel stacks (`_MAX_STACKED_LANES`).
    cases.append([nondominant_system(rng, (20,), 50, dtype=dtype)])
    cases.append([nondominant_system(rng, (65,), 9, dtype=dtype)])
    cases.append([nondominant_system(rng, (8,), n, dtype=dtype) for n in range(1, 51)])
    for blocks in cases:
        system = _block_diagonal(blocks)
        x, x_lapack = tridiagonal_solve(*system), lapack_solve(*system)
        assert x.dtype == dtype
        x, x_lapack = np.asarray(x), np.asarray(x_lapack)  # sliced below: numpy, not jax
        start = 0
        for lower, diag, upper, rhs in blocks:
            block = slice(start, start + diag.shape[-1])
            start = block.stop
            assert_solved_as_gtsv(x[..., block], dense(lower, diag, upper), rhs, dtype,
                                  x_lapack[..., block])  # fmt: skip
    # The bound tells pivoting from none: Thomas fails it on the same systems.
    blocks = cases[-1]
    x = np.asarray(tridiagonal_solve(*_block_diagonal(blocks), pivoting=False), np.float64)
    eta = np.concatenate(
        [backward_error(dense(*b[:3]), x[..., sum(range(n)) : sum(range(n + 1))], b[3])
         for n, b in enumerate(blocks, 1)]
    )  # fmt: skip
    assert not np.all(eta <= ETA_BOUND * np.finfo(dtype).eps)  # (a NaN fails too)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("partitioned", [False, True], ids=["chained", "lanes"])
def test_batched_pivoted_systems_are_independent(dtype, partitioned):
    # On one device the CPU chains a batch end to end in a few lanes; partitioned
    # programs keep one system per lane.  Either way a system's answer is its own:
    # NaN, inf or a singular matrix in one system leaves every other bit for bit
    # as in the clean batch, whichever link of a chain it sits in.  (complex64 is
    # never chained: `gtsv_scan.native_lanes`.)
    from splines._linalg.kernels import CPU_KERNELS

    rng = np.random.default_rng(71)
    solve = jax.jit(CPU_KERNELS.pick(True, partitioned=partitioned))
    for shape in ((5,), (3, 7), (12,), (40,)):  # one link past the lanes … many links
        system = [np.asarray(a) for a in nondominant_system(rng, shape, 9, dtype=dtype)]
        clean = np.asarray(solve(*system))
        assert_rel(clean, tridiagonal_solve(*system, pivoting=True), 8 * np.finfo(dtype).eps)
        flat = [a.reshape(-1, a.shape[-1]) for a in system]
        poisoned = {1: (3, 4, np.nan), 2: (3, 0, np.inf), 4: (1, 2, np.inf)}
        for k, (band, i, value) in poisoned.items():
            flat[band][k, i] = value
        singular = len(flat[0]) - 1  # a zero matrix in the last link
        for band in range(3):
            flat[band][singular] = 0
        x = np.asarray(solve(*(a.reshape(b.shape) for a, b in zip(flat, system))))
        x = x.reshape(-1, x.shape[-1])
        ok = [k for k in range(len(x)) if k not in (*poisoned, singular)]
        np.testing.assert_array_equal(x[ok], clean.reshape(x.shape)[ok])
        # (An inf on the diagonal is divided away, as in LAPACK: system 4 may be finite.)
        assert not np.isfinite(x[[1, 2, singular]]).all(axis=-1).any()


def test_a_chained_system_is_solved_as_alone_at_the_float_range_and_symbolic_length():
    # A system's last unknown is r / p wherever it sits in a chain: r · (1/p) would
    # give 0, as the reciprocal of a float64 pivot past 4.5e307 flushes to 0.
    one = [np.array(a, np.float64) for a in ([0.5, 0.5], [1, 1, 1e308], [0.5, 0.5])]
    rhs = dense(*one) @ np.array([1.0, 2.0, 0.5])
    batch = [np.broadcast_to(a, (3,) + a.shape) for a in (*one, rhs)]
    np.testing.assert_array_equal(tridiagonal_solve(*batch), np.broadcast_to(
        tridiagonal_solve(*one, rhs), (3, 3)))  # fmt: skip
    # The chain's flags are built in the program: a symbolic n exports.
    n = jax.export.symbolic_shape("n")[0]
    shapes = [jax.ShapeDtypeStruct((8, m), np.float32) for m in (n - 1, n, n - 1, n)]
    exported = jax.export.export(jax.jit(tridiagonal_solve))(*shapes)
    system = random_system(np.random.default_rng(5), (8,), 6, dtype=np.float32)
    np.testing.assert_array_equal(exported.call(*system), tridiagonal_solve(*system))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_pivoted_batch_runs_as_native_loops_up_to_the_chains_length(dtype):
    # XLA:CPU compiles a loop into one native call (`xla_cpu_small_call`) only while
    # an iteration stays small; the chained layout keeps both sweeps there for every
    # batch it takes (docs/architecture.md §6).  Past it, the lanes take over.
    from splines._linalg.kernels.gtsv_scan import _MAX_LINKS, native_lanes

    most = _MAX_LINKS * native_lanes(dtype)
    for batch, native in ((1, True), (native_lanes(dtype) + 1, True), (most, True),
                          (most + 1, False)):  # fmt: skip
        system = random_system(np.random.default_rng(batch), (batch,), 33, dtype=dtype)
        text = jax.jit(tridiagonal_solve).lower(*system).compile().as_text()
        loops = text.count(" while(")
        assert loops == 2 and (text.count("xla_cpu_small_call") == loops) == native, batch


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_row_interchange_at_every_row(dtype):
    rng = np.random.default_rng(53)
    # |lower| = 4 beats every pivot candidate, which stays below 4: dgtsv swaps
    # at every step.
    n = 50
    lower = (4 * rng.choice([-1, 1], (4, 3, n - 1))).astype(dtype)
    diag, upper = (rng.uniform(-1, 1, (4, 3, m)).astype(dtype) for m in (n, n - 1))
    rhs = rng.normal(size=(4, 3, n)).astype(dtype)
    for k in np.ndindex(4, 3):
        assert all(gtsv_swaps(lower[k], diag[k], upper[k]))
    x = tridiagonal_solve(lower, diag, upper, rhs)
    assert_solved_as_gtsv(x, dense(lower, diag, upper), rhs, dtype,
                          lapack_solve(lower, diag, upper, rhs))  # fmt: skip
    # One system (the kernel's one-system unroll).
    x = tridiagonal_solve(lower[0, 0], diag[0, 0], upper[0, 0], rhs[0, 0])
    assert_solved_as_gtsv(x, dense(lower[0, 0], diag[0, 0], upper[0, 0]), rhs[0, 0], dtype)


@pytest.mark.parametrize(
    "dtype, tiny",
    [(np.float64, 0.0), (np.float64, 1e-20), (np.float64, 1e-300), (np.float32, 0.0),
     (np.float32, 1e-20)],
)  # fmt: skip
def test_zero_and_tiny_diagonals(dtype, tiny):
    rng = np.random.default_rng(59)
    # The whole diagonal is `tiny`: with n even and nonzero off-diagonals A is
    # nonsingular (det = ∏ −lower_k upper_k over pairs when tiny = 0).
    n = 50
    lower, upper = (rng.choice([-1, 1], (4, 3, n - 1)) * rng.uniform(0.5, 2, (4, 3, n - 1))
                    for _ in range(2))  # fmt: skip
    diag = np.full((4, 3, n), tiny)
    rhs = rng.normal(size=(4, 3, n))
    args = [a.astype(dtype) for a in (lower, diag, upper, rhs)]
    x = tridiagonal_solve(*args)
    assert_solved_as_gtsv(x, dense(*args[:3]), args[3], dtype, lapack_solve(*args))
    # Tiny entries inside an otherwise random system (one system).
    lower, diag, upper, rhs = nondominant_system(rng, (), 50, dtype=dtype)
    diag[[0, 17, 49]] = tiny
    x = tridiagonal_solve(lower, diag, upper, rhs)
    assert_solved_as_gtsv(x, dense(lower, diag, upper), rhs, dtype,
                          lapack_solve(lower, diag, upper, rhs))  # fmt: skip


def test_no_pivoting_gives_the_thomas_answers():
    rng = np.random.default_rng(61)
    # Dominant systems: the Thomas recurrence, to rounding.
    for n in (1, 4, 50):
        args = random_system(rng, (), n)
        x = tridiagonal_solve(*args, pivoting=False)
        np.testing.assert_allclose(x, thomas_numpy(*args), rtol=1e-14, atol=1e-15)
    # A non-dominant system whose Thomas pivots are nonzero: still no row
    # interchange, i.e. the Thomas answer (which differs from the pivoted one).
    args = nondominant_system(rng, (), 50)
    x = tridiagonal_solve(*args, pivoting=False)
    expected = thomas_numpy(*args)
    assert_rel(x, expected, 1e-10)
    assert any(gtsv_swaps(*args[:3]))
    # The issue's reproducer: Thomas' answer is the wrong [0, 1, 2].
    x = tridiagonal_solve([1, 1], [1e-20, 1, 1], [1, 1], [1, 2, 3], pivoting=False)
    np.testing.assert_allclose(x, [0.0, 1.0, 2.0], rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(x, thomas_numpy([1, 1], [1e-20, 1, 1], [1, 1], [1, 2, 3]),
                               rtol=1e-15)  # fmt: skip


# Singular matrices whose elimination is exact in floating point (small
# integers): the zero pivot is exactly 0, as LAPACK would report it (info > 0).
SINGULAR = {
    "n=1 zero": ([], [0], [], [1]),
    "zero matrix": ([0, 0], [0, 0, 0], [0, 0], [1, 2, 3]),
    "zero row": ([1, 0, 2], [3, 0, 1, 2], [1, 0, 1], [1, 2, 3, 4]),
    "zero column": ([1, 2, 0], [3, 1, 0, 2], [1, 0, 1], [1, 2, 3, 4]),
    "zero diagonal, odd n": ([1, -2, 3, 1], [0, 0, 0, 0, 0], [2, 1, -1, 3], [1, 2, 3, 4, 5]),
    "equal rows": ([1, 1, 3], [1, 2, 2, 1], [2, 0, 1], [1, 1, 1, 1]),
    "last two rows parallel": ([1, 0, 1], [3, 1, 2, 2], [1, 4, 4], [1, 2, 3, 4]),
    "parallel rows, swapped": ([2, 1], [1, 2, 1], [1, 0], [1, 0, 1]),
}


@pytest.mark.parametrize("pivoting", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(SINGULAR))
def test_singular_matrices_give_non_finite_output(name, dtype, pivoting):
    args = [np.asarray(a, dtype) for a in SINGULAR[name]]
    assert abs(np.linalg.det(dense(*args[:3]))) == 0
    x = tridiagonal_solve(*args, pivoting=pivoting)
    assert not np.all(np.isfinite(x)), x


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_check_grads_pivoted_non_dominant(kind):
    solve, make_dense, cyclic = SOLVES[kind]
    rng = np.random.default_rng(67)
    n = 3 if cyclic else 4
    args = list(nondominant_system(rng, (), n, cyclic=cyclic))
    args[1] = 0.1 * args[1]  # small diagonal: the pivoted path swaps rows
    if cyclic:
        args[1][0] = 0.0  # γ's sign flips across diag[0] = 0; x does not care
    else:
        assert any(gtsv_swaps(*args[:3]))
        args[3] = rng.normal(size=(2, n))
    assert np.linalg.cond(make_dense(*args[:3])) < 100
    fun = JITTED[kind] if cyclic else solve
    check_grads(fun, args, order=2, modes=("fwd", "rev"))


def test_transpose_of_a_pivoted_solve():
    rng = np.random.default_rng(71)
    lower, diag, upper, rhs = nondominant_system(rng, (), 7)
    diag = 0.1 * diag
    a = dense(lower, diag, upper)
    assert any(gtsv_swaps(lower, diag, upper)) and any(gtsv_swaps(upper, diag, lower))
    for pivoting in (True, False):
        solve = lambda b, p=pivoting: tridiagonal_solve(lower, diag, upper, b, pivoting=p)  # noqa: E731
        (rhs_bar,) = jax.linear_transpose(solve, rhs)(rhs)
        if pivoting:
            assert_solved_as_gtsv(rhs_bar, a.T, rhs, np.float64)
        else:  # Thomas on Aᵀ: the same recurrence with the bands swapped
            assert_rel(rhs_bar, thomas_numpy(upper, diag, lower, rhs), 1e-10)


def _solve_eqns(jaxpr):
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == PRIMITIVE:
            yield eqn
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            yield from _solve_eqns(sub)


@pytest.mark.parametrize("pivoting", [True, False])
@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
def test_rules_keep_the_pivoting_setting(kind, pivoting):
    # JVP, transpose and batching bind the primitive with the caller's setting.
    solve, _, cyclic = SOLVES[kind]
    args = random_system(np.random.default_rng(73), (3,), 5, cyclic=cyclic)

    def loss(*a):
        return jnp.sum(solve(*a, pivoting=pivoting) ** 2)

    programs = [
        jax.make_jaxpr(jax.vmap(jax.grad(loss, argnums=(0, 1, 2, 3))))(*args),
        jax.make_jaxpr(jax.jacfwd(jax.grad(loss, argnums=1)))(*args),
    ]
    for jaxpr in programs:
        eqns = list(_solve_eqns(jaxpr))
        assert len(eqns) >= 2
        assert all(eqn.params == {"pivoting": pivoting} for eqn in eqns)


@pytest.mark.parametrize("pivoting", [True, False])
@pytest.mark.parametrize("in_axes", IN_AXES, ids=str)
def test_vmap_with_pivoting_either_way(in_axes, pivoting):
    rng = np.random.default_rng(79)
    make = nondominant_system if pivoting else random_system
    base = make(rng, (3, 2), 6)  # size-3 vmapped axis, then a broadcast batch of 2
    args = [a[0] if ax is None else np.moveaxis(a, 0, ax if ax >= 0 else a.ndim + ax)
            for a, ax in zip(base, in_axes)]  # fmt: skip
    solve = functools.partial(tridiagonal_solve, pivoting=pivoting)
    out = jax.vmap(solve, in_axes=in_axes)(*args)
    # The reference: every argument with its mapped axis in front, solved densely.
    front = [a if ax is None else np.moveaxis(a, ax, 0) for a, ax in zip(args, in_axes)]
    a = dense(*front[:3])
    if pivoting:
        rhs = np.broadcast_to(front[3], (3, 2, 6))
        assert_solved_as_gtsv(out, np.broadcast_to(a, (3, 2, 6, 6)), rhs, np.float64)
    else:
        assert_rel(out, dense_solve(a, front[3]), 1e-12)
    jaxpr = jax.make_jaxpr(jax.vmap(solve, in_axes=in_axes))(*args)
    (eqn,) = list(_solve_eqns(jaxpr))
    assert eqn.params == {"pivoting": pivoting}
    assert 3 in eqn.outvars[0].aval.shape


@pytest.mark.parametrize("kind", ["tridiagonal", "cyclic"])
@pytest.mark.parametrize("bad", [1, 0, None, "yes", np.True_, jnp.asarray(True)], ids=repr)
def test_pivoting_must_be_a_python_bool(kind, bad):
    solve, _, cyclic = SOLVES[kind]
    args = random_system(np.random.default_rng(0), (), 4, cyclic=cyclic)
    with pytest.raises(TypeError, match="`pivoting`"):
        solve(*args, pivoting=bad)
    # Nor a traced value: the setting picks the compiled kernel.
    with pytest.raises(TypeError, match="`pivoting`"):
        jax.jit(lambda p: solve(*args, pivoting=p))(True)


# ------------------------------------------------ cyclic, not dominant --


@pytest.mark.parametrize("pivoting", [True, False])
def test_cyclic_zero_diag0_is_solved(pivoting):
    # Nonsingular, diag[0] = 0: γ = −diag[0] used to divide by zero here.  Jitted as a
    # whole (the cyclic solve is many small operations; eager calls: the value tests).
    solve = jax.jit(functools.partial(cyclic_tridiagonal_solve, pivoting=pivoting))
    args = [np.ones(3), np.array([0.0, 3, 3]), np.ones(3), np.array([1.0, 2.0, 3.0])]
    a = dense_cyclic(*args[:3])
    x = solve(*args)
    np.testing.assert_allclose(x, np.linalg.solve(a, args[3]), rtol=1e-14, atol=1e-15)
    # diag[0] = 0 and both corners 0 (γ = −1), in f32 too.
    args = [np.array([0.0, 1, 2, 1]), np.array([0.0, 3, 3, 4]), np.array([1.0, 1, 1, 0]),
            np.array([1.0, 2, 3, 4])]  # fmt: skip
    for dtype, rel in ((np.float64, 1e-14), (np.float32, 1e-6)):
        x = solve(*(v.astype(dtype) for v in args))
        assert x.dtype == dtype
        assert_rel(x, np.linalg.solve(dense_cyclic(*args[:3]), args[3]), rel)


def _cyclic_t(lower, diag, upper):
    """T = A − u vᵀ for the documented γ (`_cyclic`'s docstring), densely."""
    alpha, beta, d0 = upper[..., -1], lower[..., 0], diag[..., 0]
    m = np.maximum(np.abs(d0), np.maximum(np.abs(alpha), np.abs(beta)))
    gamma = np.where(m == 0, -1.0, -np.where(d0 < 0, -1.0, 1.0) * m)
    t = dense_cyclic(lower, diag, upper)
    t[..., 0, 0] -= gamma
    t[..., -1, -1] -= alpha * beta / gamma
    t[..., 0, -1] -= beta  # the corners leave (for n = 2 they had added up)
    t[..., -1, 0] -= alpha
    return t


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cyclic_non_dominant_matches_dense(dtype):
    rng = np.random.default_rng(83)
    eps = np.finfo(dtype).eps
    for n in (2, 3, 20):
        args = nondominant_system(rng, (200,), n, cyclic=True, dtype=dtype)
        args[1][:50, 0] = 0  # a quarter with diag[0] = 0
        x = np.asarray(JITTED["cyclic"](*args), np.float64)
        assert np.all(np.isfinite(x))
        a, t = dense_cyclic(*args[:3]), _cyclic_t(*args[:3])
        # Sherman–Morrison solves with T, not A: it is as accurate as the pivoted
        # tridiagonal solve when T is no worse conditioned than A, and loses
        # accuracy with κ(T) otherwise (on 2000 random systems per n: error
        # ≤ 1 ε·max(κ(A), κ(T)) but up to ~130 ε·κ(A)).  Bound as above, with
        # max(κ(A), κ(T)) for κ(A).
        kappa = np.maximum(np.linalg.cond(a, np.inf), np.linalg.cond(t, np.inf))
        exact = dense_solve(a, args[3])
        err = np.abs(x - exact).max(-1) / np.abs(exact).max(-1)
        assert np.all(err <= FORWARD_BOUND * kappa * eps), np.max(err / (kappa * eps))
        # Where T is no worse conditioned than A (about half of these random
        # matrices), the backward error is gtsv's.
        good = np.linalg.cond(t, np.inf) <= np.linalg.cond(a, np.inf)
        assert np.mean(good) > 0.25
        assert np.max(backward_error(a[good], x[good], args[3][good])) <= ETA_BOUND * eps


# -------------------------------------------- inside shard_map, exported with a symbolic batch


@pytest.mark.parametrize("kind", ["pivoting", "thomas", "cyclic"])
def test_shard_map_checks_the_solve_and_its_gradients(kind):
    # shard_map's default check_vma types every value by the mesh axes it varies over:
    # a loop carry must vary as the rows do, and the solve's output as any operand
    # does — here only the right-hand side varies, the bands are constants.
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("d",))
    rng = np.random.default_rng(3)
    lower, diag, upper = (rng.uniform(-1, 1, (n,)) for n in (7, 8, 7))
    solve = {
        "pivoting": lambda d: tridiagonal_solve(lower, diag, upper, d),
        "thomas": lambda d: tridiagonal_solve(lower, diag + 3, upper, d, pivoting=False),
        "cyclic": lambda d: cyclic_tridiagonal_solve(
            np.append(lower, 0.5), diag + 3, np.append(upper, 0.5), d
        ),  # fmt: skip
    }[kind]
    sharded = jax.jit(jax.shard_map(solve, mesh=mesh, in_specs=P("d"), out_specs=P("d")))
    rhs = rng.uniform(-1, 1, (6, 8))  # 6 systems: past the 4 float32 / 2 float64 lanes
    np.testing.assert_allclose(sharded(rhs), solve(rhs), rtol=1e-13, atol=1e-13)
    grad = jax.grad(lambda d: jnp.sum(sharded(d) ** 2))(rhs)
    np.testing.assert_allclose(grad, jax.grad(lambda d: jnp.sum(solve(d) ** 2))(rhs), rtol=1e-12)
    # The bands varying too: the rules bind the solve again inside the mesh.
    bands = jax.jit(jax.shard_map(lambda b, d: tridiagonal_solve(lower, b, upper, d), mesh=mesh,
                                  in_specs=(P("d"), P()), out_specs=P("d")))  # fmt: skip
    diags = diag + rng.uniform(2, 3, (6, 8))
    jax.test_util.check_grads(bands, (diags, rhs[0]), order=1, modes=["rev"])


@pytest.mark.parametrize("pivoting", [True, False])
def test_export_with_a_symbolic_number_of_systems(pivoting):
    (b,) = jax.export.symbolic_shape("b")
    shapes = [jax.ShapeDtypeStruct((b, m), np.float64) for m in (7, 8, 7, 8)]
    solve = jax.jit(functools.partial(tridiagonal_solve, pivoting=pivoting))
    exported = jax.export.export(solve)(*shapes)
    for batch in (1, 5, 40):
        system = random_system(np.random.default_rng(batch), (batch,), 8, dtype=np.float64)
        np.testing.assert_array_equal(exported.call(*system), solve(*system))
