"""Eager calls: their fast paths keep the jitted answers and the errors, and what they
remember is never wrong.

An eager `interp1d` runs its checks in numpy and passes no array for its default
constants (scipy's zero boundary values and the NaN fills are made in the program;
other scalars are cached jax arrays, made outside any trace): the checks take one
vector test in the common case, the search for the first bad entry only when it
fails.

It also remembers its static plan — everything about the call that the options and
the arrays' types decide, in one lookup — and the verdicts on its data
(`splines._utils.eager_cache`): a remembered plan must give exactly what planning
afresh gives, and a remembered verdict must only ever stand for an immutable array
that passed.
"""

import gc

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines
from splines._interpolate import prepare as _fit
from splines._utils import eager_cache as _memo
from splines._utils.dtypes import constant
from splines._utils.validate import check_knots_eagerly, check_values_eagerly

XP = np.linspace(0.0, 1.0, 8)
FP = np.sin(3 * XP)
X = np.array([-0.5, 0.05, 0.5, 0.95, 1.5])
Q = np.linspace(-0.1, 1.1, 9)


# --------------------------------------------------------- constants, eager against jitted


def test_constants_are_concrete_even_when_first_made_in_a_trace():
    value = 0.123456789

    @jax.jit
    def traced():
        made = constant(value, jnp.float32)
        assert not isinstance(made, jax.core.Tracer)
        return made * 2

    assert float(traced()) == np.float32(value) * 2
    cached = constant(value, jnp.float32)  # the same object, usable eagerly
    assert cached is constant(value, jnp.float32) and not isinstance(cached, jax.core.Tracer)
    assert cached.dtype == jnp.float32 and not cached.weak_type


@pytest.mark.parametrize(
    "bc_type, extrap",
    [(None, False), ("natural", True), ("clamped", 0.25), (((1, 0.5), (2, -1.0)), False)],
)
def test_eager_equals_jitted_in_any_order(bc_type, extrap):
    def call(q, x, y):
        return splines.interp1d(q, x, y, "cubic2", bc_type=bc_type, extrap=extrap)

    jitted = jax.jit(call)
    first = np.asarray(jitted(Q, XP, FP))  # constants first made while tracing
    eager = np.asarray(call(Q, XP, FP))
    np.testing.assert_array_equal(eager, first)
    np.testing.assert_array_equal(
        np.asarray(jitted(Q, XP, 2 * FP)), np.asarray(call(Q, XP, 2 * FP))
    )


