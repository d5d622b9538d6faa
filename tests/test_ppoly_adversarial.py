"""Adversarial tests of the scipy-compatible classes and the lineax bridge.

A user porting scipy code attacks `PPoly`, `CubicSpline`, `CubicHermiteSpline`,
`PchipInterpolator`, `Akima1DInterpolator`, `tridiagonal_solve(operator, rhs)`
and `splines.Tridiagonal`: extreme magnitudes, non-finite data (eager and
traced), odd dtypes and shapes, descending breakpoints, `extend` misuse,
`from_spline`, transforms.  scipy (f64) is the reference wherever it has an
answer; the deliberate differences listed in README.md ("From scipy: change
one import") are not tested as bugs.

Defects found here are fixed; their tests are plain regression tests, the
docstrings saying what failed before.
"""

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si

import splines
from splines import (
    Akima1DInterpolator,
    CubicHermiteSpline,
    CubicSpline,
    PchipInterpolator,
    PPoly,
)

lx = pytest.importorskip("lineax")

F32 = np.float32
X = np.linspace(0.0, 1.0, 6)
Y = np.sin(3 * X)
DYDX = 3 * np.cos(3 * X)
Q = np.linspace(-0.2, 1.2, 15)  # inside, on knots, outside

CLASSES = {
    "CubicSpline": (lambda x, y, **k: CubicSpline(x, y, **k), si.CubicSpline),
    "CubicHermiteSpline": (
        lambda x, y, **k: CubicHermiteSpline(x, y, jnp.cos(jnp.asarray(x)), **k),
        lambda x, y, **k: si.CubicHermiteSpline(x, y, np.cos(x), **k),
    ),
    "PchipInterpolator": (lambda x, y, **k: PchipInterpolator(x, y, **k), si.PchipInterpolator),
    "Akima1DInterpolator": (
        lambda x, y, **k: Akima1DInterpolator(x, y, **k),
        si.Akima1DInterpolator,
    ),
}


def close(ours, ref, rtol=1e-12):
    """Max error ≤ rtol × the reference's largest magnitude; NaN where it is NaN."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    assert (np.isnan(ours) == np.isnan(ref)).all(), (ours, ref)
    finite = ~np.isnan(ref)
    scale = max(np.max(np.abs(ref[finite]), initial=0.0), 1e-300)
    error = np.max(np.abs(ours[finite] - ref[finite]), initial=0.0) / scale
    assert error <= rtol, error


def same_roots(ours, ref, tol=1e-10):
    """scipy's arrays (or object arrays of them) to ``tol``."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    if ref.dtype == object:
        assert ours.shape == ref.shape
        for a, b in zip(ours.ravel(), ref.ravel()):
            same_roots(a, b, tol)
        return
    assert ours.shape == ref.shape, (ours, ref)
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


def padded(roots, size):
    roots = np.asarray(roots, float)
    return np.concatenate([roots, np.full(size - len(roots), np.nan)])


# ============================= defects found at 4ced482, fixed in 20163f7
# Each test here failed at commit 4ced482 (the reason is in its docstring).


@pytest.mark.parametrize("make", ["int list", "int array", "bfloat16", "extend int"])
def test_integer_breakpoints_work_as_in_scipy(make):
    """Was: ``PPoly([[1, 2], [0, 1]], [0, 1, 2])`` raised 'data type int64 not inexact'
    (np.finfo on the breakpoints' own dtype, before converting them)."""
    c = np.array([[1.0, 2.0], [0.0, 1.0]])
    if make == "int list":
        p = PPoly([[1, 2], [0, 1]], [0, 1, 2])
    elif make == "int array":
        p = PPoly(c, np.array([0, 1, 2]))
    elif make == "bfloat16":
        p = PPoly(c.astype(F32), np.array([0, 1, 2], jnp.bfloat16))
    else:
        p = PPoly(c, np.array([0.0, 1.0, 2.0]))
        p.extend(np.ones((2, 1)), np.array([3]))
    close(p(np.array([0.5, 1.5])), si.PPoly(c, [0, 1, 2])(np.array([0.5, 1.5])), 1e-6)


@jax.jit
def _extended(x_new):
    p = PPoly(np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]]), np.array([0.0, 1.0, 2.0]))
    p.extend(np.ones((3, 2)), x_new)
    return p(np.linspace(-3.0, 6.0, 10))


@pytest.mark.parametrize("new_x", [[4.0, 3.0], [1.5, 3.0], [-1.0, 0.5], [np.nan, 3.0]])
def test_traced_invalid_extend_gives_nan(new_x):
    """Was: wrong-way, overlapping or NaN traced breakpoints in `extend` gave plausible
    numbers under jit (DESIGN §5: bad traced data give NaN)."""
    assert np.all(np.isnan(np.asarray(_extended(np.array(new_x)))))


def test_traced_valid_extend_matches_scipy():
    ref = si.PPoly(np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]]), np.array([0.0, 1.0, 2.0]))
    ref.extend(np.ones((3, 2)), np.array([3.0, 4.5]))
    close(_extended(np.array([3.0, 4.5])), ref(np.linspace(-3.0, 6.0, 10)))


