"""Fourier resampling (`splines._interpolate.fourier`): scipy, exact trigonometric polynomials, transforms.

References: `scipy.signal.resample` (no shifts; 2-D as two 1-D resamples,
which is the same tensor-product operator), and trigonometric polynomials
evaluated analytically at the new (and shifted) points.  A polynomial is
represented exactly when both lengths resolve its frequencies, |k| ≤ N/2 and
|k| ≤ M/2, and at k = ±N/2 of an even input length its two coefficients are
equal (samples cannot tell ``e^{iπx}`` from ``e^{−iπx}`` there: only the
cosine is recoverable).  The pair at ±M/2 of an even *output* length may be
anything: the output points see the sum, which is what the merged bin holds.

Compiling dominates the runtime (~0.1–0.3 s per resampling on 2 cores), so
sizes are small, each resampling is compiled once, and the cases of a table
are compiled together in one program whose results the tests read case by
case.  Shift lists start with 0, so one shifted call also gives the unshifted
values (scipy's reference).

Large shifts are reduced exactly (only s mod N matters, for shifts up to 1e15 and
2^52 + 1 samples), and in float32 the accuracy does not depend on the shift.
Concrete bad lengths, shapes and spacings raise naming the argument; a bad traced
spacing makes its own slice NaN.
"""

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.signal
from _compiles import compiles
from _lowered import lowered_text
from jax.test_util import check_grads

from splines._interpolate.fourier import _fft_interp1d, fft_interp1d, fft_interp2d

DX = 0.37  # a sample spacing that is not 1, so shifts must be divided by it
# (N, M): up and down between even and odd lengths, the same length, one more
# and one fewer (the Nyquist bin lands on the last bin kept), one point, one sample.
LENGTHS = [(6, 10), (6, 11), (7, 10), (6, 4), (6, 5), (7, 4), (7, 5), (6, 6), (6, 7), (7, 6),
           (5, 1), (1, 4)]  # fmt: skip
LENGTH_IDS = [f"{n}->{m}" for n, m in LENGTHS]


def relative_error(actual, expected):
    expected = np.asarray(expected)
    return np.abs(np.asarray(actual) - expected).max() / np.abs(expected).max()


# --------------------------------------------------------------------------- trig polynomials


def random_trig(rng, n_in, n_out, real):
    """Coefficients ``{k: c_k}`` of a trigonometric polynomial both lengths represent."""
    k_max = min(n_in, n_out) // 2
    coefficients = {}
    for k in range(0 if real else -k_max, k_max + 1):
        c = complex(rng.normal(), rng.normal())
        if real and k == 0:
            c = c.real
        coefficients[k] = c
        if real and k > 0:
            coefficients[-k] = c.conjugate()
    if n_in % 2 == 0 and n_in // 2 == k_max:  # the input's Nyquist pair: equal coefficients
        nyquist = coefficients[k_max].real if real else coefficients[k_max]
        coefficients[k_max] = coefficients[-k_max] = nyquist
    return coefficients


def trig_values(coefficients, x, period, real):
    """``Σ_k c_k e^{2πi k x/T}`` at the points ``x`` (any shape), in f64."""
    x = np.asarray(x, np.float64)
    values = sum(c * np.exp(2j * np.pi * k * x / period) for k, c in coefficients.items())
    return values.real if real else values


def trig_samples(coefficients, n, spacing, real, x0=0.0):
    return trig_values(coefficients, x0 + spacing * np.arange(n), n * spacing, real)


# --------------------------------------------------------------------------- 1-D cases

SHIFTS = np.array([0.0, 0.123, -0.8, 2.5, 17.3])  # in samples; 0 first: the unshifted values


def case_samples(n_in, n_out, real, dtype=np.float64):
    """``(N, 2, 3)`` samples: ``[:, 0]`` random noise, ``[:, 1]`` three exact polynomials."""
    rng = np.random.default_rng(n_in * 100 + n_out + 7 * real)
    noise = rng.normal(size=(n_in, 3)) + (0 if real else 1j * rng.normal(size=(n_in, 3)))
    polys = [random_trig(rng, n_in, n_out, real) for _ in range(3)]
    exact = np.stack([trig_samples(c, n_in, DX, real) for c in polys], axis=-1)
    kind = dtype if real else np.result_type(dtype, np.complex64)
    return np.stack([noise, exact], axis=1).astype(kind), polys


