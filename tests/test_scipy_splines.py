"""`CubicSpline`, `CubicHermiteSpline`, `PchipInterpolator`, `Akima1DInterpolator`
against scipy's classes of the same names (f64): values, derivatives, ``c``, defaults,
and the inputs that raise.  A port is one changed import.

At the edges of their input, against scipy wherever it has an answer: knot spans and
values far from one (float64, and float32 against scipy on the rounded inputs, in the
unit coordinate where scipy itself would overflow), integrals over huge ranges;
non-finite knots, values, slopes and boundary values raise naming the argument (also
as numpy constants inside `jit`); Python lists, ints and numpy scalars; half
precision computes in float32; complex values; empty columns, odd query shapes,
two knots; no warnings from ordinary use.
"""

import warnings

import _unit_splines as unit
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compare import close, same_roots
from _unit_splines import F32

import splines
from splines import Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator, PPoly

RNG = np.random.default_rng(11)
X = np.sort(RNG.uniform(0.0, 4.0, 9)) + np.arange(9) * 0.3  # no tiny cells
Y = np.stack([np.sin(X), np.cos(2 * X), X**2 / 10])  # (3, 9): axis=1
Q = np.concatenate([np.linspace(-1.0, 7.5, 77), X])

BOUNDARIES = {
    "not-a-knot": "not-a-knot",
    "natural": "natural",
    "clamped": "clamped",
    "mixed values": ((1, np.array([0.5, -1.0, 2.0])), (2, np.array([0.0, 3.0, -0.25]))),
}


def check_class(ours, ref, x=Q):
    assert isinstance(ours, splines.AbstractPPoly)
    assert ours.extrapolate == ref.extrapolate and ours.axis == ref.axis
    close(ours.c, ref.c, 1e-11)
    np.testing.assert_array_equal(ours.x, ref.x)
    scale = np.max(np.abs(ref(ref.x)))  # the data's: a derivative may be all but 0
    orders = (0, 1, 2, 3)  # one call (one compiled program): the orders stacked first
    for nu, got in zip(orders, ours(x, orders)):
        close(got, ref(x, nu), 1e-11, floor=scale)
    close(ours.integrate(-0.5, 5.0), ref.integrate(-0.5, 5.0), 1e-11)


@pytest.mark.parametrize("bc_type", BOUNDARIES.values(), ids=list(BOUNDARIES))
def test_cubic_spline(bc_type):
    check_class(splines.CubicSpline(X, Y, axis=1, bc_type=bc_type),
                si.CubicSpline(X, Y, axis=1, bc_type=bc_type))  # fmt: skip


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("bc_type", ["not-a-knot", "natural", "periodic"])
def test_cubic_spline_few_knots(n, bc_type):
    y = Y[:, :n].T.copy()
    if bc_type == "periodic":
        y[-1] = y[0]
    check_class(splines.CubicSpline(X[:n], y, bc_type=bc_type),
                si.CubicSpline(X[:n], y, bc_type=bc_type))  # fmt: skip


def test_periodic_spline_extrapolates_periodically():
    y = np.sin(2 * np.pi * X / (X[-1] - X[0]))
    y[-1] = y[0]
    ours, ref = (cls(X, y, bc_type="periodic") for cls in (splines.CubicSpline, si.CubicSpline))
    assert ours.extrapolate == "periodic"
    check_class(ours, ref, np.linspace(-20.0, 20.0, 201))
    close(ours.integrate(-13.0, 29.0), ref.integrate(-13.0, 29.0), 1e-11)


def test_complex_values():
    y = Y.T + 1j * Y.T[::-1]
    check_class(splines.CubicSpline(X, y), si.CubicSpline(X, y))
    slopes = RNG.normal(size=y.shape) + 1j
    check_class(splines.CubicHermiteSpline(X, y, slopes), si.CubicHermiteSpline(X, y, slopes))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_hermite(axis):
    y = np.moveaxis(Y, 1, axis)
    slopes = RNG.normal(size=y.shape)
    check_class(splines.CubicHermiteSpline(X, y, slopes, axis=axis),
                si.CubicHermiteSpline(X, y, slopes, axis=axis))  # fmt: skip


def test_pchip():
    y = np.stack([np.floor(X), np.exp(-X), np.abs(np.sin(3 * X))], axis=1)
    check_class(splines.PchipInterpolator(X, y), si.PchipInterpolator(X, y))
    check_class(splines.PchipInterpolator(X[:2], y[:2]), si.PchipInterpolator(X[:2], y[:2]))


