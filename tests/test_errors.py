"""Bad input (DESIGN.md §5): static problems raise, data problems raise or NaN.

Tier 1 (static: method, bc_type, shapes, derivative, axis, extrap) raises
`ValueError`/`TypeError` naming the argument.  Tier 2 (knots not finite and
strictly increasing, period ≤ 0 or too short, periodic ends that differ)
raises a `ValueError` when the data are concrete and gives NaN — everywhere,
never a plausible number — when they are traced; `jax.experimental.checkify`
turns that NaN into an error without host callbacks in the library.

Jitted helpers live at module level so that parametrized cases share one
compilation (compilation dominates the runtime).
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from jax.experimental import checkify

from _contraction import assert_same_but_contraction
from splines import Interpolator1D, interp1d

METHODS = ["nearest", "linear", "cubic2"]
DEGREE = {"nearest": 0, "linear": 1, "cubic2": 3}
X = np.array([-1.0, 0.0, 0.5, 1.5, 2.5, 3.9, 4.0, 7.0])  # outside at both ends too
INSIDE = (X >= 0.0) & (X <= 4.0)
XP = np.arange(5.0)
FP = np.array([0.0, 1.0, 4.0, 9.0, 16.0])

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


# --------------------------------------------------------------------------- knots, eager


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
        interp1d(X, np.array([0.0, 1.0, 3.0, 2.0, 4.0]), FP)


def test_bad_knots_first_offending_index_across_kinds():
    with pytest.raises(ValueError, match=_xp_message(1)):
        interp1d(X[:4], np.array([0.0, 2.0, 1.0, np.nan]), FP[:4])


# --------------------------------------------------------------------------- knots, traced


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
    """The same compiled program gives the eager numbers for good knots."""
    outs = _all_methods_all_extraps(XP)
    for i, m in enumerate(METHODS):
        group = outs[PER_METHOD * i : PER_METHOD * (i + 1)]
        nan_out, extended, filled, scalar_fill, slope, wrapped = (np.asarray(o) for o in group)
        np.testing.assert_array_equal(extended, np.asarray(interp1d(X, XP, FP, m, extrap=True)))
        assert np.all(np.isnan(nan_out[~INSIDE])) and np.all(np.isfinite(nan_out[INSIDE]))
        np.testing.assert_array_equal(nan_out[INSIDE], extended[INSIDE])
        np.testing.assert_array_equal(filled[X < 0], -100.0)
        np.testing.assert_array_equal(filled[X > 4], 100.0)
        np.testing.assert_array_equal(scalar_fill[~INSIDE], 2.5)
        assert np.all(np.isfinite(slope))
        # one program for all the cases against one per case
        assert_same_but_contraction(wrapped, interp1d(X, XP, FP, m, period=6.0), FP)


@pytest.mark.parametrize("method", METHODS)
def test_traced_bad_knots_give_nan_past_the_degree(method):
    bad = BAD_KNOT_ARRAYS[0]
    order = DEGREE[method] + 1
    out = jax.jit(lambda xp: interp1d(X, xp, FP, method, derivative=order))(bad)
    assert np.all(np.isnan(np.asarray(out)))


def test_vmapped_bad_knots_are_nan_only_in_their_row():
    batch = np.stack([XP, BAD_KNOT_ARRAYS[0], XP + 1.0, BAD_KNOT_ARRAYS[3]])
    out = np.asarray(jax.vmap(lambda xp: interp1d(X, xp, FP, extrap=True))(batch))
    assert np.all(np.isnan(out[[1, 3]]))
    np.testing.assert_allclose(out[0], np.asarray(interp1d(X, XP, FP, extrap=True)), rtol=1e-14)
    np.testing.assert_allclose(
        out[2], np.asarray(interp1d(X, XP + 1.0, FP, extrap=True)), rtol=1e-14
    )


# --------------------------------------------------------------------------- checkify


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
        jax.jit(lambda fp: interp1d(X, XP, fp, bc_type="periodic")), errors=checkify.nan_checks
    )
    err, _ = checked(FP)  # FP[0] != FP[-1]
    assert err.get() is not None
    err, out = checked(np.array([0.0, 1.0, 4.0, 9.0, 0.0]))
    assert err.get() is None and np.isfinite(np.asarray(out)).all()


# --------------------------------------------------------------------------- shapes


@pytest.mark.parametrize(
    "fp, axis",
    [
        (np.zeros(4), 0),
        (np.zeros(6), 0),
        (np.zeros((6, 3)), 0),
        (np.zeros((3, 4)), 1),
        (np.zeros((5, 3)), 1),
        (np.zeros((5, 3)), -1),
    ],
)
@pytest.mark.parametrize("method", METHODS)
def test_fp_length_mismatch_raises(fp, axis, method):
    with pytest.raises(ValueError, match="`fp`"):
        interp1d(X, XP, fp, method, axis=axis)
    with pytest.raises(ValueError, match="`fp`"):
        Interpolator1D(XP, fp, method, axis=axis)


@pytest.mark.parametrize("method", METHODS)
def test_too_few_knots_raise(method):
    with pytest.raises(ValueError, match=r"`xp`.*at least 2"):
        interp1d(X, np.array([1.0]), np.array([2.0]), method)
    with pytest.raises(ValueError, match=r"`xp`.*at least 2"):
        Interpolator1D(np.array([1.0]), np.array([2.0]), method)
    with pytest.raises(ValueError, match=r"`xp`.*at least 1"):
        interp1d(X, np.zeros(0), np.zeros(0), method, period=2.0)


def test_one_knot_with_a_period_is_a_constant():
    """A period closes a single knot; every method gives the constant."""
    outs = jax.jit(  # concrete knots inside: the eager checks run while tracing
        lambda: [interp1d(X, np.array([1.0]), np.array([2.0]), m, period=2.0) for m in METHODS]
    )()
    for out in outs:
        np.testing.assert_array_equal(np.asarray(out), 2.0)


@pytest.mark.parametrize(
    "xp, fp, name",
    [(XP[None], FP, "`xp`"), (XP, np.float64(1.0), "`fp`")],
    ids=["xp 2-D", "fp scalar"],
)
def test_bad_ranks_raise(xp, fp, name):
    with pytest.raises(ValueError, match=name):
        interp1d(X, xp, fp)
    with pytest.raises(ValueError, match=name):
        Interpolator1D(xp, fp)


@pytest.mark.parametrize(
    "axis, error",
    [(1, ValueError), (-2, ValueError), (np.int64(1), ValueError), (1.0, TypeError),
     (None, TypeError), (True, TypeError), (np.bool_(False), TypeError)],
)  # fmt: skip
def test_bad_axis_raises_for_1d_fp(axis, error):
    with pytest.raises(error, match="`axis`"):
        interp1d(X, XP, FP, axis=axis)
    with pytest.raises(error, match="`axis`"):
        Interpolator1D(XP, FP, axis=axis)


@pytest.mark.parametrize("axis", [2, -3, 5])
def test_bad_axis_raises_for_2d_fp(axis):
    with pytest.raises(ValueError, match="`axis`"):
        interp1d(X, XP, np.zeros((5, 5)), "linear", axis=axis)


@pytest.mark.parametrize("x_shape", [(0,), (0, 3)])
@pytest.mark.parametrize(
    "fp_shape, axis", [((5,), 0), ((5, 2), 0), ((2, 5), 1)], ids=["1-D", "columns", "axis=1"]
)
def test_empty_queries_give_empty_output(fp_shape, axis, x_shape):
    fp = np.ones(fp_shape)
    x = np.zeros(x_shape)
    expected = fp_shape[:axis] + x_shape + fp_shape[axis + 1 :]
    out = interp1d(x, XP, fp, axis=axis)
    assert out.shape == expected and out.dtype == jnp.float64


@pytest.mark.parametrize("method", METHODS)
def test_empty_queries_every_method_and_interpolator(method):
    interpolator = Interpolator1D(XP, FP, method)
    for x_shape in [(0,), (0, 3)]:
        assert interpolator(np.zeros(x_shape)).shape == x_shape
        assert interpolator(np.zeros(x_shape), 1).shape == x_shape


# --------------------------------------------------------------------------- bc_type

BAD_BC_TYPES = [
    "foo",
    "Natural",
    "not_a_knot",
    ("natural",),
    ("natural", "natural", "natural"),
    ((1, 0.0),),
    ((3, 0.0), "natural"),
    ("natural", (0, 1.0)),
    ((True, 0.0), "natural"),
    ("natural", (False, 0.0)),
    ((1.5, 0.0), "natural"),
    ((1,), "natural"),
    ((1, 0.0, 2), "natural"),
    (("natural",), "natural"),
    5,
    ("periodic", "periodic"),
    ("natural", "periodic"),
]


@pytest.mark.parametrize("bc_type", BAD_BC_TYPES, ids=repr)
def test_malformed_bc_type_raises(bc_type):
    with pytest.raises(ValueError, match="`bc_type`"):
        interp1d(X, XP, FP, bc_type=bc_type)
    with pytest.raises(ValueError, match="`bc_type`"):
        Interpolator1D(XP, FP, bc_type=bc_type)


@pytest.mark.parametrize(
    "bc_type", ["natural", "not-a-knot", "clamped", ((1, 0.0), (2, 0.0))], ids=repr
)
def test_bc_type_conflicting_with_period_raises(bc_type):
    fp = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
    with pytest.raises(ValueError, match="`bc_type`.*`period`"):
        interp1d(X, XP, fp, bc_type=bc_type, period=6.0)
    with pytest.raises(ValueError, match="`bc_type`"):
        Interpolator1D(XP, fp, bc_type=bc_type, period=6.0)


def test_bc_value_of_wrong_shape_raises():
    with pytest.raises(ValueError, match="`bc_type`"):
        interp1d(X, XP, FP, bc_type=((1, np.zeros(3)), "natural"))


def test_bc_value_of_wrong_shape_raises_for_columns():
    with pytest.raises(ValueError, match="`bc_type`"):
        interp1d(X, XP, np.zeros((5, 3)), bc_type=((1, np.zeros(2)), "natural"))


# --------------------------------------------------------------------------- method, derivative


@pytest.mark.parametrize("method", ["quadratic", "Linear", "pchip", "", None, 3])
def test_unknown_method_lists_the_valid_ones(method):
    pattern = r"`method`.*cubic2.*linear.*nearest"
    with pytest.raises(ValueError, match=pattern):
        interp1d(X, XP, FP, method)
    with pytest.raises(ValueError, match=pattern):
        Interpolator1D(XP, FP, method)


@pytest.mark.parametrize("derivative", [-1, -4])
def test_negative_derivative_raises(derivative):
    with pytest.raises(ValueError, match="`derivative`"):
        interp1d(X, XP, FP, derivative=derivative)
    with pytest.raises(ValueError, match="`derivative`"):
        Interpolator1D(XP, FP)(X, derivative)


@pytest.mark.parametrize(
    "derivative", [1.0, np.float64(1.0), True, "1", None, jnp.int32(1)], ids=repr
)
def test_non_int_derivative_raises_type_error(derivative):
    with pytest.raises(TypeError, match="`derivative`"):
        interp1d(X, XP, FP, derivative=derivative)
    with pytest.raises(TypeError, match="`derivative`"):
        Interpolator1D(XP, FP)(X, derivative)


def test_numpy_integer_derivative_is_accepted():
    interpolator = Interpolator1D(XP, FP, extrap=True)
    np.testing.assert_array_equal(
        np.asarray(interpolator(X, np.int64(2))), np.asarray(interpolator(X, 2))
    )


# --------------------------------------------------------------------------- extrap


@pytest.mark.parametrize(
    "extrap",
    [(1.0, 2.0, 3.0), (1.0,), [], np.array([1.0, 2.0]), np.ones((2, 2)), jnp.array([0.0, 1.0])],
    ids=["triple", "single", "empty list", "array (2,)", "array (2, 2)", "jax array (2,)"],
)
@pytest.mark.parametrize("method", METHODS)
def test_extrap_of_wrong_shape_raises(extrap, method):
    with pytest.raises(ValueError, match="`extrap`"):
        interp1d(X, XP, FP, method, extrap=extrap)
    with pytest.raises(ValueError, match="`extrap`"):
        Interpolator1D(XP, FP, method, extrap=extrap)


@pytest.mark.parametrize("api", ["interp1d", "Interpolator1D"])
def test_extrap_pair_of_arrays_raises(api):
    with pytest.raises(ValueError, match="`extrap`"):
        if api == "interp1d":
            interp1d(X, XP, FP, "linear", extrap=(np.ones(3), 0.0))
        else:
            Interpolator1D(XP, FP, "linear", extrap=(np.ones(3), 0.0))


@pytest.mark.filterwarnings("ignore:ndim requires ndarray:DeprecationWarning")
@pytest.mark.parametrize("extrap", [None, "extrapolate"])
def test_extrap_of_wrong_type_names_the_argument(extrap):
    with pytest.raises((TypeError, ValueError), match="`extrap`"):
        interp1d(X, XP, FP, "linear", extrap=extrap)


def test_numpy_bool_extrap_extends():
    extended = np.asarray(interp1d(X, XP, FP, "linear", extrap=True))
    np.testing.assert_array_equal(np.asarray(interp1d(X, XP, FP, "linear", extrap=np.True_)), extended)


# --------------------------------------------------------------------------- period


@pytest.mark.parametrize("period", [0.0, -1.0, np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("method", METHODS)
def test_bad_period_raises(period, method):
    with pytest.raises(ValueError, match="`period`"):
        interp1d(X, XP, FP, method, period=period)
    with pytest.raises(ValueError, match="`period`"):
        Interpolator1D(XP, FP, method, period=period)


@pytest.mark.parametrize("period", [3.0, 3.999])
@pytest.mark.parametrize("method", METHODS)
def test_knots_spanning_more_than_a_period_raise(period, method):
    with pytest.raises(ValueError, match=r"`xp`.*`period`"):
        interp1d(X, XP, FP, method, period=period)


def test_non_scalar_period_names_the_argument():
    with pytest.raises(ValueError, match="`period`"):
        interp1d(X, XP, FP, "linear", period=np.array([5.0, 6.0]))


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


# --------------------------------------------------------------------------- periodic ends

MISMATCHED = np.array([0.0, 1.0, 4.0, 9.0, 0.5])  # fp[0] != fp[-1]


@pytest.mark.parametrize(
    "kwargs",
    [dict(bc_type="periodic"), dict(period=4.0), dict(period=4.0, bc_type="periodic")],
    ids=["bc_type", "closing knot", "both"],
)
def test_periodic_mismatched_ends_raise_eagerly(kwargs):
    with pytest.raises(ValueError, match="first and last values"):
        interp1d(X, XP, MISMATCHED, **kwargs)
    with pytest.raises(ValueError, match="first and last values"):
        Interpolator1D(XP, MISMATCHED, **kwargs)


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_periodic_mismatched_ends_raise_for_local_methods(method):
    with pytest.raises(ValueError, match="first and last values"):
        interp1d(X, XP, MISMATCHED, method, period=4.0)


def test_periodic_mismatch_names_the_line():
    fp = np.stack([FP * 0 + 1.0, MISMATCHED, FP * 0], axis=-1)
    with pytest.raises(ValueError, match=re.escape("`fp[:, 1]` starts at")):
        interp1d(X, XP, fp, bc_type="periodic")
    with pytest.raises(ValueError, match=re.escape("`fp[1, :]` starts at")):
        interp1d(X, XP, fp.T, bc_type="periodic", axis=1)


def test_periodic_open_knots_need_no_matching_ends():
    """Without the closing knot the last value is not the first one's twin."""
    out = interp1d(X, XP, MISMATCHED, period=5.0)
    assert np.all(np.isfinite(np.asarray(out)))


