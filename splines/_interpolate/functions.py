"""`interp1d`, `interp2d`, `interp3d`, `interpn`: fit and evaluate in one jitted call.

Each names its arguments and calls the one pipeline (`_call`): the static half
of the fit (`prepare.plan_fit`), of the evaluation (`evaluation_plan`) and of the
queries, found in one lookup per call signature; the data half of the fit
(`prepare.fit_data`: conversions, eager checks); then `fit.fit` and
`evaluate.evaluate` in one program (`_interpolate`).  `interpn`, whose points
come as one array, plans its evaluation apart.
"""

from functools import partial
from typing import Any, Literal, NamedTuple

import jax
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._utils.dtypes import as_dtype, lists_to_arrays
from .._utils.eager_cache import memoized
from .evaluate import (
    EvalSpec,
    eval_spec,
    evaluate,
    query_dtypes,
)
from .fit import fit
from .options import parse_extrap, parse_grid_extrap, per_axis
from .prepare import (
    ArgumentNames,
    FitArgs,
    FitPlan,
    FitSpec,
    even_axes,
    fit_data,
    plan_fit,
    prepare_fit,
    present,
)
from .scipy_grid import (
    check_bounds,
    check_fill_kind,
    grid_method,
    onto_single_points,
    points_and_values,
    query_points,
    scipy_fill,
    widen_single_points,
)

Method = Literal["nearest", "linear", "cubic2", "cubic", "catmull-rom", "cardinal", "monotonic",
                 "monotonic-0", "akima", "makima"]  # fmt: skip

NAMES_1D = ArgumentNames()
GRID_NAMES = {
    2: ArgumentNames(("xp", "yp"), ("x", "y")),
    3: ArgumentNames(("xp", "yp", "zp"), ("x", "y", "z")),
}


