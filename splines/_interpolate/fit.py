"""Fitting on any number of axes: knots and values → breaks per axis and stored pieces, purely.

`fit` is traceable and free of host callbacks and data-dependent control
flow; `prepare.prepare_fit` has checked everything that can be checked first.

**Node data.**  A tensor-product cubic Hermite interpolant is fixed, on each
cell of the grid, by its node data at the cell's 2^d corners: for every
subset S of the axes the mixed derivative ``D_S = ∂^|S| f / ∏_{a∈S} ∂x_a``
(``D_∅ = f``, then ``f_x``, ``f_y``, ``f_xy``, …).  A method's 1-D slope rule
gives them, applied along the axes of S in ascending order, as interpax does:

    D_S = slopes along a of D_{S∖a},     a the last axis of S,

one rule per axis on the lines of every slot found so far (the subsets of
the axes before it), all of them columns of one call (Akima's, whose cutoff
is a maximum over the lines, one call per slot).

For a method linear in the data (cubic2, cubic, cardinal, catmull-rom) the
order does not matter and the interpolant is the 1-D method applied along
each axis in turn at the query point.  Given derivatives (``fx``, ``fy``,
``fxy``, …) replace the rule's; one not given comes from the rule, through
any given one on its way (``f_xy`` from a given ``f_x``).  cubic2's end
values apply to the lines of D_∅; the lines of D_S (S ≠ ∅) take their
derivatives along S, zero for values constant along the edges (the only ones
grids accept, `prepare`).

**What is stored, by d** (the reason: what a query then does):

- d = 1: the table of every piece's coefficients ``(n-1, k, degree+1)`` in
  its local coordinate (`_pieces.polynomials`), and ``end``, the values at
  the last break.  A query gathers its one row (4 numbers for a cubic), and
  scipy's classes (`PPoly`: derivatives, roots, integrals) need the table.
  The slope rules' output goes into the pieces as it comes, in units of each
  knot's cell (`_methods.units`): nothing of size Δf/h is formed, so no
  scale of the knots overflows.
- d ≥ 2: the node data ``nodes[i_0, …, i_{d-1}, k, S]`` (S the subset's bit
  mask), n_a entries per axis and 2^d slots: the data grow as the grid does.
  Evaluation sums each query's cell from its 2^d corners; a table of every
  cell would hold 4^d per cell.  "linear" has one slot, the
  values; "nearest" one value per piece (its breaks are the midpoints, so
  piece j is knot j's).

  Grid node data are kept in a unit per axis, ``P_a = 2^{k_a}``, the power of
  two just above the axis' span (`in_axis_units`): ``D̃_S = D_S ∏_{a∈S} P_a``.
  Widths in that unit, ``w = h · 2^{-k}``, are exact and O(1) — a product with
  a normal power of two, never a division by the span, which XLA turns into
  a product with ``1/span``, subnormal for spans above 8.5e37 in f32.  A
  rule's slope in its cell's width, divided by that width in units of P, is
  the node's D̃, and the pieces take back ``D̃ · w`` (the cell's own unit).  So
  node data are O(|f|) times ratios of widths, whatever the scale of the
  knots: in physical units a mixed derivative of O(1) data on spans of 1e-20
  would be 1e40 (f32 overflows), although each slope alone is fine.  (One
  unit per knot, as in 1-D, would not do: a node's mixed derivative is shared
  by the cells on both sides.)

Periodic axes are closed one after the other (`_pieces.periodic`); an axis
whose closing is decided by traced data doubles the work, and its closed
reading gets a break inserted in the middle of its last cell (a table row
split in two, or a node inserted: `_split_along`), so both readings have the
same shapes.
"""

import math
from functools import partial

import jax
import jax.numpy as jnp

from .._methods.ends import EndConditions
from .._methods.registry import Method, get_method
from .._methods.units import as_dydx, knot_units
from .._pieces.periodic import close_at_last_knot, fit_periodic, wrap_periodic_knots
from .._pieces.polynomials import split_last_piece
from .._utils.columns import column_values, restore_axis, to_columns
from .._utils.dtypes import span_units
from .._utils.validate import knots_are_valid, poison, poison_columns
from .prepare import FitArgs, FitSpec


