"""interpax's calls mean the same with ours: its positional order and defaults (every
public signature pinned), `even_spacing` (a search-free cell lookup), the grid
interpolators' ``dx, dy, dz`` and the classes' `check`.

interpax 0.3.16's signatures: ``interp1d(xq, x, f, method, derivative, extrap, period,
even_spacing)``, ``interp2d/3d(..., method, derivative, extrap, period, even_spacing)``,
``Interpolator1D/2D/3D(x, ..., f, method, extrap, period, even_spacing)`` and
``Interpolator1D.__call__(xq, dx)``; ``CubicSpline(x, y, axis, bc_type, extrapolate,
check)`` and the other classes with ``check`` after ``extrapolate``.
"""

import inspect
from functools import partial

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
    np.testing.assert_allclose(
        got[finite], want[finite], rtol=0, atol=8 * np.finfo(want.dtype).eps * scale, err_msg=what
    )
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

    assert "even=False" in program(False) and "even=True" not in program(False)
    assert "even=True" in program(True) and "even=False" not in program(True)


def test_even_spacing_none_detects_concrete_even_knots():
    """interpax's modules' default; their attribute `even_spacing` says what was found
    (None for traced knots: a search)."""
    assert splines.Interpolator1D(XP, FP).even_spacing is True
    assert splines.Interpolator1D(XP**3, FP).even_spacing is False
    assert splines.Interpolator2D(XP, XP**3, F2).even_spacing == (True, False)
    assert splines.Interpolator3D(XP, XP**3, XP, np.ones((9, 9, 9))).even_spacing == (
        True, False, True)  # fmt: skip
    assert jax.eval_shape(lambda xp: splines.Interpolator1D(xp, FP), XP).even_spacing is None
    assert jax.jit(lambda xp: splines.Interpolator1D(xp, FP, "linear"))(XP).even_spacing is None
    periodic = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    assert splines.Interpolator1D(periodic, periodic, period=2 * np.pi).even_spacing is True


def test_even_spacing_true_on_uneven_knots_raises_or_gives_nan():
    uneven = np.array([0.0, 0.1, 0.2, 3.0, 4.0])
    values = np.arange(5.0)
    with pytest.raises(ValueError, match=r"even_spacing=True.*`xp` is not evenly spaced"):
        splines.interp1d(1.0, uneven, values, even_spacing=True)
    with pytest.raises(ValueError, match=r"`yp` is not evenly spaced"):
        splines.interp2d(1.0, 1.0, XP, uneven, np.ones((9, 5)), even_spacing=True)
    x = np.linspace(0, 4, 9)
    traced = jax.jit(jax.vmap(jax.value_and_grad(
        lambda x, xp: splines.interp1d(x, xp, values, "linear", 0, False, None, True)),
        (0, None)))  # fmt: skip
    out, slope = (np.asarray(a) for a in traced(x, uneven))
    searched = splines.interp1d(x, uneven, values, "linear")
    # 0.5 falls in a piece the arithmetic misses: NaN, not a number, and a NaN gradient
    assert np.isnan(out[1]) and np.isnan(slope[1]), (out, slope)
    right = ~np.isnan(out)
    np.testing.assert_array_equal(out[right], np.asarray(searched)[right])
    assert np.all(np.isfinite(slope[right]))
    with pytest.raises(TypeError, match="even_spacing"):
        splines.interp1d(1.0, XP, FP, even_spacing="yes")
    huge = np.array([-3e38, -1e38, 1e38, 3e38], np.float32)  # even, but the span overflows
    with pytest.raises(ValueError, match=r"the span of `xp` overflows float32"):
        splines.interp1d(np.float32(0.0), huge, huge, "linear", even_spacing=True)
    assert splines.Interpolator1D(huge, huge, "linear").even_spacing is False  # searches


def test_nearest_searches_whatever_even_spacing_says():
    """ "nearest"'s breaks are the midpoints between knots, half a cell in from the ends (and
    a traced closed period cuts its last piece again): even knots, uneven breaks.  So it
    searches, traced or concrete, closed or open, and a query is never NaN for it."""
    period, xp = 2.0, np.linspace(0.0, 2.0, 5)
    fp, x = np.sin(np.pi * xp), np.array([-0.3, 1.7, 1.6, 1.8, 0.26, 1.24])

    @partial(jax.jit, static_argnums=3)
    def traced(x, xp, fp, even):
        return splines.interp1d(x, xp, fp, "nearest", period=period, even_spacing=even)

    searched = traced(x, xp, fp, False)
    np.testing.assert_array_equal(traced(x, xp, fp, True), searched)
    np.testing.assert_array_equal(traced(x, xp[:-1], fp[:-1], True), searched)
    many = np.resize(x, 70)  # ≥ 64 queries: the CPU's even kernel would loop
    np.testing.assert_array_equal(traced(many, xp, fp, True), traced(many, xp, fp, False))
    jittered = xp + np.array([0.0, 0.2, -0.2, 0.2, 0.0])
    np.testing.assert_array_equal(traced(x, jittered, fp, True), traced(x, jittered, fp, False))


