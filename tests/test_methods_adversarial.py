"""Adversarial cases for the local cubic methods, `approx_df` and the Fourier resampling.

Found by trying to break the features of commit 7f949a7 (checked at
a829b3f) as a demanding user would (extreme magnitudes, non-finite data
under `jit`, odd shapes, option combinations, large shifts).  Tests marked
DEFECT in their docstring failed there and pin the fixes (14954cc); the
others pin behaviour that held up and matters.

References are scipy in f64 on the inputs as rounded to the test's dtype
(DESIGN.md §6), computed in a unit coordinate where the physical one would
overflow scipy itself.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si

from _references import method_options, reference_slopes
from splines import Interpolator1D, approx_df, fft_interp1d, interp1d

LOCAL = ("cubic", "catmull-rom", "cardinal", "monotonic", "monotonic-0", "akima", "makima")
AKIMAS = ("akima", "makima")


# ------------------------------------------------- 1. Akima's cutoff and bad data

# Column 1 holds a spike, so the largest weight sum (Akima's cutoff scale) is
# there whatever column 0 holds near its start; the query cell [4, 5] reads
# secants 2..6 only, far from fp[0].
AK_XP = np.arange(12.0)
AK_FP = np.stack(
    [[0.3, 0.1, 0.4, 0.2, 0.7, 0.5, 0.1, 0.6, 0.2, 0.3, 0.8, 0.4],
     [0.2, 0.5, 0.1, 0.6, 0.3, 0.9, 0.4, 0.2, 10.0, 0.3, 0.5, 0.1]], axis=1)  # fmt: skip
AK_X = np.array([4.5, 4.75])


@pytest.mark.parametrize("bad", [np.nan, np.inf], ids=["nan", "inf"])
@pytest.mark.parametrize("method", AKIMAS)
def test_traced_non_finite_value_does_not_give_plausible_wrong_numbers_far_away(method, bad):
    """DEFECT: one traced NaN/inf value makes Akima's cutoff scale
    ``max(f_1 + f_2)`` NaN/inf, so ``total > 1e-9 · max`` is False at *every*
    knot of *every* column and each slope silently becomes the fallback
    ``(m_{i-2} + m_{i+1})/2``: finite, wrong numbers far from the bad value
    and in clean columns (`_slopes/akima.py`, ``defined = …``).  Expected, as
    for every other method: NaN, or the value the clean data give there."""
    bad_fp = AK_FP.copy()
    bad_fp[0, 0] = bad
    fitted = jax.jit(lambda fp: interp1d(AK_X, AK_XP, fp, method))
    clean = np.asarray(fitted(AK_FP))
    out = np.asarray(fitted(bad_fp))
    plausible = ~np.isnan(out) & ~np.isclose(out, clean, rtol=1e-12, atol=1e-12)
    why = f"{method}: clean {clean.tolist()}, with fp[0, 0]={bad}: {out.tolist()}"
    assert not plausible.any(), why


@pytest.mark.parametrize("method", AKIMAS)
def test_zero_columns(method):
    """DEFECT: ``fp`` of shape (n, 0) crashes (``jnp.max`` of an empty array,
    `_slopes/akima.py`); every other method, and scipy (``initial=-inf``),
    return an empty result."""
    xp = np.arange(5.0)
    assert interp1d(np.array([0.5, 1.5]), xp, np.zeros((5, 0)), method).shape == (2, 0)
    assert approx_df(xp, np.zeros((0, 5)), method).shape == (0, 5)


def test_zero_columns_other_local_methods():
    xp = np.arange(5.0)
    for method in set(LOCAL) - set(AKIMAS):
        out = interp1d(np.array([0.5, 1.5]), xp, np.zeros((5, 0)), method, **method_options(method))
        assert out.shape == (2, 0), method


# ---------------------------------------------------- 2. large secants in float32

# f32 knots 1e-7 apart and values of a few 1e30: secants ~5e37, ~7× below the
# largest float32; every slope and value of the answer is representable, and
# cubic2 / akima / cubic are accurate there.
BIG_XP = (np.arange(6.0) * 1e-7).astype(np.float32)
BIG_V = np.array([0.0, 1.0, 2.5, 3.0, 4.2, 5.0])
BIG_SCALE = 3e30


def _big_case(values, scale):
    fp = (values * scale).astype(np.float32)
    u = np.arange(len(values), dtype=np.float64)  # the unit coordinate x / 1e-7
    return BIG_XP[: len(values)], fp, u, fp.astype(np.float64) / scale


@pytest.mark.parametrize("method", ["monotonic", "monotonic-0"])
def test_pchip_slopes_with_large_secants_f32(method):
    """DEFECT: the harmonic mean ``1 / (a/m_0 + b/m_1)`` (`_slopes/pchip.py`,
    ``_interior``) forms ``a/m`` ≈ 1e-38, below float32's smallest normal,
    which XLA:CPU flushes to zero: interior slopes 67 % off at secants 4.5e37
    and exactly 0 (a flat monotone spline) from ~8e37."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    expected = reference_slopes(method, u, v) * BIG_SCALE / 1e-7
    slopes = np.asarray(approx_df(xp, fp, method), np.float64)
    error = np.max(np.abs(slopes - expected)) / np.max(np.abs(expected))
    assert error < 2e-6, f"{method}: slopes {slopes} vs {expected}: {error:.2g}"