@pytest.mark.parametrize("dtype", [np.float64, F32])
def test_extend_from_the_end_breakpoint_is_not_nan(dtype):
    """Was: a first new breakpoint equal to the end one (a zero-width interval, valid
    in scipy; or f64 breakpoints that collide once cast to the PPoly's f32) made every
    value past the end NaN.  (Now dropped, as the constructor drops them.)"""
    p = PPoly(np.ones((3, 2), dtype), np.array([0.0, 1.0, 2.0], dtype))
    p.extend(np.ones((3, 1)), np.array([2.0 if dtype == np.float64 else 2.00000001]))
    assert np.all(np.isfinite(np.asarray(p(np.array([2.5, 3.0], dtype)))))


def test_descending_extend_from_the_end_breakpoint_keeps_old_values():
    """Was: ``x = [x_end]`` went to the wrong side of a descending PPoly: breakpoints
    [0, 2, 1, 0] and silently different values inside the old range."""
    c = np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]])
    p = PPoly(c, np.array([2.0, 1.0, 0.0]))
    q = np.array([0.25, 0.75, 1.25, 1.75])
    before = np.asarray(p(q))
    p.extend(np.ones((3, 1)), np.array([0.0]))
    assert np.all(np.diff(np.asarray(p.x)) <= 0), p.x
    close(p(q), before)


def test_extend_with_nothing_is_a_no_op():
    """Was: c of shape (k+1, 0) and x of shape (0,) raised ZeroDivisionError."""
    p = PPoly(np.ones((3, 2)), np.array([0.0, 1.0, 2.0]))
    p.extend(np.zeros((3, 0)), np.zeros(0))
    close(p.x, [0.0, 1.0, 2.0])


def test_descending_breakpoints_keep_scipys_accuracy_near_x_i():
    """Was: descending pieces were re-expanded about their other end (cancellation):
    P(100) = 1.0000076e-6 for 1e-6, and ``.c`` did not give ``c`` back (7.6e-12·max|c|)."""
    c = np.array([[1.0], [0.0], [0.0], [1e-6]])  # (x - 100)³ + 1e-6 on [0, 100]
    ours, ref = PPoly(c, [100.0, 0.0]), si.PPoly(c, [100.0, 0.0])
    q = np.array([100.0, 99.9, 99.0])
    np.testing.assert_allclose(np.asarray(ours(q)), ref(q), rtol=1e-12, atol=1e-12 * 1e-6)
    close(ours.c, c)
    close(ours.integrate(100.0, 99.9), ref.integrate(100.0, 99.9))
    assert float(ours.antiderivative()(100.0)) == 0.0  # scipy's anchor: x[0]


@pytest.mark.parametrize("size", [None, 3])
def test_roots_of_zero_columns(size):
    """Was: roots/solve of y of shape (n, 0) raised ZeroDivisionError (reshape of a 0-size
    array); scipy returns an empty object array (with size=: shape (0, size))."""
    roots = CubicSpline(X, np.zeros((6, 0))).roots(size=size)
    assert np.shape(roots) == ((0,) if size is None else (0, 3))


@pytest.mark.parametrize("method", ["derivative", "antiderivative"])
def test_bool_order_rejected_like_call(method):
    """Was: derivative(True) passed (abs(True) == 1) where a call with nu=True raises."""
    p = PPoly(np.ones((4, 2)), np.array([0.0, 1.0, 2.0]))
    for call in (lambda: p(0.5, True), lambda: getattr(p, method)(True)):
        with pytest.raises(TypeError, match="nu"):
            call()


# ================================================ root-finding defects, fixed


def test_descending_roots_near_x_i_keep_scipys_accuracy():
    """Pieces held in z = −x go to the root finder as they are (it re-expanded them
    about the other end into ascending x, which cancelled: 99.98999989, not 99.99)."""
    c = np.array([[1.0], [0.0], [0.0], [1e-6]])
    same_roots(PPoly(c, [100.0, 0.0]).roots(), si.PPoly(c, [100.0, 0.0]).roots(), 1e-12)


# q(t) = Σ q_p tᵖ on [0, 1] evaluates to -1.1e-16 at t = 1 by Horner, exactly 0 as the
# reversed polynomial of the extrapolated end: its root t ≈ 1 falls between the two.
# Mirrored (t → −t), the same happens at t = −1 between the near and far ends below.
_LOST = np.array([[-1.6547112295472464], [2.466426403972967], [0.13934134186943303],
                  [-0.9510565162951536]])  # fmt: skip
_MIRRORED = _LOST * [[-1], [1], [-1], [1]]


