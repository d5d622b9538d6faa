"""`splines.BSpline`, `make_interp_spline` and `make_lsq_spline` against scipy's, in f64:
values and every derivative to 1e-12 of each order's max |f^(ν)|, the calculus, the basis
and design matrix, `PPoly.from_spline`; gradients w.r.t. the knots, coefficients, points
and data; jit and vmap over them; float32 at knot spans 1e-30 … 1e30; errors and NaN.

Compiles dominate the runtime: each test builds one program for all its cases, and its
results come back as numpy (`jax.device_get`: indexing a jax array compiles a program)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from jax.test_util import check_grads

import splines
from splines import BSpline, make_interp_spline, make_lsq_spline

TOL = 1e-12


def relative_error(got, want):
    """Max |got − want| over max |want| (absolute where want is 0); NaN must match NaN."""
    got, want = np.asarray(got), np.asarray(want)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    got, want = got[~np.isnan(want)], want[~np.isnan(want)]
    scale = np.max(np.abs(want), initial=0)
    return np.max(np.abs(got - want), initial=0) / (scale if scale > 0 else 1)


def queries(t, k):
    """Inside the base interval, on every knot, between knots, and outside on both sides."""
    start, end = t[k], t[len(t) - k - 1]
    span = end - start
    grid = np.linspace(start - span / 4, end + span / 4, 97)
    return np.concatenate([grid, t, (t[:-1] + t[1:]) / 2])


def knot_vectors(k, rng):
    """Four knot vectors of one length (2k + 12, so that a test vmaps over them): clamped
    with double and triple interior knots; non-clamped uniform; non-clamped, non-uniform
    with repeated knots; end knots repeated k + 2 times (empty end intervals)."""
    interior = np.r_[rng.uniform(0.05, 0.95, 5), [0.3] * 2, [0.7] * 3]
    clamped = np.r_[[0.0] * (k + 1), np.sort(interior), [1.0] * (k + 1)]
    ends = np.r_[rng.uniform(-0.2, 0, k + 1), rng.uniform(1, 1.2, k + 1)]
    mixed = np.sort(np.r_[ends, rng.uniform(0.05, 0.95, 6), [0.4] * 2, 0.0, 1.0])
    heavy = np.r_[[0.0] * (k + 2), np.linspace(0.1, 0.9, 8), [1.0] * (k + 2)]
    return np.stack([clamped, np.arange(2 * k + 12.0) / (2 * k + 11), mixed, heavy])


# ------------------------------------------------------------------- evaluation --


@pytest.mark.parametrize("k", range(6))
def test_evaluation_matches_scipy(k):
    """Values and derivatives ν = 0 … k+1 (extended; NaN outside and periodic: ν ≤ 1),
    with columns on axis 1 and c longer than n: one program, vmapped over the knots."""
    rng = np.random.default_rng(k)
    ts = knot_vectors(k, rng)
    n = ts.shape[1] - k - 1
    cs = rng.normal(size=(len(ts), 2, n + 1, 3))
    xs = np.stack([queries(t, k) for t in ts])
    modes = (True, False, "periodic")
    orders = {True: range(k + 2), False: (0, 1), "periodic": (0, 1)}

    def run(t, c, x):
        spline = BSpline(t, c, k, axis=1)
        return [[spline(x, nu, mode) for nu in orders[mode]] for mode in modes]

    got = jax.device_get(jax.jit(jax.vmap(run))(ts, cs, xs))
    for case, (t, c, x) in enumerate(zip(ts, cs, xs)):
        want = si.BSpline(t, c, k, axis=1)
        for mode, per_order in zip(modes, got):
            for nu, values in zip(orders[mode], per_order):
                values = np.asarray(values[case])
                assert values.shape == (2, len(x), 3)
                wanted = want(x, nu, mode)
                if mode == "periodic":  # scipy's wrap can round a point past t[n]: NaN
                    assert np.all(np.isfinite(values))
                    values = np.where(np.isnan(wanted), np.nan, values)
                error = relative_error(values, wanted)
                assert error <= TOL, (t, mode, nu, error)


def test_eager_call_options_and_complex():
    t = np.r_[0, 0, 0, 0, 0.1, 0.4, 0.4, 0.6, 1, 1, 1, 1]
    rng = np.random.default_rng(5)
    c = rng.normal(size=8) + 1j * rng.normal(size=8)
    ours, want = BSpline(t, c, 3), si.BSpline(t, c, 3)
    x = np.linspace(-0.2, 1.2, 2 * 3 * 5).reshape(2, 3, 5)
    assert relative_error(ours(x, 2), want(x, 2)) <= TOL and ours(x).shape == (2, 3, 5)
    assert np.iscomplexobj(np.asarray(ours(0.5)))
    assert relative_error(ours([0.1, 0.2]), want([0.1, 0.2])) <= TOL  # a list
    (t_, c_, k_) = ours.tck
    assert k_ == 3 and np.array_equal(t_, t) and np.array_equal(c_, c)
    fast = BSpline.construct_fast(t, c, 3, extrapolate=False)
    assert np.isnan(fast(2.0)) and relative_error(fast(0.5), want(0.5)) <= TOL


# -------------------------------------------------------------------- calculus --


@pytest.mark.parametrize("k", [0, 1, 2, 3, 5])
def test_calculus_matches_scipy(k):
    """derivative(ν) and antiderivative(ν): scipy's knots and coefficients; integrate in
    each mode over bounds inside, outside, reversed and spanning periods.  Clamped and
    non-clamped knots, vmapped."""
    rng = np.random.default_rng(10 + k)
    clamped = np.r_[[0.0] * (k + 1), np.sort(rng.uniform(0.05, 0.95, 6)), [1.0] * (k + 1)]
    ts = np.stack([clamped, np.arange(2 * k + 8.0) / 3])
    cs = rng.normal(size=(2, ts.shape[1] - k - 1, 2))
    bounds = np.array([(0.1, 0.7), (-0.3, 1.4), (0.9, 0.2), (-2.5, 3.7), (1.2, 1.5)])
    modes = (True, False, "periodic")

    def run(t, c):
        spline = BSpline(t, c, k)
        calculus = [spline.derivative(nu).tck[:2] for nu in range(1, k + 1)]
        calculus += [spline.antiderivative(nu).tck[:2] for nu in (1, 2)]
        integrals = [
            jax.vmap(lambda a, b, mode=mode: spline.integrate(a, b, mode))(*bounds.T)
            for mode in modes
        ]
        return calculus, integrals

    calculus, integrals = jax.device_get(jax.jit(jax.vmap(run))(ts, cs))
    for case, (t, c) in enumerate(zip(ts, cs)):
        want = si.BSpline(t, c, k)
        wanted = [want.derivative(nu) for nu in range(1, k + 1)]
        wanted += [want.antiderivative(nu) for nu in (1, 2)]
        for (t_got, c_got), w in zip(calculus, wanted):
            np.testing.assert_array_equal(t_got[case], w.t)
            assert relative_error(c_got[case], w.c) <= TOL
        # per column: scipy's multi-column integral is NaN for bounds both past t[n]
        columns = [si.BSpline(t, c[:, j], k) for j in range(2)]
        for mode, values in zip(modes, integrals):
            for (a, b), value in zip(bounds, values[case]):
                expected = [column.integrate(a, b, mode) for column in columns]
                assert relative_error(value, expected) <= TOL, (mode, a, b)


def test_derivative_through_a_full_knot():
    """A knot of multiplicity k + 1 (a jump): scipy's derivative raises; ours has a zero
    coefficient there and equals scipy's ν-th derivative values on each side."""
    k = 2
    t = np.r_[0, 0, 0, 0.5, 0.5, 0.5, 1, 1, 1.0]
    c = np.array([1.0, -2.0, 0.5, 3.0, 1.0, 2.0])
    x = np.r_[np.linspace(0.01, 0.49, 9), np.linspace(0.51, 0.99, 9)]
    with pytest.raises(ValueError):
        si.BSpline(t, c, k).derivative()
    ours = BSpline(t, c, k).derivative()
    assert np.all(np.isfinite(ours.c))
    assert relative_error(ours(x), si.BSpline(t, c, k)(x, 1)) <= TOL
    with pytest.raises(ValueError, match="`nu`"):
        BSpline(t, c, k).derivative(3)


