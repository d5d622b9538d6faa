"""Fit once, evaluate many times: `Interpolator1D`, `Interpolator2D`, `Interpolator3D` and
`RegularGridInterpolator`, pytrees for jit/vmap/grad.

Each holds what `fit.fit` returns and calls `evaluate.evaluate`; they differ
only in how they name their arguments.
"""

import copy
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._utils.dtypes import lists_to_arrays
from .._utils.types import (
    ArrayInput,
    BcType,
    Extrap,
    GridExtrap,
    GridMethodName,
    GridOrders,
    MethodName,
    Order,
    Orders,
    PerAxis,
)
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
    """A fitted 1-D interpolant: `interp1d`, fitted once and evaluated per call.

    Holds a piecewise polynomial — breaks and per-piece coefficients, as
    scipy's `PPoly`, and the data's values at the last break — so a call only
    searches and runs Horner.  An equinox module: its fields are arrays, so it
    passes through `jax.jit`, a batch of interpolants over different knots is
    one `jax.vmap` away, and gradients flow to the data it was fitted from.

    Parameters
    ----------
    xp : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2`` (``n >= 1``
        with a ``period``).
    fp : array_like, shape (..., n, ...)
        Values at the knots, real or complex, ``fp.shape[axis] == n``; every
        other axis is a column.
    method : str, default "cubic"
        As `interp1d`'s: ``"nearest"``, ``"linear"``, ``"cubic2"``,
        ``"cubic"``, ``"catmull-rom"``, ``"cardinal"``, ``"monotonic"``,
        ``"monotonic-0"``, ``"akima"``, ``"makima"``.
    extrap : bool, scalar or (below, above) pair, default False
        Outside the knots: NaN (``False``), the end pieces extended
        (``True``), or a fill value; as `interp1d`'s.
    period : scalar, optional
        The data's period, as `interp1d`'s: queries wrap.
    even_spacing : bool or None, default None
        As `interp1d`'s, but by default ``None``: evenly spaced concrete knots
        are detected and located without a search.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions, as `interp1d`'s.
    axis : int, default 0
        The axis of ``fp`` along the knots.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].
    fx : array_like, optional
        Slopes at the knots, ``fp``'s shape, replacing a cubic method's.

    Attributes
    ----------
    breaks : jax.Array, shape (b,)
        The pieces' breakpoints: the knots (for ``"nearest"``, the end knots
        and the midpoints between knots).
    coefficients : jax.Array, shape (b - 1, k, d + 1)
        Per piece and column (k columns), the coefficients of the degree-d
        polynomial in ascending powers of the local coordinate
        ``t = (x − b_j) / (b_{j+1} − b_j)``.
    even_spacing : bool or None
        Whether a call locates its pieces without a search.

    Raises
    ------
    ValueError
        As `interp1d`'s: bad options, shapes, and bad concrete data.  Traced
        bad data (a fit under `jax.jit` or `jax.vmap`) give NaN values and
        gradients instead.
    TypeError
        An option of the wrong type.
    NotRealError
        Knots, period or tension not real.

    See Also
    --------
    interp1d : Fit and evaluate in one call; the methods' Notes.
    PPoly : scipy's interface to a piecewise polynomial.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp = jnp.linspace(0.0, 3.0, 4)
    >>> f = splines.Interpolator1D(xp, xp**2, method="cubic2")
    >>> print(np.round(np.asarray(f(jnp.array([0.5, 1.5]))), 6))
    [0.25 2.25]
    >>> print(f.even_spacing, f"{float(f(1.5, derivative=1)):.6f}")
    True 3.000000
    """

    breaks: Float[Array, " b"]
    coefficients: Float[Array, "b-1 k d"]  # ascending powers of (x − b_j) / (b_{j+1} − b_j)
    end: Inexact[Array, " k"]  # the values at the last break (`evaluate.at_last_break`)
    fill: Float[Array, "2"]  # (below, above), used unless extending or periodic
    extend: tuple[bool, bool] = eqx.field(static=True)  # (below, above): extend the end piece
    periodic: bool = eqx.field(static=True)
    method: MethodName = eqx.field(static=True)
    axis: int = eqx.field(static=True)
    column_shape: tuple[int, ...] = eqx.field(static=True)
    # (locate without a search,) or () (`even_axes`)
    even: tuple[bool | None, ...] = eqx.field(static=True)

    def __init__(
        self,
        xp: Float[ArrayInput, " n"],
        fp: Float[ArrayInput, "*shape"],
        method: MethodName = "cubic",
        extrap: Extrap = False,
        period: Float[ArrayLike, ""] | None = None,
        even_spacing: bool | None = None,
        *,
        bc_type: BcType = None,
        axis: int = 0,
        c: Float[ArrayLike, ""] | None = None,
        fx: Inexact[ArrayInput, "*shape"] | None = None,
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
        """Whether a call locates its pieces by arithmetic, without a search.

        interpax's attribute: ``True`` when the knots were declared or detected
        evenly spaced, ``False`` when a call searches, ``None`` when detection
        was asked for (``even_spacing=None``) but the knots were traced, so a
        call searches.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> splines.Interpolator1D(jnp.array([0.0, 1.0, 3.0]), jnp.zeros(3)).even_spacing
        False
        """
        return self.even[0]

    def __call__(
        self,
        x: Float[ArrayInput, "..."],
        derivative: Orders = 0,
        *,
        dx: Orders | None = None,
    ) -> Inexact[Array, "..."]:
        """Evaluate the interpolant, or its derivatives, at ``x``.

        Parameters
        ----------
        x : array_like, any shape
            Query points, real; NaN gives NaN.
        derivative : int or tuple of int, default 0
            The derivative's order, static, or a tuple of orders stacked on a
            new leading axis; as `interp1d`'s.
        dx : int or tuple of int, optional
            interpax's name for ``derivative``; when given, it is used instead.

        Returns
        -------
        y : jax.Array
            Shape ``fp.shape[:axis] + x.shape + fp.shape[axis+1:]``, with a
            leading axis of orders when ``derivative`` is a tuple; outside the
            knots as the fit's ``extrap``.

        Raises
        ------
        ValueError
            A negative order.
        TypeError
            An order that is not an int or a tuple of ints.
        NotRealError
            ``x`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> xp = jnp.linspace(0.0, 3.0, 4)
        >>> f = splines.Interpolator1D(xp, xp**2, method="cubic2")
        >>> print(np.round(np.asarray(f(jnp.array([1.0, 2.0]), (0, 1))), 6))
        [[1. 4.]
         [2. 4.]]
        """
        derivative = derivative if dx is None else dx
        queries, spec = planned_call(
            lists_to_arrays(x),
            derivative,
            True,
            self.breaks.dtype,
            ("x",),
            (self.extend,),
            (self.periodic,),
            self.axis,
            self.column_shape,
            self.method,
            self.even,
        )
        return jit_evaluate(
            queries, (self.breaks,), self.coefficients, (self.fill,), spec, self.end
        )


class TensorSpline(eqx.Module):
    """A fitted interpolant on a grid of any number of axes (the array fields of the grid
    interpolators); `fit_grid` fits one.

    It holds breaks per axis and the node data (`fit`): values and mixed
    derivatives at the knots, n_a per axis (for one axis, the pieces' table
    and the values at the last break); a call builds each query's cell
    polynomial from them.
    """

    breaks: tuple[Float[Array, " b"], ...]  # per axis
    nodes: Inexact[Array, "..."]  # node data [i_0, …, i_{d-1}, column, slot] (`fit`)
    end: Inexact[Array, " k"] | None  # one axis: the values at the last break; else None
    fill: Inexact[Array, "d 2"]  # per axis (below, above), used unless extending or periodic
    extend: tuple[tuple[bool, bool], ...] = eqx.field(static=True)
    periodic: tuple[bool, ...] = eqx.field(static=True)
    method: MethodName = eqx.field(static=True)
    column_shape: tuple[int, ...] = eqx.field(static=True)
    names: ArgumentNames = eqx.field(static=True)
    # per axis: locate without a search (`even_axes`)
    even: tuple[bool | None, ...] = eqx.field(static=True)

    def __call__(
        self, queries: tuple[ArrayInput, ...], derivative: GridOrders
    ) -> Inexact[Array, "..."]:
        queries, spec = planned_call(
            lists_to_arrays(*queries),
            derivative,
            False,
            self.breaks[0].dtype,
            self.names.queries,
            self.extend,
            self.periodic,
            0,
            self.column_shape,
            self.method,
            self.even,
        )
        return jit_evaluate(queries, self.breaks, self.nodes, self.fill, spec, self.end)


def fit_grid(
    knots: tuple[ArrayInput, ...],
    fp: ArrayInput,
    method: MethodName,
    bc_type: BcType,
    extrap: GridExtrap,
    period: PerAxis[ArrayLike | None],
    c: ArrayLike | None,
    given: dict[int, ArrayInput | None],
    names: ArgumentNames,
    even_spacing: PerAxis[bool | None] = False,
) -> TensorSpline:
    """The `TensorSpline` of a method on a grid: checked (`prepare_grid`), fitted (`fit`)."""
    spec, args = prepare_grid(knots, fp, method, bc_type, period, c, given, names)
    even = even_axes(even_spacing, args, names)
    extraps = parse_grid_extrap(extrap, spec.periodic, args.fp.dtype)
    breaks, nodes, end = jit_fit(args, spec)
    fill = jnp.stack([fill_array(e.fill, args.fp.dtype) for e in extraps])
    extend = tuple(e.extend for e in extraps)
    return TensorSpline(
        breaks, nodes, end, fill, extend, spec.periodic, spec.method, spec.column_shape, names, even
    )


def call_orders(orders: tuple, derivative) -> Any:
    """The derivative a grid interpolator's call asks for: interpax's orders per axis
    (``dx, dy, …``) or ours, ``derivative``, by name or in ``dx``'s place."""
    if derivative is None and isinstance(orders[0], (tuple, list)):
        derivative, orders = orders[0], (0, *orders[1:])
    if derivative is None:
        return orders
    if any(isinstance(o, (tuple, list)) or o != 0 for o in orders):
        raise TypeError(
            f"give the orders either as dx, dy, … or as derivative, not both: "
            f"got {orders} and derivative={derivative!r}"
        )
    return derivative


def grid_eval_spec(spline: TensorSpline, derivative) -> EvalSpec:
    """The evaluation's static half for ``derivative`` (orders per axis).  A function, not
    a method: equinox builds a bound-method module on every method access (~30 µs)."""
    return eval_spec(
        derivative,
        False,
        spline.extend,
        spline.periodic,
        0,
        spline.column_shape,
        spline.method,
        spline.even,
    )


class Interpolator2D(eqx.Module):
    """A fitted 2-D interpolant on the grid ``xp × yp``: `interp2d`, fitted once.

    It holds the breaks and the node data (values and slopes at the knots),
    so a call only searches, gathers each query's cell and sums it one axis
    at a time.  An equinox module: it passes through `jax.jit`, a batch of
    interpolants is one `jax.vmap` away, and gradients flow to the data.

    Parameters
    ----------
    xp : array_like, shape (nx,)
        Knots along x, real, finite and strictly increasing.
    yp : array_like, shape (ny,)
        Knots along y, likewise.
    fp : array_like, shape (nx, ny, ...)
        Values, real or complex; further axes are columns.
    method : str, default "cubic"
        As `interp1d`'s.
    extrap : bool, scalar, pair, or one per axis, default False
        As `interp2d`'s.
    period : scalar, None, or one per axis, optional
        As `interp2d`'s.
    even_spacing : bool, None, or one per axis, default None
        As `interp1d`'s, per axis; by default evenly spaced concrete knots are
        detected.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions with zero values, as `interp2d`'s.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].
    fx, fy, fxy : array_like, optional
        Derivatives at the knots, ``fp``'s shape, replacing the method's.

    Attributes
    ----------
    even_spacing : tuple of (bool or None)
        Per axis, whether a call locates its cell without a search.

    Raises
    ------
    ValueError
        As `interp2d`'s.  Traced bad data give NaN values and gradients.
    TypeError
        An option of the wrong type.
    NotRealError
        Knots, periods or tension not real.

    See Also
    --------
    interp2d : Fit and evaluate in one call.
    RegularGridInterpolator : Any number of dimensions, scipy's interface.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp, yp = jnp.arange(3.0), jnp.arange(4.0)
    >>> f = splines.Interpolator2D(xp, yp, xp[:, None] + 2 * yp[None, :])
    >>> print(np.round(np.asarray(f(jnp.array([0.5, 1.25]), jnp.array([1.5, 2.0]))), 6))
    [3.5  5.25]
    >>> print(f"{float(f(0.5, 1.5, dy=1)):.6f}", f.even_spacing)
    2.000000 (True, True)
    """

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayInput, " nx"],
        yp: Float[ArrayInput, " ny"],
        fp: Inexact[ArrayInput, "nx ny *columns"],
        method: MethodName = "cubic",
        extrap: GridExtrap = False,
        period: PerAxis[Float[ArrayLike, ""] | None] = None,
        even_spacing: PerAxis[bool | None] = None,
        *,
        bc_type: BcType = None,
        c: Float[ArrayLike, ""] | None = None,
        fx: Inexact[ArrayInput, "nx ny *columns"] | None = None,
        fy: Inexact[ArrayInput, "nx ny *columns"] | None = None,
        fxy: Inexact[ArrayInput, "nx ny *columns"] | None = None,
    ):
        given = {1: fx, 2: fy, 3: fxy}
        self.spline = fit_grid(
            (xp, yp), fp, method, bc_type, extrap, period, c, given, GRID_NAMES[2], even_spacing
        )

    @property
    def even_spacing(self) -> tuple[bool | None, ...]:
        """Per axis, whether a call locates its cell without a search.

        As `Interpolator1D.even_spacing`, one entry per axis.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> x = jnp.array([0.0, 1.0, 3.0])
        >>> splines.Interpolator2D(x, jnp.arange(3.0), jnp.zeros((3, 3))).even_spacing
        (False, True)
        """
        return self.spline.even

    def __call__(
        self,
        x: Float[ArrayInput, "..."],
        y: Float[ArrayInput, "..."],
        dx: GridOrders = 0,
        dy: Order = 0,
        *,
        derivative: GridOrders | None = None,
    ) -> Inexact[Array, "..."]:
        """Evaluate the interpolant, or its derivatives, at the points ``(x, y)``.

        Parameters
        ----------
        x, y : array_like
            Query coordinates, real; they broadcast against each other.
        dx : int, default 0
            The order along x, as interpax's; or, in its place, what
            ``derivative`` takes (a pair or a sequence of pairs).
        dy : int, default 0
            The order along y, as interpax's.
        derivative : (int, int), int, or sequence of pairs, optional
            The orders as `interp2d`'s ``derivative``: then ``dx`` and ``dy``
            must be left 0.

        Returns
        -------
        z : jax.Array
            Shape ``broadcast(x, y).shape + fp.shape[2:]``, with a leading
            axis of results for a sequence of pairs.

        Raises
        ------
        TypeError
            Orders given both as ``dx``/``dy`` and as ``derivative``, or not
            ints.
        ValueError
            A negative order.
        NotRealError
            ``x`` or ``y`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> xp, yp = jnp.arange(3.0), jnp.arange(4.0)
        >>> f = splines.Interpolator2D(xp, yp, xp[:, None] * yp[None, :], method="linear")
        >>> print(np.round(np.asarray(f(0.5, 1.5, derivative=[(0, 0), (1, 0), (0, 1)])), 6))
        [0.75 1.5  0.5 ]
        """
        return self.spline((x, y), call_orders((dx, dy), derivative))