def test_pchip_values_with_large_secants_f32():
    """DEFECT (as above): the interpolated values are 2 % of max|f| off."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    x = (xp[:-1] + np.float32(0.5e-7)).astype(np.float32)
    expected = si.PchipInterpolator(u, v)(x.astype(np.float64) / 1e-7)
    out = np.asarray(interp1d(x, xp, fp, "monotonic"), np.float64) / BIG_SCALE
    error = np.max(np.abs(out - expected)) / np.max(np.abs(v))
    assert error < 2e-6, f"max error {error:.2g} × max|f|"


@pytest.mark.parametrize("method", ["cubic2", "cubic", "akima"])
def test_other_methods_with_large_secants_f32(method):
    """Pin: the same data are fine for the methods without reciprocals."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    if method == "cubic2":
        expected = si.CubicSpline(u, v)(u, 1)
    else:
        expected = reference_slopes(method, u, v)
    slopes = np.asarray(approx_df(xp, fp, method), np.float64) * 1e-7 / BIG_SCALE
    assert np.max(np.abs(slopes - expected)) / np.max(np.abs(expected)) < 2e-6


def test_makima_slopes_with_large_secants_f32():
    """DEFECT: makima's ``|m_{i+1} + m_i|`` of the two secants extrapolated
    beyond the first knot (``3 m_0 − 2 m_1`` and ``2 m_0 − m_1``, 5× and 3×
    the data's secants when those change sign) overflows at secants 5e37
    (7× below the largest float32); the inf weight sum makes the cutoff inf
    and every slope the fallback: 140 % off (`_slopes/akima.py`).  Akima
    without the extra terms is accurate on the same data."""
    values = np.array([0.0, 1.0, 0.0, 0.5, 1.5, 1.0])
    xp, fp, u, v = _big_case(values, 5e30)
    for method in AKIMAS:
        expected = reference_slopes(method, u, v) * 5e30 / 1e-7
        slopes = np.asarray(approx_df(xp, fp, method), np.float64)
        error = np.max(np.abs(slopes - expected)) / np.max(np.abs(expected))
        assert error < 2e-6, f"{method}: {error:.2g}"


# ------------------------------------------------ 3. extreme scales that held up

SCALE_CASES = [  # (dtype, knot span, value scale): slopes max|Δf|/h representable
    (np.float32, 1e-30, 1.0), (np.float32, 1e30, 1.0), (np.float32, 1.0, 1e30),
    (np.float32, 1.0, 1e-30), (np.float32, 1e30, 1e30), (np.float32, 1e-30, 1e-30),
    (np.float64, 1e-250, 1.0), (np.float64, 1e250, 1e250), (np.float64, 1.0, 1e-250),
    (np.float64, 1e-250, 1e-250),
]  # fmt: skip
SC_U = np.concatenate([[0.0], np.cumsum(np.random.default_rng(0).uniform(0.5, 1.5, 11))])
SC_U = SC_U / SC_U[-1]
SC_V = np.random.default_rng(1).normal(size=12)
SC_V[4] = SC_V[3]  # a flat cell


@jax.jit
def _all_local(x, xp, fp):
    """Values and knot slopes of every local method: one program per dtype."""
    return {m: (interp1d(x, xp, fp, m, **method_options(m)), approx_df(xp, fp, m, **method_options(m)))
            for m in LOCAL}  # fmt: skip