# ----------------------------------------------------------- basis and conversion --


@pytest.mark.parametrize("k", [0, 2, 3, 5])
def test_design_matrix_and_basis_element(k):
    """Design matrices (in bounds; extended; periodic), vmapped over three knot vectors
    (traced), and basis elements."""
    rng = np.random.default_rng(3 + k)
    ts = knot_vectors(k, rng)[:3]
    n = ts.shape[1] - k - 1
    xs = np.sort(rng.uniform(ts[:, k : k + 1], ts[:, n : n + 1], (3, 13)))
    xs[:, 0], xs[:, -1] = ts[:, k], ts[:, n]
    outs = np.concatenate([xs, ts[:, n : n + 1] + 0.3, ts[:, k : k + 1] - 0.2], axis=1)
    element = rng.uniform(0.1, 1, k + 2).cumsum()
    points = np.linspace(element[0] - 0.5, element[-1] + 0.5, 41)
    modes = (True, "periodic")

    def run(t, x, out):
        return [BSpline.design_matrix(x, t, k)] + [
            BSpline.design_matrix(out, t, k, mode) for mode in modes
        ]

    def basis(e, p):
        return [BSpline.basis_element(e, mode)(p) for mode in (True, False)]

    matrices = jax.device_get(jax.jit(jax.vmap(run))(ts, xs, outs))
    for case, (t, x, out) in enumerate(zip(ts, xs, outs)):
        want = [si.BSpline.design_matrix(x, t, k).toarray()]
        want += [si.BSpline.design_matrix(out, t, k, mode).toarray() for mode in modes]
        for g, w in zip(matrices, want):
            assert relative_error(g[case], w) <= TOL
    for mode, values in zip((True, False), jax.jit(basis)(element, points)):
        assert relative_error(values, si.BSpline.basis_element(element, mode)(points)) <= TOL
    got, want = BSpline.basis_element(list(element)), si.BSpline.basis_element(element)
    np.testing.assert_array_equal(got.t, want.t)
    assert got.k == want.k == k