@pytest.mark.parametrize("case", ["above", "below", "both", "descending", "CubicHermiteSpline"])
def test_root_at_the_outer_breakpoints_is_not_lost_when_extrapolating(case):
    """Two problems that share a point now use one value of q there (the root at
    t = ±1 was lost: Horner gave −1.1e-16, the reversed polynomial 0)."""
    c, x = {
        "above": (_LOST, [0.0, 1.0]),
        "below": (_MIRRORED, [0.0, 1.0]),
        "both": (np.concatenate([_MIRRORED, _LOST], axis=1), [-1.0, 0.0, 1.0]),
        "descending": (_MIRRORED, [1.0, 0.0]),
    }.get(case, (None, None))
    if c is not None:
        ours, ref = PPoly(c, x), si.PPoly(c, x)
    else:
        y = np.sin(2 * np.pi * X)
        y[-1] = 0.0  # the spline is 0 at x = 1
        ours, ref = CubicHermiteSpline(X, y, np.cos(X)), si.CubicHermiteSpline(X, y, np.cos(X))
    same_roots(ours.roots(), ref.roots(), 1e-9)


def test_roots_planted_within_rounding_of_the_outer_breakpoints():
    """Random cubic pieces, either direction, every piece with roots within 1e-15 of
    both outer breakpoints, extrapolated: scipy's roots (2 of these 60 differed at
    360e1b2, by a lost root or a re-expanded descending piece)."""
    for seed in range(60):
        rng = np.random.default_rng(seed)
        m = int(rng.integers(1, 4))
        x = np.cumsum(np.r_[0, rng.uniform(0.5, 2, m)]) * rng.choice([-1, 1])
        x = np.sort(x)[:: rng.choice([-1, 1])]
        c = np.empty((4, m))
        for i in range(m):
            roots = np.r_[x[[0, -1]] + rng.normal(size=2) * 1e-15, rng.uniform(-3, 3)]
            c[::-1, i] = np.polynomial.polynomial.polyfromroots(roots - x[i])
        same_roots(PPoly(c, x).roots(), si.PPoly(c, x).roots(), 1e-9)


@pytest.mark.parametrize("dtype, scale", [(F32, 1e-34), (np.float64, 1e-300)])
def test_roots_of_tiny_values(dtype, scale):
    """Near-subnormal data: the root finder scales each piece by a power of two first
    (it used to see flushed subnormals: 5e-5 off in f32)."""
    x = np.linspace(0, 3, 6).astype(dtype)
    y = (np.cos(2 * x.astype(float)) * scale).astype(dtype)
    tol = 1e-5 if dtype == F32 else 1e-12
    ref = si.CubicSpline(x.astype(float), y.astype(float)).roots()
    np.testing.assert_allclose(CubicSpline(x, y).roots(), ref, rtol=0, atol=tol)


# ============================================================ what holds: scale


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_f64_knot_spans_far_from_one(scale):
    """Scale-free: the spline on x·s is the spline on x, rescaled (scipy overflows there)."""
    ours, ref = CubicSpline(X * scale, Y), si.CubicSpline(X, Y)
    close(ours(Q * scale), ref(Q))
    close(np.asarray(ours(Q * scale, 1)) * scale, ref(Q, 1), 1e-11)
    close(float(ours.integrate(0.0, 1.0 * scale)) / scale, ref.integrate(0.0, 1.0))
    close(np.asarray(ours.antiderivative()(Q * scale)) / scale, ref.antiderivative()(Q))
    same_roots(ours.roots() / scale, ref.roots())
    same_roots(ours.solve(0.5, extrapolate=False) / scale, ref.solve(0.5, extrapolate=False))


@pytest.mark.parametrize("name, scale", [("CubicSpline", 1e-30), ("Akima1DInterpolator", 1e30)])
def test_f32_spans_against_scipy_on_rounded_inputs(name, scale):
    ours_cls, ref_cls = CLASSES[name][0], CLASSES[name][1]
    x = X.astype(F32)  # the shapes of the other f32 tests: the same programs
    y = np.sin(3 * x).astype(F32)
    xs = (x.astype(float) * scale).astype(F32)
    q = (Q * scale).astype(F32)
    ours = ours_cls(xs, y)
    ref = ref_cls(xs.astype(float) / scale, y.astype(float))
    values = np.asarray(ours(q))
    assert values.dtype == F32 and ours.c.dtype == F32
    close(values, ref(q.astype(float) / scale), 2e-6)
    close(np.asarray(ours(q, 1), float) * scale, ref(q.astype(float) / scale, 1), 1e-5)


@pytest.mark.parametrize("dtype, scale", [(np.float64, 1e-300), (np.float64, 1e300),
                                          (F32, 1e-30), (F32, 1e30)])  # fmt: skip
def test_huge_and_tiny_ppoly_coefficients(dtype, scale):
    c = np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]])
    x = np.array([0.0, 1.0, 2.0])
    ours, ref = PPoly((c * scale).astype(dtype), x.astype(dtype)), si.PPoly(c, x)
    rtol = 1e-12 if dtype == np.float64 else 2e-6
    q = np.linspace(-1, 3, 9).astype(dtype)
    close(np.asarray(ours(q), float) / scale, ref(q.astype(float)), rtol)
    close(float(ours.integrate(0, 2)) / scale, ref.integrate(0, 2), rtol)
    close(np.asarray(ours.derivative().c, float) / scale, ref.derivative().c, rtol)


