"""Dtype round trips: the data's dtype promoted with the queries', values agree.

The data compute in ``result_type(float, xp, fp)`` (integers become the
default float); the output is that promoted with the queries' dtype (JAX's
rules: integer queries never widen it).  Every combination of queries, knots
and values (Python scalars, ints, f32, f64, complex values) must follow that
rule and give the numbers of the float64 computation, to the precision of the
lowest float involved.  Half precision (bfloat16, float16) computes in float32;
complex fill values fill complex data.  With x64 off, scipy's classes warn once that
float64 data compute in float32, and integer numpy data never make JAX warn.
"""

import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import splines

XP = np.array([0.0, 1.0, 2.5, 3.0, 4.5])
FP = np.array([1.0, -2.0, 0.5, 3.0, 2.0])
X = np.array([0.0, 0.7, 2.5, 4.4])
DTYPES = [np.int32, np.int64, np.float32, np.float64]


def _tolerance(dtype) -> float:
    """2e-6 of the scale for a float32 computation, else 1e-12."""
    return 2e-6 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12


@settings(max_examples=30, deadline=None)
@given(
    x_dtype=st.sampled_from(DTYPES),
    xp_dtype=st.sampled_from(DTYPES),
    fp_dtype=st.sampled_from(DTYPES + [np.complex64, np.complex128]),
    method=st.sampled_from(["nearest", "linear", "cubic2"]),
    derivative=st.integers(0, 2),
)
def test_output_dtype_is_the_promoted_one_and_values_agree(
    x_dtype, xp_dtype, fp_dtype, method, derivative
):
    xp = (2 * XP).astype(xp_dtype)  # integral knots: exact in every dtype
    fp = (2 * FP).astype(fp_dtype)
    if np.issubdtype(fp_dtype, np.complexfloating):
        fp = fp + 1j * fp[::-1]
    x = (2 * X).astype(x_dtype)
    out = splines.interp1d(x, xp, fp, method, derivative=derivative)
    data = jnp.result_type(float, xp, fp)
    expected = jnp.result_type(data, x)
    assert out.dtype == expected, (x.dtype, xp.dtype, fp.dtype)
    ref = splines.interp1d(
        x.astype(np.float64), xp.astype(np.float64), fp.astype(np.complex128), method,
        derivative=derivative,
    )  # fmt: skip
    scale = max(np.abs(np.asarray(ref)).max(), 1.0)
    tol = _tolerance(data)  # the fit runs in the data's dtype
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), atol=tol * scale, rtol=0)


@pytest.mark.parametrize("x", [1.5, 1, np.float32(1.5), np.int8(1)], ids=type)
@pytest.mark.parametrize("data_dtype", [np.float32, np.float64])
def test_scalar_queries_take_the_data_dtype(x, data_dtype):
    """Python scalars are weak: they never widen float32 data."""
    out = splines.interp1d(x, XP.astype(data_dtype), FP.astype(data_dtype), "cubic2")
    assert out.dtype == jnp.result_type(float, x, data_dtype)
    interpolator = splines.Interpolator1D(XP.astype(data_dtype), FP.astype(data_dtype), "cubic2")
    assert interpolator(x).dtype == out.dtype


@pytest.mark.parametrize("value", [0.25, 1, np.float32(0.25), np.float64(0.25)], ids=repr)
def test_float32_data_stay_float32_whatever_the_boundary_or_fill_type(value):
    xp, fp = XP.astype(np.float32), FP.astype(np.float32)
    out = splines.interp1d(
        X.astype(np.float32), xp, fp, "cubic2", bc_type=((1, value), (2, value)), extrap=value
    )
    assert out.dtype == np.float32
    assert (
        splines.interp1d(X.astype(np.float32), xp, fp, "cubic2", period=value * 40).dtype
        == np.float32
    )