def exact_values(polys, n_in, n_out, real, shifts=None):
    """The polynomials at the ``n_out`` new points, each shift (in samples) on a last axis."""
    period = n_in * DX
    x = period / n_out * np.arange(n_out)
    if shifts is not None:
        x = x[:, None] + shifts * DX
    return np.stack([trig_values(c, x, period, real) for c in polys], axis=1)


@functools.cache
def resampled_1d(real, dtype=np.float64, lengths=tuple(LENGTHS), shifts=True):
    """``{(N, M): (samples, polys, output)}``: every case from one compiled program."""
    cases = {nm: case_samples(*nm, real, dtype) for nm in lengths}
    sx = SHIFTS * DX if shifts else None

    @jax.jit
    def run(samples):
        return [fft_interp1d(f, m, sx=sx, dx=DX) for f, (_, m) in zip(samples, lengths)]

    outs = jax.device_get(run([f for f, _ in cases.values()]))  # numpy: slicing compiles nothing
    return {nm: (*cases[nm], out) for nm, out in zip(lengths, outs)}


@pytest.mark.parametrize("real", [True, False], ids=["real", "complex"])
@pytest.mark.parametrize("n_in, n_out", LENGTHS, ids=LENGTH_IDS)
def test_matches_scipy_resample_f64(n_in, n_out, real):
    f, _, out = resampled_1d(real)[n_in, n_out]
    assert out.shape == (n_out, 2, 3, SHIFTS.size) and out.dtype == f.dtype
    assert relative_error(out[..., 0], scipy.signal.resample(f, n_out, axis=0)) < 1e-12


@pytest.mark.parametrize("real", [True, False], ids=["real", "complex"])
@pytest.mark.parametrize("n_in, n_out", LENGTHS, ids=LENGTH_IDS)
def test_exact_for_trig_polynomials_1d(n_in, n_out, real):
    _, polys, out = resampled_1d(real)[n_in, n_out]
    assert relative_error(out[:, 1], exact_values(polys, n_in, n_out, real, SHIFTS)) < 1e-13


F32_LENGTHS = ((6, 10), (7, 4), (6, 4), (7, 11), (8, 8))


@pytest.mark.parametrize("real", [True, False], ids=["real", "complex"])
@pytest.mark.parametrize("n_in, n_out", F32_LENGTHS, ids=str)
def test_f32_matches_scipy_and_is_exact_without_shift(n_in, n_out, real):
    # scipy in f64 on the f32-rounded input.
    f, polys, out = resampled_1d(real, np.float32, F32_LENGTHS, shifts=False)[n_in, n_out]
    assert out.dtype == f.dtype == (np.float32 if real else np.complex64)
    wide = f.astype(np.float64 if real else np.complex128)
    assert relative_error(out, scipy.signal.resample(wide, n_out, axis=0)) < 1e-5
    assert relative_error(out[:, 1], exact_values(polys, n_in, n_out, real)) < 1e-5


def test_f32_shifted_is_exact():
    coefficients = random_trig(np.random.default_rng(11), 8, 12, real=True)
    f = trig_samples(coefficients, 8, 1.0, real=True).astype(np.float32)
    out = fft_interp1d(f, 12, sx=SHIFTS.astype(np.float32))
    expected = trig_values(coefficients, (8 / 12) * np.arange(12)[:, None] + SHIFTS, 8.0, True)
    assert out.dtype == np.float32
    assert relative_error(out, expected) < 1e-5


# --------------------------------------------------------------------------- 2-D cases

