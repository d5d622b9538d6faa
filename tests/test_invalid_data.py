"""Invalid data (docs/architecture.md §5): concrete data raise, traced data give NaN.

Invalid data are knots not finite and strictly increasing (or so close that
their difference is subnormal, or so far apart that it overflows), non-finite
values or boundary values, a period ≤ 0, knots that wrap onto others with
different values (or are too large to wrap into the period), periodic data
whose ends differ:

- concrete (numpy or jax arrays), they raise `ValueError` naming the argument
  and the first bad index (the line, for periodic ends).  The checks run in the
  computation dtype: with x64 off, knots distinct in f64 but equal in f32 are
  duplicates, and a last knot that rounds onto ``xp[0] + period`` closes the
  period.
- traced, they make every output NaN — never a plausible number — and every
  gradient NaN (a zero or finite gradient would let an optimiser walk on
  silently): every method, extrapolation mode, derivative order (also past the
  degree) and `Interpolator1D`; under vmap only in their own row.  A
  non-finite value makes the outputs next to it NaN and poisons its own column
  only, never giving wrong numbers far away (Akima's cutoff scale included).
  `jax.experimental.checkify` turns that NaN into an error, without host
  callbacks in the library.

`interp1d` and `Interpolator1D`, with given slopes, the tension and the scipy
classes' boundary values among the traced data; grids: test_invalid_grid_data.py
(numpy constants inside transformations in 1-D: test_constants_in_transforms.py).
The traced cases of a group are traced into one jitted program (compilation
dominates the runtime), at module level so that parametrized cases share it.
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _contraction import assert_same_but_contraction
from jax.experimental import checkify

import splines
from splines import Interpolator1D, interp1d

METHODS = ["nearest", "linear", "cubic2"]
DEGREE = {"nearest": 0, "linear": 1, "cubic2": 3}
AKIMAS = ("akima", "makima")
X = np.array([-1.0, 0.0, 0.5, 1.5, 2.5, 3.9, 4.0, 7.0])  # outside at both ends too
INSIDE = (X >= 0.0) & (X <= 4.0)
X2 = np.array([0.5, 2.5])
XP = np.arange(5.0)
FP = np.array([0.0, 1.0, 4.0, 9.0, 16.0])


# ------------------------------------------------------------------------ knots, eager


# (knots, the first offending index as the message must name it)
BAD_KNOTS = [
    pytest.param(np.array([0.0, 1.0, 3.0, 2.0, 4.0]), 2, id="non-increasing"),
    pytest.param(np.array([0.0, 1.0, 1.0, 2.0, 4.0]), 1, id="duplicate"),
    pytest.param(np.array([4.0, 3.0, 2.0, 1.0, 0.0]), 0, id="decreasing"),
    pytest.param(np.array([0.0, 1.0, np.nan, 3.0, 4.0]), 2, id="nan"),
    pytest.param(np.array([0.0, 1.0, 2.0, 3.0, np.inf]), 4, id="inf"),
    pytest.param(np.array([-np.inf, 1.0, 2.0, 3.0, 4.0]), 0, id="-inf"),
]


BAD_KNOT_ARRAYS = [p.values[0] for p in BAD_KNOTS]


def _xp_message(index):
    return rf"`xp`.*`xp\[{index}\]`"


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("xp, index", BAD_KNOTS)
def test_bad_knots_raise_eagerly(xp, index, method):
    with pytest.raises(ValueError, match=_xp_message(index)):
        interp1d(X, xp, FP, method)
    with pytest.raises(ValueError, match=_xp_message(index)):
        Interpolator1D(xp, FP, method)
    with pytest.raises(ValueError, match=_xp_message(index)):
        interp1d(X, jnp.asarray(xp), FP, method, extrap=True)  # concrete jax arrays too


def test_bad_knots_message_names_the_pair():
    with pytest.raises(ValueError, match=r"`xp\[2\]` = 3\.0 but `xp\[3\]` = 2\.0"):
        interp1d(X, np.array([0.0, 1.0, 3.0, 2.0, 4.0]), FP, "cubic2")


def test_bad_knots_first_offending_index_across_kinds():
    with pytest.raises(ValueError, match=_xp_message(1)):
        interp1d(X[:4], np.array([0.0, 2.0, 1.0, np.nan]), FP[:4], "cubic2")


def test_subnormal_knot_spacing_raises():
    """XLA:CPU flushes subnormal differences to zero: the knots would collide."""
    xp = (1e-39 * np.array([0, 1, 2, 3.0])).astype(np.float32)
    with pytest.raises(ValueError, match=r"`xp\[1\] - xp\[0\]`.*smallest normal"):
        splines.interp1d(np.float32(1.5e-39), xp, np.array([1, 2, 0, 1], np.float32), "cubic2")


# Knots whose step overflows (xp[1] - xp[0] = inf) are invalid: a width of inf would make t = 0
# and the nearest midpoint inf, plausible wrong values (0 at the midpoint, 0 at the last knot).
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_knots_whose_span_overflows(method, dtype):
    big = np.finfo(dtype).max / 2 * 1.5
    xp, fp = np.array([-big, big], dtype), np.array([0.0, 1.0], dtype)
    x = np.array([-big, 0.0, big], dtype)
    with pytest.raises(ValueError, match="overflows"):
        splines.interp1d(x, xp, fp, method=method)
    traced = jax.jit(lambda x, xp, fp: splines.interp1d(x, xp, fp, method=method))
    assert np.isnan(traced(x, xp, fp)).all()  # NaN under jit, never a plausible number


def _index_2(message):
    return re.search(r"`xp`", message) and re.search(r"xp\[2\]|index 2", message)


@pytest.mark.parametrize("method", METHODS)
def test_x64_off_knots_equal_in_f32_are_duplicates(method):
    """With x64 off the computation is f32; 1 and 1 + 1e-9 are the same knot."""
    xp, fp = np.array([0.0, 1.0, 1.0 + 1e-9, 2.0]), np.arange(4.0)
    with jax.enable_x64(False):
        for api, call in {
            "interp1d": lambda: interp1d(0.5, xp, fp, method),
            "Interpolator1D": lambda: Interpolator1D(xp, fp, method),
            "interp1d with period": lambda: interp1d(0.5, xp, fp, method, period=3.0),
        }.items():
            try:
                call()
            except ValueError as e:
                assert _index_2(str(e)), f"message should name `xp` and index 2: {e}"
            else:
                pytest.fail(
                    f"{api}, {method}: knots equal in f32 accepted (the eager check must run "
                    "in the computation dtype, f32)"
                )


# ----------------------------------------------------------------------- knots, traced


@jax.jit
def _all_methods_all_extraps(xp):
    """Every method × every way out of range, from traced knots."""
    outs = []
    for m in METHODS:
        outs += [
            interp1d(X, xp, FP, m),  # NaN outside
            interp1d(X, xp, FP, m, extrap=True),
            interp1d(X, xp, FP, m, extrap=(-100.0, 100.0)),
            Interpolator1D(xp, FP, m, extrap=2.5)(X),
            Interpolator1D(xp, FP, m, extrap=True)(X, DEGREE[m]),  # highest nonzero order
            interp1d(X, xp, FP, m, period=6.0),  # queries wrap
        ]
    return outs


PER_METHOD = 6  # outputs of `_all_methods_all_extraps` per method


@pytest.mark.parametrize("xp, index", BAD_KNOTS)
def test_traced_bad_knots_give_nan_everywhere(xp, index):
    outs = _all_methods_all_extraps(xp)
    for k, out in enumerate(outs):
        out = np.asarray(out)
        assert out.shape == X.shape
        assert np.all(np.isnan(out)), (METHODS[k // PER_METHOD], k % PER_METHOD, out)


def test_traced_good_knots_give_numbers():
    """One compiled program for every case gives the eager numbers (one program per
    case) for good knots, but for XLA:CPU's contractions."""
    outs = _all_methods_all_extraps(XP)
    for i, m in enumerate(METHODS):
        group = outs[PER_METHOD * i : PER_METHOD * (i + 1)]
        nan_out, extended, filled, scalar_fill, slope, wrapped = (np.asarray(o) for o in group)
        assert_same_but_contraction(extended, interp1d(X, XP, FP, m, extrap=True), FP)
        assert np.all(np.isnan(nan_out[~INSIDE])) and np.all(np.isfinite(nan_out[INSIDE]))
        np.testing.assert_array_equal(nan_out[INSIDE], extended[INSIDE])
        np.testing.assert_array_equal(filled[X < 0], -100.0)
        np.testing.assert_array_equal(filled[X > 4], 100.0)
        np.testing.assert_array_equal(scalar_fill[~INSIDE], 2.5)
        assert np.all(np.isfinite(slope))
        assert_same_but_contraction(wrapped, interp1d(X, XP, FP, m, period=6.0), FP)