@jax.jit
def _bad_traced_data_even_and_searched(q, xp, fp, period):
    """Value and gradients w.r.t. the queries, with and without `even_spacing`."""
    loss = lambda q, even: jnp.sum(  # noqa: E731
        splines.interp1d(q, xp, fp, "linear", 0, False, period, even)
        + splines.interp2d(q, q, xp, xp, jnp.outer(fp, fp), "cubic", 0, False, None, even)
    )
    return {even: jax.value_and_grad(loss)(q, even) for even in (False, True)}


@pytest.mark.parametrize("bad", ["NaN knot", "repeated knot", "periodic ends differ"])
def test_even_spacing_bad_traced_data_give_nan_gradients_as_the_search(bad):
    """The search and the even lookup alike: NaN values and NaN gradients w.r.t. the
    queries (never the zero gradient of a `where`)."""
    xp, fp, period = np.linspace(0.0, 2.0, 9), np.sin(np.pi * np.linspace(0.0, 2.0, 9)), 2.0
    if bad == "NaN knot":
        xp = with_nan = xp.copy()
        with_nan[4] = np.nan
    elif bad == "repeated knot":
        xp = np.r_[xp[:4], xp[3], xp[5:]]
    else:
        fp = np.sin(xp)
    for even, (value, grad) in _bad_traced_data_even_and_searched(XP[2:5], xp, fp,
                                                                  period).items():  # fmt: skip
        assert np.isnan(value) and np.all(np.isnan(grad)), (bad, even, value, grad)


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


# interpax's array arguments are ``xq, x, f`` (queries, knots, values); ours are numpy's
# ``x, xp, fp``: the same positions, deliberately other names.  Its grid modules'
# ``dx`` is our ``derivative`` in Interpolator1D (both accepted by name).
RENAMED = {"xq": "x", "yq": "y", "zq": "z", "x": "xp", "y": "yp", "z": "zp", "f": "fp"}
INTERPAX_NAMES = ["interp1d", "interp2d", "interp3d", "Interpolator1D", "Interpolator2D",
                  "Interpolator3D", "approx_df", "fft_interp1d", "fft_interp2d", "CubicSpline",
                  "CubicHermiteSpline", "PchipInterpolator", "Akima1DInterpolator", "PPoly"]  # fmt: skip


def _parameters(function):
    return [p for p in inspect.signature(function).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]  # fmt: skip


@pytest.mark.parametrize("name", INTERPAX_NAMES)
def test_every_interpax_signature_is_ours(name):
    """Each of interpax's parameters, at its position and by its name, with its default;
    and its modules' call signatures."""
    theirs, ours = getattr(interpax, name), getattr(splines, name)
    pairs = [(theirs, ours)]
    if inspect.isclass(theirs):
        pairs.append((theirs.__call__, ours.__call__))
    for their_function, our_function in pairs:
        positional = [p for p in _parameters(our_function) if p.kind != p.KEYWORD_ONLY]
        by_name = {p.name: p for p in _parameters(our_function)}
        arrays = name.startswith(("interp", "Interp"))
        for k, p in enumerate(_parameters(their_function)):
            expected = RENAMED.get(p.name, p.name) if arrays else p.name
            if name == "Interpolator1D" and p.name == "dx":
                expected = "derivative"  # ours; `dx` is accepted by name too
                assert "dx" in by_name
            assert k < len(positional) and positional[k].name == expected, (name, k, p.name)
            assert positional[k].default == p.default, (name, p.name, p.default)


def test_defaults_give_interpax_numbers():
    """Without a method, ours and interpax's interpolate alike (its "cubic")."""
    q = RNG.uniform(-1, 2, (3, 30))
    f3 = RNG.normal(size=(9, 9, 9))
    cases = {
        "interp1d": (splines.interp1d(q[0], XP, FP), interpax.interp1d(q[0], XP, FP)),
        "interp2d": (splines.interp2d(*q[:2], XP, XP, F2), interpax.interp2d(*q[:2], XP, XP, F2)),
        "interp3d": (splines.interp3d(*q, XP, XP, XP, f3), interpax.interp3d(*q, XP, XP, XP, f3)),
        "Interpolator1D": (splines.Interpolator1D(XP, FP)(q[0]),
                           interpax.Interpolator1D(XP, FP)(q[0])),
        "Interpolator2D": (splines.Interpolator2D(XP, XP, F2)(*q[:2]),
                           interpax.Interpolator2D(XP, XP, F2)(*q[:2])),
        "Interpolator3D": (splines.Interpolator3D(XP, XP, XP, f3)(*q),
                           interpax.Interpolator3D(XP, XP, XP, f3)(*q)),
    }  # fmt: skip
    for what, (ours, theirs) in cases.items():
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12, err_msg=what)
    assert not np.allclose(cases["interp1d"][0], splines.interp1d(q[0], XP, FP, "cubic2"))


# interpax's `extrap`: one option for both sides or a (below, above) pair of them, and on a
# grid one such option for every axis (two scalars are that pair) or one per axis.
EXTRAPS = [True, 2.0, (True, 2.0), (False, True), (-1.0, False), np.array([1.0, 2.0]),
           ((True, False), (3.0, True))]  # fmt: skip