SPACINGS_2D = (DX, 0.61)
# Up even → odd with down odd → even; the same lengths (the Nyquist pair merged
# back, shifted); down odd → odd with up even → even.
SHAPES_2D = [((6, 7), (9, 4)), ((4, 6), (4, 6)), ((7, 6), (5, 12))]
CASES_2D = [(i, o, r) for i, o in SHAPES_2D for r in (True, False)]
SX, SY = SHIFTS * SPACINGS_2D[0], SHIFTS[::-1].copy() * SPACINGS_2D[1]  # pairs (sx_t, sy_t)
SY[0] = 0.0  # the first pair (0, 0): the unshifted values


def separable_trig(rng, shape_in, shape_out, real, rank=3):
    """A sum of products of 1-D polynomials each axis represents, as a function of points."""
    terms = [
        [random_trig(rng, n_in, n_out, real) for n_in, n_out in zip(shape_in, shape_out)]
        for _ in range(rank)
    ]
    periods = [n * d for n, d in zip(shape_in, SPACINGS_2D)]

    def values(points_x, points_y):  # points of shape (n, s): values (nx, ny, s)
        return sum(
            trig_values(cx, points_x, periods[0], real)[:, None]
            * trig_values(cy, points_y, periods[1], real)[None, :]
            for cx, cy in terms
        )

    return values


@functools.cache
def resampled_2d():
    """``{case: (samples, polynomial, output)}``; samples ``[..., 0]`` noise, ``[..., 1]`` exact."""
    inputs = {}
    for shape_in, shape_out, real in CASES_2D:
        rng = np.random.default_rng(sum(shape_in) + 3 * sum(shape_out) + real)
        noise = rng.normal(size=shape_in) + (0 if real else 1j * rng.normal(size=shape_in))
        values = separable_trig(rng, shape_in, shape_out, real)
        grid = [d * np.arange(n)[:, None] for n, d in zip(shape_in, SPACINGS_2D)]
        inputs[shape_in, shape_out, real] = np.stack([noise, values(*grid)[..., 0]], -1), values

    @jax.jit
    def run(samples):
        dx, dy = SPACINGS_2D
        return [
            fft_interp2d(f, *shape_out, sx=SX, sy=SY, dx=dx, dy=dy)
            for f, (_, shape_out, _) in zip(samples, CASES_2D)
        ]

    outs = jax.device_get(run([f for f, _ in inputs.values()]))
    return {case: (*inputs[case], out) for case, out in zip(CASES_2D, outs)}


@pytest.mark.parametrize("shape_in, shape_out, real", CASES_2D, ids=str)
def test_2d_matches_scipy_and_is_exact(shape_in, shape_out, real):
    f, values, out = resampled_2d()[shape_in, shape_out, real]
    assert out.shape == shape_out + (2, SHIFTS.size) and out.dtype == f.dtype
    twice = scipy.signal.resample(
        scipy.signal.resample(f[..., 0], shape_out[0], axis=0), shape_out[1], axis=1
    )  # the 2-D operator is the tensor product of the 1-D ones
    assert relative_error(out[..., 0, 0], twice) < 1e-12
    grid = [n * d / m * np.arange(m)[:, None] for n, d, m in zip(shape_in, SPACINGS_2D, shape_out)]
    assert relative_error(out[..., 1, :], values(grid[0] + SX, grid[1] + SY)) < 1e-13


def test_2d_without_shift_matches_scipy():
    f = np.random.default_rng(8).normal(size=(6, 5, 2))
    twice = scipy.signal.resample(scipy.signal.resample(f, 9, axis=0), 4, axis=1)
    assert relative_error(fft_interp2d(f, 9, 4), twice) < 1e-12


# --------------------------------------------------------------------------- Nyquist

NYQUIST_LENGTHS = [(6, 12), (6, 6), (8, 4), (6, 3), (6, 7)]


@functools.cache
def nyquist_cosines():
    """``1/2 + cos(π x/Δx)`` from N = 6 or 8 samples to several lengths, shifted."""

    @jax.jit
    def run():
        return [
            fft_interp1d(jnp.cos(jnp.pi * jnp.arange(n)) + 0.5, m, sx=SHIFTS)
            for n, m in NYQUIST_LENGTHS
        ]

    return dict(zip(NYQUIST_LENGTHS, jax.device_get(run())))