@pytest.mark.parametrize("method", METHODS)
def test_traced_bad_knots_give_nan_past_the_degree(method):
    bad = BAD_KNOT_ARRAYS[0]
    order = DEGREE[method] + 1
    out = jax.jit(lambda xp: interp1d(X, xp, FP, method, derivative=order))(bad)
    assert np.all(np.isnan(np.asarray(out)))


def test_vmapped_bad_knots_are_nan_only_in_their_row():
    batch = np.stack([XP, BAD_KNOT_ARRAYS[0], XP + 1.0, BAD_KNOT_ARRAYS[3]])
    out = np.asarray(jax.vmap(lambda xp: interp1d(X, xp, FP, "cubic2", extrap=True))(batch))
    assert np.all(np.isnan(out[[1, 3]]))
    np.testing.assert_allclose(
        out[0], np.asarray(interp1d(X, XP, FP, "cubic2", extrap=True)), rtol=1e-14
    )
    np.testing.assert_allclose(
        out[2], np.asarray(interp1d(X, XP + 1.0, FP, "cubic2", extrap=True)), rtol=1e-14
    )


_jitted_interp1d = jax.jit(splines.interp1d, static_argnames=("method", "extrap"))


@pytest.mark.parametrize("xp_kind", ["nan", "unsorted", "duplicate", "inf"])
@pytest.mark.parametrize("method", ["nearest", "linear", "cubic2"])
def test_invalid_knots_give_all_nan_traced_and_raise_eagerly(method, xp_kind):
    # Bad knots never give a plausible number: NaN everywhere under jit, ValueError eagerly.
    xp = {"nan": [0.0, 1.0, np.nan, 3.0], "unsorted": [0.0, 2.0, 1.0, 3.0],
          "duplicate": [0.0, 1.0, 1.0, 3.0], "inf": [0.0, 1.0, 2.0, np.inf]}[xp_kind]  # fmt: skip
    xp, fp = np.array(xp), np.array([1.0, 2.0, 0.0, 5.0])
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 10.0, np.inf])
    for extrap in (False, True):
        assert np.isnan(_jitted_interp1d(x, xp, fp, method=method, extrap=extrap)).all()
    with pytest.raises(ValueError):
        splines.interp1d(x, xp, fp, method=method)


