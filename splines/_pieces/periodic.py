"""Closing the period: knots that may or may not end with ``xp[0] + period``.

A periodic fit works on *closed* knots — the distinct knots plus the first
one shifted by the period, whose value repeats the first value.  Users pass
the distinct knots (open) or the closed ones; the last knot closes the period
when ``|xp[-1] - xp[0] - period|`` is within rounding (`_utils.validate.period_gap`).

When the knots and the period are concrete, that is decided once in numpy and
the program holds one fit.  When either is traced (gradient descent on knot
positions, `vmap` over grids) the program cannot branch on it, so it fits
both readings, each with a fixed shape, and selects per element:

- open:   n distinct knots, closed by ``xp[0] + period`` → n pieces;
- closed: n-1 distinct knots and the given closing one → n-1 pieces, and the
  last piece is cut in two at its midpoint (`split_last_piece`: the same
  polynomial), so both readings have n pieces over the same period.

The reading not taken is fed safe knots, so its (discarded) derivatives stay
finite and the selection's gradient is exact.

Knots past ``xp[0] + period`` are moved back by whole periods and sorted with
their values (`wrap_periodic_knots`); concrete ones are also merged where they
coincide (`_utils.validate.wrapped_knots_eagerly`), traced ones cannot change
shape, so coinciding ones make the fit NaN.
"""

import jax
import jax.numpy as jnp

from .._utils.validate import (
    closes_period,
    ends_match,
    knots_are_valid,
    placeable,
    wrap_into_period,
)
from .polynomials import split_last_piece


def fit_periodic(pieces, xp, values, period, closes, eps, split=split_last_piece):
    """``(breaks, coefficients, valid)`` of the periodic fit.

    ``pieces(knots, values)`` fits closed knots (``values``: knots first);
    ``closes`` is True, False, or None when it must be decided from traced
    data; ``eps`` is the knots' precision (`_utils.validate.period_gap`).
    ``split(breaks, coefficients)`` cuts the last piece in two (on a grid, the
    last piece along this axis; ``breaks`` may then be a tuple, one per axis).
    """
    if closes is not None:
        return _fit_reading(pieces, xp, values, period, closes, eps)
    closes = closes_period(xp, period, eps)
    closed = _fit_reading(pieces, xp, values, period, True, eps)
    closed = (*split(*closed[:2]), closed[2])
    # The open reading with a closing knot sees a cell of zero width: move that
    # knot to the middle of its cell when the closed reading is the one taken.
    middle = xp[-2] + (xp[0] + period - xp[-2]) / 2  # n ≥ 2 here (`prepare_fit`)
    safe = jnp.concatenate([xp[:-1], jnp.where(closes, middle, xp[-1])[None]])
    opened = _fit_reading(pieces, safe, values, period, False, eps)
    return jax.tree.map(lambda c, o: jnp.where(closes, c, o), closed, opened)


def wrap_periodic_knots(xp, values, period, eps):
    """Traced knots wrapped into one period and sorted, with their values (knots first),
    and whether that is valid: the given knots rise and no knot that moved meets another
    within the closing tolerance (`_utils.validate.wrap_into_period`), and the knots can
    be placed in the period (`_utils.validate.placeable`)."""
    knots, order, moved, tol = wrap_into_period(xp, period, eps)
    apart = (jnp.diff(knots) > tol) | ~(moved[1:] | moved[:-1])
    valid = knots_are_valid(xp) & jnp.all(apart) & placeable(xp, period, eps)
    return knots, values[order], valid


def close_at_last_knot(values, eps):
    """``bc_type="periodic"`` without a ``period``: the last knot closes the period.

    Its values (knots first) must repeat the first ones; they are replaced by
    them but kept as exact zeros, so invalid data make their gradients NaN.
    Returns the closed values and whether the ends matched.
    """
    valid = jnp.all(ends_match(values, eps))
    return jnp.concatenate([values[:-1], values[:1] + 0 * values[-1:]]), valid


def _fit_reading(pieces, xp, values, period, closes: bool, eps):
    """Fit with the last knot read as closing (``closes``) or as a distinct knot."""
    closing_knot, closing_value = xp[0] + period, values[:1]
    valid = True
    if closes:
        valid = jnp.all(ends_match(values, eps))
        # The given closing knot and value are replaced by exact ones, but stay
        # in the graph as exact zeros, so invalid data make their gradients NaN.
        closing_knot, closing_value = closing_knot + 0 * xp[-1], closing_value + 0 * values[-1:]
        xp, values = xp[:-1], values[:-1]
    knots = jnp.concatenate([xp, closing_knot[None]])
    breaks, coefficients = pieces(knots, jnp.concatenate([values, closing_value]))
    return breaks, coefficients, valid & knots_are_valid(knots)
