"""Bad static arguments raise when the call is prepared (docs/architecture.md §5):
`ValueError` or `TypeError`, naming the argument and its value; their valid
neighbours are accepted.

1-D (`interp1d`, `Interpolator1D`, `approx_df`): the method and its options
(``bc_type``'s grammar, end conditions that a period or a local method cannot
take, boundary values of the wrong shape or complex ones for real data, the
tension with given slopes), ``derivative``, ``extrap`` (shapes, types, with a
period), the type and shape of ``period``, shapes (values against knots, too few
knots — one is enough with a period —, ranks, ``axis``), complex queries.
Empty queries and zero columns give empty results; numpy integers and bools,
integer data (promoted to the default float) and lists are accepted.

Grids (`interp2d`, `interp3d`, `Interpolator2D`, `Interpolator3D`): the message
names the argument by its public name on the axis concerned (``yp`` and ``fy``
in 2-D, ``zp``, ``fz``, ``fxz`` in 3-D); each case runs through the function and
the class (its constructor, or its call for ``derivative`` and the queries) and
is matched on the fragment of the message that names the argument.  Concrete
errors raise before anything compiles, except the class's call cases, which
first fit a cheap ``"linear"`` interpolant (one compile, shared); the valid
neighbours are checked with `jax.eval_shape`, which runs the checks without
compiling.

Bad data (knots, values, periods, periodic ends: raise when concrete, NaN when
traced) are test_invalid_data.py's and test_invalid_grid_data.py's.
"""

import _grid_inputs as grid
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _references import LOCAL_METHODS, method_options

import splines
from splines import Interpolator1D, approx_df, interp1d, interp2d, interp3d

METHODS = ["nearest", "linear", "cubic2"]
AKIMAS = ("akima", "makima")
X = np.array([-1.0, 0.0, 0.5, 1.5, 2.5, 3.9, 4.0, 7.0])  # outside at both ends too
X2 = np.array([0.5, 2.5])
XP = np.arange(5.0)
FP = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
FP2 = np.stack([FP, FP[::-1], 2 * FP], axis=-1)  # (5, 3)


# --------------------------------------------------------------------- method and options


@pytest.mark.parametrize("method", ["quadratic", "Linear", "pchip", "", None, 3])
def test_unknown_method_lists_the_valid_ones(method):
    pattern = r"`method`.*cubic2.*linear.*nearest"
    with pytest.raises(ValueError, match=pattern):
        interp1d(X, XP, FP, method)
    with pytest.raises(ValueError, match=pattern):
        Interpolator1D(XP, FP, method)


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
        interp1d(X, XP, FP, "cubic2", bc_type=bc_type)
    with pytest.raises(ValueError, match="`bc_type`"):
        Interpolator1D(XP, FP, "cubic2", bc_type=bc_type)


@pytest.mark.parametrize(
    "bc_type", ["natural", "not-a-knot", "clamped", ((1, 0.0), (2, 0.0))], ids=repr
)
def test_bc_type_conflicting_with_period_raises(bc_type):
    fp = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
    with pytest.raises(ValueError, match="`bc_type`.*`period`"):
        interp1d(X, XP, fp, "cubic2", bc_type=bc_type, period=6.0)
    with pytest.raises(ValueError, match="`bc_type`"):
        Interpolator1D(XP, fp, "cubic2", bc_type=bc_type, period=6.0)


def test_bc_value_of_wrong_shape_raises():
    with pytest.raises(ValueError, match="`bc_type`"):
        interp1d(X, XP, FP, "cubic2", bc_type=((1, np.zeros(3)), "natural"))


def test_bc_value_of_wrong_shape_raises_for_columns():
    with pytest.raises(ValueError, match="`bc_type`"):
        interp1d(X, XP, np.zeros((5, 3)), "cubic2", bc_type=((1, np.zeros(2)), "natural"))


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