INVALID_KNOTS = {
    "non-increasing": np.array([0.0, 1.0, 3.0, 2.0, 4.0]),  # a knot that goes back
    "duplicate": np.array([0.0, 1.0, 1.0, 2.0, 4.0]),
    "nan": np.array([0.0, 1.0, np.nan, 3.0, 4.0]),
    "inf": np.array([0.0, 1.0, 2.0, 3.0, np.inf]),
}


def _losses():
    """name → scalar loss of (xp, fp, x, v); v is a boundary value, used by one."""
    out = {}
    for m in METHODS:
        out[f"interp1d/{m}"] = lambda xp, fp, x, v, m=m: interp1d(x, xp, fp, m).sum()
        out[f"Interpolator1D/{m}"] = lambda xp, fp, x, v, m=m: Interpolator1D(xp, fp, m)(x).sum()
    bc = lambda v: ((1, v), (2, 0.0))  # noqa: E731
    out["interp1d/cubic2 bc value"] = lambda xp, fp, x, v: interp1d(
        x, xp, fp, "cubic2", bc_type=bc(v)
    ).sum()
    return out


LOSSES = _losses()


@jax.jit
def _values_and_grads(xp, fp, x, v):
    """jit(value_and_grad) of every loss, w.r.t. xp, fp, x (and v where it is used)."""
    result = {}
    for name, loss in LOSSES.items():
        argnums = (0, 1, 2, 3) if "bc value" in name else (0, 1, 2)
        result[name] = jax.value_and_grad(loss, argnums=argnums)(xp, fp, x, v)
    return result


