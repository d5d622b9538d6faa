"""`interp2d`, `interp3d`: fit on a grid and evaluate in one jitted call.

Both are thin layers over one N-d implementation (`_fit_grid`,
`_evaluate_grid`); they only name the arguments of each axis.
"""

from functools import partial
from typing import Any, NamedTuple, Optional

import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float, Inexact

from ._boundary import parse_grid_extrap, per_axis
from ._dtypes import lists_to_arrays
from ._evaluate import prepare_queries
from ._evaluate_grid import GridEvalSpec, evaluate_grid, grid_eval_spec
from ._fit import Names
from ._fit_grid import GridArgs, GridSpec, fit_grid, prepare_grid_fit
from ._interp import Method

NAMES = {2: Names(("xp", "yp"), ("x", "y")), 3: Names(("xp", "yp", "zp"), ("x", "y", "z"))}


class GridFit(NamedTuple):
    """A prepared grid fit: what `fit_grid` needs, and the evaluation options it implies."""

    spec: GridSpec
    args: GridArgs
    extrap: tuple  # per axis, `_boundary.Extrapolation`

    @property
    def extend(self) -> tuple:
        return tuple(e.extend for e in self.extrap)

    @property
    def fill(self):
        """``(d, 2)``: each axis' (below, above) fill values."""
        return jnp.stack([jnp.stack(e.fill) for e in self.extrap])


def prepare_grid(knots, fp, method, bc_type, extrap, period, c, given, names) -> GridFit:
    """Arrays from lists, per-axis options and the checked fit (for functions and modules)."""
    knots, given_values = lists_to_arrays(*knots), lists_to_arrays(*given.values())
    fp, c = lists_to_arrays(fp, c)
    periods = tuple(lists_to_arrays(*per_axis(period, len(knots), "period")))
    given = dict(zip(given, given_values))
    spec, args = prepare_grid_fit(knots, fp, method, bc_type, periods, c, given, names)
    return GridFit(spec, args, parse_grid_extrap(extrap, spec.periodic, args.fp.dtype))


def prepare_grid_queries(queries, real_dtype, names: Names) -> tuple:
    queries = lists_to_arrays(*queries)
    return tuple(prepare_queries(q, real_dtype, n) for q, n in zip(queries, names.queries))


def interp_grid(queries, knots, fp, method, derivative, extrap, period, bc_type, c, given):
    """`interp2d`/`interp3d` for any number of axes (``given``: mask → derivative)."""
    names = NAMES[len(knots)]
    fit = prepare_grid(knots, fp, method, bc_type, extrap, period, c, given, names)
    spec = grid_eval_spec(derivative, fit.extend, fit.spec.periodic, fit.spec.method,
                          fit.spec.column_shape)  # fmt: skip
    queries = prepare_grid_queries(queries, fit.args.knots[0].dtype, names)
    return _interp_grid(queries, fit.args, fit.fill, fit.spec, spec)


@partial(jax.jit, static_argnums=(3, 4))
def _interp_grid(queries, args: GridArgs, fill, fit_spec: GridSpec, spec: GridEvalSpec):
    breaks, nodes = fit_grid(args, fit_spec)
    return evaluate_grid(queries, breaks, nodes, fill, spec)


def interp2d(
    x: Float[ArrayLike, "..."],
    y: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " nx"],
    yp: Float[ArrayLike, " ny"],
    fp: Inexact[ArrayLike, "nx ny *columns"],
    method: Method = "cubic2",
    *,
    derivative: Any = (0, 0),
    extrap: Any = False,
    period: Any = None,
    bc_type: Any = None,
    c: Optional[Float[ArrayLike, ""]] = None,
    fx: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
    fy: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
    fxy: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
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
        extrap: as `interp1d`'s, for every axis, or one per axis, e.g.
            ``(True, (0.0, 1.0))``; a point outside along both axes takes y's
            fill.
        period: one for both axes or one per axis, e.g. ``(2 * pi, None)``;
            as `interp1d`'s.
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
    return interp_grid((x, y), (xp, yp), fp, method, derivative, extrap, period, bc_type, c,
                       given)  # fmt: skip


def interp3d(
    x: Float[ArrayLike, "..."],
    y: Float[ArrayLike, "..."],
    z: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " nx"],
    yp: Float[ArrayLike, " ny"],
    zp: Float[ArrayLike, " nz"],
    fp: Inexact[ArrayLike, "nx ny nz *columns"],
    method: Method = "cubic2",
    *,
    derivative: Any = (0, 0, 0),
    extrap: Any = False,
    period: Any = None,
    bc_type: Any = None,
    c: Optional[Float[ArrayLike, ""]] = None,
    fx: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fy: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fz: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fxy: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fxz: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fyz: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
    fxyz: Optional[Inexact[ArrayLike, "nx ny nz *columns"]] = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` on the grid ``xp × yp × zp`` to the points ``(x, y, z)``.

    As `interp2d`, with a third axis: ``derivative`` orders are triples,
    per-axis ``extrap``/``period`` have three entries, and the given
    derivatives are ``fx, fy, fz, fxy, fxz, fyz, fxyz``.
    """
    given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
    return interp_grid((x, y, z), (xp, yp, zp), fp, method, derivative, extrap, period,
                       bc_type, c, given)  # fmt: skip
