"""`make_interp_spline(x, y, k, bc_type="periodic")` against scipy's, in f64: knots,
values and derivatives ν = 0 … k−1 to 1e-12 of each order's scale, from the fewest sites
scipy takes (2) through the dense small systems (m = n − 1 ≤ 2⌊k/2⌋) to the cyclic band
by Woodbury; every derivative below k equal at both ends; axis, trailing shapes and
complex values; jit, vmap and gradients w.r.t. x and y; float32 at spans 1e-30 … 1e37;
errors and NaN (`_scipy/periodic_fits.py`).

Compiles dominate the runtime: each test builds one program for all its cases."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from jax.test_util import check_grads

from splines import make_interp_spline

TOL = 1e-12


def periodic_data(n, rng, columns=2, span=3.0):
    """Jittered even sites (neighbouring cells within a factor ~3) and values whose last
    row repeats the first."""
    x = (np.arange(n) + rng.uniform(-0.25, 0.25, n)) * span / max(n - 1, 1)
    y = rng.normal(size=(n, columns))
    y[-1] = y[0]
    return x, y


def scaled_error(got, want, y, x, nu):
    """Max |got − want| over the ν-th derivative's scale: the larger of max |want| and
    max |y| / (smallest cell)^ν (two sites make a constant, whose derivatives are
    rounding)."""
    got, want = np.asarray(got), np.asarray(want)
    cell = np.min(np.diff(x)) if len(x) > 1 else 1.0
    scale = max(np.max(np.abs(want)), np.max(np.abs(y)) / cell**nu)
    return np.max(np.abs(got - want)) / scale


# The fewest sites (2), the largest dense system (m = n − 1 = 2⌊k/2⌋: the wrap-around
# folds onto the band), the smallest Woodbury system (m = 2⌊k/2⌋ + 1; scipy's smallest
# banded one at odd k) and a larger one; k = 0 and 1 are the plain splines (scipy's).
CASES = [
    (k, n) for k in range(6) for n in sorted({2, max(2 * (k // 2) + 1, 2), 2 * (k // 2) + 2, 13})
]


@pytest.fixture(scope="module")
def fits():
    """Every case's knots, coefficients and ``extrapolate``: one program.  (Evaluating
    each would compile a program per shape of (t, c), 4x the fits' time; our evaluation
    is compared with scipy's in tests/test_bsplines.py, periodic extension included, and
    in every other test here.)"""
    rng = np.random.default_rng(0)
    data = {case: periodic_data(case[1], rng) for case in CASES}
    extrapolate = {}

    @jax.jit
    def run(data):
        out = {}
        for case, (x, y) in data.items():
            spline = make_interp_spline(x, y, case[0], bc_type="periodic")
            extrapolate[case] = spline.extrapolate  # static: recorded while tracing
            out[case] = (spline.t, spline.c)
        return out

    return data, jax.device_get(run(data)), extrapolate


def derivatives(t, c, k, q, mode=None):
    """ν = 0 … max(k−1, 0) of the spline (t, c) at q, by scipy's evaluation (by default
    extended as the fit's result is)."""
    mode = ("periodic" if k >= 2 else True) if mode is None else mode
    spline = si.BSpline.construct_fast(t, c, k, extrapolate=mode)
    return [spline(q, nu) for nu in range(max(k, 1))]


@pytest.mark.parametrize("case", CASES, ids=[f"k{k}-n{n}" for k, n in CASES])
def test_periodic_fit_matches_scipy(fits, case):
    """Knots to rounding, the coefficients' shape, ``extrapolate`` ("periodic" from k = 2;
    scipy's k = 0 and 1 keep True), values and derivatives below k to 1e-12 of scale over
    1.5 periods (the extension is periodic)."""
    data, got, extrapolate = fits
    k, _ = case
    (x, y), (t, c) = data[case], got[case]
    want = si.make_interp_spline(x, y, k, bc_type="periodic")
    np.testing.assert_allclose(t, want.t, rtol=1e-15, atol=1e-15)
    assert c.shape == want.c.shape
    assert extrapolate[case] == want.extrapolate == ("periodic" if k >= 2 else True)
    q = np.linspace(x[0] - 0.7, x[-1] + 0.8, 41)
    for nu, v in enumerate(derivatives(t, c, k, q)):
        assert scaled_error(v, want(q, nu), y, x, nu) <= TOL, (case, nu)