@pytest.mark.parametrize("kind", list(INVALID_KNOTS))
def test_traced_invalid_knots_give_nan_value_and_all_nan_gradients(kind):
    results = _values_and_grads(INVALID_KNOTS[kind], FP, X2, 0.5)
    failures = []
    for name, (value, grads) in results.items():
        if not np.isnan(value):
            failures.append(f"{name}: value {value} (expected NaN)")
        for arg, g in zip(["xp", "fp", "x", "bc value"], grads):
            g = np.asarray(g)
            if not np.all(np.isnan(g)):
                failures.append(f"{name}: d/d{arg} = {g} (expected all NaN)")
    assert not failures, f"{kind} knots:\n" + "\n".join(failures)


def test_traced_valid_knots_give_finite_gradients():
    """Control: the same program on good knots gives numbers."""
    for name, (value, grads) in _values_and_grads(XP, FP, X2, 0.5).items():
        assert np.isfinite(value), name
        for g in grads:
            assert np.all(np.isfinite(np.asarray(g))), name
    value = _values_and_grads(XP, FP, X2, 0.5)["interp1d/linear"][0]
    np.testing.assert_allclose(value, np.interp(X2, XP, FP).sum(), rtol=1e-14)


# ------------------------------------------------------- values and boundary values


@pytest.mark.parametrize("bad, index", [(np.nan, 3), (np.inf, 1), (-np.inf, 4)], ids=repr)
@pytest.mark.parametrize("method", METHODS)
def test_non_finite_concrete_fp_raises_naming_the_index(method, bad, index):
    fp = FP.copy()
    fp[index] = bad
    for api, call in {
        "interp1d": lambda: interp1d(X2, XP, fp, method),
        "Interpolator1D": lambda: Interpolator1D(XP, fp, method),
        "interp1d with period": lambda: interp1d(X2, XP, fp, method, period=6.0),
    }.items():
        try:
            call()
        except ValueError as e:
            named = "`fp`" in str(e) and re.search(rf"(?<![\d.]){index}(?![\d.])", str(e))
            assert named, f"message should name `fp` and index {index}: {e}"
        else:
            pytest.fail(f"{api}, {method}: non-finite fp[{index}] accepted")


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_non_finite_boundary_values_raise(value):
    xp = np.linspace(0, 1, 5)
    with pytest.raises(ValueError, match="`bc_type`"):
        splines.interp1d(0.3, xp, xp**2, "cubic2", bc_type=((1, value), (2, 0.0)))


TRACED_FP_NAMES = [f"{api}/{m}" for api in ("interp1d", "Interpolator1D") for m in METHODS]


@jax.jit
def _with_traced_fp(fp):
    x = np.array([0.5, 1.75, 2.25, 3.5])  # 1.75 and 2.25: next to knot 2, nearest to it
    return [interp1d(x, XP, fp, m) for m in METHODS] + [
        Interpolator1D(XP, fp, m)(x) for m in METHODS
    ]


def test_traced_nan_in_fp_gives_nan_near_it_and_no_error():
    fp = FP.copy()
    fp[2] = np.nan
    for name, out in zip(TRACED_FP_NAMES, _with_traced_fp(fp)):
        out = np.asarray(out)
        assert np.all(np.isnan(out[[1, 2]])), f"{name}: {out}"
    for name, out in zip(TRACED_FP_NAMES, _with_traced_fp(FP)):  # control
        assert np.all(np.isfinite(np.asarray(out))), name


