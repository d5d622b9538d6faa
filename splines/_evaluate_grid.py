"""Evaluation on a grid: a cell search per axis → one gather → cell pieces → Horner → fills.

With the node data ``nodes[i_0, …, i_{d-1}, k, S]`` (`_fit_grid`), a query in
cell (j_0, …, j_{d-1}) gathers its 2^d corners (j_a and j_a + 1 along each
axis; one for "nearest", whose table holds a value per piece), and the
method's 1-D pieces rule (`_hermite`) turns them into the cell's local
coefficients, one axis at a time, as a fit on a grid of one cell: along axis
a, each pair (D̃_S, D̃_{S∪a}) — values and slopes along a, with the cell's
width in span units ``w_a = h_a / L_a`` — becomes the coefficients of the
powers of t_a.  After all axes, ``c[k, p_0, …, p_{d-1}]`` multiplies
``t_0^{p_0} ⋯ t_{d-1}^{p_{d-1}}``, O(|f|) whatever the widths, and the value is

    Σ c[k, p_0, …, p_{d-1}] t_0^{p_0} ⋯ t_{d-1}^{p_{d-1}},

summed one axis at a time from the last (Horner in t_{d-1}, then t_{d-2}, …),
each axis with its own derivative order and 1/h_a factors, as in 1-D.  The
same formulas in the same order as a fit of every cell: the same numbers.
"""

import math
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ._evaluate import check_order, derivative_along, fill_outside, nan_where_no_value
from ._fit_grid import in_axis_units
from ._layout import from_columns, restore_axis, to_columns
from ._methods import Method, get_method
from ._search import find_cells, take_pieces


class GridEvalSpec(NamedTuple):
    """Static description of an evaluation on a grid: part of the jit cache key."""

    derivative: tuple  # per-axis orders, or (stacked) a tuple of them
    stacked: bool  # several derivatives, on a new leading axis
    extend: tuple  # per axis: extend the end pieces (ignored when periodic)
    periodic: tuple  # per axis: wrap queries into the breaks' period
    right_closed: bool  # a query on a break takes the piece on its left
    column_shape: tuple
    method: str  # its pieces rule builds each query's cell from the node data


def grid_eval_spec(derivative, extend, periodic, method: str, column_shape) -> GridEvalSpec:
    """The evaluation spec for a (checked) ``derivative`` and the fit's static options."""
    orders, stacked = check_grid_derivative(derivative, len(periodic))
    right_closed = get_method(method).right_closed
    return GridEvalSpec(orders, stacked, extend, periodic, right_closed, column_shape, method)


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


def evaluate_grid(queries: tuple, breaks: tuple, nodes, fill, spec: GridEvalSpec):
    """The tensor-product interpolant at the points ``queries`` (one array per axis).

    ``breaks`` and ``nodes`` as `fit_grid` returns them.  The query arrays
    broadcast against each other; the result has their shape followed by the
    columns' (after a leading axis of derivatives when stacked).  ``fill``:
    ``(d, 2)`` values below and above each axis, used where that axis neither
    extends nor wraps; a point outside along several axes takes the last such
    axis' fill.  NaN queries give NaN, and so do infinite ones on an extended
    axis (as in 1-D: `nan_where_no_value`).
    """
    shape = np.broadcast_shapes(*(jnp.shape(q) for q in queries))
    xs = [jnp.reshape(jnp.broadcast_to(q, shape), (-1,)) for q in queries]
    cells = [find_cells(x, b, periodic, spec.right_closed)
             for x, b, periodic in zip(xs, breaks, spec.periodic)]  # fmt: skip
    corners = _gather_corners(nodes, breaks, cells)  # (m, 2 or 1, …, k, slots)
    cells, corners = _from_last_breaks(cells, corners, breaks)
    widths = jnp.stack([in_axis_units(c.width, b) for c, b in zip(cells, breaks)], axis=-1)
    build = partial(cell_pieces, get_method(spec.method))
    local = jax.vmap(build)(corners, widths)  # (m, k, p_0, …, p_{d-1})
    results = []
    for orders in spec.derivative:
        out = _nested_horner(local, cells, orders)
        for axis, (x, b) in enumerate(zip(xs, breaks)):
            if not (spec.extend[axis] or spec.periodic[axis]):
                out = fill_outside(out, x, b, fill[axis])
        for axis, cell in enumerate(cells):
            out = nan_where_no_value(out, cell.x, spec.extend[axis] and not spec.periodic[axis])
        results.append(from_columns(out, shape, spec.column_shape, 0))
    return jnp.stack(results) if spec.stacked else results[0]