PERIODIC = [case for case in CASES if case[0] >= 2]


@pytest.mark.parametrize("case", PERIODIC, ids=[f"k{k}-n{n}" for k, n in PERIODIC])
def test_periodic_fit_closes_every_derivative_below_k(fits, case):
    """At x[0] and x[-1] on the spline itself (not wrapped: the periodic extension maps
    x[-1] onto x[0])."""
    data, got, _ = fits
    (x, y), (t, c) = data[case], got[case]
    for nu, (start, end) in enumerate(derivatives(t, c, case[0], x[[0, -1]], mode=True)):
        assert scaled_error(end, start, y, x, nu) <= TOL, (case, nu)


def test_periodic_fit_along_an_axis_with_trailing_shapes_and_complex_values():
    """y (2, n, 3) complex along axis 1, and real along axis −1; scipy's periodic fit drops
    an imaginary part, so its reference fits the real and imaginary parts apart."""
    rng = np.random.default_rng(1)
    x, _ = periodic_data(12, rng)
    y = rng.normal(size=(2, 12, 3)) + 1j * rng.normal(size=(2, 12, 3))
    y[:, -1] = y[:, 0]
    q = np.linspace(x[0] - 1, x[-1] + 1, 23)

    @jax.jit
    def run(x, y):
        along_1 = make_interp_spline(x, y, 2, bc_type="periodic", axis=1)
        last = make_interp_spline(x, jnp.moveaxis(y.real, 1, -1), 3, bc_type="periodic", axis=-1)
        return along_1(q), along_1(q, 1), last(q), last(q, 2)

    along_1, second, last, third = jax.device_get(run(x, y))
    assert along_1.shape == (2, 23, 3) and last.shape == (2, 3, 23)
    assert along_1.dtype == np.complex128
    for nu, got in enumerate((along_1, second)):
        parts = [si.make_interp_spline(x, part, 2, bc_type="periodic", axis=1)(q, nu)
                 for part in (y.real, y.imag)]  # fmt: skip
        assert scaled_error(got, parts[0] + 1j * parts[1], y, x, nu) <= TOL
    want = si.make_interp_spline(x, np.moveaxis(y.real, 1, -1), 3, bc_type="periodic", axis=-1)
    assert scaled_error(last, want(q), y.real, x, 0) <= TOL
    assert scaled_error(third, want(q, 2), y.real, x, 2) <= TOL


def test_periodic_fit_under_jit_and_vmap():
    """A batch of sites and values (a system per lane), and of values alone (the band
    shared by every right-hand side), at k = 3 (Woodbury) and k = 4 with n = 5 (dense)."""
    rng = np.random.default_rng(2)
    x = np.sort(rng.uniform(0, 3, (3, 10)), axis=1)
    y = rng.normal(size=(3, 10))
    y[:, -1] = y[:, 0]
    q = np.linspace(-1, 4, 9)

    @jax.jit
    def run(x, y):
        fit = jax.vmap(lambda x, y: make_interp_spline(x, y, 3, bc_type="periodic")(q))
        shared = jax.vmap(lambda y: make_interp_spline(x[0], y, 3, bc_type="periodic")(q))
        dense = jax.vmap(lambda x, y: make_interp_spline(x, y, 4, bc_type="periodic")(q))
        return fit(x, y), shared(y), dense(x[:, :5], y[:, :5].at[:, -1].set(y[:, 0]))

    both, shared, dense = jax.device_get(run(x, y))
    for i in range(3):
        y5 = np.r_[y[i, :4], y[i, 0]]
        for got, (xi, yi, k) in ((both, (x[i], y[i], 3)), (shared, (x[0], y[i], 3)),
                                 (dense, (x[i, :5], y5, 4))):  # fmt: skip
            want = si.make_interp_spline(xi, yi, k, bc_type="periodic")(q)
            assert scaled_error(got[i], want, yi, xi, 0) <= TOL


