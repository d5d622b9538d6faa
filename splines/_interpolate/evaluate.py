"""Evaluation: cell search → Horner on the piece → out-of-range handling."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ._dtypes import as_dtype, check_real, query_dtype
from ._hermite import horner
from ._layout import from_columns
from ._search import find_cells, take_pieces


class EvalSpec(NamedTuple):
    """Static description of an evaluation: part of the jit cache key."""

    derivative: int | tuple  # one order, or several stacked on a new leading axis
    extend: bool  # extend the end pieces (ignored when periodic)
    periodic: bool  # wrap queries into the breaks' period
    right_closed: bool  # a query on a break takes the piece on its left
    axis: int
    column_shape: tuple


def check_derivative(derivative, name: str = "derivative") -> int | tuple:
    """A static order ≥ 0, or a non-empty tuple (or list) of them; errors call it ``name``."""
    if isinstance(derivative, (tuple, list)):
        if not derivative:
            raise ValueError(f"`{name}` must not be an empty sequence of orders.")
        return tuple(check_order(d, derivative, name) for d in derivative)
    return check_order(derivative, derivative, name)


def check_order(order, derivative, name: str = "derivative") -> int:
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)):
        raise TypeError(
            f"`{name}` must be a Python int or a tuple of ints; got {derivative!r}."
        )
    if order < 0:
        raise ValueError(f"`{name}` orders must be ≥ 0; got {derivative!r}.")
    return int(order)


def prepare_queries(x, real_dtype, name: str = "x"):
    """Queries as an array of their promoted real dtype; complex ones raise `TypeError`."""
    check_real(x, name)
    return as_dtype(x, query_dtype(x, real_dtype))


def evaluate(x, breaks, coefficients, fill, spec: EvalSpec, end=None):
    """The piecewise polynomial at ``x`` (any shape), in numpy's output layout.

    ``coefficients``: ``(len(breaks) - 1, k, degree + 1)`` in the local
    coordinate t of each piece (`_hermite`); ``fill``: (below, above) scalars,
    used only when neither extending nor periodic; ``end``: ``(k,)`` values at
    the last break (`at_last_break`), or None for the last piece's own sum.
    A NaN query — or ±inf under a period, which wraps to NaN — gives NaN
    whatever the method, order or fill.  Several orders share one cell search
    and one gather of the pieces, and come stacked on a new leading axis.
    """
    x_shape = x.shape
    cell = find_cells(jnp.reshape(x, (-1,)), breaks, spec.periodic, spec.right_closed)
    x, start, width = cell.x, cell.start, cell.width[:, None]
    local = take_pieces(coefficients, cell.index)
    t = (x[:, None] - start[:, None]) / width
    orders = spec.derivative if isinstance(spec.derivative, tuple) else (spec.derivative,)
    results = [derivative_along(local, t, width, x, start, order) for order in orders]
    if end is not None:
        results = [at_last_break(out, x, breaks, end) if order == 0 else out
                   for out, order in zip(results, orders)]  # fmt: skip
    results = [_outside(out, x, breaks, fill, spec) for out in results]
    results = [from_columns(out, x_shape, spec.column_shape, spec.axis) for out in results]
    return jnp.stack(results) if isinstance(spec.derivative, tuple) else results[0]


def derivative_along(local, t, width, x, start, order: int):
    """The ``order``-th x-derivative of the gathered pieces at local coordinates t.

    ``local``: coefficients with the powers of t last; ``t`` and ``width``
    broadcast against ``local.shape[:-1]``; ``x``, ``start``: the queries and
    their pieces' starts, flat.
    """
    out = horner(local, t, order)
    degree = local.shape[-1] - 1
    if order:  # d/dx = (d/dt) / h, one factor at a time: no overflow
        inverse = 1 / width  # (XLA folds (a / h) / h into a / h², which would)
        for _ in range(min(order, degree)):
            out = out * inverse
    if order >= degree:  # no t left: keep invalid data's NaN in d/dx too
        out = out + _zero_carrying_nan(x, start)[(...,) + (None,) * (t.ndim - 1)]
    return out


def last_values(coefficients):
    """The last piece's values at its end, ``Σ_p c_p`` ``(k,)``: a polynomial's own ``end``."""
    return horner(coefficients[-1], 1.0, 0)


def at_last_break(out, x, breaks, end):
    """``end`` where a query ``x`` (flat, one per row of ``out``) is on the last break.

    Every other break starts a piece, whose value there is its first
    coefficient, exactly the data; the last break ends one, and there the sum
    Σ_p c_p rounds (by hundreds of ulps where slopes are large against the
    values: a zero at the last knot read as 2e-16, and its root was lost).
    Derivatives stay the piece's: the one-sided limit, as everywhere else.
    """
    return _snap(out, (x == breaks[-1])[:, None], end)


@jax.custom_jvp
def _snap(out, on_end, end):
    return jnp.where(on_end, end, out)


@_snap.defjvp
def _snap_jvp(primals, tangents):
    """The tangent of the piece's value: ``end`` only corrects its rounding."""
    return _snap(*primals), tangents[0]


def _outside(out, x, breaks, fill, spec: EvalSpec):
    """Fill values outside the breaks (unless extending or periodic); NaN at queries
    that have no value (`nan_where_no_value`)."""
    if not (spec.extend or spec.periodic):
        out = fill_outside(out, x, breaks, fill)
    return nan_where_no_value(out, x, spec.extend and not spec.periodic)


def fill_outside(out, x, breaks, fill):
    """``fill`` = (below, above) where the queries ``x`` (flat, one per row) are outside."""
    below, above = fill
    out = jnp.where((x < breaks[0])[:, None], below, out)
    return jnp.where((x > breaks[-1])[:, None], above, out)


def nan_where_no_value(out, x, extended: bool = False):
    """NaN in every row of ``out`` whose query is NaN, or ±inf on ``extended`` ends.

    An extended end piece is a polynomial, which has no value at ±inf (its
    limit depends on which coefficients are zero, and Horner meets 0 · inf):
    NaN for every method and order, as scipy.  (Under a period ±inf wraps to
    NaN; with a fill it is outside, and gets the fill.)
    """
    undefined = ~jnp.isfinite(x) if extended else jnp.isnan(x)
    return jnp.where(undefined[:, None], jnp.nan, out)


def _zero_carrying_nan(x, start):
    """An exact 0 whose derivatives in ``x`` and the knots are NaN when ``start`` is.

    Where the output does not depend on t (a constant piece, or a derivative
    at or past the degree), invalid knots (NaN breaks, see `_validate.poison`)
    would otherwise leave a zero gradient w.r.t. the queries.  ``0 · start``
    comes first so the product never overflows; infinite queries count as 0.
    """
    return (0 * start) * jnp.where(jnp.isinf(x), 0, x)