class Interpolator3D(eqx.Module):
    """A fitted 3-D interpolant on the grid ``xp × yp × zp``: `interp3d`, fitted once.

    As `Interpolator2D`, with a third axis: it holds the breaks and the node
    data (values and every mixed slope at the knots), so a call only
    searches, gathers each query's cell and sums it one axis at a time.  An
    equinox module: it passes through `jax.jit`, `jax.vmap` and `jax.grad`.

    Parameters
    ----------
    xp : array_like, shape (nx,)
        Knots along x, real, finite and strictly increasing.
    yp : array_like, shape (ny,)
        Knots along y, likewise.
    zp : array_like, shape (nz,)
        Knots along z, likewise.
    fp : array_like, shape (nx, ny, nz, ...)
        Values, real or complex; further axes are columns.
    method : str, default "cubic"
        As `interp1d`'s.
    extrap : bool, scalar, pair, or one per axis, default False
        As `interp3d`'s.
    period : scalar, None, or one per axis, optional
        As `interp3d`'s.
    even_spacing : bool, None, or one per axis, default None
        As `interp1d`'s, per axis; by default evenly spaced concrete knots are
        detected.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions with zero values, as `interp2d`'s.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].
    fx, fy, fz, fxy, fxz, fyz, fxyz : array_like, optional
        Derivatives at the knots, ``fp``'s shape, replacing the method's.

    Attributes
    ----------
    even_spacing : tuple of (bool or None)
        Per axis, whether a call locates its cell without a search.

    Raises
    ------
    ValueError
        As `interp3d`'s.  Traced bad data give NaN values and gradients.
    TypeError
        An option of the wrong type.
    NotRealError
        Knots, periods or tension not real.

    See Also
    --------
    interp3d : Fit and evaluate in one call.
    RegularGridInterpolator : Any number of dimensions, scipy's interface.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp, yp, zp = jnp.arange(3.0), jnp.arange(4.0), jnp.arange(2.0)
    >>> fp = xp[:, None, None] + 2 * yp[None, :, None] + 3 * zp[None, None, :]
    >>> f = splines.Interpolator3D(xp, yp, zp, fp, method="linear")
    >>> print(f"{float(f(0.5, 1.5, 0.5)):.6f}", f"{float(f(0.5, 1.5, 0.5, dz=1)):.6f}")
    5.000000 3.000000
    """

    spline: TensorSpline

    def __init__(
        self,
        xp: Float[ArrayInput, " nx"],
        yp: Float[ArrayInput, " ny"],
        zp: Float[ArrayInput, " nz"],
        fp: Inexact[ArrayInput, "nx ny nz *columns"],
        method: MethodName = "cubic",
        extrap: GridExtrap = False,
        period: PerAxis[Float[ArrayLike, ""] | None] = None,
        even_spacing: PerAxis[bool | None] = None,
        *,
        bc_type: BcType = None,
        c: Float[ArrayLike, ""] | None = None,
        fx: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fy: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fz: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fxy: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fxz: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fyz: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
        fxyz: Inexact[ArrayInput, "nx ny nz *columns"] | None = None,
    ):
        given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
        self.spline = fit_grid(
            (xp, yp, zp), fp, method, bc_type, extrap, period, c, given, GRID_NAMES[3], even_spacing
        )

    @property
    def even_spacing(self) -> tuple[bool | None, ...]:
        """Per axis, whether a call locates its cell without a search.

        As `Interpolator1D.even_spacing`, one entry per axis.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> x = jnp.array([0.0, 1.0, 3.0])
        >>> splines.Interpolator3D(x, x, jnp.arange(3.0), jnp.zeros((3, 3, 3))).even_spacing
        (False, False, True)
        """
        return self.spline.even

    def __call__(
        self,
        x: Float[ArrayInput, "..."],
        y: Float[ArrayInput, "..."],
        z: Float[ArrayInput, "..."],
        dx: GridOrders = 0,
        dy: Order = 0,
        dz: Order = 0,
        *,
        derivative: GridOrders | None = None,
    ) -> Inexact[Array, "..."]:
        """Evaluate the interpolant, or its derivatives, at the points ``(x, y, z)``.

        Parameters
        ----------
        x, y, z : array_like
            Query coordinates, real; they broadcast against each other.
        dx : int, default 0
            The order along x, as interpax's; or, in its place, what
            ``derivative`` takes (a triple or a sequence of triples).
        dy, dz : int, default 0
            The orders along y and z, as interpax's.
        derivative : (int, int, int), int, or sequence of triples, optional
            The orders as `interp3d`'s ``derivative``: then ``dx``, ``dy`` and
            ``dz`` must be left 0.

        Returns
        -------
        w : jax.Array
            Shape ``broadcast(x, y, z).shape + fp.shape[3:]``, with a leading
            axis of results for a sequence of triples.

        Raises
        ------
        TypeError
            Orders given both as ``dx``/``dy``/``dz`` and as ``derivative``,
            or not ints.
        ValueError
            A negative order.
        NotRealError
            A coordinate not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> p = jnp.arange(3.0)
        >>> fp = p[:, None, None] * p[None, :, None] * p[None, None, :]
        >>> f = splines.Interpolator3D(p, p, p, fp, method="linear")
        >>> print(np.round(np.asarray(f(0.5, 1.0, 2.0, derivative=[(0, 0, 0), (1, 0, 0)])), 6))
        [1. 2.]
        """
        return self.spline((x, y, z), call_orders((dx, dy, dz), derivative))