def _bad_data_losses():
    """name → (loss of (fp, fx, v, p, c), what is made bad): one traced input non-finite.

    Every input the library declares invalid when non-finite: values, given
    slopes, boundary values, the period and the tension, in 1-D, on grids and
    through the scipy classes.
    """
    from splines import CubicHermiteSpline, CubicSpline, interp2d

    bc = lambda v: ((1, v), (2, 0.0))  # noqa: E731
    grid = lambda fp: jnp.outer(fp, fp[:3] + 2)  # noqa: E731
    x, y = np.linspace(0.1, 3.9, 6), np.linspace(0.1, 1.9, 6)
    return {
        "interp1d cubic2 fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cubic2").sum(), "fp"),
        "interp1d akima fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "akima").sum(), "fp"),
        "interp1d linear fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "linear").sum(), "fp"),
        "interp1d fx": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cubic2", fx=fx).sum(), "fx"),
        "interp1d bc value": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cubic2", bc_type=bc(v)).sum(), "v"),
        "interp1d period": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cubic2", period=p).sum(), "p"),
        "interp1d tension": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cardinal", c=c).sum(),
                             "c"),
        "Interpolator1D bc value": (
            lambda fp, fx, v, p, c: Interpolator1D(XP, fp, "cubic2", bc_type=bc(v))(x).sum(), "v"),
        "CubicSpline bc value": (lambda fp, fx, v, p, c: CubicSpline(XP, fp, bc_type=bc(v))(x).sum(),
                                 "v"),
        "CubicHermiteSpline dydx": (lambda fp, fx, v, p, c: CubicHermiteSpline(XP, fp, fx)(x).sum(),
                                    "fx"),
        "interp2d fp": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp), "cubic2").sum(), "fp"),
        "interp2d fx": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp), "cubic2",
                                                         fx=grid(fx)).sum(), "fx"),
        "interp2d period": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp), "cubic2",
                                                             period=(p, None)).sum(), "p"),
    }  # fmt: skip


BAD_DATA_LOSSES = _bad_data_losses()


GOOD_DATA = {"fp": FP, "fx": 2 * XP, "v": 0.5, "p": 6.0, "c": 0.3}


@jax.jit
def _values_and_grads_of_bad_data(bad, use):
    """jit(value_and_grad) of every loss w.r.t. all five inputs, its own input made ``bad``
    where ``use`` (else the good data: the control, from the same program)."""
    out = {}
    for name, (loss, which) in BAD_DATA_LOSSES.items():
        data = dict(GOOD_DATA)
        good = jnp.asarray(data[which])
        made_bad = jnp.full_like(good, bad) if good.ndim == 0 else good.at[1].set(bad)
        data[which] = jnp.where(use, made_bad, good)
        out[name] = jax.value_and_grad(loss, argnums=(0, 1, 2, 3, 4))(*data.values())
    return out


def _bad_data_values_and_grads(bad):
    return _values_and_grads_of_bad_data(np.nan if bad is None else bad, bad is not None)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_traced_non_finite_data_give_nan_values_and_all_nan_gradients(bad):
    """The README's rule: bad traced data give NaN outputs *and* NaN gradients, for
    each of them (a finite gradient of a NaN loss would let an optimiser walk on)."""
    failures = []
    for name, (value, grads) in _bad_data_values_and_grads(bad).items():
        if not np.isnan(value):
            failures.append(f"{name}: value {value}")
        used = [n for n, g in zip(GOOD_DATA, grads) if np.any(np.asarray(g) != 0)]
        for arg in used:
            if not np.all(np.isnan(np.asarray(grads[list(GOOD_DATA).index(arg)]))):
                failures.append(f"{name}: d/d{arg} not all NaN")
        if not np.all(np.isnan(np.asarray(grads[0]))):
            failures.append(f"{name}: d/dfp = {grads[0]}")
    assert not failures, f"bad = {bad}:\n" + "\n".join(failures)


def test_traced_finite_data_give_finite_gradients():
    """Control: the same program on good data gives finite values and gradients."""
    for name, (value, grads) in _bad_data_values_and_grads(None).items():
        assert np.isfinite(value), name
        assert all(np.all(np.isfinite(np.asarray(g))) for g in grads), name