@pytest.mark.parametrize("dtype, span, scale", SCALE_CASES, ids=str)
def test_local_methods_are_scale_free(dtype, span, scale):
    """Pin: values (inside the cells) and knot slopes of every local method at
    spans and values from 1e-30 to 1e30 (f32) and 1e±250 (f64), against the
    reference in the unit coordinate on the rounded inputs."""
    xp, fp = (SC_U * span).astype(dtype), (SC_V * scale).astype(dtype)
    u, v = xp.astype(np.float64) / span, fp.astype(np.float64) / scale
    x = ((u[:-1] + 0.37 * np.diff(u)) * span).astype(dtype)
    q = x.astype(np.float64) / span
    tol = 2e-6 if dtype == np.float32 else 1e-12
    for method, (out, slopes) in _all_local(x, xp, fp).items():
        expected_slopes = reference_slopes(method, u, v)
        expected = si.CubicHermiteSpline(u, v, expected_slopes)(q)
        out = np.asarray(out, np.float64) / scale
        slopes = np.asarray(slopes, np.float64) * span / scale
        value_error = np.max(np.abs(out - expected)) / np.max(np.abs(v))
        slope_error = np.max(np.abs(slopes - expected_slopes)) / np.max(np.abs(expected_slopes))
        assert value_error <= tol and slope_error <= 10 * tol, (method, value_error, slope_error)


# ------------------------------------------------------ 4. options and messages


def test_tension_with_given_slopes_raises():
    """DEFECT: with ``fx`` the slopes are given, so ``c`` has no effect — it is
    silently ignored (c=0 and c=0.9 give the same numbers; a traced c = 2
    still turns the result into NaN), while ``bc_type`` with ``fx`` raises
    ("has no effect") as the options policy says (`_fit.py`,
    ``_check_method_options``)."""
    xp = np.arange(5.0)
    fp, fx = np.sin(xp), np.cos(xp)
    with pytest.raises(ValueError, match="`c`"):
        interp1d(np.array([0.5]), xp, fp, "cardinal", c=0.9, fx=fx)
    with pytest.raises(ValueError, match="`c`"):
        Interpolator1D(xp, fp, "cardinal", c=0.9, fx=fx)


@pytest.mark.parametrize(
    "x, f, kwargs",
    [(np.array([0.0, 1.0, 1.0, 2.0]), np.ones(4), {}),
     (np.arange(4.0), np.array([0.0, np.nan, 1.0, 2.0]), {}),
     (np.arange(4.0), np.ones(3), {}),
     (np.ones(1), np.ones(1), {})],
    ids=["x not increasing", "f not finite", "f wrong length", "one knot"],
)  # fmt: skip
def test_approx_df_errors_name_its_own_arguments(x, f, kwargs):
    """DEFECT: `approx_df(x, f, …)` reports `xp`/`fp` — `interp1d`'s names,
    which its caller never passed (DESIGN.md §5: name the argument)."""
    with pytest.raises(ValueError) as info:
        approx_df(x, f, "akima", **kwargs)
    message = str(info.value)
    assert "`xp" not in message and "`fp" not in message, message
    assert "`x" in message or "`f" in message, message


def test_derivative_tuples_with_repeats_and_orders_past_the_degree():
    """Pin: repeated orders repeat; orders past 3 are exact zeros; a huge order
    compiles in no time; a NaN query stays NaN past the degree."""
    xp = np.array([0.0, 0.5, 1.3, 2.0, 3.1])
    fp, x = np.sin(xp), np.array([0.2, 1.0, 2.5, np.nan])
    out = np.asarray(interp1d(x, xp, fp, "makima", derivative=(1, 4, 1, 10**6, 0)))
    assert out.shape == (5, 4)
    np.testing.assert_array_equal(out[0], out[2])
    assert np.all(out[[1, 3], :3] == 0) and np.all(np.isnan(out[:, 3]))
    single = interp1d(x[:3], xp, fp, "makima", derivative=1)
    np.testing.assert_allclose(out[0, :3], single, rtol=1e-15)


def test_periodic_one_knot_and_two_closed_knots():
    """Pin, one method per slopes family: one knot with a period is the
    constant (d/dx 0); two closed knots (one distinct knot) too, with a traced
    period.  (All seven hold; the cyclic extension is shared.)"""
    x = np.array([-0.5, 0.25, 1.0, 2.5])

    @jax.jit
    def run(period):
        return {m: (interp1d(x, np.array([0.3]), np.array([2.0]), m, period=1.5,
                             derivative=(0, 1), **method_options(m)),
                    interp1d(x, np.array([0.0, 2.0]), np.array([1.0, 1.0]), m, period=period,
                             **method_options(m)))
                for m in ("cubic", "cardinal", "monotonic-0", "makima")}  # fmt: skip

    for method, (one, closed) in run(2.0).items():
        np.testing.assert_array_equal(one, [[2.0] * 4, [0.0] * 4], err_msg=method)
        np.testing.assert_array_equal(closed, np.ones(4), err_msg=method)


# ------------------------------------------------------------------ 5. Fourier