def test_values_near_the_top_of_the_f64_range():
    ours, ref = CubicSpline(X, Y * 1e300), si.CubicSpline(X, Y * 1e300)
    close(np.asarray(ours(Q)) / 1e300, ref(Q) / 1e300)
    close(float(ours.integrate(-1, 2)) / 1e300, ref.integrate(-1, 2) / 1e300)
    same_roots(ours.solve(0.5e300), ref.solve(0.5e300))


def test_integrals_over_huge_ranges():
    ours, ref = CubicSpline(X, Y), si.CubicSpline(X, Y)
    close(ours.integrate(-1e5, 1e5), ref.integrate(-1e5, 1e5))
    assert ours.integrate(-1e100, 1e100) == ref.integrate(-1e100, 1e100) == np.inf
    yp = np.sin(2 * np.pi * X)
    yp[-1] = yp[0]
    ours, ref = CubicSpline(X, yp, bc_type="periodic"), si.CubicSpline(X, yp, bc_type="periodic")
    period = X[-1] - X[0]
    for a, b in [(-1e15, 1e15 + 0.25), (0.1, 1e6 + 0.35)]:
        # (b - a) / period whole periods, each integral exact to rounding (an ulp of
        # max|y| · period; here the exact value is 0, so each library keeps its own
        # rounding noise, ~1e-17): that noise times the count is the conditioning.
        bound = 4 * (b - a) / period * np.finfo(float).eps * np.abs(yp).max() * period
        np.testing.assert_allclose(ours.integrate(a, b), ref.integrate(a, b), rtol=0, atol=bound)


# ======================================================= what holds: bad data


BAD_X = {"NaN": np.where(np.arange(6) == 2, np.nan, X), "inf": np.where(np.arange(6) == 5, np.inf, X)}


@pytest.mark.parametrize("name", list(CLASSES))
def test_non_finite_knots_raise_eagerly_also_as_constants_inside_jit(name):
    make = CLASSES[name][0]
    for x in BAD_X.values():
        with pytest.raises(ValueError, match=r"`x` must be finite; `x\[\d\]`"):
            make(x, Y)
        with pytest.raises(ValueError, match="`x` must be finite"):
            jax.jit(lambda: make(x, Y)(0.5))()


def test_traced_non_finite_knots_give_nan_values_and_gradients():
    """(Every class and bad kind: tests/test_ppoly_transforms.py; here the slopes too.)"""
    @jax.jit
    def values_and_gradients(x, y, dydx):
        def value(x, y, dydx):
            return CubicHermiteSpline(x, y, dydx)(0.5)

        return value(x, y, dydx), jax.grad(value, argnums=(0, 1, 2))(x, y, dydx)

    for x in BAD_X.values():
        value, grads = values_and_gradients(x, Y, DYDX)
        assert np.isnan(value) and all(np.all(np.isnan(np.asarray(g))) for g in grads)


@pytest.mark.parametrize("name", list(CLASSES))
def test_non_finite_values_raise_naming_y(name):
    for value in (np.nan, np.inf):
        with pytest.raises(ValueError, match=r"`y` must be finite; `y\[3\]`"):
            CLASSES[name][0](X, np.where(np.arange(6) == 3, value, Y))


def test_non_finite_slopes_and_boundary_values():
    with pytest.raises(ValueError, match=r"`dydx` must be finite; `dydx\[1\]`"):
        CubicHermiteSpline(X, Y, np.where(np.arange(6) == 1, np.nan, DYDX))
    for value in (np.nan, np.inf):
        with pytest.raises(ValueError, match="bc_type"):
            CubicSpline(X, Y, bc_type=((1, value), "natural"))
    traced = jax.jit(lambda v: CubicSpline(X, Y, bc_type=((1, v), "natural"))(Q))(np.nan)
    assert np.all(np.isnan(traced))


def test_nan_and_infinite_queries():
    spline = CubicSpline(X, Y)
    for extrapolate in (True, False, "periodic"):
        out = np.asarray(spline(np.array([np.nan, np.inf, -np.inf]), (0, 1, 3, 4), extrapolate))
        assert np.all(np.isnan(out[:, 0]))
        if extrapolate is not True:  # ±inf is outside: NaN; wrapped: NaN
            assert np.all(np.isnan(out))
    assert np.isnan(jax.jit(lambda q: spline(q))(np.nan))
    assert np.isnan(jax.grad(lambda q: spline(q, extrapolate="periodic"))(np.inf))


def test_nan_integration_bounds_give_nan():
    spline = CubicSpline(X, Y)
    for extrapolate in (True, False, "periodic"):
        for a, b in [(np.nan, 1.0), (0.0, np.nan)]:
            assert np.isnan(spline.integrate(a, b, extrapolate))  # scipy raises
    assert np.isnan(jax.jit(lambda a, b: spline.integrate(a, b))(np.nan, 1.0))
    assert np.isnan(jax.grad(lambda a: spline.integrate(a, 0.5, "periodic"))(np.nan))