def _gather_corners(nodes, breaks: tuple, cells):
    """The node data of each query's cell: ``(m, c_0, …, c_{d-1}, k, slots)``, one gather.

    Along an axis with a node on every break a cell has two corners, j and
    j + 1 (c_a = 2); "nearest" holds one value per piece (c_a = 1).
    """
    d = len(breaks)
    counts = [2 if nodes.shape[a] == breaks[a].shape[0] else 1 for a in range(d)]
    flat = jnp.reshape(nodes, (math.prod(nodes.shape[:d]),) + nodes.shape[d:])  # k may be 0
    strides = np.cumprod((1,) + nodes.shape[d - 1 : 0 : -1])[::-1]  # row-major, per axis
    index = sum(cell.index[:, None] * int(stride) for cell, stride in zip(cells, strides))
    gathered = take_pieces(flat, index + _corner_offsets(counts, strides))  # (m, ∏c_a, k, s)
    return jnp.reshape(gathered, gathered.shape[:1] + tuple(counts) + gathered.shape[2:])


def _from_last_breaks(cells, corners, breaks: tuple):
    """Cells seen from their far end where a query is on the last break of an axis.

    Every other break starts a cell, where t = 0 leaves exactly the start
    corner's data; the last break ends one, where the sum over the powers of
    t = 1 rounds away from the data (a zero read as 2e-16).  Reversing the
    cell along that axis — its corners swapped, its width negated, so that
    ``t = (x − end) / (−h)`` is 0 there — is the same polynomial
    (``p(1 − t)``: the slopes change sign with the width, and the derivatives
    with the 1/h factors), with the data exact at t = 0.
    """
    flipped = []
    for axis, (cell, b) in enumerate(zip(cells, breaks)):
        if corners.shape[1 + axis] == 2:  # "nearest" holds one constant per cell
            on_end = cell.x == b[-1]
            mask = jnp.reshape(on_end, (-1,) + (1,) * (corners.ndim - 1))
            corners = jnp.where(mask, jnp.flip(corners, axis=1 + axis), corners)
            cell = cell._replace(start=jnp.where(on_end, b[-1], cell.start),
                                 width=jnp.where(on_end, -cell.width, cell.width))  # fmt: skip
        flipped.append(cell)
    return flipped, corners


def _corner_offsets(counts, strides):
    """Flat offsets of a cell's corners from its first, corner axes in row-major order."""
    grids = np.meshgrid(*(np.arange(c) * int(s) for c, s in zip(counts, strides)),
                        indexing="ij")  # fmt: skip
    return jnp.asarray(sum(grids).reshape(-1), dtype=jnp.int32)


def cell_pieces(method: Method, corners, widths):
    """One cell's local coefficients ``(k, p_0, …, p_{d-1})`` from its corners' node data.

    ``corners``: ``(c_0, …, c_{d-1}, k, slots)``; ``widths``: ``(d,)``, the
    cell's widths in span units.  The 1-D pieces rule along axis 0, then 1,
    …, each pair (D̃_S, D̃_{S∪a}) giving values and slopes along a (the
    module's docstring): the fit's rule, on a grid of one cell.
    """
    node = {mask: corners[..., mask] for mask in range(corners.shape[-1])}
    for axis in range(widths.shape[0]):
        count, bit = corners.shape[axis], 1 << axis
        width = widths[axis][None]
        knots = jnp.concatenate([0 * width, width])[:count]  # in span units, from the start
        for mask in [m for m in node if not m & bit]:
            slopes = node.pop(mask | bit, None)
            node[mask] = _pieces_along(method, knots, width[: count - 1], node[mask], slopes,
                                       axis)  # fmt: skip
    return jnp.reshape(node[0], node[0].shape[widths.shape[0] :])  # one cell along every axis


def _pieces_along(method: Method, knots, widths, values, slopes, axis: int):
    """The 1-D pieces rule along ``axis``: cells replace knots there, powers go last."""
    lines, rest = to_columns(values, axis)
    slope_lines = None if slopes is None else to_columns(slopes, axis)[0]
    pieces = method.pieces(knots, widths, lines, slope_lines)[1]  # (cells, m, p)
    return restore_axis(pieces, rest, axis)


def _nested_horner(local, cells, orders: tuple):
    """Sum out the powers of t_{d-1}, …, t_0 (last axis first), each with its derivative."""
    for axis in reversed(range(len(cells))):
        cell = cells[axis]
        shape = (-1,) + (1,) * (local.ndim - 2)  # broadcast against local.shape[:-1]
        t = jnp.reshape((cell.x - cell.start) / cell.width, shape)
        width = jnp.reshape(cell.width, shape)
        local = derivative_along(local, t, width, cell.x, cell.start, orders[axis])
    return local