@pytest.mark.parametrize("n_in, n_out", NYQUIST_LENGTHS, ids=str)
def test_nyquist_cosine_is_exact(n_in, n_out):
    """Split on the way up, merged back at the same length, filtered out on the way down."""
    x = (n_in / n_out) * np.arange(n_out)[:, None] + SHIFTS  # in samples
    expected = 0.5 + (np.cos(np.pi * x) if n_out >= n_in else 0.0 * x)  # N/2 > M/2: dropped
    assert np.abs(np.asarray(nyquist_cosines()[n_in, n_out]) - expected).max() < 1e-13


def test_output_nyquist_pair_of_any_coefficients_is_exact_downsampled():
    """Down to even M, a pair at ±M/2 with unequal coefficients (a sine) is exact, shifted too."""
    n_in, n_out = 9, 6
    period = n_in * DX

    def signal(x):
        return np.sin(2 * np.pi * 3 * x / period + 0.4) + 1j * np.cos(2 * np.pi * 2 * x / period)

    out = fft_interp1d(signal(np.arange(n_in) * DX), n_out, sx=SHIFTS * DX, dx=DX)
    x_new = period / n_out * np.arange(n_out)[:, None] + SHIFTS * DX
    assert relative_error(out, signal(x_new)) < 1e-13


# --------------------------------------------------------------------------- special cases


def test_whole_sample_shifts_equal_roll():
    rng = np.random.default_rng(6)
    f6, f7 = rng.normal(size=(6, 2)), rng.normal(size=(7, 2))
    g = rng.normal(size=(6, 5, 2)) + 1j * rng.normal(size=(6, 5, 2))
    steps = np.array([1, -2, 3, 8])  # 8: more than a period

    @jax.jit
    def shifted(f6, f7, g):
        return (
            fft_interp1d(f6, 6, sx=steps * DX, dx=DX),
            fft_interp1d(f7, 7, sx=steps * DX, dx=DX),
            fft_interp2d(g, 6, 5, sx=steps[:2], sy=np.array([1.0, -3.0])),
        )

    out6, out7, out2 = jax.device_get(shifted(f6, f7, g))
    for t, step in enumerate(steps):
        np.testing.assert_allclose(out6[..., t], np.roll(f6, -step, axis=0), atol=1e-14)
        np.testing.assert_allclose(out7[..., t], np.roll(f7, -step, axis=0), atol=1e-14)
    np.testing.assert_allclose(out2[..., 0], np.roll(g, (-1, -1), axis=(0, 1)), atol=1e-14)
    np.testing.assert_allclose(out2[..., 1], np.roll(g, (2, 3), axis=(0, 1)), atol=1e-14)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex64])
def test_identity_at_the_same_length_without_shift(dtype):
    f = np.random.default_rng(0).normal(size=(6, 5, 2)).astype(dtype)
    same, same_2d = jax.jit(lambda f: (fft_interp1d(f, 6), fft_interp2d(f, 6, 5)))(f)
    np.testing.assert_array_equal(same, f)
    np.testing.assert_array_equal(same_2d, f)


@pytest.mark.parametrize(
    "dtype, expected",
    [(np.float32, np.float32), (np.complex64, np.complex64), (np.float64, np.float64),
     (np.complex128, np.complex128), (np.int32, np.float64), (np.bool_, np.float64),
     (np.float16, np.float16)],
    ids=lambda d: np.dtype(d).name,
)  # fmt: skip
def test_shapes_and_dtypes(dtype, expected):
    f = np.zeros((4, 3, 2), dtype)

    def shape_dtype(fun, *args, **kwargs):  # traced, not compiled
        out = jax.eval_shape(lambda f: fun(f, *args, **kwargs), f)
        return out.shape, out.dtype

    assert shape_dtype(fft_interp1d, 7) == ((7, 3, 2), expected)
    # A scalar shift gives a trailing axis of length 1, as interpax.
    assert shape_dtype(fft_interp1d, 3, sx=0.5) == ((3, 3, 2, 1), expected)
    assert shape_dtype(fft_interp1d, 3, sx=np.float64(0.5), dx=2) == ((3, 3, 2, 1), expected)
    assert shape_dtype(fft_interp1d, 5, sx=[0.5, 1.0, 2.0]) == ((5, 3, 2, 3), expected)
    assert shape_dtype(fft_interp2d, 5, 4) == ((5, 4, 2), expected)
    assert shape_dtype(fft_interp2d, 5, 4, sx=[0.1, 0.2], sy=[0.3, 0.4]) == ((5, 4, 2, 2), expected)
    assert shape_dtype(fft_interp2d, 5, 4, sx=0.1, sy=[0.3, 0.4]) == ((5, 4, 2, 2), expected)