def test_gradients_of_periodic_fits_wrt_values():
    """Order 2 (reverse), y[-1] tied to y[0], at k = 3 (the Woodbury solve)."""
    rng = np.random.default_rng(3)
    x, y = periodic_data(10, rng, columns=1)
    q = jnp.asarray(np.r_[rng.uniform(-1, 4, 5), x[0], x[-1]])

    def fit(y):
        return make_interp_spline(x, jnp.concatenate([y, y[:1]]), 3, bc_type="periodic")(q)

    check_grads(jax.jit(fit), (jnp.asarray(y[:-1, 0]),), order=2, modes=["rev"])


def test_gradients_of_periodic_fits_wrt_sites():
    """Order 1, forward and reverse, eps 1e-6 against cells ~0.3, at k = 2 through the
    Woodbury solve (n = 10) and the dense one (n = 3); queries off the sites (a query on
    a knot that moves is a kink: one-sided derivatives)."""
    rng = np.random.default_rng(4)
    x, y = periodic_data(10, rng, columns=1)
    q = jnp.asarray(rng.uniform(-1, 4, 5))

    def fits(x):
        small = np.r_[y[:2, 0], y[0, 0]]
        return (make_interp_spline(x, y[:, 0], 2, bc_type="periodic")(q)
                + make_interp_spline(x[:3], small, 2, bc_type="periodic")(q))  # fmt: skip

    check_grads(jax.jit(fits), (jnp.asarray(x),), order=1, modes=["fwd", "rev"], eps=1e-6)


def test_periodic_fit_at_adversarial_spacings_interpolates_to_rounding():
    """Cells that change by up to e^8 ≈ 3000 between neighbours: the data are met to
    rounding, as by scipy (its banded LU and Woodbury), whose coefficients ours match to
    what both solves leave."""
    rng = np.random.default_rng(4)
    cases = [(3, 60), (4, 60)]
    xs = {case: np.r_[0, np.cumsum(np.exp(rng.uniform(-4, 4, case[1] - 1)))] for case in cases}
    ys = {case: rng.normal(size=case[1]) for case in cases}
    for y in ys.values():
        y[-1] = y[0]

    @jax.jit
    def run(xs, ys):
        fits = {c: make_interp_spline(xs[c], ys[c], c[0], bc_type="periodic") for c in cases}
        return {c: (fit.c, fit(xs[c])) for c, fit in fits.items()}

    for case, (c, at_sites) in jax.device_get(run(xs, ys)).items():
        x, y = xs[case], ys[case]
        want = si.make_interp_spline(x, y, case[0], bc_type="periodic")
        residual = np.max(np.abs(at_sites - y))
        assert residual <= max(10 * np.max(np.abs(want(x) - y)), 1e-14), case
        assert np.max(np.abs(c - want.c)) <= 1e-10 * np.max(np.abs(want.c)), case