def test_traced_and_eager_calls_share_nothing_wrong():
    f = jax.jit(lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2", extrap=True))
    eager = splines.interp1d(X, XP, FP, "cubic2", extrap=True)
    np.testing.assert_allclose(f(X, XP, FP), eager, rtol=1e-14)
    np.testing.assert_allclose(splines.interp1d(X, XP, FP, "cubic2", extrap=True), eager, rtol=0)


# ------------------------------------------------------ data checks and their verdicts


@pytest.mark.parametrize(
    "knots, message",
    [
        ([0.0, 1.0, np.nan, 3.0], r"`xp` must be finite; `xp\[2\]` = nan"),
        ([0.0, np.inf, np.inf, 3.0], r"`xp` must be finite; `xp\[1\]` = inf"),
        ([0.0, 2.0, 1.0, 3.0], r"strictly increasing .* `xp\[1\]` = 2.0 but `xp\[2\]` = 1.0"),
        ([0.0, 1.0, 1.0, 3.0], r"strictly increasing"),
        ([0.0, 1e-320, 1.0, 3.0], r"below the smallest normal"),
    ],
)
def test_bad_knots_still_name_the_first_bad_entry(knots, message):
    with pytest.raises(ValueError, match=message):
        check_knots_eagerly(np.asarray(knots), "xp")
    with pytest.raises(ValueError, match=message), np.errstate(all="raise"):
        splines.interp1d(0.5, np.asarray(knots), np.zeros(4), "cubic2")  # and no numpy warning


def test_valid_knots_pass_at_every_size():
    for n in (1, 2, 3, 64):
        check_knots_eagerly(np.arange(float(n)), "xp")
    check_knots_eagerly(np.array([0.0, np.finfo(float).tiny]), "xp")  # exactly tiny apart


def test_bad_values_still_name_the_first_bad_entry():
    values = np.zeros((4, 3))
    values[2, 1], values[3, 0] = np.inf, np.nan
    with pytest.raises(ValueError, match=r"`fp\[2, 1\]` = inf"):
        check_values_eagerly(values, "fp")
    check_values_eagerly(np.zeros((4, 3)), "fp")


def test_a_jax_array_is_checked_once(monkeypatch):
    calls = []

    def counting(xp, name):
        calls.append(name)

    monkeypatch.setattr(_fit, "check_knots_eagerly", counting)
    xp = jnp.asarray(XP)
    for _ in range(3):
        splines.interp1d(X, xp, FP, "cubic2")
    assert calls == ["xp"]
    splines.interp1d(X, jnp.asarray(XP), FP, "cubic2")  # another array: checked
    assert calls == ["xp", "xp"]


def test_numpy_knots_are_checked_on_every_call():
    xp = XP.copy()
    splines.interp1d(X, xp, FP, "cubic2")
    xp[3] = xp[2]  # mutable: the same object is now invalid
    with pytest.raises(ValueError, match=r"`xp` must be strictly increasing"):
        splines.interp1d(X, xp, FP, "cubic2")


def test_a_failed_check_is_not_remembered():
    xp = jnp.asarray(XP[::-1])
    for _ in range(2):
        with pytest.raises(ValueError, match="strictly increasing"):
            splines.interp1d(X, xp, FP, "cubic2")


def test_a_verdict_goes_with_its_array():
    xp = jnp.asarray(XP + 1.0)
    splines.interp1d(X, xp, FP, "cubic2")
    key = (_fit.check_knots_eagerly, id(xp), ("xp",))
    assert key in _memo._PASSED
    del xp
    gc.collect()
    assert key not in _memo._PASSED


# ------------------------------------------------------------------------ plans


@pytest.mark.parametrize(
    "first, second",
    [
        (True, 1),  # extend, then fill with 1: equal in Python, not as options
        (1, True),
        (0.0, -0.0),  # the fill's sign
        (np.float32(2.0), 2.0),
        ((0.0, 1.0), (0.0, 2.0)),
        ([1.0, 2.0], (1.0, 2.0)),
    ],
)
def test_extrap_options_are_told_apart(first, second):
    for extrap in (first, second):
        got = np.asarray(splines.interp1d(X, XP, FP, "cubic2", extrap=extrap))
        fresh = _memo._PLANS.copy()
        _memo._PLANS.clear()
        want = np.asarray(splines.interp1d(X, XP, FP, "cubic2", extrap=extrap))
        _memo._PLANS.update(fresh)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_bad_options_still_raise_after_good_ones():
    splines.interp1d(X, XP, FP, "cubic2", extrap=(1.0, 2.0))
    with pytest.raises(ValueError, match="`extrap`"):
        splines.interp1d(X, XP, FP, "cubic2", extrap=(1.0, 2.0, 3.0))
    splines.interp1d(X, XP, FP, method="cardinal", c=1)
    with pytest.raises(TypeError, match="`c`"):
        splines.interp1d(X, XP, FP, method="cardinal", c="1")
    with pytest.raises(ValueError, match=r"`c` \(tension\) must be in \[0, 1\]"):
        splines.interp1d(X, XP, FP, method="cardinal", c=1.5)
    splines.interp1d(X, XP, FP, "cubic2", bc_type=((1, 0.0), (2, 0.0)))
    with pytest.raises(ValueError, match="bc_type"):
        splines.interp1d(X, XP, FP, "cubic2", bc_type=((1, 0.0), (3, 0.0)))


def test_boundary_values_are_told_apart():
    clamped = [splines.interp1d(X, XP, FP, "cubic2", bc_type=((1, s), (1, 0.0)), extrap=True)
               for s in (0.0, 1, 1.0, 2.0, np.float32(2.0))]  # fmt: skip
    scipy = pytest.importorskip("scipy.interpolate")
    for got, s in zip(clamped, (0.0, 1, 1.0, 2.0, 2.0)):
        want = scipy.CubicSpline(XP, FP, bc_type=((1, s), (1, 0.0)))(X)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_array_options_bypass_the_memo():
    before = len(_memo._PLANS)
    value = jnp.asarray(0.5)
    got = splines.interp1d(X, XP, FP, "cubic2", bc_type=((1, value), (1, 0.0)), extrap=True)
    want = splines.interp1d(X, XP, FP, "cubic2", bc_type=((1, 0.5), (1, 0.0)), extrap=True)
    np.testing.assert_array_equal(got, want)
    assert len(_memo._PLANS) <= before + 2  # the float call planned; the array one did not


@pytest.mark.parametrize(
    "x",
    [
        np.float32(0.3),
        jnp.asarray(0.3),  # weakly typed: promotes to the knots' dtype
        jnp.asarray(0.3, jnp.float32),
        np.array([0.3], np.float16),
        0.3,
        3,
    ],
)
@pytest.mark.parametrize("entry", ["interp1d", "Interpolator1D", "Interpolator2D"])
def test_query_types_keep_their_dtypes(x, entry):
    knots, values = jnp.asarray(XP, jnp.float32), FP.astype(np.float32)
    call = {
        "interp1d": lambda x: splines.interp1d(x, knots, values, "cubic2"),
        "Interpolator1D": splines.Interpolator1D(knots, values, "cubic2"),
        "Interpolator2D": lambda x: splines.Interpolator2D(
            knots, knots, np.outer(values, values), "cubic2"
        )(x, x),  # fmt: skip
    }[entry]
    got = call(x)
    _memo._PLANS.clear()
    want = call(x)
    assert got.dtype == want.dtype == jnp.result_type(x, np.float32) and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(jax.jit(lambda x: call(x))(x), want)


def test_a_repeated_call_is_planned_once(monkeypatch):
    """The second call of a signature makes no plan: the fit's, the evaluation's and the
    queries' static halves come from one lookup."""
    from splines._interpolate import evaluate, functions

    made = []
    for module, name in ((_fit, "plan_fit"), (functions, "evaluation_plan"),
                         (evaluate, "query_dtypes")):  # fmt: skip
        plan = getattr(module, name)
        counted = lambda *a, plan=plan, **k: made.append(1) or plan(*a, **k)  # noqa: E731
        monkeypatch.setattr(module, name, counted)
    spline = splines.Interpolator1D(XP, FP, "cubic2")
    for _ in range(2):
        made.clear()
        splines.interp1d(X, XP, FP, "cubic2", extrap=True)
        splines.interp2d(X, X, XP, XP, np.outer(FP, FP), "linear")
        spline(X, 1)
    assert made == []


def test_the_memo_starts_over_when_full(monkeypatch):
    monkeypatch.setattr(_memo, "_PLAN_LIMIT", 4)
    for n in range(3, 12):
        xp = np.linspace(0.0, 1.0, n)
        got = splines.interp1d(X, xp, np.cos(xp), "cubic2", extrap=True)
        assert len(_memo._PLANS) <= 4
        np.testing.assert_allclose(got, splines.interp1d(X, xp, np.cos(xp), "cubic2", extrap=True))


@pytest.mark.parametrize(
    "value, key",
    [
        (1, (int, 1)),
        (True, (bool, True)),
        ("natural", (str, "natural")),
        (None, (type(None), None)),
    ],
)
def test_option_keys(value, key):
    assert _memo.option_key(value) == key


def test_option_keys_of_arrays_are_unkeyable():
    for value in (np.zeros(2), jnp.zeros(()), ((1, np.zeros(())), "natural")):
        assert _memo.option_key(value) is _memo._UNKEYABLE
    assert _memo.option_key(float("nan")) == _memo.option_key(float("nan"))
    assert _memo.option_key(0.0) != _memo.option_key(-0.0)


def test_plans_follow_the_x64_setting():
    with jax.enable_x64(False):
        low = splines.interp1d(X, XP, FP, "cubic2")
    high = splines.interp1d(X, XP, FP, "cubic2")
    with jax.enable_x64(False):
        low_again = splines.interp1d(X, XP, FP, "cubic2")
    assert low.dtype == low_again.dtype == np.float32
    assert high.dtype == np.float64
    want = pytest.importorskip("scipy.interpolate").CubicSpline(XP, FP)(X[1:4])
    np.testing.assert_allclose(high[1:4], want, rtol=1e-13)  # computed in f64 throughout


# ------------------------------------------------------------- the scipy classes, eagerly


def test_scipy_class_methods_are_bound_without_a_module():
    """`plain_method`: an instance's method is the function with the instance bound (no
    equinox bound-method module to build); on the class, the function itself."""
    import functools

    spline = splines.CubicSpline(XP, FP)
    assert isinstance(spline.integrate, functools.partial)
    assert splines.CubicSpline.integrate.__name__ == "integrate"
    assert "∫" in splines.PPoly.integrate.__doc__
    jitted = jax.jit(lambda s, a: (s.integrate(a, 0.9), s.derivative()(a), s.roots(size=4)))
    eager = (spline.integrate(0.2, 0.9), spline.derivative()(0.2), spline.roots(size=4))
    for got, want in zip(jitted(spline, 0.2), eager):
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("query", [0.3, np.float64(0.3), np.array(0.3), jnp.float64(0.3)],
                         ids=["float", "numpy scalar", "0-d numpy", "jax scalar"])  # fmt: skip
def test_a_python_float_query_is_a_query_of_the_breaks_dtype(query):
    """A Python float skips the checks and the promotion (it is a real, weakly typed
    scalar): the same number and dtype as any other scalar, for the call and the
    integral's bounds, in float32 and float64."""
    for dtype in (np.float32, np.float64):
        spline = splines.CubicSpline(XP.astype(dtype), FP.astype(dtype))
        reference = spline(np.asarray(0.3, dtype))
        got = spline(query)
        assert got.dtype == np.result_type(dtype, getattr(query, "dtype", dtype)), (query, dtype)
        np.testing.assert_allclose(got, reference, rtol=4 * np.finfo(dtype).eps)
        integral = spline.integrate(query, 0.9)
        assert integral.dtype == dtype
        np.testing.assert_allclose(integral, spline.integrate(np.asarray(0.3, dtype), 0.9),
                                   rtol=4 * np.finfo(dtype).eps)  # fmt: skip