def test_from_spline():
    rng = np.random.default_rng(3)
    t = np.r_[0, 0, 0, 0, 0.2, 0.5, 0.5, 0.8, 1, 1, 1, 1.0]
    c = rng.normal(size=8)
    x = np.linspace(-0.2, 1.2, 57)
    pp = splines.PPoly.from_spline(BSpline(t, c, 3, extrapolate=False))
    want = si.PPoly.from_spline(si.BSpline(t, c, 3, extrapolate=False))
    assert relative_error(pp(x), want(x)) <= TOL and pp.extrapolate is False
    assert relative_error(pp(x, (0, 1, 2, 3), True), [want(x, nu, True) for nu in range(4)]) <= TOL


# ------------------------------------------------------------------------ fits --


def sites(n, rng, span=3.0):
    """Jittered even sites: neighbouring cells within a factor ~2 (a well-posed fit)."""
    return (np.arange(n) + rng.uniform(-0.25, 0.25, n)) * span / (n - 1)


INTERP_CASES = [(k, None) for k in range(6)] + [
    (3, "natural"),
    (3, "clamped"),
    (2, ([(1, [0.5, -1.0])], None)),
    (4, ([(1, [0.5, -1.0]), (2, [0.0, 1.0])], [(1, [3.0, 4.0])])),
]


@pytest.mark.parametrize("k, bc_type", INTERP_CASES)
def test_make_interp_spline_matches_scipy(k, bc_type):
    """Knots as scipy's; coefficients and values to 1e-12, two columns on axis 1 of y.
    Derivatives ν ≤ k to 1e-12 · 4^max(0, ν−2): the two fits' coefficients agree to
    ~3e-15 of max|c| (each has its own rounding), and a ν-th derivative amplifies such a
    difference by ~(k/h)^ν against its own scale (measured at k = 5, ν = 5: 1.2e-12).
    Evaluating the same (t, c) agrees to 1e-12 at every order (`test_evaluation…`).
    Queries near the sites: extending a degree-5 piece amplifies it too."""
    rng = np.random.default_rng(k)
    x = sites(14, rng)
    y = np.stack([np.sin(2 * x), np.cos(x) + x], axis=0)  # (2, n): axis 1
    want = si.make_interp_spline(x, y, k, bc_type=bc_type, axis=1)
    got = make_interp_spline(x, y, k, bc_type=bc_type, axis=1)
    np.testing.assert_allclose(got.t, want.t, rtol=1e-15, atol=0)
    assert got.axis == 1 and got.c.shape == want.c.shape
    assert relative_error(got.c, want.c) <= TOL
    q = np.linspace(x[0] - 0.1, x[-1] + 0.1, 61)
    values = jax.jit(lambda s, q: [s(q, nu) for nu in range(k + 1)])(got, q)
    for nu in range(k + 1):
        assert relative_error(values[nu], want(q, nu)) <= TOL * 4 ** max(0, nu - 2), nu


def test_make_interp_spline_given_knots_complex_and_axis():
    rng = np.random.default_rng(2)
    x = sites(11, rng)
    t = si.make_interp_spline(x, x, 3).t + np.r_[[0] * 4, rng.uniform(-0.02, 0.02, 7), [0] * 4]
    y = np.exp(1j * x)[:, None] * np.arange(1, 4)  # (n, 3), complex
    want = si.make_interp_spline(x, y, 3, t=t)
    got = make_interp_spline(x, y, 3, t=t)
    assert np.iscomplexobj(np.asarray(got.c)) and relative_error(got.c, want.c) <= TOL
    y3 = rng.normal(size=(2, 3, 11))
    want = si.make_interp_spline(x, y3, 4, axis=-1)
    got = make_interp_spline(x, y3, 4, axis=-1)
    assert got.axis == 2 and relative_error(got(x[3:6]), want(x[3:6])) <= TOL


