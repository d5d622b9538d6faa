"""Eager calls remember their static plan and data verdicts (`splines._utils.eager_cache`), never wrongly.

A remembered plan must give exactly what planning afresh gives, and a
remembered verdict must only ever stand for an immutable array that passed.
"""

import gc

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines
from splines._interpolate import prepare as _fit
from splines._utils import eager_cache as _memo

XP = np.linspace(0.0, 1.0, 8)
FP = np.sin(3 * XP)
X = np.array([-0.5, 0.05, 0.5, 0.95, 1.5])


def test_a_jax_array_is_checked_once(monkeypatch):
    calls = []

    def counting(xp, name):
        calls.append(name)

    monkeypatch.setattr(_fit, "check_knots_eagerly", counting)
    xp = jnp.asarray(XP)
    for _ in range(3):
        splines.interp1d(X, xp, FP)
    assert calls == ["xp"]
    splines.interp1d(X, jnp.asarray(XP), FP)  # another array: checked
    assert calls == ["xp", "xp"]


def test_numpy_knots_are_checked_on_every_call():
    xp = XP.copy()
    splines.interp1d(X, xp, FP)
    xp[3] = xp[2]  # mutable: the same object is now invalid
    with pytest.raises(ValueError, match=r"`xp` must be strictly increasing"):
        splines.interp1d(X, xp, FP)


def test_a_failed_check_is_not_remembered():
    xp = jnp.asarray(XP[::-1])
    for _ in range(2):
        with pytest.raises(ValueError, match="strictly increasing"):
            splines.interp1d(X, xp, FP)


def test_a_verdict_goes_with_its_array():
    xp = jnp.asarray(XP + 1.0)
    splines.interp1d(X, xp, FP)
    key = (_fit.check_knots_eagerly, id(xp), ("xp",))
    assert key in _memo._PASSED
    del xp
    gc.collect()
    assert key not in _memo._PASSED


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
        got = np.asarray(splines.interp1d(X, XP, FP, extrap=extrap))
        fresh = _memo._PLANS.copy()
        _memo._PLANS.clear()
        want = np.asarray(splines.interp1d(X, XP, FP, extrap=extrap))
        _memo._PLANS.update(fresh)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_bad_options_still_raise_after_good_ones():
    splines.interp1d(X, XP, FP, extrap=(1.0, 2.0))
    with pytest.raises(ValueError, match="`extrap`"):
        splines.interp1d(X, XP, FP, extrap=(True, 2.0))  # == (1, 2.0) in Python
    splines.interp1d(X, XP, FP, method="cardinal", c=1)
    with pytest.raises(TypeError, match="`c`"):
        splines.interp1d(X, XP, FP, method="cardinal", c="1")
    with pytest.raises(ValueError, match=r"`c` \(tension\) must be in \[0, 1\]"):
        splines.interp1d(X, XP, FP, method="cardinal", c=1.5)
    splines.interp1d(X, XP, FP, bc_type=((1, 0.0), (2, 0.0)))
    with pytest.raises(ValueError, match="bc_type"):
        splines.interp1d(X, XP, FP, bc_type=((1, 0.0), (3, 0.0)))


def test_boundary_values_are_told_apart():
    clamped = [splines.interp1d(X, XP, FP, bc_type=((1, s), (1, 0.0)), extrap=True)
               for s in (0.0, 1, 1.0, 2.0, np.float32(2.0))]  # fmt: skip
    scipy = pytest.importorskip("scipy.interpolate")
    for got, s in zip(clamped, (0.0, 1, 1.0, 2.0, 2.0)):
        want = scipy.CubicSpline(XP, FP, bc_type=((1, s), (1, 0.0)))(X)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_array_options_bypass_the_memo():
    before = len(_memo._PLANS)
    value = jnp.asarray(0.5)
    got = splines.interp1d(X, XP, FP, bc_type=((1, value), (1, 0.0)), extrap=True)
    want = splines.interp1d(X, XP, FP, bc_type=((1, 0.5), (1, 0.0)), extrap=True)
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
def test_query_types_keep_their_dtypes(x):
    knots = jnp.asarray(XP, jnp.float32)
    got = splines.interp1d(x, knots, FP.astype(np.float32))
    _memo._PLANS.clear()
    want = splines.interp1d(x, knots, FP.astype(np.float32))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_traced_and_eager_calls_share_nothing_wrong():
    f = jax.jit(lambda x, xp, fp: splines.interp1d(x, xp, fp, extrap=True))
    eager = splines.interp1d(X, XP, FP, extrap=True)
    np.testing.assert_allclose(f(X, XP, FP), eager, rtol=1e-14)
    np.testing.assert_allclose(splines.interp1d(X, XP, FP, extrap=True), eager, rtol=0)


def test_the_memo_starts_over_when_full(monkeypatch):
    monkeypatch.setattr(_memo, "_PLAN_LIMIT", 4)
    for n in range(3, 12):
        xp = np.linspace(0.0, 1.0, n)
        got = splines.interp1d(X, xp, np.cos(xp), extrap=True)
        assert len(_memo._PLANS) <= 4
        np.testing.assert_allclose(got, splines.interp1d(X, xp, np.cos(xp), extrap=True))


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
        low = splines.interp1d(X, XP, FP)
    high = splines.interp1d(X, XP, FP)
    with jax.enable_x64(False):
        low_again = splines.interp1d(X, XP, FP)
    assert low.dtype == low_again.dtype == np.float32
    assert high.dtype == np.float64
    want = pytest.importorskip("scipy.interpolate").CubicSpline(XP, FP)(X[1:4])
    np.testing.assert_allclose(high[1:4], want, rtol=1e-13)  # computed in f64 throughout