def test_errors_that_ported_code_catches_are_scipy_s():
    """Where scipy raises ValueError for a value that is not real (complex ``x``, a
    ragged object array), ours is a TypeError that is also a ValueError; Akima's
    unknown method has scipy's type and message."""
    for bad in (X + 1j, np.array([[0.1, 0.2], [0.4]], dtype=object)):
        for error in (TypeError, ValueError):
            with pytest.raises(error, match="`x` must be"):
                CubicSpline(bad, Y[0]) if bad.dtype != object else PPoly(np.ones((1, 8)), X)(bad)
    with pytest.raises(NotImplementedError, match="`method`=invalid is unsupported."):
        Akima1DInterpolator(X, Y[0], method="invalid")


def test_cubic_spline_boundary_values_follow_scipy_s_rules():
    """One value per polynomial (no broadcasting, unlike `interp1d`), and a complex value
    makes the spline complex, as scipy's."""
    columns = Y.T[:, :2]
    for bc in [
        ("clamped", (1, 0.0)),
        ("clamped", (1, [0.0, 0.0, 0.0])),
        ((2, [[0.0, 0.0]]), "natural"),
    ]:
        with pytest.raises(ValueError, match="shape of `y` without its `axis`"):
            CubicSpline(X, columns, 0, bc)
        with pytest.raises(ValueError):
            si.CubicSpline(X, columns, 0, bc)
    bc = ((1, 2j), (2, 0.5))
    ours, theirs = CubicSpline(X, Y[0], bc_type=bc), si.CubicSpline(X, Y[0], bc_type=bc)
    assert np.iscomplexobj(np.asarray(ours(Q)))
    close(ours(Q), theirs(Q))
    close(ours.c, theirs.c)


def test_pchip_interpolate_is_scipy_s():
    """scipy's function: an order, a list of orders (a list of arrays), ``axis``."""
    y = np.stack([np.floor(X), np.exp(-X)], axis=1)
    close(splines.pchip_interpolate(X, y, Q), si.pchip_interpolate(X, y, Q))
    close(
        splines.pchip_interpolate(X, y.T, Q, 1, axis=1), si.pchip_interpolate(X, y.T, Q, 1, axis=1)
    )
    ours, theirs = splines.pchip_interpolate(X, y, Q, [0, 2]), si.pchip_interpolate(X, y, Q, [0, 2])
    assert isinstance(ours, list) and len(ours) == 2
    for a, b in zip(ours, theirs):
        close(a, b)
    assert splines.pchip_interpolate(X, y, Q, []) == si.pchip_interpolate(X, y, Q, []) == []
    close(splines.pchip_interpolate(X, y[:, 0], 2.5), si.pchip_interpolate(X, y[:, 0], 2.5))
    # a negative order is an antiderivative, as scipy's
    close(splines.pchip_interpolate(X, y, Q, -1), si.pchip_interpolate(X, y, Q, -1))
    for a, b in zip(splines.pchip_interpolate(X, y, Q, [-2, 1]),
                    si.pchip_interpolate(X, y, Q, [-2, 1])):  # fmt: skip
        close(a, b)


@pytest.mark.parametrize("method", ["akima", "makima"])
@pytest.mark.parametrize("extrapolate", [None, True])
def test_akima(method, extrapolate):
    y = np.stack([np.floor(X), np.sin(X), np.where(X > 2, 1.0, 0.0)], axis=1)
    ours = splines.Akima1DInterpolator(X, y, method=method, extrapolate=extrapolate)
    check_class(ours, si.Akima1DInterpolator(X, y, method=method, extrapolate=extrapolate))
    assert ours.extrapolate is bool(extrapolate)  # NaN outside by default, as scipy


def test_methods_of_the_classes_return_ppoly():
    spline = splines.CubicSpline(X, Y.T)
    for result in (spline.derivative(), spline.antiderivative()):
        assert type(result) is splines.PPoly
    close(spline.derivative()(Q), si.CubicSpline(X, Y.T).derivative()(Q), 1e-11)