class RegularGridInterpolator(eqx.Module):
    """Interpolation on a regular grid of any number of dimensions, as scipy's.

    `scipy.interpolate.RegularGridInterpolator` in JAX: `interpn`, fitted
    once (the cubic methods solve here, not per call).  A call takes points
    ``xi`` of shape ``(..., d)`` and, as scipy's, derivative orders ``nu`` per
    axis.  An equinox module: `jax.jit`, `jax.vmap` and `jax.grad` go through
    it.

    Parameters
    ----------
    points : tuple of d array_like, each of shape (n_a,), or an array of shape (d, n)
        The grid's knots per axis (an array: one axis per row, as scipy), real, finite and strictly ascending (or,
        when concrete, strictly descending).  An axis of one point is
        scipy's: the data are constant along it.
    values : array_like, shape (n_0, ..., n_{d-1}, ...)
        The values on the grid, real or complex; further axes are columns.
    method : str, default "linear"
        As `interpn`'s: scipy's ``"linear"``, ``"nearest"``, ``"slinear"``,
        ``"cubic"``, ``"cubic_legacy"`` (``"cubic"`` is the not-a-knot spline,
        our ``"cubic2"``), or one of our methods.
    bounds_error : bool, default True
        Raise for a concrete point outside the grid on an axis without a
        period (traced points there give NaN).
    fill_value : scalar or None, default nan
        The value outside the grid when ``bounds_error`` is False; ``None``
        extends the end pieces.
    period : scalar, None, or one per axis, optional
        As `interp1d`'s, per axis; a periodic axis is never outside.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions with zero values (see `interp2d`).
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].

    Attributes
    ----------
    grid : tuple of jax.Array
        The points, each ascending (scipy's attribute).
    values : jax.Array
        The values on that grid.
    method : str
        The method as given.
    bounds_error : bool
        As given; assignable, as scipy's.
    fill_value : jax.Array or None
        As given; assignable, as scipy's.

    Raises
    ------
    ValueError
        As `interpn`'s, for the fit.  Traced bad data give NaN values and
        gradients.
    TypeError
        ``points`` not a tuple or list, ``bounds_error`` not a bool.
    NotRealError
        Points, periods or tension not real.

    See Also
    --------
    interpn : Fit and evaluate in one call.
    Interpolator2D, Interpolator3D : interpax's argument names.

    Notes
    -----
    ``rgi.fill_value = v`` and ``rgi.bounds_error = b`` change the
    interpolator in place, as scipy's attributes do: an eager idiom (inside a
    jitted function, build a new interpolator).  A ``method`` at call time
    other than the fitted one refits from ``grid`` and ``values``, without
    ``bc_type`` and ``c``, which scipy's methods do not take.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x, y = jnp.arange(3.0), jnp.arange(4.0)
    >>> rgi = splines.RegularGridInterpolator((x, y), x[:, None] + 2 * y[None, :], method="cubic")
    >>> print(np.round(np.asarray(rgi(jnp.array([[0.5, 1.5], [1.25, 2.0]]))), 6))
    [3.5  5.25]
    >>> rgi.bounds_error, rgi.fill_value = False, 0.0
    >>> print(np.round(np.asarray(rgi(jnp.array([[5.0, 1.0]]))), 6))
    [0.]
    """

    spline: TensorSpline
    grid: tuple[Float[Array, " n"], ...]  # the points, ascending
    values: Inexact[Array, "..."]  # the values on that grid
    periods: tuple[Float[Array, ""] | None, ...]  # per axis, its period or None
    method: GridMethodName = eqx.field(static=True)  # as given (scipy's name or ours)
    bounds_error: bool = eqx.field(static=True)
    # the axes of one point (`widen_single_points`)
    single: tuple[int, ...] = eqx.field(static=True)
    if TYPE_CHECKING:  # scipy's `rgi.fill_value = 0.0`: any scalar in (`__setattr__`), an array out

        @property
        def fill_value(self) -> Inexact[Array, ""] | None: ...
        @fill_value.setter
        def fill_value(self, value: Inexact[ArrayLike, ""] | None) -> None: ...
    else:
        fill_value: Inexact[Array, ""] | None  # None: extend; an array leaf: may be traced

    def __init__(
        self,
        points: Sequence[Float[ArrayInput, " n"]] | Float[ArrayInput, "d n"],
        values: Inexact[ArrayInput, "*grid_and_columns"],
        method: GridMethodName = "linear",
        bounds_error: bool = True,
        fill_value: Inexact[ArrayLike, ""] | None = np.nan,
        *,
        period: PerAxis[Float[ArrayLike, ""] | None] = None,
        bc_type: BcType = None,
        c: Float[ArrayLike, ""] | None = None,
    ):
        points, values = points_and_values(points, values)
        periods = per_axis(period, len(points), "period")
        extrap = scipy_fill(bounds_error, fill_value, periods)
        check_fill_kind(fill_value, values)
        wide, wide_values, self.single = widen_single_points(points, values, periods)
        self.spline = fit_grid(
            wide,
            wide_values,
            grid_method(method),
            bc_type,
            extrap,
            period,
            c,
            {},
            scipy_names(len(points)),
        )
        real, value = self.spline.breaks[0].dtype, self.spline.nodes.dtype
        self.grid = tuple(jnp.asarray(p, real) for p in points)
        self.values = jnp.asarray(values, value)
        self.periods = tuple(None if p is None else jnp.asarray(p, real) for p in periods)
        self.method, self.bounds_error = method, bool(bounds_error)
        self.fill_value = None if fill_value is None else jnp.asarray(fill_value)

    def __setattr__(self, name: str, value: Any) -> None:
        """scipy's ``rgi.fill_value = v`` and ``rgi.bounds_error = b``: in place, as scipy's
        attributes (an eager idiom; a jitted function should build a new interpolator)."""
        if name not in ("fill_value", "bounds_error") or "fill_value" not in self.__dict__:
            return super().__setattr__(name, value)  # (equinox: only during __init__)
        fill, bounds = (
            (value, self.bounds_error) if name == "fill_value" else (self.fill_value, bool(value))
        )
        check_fill_kind(fill, self.values)
        spline = copy.copy(self.spline)
        extraps = parse_grid_extrap(
            scipy_fill(bounds, fill, self.periods), spline.periodic, spline.nodes.dtype
        )
        fills = jnp.stack([fill_array(e.fill, spline.nodes.dtype) for e in extraps])
        object.__setattr__(spline, "fill", fills)
        object.__setattr__(spline, "extend", tuple(e.extend for e in extraps))
        object.__setattr__(self, "spline", spline)
        object.__setattr__(self, "bounds_error", bounds)
        object.__setattr__(self, "fill_value", None if fill is None else jnp.asarray(fill))

    def __call__(
        self,
        xi: Float[ArrayInput, "... d"],
        method: GridMethodName | None = None,
        *,
        nu: GridOrders | None = None,
    ) -> Inexact[Array, "..."]:
        """Evaluate the interpolant, or its derivatives, at the points ``xi``.

        Parameters
        ----------
        xi : array_like, shape (..., d), or tuple of d array_like
            The points, or their d coordinate arrays (which broadcast), real;
            as `interpn`'s.
        method : str, optional
            scipy's: another method than the fitted one refits from ``grid``
            and ``values`` for this call (without ``bc_type`` and ``c``).
        nu : int, tuple of d ints, or sequence of such tuples, optional
            Derivative orders per axis (default: none), as scipy's ``nu``; a
            sequence of tuples stacks its results on a new leading axis.

        Returns
        -------
        y : jax.Array
            Shape ``xi.shape[:-1] + values.shape[d:]``, with a leading axis of
            results for a sequence of tuples.

        Raises
        ------
        ValueError
            A concrete point outside the grid with ``bounds_error``, ``xi``
            whose last axis is not d, an unknown ``method``, a negative order.
        TypeError
            An order that is not an int.
        NotRealError
            ``xi`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> x, y = jnp.arange(3.0), jnp.arange(4.0)
        >>> rgi = splines.RegularGridInterpolator((x, y), x[:, None] * y[None, :])
        >>> print(np.round(np.asarray(rgi(jnp.array([[0.5, 1.5]]), nu=(1, 0))), 6))
        [1.5]
        >>> print(np.round(np.asarray(rgi((jnp.array([0.5, 1.0]), 2.0), method="nearest")), 6))
        [0. 2.]
        """
        spline = self.spline
        if method is not None and grid_method(method) != spline.method:  # (not an alias)
            extrap = scipy_fill(self.bounds_error, self.fill_value, self.periods)
            wide, values, _ = widen_single_points(self.grid, self.values, self.periods)
            spline = fit_grid(
                wide,
                values,
                grid_method(method),
                None,
                extrap,
                self.periods,
                None,
                {},
                spline.names,
            )
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
