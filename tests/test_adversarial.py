"""Cases found by trying to break the hardened library as a demanding user would.

Each test names the defect class it pins; all of these once gave a silent wrong
number, a NaN where the answer is representable, or a crash on valid input.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy.interpolate import CubicSpline

import splines

U = np.array([0.0, 0.2, 0.5, 0.7, 1.0])  # uneven unit knots
V = np.array([1.0, -1.0, 0.5, 0.3, -0.2])
UQ = np.array([0.1, 0.6])


@pytest.mark.parametrize(
    "dtype, span, scale",
    [(np.float32, 1e20, 1e30), (np.float32, 1e-20, 1e-30), (np.float32, 1e13, 1.0),
     (np.float64, 1e250, 1e250), (np.float64, 1e-250, 1e-250)],
)  # fmt: skip
def test_higher_derivatives_at_extreme_spans(dtype, span, scale):
    """XLA folds (a / h) / h into a / h², which over- or underflows: d² and d³
    came out 0 or ±inf where the true value is representable."""
    xp, fp, x = (span * U).astype(dtype), (scale * V).astype(dtype), (span * UQ).astype(dtype)
    reference = CubicSpline(U, V)  # the same spline in the unit coordinate
    tol = 2e-5 if dtype == np.float32 else 1e-12
    orders = (0, 1, 2, 3)  # one call (one compiled program): the orders stacked first
    out = np.asarray(splines.interp1d(x, xp, fp, derivative=orders), np.float64)
    for d in orders:
        expected = reference(UQ, d) * scale
        with np.errstate(over="ignore"):
            for _ in range(d):
                expected = expected / span  # in f64, one factor at a time
        info = np.finfo(dtype)
        if not np.all((np.abs(expected) > info.tiny * 1e3) & (np.abs(expected) < info.max)):
            continue  # not representable to relative accuracy in this dtype
        np.testing.assert_allclose(out[d], expected, rtol=tol * 10**d, err_msg=f"order {d}")


def test_large_values_on_large_spans_stay_finite():
    """h · Δy overflowed f32 in the not-a-knot rows (1e20 × 1e30)."""
    xp, fp = (1e20 * U).astype(np.float32), (1e30 * V).astype(np.float32)
    got = np.asarray(splines.interp1d((1e20 * UQ).astype(np.float32), xp, fp), np.float64)
    np.testing.assert_allclose(got, CubicSpline(U, V)(UQ) * 1e30, rtol=2e-6)


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_half_precision_inputs_compute_in_float32(dtype):
    """bfloat16 was rejected as 'not a real number'; float16 overflowed inside the fit."""
    xp = jnp.linspace(0, 1, 5, dtype=dtype)
    fp = jnp.array([3e4, -3e4, 3e4, -3e4, 3e4], dtype)
    out = splines.interp1d(jnp.asarray(0.5, dtype), xp, fp)
    assert out.dtype == jnp.float32
    np.testing.assert_allclose(float(out), float(fp[2]), rtol=1e-6)  # x = 0.5 is a knot
    assert splines.Interpolator1D(xp, fp)(jnp.asarray([0.25], dtype)).dtype == jnp.float32


def test_float32_knots_close_the_period_with_float64_values():
    """The closing tolerance is the knots' own precision, not the promoted dtype's."""
    xp = np.linspace(0, 2 * np.pi, 9, dtype=np.float32)
    fp = np.sin(xp.astype(np.float64))
    eager = splines.interp1d(1.0, xp, fp, period=2 * np.pi)
    traced = jax.jit(lambda a: splines.interp1d(1.0, a, fp, period=2 * np.pi))(xp)
    assert np.isfinite(eager) and float(eager) == pytest.approx(float(traced), abs=1e-12)
    assert float(eager) == pytest.approx(np.sin(1.0), abs=2e-3)


def test_invalid_traced_periodic_data_poison_every_gradient():
    """The replaced closing knot and value once kept exact-zero gradients.  Every
    method's gradients in one jitted program (one compile, not two per method)."""
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


def test_complex_fill_values_with_complex_data():
    xp = np.linspace(0, 1, 5)
    fp = xp**2 * (1 + 1j)
    assert complex(splines.interp1d(np.array([5.0]), xp, fp, extrap=1j)[0]) == 1j
    below, above = splines.interp1d(np.array([-1.0, 5.0]), xp, fp, extrap=(1j, 2))
    assert (complex(below), complex(above)) == (1j, 2)
    with pytest.raises(TypeError, match="`extrap`"):
        splines.interp1d(np.array([5.0]), xp, xp**2, extrap=1j)


def test_subnormal_knot_spacing_raises():
    """XLA:CPU flushes subnormal differences to zero: the knots would collide."""
    xp = (1e-39 * np.array([0, 1, 2, 3.0])).astype(np.float32)
    with pytest.raises(ValueError, match=r"`xp\[1\] - xp\[0\]`.*smallest normal"):
        splines.interp1d(np.float32(1.5e-39), xp, np.array([1, 2, 0, 1], np.float32))


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_non_finite_boundary_values_raise(value):
    xp = np.linspace(0, 1, 5)
    with pytest.raises(ValueError, match="`bc_type`"):
        splines.interp1d(0.3, xp, xp**2, bc_type=((1, value), (2, 0.0)))


def test_invalid_traced_periodic_bc_poisons_the_last_value_too():
    """bc_type="periodic" replaces fp[-1] by fp[0]: its gradient must still be NaN."""
    xp = np.linspace(0, 1, 6)
    fp = np.cos(2 * np.pi * xp)
    fp[-1] += 0.5  # the ends do not match: invalid periodic data

    def loss(values):
        return splines.interp1d(jnp.array([0.3, 0.7]), xp, values, bc_type="periodic").sum()

    assert np.all(np.isnan(np.asarray(jax.jit(jax.grad(loss))(fp))))