def test_non_finite_solve_level_and_coefficients_give_nan_roots():
    assert np.all(np.isnan(CubicSpline(X, Y).solve(np.nan)))  # scipy raises
    assert np.all(np.isnan(CubicSpline(X, Y).solve(np.inf)))
    c = np.ones((4, 5))
    c[0, 2] = np.nan  # scipy skips the piece; we make the column NaN (documented)
    assert np.all(np.isnan(PPoly(c, X).roots()))


def test_traced_bad_breakpoints_make_roots_nan():
    """(Every other method: tests/test_ppoly_transforms.py.)"""
    c = np.random.default_rng(0).normal(size=(4, 3))
    roots = jax.jit(lambda x: PPoly(c, x).roots(size=4))
    for x in ([0.0, 2.0, 1.0, 3.0], [0.0, 1.0, 1.0, 3.0], [3.0, 2.0, 1.0, 0.0], [0.0, np.nan, 2.0, 3.0]):
        assert np.all(np.isnan(roots(np.array(x))))
    assert np.isfinite(roots(np.array([0.0, 1.0, 2.0, 3.0]))[0])


def test_numpy_constants_inside_jit_are_checked():
    c = np.ones((4, 3))
    with pytest.raises(ValueError, match="strictly increasing or decreasing"):
        jax.jit(lambda q: PPoly(c, np.array([0.0, 2.0, 1.0, 3.0]))(q))(0.5)
    descending = np.array([3.0, 2.5, 1.0, 0.0])  # concrete: stays descending under jit
    close(jax.jit(lambda q: PPoly(c * 0.5, descending)(q))(0.7),
          si.PPoly(c * 0.5, descending)(0.7))  # fmt: skip


# =================================================== what holds: dtypes, types


def test_python_lists_ints_and_numpy_scalars():
    close(CubicSpline(list(range(6)), [0, 1, 0, 1, 2, 3])(list(Q)),
          si.CubicSpline(list(range(6)), [0, 1, 0, 1, 2, 3])(list(Q)))  # fmt: skip
    spline, ref = CubicSpline(X, Y, axis=np.int64(-1)), si.CubicSpline(X, Y)
    close(spline(Q, np.int64(2)), ref(Q, 2))
    close(spline.derivative(np.int32(1)).c, ref.derivative(1).c)
    with pytest.raises(TypeError, match="`nu`"):
        spline(0.3, 1.0)
    with pytest.raises(TypeError, match="`axis`"):
        CubicSpline(X, Y, axis=0.0)
    with pytest.raises(TypeError, match="`size`"):
        spline.roots(size=3.0)


@pytest.mark.parametrize("dtype", [np.float16, jnp.bfloat16])
def test_half_precision_computes_in_float32(dtype):
    x, y = X.astype(F32), np.sin(3 * X).astype(dtype)
    spline = CubicSpline(x, y)
    assert spline(np.float32(0.5)).dtype == F32 and spline.c.dtype == F32
    close(spline(Q.astype(F32)), si.CubicSpline(x.astype(float), y.astype(float))(Q.astype(F32)), 2e-6)
    p = PPoly(np.ones((2, 2), dtype), np.array([0, 1, 2], F32))
    assert p(np.float32(0.5)).dtype == F32 and p.c.dtype == F32


def test_complex_values():
    yc = Y + 1j * np.cos(X)
    ours, ref = CubicSpline(X, yc), si.CubicSpline(X, yc)
    close(ours(Q), ref(Q))
    close(ours.c, ref.c)
    for call in (ours.roots, lambda: ours.solve(0.5), lambda: jax.jit(lambda s: s.roots(size=3))(ours),
                 lambda: PPoly(np.ones((4, 5)) * 1j, X).roots()):  # fmt: skip
        with pytest.raises(ValueError, match="real coefficients"):
            call()
    for cls in (PchipInterpolator, Akima1DInterpolator):
        with pytest.raises(ValueError, match="real `y`"):
            cls(X, yc)
    with pytest.raises(TypeError, match="`bc_type`"):
        CubicSpline(X, Y, bc_type=((1, 1j), "natural"))
    for call, name in [(lambda: ours(0.5 + 1j), "x"), (lambda: ours.integrate(1j, 1), "a"),
                       (lambda: CubicSpline(X, Y).solve(0.5 + 1j), "y"),
                       (lambda: PPoly(np.ones((4, 5)), X + 0j), "x")]:  # fmt: skip
        with pytest.raises(TypeError, match=f"`{name}` must be real"):
            call()


# ============================================================ what holds: shapes


@pytest.mark.parametrize("name", ["CubicSpline", "PchipInterpolator", "Akima1DInterpolator"])
def test_zero_columns(name):
    ours_cls, ref_cls = CLASSES[name]
    empty = np.zeros((6, 0))
    assert ours_cls(X, empty)(np.array([0.1, 0.2])).shape == (2, 0)
    assert ours_cls(X, empty).c.shape == ref_cls(X, empty).c.shape == (4, 5, 0)
    assert ours_cls(X, empty).integrate(0, 1).shape == (0,)
    assert ours_cls(X, empty.T, axis=1)(0.5).shape == (0,)