def test_f32_data_with_f64_shifts_stay_f32():
    f = np.ones((4, 2), np.float32)
    out = fft_interp1d(f, 6, sx=np.array([0.5, 0.25]), dx=np.float64(2.0))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, 1.0, rtol=1e-6)


def test_single_sample_and_single_output_are_means():
    f = np.array([[1.0, 2.0], [3.0, -2.0], [5.0, 3.0]])
    mean, constant, mean_2d = jax.jit(
        lambda f: (fft_interp1d(f, 1), fft_interp1d(f[:1], 4, sx=[0.3]), fft_interp2d(f, 1, 1))
    )(f)
    np.testing.assert_allclose(mean, [[3.0, 1.0]], rtol=1e-15)
    np.testing.assert_allclose(constant, np.ones((4, 2, 1)) * f[0, :, None], rtol=1e-15)
    np.testing.assert_allclose(mean_2d, [[2.0]], rtol=1e-15)


def test_nan_gives_nan_everywhere():
    @jax.jit
    def resampled(f, zero, negative):
        ones = jnp.ones((4, 3))
        return (
            fft_interp1d(f, 7),
            fft_interp1d(f.astype(complex), 3, sx=[0.2]),
            fft_interp2d(f[:, None] * ones, 5, 2),
            fft_interp1d(ones, 5, sx=[np.nan]),  # a NaN shift
            fft_interp1d(ones, 5, sx=[0.5], dx=zero),  # traced spacings that are not > 0
            fft_interp2d(ones, 5, 2, sx=0.5, sy=0.5, dy=negative),
        )

    for out in resampled(np.array([1.0, np.nan, 2.0, 0.5]), 0.0, -1.0):
        assert np.all(np.isnan(out))


def test_large_prime_length():
    out = fft_interp1d(np.array([0.0, 1.0, 0.0, -1.0]), 100_003)  # sin(2πx/T)
    x = np.arange(100_003) / 100_003
    np.testing.assert_allclose(out, np.sin(2 * np.pi * x), atol=1e-12)


# --------------------------------------------------------------------------- large shifts


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
    """float32, N = 512: a shift of 255.3 samples is as accurate as one of 0.3 (2.5e-7
    × max|f|).  The phase ``(2π/N) · (k · t)`` takes t as integer and fraction,
    k·t_int mod N exactly, then k·t_frac: formed whole in f32, k·t reaches N²/4 and
    loses its low bits, an error growing like N·|t|·ε (2e-5 × max|f| here)."""
    f = np.random.default_rng(2).normal(size=512).astype(np.float32)
    t = np.float32(shift)
    out = np.asarray(fft_interp1d(f, 512, sx=t), np.float64)[:, 0]
    expected = _shifted_reference(f, float(t))
    error = np.max(np.abs(out - expected)) / np.max(np.abs(f))
    assert error < 2e-6, f"shift {shift}: max error {error:.2g} × max|f|"


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fft_huge_shifts_are_exact(dtype):
    """Shifts of 1e12–1e15 samples, 2^52 + 1 and 3e7 + 0.25 are reduced
    exactly (only s mod N matters)."""

    def p(u):
        return np.sin(2 * np.pi * u / 8) + 0.3 * np.cos(2 * np.pi * 3 * u / 8)

    s = np.array([1e12 + 0.3, -1e12 - 0.7, 2.0**52 + 1, 1e15 + 0.5, 3e7 + 0.25], dtype)
    out = np.asarray(fft_interp1d(p(np.arange(8.0)).astype(dtype), 8, sx=s), np.float64)
    reduced = np.array([math.fmod(float(v), 8.0) for v in s])
    tol = 1e-14 if dtype == np.float64 else 1e-6
    np.testing.assert_allclose(out, p(np.arange(8)[:, None] + reduced), rtol=0, atol=tol)


