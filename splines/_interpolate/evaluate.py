"""Evaluation on any number of axes: a cell search per axis → the query's piece or cell →
its value, one axis at a time → fills and NaN.

In 1-D a query's piece is its row of the table (`fit`), summed by Horner in
t.  On a grid its cell holds the node data at its 2^d corners (j_a and
j_a + 1 along each axis; one for "nearest", whose table holds a value per
piece), and the tensor-product interpolant is the 1-D one along each axis
in turn (`_cell_value`: the axes with a derivative first, each group from
the last; the values as differences from the cell's first corner value).
Along axis a every datum left — each pair (D̃_S, D̃_{S∪a}) of values and
slopes along a at the two corners, the slopes with the cell's width in the
axis' unit ``w_a`` (`fit.in_axis_units`) — is the method's 1-D piece in t_a
(its pieces rule, as a fit on one cell), summed at t_a with that axis'
derivative order and 1/h_a factors.  What is left is node data of one axis
fewer: 2^(d−1) corners, slots without bit a.  A query sums Σ_a 4^a =
(4^d − 1)/3 such pieces, each intermediate an interpolated value or slope
of the data: a few |f| at most, where the 4^d coefficients of the whole
cell's polynomial grow as 2^d … 6^d |f| (and overflowed float32 data of
5e37 in 3-D).

On the last break of an axis a piece is read at its end, where the sum over
the powers of t = 1 rounds away from the data (a zero read as 2e-16) — every
other break starts a piece, where t = 0 leaves the data exactly.  The two
stored forms correct it each in their way: the 1-D table holds the values
there (`at_last_break`); a grid cell is read from its far end
(`_from_last_breaks`).
"""

import math
from functools import cache, partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._methods.registry import Method, get_method
from .._pieces.polynomials import horner
from .._pieces.search import find_cells, take_pieces
from .._utils.columns import from_columns
from .._utils.dtypes import as_dtype, check_real, is_of_dtype, query_dtype
from .._utils.eager_cache import memoized
from .._utils.validate import static_int
from .fit import in_axis_units


class EvalSpec(NamedTuple):
    """Static description of an evaluation: part of the jit cache key."""

    derivative: tuple  # per result, the orders along each axis
    stacked: bool  # several results, on a new leading axis
    extend: tuple  # per axis (below, above): extend the end piece (not when periodic)
    periodic: tuple  # per axis: wrap queries into the breaks' period
    axis: int  # where the queries' shape goes among the columns' axes
    column_shape: tuple
    # The fitted method: its pieces rule builds a grid cell from node data, and it
    # says whether a query on a break takes the piece on its left ("nearest").  A
    # table that no method made (`PPoly`) reads as "linear": right-open pieces.
    method: str = "linear"
    even: tuple = ()  # per axis: about evenly spaced breaks, located without a search


def orders_along_one_axis(derivative, name: str = "derivative") -> tuple:
    """``(orders, stacked)`` of a 1-D ``derivative``: a static order ≥ 0, or a non-empty
    tuple (or list) of them, stacked; errors call it ``name``."""
    if isinstance(derivative, (tuple, list)):
        if not derivative:
            raise ValueError(f"`{name}` must not be an empty sequence of orders.")
        return tuple((check_order(d, derivative, name),) for d in derivative), True
    return ((check_order(derivative, derivative, name),),), False


def orders_per_axis(derivative, ndim: int, name: str = "derivative") -> tuple:
    """``(orders, stacked)`` on a grid: one order for every axis, one per axis, or a
    sequence of those (several results, stacked)."""
    if isinstance(derivative, (tuple, list)) and derivative:
        if all(isinstance(d, (tuple, list)) for d in derivative):
            return tuple(_per_axis(d, ndim, derivative, name) for d in derivative), True
    return (_per_axis(derivative, ndim, derivative, name),), False


def _per_axis(orders, ndim: int, derivative, name: str) -> tuple:
    if not isinstance(orders, (tuple, list)):
        return (check_order(orders, derivative, name),) * ndim
    if len(orders) != ndim:
        raise ValueError(
            f"`{name}`={derivative!r} needs one order per axis ({ndim}), or one int for "
            "all, or a sequence of such tuples."
        )
    return tuple(check_order(order, derivative, name) for order in orders)


