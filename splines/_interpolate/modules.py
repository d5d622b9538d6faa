"""Fit once, evaluate many times: `Interpolator1D`, `Interpolator2D`, `Interpolator3D` and
`RegularGridInterpolator`, pytrees for jit/vmap/grad.

Each holds what `fit.fit` returns and calls `evaluate.evaluate`; they differ
only in how they name their arguments.
"""

import copy
from functools import partial
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._utils.dtypes import lists_to_arrays
from .evaluate import (
    EvalSpec,
    eval_spec,
    evaluate,
    jit_evaluate,
    planned_call,
)
from .fit import jit_fit
from .functions import GRID_NAMES, prepare_grid, scipy_names
from .options import fill_array, parse_extrap, parse_grid_extrap, per_axis
from .prepare import ArgumentNames, even_axes, prepare_fit
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


class Interpolator1D(eqx.Module):
    """A fitted 1-D interpolant (see `interp1d` for the arguments).

    Holds a piecewise polynomial — breaks and per-piece coefficients, as
    scipy's `PPoly`, and the data's values at the last break — so a call only
    searches and runs Horner.  Fields are arrays, so a batch of interpolants
    over different grids is one `jax.vmap` away, and gradients flow to the
    coefficients.
    """

    breaks: Float[Array, " b"]
    coefficients: Float[Array, "b-1 k d"]  # ascending powers of (x − b_j) / (b_{j+1} − b_j)
    end: Inexact[Array, " k"]  # the values at the last break (`evaluate.at_last_break`)
    fill: Float[Array, "2"]  # (below, above), used unless extending or periodic
    extend: tuple = eqx.field(static=True)  # (below, above): extend the end piece
    periodic: bool = eqx.field(static=True)
    method: str = eqx.field(static=True)
    axis: int = eqx.field(static=True)
    column_shape: tuple = eqx.field(static=True)
    even: tuple = eqx.field(static=True)  # (locate without a search,) or () (`even_axes`)

    def __init__(
        self,
        xp: Float[ArrayLike, " n"],
        fp: Float[ArrayLike, "*shape"],
        method: str = "cubic",
        extrap: Any = False,
        period: Float[ArrayLike, ""] | None = None,
        even_spacing: bool | None = None,
        *,
        bc_type: Any = None,
        axis: int = 0,
        c: Float[ArrayLike, ""] | None = None,
        fx: Inexact[ArrayLike, "*shape"] | None = None,
    ):
        xp, fp, period, fx = lists_to_arrays(xp, fp, period, fx)
        spec, args = prepare_fit((xp,), fp, method, bc_type, (period,), axis, c, {1: fx})
        extrap = parse_extrap(extrap, spec.periodic[0], args.fp.dtype)
        (self.breaks,), self.coefficients, self.end = jit_fit(args, spec)
        self.fill = fill_array(extrap.fill, args.fp.dtype)
        self.extend, self.periodic = extrap.extend, spec.periodic[0]
        self.method = spec.method
        self.axis, self.column_shape = spec.axis, spec.column_shape
        self.even = even_axes(even_spacing, args, ArgumentNames())

    @property
    def even_spacing(self) -> bool | None:
        """Whether a call locates pieces by arithmetic (interpax's attribute; None: the
        knots were traced when detection was asked for, so a call searches)."""
        return self.even[0]

    def __call__(
        self, x: Float[ArrayLike, "..."], derivative: int | tuple[int, ...] = 0, *,
        dx: int | None = None,
    ) -> Inexact[Array, "..."]:  # fmt: skip
        """Values (or derivatives: an order or a tuple of orders) at ``x``; as `interp1d`.
        ``dx``: interpax's name for ``derivative``."""
        derivative = derivative if dx is None else dx
        queries, spec = planned_call(lists_to_arrays(x), derivative, True, self.breaks.dtype,
                                     ("x",), (self.extend,), (self.periodic,), self.axis,
                                     self.column_shape, self.method, self.even)  # fmt: skip
        return jit_evaluate(queries, (self.breaks,), self.coefficients, (self.fill,), spec,
                            self.end)  # fmt: skip