def test_a_non_finite_column_leaves_the_other_columns_alone():
    """Columns are separate interpolants: a bad one's values are NaN on their own.

    (A gradient through a NaN column is NaN, also w.r.t. what the columns share,
    such as the knots, even where a loss does not use it: 0 · NaN.)"""
    x = np.linspace(0.1, 3.9, 6)
    fp = np.stack([FP, np.where(XP == 2, np.inf, FP)], axis=1)
    methods = ["cubic2", "akima", "linear"]

    @jax.jit
    def values_and_grads(fp):  # every method's values and gradient: one program
        return {m: (interp1d(x, XP, fp, m),
                    jax.grad(lambda fp, m=m: interp1d(x, XP, fp, m)[:, 0].sum())(fp))
                for m in methods}  # fmt: skip

    results = values_and_grads(fp)
    for method in methods:
        out, grad = results[method]
        assert np.all(np.isnan(out[:, 1])) and np.all(np.isfinite(out[:, 0])), method
        np.testing.assert_allclose(out[:, 0], interp1d(x, XP, FP, method), rtol=1e-15)
        assert np.all(np.isfinite(grad[:, 0])), method


# Column 1 holds a spike, so the largest weight sum (Akima's cutoff scale) is
# there whatever column 0 holds near its start; the query cell [4, 5] reads
# secants 2..6 only, far from fp[0].
AK_XP = np.arange(12.0)


AK_FP = np.stack(
    [[0.3, 0.1, 0.4, 0.2, 0.7, 0.5, 0.1, 0.6, 0.2, 0.3, 0.8, 0.4],
     [0.2, 0.5, 0.1, 0.6, 0.3, 0.9, 0.4, 0.2, 10.0, 0.3, 0.5, 0.1]], axis=1)  # fmt: skip


AK_X = np.array([4.5, 4.75])
# One jitted function per method, shared by its NaN and inf cases (and the clean data):
# one compile per method, not one per case.
AK_FITTED = {m: jax.jit(lambda fp, m=m: interp1d(AK_X, AK_XP, fp, m)) for m in AKIMAS}


@pytest.mark.parametrize("bad", [np.nan, np.inf], ids=["nan", "inf"])
@pytest.mark.parametrize("method", AKIMAS)
def test_traced_non_finite_value_does_not_give_plausible_wrong_numbers_far_away(method, bad):
    """One traced NaN/inf value gives, as for every other method, NaN or the value the
    clean data give there — never finite, wrong numbers far from the bad value or in
    clean columns.  (Were Akima's cutoff scale ``max(f_1 + f_2)`` NaN/inf, ``total >
    1e-9 · max`` would be False at every knot of every column, and each slope the
    fallback ``(m_{i-2} + m_{i+1})/2``.)"""
    bad_fp = AK_FP.copy()
    bad_fp[0, 0] = bad
    fitted = AK_FITTED[method]
    clean = np.asarray(fitted(AK_FP))
    out = np.asarray(fitted(bad_fp))
    plausible = ~np.isnan(out) & ~np.isclose(out, clean, rtol=1e-12, atol=1e-12)
    why = f"{method}: clean {clean.tolist()}, with fp[0, 0]={bad}: {out.tolist()}"
    assert not plausible.any(), why


# ------------------------------------------------------- the period and periodic data