def check_order(order, derivative, name: str = "derivative") -> int:
    """One derivative order of the option ``derivative``: a static int ≥ 0."""
    order = static_int(order, name, kind="a Python int or a tuple of ints", shown=derivative)
    if order < 0:  # said of the orders: ``derivative`` may hold several
        raise ValueError(f"`{name}` orders must be ≥ 0; got {derivative!r}.")
    return order


def prepare_queries(x, real_dtype, name: str = "x"):
    """Queries as an array of their promoted real dtype; complex ones raise `NotRealError`.

    A Python float is weakly typed, so its dtype is ``real_dtype``: converted without
    the checks and the promotion (a third of an eager scalar call's Python), to the
    array any other scalar becomes (one program for every type of scalar).
    """
    if type(x) is float:
        return np.asarray(x, real_dtype)
    check_real(x, name)
    return as_dtype(x, query_dtype(x, real_dtype))


def query_dtypes(queries: tuple, real, names: tuple) -> tuple:
    """``(dtypes, ready)``: per query array its dtype (`prepare_queries`'), and whether each
    is a jax array of it already.  Static (types only): part of a call's plan."""
    for q, name in zip(queries, names):
        check_real(q, name)
    dtypes = tuple(query_dtype(q, real) for q in queries)
    return dtypes, all(is_of_dtype(q, dtype) for q, dtype in zip(queries, dtypes))


def planned_call(queries: tuple, derivative, one_axis: bool, real, names: tuple, *fields):
    """A fitted interpolant's call: ``(queries in their dtypes, EvalSpec)``, the static half
    made once per call signature (`memoized`).  ``fields``: `EvalSpec`'s after the orders;
    ``one_axis``: ``derivative`` as `interp1d` reads it, else orders per axis."""
    spec, dtypes, ready = memoized(
        _fitted_call_plan, queries, (derivative,), (one_axis, real, names, *fields)
    )
    if not ready:
        queries = tuple(as_dtype(q, dtype) for q, dtype in zip(queries, dtypes))
    return queries, spec


def _fitted_call_plan(*args) -> tuple:
    """``(EvalSpec, dtypes, ready)``; ``args``: `planned_call`'s queries flat, then the rest."""
    *queries, derivative, one_axis, real, names = args[:-_FIELDS]
    spec = eval_spec(derivative, one_axis, *args[-_FIELDS:])
    return (spec, *query_dtypes(tuple(queries), real, names))


def eval_spec(derivative, one_axis: bool, extend: tuple, periodic: tuple, *rest) -> EvalSpec:
    """The `EvalSpec` of ``derivative`` (`interp1d`'s meaning if ``one_axis``, else orders
    per axis); ``rest``: its fields after ``periodic``."""
    orders = (
        orders_along_one_axis(derivative)
        if one_axis
        else orders_per_axis(derivative, len(periodic))
    )
    return EvalSpec(*orders, extend, periodic, *rest)


_FIELDS = len(EvalSpec._fields) - 2  # after the orders (`derivative`, `stacked`)


