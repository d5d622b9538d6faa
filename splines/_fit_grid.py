"""Tensor-product fits: values on an N-d grid → breaks per axis and node data.

A tensor-product cubic Hermite interpolant is fixed, on each cell of the grid,
by its *node data* at the cell's 2^d corners: for every subset S of the axes
the mixed derivative ``D_S = ∂^|S| f / ∏_{a∈S} ∂x_a`` (``D_∅ = f``, then
``f_x``, ``f_y``, ``f_xy``, …).  A method's 1-D slope rule gives them, applied
along the axes of S in ascending order, as interpax does:

    D_S = slopes along a of D_{S∖a},     a the last axis of S.

For a method linear in the data (cubic2, cubic, cardinal, catmull-rom) the
order does not matter and the interpolant is the 1-D method applied along
each axis in turn at the query point.  Given derivatives (``fx``, ``fy``,
``fxy``, …) replace the rule's; one not given comes from the rule, through
any given one on its way (``f_xy`` from a given ``f_x``).

The node data are kept in a unit per axis, ``P_a = 2^{k_a}``, the power of two
just above the axis' span (the closed knots' extent ``breaks[a][-1] −
breaks[a][0]``, taken as ``x_{n-1}/2 − x_0/2`` so that it cannot overflow;
``k_a`` clipped so that ``2^{±k_a}`` are normal numbers: `in_axis_units`):
``D̃_S = D_S ∏_{a∈S} P_a``.  Widths in that unit, ``w = h · 2^{-k}``, are
exact and O(1) — a product with a normal power of two, never a division by
the span, which XLA turns into a product with ``1/span``, subnormal for spans
above 8.5e37 in f32.  The slope rules give each knot's slope in its cell's
width (`_slopes._units`), whatever the unit of the widths; divided by that
width in units of P (``u / (g / P)``) it is the node's D̃, and the pieces
rule scales it back with the cell's width (``S = D̃ · h / P = s · h``).  So
node data are O(|f|) times ratios of widths, whatever the scale of the
knots: in physical units a mixed derivative of O(1) data on spans of 1e-20
would be 1e40 (f32 overflows), although each slope alone is fine.  The fit
stops there and returns

    nodes[i_0, …, i_{d-1}, column, S]        (S the subset's bit mask),

n_a entries per axis, 2^d slots: the data grow as the grid does.  Evaluation
(`_evaluate_grid`) builds each query's cell polynomial from its 2^d corners;
a table of every cell's coefficients would hold 4^d per cell.  "linear" has
one slot, the values at the knots; "nearest" one value per piece (its breaks
are the midpoints, so piece j is knot j's).

Periodic axes are closed as in 1-D (`_periodic`), one axis after the other;
an axis whose closing is decided by traced data doubles the work, and its
closed reading gets a node inserted in the middle of its last cell
(`_split_along`), so both readings have the same shapes.
"""

from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ._boundary import PERIODIC, EndConditions, parse_bc_type
from ._dtypes import as_dtype, data_dtypes, result_type
from ._fit import (
    Names,
    check_axis,
    check_given_shape,
    check_method_options,
    method_options,
    tension,
)
from ._hermite import split_last_piece
from ._layout import restore_axis, to_columns
from ._methods import Method, get_method
from ._periodic import close_at_last_knot, fit_periodic
from ._slopes._units import as_dydx
from ._validate import (
    check_ends_match_eagerly,
    check_knots_eagerly,
    check_period_eagerly,
    check_values_eagerly,
    check_within_period_eagerly,
    finite_columns,
    is_concrete,
    knot_eps,
    knots_are_valid,
    poison,
)


class GridSpec(NamedTuple):
    """Static description of a grid fit: part of the jit cache key."""

    method: str
    bc_kinds: tuple  # per axis, the kinds of its two ends (PERIODIC on periodic axes)
    column_shape: tuple  # fp's shape after the grid axes
    closes_period: tuple  # per axis with a period: do its knots close it? (None: traced)
    knot_eps: float  # the knots' precision, for the closing tolerances
    given: tuple = ()  # masks of the given derivatives, in `GridArgs.given`'s order

    @property
    def periodic(self) -> tuple:
        return tuple(kinds[0] == PERIODIC for kinds in self.bc_kinds)


class GridArgs(NamedTuple):
    """The grid fit's array arguments, already in the data's dtypes."""

    knots: tuple
    fp: Any
    periods: tuple  # per axis, a scalar or None
    given: tuple = ()  # derivative arrays, fp's shape
    tension: Any = None  # cardinal's `c`; None for every other method


