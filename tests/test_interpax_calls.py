"""interpax's calls mean the same with ours: its positional order, `even_spacing` (a
search-free cell lookup) and the scipy-style classes' `check`.

interpax 0.3.16's signatures: ``interp1d(xq, x, f, method, derivative, extrap, period,
even_spacing)``, ``interp2d/3d(..., method, derivative, extrap, period, even_spacing)``,
``Interpolator1D/2D/3D(x, ..., f, method, extrap, period, even_spacing)`` and
``Interpolator1D.__call__(xq, dx)``; ``CubicSpline(x, y, axis, bc_type, extrapolate,
check)`` and the other classes with ``check`` after ``extrapolate``.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines

interpax = pytest.importorskip("interpax")

RNG = np.random.default_rng(7)
XP = np.linspace(-1.0, 2.0, 9)
FP = RNG.normal(size=9)
F2 = RNG.normal(size=(9, 9))
# Inside, outside, on every knot and one ulp either side of it, NaN and ±inf.
X = np.concatenate([RNG.uniform(-1.5, 2.5, 50), XP, np.nextafter(XP, 9), np.nextafter(XP, -9),
                    [np.nan, np.inf, -np.inf]])  # fmt: skip


def assert_equal_up_to_contraction(got, want, what):
    """The same NaNs, and numbers equal but for a few roundings on the result's scale:
    a different program may contract ``c0 + c1·t`` into an FMA where this one does not."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what)
    finite = np.isfinite(want)
    scale = np.abs(want[finite]).max(initial=1.0)
    np.testing.assert_allclose(got[finite], want[finite], rtol=0,
                               atol=8 * np.finfo(want.dtype).eps * scale, err_msg=what)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])


def test_positional_options_are_interpax_order():
    """``(method, derivative, extrap, period, even_spacing)`` by position, as interpax."""
    for method in ["linear", "cubic", "cubic2", "akima", "monotonic"]:
        ours = splines.interp1d(X[:50], XP, FP, method, 1, True, None, False)
        theirs = interpax.interp1d(X[:50], XP, FP, method, 1, True, None, False)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, err_msg=method)
        by_name = splines.interp1d(X[:50], XP, FP, method=method, derivative=1, extrap=True,
                                   period=None, even_spacing=False)  # fmt: skip
        np.testing.assert_array_equal(ours, by_name)
    q = RNG.uniform(-1, 2, (2, 20))
    ours = splines.interp2d(*q, XP, XP, F2, "cubic", (1, 0), False, None, True)
    theirs = interpax.interp2d(*q, XP, XP, F2, "cubic", (1, 0), False, None, True)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    itp = splines.Interpolator1D(XP, FP, "cubic", True, None, True)
    np.testing.assert_allclose(itp(X[:50], 1), interpax.Interpolator1D(XP, FP, "cubic", True)(
        X[:50], 1), rtol=1e-12, atol=1e-12)  # fmt: skip
    np.testing.assert_array_equal(itp(X[:50], dx=1), itp(X[:50], 1))


@jax.jit
def _both_lookups(x, xp, fp):
    """Every method, values and slopes, by search and by arithmetic: one program."""
    methods = ["linear", "nearest", "cubic", "cubic2", "akima", "monotonic"]
    return {m: [splines.interp1d(x, xp, fp, m, (0, 1), True, None, even) for even in (False, True)]
            for m in methods}  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_even_spacing_finds_the_pieces_the_search_finds(dtype):
    """On every knot, a ulp either side, outside, at NaN and ±inf: the same pieces, so
    the same numbers (up to the FMA contraction of a different program)."""
    for method, (searched, even) in _both_lookups(X.astype(dtype), XP.astype(dtype),
                                                  FP.astype(dtype)).items():  # fmt: skip
        assert_equal_up_to_contraction(np.asarray(even), np.asarray(searched), method)