def _shifted_reference(f, t):
    """``p(j + t)``, j = 0 … N−1, in f64: the trigonometric interpolant of
    ``f`` (Nyquist term split for even N) with its phase turns reduced exactly."""
    n = f.size
    c = np.fft.fft(f.astype(np.float64)) / n
    k = np.fft.fftfreq(n, 1.0 / n).astype(np.int64)
    t_int = math.floor(t)
    frac = t - t_int  # exact: |t| < 2^24
    j = np.arange(n)
    turns = np.mod(np.outer(j + t_int, k), n) + np.outer(np.ones(n), k) * frac
    out = np.exp(2j * np.pi * turns / n) @ c
    if n % 2 == 0:  # the Nyquist pair: c_{N/2} cos(π (j + t)) instead of one term
        nyq = c[n // 2]
        cosine = np.cos(np.pi * (j + frac)) * (-1.0) ** t_int
        out += nyq * (cosine - np.exp(2j * np.pi * turns[:, n // 2] / n))
    return out.real


@pytest.mark.parametrize("shift", [0.3, 255.3], ids=["small", "half the period"])
def test_fft_f32_shift_accuracy_does_not_depend_on_the_shift(shift):
    """DEFECT (large shift): the phase angle ``(2π/N) · (k · t)`` is formed in
    f32 (`_fourier.py`, ``_shifted``): the product k·t reaches N²/4 and loses
    its low bits, so the error grows like N·|t|·ε — 2e-5 × max|f| at N = 512
    and t = 255.3, 100× that of t = 0.3 on the same f32 input.  Splitting t
    into integer and fraction (k·t_int mod N exactly, then k·t_frac) keeps
    it at 2.5e-7 for every shift."""
    f = np.random.default_rng(2).normal(size=512).astype(np.float32)
    t = np.float32(shift)
    out = np.asarray(fft_interp1d(f, 512, sx=t), np.float64)[:, 0]
    expected = _shifted_reference(f, float(t))
    error = np.max(np.abs(out - expected)) / np.max(np.abs(f))
    assert error < 2e-6, f"shift {shift}: max error {error:.2g} × max|f|"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fft_huge_shifts_are_exact(dtype):
    """Pin: shifts of 1e12–1e15 samples, 2^52 + 1 and 3e7 + 0.25 are reduced
    exactly (only s mod N matters)."""

    def p(u):
        return np.sin(2 * np.pi * u / 8) + 0.3 * np.cos(2 * np.pi * 3 * u / 8)

    s = np.array([1e12 + 0.3, -1e12 - 0.7, 2.0**52 + 1, 1e15 + 0.5, 3e7 + 0.25], dtype)
    out = np.asarray(fft_interp1d(p(np.arange(8.0)).astype(dtype), 8, sx=s), np.float64)
    reduced = np.array([math.fmod(float(v), 8.0) for v in s])
    tol = 1e-14 if dtype == np.float64 else 1e-6
    np.testing.assert_allclose(out, p(np.arange(8)[:, None] + reduced), rtol=0, atol=tol)


def test_fft_traced_spacing_under_vmap():
    """Pin: a bad traced spacing makes only its own slice NaN."""
    f = np.sin(2 * np.pi * np.arange(8) / 8)
    spacings = np.array([2.0, 0.5, 0.0, np.inf, -1.0, np.nan])
    out = np.asarray(jax.jit(jax.vmap(lambda dx: fft_interp1d(f, 8, sx=0.6, dx=dx)))(spacings))
    bad = np.isnan(out).all(axis=(1, 2))
    np.testing.assert_array_equal(bad, [False, False, True, True, True, True])
    np.testing.assert_allclose(out[0, :, 0], np.sin(2 * np.pi * (np.arange(8) + 0.3) / 8),
                               atol=1e-14)  # fmt: skip


# ------------------------------------------------------------------ 6. gradients


def test_periodic_flat_data_gradients_are_finite():
    """Pin: gradients w.r.t. queries, knots, values and the period, of d/dx
    (its pieces hold every coefficient), for Akima on periodic data with a
    flat run and a straight run (zero secants; at knot 2 both weights vanish
    and the fallback slope is taken), queries on knots, the period traced
    (both closings in the program).  (Gradients and hessians of every local
    method on flat, constant, linear and step data were finite too; left out
    here for their compile time.)"""
    xp = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5, 5.0])
    fp = np.array([0.0, 0.0, 0.0, 0.9, 1.7, 3.0, 0.5])  # secants 0, 0, 1, 1, 1, −5, −0.5
    x = np.array([0.0, 0.35, 1.5, 2.0, 4.9, 5.8])

    def loss(x, xp, fp, period):
        return jnp.sum(interp1d(x, xp, fp, "akima", period=period, derivative=1) ** 2)

    grads = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))(x, xp, fp, 6.0)
    for name, g in zip(("x", "xp", "fp", "period"), grads):
        assert np.all(np.isfinite(g)), (name, g)
