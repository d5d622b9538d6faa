"""Fitting: knots and values → piecewise polynomial (breaks, coefficients), purely.

`prepare_fit` does everything that can be done before tracing: it checks the
static options, runs the eager data checks when the inputs are concrete, and
returns a hashable `FitSpec` plus the array arguments.  `fit` is traceable and
free of host callbacks and data-dependent control flow.
"""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from ._boundary import PERIODIC, EndConditions, parse_bc_type
from ._dtypes import promote_inexact
from ._layout import column_values, normalize_axis, to_columns
from ._methods import get_method
from ._validate import (
    check_ends_match_eagerly,
    check_knots_eagerly,
    check_period_eagerly,
    ends_match,
    is_concrete,
    knots_are_valid,
)


class FitSpec(NamedTuple):
    """Static description of a fit: part of the jit cache key."""

    method: str
    bc_kinds: tuple
    axis: int
    column_shape: tuple  # fp's shape without the knot axis
    closes_period: bool  # the knots already repeat the first one plus the period

    @property
    def periodic(self) -> bool:
        """Queries wrap: a ``period`` was given or ``bc_type="periodic"``."""
        return self.bc_kinds[0] == PERIODIC


def prepare_fit(xp, fp, method, bc_type, period, axis):
    """Validate; return (spec, bc_values).  Raises ValueError/TypeError eagerly."""
    get_method(method)
    if jnp.ndim(xp) != 1:
        raise ValueError(f"`xp` must be one-dimensional; got shape {jnp.shape(xp)}.")
    if jnp.ndim(fp) == 0:
        raise ValueError("`fp` must have at least one dimension; got a scalar.")
    axis = normalize_axis(axis, jnp.ndim(fp))
    n = jnp.shape(xp)[0]
    if jnp.shape(fp)[axis] != n:
        raise ValueError(
            f"`fp` must have len(xp) = {n} entries along `axis`={axis}; got "
            f"`fp.shape`={jnp.shape(fp)}."
        )
    fewest = 1 if period is not None else 2  # a period closes a single knot
    if n < fewest:
        raise ValueError(f"`xp` needs at least {fewest} knots; got {n}.")
    if period is not None and jnp.ndim(period) != 0:
        raise ValueError(f"`period` must be a scalar; got shape {jnp.shape(period)}.")
    ends = parse_bc_type(bc_type, periodic=period is not None)
    column_shape = jnp.shape(fp)[:axis] + jnp.shape(fp)[axis + 1 :]
    for value in ends.values:
        if not _broadcasts_to(jnp.shape(value), column_shape):
            raise ValueError(
                f"boundary value of shape {jnp.shape(value)} in `bc_type` does not "
                f"broadcast to one value per column, shape {column_shape}."
            )
    closes_period = _check_data_eagerly(xp, fp, ends.kinds, period, axis)
    return FitSpec(method, ends.kinds, axis, column_shape, closes_period), ends.values


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _check_data_eagerly(xp, fp, kinds, period, axis) -> bool:
    """Raise on bad concrete data; say whether the knots close the period."""
    closes = False
    if is_concrete(xp):
        check_knots_eagerly(xp)
    if period is not None and is_concrete(xp, period):
        check_period_eagerly(xp, period)
        span, p = float(xp[-1] - xp[0]), float(period)
        closes = abs(span - p) <= 4 * np.finfo(jnp.result_type(float, xp)).eps * abs(p)
    if (kinds[0] == PERIODIC and (closes or period is None)) and is_concrete(fp):
        values, _ = to_columns(*promote_inexact(fp), axis)
        check_ends_match_eagerly(values, "a periodic spline")
    return closes


def fit(xp, fp, bc_values, period, spec: FitSpec):
    """Return ``(breaks, coefficients)`` of the interpolant as a piecewise polynomial.

    ``coefficients`` has shape ``(len(breaks) - 1, k, degree + 1)``, ascending
    powers (see `_hermite`).  With a ``period`` the knots are closed first (the
    first knot plus the period is appended unless present), so evaluation can
    wrap queries into one period.  Invalid data (see `_validate`) makes both
    arrays NaN.
    """
    xp, fp = promote_inexact(xp, fp)
    values, _ = to_columns(fp, spec.axis)
    knots = xp
    valid = True
    if period is not None and not spec.closes_period:
        knots = jnp.append(xp, xp[0] + period)
        values = jnp.concatenate([values, values[:1]])
    elif spec.bc_kinds[0] == PERIODIC:
        valid = jnp.all(ends_match(values))
        values = values.at[-1].set(values[0])
    valid = valid & knots_are_valid(knots)
    method = get_method(spec.method)
    slopes = None
    if method.slopes is not None:
        ends_values = tuple(column_values(v, spec.column_shape, values.dtype) for v in bc_values)
        slopes = method.slopes(knots, values, EndConditions(spec.bc_kinds, ends_values))
    breaks, coefficients = method.pieces(knots, values, slopes)
    return jnp.where(valid, breaks, jnp.nan), jnp.where(valid, coefficients, jnp.nan)