def fit(args: FitArgs, spec: FitSpec):
    """Return ``(breaks, table, end)``: a tuple of breaks per axis, the stored pieces.

    ``table``: for d = 1 the pieces' coefficients ``(len(breaks) - 1, k,
    degree + 1)``, and ``end`` ``(k,)`` the values at the last break — the
    data's own, where the last piece's coefficient sum rounds away from them
    (`evaluate.at_last_break`); for d ≥ 2 the node data (module docstring)
    and ``end`` None.  Invalid knots, periods or tension (see
    `_utils.validate`) make every array — and every gradient through them —
    NaN; a column with a non-finite value, derivative or boundary value is
    NaN on its own.
    """
    data, options, valid = _prepared_data(args, spec)
    method = get_method(spec.method)
    bc_values = tuple(column_values(v, spec.column_shape, data.dtype) for v in args.bc_values)
    build = partial(_pieces_of, method, spec, bc_values, options)
    breaks, table = _close_periods(build, method, args.knots, data, args.periods, spec, 0)
    factor = poison(valid)
    columns = factor * poison_columns(table, axis=-2, by_slot=len(breaks) > 1)
    end = None
    if len(breaks) == 1:  # the last knot's values, or the first's where they close a period
        end = data[0 if spec.periodic[0] else -1, : math.prod(spec.column_shape)] * columns
    return tuple(b * factor for b in breaks), table * columns[:, None], end


jit_fit = jax.jit(fit, static_argnums=1)  # for the modules: one program per `FitSpec`


def knot_slopes(args: FitArgs, spec: FitSpec):
    """The 1-D method's slopes dy/dx at the knots, ``(n, k)`` (`approx_df`; no ``period``)."""
    data, options, valid = _prepared_data(args, spec)
    (xp,) = args.knots
    widths = jnp.diff(xp)
    bc_values = tuple(column_values(v, spec.column_shape, data.dtype) for v in args.bc_values)
    ends = EndConditions(spec.bc_kinds[0], bc_values)
    slopes = as_dydx(get_method(spec.method).slopes(widths, data, ends, **options), widths)
    return slopes * (poison(valid) * poison_columns(slopes, axis=1))


def _prepared_data(args: FitArgs, spec: FitSpec):
    """The values and given derivatives side by side, ``(n_0, …, n_{d-1}, k · (1 + given))``,
    closed at the last knot along the axes where ``bc_type="periodic"`` closes the period;
    the method's options; whether the knots (of axes without a period), the ends and the
    options are valid."""
    d = len(args.knots)
    data = jnp.concatenate([_grid_first(a, spec.axis, d) for a in (args.fp, *args.given)], -1)
    options, valid = method_options(args.tension)
    unwrapped = [xp for xp, period in zip(args.knots, args.periods) if period is None]
    if unwrapped:
        valid = valid & knots_are_valid(*unwrapped)
    for axis, (period, periodic) in enumerate(zip(args.periods, spec.periodic)):
        if periodic and period is None:  # its values must repeat the first ones
            closed, ends_valid = close_at_last_knot(jnp.moveaxis(data, axis, 0), spec.knot_eps)
            data, valid = jnp.moveaxis(closed, 0, axis), valid & ends_valid
    return data, options, valid


def _grid_first(array, axis: int, d: int):
    """``array``'s d grid axes (from ``axis`` on) first, every other axis flattened last."""
    moved = jnp.moveaxis(array, tuple(range(axis, axis + d)), tuple(range(d)))
    return jnp.reshape(moved, moved.shape[:d] + (math.prod(moved.shape[d:]),))


def method_options(tension):
    """The slope rule's options and whether they are valid (a traced tension may not be)."""
    if tension is None:
        return {}, jnp.bool_(True)
    return {"tension": tension}, (tension >= 0) & (tension <= 1)


def _close_periods(build, method: Method, knots, data, periods, spec: FitSpec, axis: int):
    """``build`` on knots closed along each axis from ``axis`` on that has a period."""
    if axis == len(knots):
        return build(knots, data)
    if periods[axis] is None:
        return _close_periods(build, method, knots, data, periods, spec, axis + 1)

    def along(knots_here, data_here):  # this axis' knots; data with this axis first
        knots_now = knots[:axis] + (knots_here,) + knots[axis + 1 :]
        data_now = jnp.moveaxis(data_here, 0, axis)
        return _close_periods(build, method, knots_now, data_now, periods, spec, axis + 1)

    split = _split_table if len(knots) == 1 else partial(_split_along, method, axis=axis)
    xp, data_along, wrapped = knots[axis], jnp.moveaxis(data, axis, 0), True
    if spec.closes_period[axis] is None:  # traced: the knots may pass the period
        xp, data_along, wrapped = wrap_periodic_knots(xp, data_along, periods[axis], spec.knot_eps)
    breaks, table, valid = fit_periodic(
        along, xp, data_along, periods[axis], spec.closes_period[axis], spec.knot_eps, split
    )
    factor = poison(valid & wrapped)  # invalid knots or ends make breaks and pieces NaN
    return tuple(b * factor for b in breaks), table * factor