NOT_INCREASING = X.copy()
NOT_INCREASING[4] = NOT_INCREASING[3]
CLASSES = {  # how each class is built, from a module (ours or scipy's)
    "CubicSpline": lambda m, x, y: m.CubicSpline(x, y),
    "Hermite": lambda m, x, y: m.CubicHermiteSpline(x, y, y),
    "Pchip": lambda m, x, y: m.PchipInterpolator(x, y),
    "Akima": lambda m, x, y: m.Akima1DInterpolator(x, y),
}
BAD_DATA = {
    "x not increasing": (NOT_INCREASING, Y[0], "strictly increasing"),
    "x decreasing": (X[::-1], Y[0], "strictly increasing"),
    "one point": (X[:1], Y[0, :1], "at least 2"),
    "y length": (X, Y[0, :-1], "entries along"),
    "x 2-D": (X[None], Y[0], "one-dimensional"),
    "NaN in y": (X, np.where(X > 2, np.nan, Y[0]), "finite"),
    "inf in x": (np.where(X > 3, np.inf, X), Y[0], "finite"),
}


@pytest.mark.parametrize("make", CLASSES.values(), ids=list(CLASSES))
@pytest.mark.parametrize("x, y, match", BAD_DATA.values(), ids=list(BAD_DATA))
def test_bad_data_raise_where_scipy_does(make, x, y, match):
    with pytest.raises(ValueError):
        make(si, x, y)
    with pytest.raises(ValueError, match=match):
        make(splines, x, y)


BAD_OPTIONS = {
    "unknown bc": dict(bc_type="free"),
    "bc triple": dict(bc_type=("natural", "natural", "natural")),
    "bc order 3": dict(bc_type=((3, 0.0), "natural")),
    "periodic ends differ": dict(bc_type="periodic"),
    "periodic with another end": dict(bc_type=("periodic", "natural")),
}


@pytest.mark.parametrize("options", BAD_OPTIONS.values(), ids=list(BAD_OPTIONS))
def test_bad_bc_type_raises_where_scipy_does(options):
    with pytest.raises(ValueError):
        si.CubicSpline(X, Y[0], **options)
    with pytest.raises(ValueError, match="bc_type|periodic"):
        splines.CubicSpline(X, Y[0], **options)


def test_other_bad_input():
    with pytest.raises(ValueError, match="`dydx`"):
        splines.CubicHermiteSpline(X, Y[0], Y[0, :-1])
    for cls in (splines.PchipInterpolator, splines.Akima1DInterpolator):
        with pytest.raises(ValueError, match="real"):
            cls(X, Y[0] + 1j)
    with pytest.raises(NotImplementedError):
        splines.Akima1DInterpolator(X, Y[0], method="pchip")


# ----------------------------------------------------------- scale


@pytest.mark.parametrize("scale", [1e-300, 1e300])
def test_f64_knot_spans_far_from_one(scale):
    """Scale-free: the spline on x·s is the spline on x, rescaled (scipy overflows there)."""
    ours, ref = CubicSpline(unit.X * scale, unit.Y), si.CubicSpline(unit.X, unit.Y)
    close(ours(unit.Q * scale), ref(unit.Q))
    close(np.asarray(ours(unit.Q * scale, 1)) * scale, ref(unit.Q, 1), 1e-11)
    close(float(ours.integrate(0.0, 1.0 * scale)) / scale, ref.integrate(0.0, 1.0))
    close(np.asarray(ours.antiderivative()(unit.Q * scale)) / scale, ref.antiderivative()(unit.Q))
    same_roots(ours.roots() / scale, ref.roots())
    same_roots(ours.solve(0.5, extrapolate=False) / scale, ref.solve(0.5, extrapolate=False))


@pytest.mark.parametrize("name, scale", [("CubicSpline", 1e-30), ("Akima1DInterpolator", 1e30)])
def test_f32_spans_against_scipy_on_rounded_inputs(name, scale):
    ours_cls, ref_cls = unit.CLASSES[name][0], unit.CLASSES[name][1]
    x = unit.X.astype(F32)  # the shapes of the other f32 tests: the same programs
    y = np.sin(3 * x).astype(F32)
    xs = (x.astype(float) * scale).astype(F32)
    q = (unit.Q * scale).astype(F32)
    ours = ours_cls(xs, y)
    ref = ref_cls(xs.astype(float) / scale, y.astype(float))
    values = np.asarray(ours(q))
    assert values.dtype == F32 and ours.c.dtype == F32
    close(values, ref(q.astype(float) / scale), 2e-6)
    close(np.asarray(ours(q, 1), float) * scale, ref(q.astype(float) / scale, 1), 1e-5)