def evaluate(queries: tuple, breaks: tuple, table, fill, spec: EvalSpec, end=None):
    """The interpolant at the points ``queries`` (one array per axis), in numpy's layout.

    ``breaks``, ``table`` and ``end`` as `fit.fit` returns them (``end`` None:
    the last piece's own sum).  The query arrays broadcast against each other;
    the result has their shape at ``spec.axis`` among the columns' axes (after
    a leading axis of results when stacked).  ``fill``: per axis its (below,
    above) values, used where that axis neither extends nor wraps; a point
    outside along several axes takes the last such axis' fill.  A NaN query
    gives NaN whatever the method, order or fill, and so does an infinite one
    on an extended axis (`nan_where_no_value`).  All results share one cell
    search and one gather.
    """
    shape = jnp.broadcast_shapes(*(jnp.shape(q) for q in queries))  # symbolic sizes too
    xs = [jnp.reshape(jnp.broadcast_to(q, shape), (-1,)) for q in queries]
    method = get_method(spec.method)
    even = spec.even if spec.even and method.breaks_at_knots else (False,) * len(breaks)
    cells = [
        find_cells(x, b, periodic, method.right_closed, e)
        for x, b, periodic, e in zip(xs, breaks, spec.periodic, even)
    ]
    if len(breaks) == 1:
        local = take_pieces(table, cells[0].index)  # (m, k, p)
        polynomial = (local.shape[-1] > 1,)  # "nearest": a constant, defined at ±inf
        value = partial(_piece_value, local, cells[0])
    else:
        corners = _gather_corners(table, breaks, cells)  # (m, 2 or 1, …, k, slots)
        counts = corners.shape[1 : 1 + len(breaks)]
        cells = _from_last_breaks(cells, counts, breaks)
        polynomial = tuple(count > 1 for count in counts)
        value = partial(_cell_value, method, corners, cells, breaks)
    results = []
    for orders in spec.derivative:
        out = value(orders)
        if end is not None and not any(orders):
            out = at_last_break(out, cells[0].x, breaks[0], end)
        for axis, (cell, b) in enumerate(zip(cells, breaks)):
            if not spec.periodic[axis]:
                out = fill_outside(out, cell.x, b, fill[axis], spec.extend[axis])
        for axis, cell in enumerate(cells):
            extended = [
                e and polynomial[axis] and not spec.periodic[axis] for e in spec.extend[axis]
            ]
            out = nan_where_no_value(out, cell.x, extended)
        results.append(from_columns(out, shape, spec.column_shape, spec.axis))
    return jnp.stack(results) if spec.stacked else results[0]


jit_evaluate = jax.jit(evaluate, static_argnums=4)  # for the modules: one program per spec


def _piece_value(local, cell, orders: tuple):
    """1-D: the gathered pieces ``(m, k, p)`` at their queries, with ``orders[0]``."""
    return _along(local, cell, orders[0])


def _along(local, cell, order: int):
    """Sum out the powers of t (``local``'s last axis) along one axis, with ``order``."""
    shape = (-1,) + (1,) * (local.ndim - 2)  # broadcast against local.shape[:-1]
    t = jnp.reshape((cell.x - cell.start) / cell.width, shape)
    width = jnp.reshape(cell.width, shape)
    return derivative_along(local, t, width, cell.x, cell.start, order)


def derivative_along(local, t, width, x, start, order: int):
    """The ``order``-th derivative along one axis of the gathered pieces at local coordinates t.

    ``local``: coefficients with the powers of t last; ``t`` and ``width``
    broadcast against ``local.shape[:-1]``; ``x``, ``start``: the queries and
    their pieces' starts, flat.
    """
    return _per_x(horner(local, t, order), width, x, start, order, local.shape[-1] - 1)


def _per_x(out, width, x, start, order: int, degree: int):
    """``out``, an ``order``-th derivative in t of a piece of ``degree``, in x: / h per order."""
    if order:  # d/dx = (d/dt) / h, one factor at a time: no overflow
        inverse = 1 / width  # (XLA folds (a / h) / h into a / h², which would)
        for _ in range(min(order, degree)):
            out = out * inverse
    if order >= degree:  # no t left: keep invalid data's NaN in d/dx too
        out = out + _zero_carrying_nan(x, start, out)
    return out


def last_values(coefficients):
    """The last piece's values at its end, ``Σ_p c_p`` ``(k,)``: a polynomial's own ``end``."""
    return horner(coefficients[-1], 1.0, 0)


def at_last_break(out, x, breaks, end):
    """``end`` where a query ``x`` (flat, one per row of ``out``) is on the last break.

    There the sum Σ_p c_p rounds (by hundreds of ulps where slopes are large
    against the values: a zero at the last knot read as 2e-16, and its root
    was lost).  Derivatives stay the piece's: the one-sided limit, as
    everywhere else.
    """
    return _snap(out, (x == breaks[-1])[:, None], end)


@jax.custom_jvp
def _snap(out, on_end, end):
    return jnp.where(on_end, end, out)


@_snap.defjvp
def _snap_jvp(primals, tangents):
    """The tangent of the piece's value: ``end`` only corrects its rounding."""
    return _snap(*primals), tangents[0]


def fill_outside(out, x, breaks, fill, extended=(False, False)):
    """``fill`` = (below, above) where the queries ``x`` (flat, one per row) are outside,
    on the sides not ``extended``; a side's None is NaN."""
    for outside, value, extend in zip((x < breaks[0], x > breaks[-1]), fill, extended):
        if not extend:
            out = jnp.where(outside[:, None], jnp.nan if value is None else value, out)
    return out


