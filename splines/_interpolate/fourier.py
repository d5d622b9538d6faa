"""Fourier resampling of periodic samples: new lengths and shifts via the FFT.

``f_j = f(x_0 + j Δx)``, j = 0 … N−1, sample one period ``T = N Δx`` (no
endpoint).  With the DFT and its coefficients

    F_k = Σ_j f_j e^{−2πi jk/N},        c_k = F_k / N      (c_{−k} ≡ c_{N−k}),

the samples are interpolated by the trigonometric polynomial of lowest degree

    p(x) = Σ_{k=−K}^{K} w_k c_k e^{2πi k (x − x_0)/T},     K = ⌊N/2⌋,

with ``w_k = 1``, except that for even N the Nyquist coefficient c_{N/2} is
split in half between k = +N/2 and k = −N/2 (``w_{±N/2} = ½``).  The split
keeps p real for real samples and reproduces ``a cos(π (x − x_0)/Δx)``
exactly; a sine at that frequency vanishes at every sample, so no method
can recover it, and the split adds none.

Output j = 0 … M−1 is ``y_j = p(x_0 + j T/M + s)``:

- shift: ``c_k → c_k e^{2πi k s/T}`` (s in the units of Δx; only ``s/Δx``
  mod N matters, and it is reduced to |s/Δx| ≤ N/2 first; then, with
  t = w + φ split into whole samples w and a fraction |φ| ≤ ½, the angle is
  2π ((k w mod N) + k φ)/N, the first term in exact integer arithmetic, so
  its rounding does not grow with the shift);
- new length: the M points resolve the frequencies |k| ≤ L = ⌊M/2⌋.  Terms
  with |k| > L are dropped (an ideal low-pass filter: on the M points they
  would alias onto lower bins).  For even M the pair k = ±M/2 meets in one
  bin, ``e^{iπj} = e^{−iπj}``, so its two coefficients are added.  Zeros
  fill the bins between;
- synthesis: ``y_j = Σ_k ĉ_k e^{2πi kj/M}`` — an inverse DFT without its 1/M.

So up-sampling from even N splits the input's Nyquist term and down-sampling
to even M merges the pair at ±M/2: the rules of `scipy.signal.resample`.  The
result is exact (to rounding) for every trigonometric polynomial with
|k| ≤ N/2 and |k| ≤ M/2 whose two terms at ±N/2 of an even N have equal
coefficients (the samples see only their sum).  The pair at ±M/2 of an even
M may be anything: shifts are applied before the merge, and the M points see
only the sum too.

Real samples use the one-sided spectrum (``rfft``/``irfft``, half the work):
``c_{−k} = conj(c_k)``, and the merged bin ±M/2 is ``2 Re ĉ_{M/2}``.  Real
input therefore gives real output by construction.

In 2-D the interpolant is the tensor product of the 1-D ones, so the
resampling is done one axis at a time (axis 1, then axis 0), the shift pair
``(sx_t, sy_t)`` sharing the trailing output axis t.

Everything that selects code (lengths, real or complex, shift given or not)
is static: the program holds no loops, conditionals or callbacks.

Bad input (docs/architecture.md §5): lengths and shapes raise `ValueError`/`TypeError`.
A spacing ``dx``/``dy`` must be positive and finite: concrete, it raises
`ValueError`; traced, a bad one makes the shifted output NaN (unshifted
output does not use it).  NaN or ±inf samples spread to every output point
(each output depends on every sample); a non-finite shift gives NaN.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Inexact, Num, Real

from .._utils.dtypes import (
    as_dtype,
    check_real,
    compute_dtype,
    lists_to_arrays,
    result_type,
)
from .._utils.types import ArrayInput
from .._utils.validate import is_concrete, static_int


def fft_interp1d(
    f: Num[ArrayInput, "nx ..."],
    n: int,
    sx: Real[ArrayInput, " s"] | None = None,
    dx: Real[ArrayLike, ""] = 1.0,
) -> Inexact[Array, "n ... s"]:
    """Resample periodic samples ``f`` to ``n`` points over the same period.

    Evaluates the trigonometric interpolant of the samples (see Notes) at
    ``n`` evenly spaced points of the period, optionally shifted, by FFTs:
    interpax's function.  Jittable, vmappable and differentiable w.r.t.
    ``f``, ``sx`` and ``dx``.

    Parameters
    ----------
    f : array_like, shape (nx, ...)
        Samples of one period along axis 0, ``f_j = f(x_0 + j dx)``, without
        the endpoint; real, complex, integer or bool.  Every other axis is a
        column.
    n : int
        Number of output points, a static Python int ``>= 1``.
    sx : scalar or array_like of shape (s,), optional
        Real shift(s): evaluate at ``x + sx``.  The output then gets a
        trailing axis of length s (1 for a scalar, as interpax's).
    dx : scalar, default 1.0
        Sample spacing of ``f``, in the units of ``sx``; positive and finite.

    Returns
    -------
    y : jax.Array, shape (n, ...) or (n, ..., s)
        ``y_j = p(x_0 + j · nx dx / n + sx)``.  Real input gives real output of
        its dtype (integers and bools give the default float), complex gives
        complex.

    Raises
    ------
    ValueError
        ``n < 1``, ``f`` without samples, ``sx`` of more than one dimension,
        a concrete ``dx`` that is not positive and finite.  Traced, a bad
        ``dx`` makes the shifted output NaN.  NaN or infinite samples spread
        to every output point; a non-finite shift gives NaN.
    TypeError
        ``n`` not a Python int.
    NotRealError
        ``sx`` or ``dx`` not real.

    See Also
    --------
    fft_interp2d : The same along two axes.
    interp1d : Piecewise interpolation, ``period=`` for periodic data.

    Notes
    -----
    With the DFT coefficients ``c_k = (1/N) Σ_j f_j e^{−2πi jk/N}`` of the
    ``N = nx`` samples, the interpolant is the trigonometric polynomial of
    lowest degree
    ::

        p(x) = Σ_{k=−K}^{K} w_k c_k e^{2πi k (x − x_0)/T},   K = ⌊N/2⌋,  T = N dx,

    with ``w_k = 1`` except for even N, where the Nyquist term is split in
    half between ``k = ±N/2``, which keeps ``p`` real for real samples.  A
    shift multiplies ``c_k`` by ``e^{2πi k sx/T}``.  The ``n`` output points
    resolve ``|k| <= ⌊n/2⌋``: higher terms are dropped (an ideal low-pass
    filter), and for even ``n`` the pair at ``±n/2`` is merged into one bin.
    These are the rules of `scipy.signal.resample`, which agrees without
    shifts.  The result is exact, to rounding, for trigonometric polynomials
    that both sample sets resolve.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> f = 2 + jnp.cos(2 * jnp.pi * jnp.arange(4) / 4)
    >>> print(np.round(np.asarray(splines.fft_interp1d(f, 8)), 6))
    [3.       2.707107 2.       1.292893 1.       1.292893 2.       2.707107]
    >>> shifted = splines.fft_interp1d(f, 4, sx=0.5, dx=0.25)
    >>> print(shifted.shape, np.round(np.asarray(shifted[:, 0]), 6))
    (4, 1) [1. 2. 3. 2.]
    """
    f, sx, dx = lists_to_arrays(f, sx, dx)
    n = check_length(n, "n")
    f, out_dtype = _prepare_samples(f, min_ndim=1)
    real = jnp.finfo(f.dtype).dtype
    sx, dx = _prepare_shift(sx, "sx", real), _prepare_spacing(dx, "dx", real)
    return _fft_interp1d(f, sx, dx, n, out_dtype)


def fft_interp2d(
    f: Num[ArrayInput, "nx ny ..."],
    n1: int,
    n2: int,
    sx: Real[ArrayInput, " s"] | None = None,
    sy: Real[ArrayInput, " s"] | None = None,
    dx: Real[ArrayLike, ""] = 1.0,
    dy: Real[ArrayLike, ""] = 1.0,
) -> Inexact[Array, "n1 n2 ... s"]:
    """Resample periodic samples ``f`` to ``n1 × n2`` points over the same periods.

    The tensor product of `fft_interp1d`'s trigonometric interpolant, applied
    one axis at a time (y, then x); interpax's function.  Jittable,
    vmappable and differentiable w.r.t. ``f``, the shifts and the spacings.

    Parameters
    ----------
    f : array_like, shape (nx, ny, ...)
        Samples of one period in x (axis 0) and y (axis 1), without the
        endpoints; every further axis is a column.
    n1, n2 : int
        Numbers of output points along x and y, static Python ints ``>= 1``.
    sx, sy : scalar or array_like of shape (s,), optional
        Real shifts, both or neither: evaluate at ``(x + sx_t, y + sy_t)`` for
        each pair t.  Of one length, or one of length 1, which broadcasts; the
        output then gets a trailing axis of length s.
    dx, dy : scalar, default 1.0
        Sample spacings of ``f`` along x and y, positive and finite.

    Returns
    -------
    y : jax.Array, shape (n1, n2, ...) or (n1, n2, ..., s)
        The resampled values; dtypes as `fft_interp1d`'s.

    Raises
    ------
    ValueError
        One shift without the other, shifts of different lengths (neither 1),
        and `fft_interp1d`'s errors per axis.
    TypeError
        ``n1`` or ``n2`` not a Python int.
    NotRealError
        A shift or spacing not real.

    See Also
    --------
    fft_interp1d : One axis, and the interpolant's definition.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> j = jnp.arange(4)
    >>> f = 2 + jnp.cos(2 * jnp.pi * j / 4)[:, None] * jnp.ones(2)
    >>> out = splines.fft_interp2d(f, 8, 3)
    >>> print(out.shape, np.round(np.asarray(out[:3, 0]), 6))
    (8, 3) [3.       2.707107 2.      ]
    """
    f, sx, sy, dx, dy = lists_to_arrays(f, sx, sy, dx, dy)
    n1, n2 = check_length(n1, "n1"), check_length(n2, "n2")
    if (sx is None) != (sy is None):
        given, missing = ("sx", "sy") if sy is None else ("sy", "sx")
        raise ValueError(f"`{given}` was given without `{missing}`: pass both shifts or neither.")
    f, out_dtype = _prepare_samples(f, min_ndim=2)
    real = jnp.finfo(f.dtype).dtype
    sx, sy = _prepare_shift(sx, "sx", real), _prepare_shift(sy, "sy", real)
    if sx is not None:
        _check_pairs(sx, sy)
    dx, dy = _prepare_spacing(dx, "dx", real), _prepare_spacing(dy, "dy", real)
    return _fft_interp2d(f, sx, sy, dx, dy, n1, n2, out_dtype)


# --------------------------------------------------------------------------- programs


@partial(jax.jit, static_argnums=(3, 4))
def _fft_interp1d(f, sx, dx, n: int, out_dtype):
    shift = _in_samples(sx, dx)
    return resample(f, n, shift, paired=False).astype(out_dtype)


@partial(jax.jit, static_argnums=(5, 6, 7))
def _fft_interp2d(f, sx, sy, dx, dy, n1: int, n2: int, out_dtype):
    if sx is not None:
        sx, sy = jnp.broadcast_arrays(sx, sy)  # one pair per output slice
    shift_x, shift_y = _in_samples(sx, dx), _in_samples(sy, dy)
    along_y = jnp.moveaxis(resample(jnp.moveaxis(f, 1, 0), n2, shift_y, paired=False), 0, 1)
    out = resample(along_y, n1, shift_x, paired=shift_y is not None)
    return out.astype(out_dtype)


def _in_samples(shift, spacing):
    """The shift in samples; NaN for a spacing that is not positive and finite (traced)."""
    if shift is None:
        return None
    valid = (spacing > 0) & (spacing < jnp.inf)
    return jnp.where(valid, shift / spacing, jnp.nan)


def resample(f, m: int, shift, paired: bool):
    """Axis 0 of ``f`` (one period of N samples) at m points, shifted by ``shift`` samples.

    ``shift`` is None or shape ``(s,)``; the output gains a trailing axis s,
    unless ``paired``: then ``f`` already ends with that axis and each shift
    applies to its own slice.
    """
    n = f.shape[0]
    if m == n and shift is None:  # the same points: nothing to do, exactly
        return f
    positive, negative = _spectrum(f)
    if shift is not None:
        positive, negative = _shifted(positive, negative, shift, n, paired)
    positive, negative = _representable(positive, negative, m)
    return _synthesis(positive, negative, m)


# --------------------------------------------------------------------------- steps


def _spectrum(f):
    """``(c_0 … c_K, c_{−K} … c_{−1})`` with w_k applied; no second half for real f.

    For even N the Nyquist coefficient is halved and appears at both ends.
    """
    n, k = f.shape[0], f.shape[0] // 2
    if not jnp.iscomplexobj(f):  # c_{−k} = conj(c_k): keep k ≥ 0 only
        positive = jnp.fft.rfft(f, axis=0) / n
        return (_halve_last(positive) if n % 2 == 0 else positive), None
    c = jnp.fft.fft(f, axis=0) / n
    if n % 2 == 1:
        return c[: k + 1], c[k + 1 :]
    half_nyquist = c[k : k + 1] / 2
    return jnp.concatenate([c[:k], half_nyquist]), jnp.concatenate([half_nyquist, c[k + 1 :]])


def _halve_last(c):
    return jnp.concatenate([c[:-1], c[-1:] / 2])


def _shifted(positive, negative, shift, n: int, paired: bool):
    """Both halves times ``e^{2πi k t/N}``, t the shift in samples, on a trailing shift axis."""
    if not paired:
        positive, negative = (None if h is None else h[..., None] for h in (positive, negative))
    # Periodic in N samples: reduce to |t| ≤ N/2 (exactly: t = shift for
    # |shift| < N/2), so the angle stays below πK whatever the shift.
    t = shift - n * jnp.round(shift / n)
    whole = jnp.round(t)
    k = jnp.arange(positive.shape[0])
    angle = (2 * np.pi / n) * (_turns(k, whole, n).astype(t.dtype) + k[:, None] * (t - whole))
    phases = jax.lax.complex(jnp.cos(angle), jnp.sin(angle))  # k = 0 … K
    # Shape (K+1, 1, …, 1, s) to meet the columns of the spectrum.
    phases = jnp.reshape(phases, phases.shape[:1] + (1,) * (positive.ndim - 2) + t.shape)
    if negative is None:
        return positive * phases, None
    # k = −K … −1: the conjugates of k = K … 1 (one cos/sin per frequency pair).
    return positive * phases, negative * jnp.conj(phases[:0:-1])


def _turns(k, whole, n: int):
    """``k·w mod N`` for integers k ≤ N/2 and |w| ≤ N/2: exact in int32 while N²/4 < 2³¹.

    (Beyond, N > 92 681, the float product is used and rounds with the shift.)
    """
    if n * n // 4 < 2**31:
        return jnp.mod(k[:, None] * whole.astype(jnp.int32), n)
    return k[:, None] * whole


def _representable(positive, negative, m: int):
    """Keep |k| ≤ ⌊m/2⌋; for even m merge the pair at ±m/2 into the bin +m/2."""
    half = m // 2
    positive = positive[: half + 1]
    kept = positive.shape[0] - 1  # the highest frequency kept
    if negative is not None:
        negative = negative[negative.shape[0] - kept :]
    if m % 2 == 1 or kept < half:  # no frequency at ±m/2 to merge
        return positive, negative
    if negative is None:  # real: c_{−m/2} = conj(c_{m/2})
        merged = (2 * positive[-1:].real).astype(positive.dtype)
    else:
        merged, negative = positive[-1:] + negative[:1], negative[1:]
    return jnp.concatenate([positive[:-1], merged]), negative


def _synthesis(positive, negative, m: int):
    """``y_j = Σ_k ĉ_k e^{2πi kj/m}``: zeros between the halves, inverse DFT without 1/m."""
    if negative is None:
        gap = m // 2 + 1 - positive.shape[0]
        bins = jnp.concatenate([positive, _zeros(gap, positive)])
        return jnp.fft.irfft(bins, n=m, axis=0, norm="forward")
    gap = m - positive.shape[0] - negative.shape[0]
    bins = jnp.concatenate([positive, _zeros(gap, positive), negative])
    return jnp.fft.ifft(bins, axis=0, norm="forward")


def _zeros(rows: int, like):
    return jnp.zeros((rows,) + like.shape[1:], like.dtype)


# --------------------------------------------------------------------------- checks


def check_length(value, name: str) -> int:
    """A static number of points: a Python (or numpy) int ≥ 1."""
    return static_int(value, name, 1, "a Python int (a static number of points)")


def _prepare_samples(f, min_ndim: int):
    """``f`` in its computation dtype, and the output dtype.

    Integers and bools become the default float.  The FFT has no half
    precision: f16/bf16 compute in float32 and round back at the end.
    """
    if not hasattr(f, "ndim"):
        f = np.asarray(f)
    if f.ndim < min_ndim:
        raise ValueError(
            f"`f` must have at least {min_ndim} dimension(s) (samples along "
            f"{'axis 0' if min_ndim == 1 else 'axes 0 and 1'}); got shape {f.shape}."
        )
    if 0 in f.shape[:min_ndim]:
        raise ValueError(
            f"`f` needs at least one sample along each resampled axis; got shape {f.shape}."
        )
    out_dtype = result_type(f)
    return as_dtype(f, compute_dtype(out_dtype)), np.dtype(out_dtype)


def _prepare_shift(shift, name: str, real_dtype):
    """None, or the shift(s) as a 1-D array of the samples' real dtype."""
    if shift is None:
        return None
    check_real(shift, name)
    if np.ndim(shift) > 1:
        raise ValueError(f"`{name}` must be a scalar or 1-D; got shape {np.shape(shift)}.")
    return as_dtype(shift, real_dtype).reshape(-1)


def _prepare_spacing(spacing, name: str, real_dtype):
    """A scalar of the samples' real dtype; concrete, it must be positive and finite."""
    check_real(spacing, name)
    if np.ndim(spacing) != 0:
        raise ValueError(f"`{name}` must be a scalar; got shape {np.shape(spacing)}.")
    if is_concrete(spacing) and not 0 < float(spacing) < np.inf:
        raise ValueError(
            f"`{name}` (the sample spacing) must be positive and finite; got {spacing}."
        )
    return as_dtype(spacing, real_dtype)


def _check_pairs(sx, sy):
    """``sx`` and ``sy`` pair up: one length, or one of them of length 1 (it broadcasts)."""
    if sx.shape != sy.shape and 1 not in (sx.shape[0], sy.shape[0]):
        raise ValueError(
            f"`sx` and `sy` are applied pairwise and must have one length; got "
            f"{sx.shape[0]} and {sy.shape[0]}."
        )
