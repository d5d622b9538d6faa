"""Dtypes: one promotion rule for every entry point, applied before the jit boundary.

A fit computes in the *data dtype* ``result_type(float, xp, fp)`` (complex when
``fp`` is); knots, the period and queries use its real counterpart.  Every
number that reaches a jitted function is converted to its dtype first, so a
boundary value passed as a Python float, an int, ``np.float32`` or a jax array
selects the same compiled program: only static options choose programs.
"""

import functools
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np


def promote_inexact(*arrays):
    """Convert to one common floating dtype; integers and bools become floats.

    ``float`` takes part as a weak type, so f32 inputs stay f32 and integer
    inputs become JAX's default float (f64 when x64 is enabled).
    """
    dtype = jnp.result_type(float, *arrays)
    return tuple(jnp.asarray(a, dtype) for a in arrays)


def data_dtypes(xp, *values):
    """``(real, value)`` dtypes of a fit: knots and period use ``real``, values ``value``.

    ``values``: ``fp`` and, when given, the slopes ``fx``.

    Half precision (f16, bf16) computes in float32: the fit's intermediates
    would overflow where the answer does not.
    """
    return _fit_dtypes(result_type(xp, *values))


@functools.lru_cache(maxsize=64)
def _fit_dtypes(value):
    value = compute_dtype(value)
    return jnp.finfo(value).dtype, value


def compute_dtype(dtype):
    """The dtype to compute in: ``dtype``, or float32 (complex64) for half precision
    (f16, bf16), whose intermediates overflow where the answer does not, and which
    cuSPARSE and the FFT lack."""
    if jnp.finfo(dtype).bits < 32:
        return jnp.promote_types(dtype, np.float32)
    return jnp.dtype(dtype)


def query_dtype(x, real):
    """Real dtype of the queries: theirs promoted with the knots' (weakly for scalars)."""
    return result_type(x, real)


def result_type(*values):
    """``jnp.result_type(float, *values)``, cached on the values' types.

    JAX's promotion costs ~20 µs a call in Python; an eager `interp1d` needs
    several, so the answer is kept per (types, x64 setting).  Tracers and
    weakly typed jax arrays take the uncached path.
    """
    keys = tuple(_type_key(v) for v in values)
    if None in keys:
        return jnp.result_type(float, *values)
    return _cached_result_type(jax.dtypes.canonicalize_dtype(np.float64), keys)


@functools.lru_cache(maxsize=512)
def _cached_result_type(default_float, keys):
    return jnp.result_type(float, *keys)


def _type_key(value):
    if isinstance(value, (bool, int, float, complex)):
        return type(value)  # a weak type, as JAX treats Python scalars
    if isinstance(value, (np.dtype, np.ndarray, np.generic)):
        # As JAX will hold it (int64 → int32 with x64 off): a 64-bit dtype itself
        # would make `jnp.result_type` warn that it "will be truncated".
        return jax.dtypes.canonicalize_dtype(getattr(value, "dtype", value))
    if isinstance(value, jax.Array) and not isinstance(value, jax.core.Tracer):
        return None if value.weak_type else value.dtype
    return None


def dtype_kind(value) -> str:
    """numpy's dtype kind of a value ('f', 'c', 'i', 'b', 'U', 'O', …); bfloat16 is 'f'."""
    if isinstance(value, (float, int, complex)):
        return "b" if isinstance(value, bool) else np.dtype(type(value)).kind
    dtype = getattr(value, "dtype", None)
    dtype = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
    return "f" if dtype.kind == "V" and jnp.issubdtype(dtype, jnp.floating) else dtype.kind


def as_dtype(value, dtype):
    """``value`` as an array of ``dtype``, without a device round trip.

    jax arrays (and tracers) are cast where their dtype differs or is weak
    (``jnp.array(0.5)`` is a weakly typed f32/f64: another program); anything
    else becomes a numpy array, which jit treats like a jax array of the same
    dtype and shape (no new program).
    """
    if isinstance(value, jax.Array):
        return value if is_of_dtype(value, dtype) else jnp.asarray(value, dtype)
    return np.asarray(value, dtype)


def is_of_dtype(value, dtype) -> bool:
    """``value`` is a jax array (or tracer) of ``dtype``, strongly typed: `as_dtype` keeps it."""
    if not isinstance(value, jax.Array):
        return False
    weak = value.aval.weak_type if isinstance(value, jax.core.Tracer) else value.weak_type
    return value.dtype == dtype and not weak


@functools.lru_cache(maxsize=256)
def constant(value: float, dtype) -> jax.Array:
    """A Python float as a 0-d jax array of ``dtype``, made once (arrays are immutable).

    An eager call passes it to its jitted function as it is; a numpy scalar
    would be copied to the device on every call (~10 µs of a ~150 µs call).
    Made outside any trace, so the cache never holds a tracer.
    """
    with jax.ensure_compile_time_eval():
        return jnp.asarray(value, dtype)


def power_of_two(k, dtype):
    """``2^k`` in the real ``dtype`` for integers k of its normal range, exactly: the
    biased exponent's bits and a zero mantissa (`jnp.ldexp` and `exp2` are a power
    or an exponential, slower, and ``exp2`` rounds)."""
    info = jnp.finfo(dtype)
    int_type = jnp.int32 if info.bits == 32 else jnp.int64
    bits = (jnp.asarray(k).astype(int_type) + (info.maxexp - 1)) << info.nmant
    return jax.lax.bitcast_convert_type(bits, info.dtype)