@pytest.mark.parametrize("k", range(6))
def test_make_lsq_spline_matches_scipy(k):
    """Weights, two columns, a repeated site; against scipy's default (QR)."""
    rng = np.random.default_rng(20 + k)
    t = np.r_[[0.0] * (k + 1), np.linspace(0, 3, 7)[1:-1], [3.0] * (k + 1)]
    x = np.sort(rng.uniform(0, 3, 60))
    x[[0, -1]] = 0, 3
    x[10] = x[11]  # a repeated site
    w = rng.uniform(0.5, 2, 60)
    y = np.stack([np.sin(2 * x), x**2], axis=1) + rng.normal(0, 0.1, (60, 2))
    got = make_lsq_spline(x, y, t, k, w)
    assert relative_error(got.c, si.make_lsq_spline(x, y, t, k, w).c) <= TOL
    if k == 3:  # one column, no weights
        want = si.make_lsq_spline(x, y[:, 0], t, k)
        assert relative_error(make_lsq_spline(x, y[:, 0], t, k).c, want.c) <= TOL


def ill_conditioned_lsq():
    """Sites and knots whose design matrix has κ ≈ 1.2e10 (sites that barely cover a
    B-spline), found by a search of random configurations."""
    rng = np.random.default_rng(0)
    while True:
        inner = np.sort(rng.uniform(0.05, 0.95, rng.integers(3, 10)))
        t = np.r_[[0.0] * 4, inner, [1.0] * 4]
        x = np.sort(rng.uniform(0, 1, rng.integers(inner.size + 5, 3 * inner.size + 8)))
        x = x ** rng.uniform(0.5, 3)
        try:
            cond = np.linalg.cond(si.BSpline.design_matrix(x, t, 3).toarray())
        except ValueError:
            continue
        if 1e10 < cond < 1.5e10:
            return x, np.sin(5 * x) + 0.1 * rng.normal(size=x.size), t


def test_make_lsq_spline_qr_keeps_the_digits_the_normal_equations_lose():
    """scipy's default, QR, on a design matrix of κ ~ 1e10: its values within 1e-14 of a
    50-digit least-squares solve, as scipy's; ``method="norm-eq"`` squares κ and (here,
    as scipy's) keeps no correct digit."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 50
    x, y, t = ill_conditioned_lsq()
    design = si.BSpline.design_matrix(x, t, 3).toarray()
    a, b = mp.matrix(design.tolist()), mp.matrix(y.tolist())
    exact = np.array([float(v) for v in mp.lu_solve(a.T * a, a.T * b)], dtype=float)
    q = np.linspace(0, 1, 500)
    truth = si.BSpline(t, exact, 3)(q)
    scale = np.max(np.abs(truth))
    ours = make_lsq_spline(x, y, t)
    assert np.max(np.abs(np.asarray(ours(q)) - truth)) <= 1e-14 * scale
    assert relative_error(ours.c, exact) <= 1e-12
    assert relative_error(ours.c, si.make_lsq_spline(x, y, t, 3).c) <= 1e-12
    normal = make_lsq_spline(x, y, t, method="norm-eq")
    theirs = si.make_lsq_spline(x, y, t, 3, method="norm-eq")
    assert relative_error(normal.c, exact) > 1e-3 and relative_error(theirs.c, exact) > 1e-3


@pytest.mark.parametrize("k", [1, 3, 5])
def test_make_lsq_spline_methods_match_scipys(k):
    """Both methods against scipy's same method: weights, complex values, two columns."""
    rng = np.random.default_rng(k)
    t = np.r_[[0.0] * (k + 1), np.linspace(0, 3, 9)[1:-1], [3.0] * (k + 1)]
    x = np.sort(rng.uniform(0, 3, 50))
    x[[0, -1]] = 0, 3
    w = rng.uniform(0.5, 2, 50)
    y = (np.sin(2 * x) + 1j * x**2)[:, None] * np.array([1.0, -2.0])
    for method in ("qr", "norm-eq"):
        got = make_lsq_spline(x, y, t, k, w, method=method)
        want = si.make_lsq_spline(x, y, t, k, w, method=method)
        assert relative_error(got.c, want.c) <= TOL


def test_make_lsq_spline_qr_gradients_and_vmap():
    """QR's derivatives are the least-squares solution's (its JVP, not the rotations'):
    check_grads order 2 w.r.t. sites, values, knots and weights; vmap equals a loop."""
    rng = np.random.default_rng(3)
    inner = jnp.asarray([0.3, 0.55, 0.8])  # the interior knots (the ends repeat)
    x = jnp.asarray(np.sort(rng.uniform(0.02, 0.98, 25)))
    y = jnp.asarray(np.cos(4 * np.asarray(x)))
    w = jnp.asarray(rng.uniform(0.5, 1.5, 25))
    q = jnp.linspace(0.05, 0.95, 7)

    def fit(x, y, inner, w):
        t = jnp.concatenate([jnp.zeros(4), inner, jnp.ones(4)])
        return make_lsq_spline(x, y, t, 3, w, check_finite=False)(q)

    # (eps 1e-5: at check_grads' 1e-4 the sites' second derivatives near the last knot
    # make its differences 1e-3 off; the JVP agrees with differences at 1e-6 to 1e-9)
    check_grads(
        fit, (x, y, inner, w), order=2, modes=("fwd", "rev"), eps=1e-5, atol=1e-5, rtol=1e-5
    )
    ys = jnp.stack([y, 2 * y, y**2])
    batched = jax.vmap(fit, in_axes=(None, 0, None, None))(x, ys, inner, w)
    np.testing.assert_allclose(batched, np.stack([fit(x, v, inner, w) for v in ys]), atol=1e-14)


