"""Argument checks of the scipy-compatible classes: scipy's rules, our messages.

Concrete breakpoints are checked in numpy and raise `ValueError` where scipy
does; traced ones cannot be looked at, so they are taken as ascending and
the conversion makes every output NaN unless they are (`ppoly`).
"""

import math

import jax.numpy as jnp
import numpy as np

from .._utils.dtypes import as_dtype, check_real
from .._utils.validate import is_concrete

EXTRAPOLATE_OPTIONS = "True, False, 'periodic' or None"


def parse_extrapolate(extrapolate, default):
    """``None`` → ``default``; ``"periodic"``; anything else as a Python bool (scipy's rule)."""
    if extrapolate is None:
        return default
    if isinstance(extrapolate, str):
        if extrapolate != "periodic":
            raise ValueError(f"`extrapolate` must be {EXTRAPOLATE_OPTIONS}; got {extrapolate!r}.")
        return extrapolate
    return bool(extrapolate)


def check_scalar(value, name: str):
    """A real scalar (an integration bound, the right-hand side of `solve`)."""
    check_real(value, name)
    if np.ndim(value) != 0:
        raise ValueError(f"`{name}` must be a scalar; got shape {np.shape(value)}.")
    return value


def check_breakpoints(x, c_shape: tuple) -> None:
    """Shapes of ``x`` and ``c`` (``(k+1, m, ...)``)."""
    if np.ndim(x) != 1:
        raise ValueError(f"`x` (breakpoints) must be one-dimensional; got shape {np.shape(x)}.")
    check_real(x, "x")
    n = np.shape(x)[0]
    if n < 2:
        raise ValueError(f"`x` needs at least 2 breakpoints; got {n}.")
    if c_shape[0] == 0:
        raise ValueError("`c` needs at least one coefficient per interval (degree 0); got none.")
    if c_shape[1] != n - 1:
        raise ValueError(
            f"`c` must have len(x) - 1 = {n - 1} intervals (its second axis); got shape {c_shape}."
        )


def descends_eagerly(x) -> bool:
    """Concrete breakpoints (in the dtype used) are monotone: whether they descend."""
    _check_monotone(x, "x")
    return bool(x[-1] < x[0])


def _check_monotone(x, name: str) -> None:
    with np.errstate(over="ignore"):
        steps = np.diff(x)
    if not np.isfinite(x).all():
        first = int(np.flatnonzero(~np.isfinite(x))[0])
        raise ValueError(f"`{name}` must be finite; `{name}[{first}]` = {x[first]}.")
    if not np.isfinite(steps).all():  # pieces are stored over their width (`_pieces.polynomials`)
        i = int(np.flatnonzero(~np.isfinite(steps))[0]) + 1
        raise ValueError(
            f"`{name}[{i}] - {name}[{i - 1}]` overflows {x.dtype} ({x[i]} - {x[i - 1]}); "
            "rescale the breakpoints."
        )
    if not ((steps >= 0).all() or (steps <= 0).all()):
        raise ValueError(f"`{name}` must be strictly increasing or decreasing; got {x}.")
    tiny = np.finfo(x.dtype).tiny
    small = np.flatnonzero((steps != 0) & (np.abs(steps) < tiny))
    if small.size:
        i = int(small[0]) + 1
        raise ValueError(
            f"`{name}[{i}] - {name}[{i - 1}]` = {steps[i - 1]} is below the smallest normal "
            f"{x.dtype} ({tiny}); rescale the breakpoints."
        )


def without_empty_intervals(x, c):
    """Drop zero-width intervals (repeated breakpoints, which scipy allows).

    No point is ever evaluated on them, except that scipy extrapolates an
    empty *end* interval with its own polynomial; we use the nearest
    non-empty one.
    """
    keep = np.diff(x) != 0
    if keep.all():
        return x, c
    if not keep.any():
        raise ValueError(f"`x` must span an interval of positive width; got {x}.")
    return np.concatenate([x[:1], x[1:][keep]]), c[:, keep]


def check_extension(ppoly, c, x):
    """scipy's `extend` rules for ``c`` (``(k+1, m_new, ...)``) and ``x`` (``(m_new,)``).

    Returns ``c`` as ``(k+1, m_new, columns)`` and ``x`` in the breaks' dtype;
    concrete: without the new intervals of zero width (as the constructor).
    """
    if np.ndim(c) < 2 or np.ndim(x) != 1:  # (numpy's: None is no array to jax)
        raise ValueError(
            "`extend` needs `c` of shape (k+1, m, ...) and one-dimensional `x`; got "
            f"shapes {np.shape(c)} and {np.shape(x)}."
        )
    if np.shape(x)[0] != np.shape(c)[1] or np.shape(c)[2:] != ppoly.column_shape:
        raise ValueError(
            f"`extend` needs `c` of shape (k+1, {np.shape(x)[0]}) + {ppoly.column_shape} for "
            f"`x` of shape {np.shape(x)}; got {np.shape(c)}."
        )
    check_real(x, "x")
    dtype = jnp.result_type(c, ppoly.coefficients)
    c = jnp.reshape(jnp.asarray(c, dtype), np.shape(c)[:2] + (math.prod(ppoly.column_shape),))
    x = as_dtype(x, ppoly.breaks.dtype)
    if is_concrete(x, ppoly.breaks) and x.shape[0]:
        x, c = _nonempty_extension(np.asarray(ppoly.x), np.asarray(x), c)
    return c, x


def _nonempty_extension(old, new, c):
    """Check the side and direction; drop the new intervals of zero width."""
    _check_monotone(new, "x")
    rising = old[-1] >= old[0]
    if new.size > 1 and new[-1] != new[0] and (new[-1] > new[0]) != rising:
        raise ValueError("`x` runs in the other direction than the breakpoints.")
    after = new[0] >= old[-1] if rising else new[0] <= old[-1]
    before = new[-1] <= old[0] if rising else new[-1] >= old[0]
    if not (after or before):
        raise ValueError(
            f"`x` = {new} must lie wholly after or before the breakpoints {old[0]} … {old[-1]}."
        )
    # scipy's new intervals: from its last breakpoint through x, or through x to its first
    ends = np.concatenate([old[-1:], new]) if after else np.concatenate([new, old[:1]])
    keep = np.diff(ends) != 0
    return new[keep], c[:, keep]  # interval i ends (after) or starts (before) at new[i]