def prepare_grid_fit(knots, fp, method, bc_type, periods, c, given: dict, names: Names):
    """Validate and convert; return ``(GridSpec, GridArgs)``.  Raises ValueError/TypeError.

    ``given`` maps axis masks to user-given derivatives (None: not given).
    """
    rule = get_method(method)
    given = {mask: value for mask, value in sorted(given.items()) if value is not None}
    given_names = tuple(names.derivative(mask) for mask in given)
    all_given = len(given) == 2 ** len(knots) - 1
    check_method_options(method, rule, bc_type, c, given_names, all_given)
    if jnp.ndim(fp) < len(knots):
        raise ValueError(
            f"`fp` must have at least {len(knots)} dimensions, one per axis of the grid; "
            f"got shape {jnp.shape(fp)}."
        )
    for axis, (xp, name, period) in enumerate(zip(knots, names.knots, periods)):
        check_axis(xp, name, fp, axis, period, f"axis {axis}", names.values)
    for value, name in zip(given.values(), given_names):
        check_given_shape(value, name, fp, names.values)
    real, value = data_dtypes(*knots, fp, *given.values())
    args = GridArgs(
        tuple(as_dtype(xp, real) for xp in knots),
        as_dtype(fp, value),
        tuple(None if p is None else as_dtype(p, real) for p in periods),
        tuple(as_dtype(v, value) for v in given.values()),
        tension(c, real) if rule.takes_tension else None,
    )
    bc_kinds = _bc_kinds(bc_type, periods)
    eps = max(knot_eps(result_type(xp), real) for xp in knots)
    closes = _check_data_eagerly(args, bc_kinds, eps, names, given_names)
    spec = GridSpec(method, bc_kinds, jnp.shape(fp)[len(knots) :], closes, eps, tuple(given))
    return spec, args


def _bc_kinds(bc_type, periods) -> tuple:
    """End kinds per axis: periodic on axes with a period, ``bc_type``'s on the others.

    On a grid the end conditions must be homogeneous (zero values): the mixed
    derivatives would need the boundary values' derivatives along the other axes.
    """
    free = [p is None for p in periods]
    if bc_type is not None and not any(free) and bc_type != PERIODIC:
        raise ValueError(
            f"`bc_type`={bc_type!r} has no effect: every axis has a `period`. Leave it out."
        )
    ends = parse_bc_type(bc_type, periodic=False)
    if not all(is_concrete(v) and np.all(np.asarray(v) == 0) for v in ends.values):
        raise ValueError(
            f"`bc_type`={bc_type!r}: on a grid, end conditions take zero values only "
            "('natural', 'clamped', 'not-a-knot', 'periodic' or (order, 0)), since the mixed "
            "derivatives would need the values' derivatives along the other axes."
        )
    return tuple(ends.kinds if f else (PERIODIC, PERIODIC) for f in free)


def _check_data_eagerly(args: GridArgs, bc_kinds, eps, names: Names, given_names):
    """Raise on bad concrete data; say per axis whether the knots close its period."""
    for xp, name in zip(args.knots, names.knots):
        if is_concrete(xp):
            check_knots_eagerly(np.asarray(xp), name)
    arrays = ((args.fp, "fp"),) + tuple(zip(args.given, given_names))
    for values, name in arrays:
        if is_concrete(values):
            check_values_eagerly(np.asarray(values), name)
    closes = []
    for axis, (xp, period, kinds) in enumerate(zip(args.knots, args.periods, bc_kinds)):
        closes.append(None)
        if period is not None:
            if is_concrete(period):
                check_period_eagerly(np.asarray(period), f" along axis {axis}")
            if xp.shape[0] == 1:
                closes[-1] = False  # one knot cannot close a positive period
            elif is_concrete(xp, period):
                closes[-1] = check_within_period_eagerly(
                    np.asarray(xp), np.asarray(period), eps, names.knots[axis]
                )
        if kinds[0] == PERIODIC and (period is None or closes[-1]):
            for values, name in arrays:
                if is_concrete(values):
                    what = f"periodic data along axis {axis} (`{names.knots[axis]}`)"
                    check_ends_match_eagerly(np.asarray(values), axis, name, what, eps)
    return tuple(closes)


def fit_grid(args: GridArgs, spec: GridSpec):
    """Return ``(breaks, nodes)``: a tuple of breaks per axis and the node data.

    ``nodes[i_0, …, i_{d-1}, k, slot]`` (see the module's docstring).  Invalid
    knots, periods or tension make every break and node NaN; a column with a
    non-finite value or given derivative is NaN on its own.
    """
    d = len(args.knots)
    shape = args.fp.shape[:d] + (-1,)  # columns flattened: (n_0, …, n_{d-1}, k)
    data = jnp.concatenate([jnp.reshape(a, shape) for a in (args.fp, *args.given)], axis=-1)
    options, valid = method_options(args.tension)
    for axis, (period, periodic) in enumerate(zip(args.periods, spec.periodic)):
        if period is None:
            valid = valid & knots_are_valid(args.knots[axis])
        if periodic and period is None:  # bc_type="periodic": the last knot closes
            closed, ends_valid = close_at_last_knot(jnp.moveaxis(data, axis, 0), spec.knot_eps)
            data, valid = jnp.moveaxis(closed, 0, axis), valid & ends_valid
    method = get_method(spec.method)
    fit = partial(_tensor_nodes, method, spec, options)
    breaks, nodes = _fit_closed(fit, method, args.knots, data, args.periods, spec, 0)
    factor = poison(valid)
    columns = factor * poison(finite_columns(nodes, axis=-2))
    return tuple(b * factor for b in breaks), nodes * columns[:, None]