def test_make_lsq_spline_method_is_checked():
    with pytest.raises(ValueError, match="`method` must be 'qr' or 'norm-eq'; got 'svd'"):
        make_lsq_spline(np.linspace(0, 1, 9), np.ones(9), T, method="svd")


# -------------------------------------------------------------------- gradients --


def test_gradients_of_bspline():
    """w.r.t. distinct knots (order 1: the basis is piecewise rational in them), the
    coefficients and the points (order 2), forward and reverse."""
    rng = np.random.default_rng(4)
    k = 3
    t = jnp.asarray(np.arange(12.0) / 3 + rng.uniform(-0.05, 0.05, 12))
    c = jnp.asarray(rng.normal(size=8))
    x = jnp.asarray(rng.uniform(1.1, 2.5, 5))

    def f(t, c, x):
        spline = BSpline(t, c, k)
        return spline(x) + spline.derivative(2)(x) + spline.integrate(x[0], x[1])

    check_grads(jax.jit(f), (t, c, x), order=1, modes=["fwd", "rev"])
    values = jax.jit(lambda c, x: BSpline(t, c, k)(x, 1))
    check_grads(values, (c, x), order=2, modes=["fwd", "rev"])


def test_gradients_of_fits():
    """make_interp_spline w.r.t. the sites, values and end derivatives; make_lsq_spline
    w.r.t. the sites, values, knots and weights (order 1, forward and reverse)."""
    rng = np.random.default_rng(6)
    x = jnp.asarray(sites(10, rng))
    y = jnp.sin(x)
    q = jnp.asarray(rng.uniform(0.2, 2.8, 4))
    t = jnp.asarray(np.r_[-0.3, -0.2, -0.1, 0.0, 1.1, 1.9, 3.0, 3.1, 3.2, 3.3])
    w = jnp.asarray(rng.uniform(0.5, 2, 10))

    def fits(x, y, end, t, w):
        clamped = make_interp_spline(x, y, 3, bc_type=([(1, end)], [(2, end)]))
        least_squares = make_lsq_spline(x * 0.9 + 0.1, y, t, 3, w)
        return clamped(q) + least_squares(q)

    check_grads(jax.jit(fits), (x, y, jnp.asarray([0.5]), t, w), order=1, modes=["fwd", "rev"])


# ------------------------------------------------------------- jit and vmap --


def test_jit_and_vmap_over_knots_coefficients_and_points():
    rng = np.random.default_rng(8)
    k = 3
    ts = np.arange(12.0) / 3 + rng.uniform(-0.05, 0.05, (4, 12))
    cs = rng.normal(size=(4, 8))
    xs = rng.uniform(1.1, 2.5, (4, 5))
    got = jax.device_get(jax.vmap(lambda t, c, x: BSpline(t, c, k)(x))(ts, cs, xs))
    for i in range(4):
        assert relative_error(got[i], si.BSpline(ts[i], cs[i], k)(xs[i])) <= TOL
    spline = BSpline(ts[0], cs[0], k)
    assert relative_error(jax.jit(lambda s, x: s(x, 1))(spline, xs[0]), spline(xs[0], 1)) == 0
    # a fit: a batch of sites and of values, jitted
    x = sites(9, rng) + rng.uniform(-0.02, 0.02, (3, 9))
    y = np.sin(x)
    q = np.linspace(0.2, 2.8, 7)
    fits = jax.device_get(jax.jit(jax.vmap(lambda x, y: make_interp_spline(x, y, 4)(q)))(x, y))
    for i in range(3):
        assert relative_error(fits[i], si.make_interp_spline(x[i], y[i], 4)(q)) <= TOL


# ------------------------------------------------------------------- float32 --


def test_float32_at_any_scale():
    """make_interp_spline k = 3 in float32 against scipy in float64 on the f32-rounded
    inputs: ≤ 2e-6 max|f| at knot spans 1e-30 … 1e30 (ratios of knot differences only)."""
    rng = np.random.default_rng(9)
    u = sites(16, rng, span=1.0)
    values = np.sin(4 * u) + u
    queries_ = np.linspace(0, 1, 101)
    spans = [1e-30, 1e-10, 1.0, 1e10, 1e30]

    def run(xs, ys, qs):
        return [make_interp_spline(x, y)(q) for x, y, q in zip(xs, ys, qs)]

    xs = [(u * s).astype(np.float32) for s in spans]
    ys = [values.astype(np.float32)] * len(spans)
    qs = [(queries_ * s).astype(np.float32) for s in spans]
    got = jax.device_get(jax.jit(run)(xs, ys, qs))
    for x, y, q, values_got in zip(xs, ys, qs, got):
        assert values_got.dtype == np.float32
        want = si.make_interp_spline(x.astype(float), y.astype(float))(q.astype(float))
        error = np.max(np.abs(values_got - want)) / np.max(np.abs(want))
        assert error <= 2e-6, (x[-1], error)