def nan_where_no_value(out, x, extended=(False, False)):
    """NaN in every row of ``out`` whose query is NaN, or ±inf on an ``extended`` side
    (below, above).

    An extended end polynomial of degree ≥ 1 has no value at ±inf (its limit
    depends on which coefficients are zero, and Horner meets 0 · inf): NaN for
    every such method and order, as scipy's `PPoly`.  A constant end piece
    ("nearest") keeps its value there, as scipy and interpax do.  (Under a
    period ±inf wraps to NaN; with a fill it is outside, and gets the fill.)
    """
    below, above = extended
    if below and above:
        undefined = ~jnp.isfinite(x)
    else:
        undefined = jnp.isnan(x) | (x == -jnp.inf) if below else jnp.isnan(x)
        undefined = undefined | (x == jnp.inf) if above else undefined
    return jnp.where(undefined[:, None], jnp.nan, out)


def _zero_carrying_nan(x, start, out):
    """An exact 0 (shaped as ``out``) whose derivative in ``x`` is NaN where ``start`` or
    ``out`` is.

    Where the output does not depend on t (a constant piece, or a derivative
    at or past the degree), invalid knots (NaN breaks, see
    `_utils.validate.poison`) or NaN data would otherwise leave a zero
    gradient w.r.t. the queries.  The factor ``0 · start`` (NaN where ``out``
    is) comes first so the product never overflows (nor turns an infinite
    ``out`` into NaN); infinite queries count as 0.
    """
    rows = (...,) + (None,) * (out.ndim - 1)
    zero = 0 * start[rows] + jnp.where(jnp.isnan(out), jnp.nan, 0)
    return zero * jnp.where(jnp.isinf(x), 0, x)[rows]


def _gather_corners(nodes, breaks: tuple, cells):
    """The node data of each query's cell: ``(m, c_0, …, c_{d-1}, k, slots)``, one gather.

    Along an axis with a node on every break a cell has two corners, j and
    j + 1 (c_a = 2), taken in reverse where the query is on the axis' last
    break (`_from_last_breaks`: the index does it, no pass over the data);
    "nearest" holds one value per piece (c_a = 1).
    """
    d = len(breaks)
    counts = [2 if nodes.shape[a] == breaks[a].shape[0] else 1 for a in range(d)]
    flat = jnp.reshape(nodes, (math.prod(nodes.shape[:d]),) + nodes.shape[d:])  # k may be 0
    strides = np.cumprod((1,) + nodes.shape[d - 1 : 0 : -1])[::-1]  # row-major, per axis
    corners = np.indices(counts).reshape(d, 1, -1)  # each corner's place along each axis
    index = 0
    for cell, b, count, place, stride in zip(cells, breaks, counts, corners, strides):
        place = jnp.asarray(place, jnp.int32)
        if count == 2:
            place = jnp.where(_on_last_break(cell, b)[:, None], 1 - place, place)
        index = index + (cell.index[:, None] + place) * int(stride)
    gathered = take_pieces(flat, index)  # (m, ∏c_a, k, slots)
    return jnp.reshape(gathered, gathered.shape[:1] + tuple(counts) + gathered.shape[2:])


def _on_last_break(cell, breaks):
    return cell.x == breaks[-1]


def _from_last_breaks(cells, counts, breaks: tuple):
    """Cells seen from their far end where a query is on the last break of an axis.

    Reversing the cell along that axis — its corners swapped (`_gather_corners`),
    its width negated, so that ``t = (x − end) / (−h)`` is 0 there — is the
    same polynomial (``p(1 − t)``: the slopes change sign with the width, and
    the derivatives with the 1/h factors), with the data exact at t = 0.
    """
    flipped = []
    for cell, b, count in zip(cells, breaks, counts):
        if count == 2:  # "nearest" holds one constant per cell
            on_end = _on_last_break(cell, b)
            cell = cell._replace(
                start=jnp.where(on_end, b[-1], cell.start),
                width=jnp.where(on_end, -cell.width, cell.width),
            )
        flipped.append(cell)
    return flipped


