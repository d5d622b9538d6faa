"""Validation (issue 5, specs 3, 6 and 9).

- Invalid *traced* knots poison everything: under
  ``jax.jit(jax.value_and_grad(f, argnums=...))`` the value is NaN and every
  gradient (w.r.t. xp, fp, x, and a traced boundary value) is all NaN — a zero
  or finite gradient would let an optimiser walk on silently.
- Eager checks run in the *computation* dtype: with x64 off, knots that are
  distinct in f64 but equal in f32 are duplicates, and a last knot that rounds
  onto ``xp[0] + period`` is the closing knot.
- Static arguments are checked and named in backticks: `bc_type` with a local
  method, `extrap` with a `period`, numpy integer `axis`, the type of `period`,
  complex queries and boundary values, non-finite concrete `fp`, and the
  grammar of the knot-count message.

The traced cases are traced into one jitted program per group (compilation
dominates the runtime).
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si

from splines import Interpolator1D, interp1d

METHODS = ["nearest", "linear", "cubic2"]
XP = np.arange(5.0)
FP = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
X2 = np.array([0.5, 2.5])
BAD_KNOTS = {
    "non-increasing": np.array([0.0, 1.0, 3.0, 2.0, 4.0]),  # the reproducer
    "duplicate": np.array([0.0, 1.0, 1.0, 2.0, 4.0]),
    "nan": np.array([0.0, 1.0, np.nan, 3.0, 4.0]),
    "inf": np.array([0.0, 1.0, 2.0, 3.0, np.inf]),
}


# --------------------------------------------------------------------------- spec 3


def _losses():
    """name → scalar loss of (xp, fp, x, v); v is a boundary value, used by one."""
    out = {}
    for m in METHODS:
        out[f"interp1d/{m}"] = lambda xp, fp, x, v, m=m: interp1d(x, xp, fp, m).sum()
        out[f"Interpolator1D/{m}"] = lambda xp, fp, x, v, m=m: Interpolator1D(xp, fp, m)(x).sum()
    bc = lambda v: ((1, v), (2, 0.0))  # noqa: E731
    out["interp1d/cubic2 bc value"] = lambda xp, fp, x, v: interp1d(x, xp, fp, bc_type=bc(v)).sum()
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


@pytest.mark.parametrize("kind", list(BAD_KNOTS))
def test_traced_invalid_knots_give_nan_value_and_all_nan_gradients(kind):
    results = _values_and_grads(BAD_KNOTS[kind], FP, X2, 0.5)
    failures = []
    for name, (value, grads) in results.items():
        if not np.isnan(value):
            failures.append(f"{name}: value {value} (expected NaN)")
        for arg, g in zip(["xp", "fp", "x", "bc value"], grads):
            g = np.asarray(g)
            if not np.all(np.isnan(g)):
                failures.append(f"{name}: d/d{arg} = {g} (expected all NaN)")
    assert not failures, f"TRACED-INVALID-KNOTS defect ({kind} knots):\n" + "\n".join(failures)


def test_traced_valid_knots_give_finite_gradients():
    """Control: the same program on good knots gives numbers."""
    for name, (value, grads) in _values_and_grads(XP, FP, X2, 0.5).items():
        assert np.isfinite(value), name
        for g in grads:
            assert np.all(np.isfinite(np.asarray(g))), name
    value = _values_and_grads(XP, FP, X2, 0.5)["interp1d/linear"][0]
    np.testing.assert_allclose(value, np.interp(X2, XP, FP).sum(), rtol=1e-14)


# --------------------------------------------------------------------------- spec 6


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
                    f"DTYPE-OF-CHECKS defect ({api}, {method}): f32-duplicate knots accepted "
                    "(the eager check ran in f64, the computation is f32)"
                )


def _x64_off_closing(xp, fp):
    with jax.enable_x64(False):
        x = np.array([0.1, 0.3, 0.7, 0.9], np.float32)
        closed = np.asarray(interp1d(x, xp, fp, period=1.0))
        opened = np.asarray(interp1d(x, xp[:-1], fp[:-1], period=1.0))
        fitted = np.asarray(Interpolator1D(xp, fp, period=1.0)(x))
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
        pytest.fail(f"DTYPE-OF-CHECKS defect: rejected knots that close the period in f32: {e}")
    assert closed.dtype == np.float32
    assert np.all(np.isfinite(closed)), f"DTYPE-OF-CHECKS defect: NaN, f32 closing knot: {closed}"
    np.testing.assert_allclose(closed, opened, rtol=0, atol=2e-6)
    np.testing.assert_allclose(fitted, opened, rtol=0, atol=2e-6)


def test_x64_off_period_closing_knot_with_mismatched_ends_raises():
    """The same knots close the period in f32, so the ends must match: ValueError, not NaN."""
    xp, fp = np.array([0.0, 0.5, 1.0 - 1e-9]), np.array([1.0, 0.0, 0.5])
    with jax.enable_x64(False):
        with pytest.raises(ValueError):
            np.asarray(interp1d(np.float32(0.3), xp, fp, period=1.0))
        with pytest.raises(ValueError):
            Interpolator1D(xp, fp, period=1.0)


# --------------------------------------------------------------------------- spec 9: options


@pytest.mark.parametrize(
    "bc_type", ["natural", "not-a-knot", "clamped", "periodic", ((1, 0.0), (2, 0.0))], ids=repr
)
@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_bc_type_with_a_local_method_raises(method, bc_type):
    fp = np.array([0.0, 1.0, 4.0, 1.0, 0.0])  # equal ends: valid data even for "periodic"
    for call in (
        lambda: interp1d(X2, XP, fp, method, bc_type=bc_type),
        lambda: Interpolator1D(XP, fp, method, bc_type=bc_type),
    ):
        with pytest.raises(ValueError, match="`bc_type`"):
            call()


@pytest.mark.parametrize("extrap", [True, 0.0, (1.0, 2.0)], ids=repr)
@pytest.mark.parametrize("method", METHODS)
def test_extrap_with_a_period_raises(method, extrap):
    with pytest.raises(ValueError, match="`extrap`"):
        interp1d(X2, XP, FP, method, extrap=extrap, period=6.0)
    with pytest.raises(ValueError, match="`extrap`"):
        Interpolator1D(XP, FP, method, extrap=extrap, period=6.0)


def test_extrap_false_with_a_period_is_fine():
    out = np.asarray(interp1d(np.array([-1.0, 7.0]), XP, FP, "linear", extrap=False, period=6.0))
    np.testing.assert_allclose(out, np.interp([-1.0, 7.0], XP, FP, period=6.0), rtol=1e-14)


FP2 = np.stack([FP, FP[::-1], 2 * FP], axis=-1)  # (5, 3)


@pytest.mark.parametrize(
    "fp, axis, same_as",
    [
        (FP, np.int64(0), 0),
        (FP, np.int32(0), 0),
        (FP, np.int64(-1), 0),
        (FP2, np.int64(0), 0),
        (FP2, np.int32(-2), 0),
        (FP2.T, np.int64(1), 1),
        (FP2.T, np.int32(-1), 1),
    ],
    ids=lambda v: repr(v) if not isinstance(v, np.ndarray) else str(v.shape),
)
def test_numpy_integer_axis_is_accepted(fp, axis, same_as):
    want = np.asarray(interp1d(X2, XP, fp, "linear", axis=same_as))
    try:
        got = np.asarray(interp1d(X2, XP, fp, "linear", axis=axis))
        fitted = np.asarray(Interpolator1D(XP, fp, "linear", axis=axis)(X2))
    except (TypeError, ValueError) as e:
        pytest.fail(f"VALIDATION defect: numpy integer `axis`={axis!r} rejected: {e}")
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(fitted, want)


@pytest.mark.parametrize("period", ["5", 5 + 0j, 5 + 1j, np.complex128(5)], ids=repr)
def test_period_of_wrong_type_raises_type_error(period):
    with pytest.raises(TypeError, match="`period`"):
        interp1d(X2, XP, FP, period=period)
    with pytest.raises(TypeError, match="`period`"):
        Interpolator1D(XP, FP, period=period)


@pytest.mark.parametrize("x", [np.array([0.5 + 0j, 2.5]), np.complex64(1.5), 1.5 + 1j], ids=repr)
def test_complex_queries_raise_type_error(x):
    with pytest.raises(TypeError, match="`x`"):
        interp1d(x, XP, FP)
    interpolator = Interpolator1D(XP, FP, "linear")
    with pytest.raises(TypeError, match="`x`"):
        interpolator(x)


@pytest.mark.parametrize("value", [1 + 2j, np.complex128(1.0), jnp.array(1 - 1j)], ids=repr)
def test_complex_bc_value_with_real_fp_raises_type_error(value):
    with pytest.raises(TypeError, match="`bc_type`"):
        interp1d(X2, XP, FP, bc_type=((1, value), (2, 0.0)))
    with pytest.raises(TypeError, match="`bc_type`"):
        Interpolator1D(XP, FP, bc_type=("natural", (1, value)))


def test_complex_fp_with_complex_bc_value_keeps_the_imaginary_part():
    y = np.exp(1j * XP) + 0.1 * XP**2
    bc = ((1, 1.0 + 2.0j), (2, -1.0j))
    x = np.array([0.0, 0.3, 1.5, 2.2, 3.7, 4.0])
    ref = si.CubicSpline(XP, y, bc_type=bc)
    out = np.asarray(interp1d(x, XP, y, bc_type=bc))
    assert np.iscomplexobj(out), f"COMPLEX defect: complex fp gave {out.dtype}"
    scale = np.max(np.abs(y))
    np.testing.assert_allclose(out, ref(x), rtol=0, atol=1e-12 * scale, err_msg="COMPLEX defect")
    slope = np.asarray(Interpolator1D(XP, y, bc_type=bc)(np.array([0.0]), 1))
    np.testing.assert_allclose(slope, [1.0 + 2.0j], rtol=0, atol=1e-12 * scale)


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
            pytest.fail(f"VALIDATION defect ({api}, {method}): non-finite fp[{index}] accepted")


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
        assert np.all(np.isnan(out[[1, 2]])), f"TRACED-NAN-FP defect ({name}): {out}"
    for name, out in zip(TRACED_FP_NAMES, _with_traced_fp(FP)):  # control
        assert np.all(np.isfinite(np.asarray(out))), name


# --------------------------------------------------------------------------- messages


def test_too_few_knots_message_grammar():
    with pytest.raises(ValueError) as info:
        interp1d(X2, np.zeros(0), np.zeros(0), period=2.0)
    message = str(info.value)
    assert "at least 1 knot" in message and "1 knots" not in message, (
        f"MESSAGE defect: {message!r}"
    )
    with pytest.raises(ValueError) as info:
        interp1d(X2, np.array([1.0]), np.array([2.0]))
    message = str(info.value)
    assert "at least 2 knots" in message, f"MESSAGE defect: {message!r}"


# ------------------------------------------------- traced non-finite data


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
        "interp1d cubic2 fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp).sum(), "fp"),
        "interp1d akima fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "akima").sum(), "fp"),
        "interp1d linear fp": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "linear").sum(), "fp"),
        "interp1d fx": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, fx=fx).sum(), "fx"),
        "interp1d bc value": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, bc_type=bc(v)).sum(), "v"),
        "interp1d period": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, period=p).sum(), "p"),
        "interp1d tension": (lambda fp, fx, v, p, c: interp1d(x, XP, fp, "cardinal", c=c).sum(),
                             "c"),
        "Interpolator1D bc value": (
            lambda fp, fx, v, p, c: Interpolator1D(XP, fp, bc_type=bc(v))(x).sum(), "v"),
        "CubicSpline bc value": (lambda fp, fx, v, p, c: CubicSpline(XP, fp, bc_type=bc(v))(x).sum(),
                                 "v"),
        "CubicHermiteSpline dydx": (lambda fp, fx, v, p, c: CubicHermiteSpline(XP, fp, fx)(x).sum(),
                                    "fx"),
        "interp2d fp": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp)).sum(), "fp"),
        "interp2d fx": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp),
                                                         fx=grid(fx)).sum(), "fx"),
        "interp2d period": (lambda fp, fx, v, p, c: interp2d(x, y, XP, XP[:3], grid(fp),
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
    for method in ["cubic2", "akima", "linear"]:
        out = jax.jit(lambda fp: interp1d(x, XP, fp, method))(fp)
        grad = jax.jit(jax.grad(lambda fp: interp1d(x, XP, fp, method)[:, 0].sum()))(fp)
        assert np.all(np.isnan(out[:, 1])) and np.all(np.isfinite(out[:, 0])), method
        np.testing.assert_allclose(out[:, 0], interp1d(x, XP, FP, method), rtol=1e-15)
        assert np.all(np.isfinite(grad[:, 0])), method