# ----------------------------------------------------------------------- errors --

T = np.r_[0, 0, 0, 0, 0.5, 1, 1, 1, 1.0]
SW_KNOTS = np.r_[[0.0] * 4, 0.1, 0.2, [3.0] * 4]  # B-spline 1 lives on (0, 0.1)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: BSpline(np.r_[0, 0, 0, 0, 0.5, 0.4, 1, 1, 1.0], np.ones(5), 3), r"`t\[5\]`"),
        (lambda: BSpline(np.r_[0, 0, 0, 0, np.nan, 1, 1, 1, 1.0], np.ones(5), 3), r"`t\[4\]`"),
        (lambda: BSpline(T, np.ones(5), -1), "`k`"),
        (lambda: BSpline(T, np.ones(4), 3), "`c` needs at least n"),
        (lambda: BSpline(np.r_[0, 0, 0, 1.0], np.ones(2), 3), "2k \\+ 2"),
        (lambda: BSpline(np.r_[0, 0, 0, 0, 1, 1.0], np.ones(3), 2), "base interval"),
        (lambda: BSpline.design_matrix([0.5, 1.5], T, 3), r"`x\[1\]`"),
        (lambda: make_interp_spline([0, 1, 1, 2.0], np.ones(4)), r"`x\[2\]`"),
        (lambda: make_interp_spline([0, 1, 2, 3.0], [0, 1, np.inf, 1]), r"`y\[2\]`"),
        (lambda: make_interp_spline(np.arange(5.0), np.ones(5), bc_type="natural2"), "natural2"),
        (lambda: make_interp_spline(np.arange(5.0), np.ones(5), bc_type=(5, 1)), "`bc_type`"),
        (
            lambda: make_interp_spline(np.arange(5.0), np.ones(5), bc_type=([(4, 0.0)], None)),
            "orders must be in",
        ),  # fmt: skip
        (
            lambda: make_interp_spline(np.arange(5.0), np.ones(5), bc_type=([(1, 0.0)], None)),
            "does not match",
        ),  # fmt: skip
        (
            lambda: make_interp_spline(np.arange(5.0), np.ones(5), 0, bc_type="natural"),
            "Too much",
        ),  # fmt: skip
        (lambda: make_interp_spline(np.arange(5.0), np.ones(4)), "len\\(x\\) = 5"),
        (lambda: make_interp_spline(np.arange(5.0), np.ones(5), t=np.arange(8.0)), "knots"),
        (lambda: make_interp_spline(np.arange(5.0), np.ones(5), 1.5), "`k`"),  # pyright: ignore
        (
            lambda: make_interp_spline(np.r_[0, 1, 1.5, 2, 2.5, 3], np.ones(6), 3, SW_KNOTS),
            r"`x\[1\]`.*Schoenberg",
        ),  # fmt: skip
        (lambda: make_lsq_spline([0.1, 0.5, 0.3, 0.9, 1], np.ones(5), T), r"`x\[2\]`"),
        (lambda: make_lsq_spline([0.1, 0.5, 0.7, 0.9, 1.5], np.ones(5), T), r"`x\[4\]`"),
        (lambda: make_lsq_spline(np.linspace(0, 0.4, 9), np.ones(9), T), "B-spline 4"),
        (lambda: make_lsq_spline(np.linspace(0, 1, 9), np.ones(9), T, w=np.ones(3)), "`w`"),
        (lambda: make_lsq_spline(np.linspace(0, 1, 3), np.ones(3), T), "k \\+ 1 = 4"),
    ],
)
def test_concrete_errors_name_the_argument(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_traced_invalid_data_give_nan_values_and_gradients():
    x = jnp.linspace(0.0, 3.0, 8)
    y = jnp.sin(x)
    t = jnp.asarray(np.r_[[0.0] * 4, 1.0, 2.0, [3.0] * 4])
    q = jnp.asarray([0.5, 1.5])
    cases = {
        "x not increasing": (lambda x, y: make_interp_spline(x, y)(q), (x.at[3].set(x[5]), y)),
        "x outside t": (lambda x, t: make_lsq_spline(x, y, t)(q), (x + 0.5, t)),
        "t decreasing": (lambda t, c: BSpline(t, c, 3)(q), (t.at[5].set(0.5), jnp.ones(6))),
    }

    def values_and_grads(f, args):
        """f's values and the gradient of their sum w.r.t. every argument."""
        values, pullback = jax.vjp(f, *args)
        return values, pullback(jnp.ones_like(values))

    @jax.jit  # one program for every case
    def run(args, x, columns):
        nan = {name: values_and_grads(f, args[name]) for name, (f, _) in cases.items()}
        return nan, make_interp_spline(x, columns)(q)

    # a non-finite column of y poisons only itself
    columns = jnp.stack([y, y.at[2].set(jnp.inf)], axis=1)
    nan, values = run({name: args for name, (_, args) in cases.items()}, x, columns)
    for name, (values_nan, grads) in nan.items():
        assert np.all(np.isnan(values_nan)), (name, values_nan)
        for g in grads:
            assert np.all(np.isnan(g)), (name, g)
    assert np.all(np.isfinite(values[:, 0])) and np.all(np.isnan(values[:, 1]))


def test_no_callbacks_or_conditionals():
    x = jnp.linspace(0.0, 3.0, 8)
    t = jnp.asarray(np.r_[[0.0] * 4, 1.0, 2.0, [3.0] * 4])

    def f(x, y, t):
        return make_interp_spline(x, y)(x) + make_lsq_spline(x, y, t)(x, 1)

    text = str(jax.make_jaxpr(f)(x, jnp.sin(x), t))
    for word in ("callback", "cond[", "switch"):
        assert word not in text


# ------------------------------------------------ not-a-knot without pivoting --
# From n = 2k + 2 sites the not-a-knot fit eliminates its end columns and solves the
# band of the inner rows without pivoting (`_scipy.not_a_knot.not_a_knot_solve`):
# the collocation matrix is totally nonnegative (de Boor & Pinkus 1977).


def exact_spline(x, y, t, k, q):
    """The interpolant's values at q in exact rational arithmetic (`fractions`), for the
    float sites, values and knots as given."""
    from fractions import Fraction

    n, t = len(x), [Fraction(v) for v in t]

    def basis(at):
        l = min(max(j for j in range(len(t)) if t[j] <= at), n - 1)
        h = [Fraction(1)]
        for j in range(1, k + 1):
            new = [Fraction(0)] * (j + 1)
            for m in range(1, j + 1):
                w = h[m - 1] / (t[l + m] - t[l + m - j])
                new[m - 1] += (t[l + m] - at) * w
                new[m] = (at - t[l + m - j]) * w
            h = new
        return l, h

    rows, b = [], [Fraction(v) for v in y]
    for site in x:
        l, h = basis(Fraction(site))
        rows.append([Fraction(0)] * (l - k) + h + [Fraction(0)] * (n - 1 - l))
    for c in range(n):  # Gauss–Jordan: exact, any pivot
        p = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[p], b[c], b[p] = rows[p], rows[c], b[p], b[c]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                m = rows[r][c] / rows[c][c]
                rows[r] = [a - m * e for a, e in zip(rows[r], rows[c])]
                b[r] -= m * b[c]
    coefficients = [b[i] / rows[i][i] for i in range(n)]
    values = []
    for at in q:
        l, h = basis(Fraction(at))
        values.append(float(sum(h[j] * coefficients[l - k + j] for j in range(k + 1))))
    return np.array(values)


def test_not_a_knot_fit_matches_scipy_at_every_degree():
    """k = 2 … 7 at n = 2k + 1 (the general solve) and 2k + 2 … 2k + 5 (each remainder
    of the band's unrolled sweeps), two columns; and complex values.  One program."""
    rng = np.random.default_rng(20)
    xs = {(k, n): sites(n, rng) for k in range(2, 8) for n in range(2 * k + 1, 2 * k + 6)}
    ys = {case: np.stack([np.sin(2 * x), np.cos(x) + x], axis=1) for case, x in xs.items()}
    xs[5, 13, "complex"], ys[5, 13, "complex"] = xs[5, 13], np.exp(1j * xs[5, 13])

    @jax.jit
    def fits(xs, ys):
        return {case: make_interp_spline(xs[case], ys[case], case[0]).c for case in xs}

    for case, c in jax.device_get(fits(xs, ys)).items():
        want = si.make_interp_spline(xs[case], ys[case], case[0])
        assert relative_error(c, want.c) <= TOL, case


def test_not_a_knot_fit_without_pivoting_is_as_accurate_at_adversarial_spacings():
    """Neighbouring cells 1e6 and 1e3 times apart (not-a-knot ends amplify rounding by
    up to ~R², docs/architecture.md §4): against the exact spline, the fit's values at
    the queries are within 5x of the worse of the solves with partial pivoting —
    scipy's (LAPACK gbsv) and ours of the same matrix (``t`` given), which differ from
    each other by up to 10x here: rounding in the basis values, amplified; over random
    data the median of ours / pivoted is 0.3 … 1.7 — and the data are interpolated to
    rounding (a backward-stable solve: no growth without pivoting)."""
    patterns = ([1, 1e-6], [1, 1, 1e-6], [1e-6, 1, 1], [1, 1e-3, 1e-3, 1])
    cases = [(k, p) for k in (3, 4, 5) for p in range(len(patterns))]
    xs = {case: np.r_[0, np.cumsum(np.resize(patterns[case[1]], 13))] for case in cases}
    ys = {case: np.sin(x) + x**2 / 10 for case, x in xs.items()}
    ts = {case: si.make_interp_spline(xs[case], ys[case], case[0]).t for case in cases}
    qs = {case: np.r_[np.linspace(x[0], x[-1], 41), x] for case, x in xs.items()}

    @jax.jit
    def run(xs, ys, ts, qs):
        fits = {case: make_interp_spline(xs[case], ys[case], case[0]) for case in cases}
        pivoted = {case: make_interp_spline(xs[case], ys[case], case[0], t=ts[case])
                   for case in cases}  # fmt: skip
        return ({case: fits[case](qs[case]) for case in cases},
                {case: pivoted[case](qs[case]) for case in cases})  # fmt: skip

    ours, pivoted = jax.device_get(run(xs, ys, ts, qs))
    for case in cases:
        k, x, y, q = case[0], xs[case], ys[case], qs[case]
        exact = exact_spline(x, y, ts[case], k, q)
        scipy = si.make_interp_spline(x, y, k)(q)
        errors = [relative_error(v, exact) for v in (ours[case], scipy, pivoted[case])]
        assert errors[0] <= 5 * max(errors[1:]) + 1e-14 and errors[0] <= 1e-9, (case, errors)
        assert relative_error(ours[case][-len(x) :], y) <= 4e-15, case


def test_gradients_of_not_a_knot_fits():
    """w.r.t. the sites and values, forward and reverse (order 1), through the reduced
    ends and the band solved without pivoting: k = 5 and 4 (odd: the sites are the
    knots; even: the midpoints are), and two columns."""
    rng = np.random.default_rng(21)
    x = jnp.asarray(sites(12, rng))
    y = jnp.sin(x)
    q = jnp.asarray(rng.uniform(0.1, 2.9, 5))

    def fits(x, y):
        columns = jnp.stack([y, y * x], axis=1)
        return make_interp_spline(x, y, 5)(q) + make_interp_spline(x, columns, 4)(q).sum(1)

    check_grads(jax.jit(fits), (x, y), order=1, modes=["fwd", "rev"])


def test_vmap_of_not_a_knot_fits():
    """A batch of sites and values (every system in a lane), and of values alone (the
    band shared by every right-hand side)."""
    rng = np.random.default_rng(22)
    x = sites(13, rng) + rng.uniform(-0.02, 0.02, (3, 13))
    y = np.sin(3 * x)
    q = np.linspace(0.2, 2.8, 7)

    @jax.jit
    def run(x, y):
        both = jax.vmap(lambda x, y: make_interp_spline(x, y, 5)(q))(x, y)
        values = jax.vmap(lambda y: make_interp_spline(x[0], y, 5)(q))(y)
        return both, values

    both, values = jax.device_get(run(x, y))
    for i in range(3):
        assert relative_error(both[i], si.make_interp_spline(x[i], y[i], 5)(q)) <= TOL
        assert relative_error(values[i], si.make_interp_spline(x[0], y[i], 5)(q)) <= TOL


def test_float32_not_a_knot_at_any_scale_and_degree():
    """k = 4 and 5 in float32 (the k = 3 case: `test_float32_at_any_scale`): ≤ 2e-6
    max|f| against scipy in float64 on the rounded inputs at spans 1e-30 … 1e37 (the
    recurrence forms ratios of knot differences before it multiplies: a value over a
    knot difference of 1e36 would be subnormal, flushed to 0)."""
    rng = np.random.default_rng(23)
    u = sites(16, rng, span=1.0)
    spans = [1e-30, 1.0, 1e37]
    xs = [(u * s).astype(np.float32) for s in spans]
    ys = (np.sin(4 * u) + u).astype(np.float32)
    qs = [(np.linspace(0, 1, 101) * s).astype(np.float32) for s in spans]

    @jax.jit
    def run(xs, qs):
        return [[make_interp_spline(x, ys, k)(q) for x, q in zip(xs, qs)] for k in (4, 5)]

    for k, got in zip((4, 5), jax.device_get(run(xs, qs))):
        for x, q, values in zip(xs, qs, got):
            assert values.dtype == np.float32
            want = si.make_interp_spline(x.astype(float), ys.astype(float), k)(q.astype(float))
            assert np.max(np.abs(values - want)) <= 2e-6 * np.max(np.abs(want)), (k, x[-1])