class TensorSpline(eqx.Module):
    """A fitted interpolant on a grid of any number of axes (the array fields of the grid
    interpolators).

    It holds breaks per axis and the node data (`fit`): values and mixed
    derivatives at the knots, n_a per axis (for one axis, the pieces' table
    and the values at the last break); a call builds each query's cell
    polynomial from them.
    """

    breaks: tuple  # per axis
    nodes: Inexact[Array, "..."]  # node data [i_0, …, i_{d-1}, column, slot] (`fit`)
    end: Inexact[Array, " k"] | None  # one axis: the values at the last break; else None
    fill: Inexact[Array, "d 2"]  # per axis (below, above), used unless extending or periodic
    extend: tuple = eqx.field(static=True)
    periodic: tuple = eqx.field(static=True)
    method: str = eqx.field(static=True)
    column_shape: tuple = eqx.field(static=True)
    names: ArgumentNames = eqx.field(static=True)
    even: tuple = eqx.field(static=True)  # per axis: locate without a search (`even_axes`)

    def __init__(self, knots, fp, method, bc_type, extrap, period, c, given, names: ArgumentNames,
                 even_spacing=False):  # fmt: skip
        spec, args = prepare_grid(knots, fp, method, bc_type, period, c, given, names)
        self.even = even_axes(even_spacing, args, names)
        extraps = parse_grid_extrap(extrap, spec.periodic, args.fp.dtype)
        self.breaks, self.nodes, self.end = jit_fit(args, spec)
        self.fill = jnp.stack([fill_array(e.fill, args.fp.dtype) for e in extraps])
        self.extend, self.periodic = tuple(e.extend for e in extraps), spec.periodic
        self.method, self.column_shape, self.names = spec.method, spec.column_shape, names

    def __call__(self, queries: tuple, derivative) -> Inexact[Array, "..."]:
        queries, spec = planned_call(lists_to_arrays(*queries), derivative, False,
                                     self.breaks[0].dtype, self.names.queries, self.extend,
                                     self.periodic, 0, self.column_shape, self.method,
                                     self.even)  # fmt: skip
        return jit_evaluate(queries, self.breaks, self.nodes, self.fill, spec, self.end)


def call_orders(orders: tuple, derivative) -> Any:
    """The derivative a grid interpolator's call asks for: interpax's orders per axis
    (``dx, dy, …``) or ours, ``derivative``, by name or in ``dx``'s place."""
    if derivative is None and isinstance(orders[0], (tuple, list)):
        derivative, orders = orders[0], (0, *orders[1:])
    if derivative is None:
        return orders
    if any(isinstance(o, (tuple, list)) or o != 0 for o in orders):
        raise TypeError(f"give the orders either as dx, dy, … or as derivative, not both: "
                        f"got {orders} and derivative={derivative!r}")  # fmt: skip
    return derivative


def grid_eval_spec(spline: TensorSpline, derivative) -> EvalSpec:
    """The evaluation's static half for ``derivative`` (orders per axis).  A function, not
    a method: equinox builds a bound-method module on every method access (~30 µs)."""
    return eval_spec(derivative, False, spline.extend, spline.periodic, 0, spline.column_shape,
                     spline.method, spline.even)  # fmt: skip