def test_even_spacing_periodic_and_grids():
    period = 3.0 + 3.0 / 8  # the closing cell as wide as the others
    x = X[:80]
    for method in ["linear", "cubic2", "nearest"]:
        searched = splines.interp1d(x, XP, FP, method, period=period)
        even = splines.interp1d(x, XP, FP, method, period=period, even_spacing=True)
        assert_equal_up_to_contraction(np.asarray(even), np.asarray(searched), method)
    q = RNG.uniform(-1.2, 2.2, (2, 40))
    for method in ["linear", "cubic2", "akima"]:
        searched = splines.interp2d(*q, XP, XP**3, F2, method, extrap=True)
        even = splines.interp2d(*q, XP, XP**3, F2, method, extrap=True,
                                even_spacing=(True, False))  # fmt: skip
        assert_equal_up_to_contraction(np.asarray(even), np.asarray(searched), method)


def test_even_spacing_has_no_search_in_the_program():
    def program(even):
        return str(jax.make_jaxpr(lambda x: splines.interp1d(x, XP, FP, "cubic2", 0, False, None,
                                                             even))(X))  # fmt: skip

    assert "splines_locate" in program(False)
    assert "splines_locate" not in program(True)


def test_even_spacing_none_detects_concrete_even_knots():
    assert splines.Interpolator1D(XP, FP).even == (True,)  # interpax's modules: None
    assert splines.Interpolator1D(XP**3, FP).even == (False,)
    assert splines.Interpolator2D(XP, XP**3, F2).spline.even == (True, False)
    assert jax.eval_shape(lambda xp: splines.Interpolator1D(xp, FP), XP).even == (False,)


def test_even_spacing_true_on_uneven_knots_raises_or_gives_nan():
    uneven = np.array([0.0, 0.1, 0.2, 3.0, 4.0])
    values = np.arange(5.0)
    with pytest.raises(ValueError, match=r"even_spacing=True.*`xp` is not evenly spaced"):
        splines.interp1d(1.0, uneven, values, even_spacing=True)
    with pytest.raises(ValueError, match=r"`yp` is not evenly spaced"):
        splines.interp2d(1.0, 1.0, XP, uneven, np.ones((9, 5)), even_spacing=True)
    x = np.linspace(0, 4, 9)
    traced = jax.jit(lambda xp: splines.interp1d(x, xp, values, "linear", 0, False, None, True))
    out, searched = np.asarray(traced(uneven)), splines.interp1d(x, uneven, values, "linear")
    assert np.isnan(out[1])  # 0.5 falls in a piece the arithmetic misses: NaN, not a number
    right = ~np.isnan(out)
    np.testing.assert_array_equal(out[right], np.asarray(searched)[right])
    with pytest.raises(TypeError, match="even_spacing"):
        splines.interp1d(1.0, XP, FP, even_spacing="yes")


def test_even_spacing_gradients_match_the_search():
    def loss(fp, xp, x, even):
        return jnp.sum(splines.interp1d(x, xp, fp, "cubic2", 1, True, None, even) ** 2)

    args = (FP, XP, X[:50])
    searched, even = (jax.grad(loss, (0, 1, 2))(*args, e) for e in (False, True))
    for a, b in zip(searched, even):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("cls, args", [
    (splines.CubicSpline, (XP, FP)),
    (splines.CubicHermiteSpline, (XP, FP, np.cos(XP))),
    (splines.PchipInterpolator, (XP, FP)),
    (splines.Akima1DInterpolator, (XP, FP)),
])  # fmt: skip
def test_check_keyword_of_the_scipy_classes(cls, args):
    """``check=False`` skips the eager data checks: bad data give NaN instead of raising."""
    np.testing.assert_array_equal(cls(*args, check=False)(X[:50]), cls(*args)(X[:50]))
    bad = (args[0][::-1],) + args[1:]  # descending knots
    with pytest.raises(ValueError):
        cls(*bad)
    assert np.all(np.isnan(cls(*bad, check=False)(X[:50])))