def _pieces_of(method: Method, spec: FitSpec, bc_values, options, knots, data):
    """Breaks per axis and the stored pieces (module docstring) from closed knots and data."""
    d = len(knots)
    widths = tuple(_node_widths(xp, d) for xp in knots)
    values, *given = jnp.split(data, 1 + len(spec.given), axis=-1)
    given = {mask: _given_as_node(g, mask, knots, widths) for mask, g in zip(spec.given, given)}
    if d == 1:
        slopes = given.get(1)
        if slopes is None and method.slopes is not None:
            rule = partial(_slopes, method.slopes, widths[0], spec.bc_kinds[0], options, d)
            slopes = rule(values, *bc_values)
        breaks, table = method.pieces(knots[0], widths[0], values, slopes)
        return (breaks,), table
    nodes = values[..., None]  # (n_0, …, n_{d-1}, k, slots): D_∅
    if method.slopes is not None:
        for axis in range(d):
            nodes = jnp.concatenate(
                [nodes, _along_axis(method, spec, bc_values, options, widths, nodes, given, axis)],
                axis=-1,
            )
    return tuple(_breaks(method, xp, h) for xp, h in zip(knots, widths)), nodes


def _along_axis(method: Method, spec: FitSpec, bc_values, options, widths, nodes, given, axis: int):
    """The node data D_S of the subsets S whose last axis is ``axis``, ``(…, k, 2^axis)``:
    the slopes along it of every slot so far (``D_{S∖axis}``, in mask order), in one
    rule over all their lines — or one per slot for a rule with a maximum over its
    lines (Akima's cutoff is each D_S's own); the given ones replace the rule's."""
    masks = [1 << axis | mask for mask in range(nodes.shape[-1])]
    if all(mask in given for mask in masks):
        return jnp.stack([given[mask] for mask in masks], axis=-1)
    rule = partial(
        _slopes,
        method.grid_slopes or method.slopes,
        widths[axis],
        spec.bc_kinds[axis],
        options,
        len(widths),
    )
    if method.all_lines_at_once:  # a maximum per slot (as interpax's per derivative): no ends
        new = jnp.stack(
            [_along(rule, nodes[..., s], axis, at_once=True) for s in range(nodes.shape[-1])],
            axis=-1,
        )
    else:
        lines = jnp.reshape(nodes, nodes.shape[:-2] + (-1,))  # slots become columns
        ends = _line_ends(bc_values, nodes, axis)
        new = jnp.reshape(_along(rule, lines, axis, *ends), nodes.shape)
    if not any(mask in given for mask in masks):
        return new
    return jnp.stack([given.get(mask, new[..., s]) for s, mask in enumerate(masks)], axis=-1)


def _node_widths(xp, d: int):
    """The cell widths in the unit of the node data: the knots' own in 1-D (cubic2's
    boundary derivatives are given in it), the axis' P on grids."""
    widths = jnp.diff(xp)
    return widths if d == 1 else in_axis_units(widths, xp)


def _given_as_node(given, mask: int, knots, widths):
    """User-given derivatives (physical units) as node data: in 1-D the slopes in each
    knot's cell, ``s_i g_i`` (`_methods.units`); on grids ``D_S ∏_{a∈S} P_a``."""
    if len(knots) == 1:
        return given * knot_units(widths[0])[:, None]
    for axis in (a for a in range(len(knots)) if mask >> a & 1):
        given = given * span_units(knots[axis])[1]
    return given


def _slopes(rule, widths, kinds, options, d: int, lines, *ends):
    """The 1-D slope rule on ``(n, m)`` lines with their end values ``(m,)`` as node data."""
    u = rule(widths, lines, EndConditions(kinds, ends), **options)
    return u if d == 1 else as_dydx(u, widths)  # grids: D̃ = u / w


def _line_ends(bc_values, nodes, axis: int):
    """cubic2's end values for the lines along ``axis`` of ``nodes`` ``(…, k, slots)``,
    flattened as the lines' columns: they belong to the lines of values (slot 0); the
    lines of a derivative along other axes take zero."""
    rest = nodes.shape[:axis] + nodes.shape[axis + 1 : -1]  # the other axes, then k
    slots = nodes.shape[-1]
    return tuple(
        jnp.reshape(
            jnp.broadcast_to(_in_slot_zero(v, slots), rest + (slots,)),
            rest[:-1] + (rest[-1] * slots,),
        )
        for v in bc_values
    )


def _in_slot_zero(value, slots: int):
    """``value`` ``(k,)`` in slot 0 of ``(k, slots)``, ``0 · value`` in the others."""
    column = value[:, None]
    return jnp.concatenate(
        [column, jnp.broadcast_to(0 * column, (value.shape[0], slots - 1))], axis=1
    )