# --------------------------------------------------------------------------- transformations
# check_grads compiles 13 programs at order 2 in both modes (~0.5 s each here),
# so that runs once: real data, shifted at the same even length (the Nyquist
# term split, phase-shifted and merged back), w.r.t. f and the shifts.  Every
# other path (complex 2-D, real up- and down-sampling, the spacings) runs at
# order 1 in reverse mode, all in one function.

F_GRAD = np.random.default_rng(5).normal(size=(6, 2))


def test_check_grads_f_and_shift():
    def resample(f, sx):
        return fft_interp1d(f, 6, sx=sx, dx=0.9)

    check_grads(jax.jit(resample), (F_GRAD, np.array([0.3, -1.2])), order=2, modes=("fwd", "rev"))


def test_check_grads_every_path_and_argument():
    def resample(f, g, sx, sy, dx, dy):
        return (
            fft_interp2d(g, 4, 7, sx=sx, sy=sy, dx=dx, dy=dy),  # complex: down to even, odd up
            fft_interp1d(f, 9, sx=sx, dx=dx),  # real up from even
            fft_interp1d(f[:5], 4, sx=sy, dx=dy),  # real down from odd to even (merge)
        )

    g = F_GRAD[:, :1] + 1j * F_GRAD[:, 1:] * np.ones((1, 5))
    args = (F_GRAD, g, np.array([0.3, -0.7]), np.array([1.1, 0.2]), 0.8, 1.3)
    check_grads(jax.jit(resample), args, order=1, modes=("rev",))


def test_shift_gradients_are_real_derivatives():
    """d/ds of a resampled sine is the cosine: the gradient is real and right."""
    f = np.sin(2 * np.pi * np.arange(8) / 8)

    def value(s):
        return fft_interp1d(f, 8, sx=s)[3, 0]

    grad = jax.jit(jax.grad(value))(0.4)
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, 2 * np.pi / 8 * np.cos(2 * np.pi * 3.4 / 8), rtol=1e-13)


def test_vmap_over_signals_equals_loop():
    rng = np.random.default_rng(2)
    batch, shifts = rng.normal(size=(3, 6, 4)), rng.normal(size=(3, 2))

    def resample(f, s):
        return fft_interp1d(f, 9, sx=s)

    mapped = np.asarray(jax.vmap(resample)(batch, shifts))
    looped = jax.jit(lambda b, s: [resample(b[i], s[i]) for i in range(3)])(batch, shifts)
    for i in range(3):
        np.testing.assert_allclose(mapped[i], looped[i], rtol=1e-13, atol=1e-15)


def test_jit_compiles_once_per_shape():
    rng = np.random.default_rng(4)
    with compiles(_fft_interp1d) as counter:
        for dx in (1.0, 2, np.float32(0.5), np.float64(1.5), jnp.array(0.7)):
            fft_interp1d(rng.normal(size=(13, 2)), 17, sx=rng.normal(size=3), dx=dx)
        assert counter.count == 1
        fft_interp1d(rng.normal(size=(13, 2)), 18, sx=rng.normal(size=3))  # new n
        assert counter.count == 2