def test_float32_periodic_fit_at_any_scale():
    """k = 2 and 5 in float32: ≤ 2e-6 max|f| against scipy in float64 on the rounded inputs,
    at spans 1e-30 … 1e37 (the knots beyond the ends stay below the largest float)."""
    rng = np.random.default_rng(5)
    u, values = periodic_data(14, rng, columns=1, span=1.0)
    spans = [1e-30, 1.0, 1e37]
    xs = [(u * s).astype(np.float32) for s in spans]
    ys = values[:, 0].astype(np.float32)
    qs = [(np.linspace(u[0], u[-1], 61) * s).astype(np.float32) for s in spans]

    @jax.jit
    def run(xs, qs):
        return [[make_interp_spline(x, ys, k, bc_type="periodic")(q) for x, q in zip(xs, qs)]
                for k in (2, 5)]  # fmt: skip

    for k, got in zip((2, 5), jax.device_get(run(xs, qs))):
        for x, q, v in zip(xs, qs, got):
            assert v.dtype == np.float32
            want = si.make_interp_spline(x.astype(float), ys.astype(float), k,
                                         bc_type="periodic")(q.astype(float))  # fmt: skip
            assert np.max(np.abs(v - want)) <= 2e-6 * np.max(np.abs(want)), (k, x[-1])


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(y=np.r_[0.0, 1, 2, 1, 0.5]), ValueError, r"`y\[:\]` starts at 0.0 and ends at 0.5"),
        (dict(y=np.c_[np.zeros(5), np.r_[1.0, 2, 3, 2, 2]], axis=0), ValueError, r"`y\[:, 1\]`"),
        (dict(y=np.r_[0.0, 1, 2, 1, 0.0], t=np.arange(11.0)), NotImplementedError, "`t`"),
        (dict(x=np.r_[0.0], y=np.r_[1.0]), ValueError, "at least 2 sites"),
        (dict(x=np.r_[0.0, 1, 1, 2, 3], y=np.r_[0.0, 1, 2, 1, 0.0]), ValueError, r"`x\[2\]`"),
        (dict(y=np.r_[0.0, 1, np.nan, 1, 0.0]), ValueError, r"`y\[2\]`"),
    ],
)
def test_periodic_fit_concrete_errors_name_the_argument(kwargs, error, match):
    kwargs = dict(x=np.arange(5.0), k=3, bc_type="periodic") | kwargs
    with pytest.raises(error, match=match):
        make_interp_spline(**kwargs)


def test_periodic_fit_accepts_ends_that_scipy_or_rounding_close():
    """Ends within scipy's test (relative 1e-5: scipy fits y[0], and so do we), and float32
    values that close to f32 rounding near 0 (sin(2π) = 1.7e-7 in f32, which scipy's
    absolute 1e-15 rejects)."""
    x = np.linspace(0, 1, 9)
    y = np.cos(2 * np.pi * x)
    y[-1] = 1 + 5e-6
    got = make_interp_spline(x, y, 3, bc_type="periodic")
    want = si.make_interp_spline(x, y, 3, bc_type="periodic")
    assert scaled_error(got(x), want(x), y, x, 0) <= TOL
    x32 = x.astype(np.float32)
    y32 = np.sin(np.float32(2 * np.pi) * x32)
    assert y32[-1] != 0
    f32 = make_interp_spline(x32, y32, 3, bc_type="periodic")
    assert f32.c.dtype == np.float32 and np.all(np.isfinite(np.asarray(f32.c)))


def test_traced_invalid_periodic_data_give_nan_values_and_gradients():
    """Ends that differ, or sites that do not increase: every value and gradient NaN; a
    non-finite column of y (inside, or at an end): its own column NaN.  No callbacks or
    conditionals."""
    x = jnp.linspace(0.0, 3.0, 8)
    y = jnp.sin(2 * jnp.pi * x / 3)
    q = jnp.asarray([0.5, 1.5, 4.0])

    def f(x, y):
        return make_interp_spline(x, y, 3, bc_type="periodic")(q)

    def values_and_grads(x, y):
        values, pullback = jax.vjp(f, x, y)
        return values, pullback(jnp.ones_like(values))

    cases = {"ends differ": (x, y.at[-1].add(0.5)), "x not increasing": (x.at[3].set(x[5]), y)}
    run = jax.jit(lambda cases, columns: ({name: values_and_grads(*args)
                                           for name, args in cases.items()}, f(x, columns)))  # fmt: skip
    columns = jnp.stack([y, y.at[2].set(jnp.inf), y.at[0].set(jnp.nan)], axis=1)
    nan, values = jax.device_get(run(cases, columns))
    for name, (values_nan, grads) in nan.items():
        assert np.all(np.isnan(values_nan)), name
        for g in grads:
            assert np.all(np.isnan(g)), name
    assert np.all(np.isfinite(values[:, 0])) and np.all(np.isnan(values[:, 1:]))
    text = str(jax.make_jaxpr(f)(x, y))
    for word in ("callback", "cond[", "switch", "while["):
        assert word not in text, word