@pytest.mark.parametrize("value", [1 + 2j, np.complex128(1.0), jnp.array(1 - 1j)], ids=repr)
def test_complex_bc_value_with_real_fp_raises_type_error(value):
    with pytest.raises(TypeError, match="`bc_type`"):
        interp1d(X2, XP, FP, "cubic2", bc_type=((1, value), (2, 0.0)))
    with pytest.raises(TypeError, match="`bc_type`"):
        Interpolator1D(XP, FP, "cubic2", bc_type=("natural", (1, value)))


def test_complex_fp_with_complex_bc_value_keeps_the_imaginary_part():
    y = np.exp(1j * XP) + 0.1 * XP**2
    bc = ((1, 1.0 + 2.0j), (2, -1.0j))
    x = np.array([0.0, 0.3, 1.5, 2.2, 3.7, 4.0])
    ref = si.CubicSpline(XP, y, bc_type=bc)
    out = np.asarray(interp1d(x, XP, y, "cubic2", bc_type=bc))
    assert np.iscomplexobj(out), f"complex fp gave {out.dtype}"
    scale = np.max(np.abs(y))
    np.testing.assert_allclose(
        out, ref(x), rtol=0, atol=1e-12 * scale, err_msg="complex fp and bc values"
    )
    slope = np.asarray(Interpolator1D(XP, y, "cubic2", bc_type=bc)(np.array([0.0]), 1))
    np.testing.assert_allclose(slope, [1.0 + 2.0j], rtol=0, atol=1e-12 * scale)


def test_tension_with_given_slopes_raises():
    """With ``fx`` the slopes are given, so the tension ``c`` has no effect: it raises
    naming `c`, as ``bc_type`` with ``fx`` does ("has no effect"), rather than being
    ignored."""
    xp = np.arange(5.0)
    fp, fx = np.sin(xp), np.cos(xp)
    with pytest.raises(ValueError, match="`c`"):
        interp1d(np.array([0.5]), xp, fp, "cardinal", c=0.9, fx=fx)
    with pytest.raises(ValueError, match="`c`"):
        Interpolator1D(xp, fp, "cardinal", c=0.9, fx=fx)


# ---------------------------------------------------------------------------- derivative


@pytest.mark.parametrize("derivative", [-1, -4])
def test_negative_derivative_raises(derivative):
    with pytest.raises(ValueError, match="`derivative`"):
        interp1d(X, XP, FP, "cubic2", derivative=derivative)
    with pytest.raises(ValueError, match="`derivative`"):
        Interpolator1D(XP, FP, "cubic2")(X, derivative)


@pytest.mark.parametrize(
    "derivative", [1.0, np.float64(1.0), True, "1", None, jnp.int32(1)], ids=repr
)
def test_non_int_derivative_raises_type_error(derivative):
    with pytest.raises(TypeError, match="`derivative`"):
        interp1d(X, XP, FP, "cubic2", derivative=derivative)
    with pytest.raises(TypeError, match="`derivative`"):
        Interpolator1D(XP, FP, "cubic2")(X, derivative)


def test_numpy_integer_derivative_is_accepted():
    interpolator = Interpolator1D(XP, FP, "cubic2", extrap=True)
    np.testing.assert_array_equal(
        np.asarray(interpolator(X, np.int64(2))), np.asarray(interpolator(X, 2))
    )


# -------------------------------------------------------------------------------- extrap