class Interpolator2D(eqx.Module):
    """A fitted 2-D interpolant on the grid ``xp × yp`` (see `interp2d` for the arguments).

    Its `TensorSpline` holds breaks and node data, so a call only searches,
    gathers each query's cell and sums it one axis at a time; a batch of
    interpolants is one `jax.vmap` away.
    """

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayLike, " nx"],
        yp: Float[ArrayLike, " ny"],
        fp: Inexact[ArrayLike, "nx ny *columns"],
        method: str = "cubic",
        extrap: Any = False,
        period: Any = None,
        even_spacing: Any = None,
        *,
        bc_type: Any = None,
        c: Float[ArrayLike, ""] | None = None,
        fx: Inexact[ArrayLike, "nx ny *columns"] | None = None,
        fy: Inexact[ArrayLike, "nx ny *columns"] | None = None,
        fxy: Inexact[ArrayLike, "nx ny *columns"] | None = None,
    ):
        given = {1: fx, 2: fy, 3: fxy}
        self.spline = TensorSpline((xp, yp), fp, method, bc_type, extrap, period, c, given,
                                   GRID_NAMES[2], even_spacing)  # fmt: skip

    @property
    def even_spacing(self) -> tuple:
        """Per axis, as `Interpolator1D.even_spacing`."""
        return self.spline.even

    def __call__(
        self, x: Float[ArrayLike, "..."], y: Float[ArrayLike, "..."], dx: Any = 0, dy: int = 0,
        *, derivative: Any = None,
    ) -> Inexact[Array, "..."]:  # fmt: skip
        """Values or derivatives at the points ``(x, y)``: orders ``dx, dy`` as interpax's,
        or ``derivative`` as `interp2d`'s (also in ``dx``'s place: a pair or a sequence of
        pairs)."""
        return self.spline((x, y), call_orders((dx, dy), derivative))


class Interpolator3D(eqx.Module):
    """A fitted 3-D interpolant on the grid ``xp × yp × zp`` (see `interp3d`)."""

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayLike, " nx"],
        yp: Float[ArrayLike, " ny"],
        zp: Float[ArrayLike, " nz"],
        fp: Inexact[ArrayLike, "nx ny nz *columns"],
        method: str = "cubic",
        extrap: Any = False,
        period: Any = None,
        even_spacing: Any = None,
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
    ):
        given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
        self.spline = TensorSpline((xp, yp, zp), fp, method, bc_type, extrap, period, c, given,
                                   GRID_NAMES[3], even_spacing)  # fmt: skip

    @property
    def even_spacing(self) -> tuple:
        """Per axis, as `Interpolator1D.even_spacing`."""
        return self.spline.even

    def __call__(
        self,
        x: Float[ArrayLike, "..."],
        y: Float[ArrayLike, "..."],
        z: Float[ArrayLike, "..."],
        dx: Any = 0,
        dy: int = 0,
        dz: int = 0,
        *,
        derivative: Any = None,
    ) -> Inexact[Array, "..."]:
        """Values or derivatives at the points ``(x, y, z)``: orders ``dx, dy, dz`` as
        interpax's, or ``derivative`` as `interp3d`'s (also in ``dx``'s place)."""
        return self.spline((x, y, z), call_orders((dx, dy, dz), derivative))


