"""`Interpolator2D`, `Interpolator3D`: fit on a grid once, evaluate many times.

Both hold one `TensorSpline` — breaks per axis and the node data — and only
name the arguments of each axis.
"""

from typing import Any, Optional

import equinox as eqx
import jax
from jaxtyping import Array, ArrayLike, Float, Inexact

from ._evaluate_grid import evaluate_grid, grid_eval_spec
from ._fit import Names
from ._fit_grid import fit_grid
from ._interp_grid import NAMES, prepare_grid, prepare_grid_queries


class TensorSpline(eqx.Module):
    """A fitted tensor-product interpolant (the array fields of a grid interpolator).

    It holds the node data (`_fit_grid`): values and mixed derivatives at the
    knots, n_a per axis; a call builds each query's cell polynomial from them.
    """

    breaks: tuple  # per axis
    nodes: Inexact[Array, "..."]  # node data [i_0, …, i_{d-1}, column, slot] (`_fit_grid`)
    fill: Inexact[Array, "d 2"]  # per axis (below, above), used unless extending or periodic
    extend: tuple = eqx.field(static=True)
    periodic: tuple = eqx.field(static=True)
    method: str = eqx.field(static=True)
    column_shape: tuple = eqx.field(static=True)
    names: Names = eqx.field(static=True)

    def __init__(self, knots, fp, method, bc_type, extrap, period, c, given):
        names = NAMES[len(knots)]
        fit = prepare_grid(knots, fp, method, bc_type, extrap, period, c, given, names)
        self.breaks, self.nodes = _fit_grid(fit.args, fit.spec)
        self.fill, self.extend, self.periodic = fit.fill, fit.extend, fit.spec.periodic
        self.method = fit.spec.method
        self.column_shape, self.names = fit.spec.column_shape, names

    def __call__(self, queries: tuple, derivative) -> Inexact[Array, "..."]:
        spec = grid_eval_spec(derivative, self.extend, self.periodic, self.method,
                              self.column_shape)  # fmt: skip
        queries = prepare_grid_queries(queries, self.breaks[0].dtype, self.names)
        return _evaluate_grid(queries, self.breaks, self.nodes, self.fill, spec)


class Interpolator2D(eqx.Module):
    """A fitted 2-D interpolant on the grid ``xp × yp`` (see `interp2d` for the arguments).

    Its `TensorSpline` holds breaks and node data, so a call only searches,
    builds each query's cell polynomial and runs Horner; a batch of
    interpolants is one `jax.vmap` away.
    """

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayLike, " nx"],
        yp: Float[ArrayLike, " ny"],
        fp: Inexact[ArrayLike, "nx ny *columns"],
        method: str = "cubic2",
        *,
        extrap: Any = False,
        period: Any = None,
        bc_type: Any = None,
        c: Optional[Float[ArrayLike, ""]] = None,
        fx: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
        fy: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
        fxy: Optional[Inexact[ArrayLike, "nx ny *columns"]] = None,
    ):
        given = {1: fx, 2: fy, 3: fxy}
        self.spline = TensorSpline((xp, yp), fp, method, bc_type, extrap, period, c, given)

    def __call__(
        self, x: Float[ArrayLike, "..."], y: Float[ArrayLike, "..."], derivative: Any = (0, 0)
    ) -> Inexact[Array, "..."]:
        """Values (or derivatives, as `interp2d`'s ``derivative``) at the points ``(x, y)``."""
        return self.spline((x, y), derivative)


class Interpolator3D(eqx.Module):
    """A fitted 3-D interpolant on the grid ``xp × yp × zp`` (see `interp3d`)."""

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayLike, " nx"],
        yp: Float[ArrayLike, " ny"],
        zp: Float[ArrayLike, " nz"],
        fp: Inexact[ArrayLike, "nx ny nz *columns"],
        method: str = "cubic2",
        *,
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
    ):
        given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
        knots = (xp, yp, zp)
        self.spline = TensorSpline(knots, fp, method, bc_type, extrap, period, c, given)

    def __call__(
        self,
        x: Float[ArrayLike, "..."],
        y: Float[ArrayLike, "..."],
        z: Float[ArrayLike, "..."],
        derivative: Any = (0, 0, 0),
    ) -> Inexact[Array, "..."]:
        """Values (or derivatives, as `interp3d`'s ``derivative``) at the points ``(x, y, z)``."""
        return self.spline((x, y, z), derivative)


_fit_grid = jax.jit(fit_grid, static_argnums=1)
_evaluate_grid = jax.jit(evaluate_grid, static_argnums=4)
