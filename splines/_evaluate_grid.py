"""Evaluation on a grid: a cell search per axis → one gather → nested Horner → fills.

With ``coefficients[j_0, …, j_{d-1}, k, p_0, …, p_{d-1}]`` (`_fit_grid`), the
value at a point with local coordinates t_a in cell (j_0, …) is

    Σ c[j, k, p_0, …, p_{d-1}] t_0^{p_0} ⋯ t_{d-1}^{p_{d-1}},

summed one axis at a time from the last (Horner in t_{d-1}, then t_{d-2}, …),
each axis with its own derivative order and 1/h_a factors, as in 1-D.
"""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from ._evaluate import check_order, derivative_along, fill_outside, nan_at_nan
from ._layout import from_columns
from ._search import find_cells, take_pieces


class GridEvalSpec(NamedTuple):
    """Static description of an evaluation on a grid: part of the jit cache key."""

    derivative: tuple  # per-axis orders, or (stacked) a tuple of them
    stacked: bool  # several derivatives, on a new leading axis
    extend: tuple  # per axis: extend the end pieces (ignored when periodic)
    periodic: tuple  # per axis: wrap queries into the breaks' period
    right_closed: bool  # a query on a break takes the piece on its left
    column_shape: tuple


def grid_eval_spec(derivative, extend, periodic, right_closed, column_shape) -> GridEvalSpec:
    """The evaluation spec for a (checked) ``derivative`` and the fit's static options."""
    orders, stacked = check_grid_derivative(derivative, len(periodic))
    return GridEvalSpec(orders, stacked, extend, periodic, right_closed, column_shape)


def check_grid_derivative(derivative, ndim: int) -> tuple:
    """``(orders, stacked)``: one order for every axis, one per axis, or a sequence of those.

    An int is the same order along every axis; a sequence of ``ndim`` ints,
    one per axis; a sequence of such sequences, several results stacked.
    """
    if isinstance(derivative, (tuple, list)) and derivative:
        if all(isinstance(d, (tuple, list)) for d in derivative):
            return tuple(_per_axis(d, ndim, derivative) for d in derivative), True
    return (_per_axis(derivative, ndim, derivative),), False


def _per_axis(orders, ndim: int, derivative) -> tuple:
    if not isinstance(orders, (tuple, list)):
        return (check_order(orders, derivative),) * ndim
    if len(orders) != ndim:
        raise ValueError(
            f"`derivative`={derivative!r} needs one order per axis ({ndim}), or one int for "
            "all, or a sequence of such tuples."
        )
    return tuple(check_order(order, derivative) for order in orders)


def evaluate_grid(queries: tuple, breaks: tuple, coefficients, fill, spec: GridEvalSpec):
    """The tensor-product piecewise polynomial at the points ``queries`` (one array per axis).

    The query arrays broadcast against each other; the result has their
    shape followed by the columns' (after a leading axis of derivatives when
    stacked).  ``fill``: ``(d, 2)`` values below and above each axis, used
    where that axis neither extends nor wraps; a point outside along several
    axes takes the last such axis' fill.  NaN queries give NaN.  An infinite
    query on an extended axis may give NaN where 1-D gives ±inf: the sum over
    the last axis comes first, and the next axis' Horner step can meet inf − inf.
    """
    shape = np.broadcast_shapes(*(jnp.shape(q) for q in queries))
    xs = [jnp.reshape(jnp.broadcast_to(q, shape), (-1,)) for q in queries]
    cells = [find_cells(x, b, periodic, spec.right_closed)
             for x, b, periodic in zip(xs, breaks, spec.periodic)]  # fmt: skip
    local = take_pieces(coefficients, tuple(cell.index for cell in cells))  # (m, k, p_0, …)
    results = []
    for orders in spec.derivative:
        out = _nested_horner(local, cells, orders)
        for axis, (x, b) in enumerate(zip(xs, breaks)):
            if not (spec.extend[axis] or spec.periodic[axis]):
                out = fill_outside(out, x, b, fill[axis])
        for cell in cells:
            out = nan_at_nan(out, cell.x)
        results.append(from_columns(out, shape, spec.column_shape, 0))
    return jnp.stack(results) if spec.stacked else results[0]


def _nested_horner(local, cells, orders: tuple):
    """Sum out the powers of t_{d-1}, …, t_0 (last axis first), each with its derivative."""
    for axis in reversed(range(len(cells))):
        cell = cells[axis]
        shape = (-1,) + (1,) * (local.ndim - 2)  # broadcast against local.shape[:-1]
        t = jnp.reshape((cell.x - cell.start) / cell.width, shape)
        width = jnp.reshape(cell.width, shape)
        local = derivative_along(local, t, width, cell.x, cell.start, orders[axis])
    return local