def test_cuda_program_has_no_loops_conditionals_or_callbacks():
    f = jax.ShapeDtypeStruct((6, 3), jnp.float32)
    g = jax.ShapeDtypeStruct((6, 5, 3), jnp.complex64)
    s = jax.ShapeDtypeStruct((4,), jnp.float32)
    programs = [
        lowered_text(lambda f, s: fft_interp1d(f, 9, sx=s), f, s, platform="cuda"),
        lowered_text(lambda g, s: fft_interp2d(g, 4, 8, sx=s, sy=s), g, s, platform="cuda"),
        lowered_text(
            jax.grad(lambda f, s: jnp.sum(fft_interp1d(f, 4, sx=s) ** 2), argnums=(0, 1)),
            f,
            s,
            platform="cuda",
        ),  # fmt: skip
    ]
    for text in programs:
        for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
            assert forbidden not in text


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    "n, error, message",
    [(0, ValueError, r"`n` must be ≥ 1; got 0"), (-1, ValueError, r"`n` must be ≥ 1; got -1"),
     (2.5, TypeError, r"`n` must be a Python int.*2\.5"), (True, TypeError, r"`n`.*True")],
    ids=["0", "-1", "2.5", "True"],
)  # fmt: skip
def test_bad_lengths_raise(n, error, message):
    with pytest.raises(error, match=message):
        fft_interp1d(np.ones(4), n)
    with pytest.raises(error, match=message.replace("`n`", "`n2`")):
        fft_interp2d(np.ones((4, 4)), 3, n)


def test_one_shift_without_the_other_raises():
    with pytest.raises(ValueError, match=r"`sx` was given without `sy`"):
        fft_interp2d(np.ones((4, 4)), 3, 3, sx=[0.5])
    with pytest.raises(ValueError, match=r"`sy` was given without `sx`"):
        fft_interp2d(np.ones((4, 4)), 3, 3, sy=0.5)


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match=r"`f` must have at least 1 dimension.*\(\)"):
        fft_interp1d(np.float64(3.0), 4)
    with pytest.raises(ValueError, match=r"`f` must have at least 2 dimension.*\(4,\)"):
        fft_interp2d(np.ones(4), 4, 4)
    with pytest.raises(ValueError, match=r"`f` needs at least one sample.*\(0, 3\)"):
        fft_interp1d(np.ones((0, 3)), 4)
    with pytest.raises(ValueError, match=r"`sx` must be a scalar or 1-D"):
        fft_interp1d(np.ones(4), 4, sx=np.ones((2, 2)))
    with pytest.raises(ValueError, match=r"`sx` and `sy`.*3 and 2"):
        fft_interp2d(np.ones((4, 4)), 3, 3, sx=np.ones(3), sy=np.ones(2))
    with pytest.raises(ValueError, match=r"`dx` must be a scalar"):
        fft_interp1d(np.ones(4), 4, sx=0.5, dx=np.ones(2))
    with pytest.raises(TypeError, match=r"`sx` must be real"):
        fft_interp1d(np.ones(4), 4, sx=0.5j)


@pytest.mark.parametrize("spacing", [0.0, -1.0, np.inf, np.nan], ids=str)
def test_bad_concrete_spacings_raise(spacing):
    with pytest.raises(ValueError, match=r"`dx` \(the sample spacing\) must be positive"):
        fft_interp1d(np.ones(4), 4, sx=0.5, dx=spacing)
    with pytest.raises(ValueError, match=r"`dy` \(the sample spacing\) must be positive"):
        fft_interp2d(np.ones((4, 4)), 4, 4, dy=spacing)


def test_fft_traced_spacing_under_vmap():
    """A bad traced spacing (0, ±inf, negative, NaN) makes only its own slice NaN."""
    f = np.sin(2 * np.pi * np.arange(8) / 8)
    spacings = np.array([2.0, 0.5, 0.0, np.inf, -1.0, np.nan])
    out = np.asarray(jax.jit(jax.vmap(lambda dx: fft_interp1d(f, 8, sx=0.6, dx=dx)))(spacings))
    bad = np.isnan(out).all(axis=(1, 2))
    np.testing.assert_array_equal(bad, [False, False, True, True, True, True])
    np.testing.assert_allclose(out[0, :, 0], np.sin(2 * np.pi * (np.arange(8) + 0.3) / 8),
                               atol=1e-14)  # fmt: skip