def test_bools_are_the_numbers_zero_and_one_everywhere():
    """As in numpy (``np.interp`` takes bool queries): queries, knots and values alike."""
    xp, fp = np.array([0.0, 1.0, 2.0]), np.array([3.0, 5.0, 4.0])
    x = np.array([True, False, True])
    np.testing.assert_array_equal(splines.interp1d(x, xp, fp, "linear"), np.interp(x, xp, fp))
    np.testing.assert_array_equal(
        splines.interp1d(x, xp, fp, "cubic2"), splines.interp1d(x * 1.0, xp, fp, "cubic2")
    )
    np.testing.assert_array_equal(splines.interp1d(0.5, np.array([False, True]), fp[:2] > 3,
                                                   "linear"), 0.5)  # fmt: skip
    np.testing.assert_array_equal(
        splines.CubicSpline(xp, fp)(x), splines.CubicSpline(xp, fp)(x * 1.0)
    )
    assert splines.interp2d(True, False, xp, xp, np.outer(fp, fp), "linear") == fp[1] * fp[0]


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_half_precision_inputs_compute_in_float32(dtype):
    """bfloat16 and float16 inputs compute in float32 (docs/architecture.md §4): values of
    3e4 do not overflow float16 inside the fit, and bfloat16 counts as a real number."""
    xp = jnp.linspace(0, 1, 5, dtype=dtype)
    fp = jnp.array([3e4, -3e4, 3e4, -3e4, 3e4], dtype)
    out = splines.interp1d(jnp.asarray(0.5, dtype), xp, fp, "cubic2")
    assert out.dtype == jnp.float32
    np.testing.assert_allclose(float(out), float(fp[2]), rtol=1e-6)  # x = 0.5 is a knot
    assert splines.Interpolator1D(xp, fp, "cubic2")(jnp.asarray([0.25], dtype)).dtype == jnp.float32


def test_complex_fill_values_with_complex_data():
    """A complex fill (or pair) fills complex data; with real data it raises naming `extrap`."""
    xp = np.linspace(0, 1, 5)
    fp = xp**2 * (1 + 1j)
    assert complex(splines.interp1d(np.array([5.0]), xp, fp, "cubic2", extrap=1j)[0]) == 1j
    below, above = splines.interp1d(np.array([-1.0, 5.0]), xp, fp, "cubic2", extrap=(1j, 2))
    assert (complex(below), complex(above)) == (1j, 2)
    with pytest.raises(TypeError, match="`extrap`"):
        splines.interp1d(np.array([5.0]), xp, xp**2, "cubic2", extrap=1j)


SCIPY_STYLE = {
    "CubicSpline": lambda x, y: splines.CubicSpline(x, y),
    "CubicHermiteSpline": lambda x, y: splines.CubicHermiteSpline(x, y, y),
    "PchipInterpolator": lambda x, y: splines.PchipInterpolator(x, y),
    "Akima1DInterpolator": lambda x, y: splines.Akima1DInterpolator(x, y),
    "pchip_interpolate": lambda x, y: splines.pchip_interpolate(x, y, 1.5),
    "PPoly": lambda x, y: splines.PPoly(y[None, 1:], x),
    "RegularGridInterpolator": lambda x, y: splines.RegularGridInterpolator((x,), y),
    "interpn": lambda x, y: splines.interpn((x,), y, np.array([[1.5]])),
}


@pytest.mark.parametrize("name", SCIPY_STYLE)
def test_scipy_classes_warn_once_when_float64_data_compute_in_float32(name, monkeypatch):
    """A port from scipy with x64 off computes in float32: one warning per process,
    its own class (to filter) naming the setting; none for float32 data or with x64."""
    from splines._utils import dtypes

    monkeypatch.setattr(dtypes, "_X64_WARNED", [])
    make = SCIPY_STYLE[name]
    with jax.enable_x64(False), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(XP.astype(np.float32), FP.astype(np.float32))
        assert not caught, [str(w.message) for w in caught]
        make(XP, FP)
        make(XP, FP)
    assert [w.category for w in caught] == [splines.X64DisabledWarning], caught
    assert issubclass(splines.X64DisabledWarning, UserWarning)
    assert "jax_enable_x64" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the caller's line
    monkeypatch.setattr(dtypes, "_X64_WARNED", [])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make(XP, FP)  # x64 on (conftest): float64 is computed in float64


def test_integer_numpy_data_never_make_jax_warn_about_truncation():
    """JAX warns when asked for int64 with x64 off; our dtype rules must not ask."""
    ints = np.arange(5)
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("error")
        splines.interp1d(ints[:3], ints, ints**2, "cubic2")
        splines.interp2d(ints[:2], ints[:2], ints, ints, np.outer(ints, ints), "linear")
        spline = splines.CubicSpline(ints, ints**2)
        spline(ints), spline.roots(), spline.integrate(0, 3)
        splines.PchipInterpolator(ints, ints)(2)
        splines.PPoly(np.ones((2, 4), int), ints)(ints)
        splines.RegularGridInterpolator((ints,), ints)(np.array([[1]]))