def _cell_value(method: Method, corners, cells, breaks: tuple, orders: tuple):
    """The interpolant (``orders``: a derivative per axis) in each query's cell: ``(m, k)``.

    ``corners``: ``(m, c_0, …, c_{d-1}, k, slots)``.  Along one axis at a time
    each pair (D̃_S, D̃_{S∪a}) is summed as the 1-D piece in t_a (the module's
    docstring): first the axes with a derivative, then the others, each group
    from the last axis.  The values enter as differences from the cell's first
    corner value, added back at the end: every sum runs on the data's
    variation, not on a common offset whose rounding would swamp a derivative
    or an extrapolated value (float32 data offset by 1e4: 7% off in
    ∂³/∂x∂y∂z), and a constant comes back exactly.  A derivative is formed
    from differences of the data themselves (exact where neighbours are
    close), not of values already summed along another axis.
    """
    d = len(cells)
    first = corners[(slice(None),) + (0,) * d + (slice(None), 0)]  # (m, k)
    node = {mask: corners[..., mask] for mask in range(corners.shape[-1])}
    node[0] = node[0] - jnp.expand_dims(first, tuple(range(1, 1 + d)))  # k may be 0
    left = list(range(d))  # the axes whose corners the node data still hold
    for axis in sorted(left, key=lambda a: (orders[a] == 0, -a)):
        position, bit = 1 + left.index(axis), 1 << axis
        left.remove(axis)
        for mask in [m for m in node if not m & bit]:
            slopes = node.pop(mask | bit, None)
            node[mask] = _sum_along(
                method.pieces, node[mask], slopes, position, cells[axis], breaks[axis], orders[axis]
            )
    return node[0] if any(orders) else node[0] + first


def _sum_along(pieces, values, slopes, position: int, cell, breaks, order: int):
    """The 1-D piece between a cell's two corners (one for "nearest") along the corner axis
    at ``position`` of ``values`` and ``slopes`` ``(m, …, k)``, summed at the queries:
    that axis goes.

    Values alone (linear, nearest), and any derivative, make the piece's
    coefficients (the pieces rule: differences of the data), summed by Horner.
    Values and slopes (a cubic) at order 0 are summed as weights of the data,
    ``Σ_i datum_i · Σ_p B[i, p] t^p`` (`_basis`): each datum is read once, so
    XLA fuses every axis' sums without recomputing the gather (the coefficients
    read each datum up to three times: a 3-D cell's 3^3 times).  The slopes
    reach the rule in the cell's unit, ``D̃ · w`` (`_pieces.polynomials`).
    """
    column = partial(jnp.reshape, shape=(-1,) + (1,) * (values.ndim - 2))  # (m, 1, …)
    if slopes is not None:
        slopes = slopes * jnp.expand_dims(column(in_axis_units(cell.width, breaks)), position)
    if slopes is None or order:
        lines = [jnp.moveaxis(v, position, 0) for v in (values, slopes) if v is not None]
        return _along(_on_one_cell(pieces, *lines), cell, order)  # (count, m, …): knots first
    count = values.shape[position]
    t = (cell.x - cell.start) / cell.width
    weights = horner(jnp.asarray(_basis(pieces, count), t.dtype), t[:, None], 0)  # (m, data)
    data = [
        lax.index_in_dim(a, i, position, keepdims=False)
        for a in (values, slopes)
        for i in range(count)
    ]
    out = data[0] * column(weights[:, 0])
    for i in range(1, len(data)):
        out = out + data[i] * column(weights[:, i])
    return out  # order 0 of a cubic: no 1/h factor, t left in every term


def _on_one_cell(pieces, values, slopes=None):
    """A pieces rule on one cell: the coefficients ``(…, p)`` from the ``count`` corners'
    ``values`` (and ``slopes``, in the cell's unit) ``(count, …)``."""
    count = values.shape[0]
    return pieces(np.zeros(count), np.ones(count - 1), values, slopes)[1][0]


@cache
def _basis(pieces, count: int) -> np.ndarray:
    """A pieces rule on one cell of Hermite data as a basis: ``B[i, p]``, the coefficient
    of t^p that datum i brings (the values at the ``count`` corners, then the slopes).

    Every rule is linear in its data, so it is its own basis on unit data.
    """
    unit = np.eye(2 * count)
    with jax.ensure_compile_time_eval():
        piece = _on_one_cell(pieces, unit[:count], unit[count:])
    return np.asarray(piece, np.float64)