def test_periodic_ends_equal_to_rounding_are_accepted():
    xp = np.linspace(0.0, 2 * np.pi, 9)
    fp = np.sin(xp)  # fp[-1] = -2.4e-16
    assert fp[-1] != fp[0]
    out = np.asarray(interp1d(X, xp, fp, bc_type="periodic"))
    ref = si.CubicSpline(xp, np.append(fp[:-1], fp[0]), bc_type="periodic")(X)
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)
    traced = np.asarray(jax.jit(lambda fp: interp1d(X, xp, fp, bc_type="periodic"))(fp))
    np.testing.assert_allclose(traced, ref, rtol=0, atol=1e-12)


@jax.jit
def _traced_periodic(xp, fp, period):
    return [
        interp1d(X, XP, fp, bc_type="periodic"),  # traced values
        interp1d(X, xp, fp, bc_type="periodic"),  # traced knots and values
        interp1d(X, XP, fp, "linear", period=4.0),  # closing knot, traced values
        interp1d(X, xp, fp, period=period),  # everything traced
    ]


def test_periodic_mismatched_ends_give_nan_when_traced():
    for k, out in enumerate(_traced_periodic(XP, MISMATCHED, 4.0)):
        assert np.all(np.isnan(np.asarray(out))), k
    closed = np.array([0.0, 1.0, 4.0, 9.0, 0.0])
    for k, out in enumerate(_traced_periodic(XP, closed, 4.0)[:3]):
        assert np.all(np.isfinite(np.asarray(out))), k