@pytest.mark.parametrize(
    "extrap",
    [(1.0, 2.0, 3.0), (1.0,), [], np.ones(3), np.ones((2, 2)), jnp.array([0.0, 1.0, 2.0])],
    ids=["triple", "single", "empty list", "array (3,)", "array (2, 2)", "jax array (3,)"],
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
    np.testing.assert_array_equal(
        np.asarray(interp1d(X, XP, FP, "linear", extrap=np.True_)), extended
    )


@pytest.mark.parametrize("extrap", [True, 0.0, (1.0, 2.0)], ids=repr)
@pytest.mark.parametrize("method", METHODS)
def test_extrap_with_a_period_raises(method, extrap):
    with pytest.raises(ValueError, match="`extrap`"):
        interp1d(X2, XP, FP, method, extrap=extrap, period=6.0)
    with pytest.raises(ValueError, match="`extrap`"):
        Interpolator1D(XP, FP, method, extrap=extrap, period=6.0)


@pytest.mark.parametrize("extrap", [False, (False, False), np.array([False, False])], ids=repr)
def test_extrap_false_with_a_period_is_fine(extrap):
    """False on both sides means the default (no extension), so it is allowed, as a pair too."""
    q = np.array([-1.0, 7.0])
    out = np.asarray(interp1d(q, XP, FP, "linear", extrap=extrap, period=6.0))
    np.testing.assert_allclose(out, np.interp(q, XP, FP, period=6.0), rtol=1e-14)
    grid = np.ones((XP.size, 3))
    both = splines.interp2d(
        1.5, 0.5, XP, np.arange(3.0), grid, extrap=(extrap, 9.0), period=(6.0, None)
    )
    np.testing.assert_allclose(both, 1.0)


# -------------------------------------------------------------------------------- period


def test_non_scalar_period_names_the_argument():
    with pytest.raises(ValueError, match="`period`"):
        interp1d(X, XP, FP, "linear", period=np.array([5.0, 6.0]))


@pytest.mark.parametrize("period", ["5", 5 + 0j, 5 + 1j, np.complex128(5)], ids=repr)
def test_period_of_wrong_type_raises_type_error(period):
    with pytest.raises(TypeError, match="`period`"):
        interp1d(X2, XP, FP, "cubic2", period=period)
    with pytest.raises(TypeError, match="`period`"):
        Interpolator1D(XP, FP, "cubic2", period=period)


# -------------------------------------------------------------------------------- shapes


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


def test_too_few_knots_message_grammar():
    with pytest.raises(ValueError) as info:
        interp1d(X2, np.zeros(0), np.zeros(0), "cubic2", period=2.0)
    message = str(info.value)
    assert "at least 1 knot" in message and "1 knots" not in message, message
    with pytest.raises(ValueError) as info:
        interp1d(X2, np.array([1.0]), np.array([2.0]), "cubic2")
    message = str(info.value)
    assert "at least 2 knots" in message, message


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
        interp1d(X, xp, fp, "cubic2")
    with pytest.raises(ValueError, match=name):
        Interpolator1D(xp, fp, "cubic2")


@pytest.mark.parametrize(
    "axis, error",
    [(1, ValueError), (-2, ValueError), (np.int64(1), ValueError), (1.0, TypeError),
     (None, TypeError), (True, TypeError), (np.bool_(False), TypeError)],
)  # fmt: skip
def test_bad_axis_raises_for_1d_fp(axis, error):
    with pytest.raises(error, match="`axis`"):
        interp1d(X, XP, FP, "cubic2", axis=axis)
    with pytest.raises(error, match="`axis`"):
        Interpolator1D(XP, FP, "cubic2", axis=axis)


@pytest.mark.parametrize("axis", [2, -3, 5])
def test_bad_axis_raises_for_2d_fp(axis):
    with pytest.raises(ValueError, match="`axis`"):
        interp1d(X, XP, np.zeros((5, 5)), "linear", axis=axis)


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
        pytest.fail(f"numpy integer `axis`={axis!r} rejected: {e}")
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(fitted, want)


@pytest.mark.parametrize("x_shape", [(0,), (0, 3)])
@pytest.mark.parametrize(
    "fp_shape, axis", [((5,), 0), ((5, 2), 0), ((2, 5), 1)], ids=["1-D", "columns", "axis=1"]
)
def test_empty_queries_give_empty_output(fp_shape, axis, x_shape):
    fp = np.ones(fp_shape)
    x = np.zeros(x_shape)
    expected = fp_shape[:axis] + x_shape + fp_shape[axis + 1 :]
    out = interp1d(x, XP, fp, "cubic2", axis=axis)
    assert out.shape == expected and out.dtype == jnp.float64


@pytest.mark.parametrize("method", METHODS)
def test_empty_queries_every_method_and_interpolator(method):
    interpolator = Interpolator1D(XP, FP, method)
    for x_shape in [(0,), (0, 3)]:
        assert interpolator(np.zeros(x_shape)).shape == x_shape
        assert interpolator(np.zeros(x_shape), 1).shape == x_shape


@pytest.mark.parametrize("method", AKIMAS)
def test_zero_columns_give_empty_results(method):
    """``fp`` of shape (n, 0) gives an empty result through Akima's rules too (whose
    cutoff is a maximum over the data), as through every other method and scipy."""
    xp = np.arange(5.0)
    assert interp1d(np.array([0.5, 1.5]), xp, np.zeros((5, 0)), method).shape == (2, 0)
    assert approx_df(xp, np.zeros((0, 5)), method).shape == (0, 5)


def test_zero_columns_other_local_methods():
    xp = np.arange(5.0)
    for method in set(LOCAL_METHODS) - set(AKIMAS):
        out = interp1d(np.array([0.5, 1.5]), xp, np.zeros((5, 0)), method, **method_options(method))
        assert out.shape == (2, 0), method


@pytest.mark.parametrize("method", ["cubic2", "linear"])
def test_grid_zero_columns(method):
    # interp1d returns shape (1, 0) for fp of shape (3, 0); so must the grids.
    out = splines.interp2d([1.0], [1.0], [0.0, 1, 2], [0.0, 1, 2], np.zeros((3, 3, 0)), method)
    assert out.shape == (1, 0)


# ------------------------------------------------------------------- types and dtypes


@pytest.mark.parametrize("x", [np.array([0.5 + 0j, 2.5]), np.complex64(1.5), 1.5 + 1j], ids=repr)
def test_complex_queries_raise_type_error(x):
    with pytest.raises(TypeError, match="`x`"):
        interp1d(x, XP, FP, "cubic2")
    interpolator = Interpolator1D(XP, FP, "linear")
    with pytest.raises(TypeError, match="`x`"):
        interpolator(x)


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
        np.testing.assert_array_equal(
            np.asarray(out), np.asarray(interp1d(q, XP, FP, m, extrap=True))
        )
        np.testing.assert_allclose(np.asarray(out), expected[m], rtol=0, atol=1e-12 * 16)
    from_ints = Interpolator1D(xi, fi, "cubic2", extrap=True)
    assert from_ints.coefficients.dtype == jnp.float64
    np.testing.assert_allclose(
        np.asarray(from_ints(qi)), expected["cubic2"], rtol=0, atol=1e-12 * 16
    )


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


# ----------------------------------------------------------------------------- approx_df


@pytest.mark.parametrize(
    "x, f, kwargs",
    [(np.array([0.0, 1.0, 1.0, 2.0]), np.ones(4), {}),
     (np.arange(4.0), np.array([0.0, np.nan, 1.0, 2.0]), {}),
     (np.arange(4.0), np.ones(3), {}),
     (np.ones(1), np.ones(1), {})],
    ids=["x not increasing", "f not finite", "f wrong length", "one knot"],
)  # fmt: skip
def test_approx_df_errors_name_its_own_arguments(x, f, kwargs):
    """`approx_df(x, f, …)` names its own arguments, never `interp1d`'s `xp`/`fp`,
    which its caller did not pass (docs/architecture.md §5: name the argument)."""
    with pytest.raises(ValueError) as info:
        approx_df(x, f, "akima", **kwargs)
    message = str(info.value)
    assert "`xp" not in message and "`fp" not in message, message
    assert "`x" in message or "`f" in message, message


# --------------------------------------------------------------------------------- grids


# name → (keyword arguments of `grid.call_2d`, exception, pattern the message must match)
CASES_2D = {
    # method and its options
    "unknown method": ({"method": "cubic4"}, ValueError, r"`method`='cubic4' is not one of"),
    "c not a scalar": ({"method": "cardinal", "c": np.array([0.5])}, ValueError,
                       r"`c` \(tension\) must be a scalar"),
    "c with cubic2": ({"c": 0.5}, ValueError, r"`c` \(tension\) applies to method 'cardinal' only"),
    "c with every slope given": ({"method": "cardinal", "c": 0.5, "fx": grid.FP, "fy": grid.FP,
                                  "fxy": grid.FP},
                                 ValueError, r"`c` \(tension\) has no effect when the slopes"),
    "fx with linear": ({"method": "linear", "fx": grid.FP}, ValueError,
                       r"`fx` \(slopes\) needs a cubic"),
    "fxy with nearest": ({"method": "nearest", "fxy": grid.FP}, ValueError,
                         r"`fxy` \(slopes\) needs a cubic"),
    "bc_type with akima": ({"method": "akima", "bc_type": "natural"}, ValueError,
                           r"`bc_type`='natural' has no effect on method 'akima'"),
    "bc_type with linear": ({"method": "linear", "bc_type": "clamped"}, ValueError,
                            r"`bc_type`='clamped' has no effect on method 'linear'"),
    "bc_type with a non-zero value": ({"bc_type": ((1, 2.0), "natural")}, ValueError,
                                      r"`bc_type`=.*zero values only"),
    "bc_type with a non-zero second end": ({"bc_type": ("clamped", (2, -1.0))}, ValueError,
                                           r"`bc_type`=.*zero values only"),
    "bc_type, every axis periodic": ({"bc_type": "natural", "period": (grid.PX, grid.PY)},
                                     ValueError,
                                     r"`bc_type`='natural' has no effect: every axis has a"),
    "bc_type with every slope given": ({"bc_type": "natural", "fx": grid.FP, "fy": grid.FP,
                                        "fxy": grid.FP},
                                       ValueError, r"`bc_type`='natural' has no effect.*given"),
    # derivative (interp2d checks it up front; Interpolator2D at the call)
    "derivative: one order": ({"method": "linear", "derivative": (0,)}, ValueError,
                              r"`derivative`=\(0,\) needs one order per axis \(2\)"),
    "derivative: three orders": ({"method": "linear", "derivative": (0, 0, 0)}, ValueError,
                                 r"`derivative`=\(0, 0, 0\) needs one order per axis \(2\)"),
    "derivative: a short pair in a sequence": (
        {"method": "linear", "derivative": ((0, 0), (1,))}, ValueError,
        r"`derivative`=.* needs one order per axis \(2\)"),
    "derivative: negative": ({"method": "linear", "derivative": (-1, 0)}, ValueError,
                             r"`derivative` orders must be ≥ 0"),
    "derivative: negative int": ({"method": "linear", "derivative": -1}, ValueError,
                                 r"`derivative` orders must be ≥ 0"),
    "derivative: float": ({"method": "linear", "derivative": (0.5, 0)}, TypeError,
                          r"`derivative` must be a Python int"),
    "derivative: float for all": ({"method": "linear", "derivative": 1.0}, TypeError,
                                  r"`derivative` must be a Python int"),
    "derivative: bool": ({"method": "linear", "derivative": (True, 0)}, TypeError,
                         r"`derivative` must be a Python int"),
    "derivative: bool for all": ({"method": "linear", "derivative": True}, TypeError,
                                 r"`derivative` must be a Python int"),
    # extrap
    "extrap: three entries for two axes": ({"extrap": (True, True, True)}, ValueError,
                                           r"`extrap`=.* or 2 options, one per axis"),
    "extrap: one entry for two axes": ({"extrap": (True,)}, ValueError,
                                       r"`extrap`=.* or 2 options, one per axis"),
    "extrap: a string entry": ({"extrap": (True, "a")}, ValueError, r"`extrap\[1\]`='a'"),
    "extrap: a triple entry": ({"extrap": (True, (1.0, 2.0, 3.0))}, ValueError,
                               r"`extrap\[1\]`=\(1\.0, 2\.0, 3\.0\)"),
    "extrap: a None entry": ({"extrap": (True, None)}, ValueError, r"`extrap\[1\]`=None"),
    "extrap: a complex fill": ({"extrap": (1j, True)}, TypeError, r"`extrap`"),
    "extrap on a periodic axis": ({"period": (grid.PX, None), "extrap": ((0.0, 1.0), True)},
                                  ValueError,
                                  r"`extrap\[0\]`=\(0\.0, 1\.0\) has no effect on periodic data"),
    "extrap=True, every axis periodic": ({"period": (grid.PX, grid.PY), "extrap": True}, ValueError,
                                         r"`extrap`=True has no effect on periodic data"),
    "extrap fill, every axis periodic": ({"period": grid.PX, "extrap": 0.0}, ValueError,
                                         r"`extrap`=0\.0 has no effect on periodic data"),
    # period
    "period: one entry for two axes": ({"period": (grid.PX,)}, ValueError,
                                       r"`period`=\(5\.5,\) must be one value for all 2 axes"),
    "period: three entries": ({"period": (grid.PX, None, None)}, ValueError,
                              r"`period`=.* must be one value for all 2 axes or one per axis"),
    "period: not a scalar": ({"period": np.ones((2, 2))}, ValueError, r"`period` must be a scalar"),
    "period: a string": ({"period": "5"}, TypeError, r"`period` must be a real number"),
    "period: complex": ({"period": (None, 5 + 1j)}, TypeError, r"`period` must be real"),
    # knots
    "yp not one-dimensional": ({"yp": grid.YP[None]}, ValueError, r"`yp` must be one-dimensional"),
    "yp complex": ({"yp": grid.YP + 0j}, TypeError, r"`yp` must be real"),
    "xp complex": ({"xp": grid.XP + 0j}, TypeError, r"`xp` must be real"),
    "one knot in yp": ({"yp": grid.YP[:1], "fp": grid.FP[:, :1]}, ValueError,
                       r"`yp` needs at least 2 knots"),
    # values and given derivatives
    "fp with one dimension": ({"fp": grid.FP[:, 0]}, ValueError,
                              r"`fp` must have at least 2 dimensions, one per axis"),
    "fp a scalar": ({"fp": 1.0}, ValueError, r"`fp` must have at least 2 dimensions"),
    "fp.shape[1] != len(yp)": ({"fp": grid.FP[:, :4]}, ValueError,
                               r"`fp` must have len\(yp\) = 5 entries along axis 1"),
    "fp.shape[0] != len(xp)": ({"fp": grid.FP[:5]}, ValueError,
                               r"`fp` must have len\(xp\) = 6 entries along axis 0"),
    "fy of the wrong shape": ({"fy": grid.FP[:, :4]}, ValueError,
                              r"`fy` \(derivatives at the knots\) must have `fp`'s shape \(6, 5\)"),
    "fxy of the wrong shape": ({"fx": grid.FP, "fxy": grid.FP.T}, ValueError,
                               r"`fxy` \(derivatives at the knots\) must have `fp`'s shape"),
    # queries (Interpolator2D: at the call)
    "y complex": ({"method": "linear", "y": grid.Y + 0j}, TypeError, r"`y` must be real"),
    "x complex scalar": ({"method": "linear", "x": 1.5 + 1j}, TypeError, r"`x` must be real"),
}  # fmt: skip


@pytest.mark.parametrize("api", ["interp2d", "Interpolator2D"])
@pytest.mark.parametrize("case", list(CASES_2D))
def test_2d_bad_input_raises_naming_the_argument(case, api):
    kwargs, exception, pattern = CASES_2D[case]
    with pytest.raises(exception, match=pattern):
        grid.call_2d(api, **kwargs)


CASES_3D = {
    "zp complex": ({"zp": grid.ZP + 0j}, TypeError, r"`zp` must be real"),
    "one knot in zp": ({"zp": grid.ZP[:1], "fp": grid.FP3[:, :, :1]}, ValueError,
                       r"`zp` needs at least 2 knots"),
    "fp with two dimensions": ({"fp": grid.FP3[:, :, 0]}, ValueError,
                               r"`fp` must have at least 3 dimensions"),
    "fp.shape[2] != len(zp)": ({"fp": grid.FP3[:, :, :3]}, ValueError,
                               r"`fp` must have len\(zp\) = 4 entries along axis 2"),
    "fz of the wrong shape": ({"fz": grid.FP3[:, :, :3]}, ValueError,
                              r"`fz` \(derivatives at the knots\) must have `fp`'s shape"),
    "fyz of the wrong shape": ({"fyz": grid.FP3[:5]}, ValueError,
                               r"`fyz` \(derivatives at the knots\) must have `fp`'s shape"),
    "fxz with linear": ({"method": "linear", "fxz": grid.FP3}, ValueError,
                        r"`fxz` \(slopes\) needs a cubic method"),
    "period: two entries for three axes": ({"period": (grid.PX, None)}, ValueError,
                                           r"`period`=.* must be one value for all 3 axes"),
    "bc_type, every axis periodic": ({"bc_type": "clamped", "period": 6.0}, ValueError,
                                     r"`bc_type`='clamped' has no effect: every axis has a"),
    "extrap, every axis periodic": ({"period": 6.0, "extrap": True}, ValueError,
                                    r"`extrap`=True has no effect on periodic data"),
    "extrap: two entries for three axes": ({"extrap": ((True, True), True)}, ValueError,
                                           r"`extrap`=.* or 3 options, one per axis"),
    "derivative: a pair": ({"method": "linear", "derivative": (1, 0)}, ValueError,
                           r"`derivative`=\(1, 0\) needs one order per axis \(3\)"),
    "z complex": ({"method": "linear", "z": np.array([0.5 + 0j])}, TypeError, r"`z` must be real"),
}  # fmt: skip


@pytest.mark.parametrize("api", ["interp3d", "Interpolator3D"])
@pytest.mark.parametrize("case", list(CASES_3D))
def test_3d_bad_input_raises_naming_the_argument(case, api):
    kwargs, exception, pattern = CASES_3D[case]
    with pytest.raises(exception, match=pattern):
        grid.call_3d(api, **kwargs)


def test_grid_good_input_of_the_same_kinds_is_accepted():
    """Controls for the cases above: the valid neighbours of the bad inputs pass every
    check.  `jax.eval_shape` runs the checks (the data are concrete numpy constants)
    without compiling."""
    ok = {
        "per-axis extrap": lambda: grid.call_2d("interp2d", extrap=(True, (0.0, 1.0))),
        "extrap=False, every axis periodic": lambda: grid.call_2d(
            "interp2d", period=(grid.PX, grid.PY), extrap=False),
        "bc_type periodic on y, a period on x": lambda: grid.call_2d(
            "interp2d", fp=grid.FP_CLOSED, bc_type="periodic", period=(grid.PX, None)),
        "bc_type periodic, every axis with a period": lambda: grid.call_2d(
            "interp2d", bc_type="periodic", period=(grid.PX, grid.PY)),
        "bc_type with zero values": lambda: grid.call_2d("interp2d", bc_type=((1, 0.0), (2, 0))),
        "one knot on a periodic axis": lambda: grid.call_2d(
            "interp2d", yp=grid.YP[:1], fp=grid.FP[:, :1], period=(None, grid.PY)),
        "numpy int orders": lambda: grid.call_2d("interp2d", derivative=(np.int64(1), 0)),
        "period as a numpy array": lambda: grid.call_2d("interp2d",
                                                        period=np.array([grid.PX, grid.PY])),
        "c at the ends of [0, 1]": lambda: grid.call_2d("interp2d", method="cardinal", c=1.0),
        "3-D, a period on z": lambda: grid.call_3d("interp3d", period=(None, None, 2.5)),
    }  # fmt: skip
    for name, call in ok.items():
        assert jax.eval_shape(call).shape == grid.X.shape, name


def test_grid_extrap_of_the_wrong_length_says_one_per_axis():
    with pytest.raises(ValueError, match=r"`extrap`.*(per axis|2 axes)"):
        interp2d(grid.X, grid.Y, grid.XP, grid.YP, grid.FP, "cubic2", extrap=(True, True, True))


def test_three_scalars_in_3d_are_one_fill_per_axis():
    """Two numbers in 2-D are one (below, above) pair; three in 3-D can only be one
    fill per axis."""
    x, y, z = np.array([9.0, 1.0, 1.0]), np.array([1.0, 9.0, 1.0]), np.array([1.0, 1.0, 9.0])
    out = interp3d(x, y, z, grid.XP, grid.YP, grid.ZP, grid.FP3, "linear", extrap=(0.0, 1.0, 2.0))
    np.testing.assert_array_equal(out, [0.0, 1.0, 2.0])
