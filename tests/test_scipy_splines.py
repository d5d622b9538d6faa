"""`CubicSpline`, `CubicHermiteSpline`, `PchipInterpolator`, `Akima1DInterpolator`
against scipy's classes of the same names (f64): values, derivatives, ``c``, defaults,
and the inputs that raise.  A port is one changed import."""

import numpy as np
import pytest
import scipy.interpolate as si

import splines
from test_ppoly import close

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
