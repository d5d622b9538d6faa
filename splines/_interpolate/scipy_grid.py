"""scipy's conventions for regular grids (`interpn`, `RegularGridInterpolator`), in ours.

- methods: scipy's names map to ours; ``"cubic"`` is scipy's meaning (the
  not-a-knot spline, our ``"cubic2"``), not our C¹ ``"cubic"``;
- ``bounds_error``/``fill_value`` become an ``extrap`` option, and a concrete
  point outside raises as scipy does;
- descending concrete points are reversed, with the values along their axis;
- ``xi`` of shape ``(..., d)``, or a tuple of d arrays, or (scipy's reading
  of a flat array) ``(m · d,)`` for m points.
"""

import jax
import jax.numpy as jnp
import numpy as np

from .._methods.registry import METHODS
from .._utils.dtypes import (
    check_real,
    dtype_kind,
    lists_to_arrays,
    query_dtype,
    warn_if_x64_disabled,
)
from .._utils.validate import is_concrete

_SCIPY_METHODS = {"slinear": "linear", "cubic": "cubic2", "cubic_legacy": "cubic2"}
_NOT_OURS = {
    "pchip": "scipy's applies the 1-D PCHIP along each axis in turn at the point; the "
    "tensor-product 'monotonic' (interpax's) differs from it in the mixed slopes",
    "quintic": "there is no quintic spline here",
    "quintic_legacy": "there is no quintic spline here",
}


def grid_method(method) -> str:
    """Our name for a method of `interpn`/`RegularGridInterpolator` (scipy's or ours)."""
    if isinstance(method, str) and method in _NOT_OURS:
        raise ValueError(
            f"`method`={method!r} is not available: {_NOT_OURS[method]}. Use one of "
            f"{sorted(set(_SCIPY_METHODS) | set(METHODS))}."
        )
    if isinstance(method, str) and method in _SCIPY_METHODS:
        return _SCIPY_METHODS[method]
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(
            f"`method`={method!r} is not one of {sorted(set(_SCIPY_METHODS) | set(METHODS))}."
        )
    return method


def scipy_fill(bounds_error, fill_value, periods):
    """The ``extrap`` option of scipy's ``bounds_error`` and ``fill_value``.

    Points outside raise eagerly when ``bounds_error`` (`check_bounds`); traced,
    they get NaN.  ``fill_value=None`` extends the end pieces.  When every axis
    has a period no point is outside, and the fill has nothing to do.
    """
    if not isinstance(bounds_error, (bool, np.bool_)):
        raise TypeError(f"`bounds_error` must be a bool; got {bounds_error!r}.")
    if fill_value is not None and not (
        np.ndim(fill_value) == 0 and dtype_kind(fill_value) in "biufc"
    ):
        raise ValueError(f"`fill_value` must be None or a number; got {fill_value!r}.")
    if bounds_error or all(p is not None for p in periods):
        return False
    if fill_value is None:
        return True
    return float(fill_value) if dtype_kind(fill_value) == "b" else fill_value


def check_fill_kind(fill_value, values) -> None:
    """A complex ``fill_value`` needs complex ``values``: a `ValueError`, as scipy's."""
    if fill_value is not None and dtype_kind(fill_value) == "c" and dtype_kind(values) != "c":
        raise ValueError(f"`fill_value`={fill_value!r} is complex but `values` are real.")


def points_and_values(points, values):
    """The grid as arrays, each axis ascending (concrete descending axes reversed)."""
    if isinstance(points, (np.ndarray, jax.Array)) and np.ndim(points) == 2:
        points = tuple(points)  # scipy iterates `points`: a 2-D array is one axis per row
    if not isinstance(points, (tuple, list)):
        raise TypeError(
            f"`points` must be a tuple of 1-D arrays, one per axis; got {type(points).__name__}."
        )
    points = list(lists_to_arrays(*points))
    (values,) = lists_to_arrays(values)
    warn_if_x64_disabled(*points, values)
    for axis, p in enumerate(points):
        if np.ndim(p) == 1 and np.shape(p)[0] > 1 and is_concrete(p) and np.ndim(values) > axis:
            line = np.asarray(p)
            if line[0] > line[-1]:
                _check_descending(line, f"points[{axis}]")
                points[axis] = p[::-1]
                values = (
                    jnp.flip(values, axis)
                    if isinstance(values, jnp.ndarray)
                    else (np.flip(values, axis))
                )
    return tuple(points), values