def test_values_near_the_top_of_the_f64_range():
    ours, ref = CubicSpline(unit.X, unit.Y * 1e300), si.CubicSpline(unit.X, unit.Y * 1e300)
    close(np.asarray(ours(unit.Q)) / 1e300, ref(unit.Q) / 1e300)
    close(float(ours.integrate(-1, 2)) / 1e300, ref.integrate(-1, 2) / 1e300)
    same_roots(ours.solve(0.5e300), ref.solve(0.5e300))


def test_integrals_over_huge_ranges():
    ours, ref = CubicSpline(unit.X, unit.Y), si.CubicSpline(unit.X, unit.Y)
    close(ours.integrate(-1e5, 1e5), ref.integrate(-1e5, 1e5))
    assert ours.integrate(-1e100, 1e100) == ref.integrate(-1e100, 1e100) == np.inf
    yp = np.sin(2 * np.pi * unit.X)
    yp[-1] = yp[0]
    ours = CubicSpline(unit.X, yp, bc_type="periodic")
    ref = si.CubicSpline(unit.X, yp, bc_type="periodic")
    period = unit.X[-1] - unit.X[0]
    for a, b in [(-1e15, 1e15 + 0.25), (0.1, 1e6 + 0.35)]:
        # (b - a) / period whole periods, each integral exact to rounding (an ulp of
        # max|y| · period; here the exact value is 0, so each library keeps its own
        # rounding noise, ~1e-17): that noise times the count is the conditioning.
        bound = 4 * (b - a) / period * np.finfo(float).eps * np.abs(yp).max() * period
        np.testing.assert_allclose(ours.integrate(a, b), ref.integrate(a, b), rtol=0, atol=bound)


# --------------------------------------------------- non-finite data


@pytest.mark.parametrize("name", list(unit.CLASSES))
def test_non_finite_knots_raise_eagerly_also_as_constants_inside_jit(name):
    make = unit.CLASSES[name][0]
    for x in unit.BAD_X.values():
        with pytest.raises(ValueError, match=r"`x` must be finite; `x\[\d\]`"):
            make(x, unit.Y)
        with pytest.raises(ValueError, match="`x` must be finite"):
            jax.jit(lambda x=x: make(x, unit.Y)(0.5))()


@pytest.mark.parametrize("name", list(unit.CLASSES))
def test_non_finite_values_raise_naming_y(name):
    for value in (np.nan, np.inf):
        with pytest.raises(ValueError, match=r"`y` must be finite; `y\[3\]`"):
            unit.CLASSES[name][0](unit.X, np.where(np.arange(6) == 3, value, unit.Y))


def test_non_finite_slopes_and_boundary_values():
    with pytest.raises(ValueError, match=r"`dydx` must be finite; `dydx\[1\]`"):
        CubicHermiteSpline(unit.X, unit.Y, np.where(np.arange(6) == 1, np.nan, unit.DYDX))
    for value in (np.nan, np.inf):
        with pytest.raises(ValueError, match="bc_type"):
            CubicSpline(unit.X, unit.Y, bc_type=((1, value), "natural"))
    traced = jax.jit(lambda v: CubicSpline(unit.X, unit.Y, bc_type=((1, v), "natural"))(unit.Q))(
        np.nan
    )
    assert np.all(np.isnan(traced))


# ------------------------------------------------- types and dtypes


def test_python_lists_ints_and_numpy_scalars():
    close(CubicSpline(list(range(6)), [0, 1, 0, 1, 2, 3])(list(unit.Q)),
          si.CubicSpline(list(range(6)), [0, 1, 0, 1, 2, 3])(list(unit.Q)))  # fmt: skip
    spline, ref = CubicSpline(unit.X, unit.Y, axis=np.int64(-1)), si.CubicSpline(unit.X, unit.Y)
    close(spline(unit.Q, np.int64(2)), ref(unit.Q, 2))
    close(spline.derivative(np.int32(1)).c, ref.derivative(1).c)
    with pytest.raises(TypeError, match="`nu`"):
        spline(0.3, 1.0)
    with pytest.raises(TypeError, match="`axis`"):
        CubicSpline(unit.X, unit.Y, axis=0.0)
    with pytest.raises(TypeError, match="`size`"):
        spline.roots(size=3.0)