@pytest.mark.parametrize("name", ["Akima1DInterpolator"])
def test_odd_query_shapes_and_last_axis(name):
    ours_cls, ref_cls = CLASSES[name]
    y3 = np.random.default_rng(1).normal(size=(2, 3, 6))
    ours, ref = ours_cls(X, y3, axis=-1), ref_cls(X, y3, axis=2)
    assert ours.axis == ref.axis == 2
    for q in (0.3, np.array(0.3), np.zeros((3, 0)), np.full((2, 3, 4), 0.3), [0.1, 0.9]):
        close(ours(q), ref(q))
    close(ours.c, ref.c)
    close(ours.integrate(0.1, 0.7), ref.integrate(0.1, 0.7))


@pytest.mark.parametrize("name", ["PchipInterpolator", "Akima1DInterpolator"])
def test_two_knots_and_one_interval(name):
    ours_cls, ref_cls = CLASSES[name]
    q = np.array([-1.0, 0.1, 0.5])
    close(ours_cls(X[:2], Y[:2], extrapolate=True)(q), ref_cls(X[:2], Y[:2], extrapolate=True)(q))
    with pytest.raises(ValueError, match="at least 2"):
        ours_cls(X[:1], Y[:1])


@pytest.mark.parametrize("degree, m, descending", [(0, 3, False), (7, 1, True)])
def test_ppoly_degrees_and_trailing_axes(degree, m, descending):
    rng = np.random.default_rng(degree + m)
    x = np.linspace(0.0, 3.0, m + 1) if m > 1 else np.array([0.0, 1.0])
    x = x[::-1].copy() if descending else x
    c = rng.normal(size=(2, degree + 1, m, 3))  # axis=1: two axes before, one after
    ours, ref = PPoly(c, x, axis=1), si.PPoly(c, x, axis=1)
    q = np.array([-1.0, 0.0, 0.3, 1.0, 2.0, 3.0, 4.0])
    orders = (0, 1, degree, degree + 1)
    modes = (True, False, "periodic")

    @jax.jit  # every method in one compiled program (the PPoly is a pytree argument)
    def methods(p, q):
        return ([p(q, orders, e) for e in modes], p.c, p.derivative(degree + 2).c,
                p.antiderivative(2)(q), p.integrate(-0.5, 3.7))  # fmt: skip

    values, c_, derivative_c, anti, integral = methods(ours, q)
    for extrapolate, stacked in zip(modes, values):
        for nu, got in zip(orders, stacked):
            close(got, ref(q, nu, extrapolate), 1e-10)
    close(c_, ref.c, 1e-10)
    close(derivative_c, ref.derivative(degree + 2).c)
    close(anti, ref.antiderivative(2)(q), 1e-10)
    close(integral, ref.integrate(-0.5, 3.7), 1e-10)


@pytest.mark.parametrize("nu", [-2])
def test_negative_and_large_orders(nu):
    c = np.random.default_rng(2).normal(size=(4, 3))
    x = np.array([0.0, 0.5, 1.5, 2.0])
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    close(ours.derivative(nu)(Q), ref.derivative(nu)(Q))
    close(ours.antiderivative(nu)(Q), ref.antiderivative(nu)(Q))
    if nu >= 0:
        close(ours(Q, nu), ref(Q, nu))
    else:
        with pytest.raises(ValueError, match="`nu`"):
            ours(Q, nu)


# =================================================== what holds: descending x


@pytest.mark.parametrize("descending", [False, True])
def test_discontinuous_ppoly_on_breakpoints_seam_and_bounds(descending):
    c = np.random.default_rng(3).normal(size=(3, 3))
    x = np.array([0.0, 1.0, 2.5, 3.0])
    x = x[::-1].copy() if descending else x
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    q = np.array([-1.0, 0.0, 1.0, 2.5, 3.0, 4.0, 6.0, -3.0, 0.5, 2.75])
    modes = (True, False, "periodic")
    bounds = [(0.5, 2.7), (2.7, 0.5), (5.0, -1.0), (1.0, 1.0)]

    @jax.jit  # values, integrals and antiderivatives in one compiled program
    def methods(p, q):
        return ([p(q, (0, 1, 2), e) for e in modes],
                [[p.integrate(a, b, e) for e in (True, False)] for a, b in bounds],
                p.antiderivative()(x[0]), p.antiderivative(3).c)  # fmt: skip

    values, integrals, anchor, anti_c = methods(ours, q)
    for extrapolate, stacked in zip(modes, values):
        for nu, got in enumerate(stacked):
            close(got, ref(q, nu, extrapolate))
        # Roots eagerly: scipy's arrays (a root count is data).
        same_roots(ours.roots(extrapolate=extrapolate), ref.roots(extrapolate=extrapolate))
        same_roots(ours.solve(0.3, False, extrapolate), ref.solve(0.3, False, extrapolate))
    for (a, b), row in zip(bounds, integrals):
        for extrapolate, got in zip((True, False), row):
            close(got, ref.integrate(a, b, extrapolate))
    assert abs(float(anchor)) <= 1e-15  # scipy's anchor: its first breakpoint
    close(anti_c, ref.antiderivative(3).c)
    close(ours.x, ref.x)
    periodic = PPoly(c, x, extrapolate="periodic")
    assert periodic.antiderivative().extrapolate is False
    assert periodic.derivative().extrapolate == "periodic"