def _fit_closed(fit, method: Method, knots, data, periods, spec: GridSpec, axis: int):
    """``fit`` on knots closed along each axis from ``axis`` on that has a period."""
    if axis == len(knots):
        return fit(knots, data)
    if periods[axis] is None:
        return _fit_closed(fit, method, knots, data, periods, spec, axis + 1)

    def along(knots_here, data_here):  # this axis' knots; data with this axis first
        knots_now = knots[:axis] + (knots_here,) + knots[axis + 1 :]
        data_now = jnp.moveaxis(data_here, 0, axis)
        return _fit_closed(fit, method, knots_now, data_now, periods, spec, axis + 1)

    breaks, nodes, valid = fit_periodic(
        along, knots[axis], jnp.moveaxis(data, axis, 0), periods[axis],
        spec.closes_period[axis], spec.knot_eps, partial(_split_along, method, axis=axis),
    )  # fmt: skip
    factor = poison(valid)  # as in 1-D: invalid data make breaks and nodes NaN
    return tuple(b * factor for b in breaks), nodes * factor


def _tensor_nodes(method: Method, spec: GridSpec, options, knots, data):
    """Breaks per axis and node data from closed knots and stacked data columns.

    Node data are in each axis' unit P_a (see the module docstring).
    """
    widths = tuple(in_axis_units(jnp.diff(xp), xp) for xp in knots)
    breaks = tuple(_breaks(method, xp, h) for xp, h in zip(knots, widths))
    parts = jnp.split(data, 1 + len(spec.given), axis=-1)
    if method.slopes is None:  # "linear" on the knots, "nearest" one value per piece
        return breaks, parts[0][..., None]
    node = {0: parts[0]}
    for mask, given in zip(spec.given, parts[1:]):  # D̃_S = D_S ∏_{a∈S} P_a
        for axis in (a for a in range(len(knots)) if mask >> a & 1):
            given = given * _powers_of_two(knots[axis])[1]
        node[mask] = given
    for mask in range(1, 2 ** len(knots)):
        if mask not in node:
            axis = mask.bit_length() - 1  # the last axis of the subset
            ends = spec.bc_kinds[axis]
            rule = partial(_slopes, method.slopes, widths[axis], ends, options)
            node[mask] = _along(rule, node[mask ^ 1 << axis], axis)
    return breaks, jnp.stack([node[mask] for mask in range(2 ** len(knots))], axis=-1)


def _breaks(method: Method, xp, widths):
    """The pieces' breaks along one axis: the knots, or "nearest"'s midpoints between them."""
    line = xp[:, None]  # the breaks do not depend on the data (the pieces are not kept)
    return method.pieces(xp, widths, line, line)[0]


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
    pieces = [method.pieces(xp[-2:], width, last[:, s], slope)[1]
              for s, slope in zip(values, slopes)]  # fmt: skip
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
    return width * _powers_of_two(breaks)[0]


def _powers_of_two(breaks):
    """``(2^{-k}, 2^k)`` with ``2^k`` the power of two just above the span (``k`` clipped
    so that both are normal): the exponent of ``x_{n-1}/2 − x_0/2`` (no overflow), plus 1.

    Built from the exponent bits, exact; k is a discrete choice with no derivative
    (the interpolant does not depend on it).
    """
    info = jnp.finfo(breaks.dtype)
    _, e = jnp.frexp(jax.lax.stop_gradient(breaks[-1] / 2 - breaks[0] / 2))
    k = jnp.clip(e + 1, info.minexp, -info.minexp)  # |k| ≤ 126 (f32), 1022 (f64)
    return _power_of_two(-k, info), _power_of_two(k, info)


def _power_of_two(k, info):
    """``2^k`` for an integer k of the normal range: biased exponent bits, zero mantissa."""
    int_type = jnp.int32 if info.bits == 32 else jnp.int64
    bits = (k.astype(int_type) + (info.maxexp - 1)) << info.nmant
    return jax.lax.bitcast_convert_type(bits, info.dtype)


def _slopes(rule, widths, kinds, options, lines):
    """The 1-D slope rule on ``(n, m)`` lines, with homogeneous end conditions, as
    node data: the rule's slopes in each knot's cell (`_units`) over that cell's width."""
    zero = jnp.zeros(lines.shape[1:], lines.dtype)
    return as_dydx(rule(widths, lines, EndConditions(kinds, (zero, zero)), **options), widths)


def _along(function, array, axis: int):
    """``function`` on the lines of ``array`` along ``axis``, as ``(n, m)`` columns."""
    lines, rest = to_columns(array, axis)
    return restore_axis(function(lines), rest, axis)