@pytest.mark.parametrize("period", [0.0, -1.0, np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("method", METHODS)
def test_bad_period_raises(period, method):
    with pytest.raises(ValueError, match="`period`"):
        interp1d(X, XP, FP, method, period=period)
    with pytest.raises(ValueError, match="`period`"):
        Interpolator1D(XP, FP, method, period=period)


@jax.jit
def _traced_period(period):
    return [interp1d(X, XP, FP, m, period=period) for m in METHODS]


@pytest.mark.parametrize("period", [0.0, -1.0, 3.0, np.nan], ids=["0", "-1", "too short", "nan"])
def test_traced_bad_period_gives_nan(period):
    for out in _traced_period(period):
        assert np.all(np.isnan(np.asarray(out)))


def test_traced_good_period_matches_eager():
    for m, out in zip(METHODS, _traced_period(6.0)):
        assert_same_but_contraction(out, interp1d(X, XP, FP, m, period=6.0), FP)


MISMATCHED = np.array([0.0, 1.0, 4.0, 9.0, 0.5])  # fp[0] != fp[-1]


@pytest.mark.parametrize(
    "kwargs",
    [dict(bc_type="periodic"), dict(period=4.0), dict(period=4.0, bc_type="periodic")],
    ids=["bc_type", "closing knot", "both"],
)
def test_periodic_mismatched_ends_raise_eagerly(kwargs):
    with pytest.raises(ValueError, match="first and last values"):
        interp1d(X, XP, MISMATCHED, "cubic2", **kwargs)
    with pytest.raises(ValueError, match="first and last values"):
        Interpolator1D(XP, MISMATCHED, "cubic2", **kwargs)


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_periodic_mismatched_ends_raise_for_local_methods(method):
    with pytest.raises(ValueError, match="first and last values"):
        interp1d(X, XP, MISMATCHED, method, period=4.0)


def test_periodic_mismatch_names_the_line():
    fp = np.stack([FP * 0 + 1.0, MISMATCHED, FP * 0], axis=-1)
    with pytest.raises(ValueError, match=re.escape("`fp[:, 1]` starts at")):
        interp1d(X, XP, fp, "cubic2", bc_type="periodic")
    with pytest.raises(ValueError, match=re.escape("`fp[1, :]` starts at")):
        interp1d(X, XP, fp.T, "cubic2", bc_type="periodic", axis=1)


def test_periodic_open_knots_need_no_matching_ends():
    """Without the closing knot the last value is not the first one's twin."""
    out = interp1d(X, XP, MISMATCHED, "cubic2", period=5.0)
    assert np.all(np.isfinite(np.asarray(out)))


def test_periodic_ends_equal_to_rounding_are_accepted():
    xp = np.linspace(0.0, 2 * np.pi, 9)
    fp = np.sin(xp)  # fp[-1] = -2.4e-16
    assert fp[-1] != fp[0]
    out = np.asarray(interp1d(X, xp, fp, "cubic2", bc_type="periodic"))
    ref = si.CubicSpline(xp, np.append(fp[:-1], fp[0]), bc_type="periodic")(X)
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)
    traced = np.asarray(jax.jit(lambda fp: interp1d(X, xp, fp, "cubic2", bc_type="periodic"))(fp))
    np.testing.assert_allclose(traced, ref, rtol=0, atol=1e-12)


@jax.jit
def _traced_periodic(xp, fp, period):
    return [
        interp1d(X, XP, fp, "cubic2", bc_type="periodic"),  # traced values
        interp1d(X, xp, fp, "cubic2", bc_type="periodic"),  # traced knots and values
        interp1d(X, XP, fp, "linear", period=4.0),  # closing knot, traced values
        interp1d(X, xp, fp, "cubic2", period=period),  # everything traced
    ]


def test_periodic_mismatched_ends_give_nan_when_traced():
    for k, out in enumerate(_traced_periodic(XP, MISMATCHED, 4.0)):
        assert np.all(np.isnan(np.asarray(out))), k
    closed = np.array([0.0, 1.0, 4.0, 9.0, 0.0])
    for k, out in enumerate(_traced_periodic(XP, closed, 4.0)[:3]):
        assert np.all(np.isfinite(np.asarray(out))), k


def _x64_off_closing(xp, fp):
    with jax.enable_x64(False):
        x = np.array([0.1, 0.3, 0.7, 0.9], np.float32)
        closed = np.asarray(interp1d(x, xp, fp, "cubic2", period=1.0))
        opened = np.asarray(interp1d(x, xp[:-1], fp[:-1], "cubic2", period=1.0))
        fitted = np.asarray(Interpolator1D(xp, fp, "cubic2", period=1.0)(x))
    return closed, opened, fitted


@pytest.mark.parametrize("last", [1.0 - 1e-9, 1.0 + 1e-9], ids=["just below", "just above"])
def test_x64_off_period_check_in_f32(last):
    """A last knot that rounds (in f32) onto xp[0] + period is the closing knot:
    neither an error (f64 says 'beyond the period') nor a duplicate of the
    appended closing knot (f64 says 'open', and f32 then has 1.0 twice: NaN)."""
    xp, fp = np.array([0.0, 0.5, last]), np.array([1.0, 0.0, 1.0])
    try:
        closed, opened, fitted = _x64_off_closing(xp, fp)
    except ValueError as e:
        pytest.fail(f"rejected knots that close the period in f32: {e}")
    assert closed.dtype == np.float32
    assert np.all(np.isfinite(closed)), f"NaN with the f32 closing knot: {closed}"
    np.testing.assert_allclose(closed, opened, rtol=0, atol=2e-6)
    np.testing.assert_allclose(fitted, opened, rtol=0, atol=2e-6)


def test_x64_off_period_closing_knot_with_mismatched_ends_raises():
    """The same knots close the period in f32, so the ends must match: ValueError, not NaN."""
    xp, fp = np.array([0.0, 0.5, 1.0 - 1e-9]), np.array([1.0, 0.0, 0.5])
    with jax.enable_x64(False):
        with pytest.raises(ValueError):
            np.asarray(interp1d(np.float32(0.3), xp, fp, "cubic2", period=1.0))
        with pytest.raises(ValueError):
            Interpolator1D(xp, fp, "cubic2", period=1.0)


def test_invalid_traced_periodic_data_poison_every_gradient():
    """Periodic data whose ends differ, traced: every gradient is NaN, w.r.t. the
    queries, knots, values and period — also through the closing knot and value that
    the fit replaces.  Every method's gradients in one jitted program (one compile,
    not two per method)."""
    xp = np.linspace(0, 1, 6)
    fp = np.cos(3 * xp)
    fp[-1] = fp[0] + 0.5  # the ends do not match: invalid periodic data
    methods = ["nearest", "linear", "cubic2"]

    def loss(x, knots, values, period, method):
        return splines.interp1d(x, knots, values, method, period=period).sum()

    @jax.jit
    def gradients(*args):
        return [jax.grad(loss, (0, 1, 2, 3))(*args, m) for m in methods]

    for method, grads in zip(methods, gradients(jnp.array([0.3, 1.5]), xp, fp, 1.0)):
        for name, g in zip(["x", "xp", "fp", "period"], grads):
            assert np.all(np.isnan(np.asarray(g))), f"{method}: d/d{name} = {g}"


def test_invalid_traced_periodic_bc_poisons_the_last_value_too():
    """bc_type="periodic" replaces fp[-1] by fp[0]: its gradient must still be NaN."""
    xp = np.linspace(0, 1, 6)
    fp = np.cos(2 * np.pi * xp)
    fp[-1] += 0.5  # the ends do not match: invalid periodic data

    def loss(values):
        return splines.interp1d(
            jnp.array([0.3, 0.7]), xp, values, "cubic2", bc_type="periodic"
        ).sum()

    assert np.all(np.isnan(np.asarray(jax.jit(jax.grad(loss))(fp))))


# ---------------------------------------------------------------------------- checkify


def _checkified(method, errors):
    return checkify.checkify(jax.jit(lambda xp: interp1d(X, xp, FP, method)), errors=errors)


CHECKIFIED = {
    (m, name): _checkified(m, errors)
    for m in METHODS
    for name, errors in [("float_checks", checkify.float_checks)]
} | {("cubic2", "nan_checks"): _checkified("cubic2", checkify.nan_checks)}


@pytest.mark.parametrize("method, errors", sorted(CHECKIFIED))
def test_checkify_turns_traced_bad_knots_into_an_error(method, errors):
    """What works: checkify's float (or nan) checks flag the first NaN that an
    arithmetic primitive produces from the NaN-ed knots.  Good knots raise
    nothing, even with NaN fill values for queries out of range (those come
    from a select, which the checks do not flag)."""
    checked = CHECKIFIED[method, errors]
    for xp in BAD_KNOT_ARRAYS:
        err, out = checked(xp)
        assert np.all(np.isnan(np.asarray(out)))
        assert err.get() is not None, xp
        with pytest.raises(checkify.JaxRuntimeError):
            err.throw()
    err, out = checked(XP)
    assert err.get() is None
    assert np.isnan(np.asarray(out)[~INSIDE]).all() and np.isfinite(np.asarray(out)[INSIDE]).all()


def test_checkify_catches_traced_periodic_mismatch():
    checked = checkify.checkify(
        jax.jit(lambda fp: interp1d(X, XP, fp, "cubic2", bc_type="periodic")),
        errors=checkify.nan_checks,
    )
    err, _ = checked(FP)  # FP[0] != FP[-1]
    assert err.get() is not None
    err, out = checked(np.array([0.0, 1.0, 4.0, 9.0, 0.0]))
    assert err.get() is None and np.isfinite(np.asarray(out)).all()