def test_descending_periodic_integral_equals_the_ascending_one():
    """scipy raises here; compare with the same function on ascending breakpoints."""
    c = np.random.default_rng(8).normal(size=(4, 3))
    xd = np.array([3.0, 2.5, 1.0, 0.0])
    ascending = np.zeros_like(c)
    for i in range(3):  # re-expand interval i about its lower end, x[i + 1]
        shifted = np.poly1d(c[:, i])(np.poly1d([1.0, xd[i + 1] - xd[i]]))
        ascending[:, 2 - i] = np.pad(shifted.coeffs, (4 - len(shifted.coeffs), 0))
    ours = PPoly(c, xd, extrapolate="periodic")
    ref = si.PPoly(ascending, xd[::-1], extrapolate="periodic")
    for a, b in [(-0.3, 7.7), (7.7, -0.3), (-10.0, 10.0), (1.0, 3001.0)]:
        close(ours.integrate(a, b), ref.integrate(a, b), 1e-11)


# =========================================================== what holds: extend


@pytest.mark.parametrize("descending, side, degree", [(True, "left", 2)])
def test_extend_then_methods_match_scipy(descending, side, degree):
    rng = np.random.default_rng(4)
    c, x = rng.normal(size=(3, 2)), np.array([0.0, 1.0, 2.0])
    new_x = np.array([3.0, 4.5]) if side == "right" else np.array([-2.0, -1.0])
    if descending:
        x, new_x = x[::-1].copy(), (2.0 - new_x)
    new_c = rng.normal(size=(degree + 1, 2))
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    ours.extend(new_c, new_x)
    ref.extend(new_c, new_x)
    q = np.linspace(-3.0, 6.0, 19)
    close(ours.x, ref.x)
    close(ours.c, ref.c)
    close(ours(q), ref(q))
    close(ours.derivative()(q), ref.derivative()(q))
    same_roots(ours.roots(), ref.roots())


@pytest.mark.parametrize("new_c, new_x, match", [
    (np.ones((3, 1)), [1.5], "wholly after or before"),
    (np.ones((3, 2)), [4.0, 3.0], "other direction"),
    (np.ones((3, 1, 2)), [3.0], "shape"),
    (np.ones((3, 2)), [3.0], "shape"),
    (np.ones((3, 1)), [np.nan], "finite"),
    (np.ones((3, 1)), [np.inf], "finite"),
])  # fmt: skip
def test_extend_misuse_raises_and_leaves_the_ppoly_alone(new_c, new_x, match):
    p = PPoly(np.ones((3, 2)), np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match=match):
        p.extend(new_c, np.array(new_x))
    close(p.x, [0.0, 1.0, 2.0])


# ====================================================== what holds: from_spline


@pytest.mark.parametrize("k, extrapolate", [(0, True), (3, "periodic")])
def test_from_spline_matches_scipy(k, extrapolate):
    rng = np.random.default_rng(k)
    t = np.concatenate([np.zeros(k), np.linspace(0, 3, 7), np.full(k, 3.0)])
    c = rng.normal(size=len(t) - k - 1)
    spline = si.BSpline(t, c, k, extrapolate=extrapolate)
    ours, ref = PPoly.from_spline(spline), si.PPoly.from_spline(spline)
    assert ours.extrapolate == ref.extrapolate
    q = np.linspace(-1, 4, 23)
    close(ours(q), ref(q), 1e-10)
    close(PPoly.from_spline((t, c, k), extrapolate=False)(q),
          si.PPoly.from_spline((t, c, k), extrapolate=False)(q), 1e-10)  # fmt: skip


def test_from_spline_multidimensional_and_traced_coefficients():
    x = np.linspace(0, 3, 9)
    t, c, k = si.splrep(x, np.sin(x))
    c3 = np.random.default_rng(0).normal(size=(len(c), 2, 3))  # scipy's from_spline: 1-D only
    q = np.linspace(-1, 4, 11)
    close(PPoly.from_spline(si.BSpline(t, c3, k))(q), si.BSpline(t, c3, k)(q), 1e-12)
    close(jax.jit(lambda c: PPoly.from_spline((t, c, k))(q))(c), si.splev(q, (t, c, k)))
    with pytest.raises(TypeError, match="concrete"):
        jax.jit(lambda t: PPoly.from_spline((t, c, k))(0.5))(t)


# ======================================================= what holds: transforms


@pytest.mark.parametrize("name", ["Akima1DInterpolator"])
def test_vmap_over_a_batch_of_splines_and_their_methods(name):
    ours_cls, ref_cls = CLASSES[name]
    rng = np.random.default_rng(5)
    ys = rng.normal(size=(4, 7))
    xs = np.sort(rng.uniform(0, 2, size=(4, 7)), axis=1)
    xs[:, 0], xs[:, -1] = 0.0, 2.0
    refs = [ref_cls(xs[i], ys[i]) for i in range(4)]
    batch = jax.vmap(ours_cls)(xs, ys)

    def methods(s):
        return s(np.array([0.3, 1.7])), s.c, s.x, s.integrate(0.1, 1.9), s.roots(size=12)

    got = jax.vmap(methods)(batch)
    expected = [[r(np.array([0.3, 1.7])), r.c, r.x, r.integrate(0.1, 1.9), padded(r.roots(), 12)]
                for r in refs]  # fmt: skip
    for i, ours in enumerate(got):
        close(ours, np.stack([e[i] for e in expected]), 1e-10)
    with pytest.raises(TypeError, match="static `size=`"):
        jax.vmap(lambda s: s.roots())(batch)