# --------------------------------------------------------------------------- dtypes


def test_integer_inputs_are_promoted_to_float():
    xi, fi = np.arange(5), np.array([0, 1, 4, 9, 16])
    qi = np.array([-1, 0, 1, 3, 4, 6])
    q = qi.astype(float)
    expected = {
        "cubic2": si.CubicSpline(XP, FP)(q),
        "linear": si.interp1d(XP, FP, fill_value="extrapolate")(q),
        "nearest": si.interp1d(XP, FP, kind="nearest", fill_value="extrapolate")(q),
    }
    for m in METHODS:
        out = interp1d(qi, xi, fi, m, extrap=True)
        assert out.dtype == jnp.float64, m
        np.testing.assert_array_equal(np.asarray(out), np.asarray(interp1d(q, XP, FP, m, extrap=True)))
        np.testing.assert_allclose(np.asarray(out), expected[m], rtol=0, atol=1e-12 * 16)
    from_ints = Interpolator1D(xi, fi, extrap=True)
    assert from_ints.coefficients.dtype == jnp.float64
    np.testing.assert_allclose(np.asarray(from_ints(qi)), expected["cubic2"], rtol=0, atol=1e-12 * 16)


def test_integer_queries_keep_float32():
    xp32, fp32 = XP.astype(np.float32), FP.astype(np.float32)
    out = interp1d(np.array([1, 2], np.int32), xp32, fp32, "linear")
    assert out.dtype == jnp.float32
    np.testing.assert_array_equal(np.asarray(out), [1.0, 4.0])


@pytest.mark.filterwarnings("ignore:(ndim|shape) requires ndarray:DeprecationWarning")
def test_list_knots_behave_the_same_with_and_without_period():
    def outcome(**kwargs):
        try:
            return np.asarray(interp1d(X, [0.0, 1.0, 2.0, 3.0, 4.0], FP * 0, "linear", **kwargs))
        except (TypeError, ValueError) as e:
            return type(e)

    without, with_period = outcome(), outcome(period=5.0)
    assert isinstance(without, np.ndarray) == isinstance(with_period, np.ndarray)