class RegularGridInterpolator(eqx.Module):
    """Interpolation on a regular grid of any number of dimensions, as
    `scipy.interpolate.RegularGridInterpolator` (see `interpn` for the arguments).

    Fitted once (the cubic methods solve here, not per call); a call takes
    points ``xi`` of shape ``(..., d)`` and, as scipy's, derivative orders
    ``nu`` per axis.  A ``method`` at call time other than the fitted one
    refits from ``grid`` and ``values`` (scipy's attributes, kept for it),
    without ``bc_type`` and ``c``, which scipy's methods do not take.
    A pytree: jit, vmap and grad go through it.
    """

    spline: TensorSpline
    grid: tuple  # the points, ascending
    values: Inexact[Array, "..."]  # the values on that grid
    periods: tuple  # per axis, its period or None
    method: str = eqx.field(static=True)  # as given (scipy's name or ours)
    bounds_error: bool = eqx.field(static=True)
    single: tuple = eqx.field(static=True)  # the axes of one point (`widen_single_points`)
    fill_value: Inexact[Array, ""] | None  # None: extend; an array leaf: may be traced

    def __init__(
        self,
        points: tuple,
        values: Inexact[ArrayLike, "*grid_and_columns"],
        method: str = "linear",
        bounds_error: bool = True,
        fill_value: Any = np.nan,
        *,
        period: Any = None,
        bc_type: Any = None,
        c: Float[ArrayLike, ""] | None = None,
    ):
        points, values = points_and_values(points, values)
        periods = per_axis(period, len(points), "period")
        extrap = scipy_fill(bounds_error, fill_value, periods)
        check_fill_kind(fill_value, values)
        wide, wide_values, self.single = widen_single_points(points, values, periods)
        self.spline = TensorSpline(wide, wide_values, grid_method(method), bc_type, extrap,
                                   period, c, {}, scipy_names(len(points)))  # fmt: skip
        real, value = self.spline.breaks[0].dtype, self.spline.nodes.dtype
        self.grid = tuple(jnp.asarray(p, real) for p in points)
        self.values = jnp.asarray(values, value)
        self.periods = tuple(None if p is None else jnp.asarray(p, real) for p in periods)
        self.method, self.bounds_error = method, bool(bounds_error)
        self.fill_value = None if fill_value is None else jnp.asarray(fill_value)

    def __setattr__(self, name: str, value) -> None:
        """scipy's ``rgi.fill_value = v`` and ``rgi.bounds_error = b``: in place, as scipy's
        attributes (an eager idiom; a jitted function should build a new interpolator)."""
        if name not in ("fill_value", "bounds_error") or "fill_value" not in self.__dict__:
            return super().__setattr__(name, value)  # (equinox: only during __init__)
        fill, bounds = (value, self.bounds_error) if name == "fill_value" else (
            self.fill_value, bool(value))  # fmt: skip
        check_fill_kind(fill, self.values)
        spline = copy.copy(self.spline)
        extraps = parse_grid_extrap(scipy_fill(bounds, fill, self.periods), spline.periodic,
                                    spline.nodes.dtype)  # fmt: skip
        fills = jnp.stack([fill_array(e.fill, spline.nodes.dtype) for e in extraps])
        object.__setattr__(spline, "fill", fills)
        object.__setattr__(spline, "extend", tuple(e.extend for e in extraps))
        object.__setattr__(self, "spline", spline)
        object.__setattr__(self, "bounds_error", bounds)
        object.__setattr__(self, "fill_value", None if fill is None else jnp.asarray(fill))

    def __call__(self, xi: Any, method: str | None = None, *, nu: Any = None):
        """The interpolant (or its derivatives of orders ``nu`` per axis) at ``xi``."""
        spline = self.spline
        if method is not None and grid_method(method) != spline.method:  # (not an alias)
            extrap = scipy_fill(self.bounds_error, self.fill_value, self.periods)
            wide, values, _ = widen_single_points(self.grid, self.values, self.periods)
            spline = TensorSpline(wide, values, grid_method(method), None, extrap,
                                  self.periods, None, {}, spline.names)  # fmt: skip
        xi = query_points(xi, len(self.grid), spline.breaks[0].dtype)
        if self.bounds_error:
            check_bounds(xi, self.grid, spline.periodic)
        xi = onto_single_points(xi, self.grid, self.single) if self.single else xi
        spec = grid_eval_spec(spline, 0 if nu is None else nu)
        return _evaluate_points(xi, spline.breaks, spline.nodes, spline.fill, spec, spline.end)


@partial(jax.jit, static_argnums=4)
def _evaluate_points(xi, breaks, nodes, fill, spec: EvalSpec, end):
    """`evaluate` at the points ``xi`` ``(..., d)``, split into coordinates in the program."""
    queries = tuple(xi[..., a] for a in range(xi.shape[-1]))
    return evaluate(queries, breaks, nodes, fill, spec, end)