def test_jitted_roots_and_their_derivatives_for_new_values():
    """One program for any y; roots as scipy's, NaN-padded; d(roots)/dy along a random
    direction as scipy's finite differences."""

    @jax.jit
    def roots_and_tangents(y, dy):
        return jax.jvp(lambda y: CubicSpline(X, y).roots(size=8), (y,), (dy,))

    rng = np.random.default_rng(6)
    eps = 1e-6
    for _ in range(3):
        y, dy = rng.normal(size=6), rng.normal(size=6)
        roots, tangents = roots_and_tangents(y, dy)
        ref = si.CubicSpline(X, y).roots()
        close(roots, padded(ref, 8), 1e-9)
        fd = (si.CubicSpline(X, y + eps * dy).roots() - si.CubicSpline(X, y - eps * dy).roots())
        np.testing.assert_allclose(tangents[: len(ref)], fd / (2 * eps), rtol=1e-5, atol=1e-7)
    assert roots_and_tangents._cache_size() == 1


# ========================================================= what holds: lineax


def _system(seed=7, n=6, complex_=False):
    rng = np.random.default_rng(seed)
    diag, lower, upper, rhs = (rng.normal(size=n) + 4, rng.normal(size=n - 1),
                               rng.normal(size=n - 1), rng.normal(size=n))  # fmt: skip
    if complex_:
        diag, rhs = diag + 1j * rng.normal(size=n), rhs + 1j * rng.normal(size=n)
        lower, upper = lower + 0j, upper + 0j
    dense = np.diag(diag) + np.diag(lower, -1) + np.diag(upper, 1)
    return diag, lower, upper, rhs, dense


def test_lineax_operators_of_every_form_and_bad_calls():
    diag, lower, upper, rhs, dense = _system()
    op = lx.TridiagonalLinearOperator(diag, lower, upper)
    tagged = lx.MatrixLinearOperator(jnp.asarray(dense), lx.tridiagonal_tag)
    for operator, matrix in [(op.T, dense.T), (2.0 * op + op, 3 * dense), (tagged, dense)]:
        close(splines.tridiagonal_solve(operator, rhs), np.linalg.solve(matrix, rhs))
    inverse = lx.invert(op, splines.Tridiagonal())  # lineax's wrapper around our solves
    close(inverse.mv(jnp.asarray(rhs)), np.linalg.solve(dense, rhs))
    close(inverse.T.mv(jnp.asarray(rhs)), np.linalg.solve(dense.T, rhs))

    full = lx.MatrixLinearOperator(jnp.asarray(dense + np.diag(np.ones(4), 2)))
    with pytest.raises(ValueError, match="must be tridiagonal"):
        splines.tridiagonal_solve(full, rhs)
    with pytest.raises(ValueError, match="must be tridiagonal"):
        lx.linear_solve(full, rhs, splines.Tridiagonal())
    for bad in (rhs[:-1], 1.0):
        with pytest.raises(ValueError, match="`rhs` must have last-axis length n = 6"):
            splines.tridiagonal_solve(op, bad)
    for pivoting in ("yes", 1):
        with pytest.raises(TypeError, match="`pivoting` must be a Python bool"):
            splines.Tridiagonal(pivoting=pivoting)
    diag, lower, upper, rhs, dense = _system(complex_=True)
    op = lx.TridiagonalLinearOperator(diag, lower, upper)
    close(splines.tridiagonal_solve(op, rhs), np.linalg.solve(dense, rhs))
    singular = lx.TridiagonalLinearOperator(np.zeros(3), np.zeros(2), np.zeros(2))
    assert np.all(np.isnan(splines.tridiagonal_solve(singular, np.ones(3))))


def test_no_warnings_from_ordinary_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spline = CubicSpline(X, Y)
        spline(Q), spline.integrate(0, 1), spline.roots(), spline.derivative().c


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_breakpoints_whose_step_overflows_raise_eagerly_and_are_nan_traced(dtype):
    # Pieces are stored over their width: an infinite width would make every
    # local coordinate 0 (a plausible wrong number), as for interp1d's knots.
    big = np.finfo(dtype).max / 2 * 1.5
    x, c = np.array([-big, big], dtype), np.array([[1.0], [0.0]], dtype)
    with pytest.raises(ValueError, match=r"`x\[1\] - x\[0\]` overflows"):
        PPoly(c, x)
    traced = jax.jit(lambda c, x: PPoly(c, x)(jnp.zeros(1, dtype)))
    assert np.isnan(traced(c, x)).all()