@pytest.mark.parametrize("dtype", [np.float16, jnp.bfloat16])
def test_half_precision_computes_in_float32(dtype):
    x, y = unit.X.astype(F32), np.sin(3 * unit.X).astype(dtype)
    spline = CubicSpline(x, y)
    assert spline(np.float32(0.5)).dtype == F32 and spline.c.dtype == F32
    ref = si.CubicSpline(x.astype(float), y.astype(float))
    close(spline(unit.Q.astype(F32)), ref(unit.Q.astype(F32)), 2e-6)
    p = PPoly(np.ones((2, 2), dtype), np.array([0, 1, 2], F32))
    assert p(np.float32(0.5)).dtype == F32 and p.c.dtype == F32


def test_complex_y_is_interpolated_and_every_other_argument_must_be_real():
    """(A complex boundary value makes `CubicSpline` complex: the test above.)"""
    yc = unit.Y + 1j * np.cos(unit.X)
    ours, ref = CubicSpline(unit.X, yc), si.CubicSpline(unit.X, yc)
    close(ours(unit.Q), ref(unit.Q))
    close(ours.c, ref.c)
    for call in (ours.roots, lambda: ours.solve(0.5), lambda: jax.jit(lambda s: s.roots(size=3))(ours),
                 lambda: PPoly(np.ones((4, 5)) * 1j, unit.X).roots()):  # fmt: skip
        with pytest.raises(ValueError, match="real coefficients"):
            call()
    for cls in (PchipInterpolator, Akima1DInterpolator):
        with pytest.raises(ValueError, match="real `y`"):
            cls(unit.X, yc)
    with pytest.raises(TypeError, match="`bc_type`"):  # interp1d keeps real data real
        splines.interp1d(unit.Q, unit.X, unit.Y, "cubic2", bc_type=((1, 1j), "natural"))
    for call, name in [(lambda: ours(0.5 + 1j), "x"), (lambda: ours.integrate(1j, 1), "a"),
                       (lambda: CubicSpline(unit.X, unit.Y).solve(0.5 + 1j), "y"),
                       (lambda: PPoly(np.ones((4, 5)), unit.X + 0j), "x")]:  # fmt: skip
        with pytest.raises(TypeError, match=f"`{name}` must be real"):
            call()


# ------------------------------------------------------------ shapes


@pytest.mark.parametrize("name", ["CubicSpline", "PchipInterpolator", "Akima1DInterpolator"])
def test_zero_columns_give_empty_values_coefficients_and_integrals(name):
    ours_cls, ref_cls = unit.CLASSES[name]
    empty = np.zeros((6, 0))
    assert ours_cls(unit.X, empty)(np.array([0.1, 0.2])).shape == (2, 0)
    assert ours_cls(unit.X, empty).c.shape == ref_cls(unit.X, empty).c.shape == (4, 5, 0)
    assert ours_cls(unit.X, empty).integrate(0, 1).shape == (0,)
    assert ours_cls(unit.X, empty.T, axis=1)(0.5).shape == (0,)


@pytest.mark.parametrize("name", ["Akima1DInterpolator"])
def test_odd_query_shapes_and_last_axis(name):
    ours_cls, ref_cls = unit.CLASSES[name]
    y3 = np.random.default_rng(1).normal(size=(2, 3, 6))
    ours, ref = ours_cls(unit.X, y3, axis=-1), ref_cls(unit.X, y3, axis=2)
    assert ours.axis == ref.axis == 2
    for q in (0.3, np.array(0.3), np.zeros((3, 0)), np.full((2, 3, 4), 0.3), [0.1, 0.9]):
        close(ours(q), ref(q))
    close(ours.c, ref.c)
    close(ours.integrate(0.1, 0.7), ref.integrate(0.1, 0.7))


@pytest.mark.parametrize("name", ["PchipInterpolator", "Akima1DInterpolator"])
def test_two_knots_and_one_interval(name):
    ours_cls, ref_cls = unit.CLASSES[name]
    q = np.array([-1.0, 0.1, 0.5])
    close(
        ours_cls(unit.X[:2], unit.Y[:2], extrapolate=True)(q),
        ref_cls(unit.X[:2], unit.Y[:2], extrapolate=True)(q),
    )
    with pytest.raises(ValueError, match="at least 2"):
        ours_cls(unit.X[:1], unit.Y[:1])


def test_no_warnings_from_ordinary_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spline = CubicSpline(unit.X, unit.Y)
        spline(unit.Q), spline.integrate(0, 1), spline.roots(), spline.derivative().c