def interp1d(
    x: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " n"],
    fp: Float[ArrayLike, "*shape"],
    method: Method = "cubic",
    derivative: int | tuple[int, ...] = 0,
    extrap: Any = False,
    period: Float[ArrayLike, ""] | None = None,
    even_spacing: bool | None = False,
    *,
    bc_type: Any = None,
    axis: int = 0,
    c: Float[ArrayLike, ""] | None = None,
    fx: Inexact[ArrayLike, "*shape"] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` sampled at knots ``xp`` to query points ``x``.

    Argument order follows `numpy.interp`: queries, knots, values; then interpax's
    (``method, derivative, extrap, period, even_spacing``, by position or name).

    Args:
        x: query points, any shape.
        xp: strictly increasing knots, shape ``(n,)``.
        fp: values; ``fp.shape[axis] == n``; every other axis is a column.
        method: ``"nearest"``, ``"linear"``, or a cubic (piecewise cubic
            Hermite) method: ``"cubic2"`` (C² spline from a tridiagonal
            solve, as `scipy.interpolate.CubicSpline`), ``"cubic"`` (C¹,
            mean of the neighbouring secants), ``"catmull-rom"``,
            ``"cardinal"`` (tension ``c``), ``"monotonic"`` (as
            `scipy.interpolate.PchipInterpolator`), ``"monotonic-0"`` (the
            same with zero end slopes), ``"akima"``, ``"makima"`` (as
            `scipy.interpolate.Akima1DInterpolator`).  See `approx_df`.
            The default is interpax's, ``"cubic"``; scipy's `CubicSpline` is
            ``"cubic2"``.
        bc_type: cubic2 end conditions, as scipy: ``"not-a-knot"`` (default),
            ``"natural"``, ``"clamped"``, ``"periodic"``, or a pair of ends, each
            a name or ``(order, value)`` with order 1 or 2.  Values are arrays
            (one per column, broadcast) and differentiable.
        derivative: static order of the derivative to evaluate (past the
            method's degree: zeros), or a tuple of orders, stacked on a new
            leading axis (one cell search for all).
        extrap: ``False`` → NaN outside ``[xp[0], xp[-1]]``; ``True`` → extend
            the end pieces; a number → that fill value; a (below, above) pair of
            these, as interpax's, e.g. ``(True, 0.0)``.  Periodic data wrap
            instead: leave ``extrap`` out.
        period: if given, queries wrap around and cubic2 is periodic.  The
            closing knot ``xp[0] + period`` may be included, with its value
            equal to the first (decided by the data, also when traced); knots
            past it wrap into ``[xp[0], xp[0] + period)`` and are sorted, and
            knots that then coincide are merged (their values must agree;
            traced knots cannot merge: NaN).
            ``bc_type="periodic"`` alone takes the period ``xp[-1] - xp[0]``.
        even_spacing: the knots are evenly spaced, so a query's piece is one
            multiply and a floor (plus one correcting step), no search: True
            (checked when the knots are concrete; traced, a query whose piece
            that misses is NaN), False (search), None (True when concrete knots
            are evenly spaced, each within a quarter spacing of its place).
            ``"nearest"``, whose pieces end between the knots, always searches.
        axis: the axis of ``fp`` along the knots.
        c: the tension of ``"cardinal"``, in [0, 1] (default 0, which is
            Catmull-Rom; 1 gives zero slopes); differentiable.
        fx: slopes dy/dx at the knots, ``fp``'s shape: with any cubic method
            they replace the method's (a cubic Hermite spline, as
            `scipy.interpolate.CubicHermiteSpline`); differentiable.

    Returns:
        Array of shape ``fp.shape[:axis] + x.shape + fp.shape[axis+1:]`` (with
        a leading axis of orders when ``derivative`` is a tuple), of dtype
        ``numpy.result_type(x, xp, fp, fx)`` (at least float32).

    Bad static input raises `ValueError`/`TypeError`.  Bad concrete data
    (knots not finite and strictly increasing, non-finite ``fp``, merged
    periodic knots with different values) raise `ValueError`; traced, they
    make every output and every gradient NaN (see `splines._utils.validate`).
    NaN queries give NaN.
    """
    x, xp, fp, period, fx = lists_to_arrays(x, xp, fp, period, fx)
    return _call((x,), (xp,), fp, method, derivative, extrap, (period,), even_spacing, bc_type,
                 axis, c, {1: fx}, NAMES_1D, one_axis=True)  # fmt: skip


def interp2d(
    x: Float[ArrayLike, "..."],
    y: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " nx"],
    yp: Float[ArrayLike, " ny"],
    fp: Inexact[ArrayLike, "nx ny *columns"],
    method: Method = "cubic",
    derivative: Any = 0,
    extrap: Any = False,
    period: Any = None,
    even_spacing: Any = False,
    *,
    bc_type: Any = None,
    c: Float[ArrayLike, ""] | None = None,
    fx: Inexact[ArrayLike, "nx ny *columns"] | None = None,
    fy: Inexact[ArrayLike, "nx ny *columns"] | None = None,
    fxy: Inexact[ArrayLike, "nx ny *columns"] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` on the grid ``xp × yp`` to the points ``(x, y)``.

    A tensor product: the 1-D ``method`` (see `interp1d`) along each axis.
    For the methods linear in the data (``"cubic2"``, ``"cubic"``,
    ``"catmull-rom"``, ``"cardinal"``) that is the 1-D interpolant along x,
    then along y, at the point; ``"linear"`` and ``"nearest"`` are
    `scipy.interpolate.RegularGridInterpolator`'s; the data-dependent
    ``"monotonic"``, ``"akima"``, ``"makima"`` take slopes and the mixed
    derivative from their 1-D rule along each axis in turn, as interpax.

    Args:
        x, y: query coordinates; they broadcast against each other.
        xp, yp: strictly increasing knots of each axis.
        fp: values, shape ``(len(xp), len(yp), *columns)``.
        method: as `interp1d`.
        derivative: orders ``(along x, along y)``, one int for both, or a
            sequence of such pairs, stacked on a new leading axis.
        extrap: as `interp1d`'s, for every axis (so ``(True, 0.0)`` is one
            (below, above) pair for both, as interpax reads it), or one per
            axis, e.g. ``((True, True), (0.0, 1.0))``; a point outside along
            both axes takes y's fill.
        period: one for both axes or one per axis, e.g. ``(2 * pi, None)``;
            as `interp1d`'s.
        even_spacing: one for both axes or one per axis; as `interp1d`'s.
        bc_type: ``"cubic2"``'s end conditions, on every axis without a period:
            names or ``(order, 0)`` (the mixed derivatives need homogeneous ends).
        c: ``"cardinal"``'s tension.
        fx, fy, fxy: derivatives at the knots (``fp``'s shape) that replace the
            method's; those not given come from the method.

    Returns:
        Shape ``broadcast(x, y).shape + columns`` (with a leading axis of
        derivatives when ``derivative`` is a sequence of pairs), dtype
        ``result_type(x, y, xp, yp, fp, fx, fy, fxy)`` (at least float32).

    Errors and invalid data as `interp1d`.
    """
    given = {1: fx, 2: fy, 3: fxy}
    return interp_grid((x, y), (xp, yp), fp, method, derivative, extrap, period, even_spacing,
                       bc_type, c, given, GRID_NAMES[2])  # fmt: skip


def interp3d(
    x: Float[ArrayLike, "..."],
    y: Float[ArrayLike, "..."],
    z: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " nx"],
    yp: Float[ArrayLike, " ny"],
    zp: Float[ArrayLike, " nz"],
    fp: Inexact[ArrayLike, "nx ny nz *columns"],
    method: Method = "cubic",
    derivative: Any = 0,
    extrap: Any = False,
    period: Any = None,
    even_spacing: Any = False,
    *,
    bc_type: Any = None,
    c: Float[ArrayLike, ""] | None = None,
    fx: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fy: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fz: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fxy: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fxz: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fyz: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
    fxyz: Inexact[ArrayLike, "nx ny nz *columns"] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` on the grid ``xp × yp × zp`` to the points ``(x, y, z)``.

    As `interp2d`, with a third axis: ``derivative`` orders are triples,
    per-axis ``extrap``/``period``/``even_spacing`` have three entries, and the given
    derivatives are ``fx, fy, fz, fxy, fxz, fyz, fxyz``.
    """
    given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
    return interp_grid((x, y, z), (xp, yp, zp), fp, method, derivative, extrap, period,
                       even_spacing, bc_type, c, given, GRID_NAMES[3])  # fmt: skip


def interpn(
    points: tuple,
    values: Inexact[ArrayLike, "*grid_and_columns"],
    xi: Any,
    method: str = "linear",
    bounds_error: bool = True,
    fill_value: Any = np.nan,
    *,
    period: Any = None,
    derivative: Any = 0,
    bc_type: Any = None,
    c: Float[ArrayLike, ""] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate on a regular grid of any number of dimensions, as `scipy.interpolate.interpn`.

    Args:
        points: d strictly ascending (or, concrete, strictly descending) 1-D
            arrays of knots, one per axis.
        values: shape ``(len(points[0]), …, len(points[d-1]), *columns)``.
        xi: the points, shape ``(..., d)``, or a tuple of d arrays that
            broadcast against each other.
        method: scipy's ``"linear"`` (default), ``"nearest"``, ``"slinear"``
            (linear), ``"cubic"`` and ``"cubic_legacy"`` (both the exact
            not-a-knot tensor-product spline, our ``"cubic2"``; scipy's
            ``"cubic"`` solves for it iteratively, to about 1e-3), or one of
            our methods (`interp1d`; ``"cubic"`` here is scipy's).
        bounds_error: raise `ValueError` for a concrete point outside the
            grid on an axis without a period (traced points there give NaN).
        fill_value: the value outside the grid when ``bounds_error`` is
            False; ``None`` extrapolates the end pieces.
        period: one per axis or one for all (None: not periodic), as
            `interp1d`'s; a periodic axis wraps and is never outside.
        derivative: orders per axis (one int for all, a tuple of d, or a
            sequence of such tuples, stacked on a new leading axis): scipy's
            ``nu`` of `RegularGridInterpolator.__call__`.
        bc_type: ``"cubic2"``'s end conditions with zero values (see `interp2d`);
            a pair's first end is at the smallest point of each axis, also
            when the points are given descending.
        c: ``"cardinal"``'s tension.

    Returns:
        Shape ``xi.shape[:-1] + columns`` (with a leading axis of results when
        ``derivative`` is a sequence of tuples), dtype ``result_type(points,
        values, xi)`` (at least float32).  Differentiable in ``points``,
        ``values`` and ``xi``; jittable and vmappable.

    Each point reads its cell's node data: 2^d numbers for linear, 4^d for the
    cubics (values and every mixed slope at 2^d corners), summed one axis at a
    time.  Memory grows as points × 4^d: in d = 6, 10^4 points gather 4096
    numbers each (330 MB in f64); evaluate such batches in chunks.
    """
    points, values = points_and_values(points, values)
    periods = per_axis(period, len(points), "period")
    extrap = scipy_fill(bounds_error, fill_value, periods)
    check_fill_kind(fill_value, values)
    names = scipy_names(len(points))
    wide, values, single = widen_single_points(points, values, periods)
    fit_spec, fit_args = prepare_grid(wide, values, grid_method(method), bc_type, period, c,
                                       {}, names)  # fmt: skip
    xi = query_points(xi, len(points), fit_args.knots[0].dtype)
    if bounds_error:
        check_bounds(xi, points, fit_spec.periodic)
    xi = onto_single_points(xi, points, single) if single else xi
    plan = memoized(evaluation_plan, (), (derivative, extrap),
                    (False, fit_spec, fit_args.fp.dtype, ()))  # fmt: skip
    return _interpolate_points(xi, fit_args, plan[1], fit_spec, plan[0])


def scipy_names(d: int) -> ArgumentNames:
    """scipy's names of a grid's arguments, for error messages."""
    return ArgumentNames(tuple(f"points[{a}]" for a in range(d)),
                 tuple(f"xi[..., {a}]" for a in range(d)), "values")  # fmt: skip


def interp_grid(queries, knots, fp, method, derivative, extrap, period, even_spacing, bc_type,
                c, given, names: ArgumentNames):  # fmt: skip
    """`interp2d`/`interp3d` on any number of axes (``given``: mask → derivative)."""
    knots, fp, periods, c, given = grid_arrays(knots, fp, period, c, given)
    return _call(lists_to_arrays(*queries), knots, fp, method, derivative, extrap, periods,
                 even_spacing, bc_type, 0, c, given, names, one_axis=False)  # fmt: skip


class CallPlan(NamedTuple):
    """What a call that fits and evaluates decides from its options and the arrays' types."""

    fit: FitPlan
    spec: EvalSpec
    fill: tuple  # per axis, (below, above)
    query_dtypes: tuple  # per query array
    queries_ready: bool  # each query array a jax array of its dtype already (`is_of_dtype`)


def _call(queries: tuple, knots: tuple, fp, method, derivative, extrap, periods: tuple,
          even_spacing, bc_type, axis, c, given: dict, names: ArgumentNames,
          one_axis: bool):  # fmt: skip
    """Fit and evaluate in one program, after one lookup of the call's plan (`memoized`).

    The arrays are numpy or jax arrays or Python scalars (`lists_to_arrays`).
    """
    masks, derivatives = present(given)
    arrays = (*queries, *knots, fp, *periods, *derivatives)
    plan = memoized(_plan_call, arrays, (method, bc_type, axis, derivative, extrap),
                    (len(queries), len(knots), masks, c is None, names, one_axis))  # fmt: skip
    spec, fit_args = fit_data(plan.fit, knots, fp, periods, derivatives, c, names)
    if not plan.queries_ready:
        queries = tuple(as_dtype(q, dtype) for q, dtype in zip(queries, plan.query_dtypes))
    evaluation = plan.spec
    if even_spacing is not False:
        evaluation = evaluation._replace(even=even_axes(even_spacing, fit_args, names))
    return _interpolate(queries, fit_args, plan.fill, spec, evaluation)


def _plan_call(*args) -> CallPlan:
    """The `CallPlan`; ``args``: `_call`'s arrays flat, its options, then ``(number of
    query arrays, d, masks, no_tension, names, one_axis)``."""
    *arrays, method, bc_type, axis, derivative, extrap = args[:-6]
    m, d, masks, no_tension, names, one_axis = args[-6:]
    queries = arrays[:m]
    fit = plan_fit(*arrays[m:], method, bc_type, axis, d, masks, no_tension, names)
    spec, fill = evaluation_plan(derivative, extrap, one_axis, fit.spec, fit.value)
    return CallPlan(fit, spec, fill, *query_dtypes(queries, fit.real, names.queries))


def prepare_grid(knots, fp, method, bc_type, period, c, given: dict, names: ArgumentNames):
    """Arrays from lists, one period per axis, and the checked fit."""
    knots, fp, periods, c, given = grid_arrays(knots, fp, period, c, given)
    return prepare_fit(knots, fp, method, bc_type, periods, 0, c, given, names)


def grid_arrays(knots, fp, period, c, given: dict) -> tuple:
    """``(knots, fp, periods, c, given)``: arrays from lists, one period per axis."""
    knots, (fp, c) = lists_to_arrays(*knots), lists_to_arrays(fp, c)
    periods = lists_to_arrays(*per_axis(period, len(knots), "period"))
    return knots, fp, periods, c, dict(zip(given, lists_to_arrays(*given.values())))


def evaluation_plan(derivative, extrap, one_axis: bool, fit_spec: FitSpec, dtype,
                    even: tuple = ()) -> tuple:  # fmt: skip
    """``(EvalSpec, fill)``: the evaluation's static half, kept per options (`memoized`).

    ``one_axis``: `interp1d`'s meaning of ``derivative`` (a tuple stacks orders)
    and ``extrap``; otherwise the grids' (a tuple gives one per axis).  ``even``:
    per axis, locate without a search (`even_axes`; empty: search everywhere).
    """
    if one_axis:
        extraps = (parse_extrap(extrap, fit_spec.periodic[0], dtype),)
    else:
        extraps = parse_grid_extrap(extrap, fit_spec.periodic, dtype)
    spec = eval_spec(derivative, one_axis, tuple(e.extend for e in extraps), fit_spec.periodic,
                     fit_spec.axis, fit_spec.column_shape, fit_spec.method, even)  # fmt: skip
    return spec, tuple(e.fill for e in extraps)


@partial(jax.jit, static_argnums=(3, 4))
def _interpolate(queries: tuple, fit_args: FitArgs, fill, fit_spec: FitSpec, spec: EvalSpec):
    breaks, table, end = fit(fit_args, fit_spec)
    return evaluate(queries, breaks, table, fill, spec, end)


@partial(jax.jit, static_argnums=(3, 4))
def _interpolate_points(xi, fit_args: FitArgs, fill, fit_spec: FitSpec, spec: EvalSpec):
    """`_interpolate` at the points ``xi`` ``(..., d)``: split into coordinates in the program."""
    queries = tuple(xi[..., a] for a in range(xi.shape[-1]))
    return _interpolate(queries, fit_args, fill, fit_spec, spec)