def unit_of(magnitude):
    """A power of two 2^k with ``magnitude / 2^k`` in [1/2, 1) (k clipped to the normal
    range; exact, and without a derivative: the answer does not depend on it)."""
    info = jnp.finfo(magnitude.dtype)
    _, e = jnp.frexp(jax.lax.stop_gradient(magnitude))
    return power_of_two(jnp.clip(e, info.minexp + 1, info.maxexp - 1), magnitude.dtype)


def span_units(breaks):
    """``(1/P, P)``, P = 2^k the power of two just above the span of ``breaks`` (the
    exponent of ``x_{n-1}/2 − x_0/2``, which does not overflow, plus 1; k clipped so
    that both are normal): the unit in which an axis' widths are at most 1, exact, and
    without a derivative (no answer depends on it)."""
    info = jnp.finfo(breaks.dtype)
    _, e = jnp.frexp(jax.lax.stop_gradient(breaks[-1] / 2 - breaks[0] / 2))
    k = jnp.clip(e + 1, info.minexp, -info.minexp)  # |k| ≤ 125 (f32), 1021 (f64)
    return power_of_two(-k, breaks.dtype), power_of_two(k, breaks.dtype)


class NotRealError(TypeError, ValueError):
    """A value that is not a real number or array where one is needed.

    Raised eagerly, when a call is prepared, for complex values, strings or
    ragged object arrays given as knots, queries, periods, tensions, bounds
    and the like, and for a complex fill or end value with real data (which
    a cast would silently drop the imaginary part of).  Both a `TypeError`
    (it is the value's type) and a `ValueError` (scipy's, so ported
    ``except ValueError`` still catches it).

    See Also
    --------
    X64DisabledWarning : The other exception class of the package.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import splines
    >>> xp = jnp.linspace(0.0, 1.0, 3)
    >>> try:
    ...     splines.interp1d(0.5j, xp, xp)
    ... except splines.NotRealError as error:
    ...     print(isinstance(error, TypeError), isinstance(error, ValueError))
    True True
    """


def value_as_dtype(value, dtype, name: str):
    """`as_dtype` for a user value; a complex value for real data raises
    `NotRealError` (casting would silently drop its imaginary part)."""
    if _is_complex(value) and not jnp.issubdtype(dtype, jnp.complexfloating):
        raise NotRealError(
            f"`{name}` holds the complex value {value!r} but the data (`xp`, `fp`) are "
            f"real ({np.dtype(dtype).name}); pass a complex `fp` for complex values."
        )
    return as_dtype(value, dtype)


def _is_complex(value) -> bool:
    return dtype_kind(value) == "c"


def check_real(value, name: str) -> None:
    """Raise `NotRealError` naming ``name`` unless ``value`` is real and numeric.

    Bools are numbers, 0 and 1, as in numpy (``np.interp`` takes bool queries,
    and values ``fp`` may be bool too): one rule for every argument.
    """
    kind = dtype_kind(value)
    if kind == "c":
        raise NotRealError(f"`{name}` must be real; got the complex {value!r}.")
    if kind not in "biuf":  # strings, objects
        raise NotRealError(f"`{name}` must be a real number or array; got {value!r}.")


def lists_to_arrays(*values):
    """Python sequences become numpy arrays (jit would take a list as many scalars)."""
    return tuple(np.asarray(v) if isinstance(v, (list, tuple)) else v for v in values)


class X64DisabledWarning(UserWarning):
    """float64 data computed in float32: ``jax_enable_x64`` is off.

    Warned once per process when float64 or complex128 numpy data reach a
    scipy-style class (`PPoly`, `CubicSpline`, `CubicHermiteSpline`,
    `PchipInterpolator`, `Akima1DInterpolator`), `interpn` or
    `RegularGridInterpolator` while JAX computes in float32: code ported from
    scipy then silently loses half its digits.  Enable float64 with
    ``jax.config.update("jax_enable_x64", True)`` before using JAX, or
    filter this warning.  A `UserWarning`.

    See Also
    --------
    NotRealError : The other exception class of the package.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> import splines
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", splines.X64DisabledWarning)
    ...     spline = splines.CubicSpline(np.arange(4.0), np.arange(4.0) ** 2)
    >>> issubclass(splines.X64DisabledWarning, UserWarning)
    True
    """


_X64_WARNED = []  # not empty once warned: once per process


def warn_if_x64_disabled(*values) -> None:
    """Warn (once) when a value is a float64 or complex128 numpy array or scalar while
    x64 is off: code ported from scipy then silently loses half its digits."""
    if _X64_WARNED or jax.config.jax_enable_x64:
        return
    if any(isinstance(v, (np.ndarray, np.generic)) and v.dtype in _DOUBLE for v in values):
        _X64_WARNED.append(True)
        warnings.warn(
            "float64 data computed in float32: `jax_enable_x64` is off, so this spline "
            "holds float32 numbers where scipy's would hold float64 (relative errors "
            "of ~1e-7, more for queries that round onto a knot or lie far outside). "
            "To compute in float64, run `jax.config.update('jax_enable_x64', True)` "
            "before using JAX. (Shown once; filter `splines.X64DisabledWarning` to "
            "silence it.)",
            X64DisabledWarning,
            stacklevel=_callers_level(),
        )


def _callers_level() -> int:
    """`warnings.warn`'s ``stacklevel`` of the first frame outside splines, equinox
    (whose modules' ``__init__`` runs inside its metaclass) and jax."""
    frame, level = sys._getframe(2), 2  # (the caller of `warn_if_x64_disabled`)
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in _OURS:
        frame, level = frame.f_back, level + 1
    return level


_OURS = {"splines", "equinox", "jax"}


_DOUBLE = (np.dtype(np.float64), np.dtype(np.complex128))