@pytest.mark.parametrize("extrap", EXTRAPS, ids=repr)
def test_extrap_per_side_as_interpax(extrap):
    q = np.array([[-1.5, 0.3, 2.5, 0.4, 0.1, -2.0, 3.0], [0.2, 0.4, 0.6, -1.3, 2.2, -3.0, 3.0]])
    f3 = RNG.normal(size=(9, 9, 9))
    per_axis = isinstance(extrap, tuple) and isinstance(extrap[0], tuple)  # grids only
    cases = {} if per_axis else {
        "interp1d": lambda lib: lib.interp1d(q[0], XP, FP, "cubic", 1, extrap),
        "Interpolator1D": lambda lib: lib.Interpolator1D(XP, FP, "linear", extrap)(q[0]),
        "interp3d": lambda lib: lib.interp3d(*q, q[1, ::-1], XP, XP, XP, f3, "linear", 0, extrap),
    }  # fmt: skip
    cases["interp2d"] = lambda lib: lib.interp2d(*q, XP, XP, F2, "cubic", 0, extrap)
    cases["Interpolator2D"] = lambda lib: lib.Interpolator2D(XP, XP, F2, "linear", extrap)(*q)
    for what, call in cases.items():
        np.testing.assert_allclose(call(splines), call(interpax), rtol=1e-12, atol=1e-12,
                                   err_msg=f"{what} {extrap!r}")  # fmt: skip


def test_extrap_per_side_at_infinity():
    """An extended side has no value at its infinity (NaN, as scipy's PPoly); a filled
    side has its fill; "nearest" keeps its end value when extended."""
    x = np.array([-np.inf, np.inf])
    np.testing.assert_array_equal(splines.interp1d(x, XP, FP, "cubic", 0, (True, 2.0)),
                                  [np.nan, 2.0])  # fmt: skip
    np.testing.assert_array_equal(splines.interp1d(x, XP, FP, "cubic", 0, (-1.0, True)),
                                  [-1.0, np.nan])  # fmt: skip
    np.testing.assert_array_equal(splines.interp1d(x, XP, FP, "nearest", 0, (True, False)),
                                  [FP[0], np.nan])  # fmt: skip


def test_grid_interpolators_take_interpax_dx_dy_dz():
    """``itp(x, y, 1)`` is ∂/∂x (interpax's ``dx=1, dy=0``), not both; our
    ``derivative`` (a pair, or a sequence of pairs) works by name or in ``dx``'s place."""
    q = RNG.uniform(-1, 2, (3, 30))
    f3 = RNG.normal(size=(9, 9, 9))
    ours2, theirs2 = splines.Interpolator2D(XP, XP, F2), interpax.Interpolator2D(XP, XP, F2)
    ours3, theirs3 = splines.Interpolator3D(XP, XP, XP, f3), interpax.Interpolator3D(XP, XP, XP, f3)
    for orders in [(1,), (0, 1), (1, 1), (2, 0)]:
        np.testing.assert_allclose(ours2(*q[:2], *orders), theirs2(*q[:2], *orders), rtol=1e-12,
                                   atol=1e-12, err_msg=str(orders))  # fmt: skip
        np.testing.assert_allclose(ours2(*q[:2], dx=orders[0]), theirs2(*q[:2], dx=orders[0]),
                                   rtol=1e-12, atol=1e-12)  # fmt: skip
    for orders in [(1,), (0, 0, 1), (1, 0, 1)]:
        np.testing.assert_allclose(ours3(*q, *orders), theirs3(*q, *orders), rtol=1e-12,
                                   atol=1e-12, err_msg=str(orders))  # fmt: skip
    both = ours2(*q[:2], derivative=[(1, 0), (0, 1)])
    np.testing.assert_array_equal(both, ours2(*q[:2], [(1, 0), (0, 1)]))
    np.testing.assert_array_equal(both[0], ours2(*q[:2], (1, 0)))
    np.testing.assert_array_equal(both[1], ours2(*q[:2], 0, 1))
    with pytest.raises(TypeError, match="either as dx, dy"):
        ours2(*q[:2], 1, derivative=(1, 0))
    with pytest.raises(TypeError, match="either as dx, dy"):
        ours3(*q, (1, 0, 0), 1)


def test_ppoly_check_false_reads_concrete_breaks_as_traced():
    c = RNG.normal(size=(4, 8))
    x = np.linspace(0.0, 1.0, 9)
    q = RNG.uniform(0, 1, 20)
    np.testing.assert_array_equal(splines.PPoly(c, x, check=False)(q), splines.PPoly(c, x)(q))
    np.testing.assert_allclose(splines.PPoly(c, x, None, 0, False)(q),
                               interpax.PPoly(c, x, None, 0, False)(q), rtol=1e-12)  # fmt: skip
    repeated = np.array([0.0, 0.1, 0.1, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0])
    assert np.isfinite(splines.PPoly(c, repeated)(q)).all()  # dropped, as scipy does
    assert np.isnan(splines.PPoly(c, repeated, check=False)(q)).all()  # as traced ones