def _along(function, array, axis: int, *per_line, at_once: bool = False):
    """``function(lines, *line_values)`` on the lines of ``array`` along ``axis``.

    ``array`` is read as ``(before, n, after)`` and ``function`` mapped over
    ``before`` (`jax.vmap`) on ``(n, after)`` lines, ``per_line`` arrays (the
    array's shape without ``axis``) as ``(after,)`` values: the data stay where
    they lie.  Moving the axis to the front would transpose every array, and
    XLA:CPU fuses that transpose into the rule's first pass as strided reads.
    A rule with a quantity over every line (``at_once``: Akima's cutoff, a
    maximum; such rules take no end values) takes them in one call, as
    ``(n, before · after)``: a collective over a named map would not run in
    `jax.shard_map` nor export with a symbolic batch.
    """
    if at_once:
        lines, rest = to_columns(array, axis)
        return restore_axis(function(lines), rest, axis)
    shape = array.shape
    before = math.prod(shape[:axis])
    lines = jnp.reshape(array, (before, shape[axis], -1))
    values = [jnp.reshape(v, (before, -1)) for v in per_line]
    return jnp.reshape(jax.vmap(function)(lines, *values), shape)


def _breaks(method: Method, xp, widths):
    """The pieces' breaks along one axis: the knots, or "nearest"'s midpoints between them."""
    line = xp[:, None]  # the breaks do not depend on the data (the pieces are not kept)
    return method.pieces(xp, widths, line, line)[0]


def _split_table(breaks: tuple, table):
    """The 1-D table with its last piece cut in two at the midpoint (`split_last_piece`)."""
    cut, table = split_last_piece(breaks[0], table)
    return (cut,), table


def _split_along(method: Method, breaks: tuple, nodes, axis: int):
    """The same interpolant with the last cell along ``axis`` cut in two at its midpoint.

    A node is inserted between the last two along ``axis`` whose data give the
    two halves the cell's polynomial (`split_last_piece` on the cell's pieces
    along ``axis``): its value, and for Hermite data its slope in the axis'
    unit, ``S / w`` with S the right half's slope in its local coordinate and
    w its width in that unit — for every slot: the slots without ``axis`` hold
    values and those with it their slopes along ``axis``; the other axes are
    carried along linearly.  When the cell has no point inside, the new node
    repeats the start node, and the right cell keeps the polynomial whole.
    "nearest" holds one value per piece: the last one repeats.
    """
    lines, rest = to_columns(jnp.moveaxis(nodes, -1, 0), axis + 1)  # (n, slots × m)
    lines = jnp.reshape(lines, (lines.shape[0], nodes.shape[-1], -1))  # (n, slots, m)
    xp = breaks[axis]
    if nodes.shape[axis] != xp.shape[0]:  # "nearest": per-piece values
        cut, lines = split_last_piece(xp, lines[..., None])
        lines = lines[..., 0]
    else:
        cut, middle = _middle_node(method, xp, lines[-2:], 1 << axis)
        lines = jnp.concatenate([lines[:-1], middle[None], lines[-1:]])
    lines = jnp.reshape(lines, (lines.shape[0], -1))
    nodes = jnp.moveaxis(restore_axis(lines, rest, axis + 1), 0, -1)
    return breaks[:axis] + (cut,) + breaks[axis + 1 :], nodes


def _middle_node(method: Method, xp, last, bit: int):
    """The split breaks and the node at the cut of the last cell (``last``: its two nodes)."""
    width = _last_width(xp)[None]
    values = [s for s in range(last.shape[1]) if not s & bit]  # their slopes: s | bit
    slopes = [last[:, s | bit] if s | bit < last.shape[1] else None for s in values]
    pieces = [
        method.pieces(xp[-2:], width, last[:, s], None if slope is None else slope * width)[1]
        for s, slope in zip(values, slopes)
    ]
    cut, halves = split_last_piece(xp, jnp.stack(pieces, axis=1))  # (2, values, m, powers)
    inside = cut[-2] > xp[-2]
    right = jnp.where(inside, _last_width(cut), 1)
    middle = [None] * last.shape[1]
    for i, s in enumerate(values):
        middle[s] = halves[1, i, :, 0]  # the value at the cut (the start's if not inside)
        if slopes[i] is not None:  # S / w, or the start's slope if not inside
            middle[s | bit] = jnp.where(inside, halves[1, i, :, 1] / right, slopes[i][0])
    return cut, jnp.stack(middle)


def _last_width(xp):
    """The last cell's width in the axis' unit, as evaluation computes it."""
    return in_axis_units(xp[-1] - xp[-2], xp)


def in_axis_units(width, breaks):
    """``width`` (any shape) in the unit ``P = 2^k`` of the axis with these ``breaks``:
    ``width · 2^{-k}``, exact (module docstring).  Evaluation uses the same."""
    return width * span_units(breaks)[0]