def widen_single_points(points: tuple, values, periods: tuple):
    """scipy takes an axis of one point (the data constant along it, in bounds only on
    it); a fit needs two: the point and one a unit past it, the values repeated (so
    every method is constant along it).  Returns points, values and the axes widened."""
    single = tuple(
        a
        for a, (p, period) in enumerate(zip(points, periods))
        if np.shape(p) == (1,) and period is None and np.ndim(values) > a
    )
    points = list(points)
    for a in single:
        points[a] = jnp.concatenate([points[a], points[a] + _unit(points[a])])
        values = jnp.concatenate([values, values], axis=a)
    return tuple(points), values, single


def onto_single_points(xi, points: tuple, single: tuple):
    """Points off a one-point axis (`widen_single_points`) moved below it, outside, where
    its fill or extension applies; NaN stays NaN."""
    for a in single:
        p, x = points[a][0], xi[..., a]
        inside = (x == p) | jnp.isnan(x)
        xi = jnp.asarray(xi).at[..., a].set(jnp.where(inside, x, p - _unit(points[a])[0]))
    return xi


def _unit(point):
    """A width that moves ``point`` (of shape (1,)) by more than its rounding."""
    return jnp.maximum(1, abs(point))


def _check_descending(line, name: str) -> None:
    """Raise for the first rise in concrete points that start above their end, naming the
    user's indices (the reversed copy is checked for the rest: no tiny gaps)."""
    bad = np.flatnonzero(~np.isfinite(line))
    if bad.size:
        raise ValueError(f"`{name}` must be finite; `{name}[{bad[0]}]` = {line[bad[0]]}.")
    rises = np.flatnonzero(~(np.diff(line) < 0))
    if rises.size:
        i = rises[0]
        raise ValueError(
            f"`{name}` must be strictly ascending or descending; it starts descending, but "
            f"`{name}[{i}]` = {line[i]} and `{name}[{i + 1}]` = {line[i + 1]}."
        )


def query_points(xi, d: int, real):
    """``xi`` as one array ``(..., d)`` of the queries' dtype."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        if len(xi) != d:
            raise ValueError(f"`xi` must hold {d} coordinate arrays, one per axis; got {len(xi)}.")
        parts = lists_to_arrays(*xi)
        for a, part in enumerate(parts):
            check_real(part, f"xi[{a}]")
        shape = np.broadcast_shapes(*(np.shape(p) for p in parts))
        xnp = np if all(isinstance(p, (np.ndarray, np.generic)) for p in parts) else jnp
        xi = xnp.stack([xnp.broadcast_to(p, shape) for p in parts], axis=-1)
    (xi,) = lists_to_arrays(xi)
    check_real(xi, "xi")
    if np.ndim(xi) == 0:
        raise ValueError(f"`xi` must have a last axis of length {d}; got a scalar.")
    if np.ndim(xi) == 1:
        xi = xi.reshape(-1, d) if np.shape(xi)[0] % d == 0 else xi
    if np.shape(xi)[-1] != d:
        raise ValueError(
            f"The requested sample points `xi` have dimension {np.shape(xi)[-1]}, but the grid "
            f"has dimension {d}."
        )
    dtype = query_dtype(xi, real)
    return xi.astype(dtype) if isinstance(xi, np.ndarray) else jnp.asarray(xi, dtype)


def check_bounds(xi, knots, periodic) -> None:
    """scipy's ``bounds_error``: a concrete point outside an axis without a period raises.

    NaN points are not outside: they give NaN.
    """
    if not is_concrete(xi, *knots):
        return
    xi = np.asarray(xi)
    for axis, (xp, wraps) in enumerate(zip(knots, periodic)):
        if wraps:
            continue
        lo, hi = np.asarray(xp)[[0, -1]]
        x = xi[..., axis]
        if np.any((x < lo) | (x > hi)):
            raise ValueError(f"One of the requested xi is out of bounds in dimension {axis}.")
