"""`interp1d`, `interp2d`, `interp3d`, `interpn`: fit and evaluate in one jitted call.

Each names its arguments and calls the one pipeline (`_call`): the static half
of the fit (`prepare.plan_fit`), of the evaluation (`evaluation_plan`) and of the
queries, found in one lookup per call signature; the data half of the fit
(`prepare.fit_data`: conversions, eager checks); then `fit.fit` and
`evaluate.evaluate` in one program (`_interpolate`).  `interpn`, whose points
come as one array, plans its evaluation apart.
"""

from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

import jax
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._utils.dtypes import as_dtype, lists_to_arrays
from .._utils.eager_cache import memoized
from .._utils.types import (
    ArrayInput,
    BcType,
    Extrap,
    GridExtrap,
    GridMethodName,
    GridOrders,
    MethodName,
    Orders,
    PerAxis,
)
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

NAMES_1D = ArgumentNames()
GRID_NAMES = {
    2: ArgumentNames(("xp", "yp"), ("x", "y")),
    3: ArgumentNames(("xp", "yp", "zp"), ("x", "y", "z")),
}


def interp1d(
    x: Float[ArrayInput, "..."],
    xp: Float[ArrayInput, " n"],
    fp: Float[ArrayInput, "*shape"],
    method: MethodName = "cubic",
    derivative: Orders = 0,
    extrap: Extrap = False,
    period: Float[ArrayLike, ""] | None = None,
    even_spacing: bool | None = False,
    *,
    bc_type: BcType = None,
    axis: int = 0,
    c: Float[ArrayLike, ""] | None = None,
    fx: Inexact[ArrayInput, "*shape"] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` sampled at knots ``xp`` to query points ``x``.

    Fits a piecewise polynomial through ``(xp, fp)`` and evaluates it, or its
    derivatives, at ``x``: one jitted program, differentiable w.r.t. ``x``,
    ``xp``, ``fp`` and the array options, vmappable.  The argument order follows
    `numpy.interp` (queries, knots, values), then interpax's (``method,
    derivative, extrap, period, even_spacing``, by position or name).  To
    evaluate one fit many times, use `Interpolator1D`.

    Parameters
    ----------
    x : array_like, any shape
        Query points, real.  NaN queries give NaN.
    xp : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2`` (``n >= 1``
        with a ``period``).
    fp : array_like, shape (..., n, ...)
        Values at the knots, real or complex, with ``fp.shape[axis] == n``;
        every other axis is a column, fitted on its own.
    method : str, default "cubic"
        ``"nearest"`` (scipy's: a midpoint takes the left value),
        ``"linear"``, or one of the piecewise cubic Hermite methods, which
        differ in the slopes they give the knots (see Notes): ``"cubic2"``
        (the C² spline of `scipy.interpolate.CubicSpline`), ``"cubic"``
        (C¹, interpax's default), ``"catmull-rom"``, ``"cardinal"``,
        ``"monotonic"`` (as `scipy.interpolate.PchipInterpolator`),
        ``"monotonic-0"`` (the same, zero slopes at both ends), ``"akima"``,
        ``"makima"`` (as `scipy.interpolate.Akima1DInterpolator`).
    derivative : int or tuple of int, default 0
        The order of the derivative to evaluate, static (past the method's
        degree: zeros); or a tuple of orders, whose results are stacked on a
        new leading axis (one search for all).
    extrap : bool, scalar or (below, above) pair, default False
        Outside ``[xp[0], xp[-1]]``: ``False`` gives NaN, ``True`` extends the
        end pieces, a number is the fill value; or a ``(below, above)`` pair
        of these, as interpax's, e.g. ``(True, 0.0)``.  Periodic data wrap
        instead: leave it ``False``.
    period : scalar, optional
        The data are periodic: queries wrap into ``[xp[0], xp[0] + period)``
        and ``"cubic2"`` takes periodic end conditions.  The closing knot
        ``xp[0] + period`` may be included, with the first value; knots past
        it wrap into the period and are sorted, and knots that then coincide
        are merged (their values must agree; traced knots cannot merge: NaN).
        ``bc_type="periodic"`` alone takes the period ``xp[-1] - xp[0]``.
    even_spacing : bool or None, default False
        The knots are evenly spaced, so a query's piece is found by a multiply
        and a floor (and one correcting step) instead of a binary search:
        ``True`` (checked when the knots are concrete; traced, a query whose
        piece that misses is NaN), ``False`` (search), or ``None`` (``True``
        when concrete knots are evenly spaced, each within a quarter spacing
        of its place).  ``"nearest"``, whose pieces end between the knots,
        always searches.
    bc_type : str or (start, end) pair, optional
        End conditions of ``"cubic2"``, as scipy's: ``"not-a-knot"``
        (default), ``"natural"``, ``"clamped"``, ``"periodic"``, or a pair of
        ends, each a name or ``(order, value)`` with order 1 or 2.  A value is
        a scalar or an array of one per column (broadcast), differentiable.
    axis : int, default 0
        The axis of ``fp`` along the knots.
    c : scalar, optional
        The tension of ``"cardinal"``, in [0, 1]; default 0 (Catmull–Rom),
        1 gives zero slopes.  Differentiable.
    fx : array_like, optional
        Slopes dy/dx at the knots, ``fp``'s shape.  With a cubic method they
        replace the method's: a cubic Hermite spline, as
        `scipy.interpolate.CubicHermiteSpline`.  Differentiable.

    Returns
    -------
    y : jax.Array
        Shape ``fp.shape[:axis] + x.shape + fp.shape[axis+1:]``, with a leading
        axis of orders when ``derivative`` is a tuple; dtype
        ``result_type(x, xp, fp, fx)``, at least float32 (half precision is
        computed in float32).

    Raises
    ------
    ValueError
        Static problems, when the call is prepared: an unknown ``method``,
        ``bc_type`` or ``c`` given to a method that does not take it, ``extrap``
        with a period, shapes that do not match, too few knots, a negative
        ``derivative``, ``c`` outside [0, 1].  Bad concrete data: knots not
        finite and strictly increasing, non-finite ``fp``, a ``period`` not
        positive and finite, merged periodic knots with different values,
        ``even_spacing=True`` with uneven knots.  The same bad data traced
        (under `jax.jit`, `jax.vmap` or `jax.grad`) raise nothing: every
        output and every gradient is NaN (a bad column of ``fp`` poisons only
        itself).
    TypeError
        An option of the wrong type, e.g. a ``derivative`` that is not an int
        or a tuple of ints, an ``even_spacing`` that is not a bool or None.
    NotRealError
        ``x``, ``xp``, ``period`` or ``c`` not real, or a complex fill or end
        value for real ``fp`` (also a `ValueError` and a `TypeError`).

    See Also
    --------
    Interpolator1D : The same interpolant, fitted once.
    approx_df : The slopes a cubic method gives the knots.
    interp2d, interp3d, interpn : Tensor products on grids.
    CubicSpline, PchipInterpolator, Akima1DInterpolator : scipy's classes.

    Notes
    -----
    Every cubic method is a piecewise cubic Hermite interpolant: on
    ``[x_i, x_{i+1}]``, with ``h_i = x_{i+1} − x_i`` and ``t = (x − x_i) / h_i``,
    ::

        p(x) = (2t³ − 3t² + 1) y_i + (t³ − 2t² + t) h_i s_i
             + (3t² − 2t³) y_{i+1} + (t³ − t²) h_i s_{i+1},

    so ``p`` is C¹ with the values ``y_i`` and slopes ``s_i`` at the knots.
    With the secants ``m_i = (y_{i+1} − y_i) / h_i``, the methods' slopes are:

    ``"cubic"``
        ``s_i = (m_{i−1} + m_i) / 2``, with ``s_0 = m_0`` and
        ``s_{n−1} = m_{n−2}``.
    ``"cardinal"``, ``"catmull-rom"``
        ``s_i = (1 − c) (y_{i+1} − y_{i−1}) / (x_{i+1} − x_{i−1})``, with
        ``(1 − c) m_0`` and ``(1 − c) m_{n−2}`` at the ends; Catmull–Rom
        [4]_ is the tension ``c = 0``.
    ``"cubic2"``
        The C² cubic spline [1]_: the second derivative is continuous at the
        interior knots,
        ::

            h_i s_{i−1} + 2 (h_{i−1} + h_i) s_i + h_{i−1} s_{i+1}
                = 3 (h_i m_{i−1} + h_{i−1} m_i),

        and the ends close the system: not-a-knot (the third derivative is
        continuous at ``x_1`` and ``x_{n−2}`` too), natural (``p'' = 0``),
        clamped (``p' = 0``), ``(order, value)`` (that derivative's value) or
        periodic (the rows wrap around).  The tridiagonal system is solved by
        the Thomas algorithm (`tridiagonal_solve`; its rows are diagonally
        dominant), periodic ones by Sherman–Morrison
        (`cyclic_tridiagonal_solve`).
    ``"monotonic"``
        Fritsch–Carlson [2]_: ``s_i = 0`` where ``m_{i−1}`` and ``m_i`` differ
        in sign or one is 0, else the weighted harmonic mean of Fritsch and
        Butland [3]_, ``(w_1 + w_2) / s_i = w_1 / m_{i−1} + w_2 / m_i`` with
        ``w_1 = 2 h_i + h_{i−1}``, ``w_2 = h_i + 2 h_{i−1}``; at the ends a
        three-point estimate, limited to keep the shape.  Monotone data give
        a monotone interpolant, without overshoot.  ``"monotonic-0"`` sets
        both end slopes to 0.
    ``"akima"``, ``"makima"``
        Akima [5]_: ``s_i = (f_1 m_{i−1} + f_2 m_i) / (f_1 + f_2)`` with
        ``f_1 = |m_{i+1} − m_i|``, ``f_2 = |m_{i−1} − m_{i−2}|`` (makima adds
        ``|m_{i+1} + m_i| / 2`` and ``|m_{i−1} + m_{i−2}| / 2``, which damps
        overshoot on flat runs [6]_), two secants extrapolated linearly past
        each end; where ``f_1 + f_2`` is below 1e-9 of its maximum,
        ``s_i = (m_{i−2} + m_{i+1}) / 2``, as scipy's.

    Periodic data give every local rule neighbours across the period.  A
    query on a knot takes the piece that starts there; on the last knot, the
    data's value exactly.  Complex data: the data-dependent rules
    (monotonic, Akima) apply to the real and imaginary parts apart.

    References
    ----------
    .. [1] C. de Boor, *A Practical Guide to Splines*, Springer, 1978, ch. IV.
    .. [2] F. N. Fritsch and R. E. Carlson, "Monotone piecewise cubic
       interpolation", SIAM J. Numer. Anal. 17 (1980), 238–246.
    .. [3] F. N. Fritsch and J. Butland, "A method for constructing local
       monotone piecewise cubic interpolants", SIAM J. Sci. Stat. Comput. 5
       (1984), 300–304.
    .. [4] E. Catmull and R. Rom, "A class of local interpolating splines",
       in *Computer Aided Geometric Design*, Academic Press, 1974, 317–326.
    .. [5] H. Akima, "A new method of interpolation and smooth curve fitting
       based on local procedures", J. ACM 17 (1970), 589–602.
    .. [6] C. Moler, "Makima piecewise cubic interpolation", Cleve's Corner
       (MathWorks blog), 2019.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp = jnp.linspace(0.0, 3.0, 4)
    >>> y = splines.interp1d(jnp.array([0.5, 1.5]), xp, xp**2, method="cubic2")
    >>> print(np.round(np.asarray(y), 6))
    [0.25 2.25]

    Several derivative orders at once, and fills outside the knots:

    >>> d = splines.interp1d(1.5, xp, xp**2, method="cubic2", derivative=(1, 2))
    >>> print(np.round(np.asarray(d), 6))
    [3. 2.]
    >>> y = splines.interp1d(jnp.array([-1.0, 4.0]), xp, xp**2, extrap=(True, 0.0))
    >>> print(np.round(np.asarray(y), 6))
    [-3.  0.]
    """
    x, xp, fp, period, fx = lists_to_arrays(x, xp, fp, period, fx)
    return _call(
        (x,),
        (xp,),
        fp,
        method,
        derivative,
        extrap,
        (period,),
        even_spacing,
        bc_type,
        axis,
        c,
        {1: fx},
        NAMES_1D,
        one_axis=True,
    )


def interp2d(
    x: Float[ArrayInput, "..."],
    y: Float[ArrayInput, "..."],
    xp: Float[ArrayInput, " nx"],
    yp: Float[ArrayInput, " ny"],
    fp: Inexact[ArrayInput, "nx ny *columns"],
    method: MethodName = "cubic",
    derivative: GridOrders = 0,
    extrap: GridExtrap = False,
    period: PerAxis[Float[ArrayLike, ""] | None] = None,
    even_spacing: PerAxis[bool | None] = False,
    *,
    bc_type: BcType = None,
    c: Float[ArrayLike, ""] | None = None,
    fx: Inexact[ArrayInput, "nx ny *columns"] | None = None,
    fy: Inexact[ArrayInput, "nx ny *columns"] | None = None,
    fxy: Inexact[ArrayInput, "nx ny *columns"] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` on the grid ``xp × yp`` to the points ``(x, y)``.

    A tensor product of the 1-D ``method`` (see `interp1d`) along each axis,
    fitted and evaluated in one jitted program; differentiable and vmappable
    as `interp1d`.  To evaluate one fit many times, use `Interpolator2D`.

    Parameters
    ----------
    x, y : array_like
        Query coordinates, real; they broadcast against each other.
    xp : array_like, shape (nx,)
        Knots along x, real, finite and strictly increasing.
    yp : array_like, shape (ny,)
        Knots along y, likewise.
    fp : array_like, shape (nx, ny, ...)
        Values, real or complex; further axes are columns.
    method : str, default "cubic"
        As `interp1d`'s.
    derivative : int, (int, int) or sequence of pairs, default 0
        Orders ``(along x, along y)``, one int for both, or a sequence of
        such pairs, whose results are stacked on a new leading axis.
    extrap : bool, scalar, pair, or one per axis, default False
        As `interp1d`'s, for every axis (so ``(True, 0.0)`` is one
        ``(below, above)`` pair for both axes, as interpax reads it), or one
        per axis, e.g. ``((True, True), (0.0, 1.0))``.  A point outside along
        both axes takes y's fill.
    period : scalar, None, or one per axis, optional
        One for both axes or one per axis, e.g. ``(2 * np.pi, None)``; as
        `interp1d`'s.
    even_spacing : bool, None, or one per axis, default False
        One for both axes or one per axis; as `interp1d`'s.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions on every axis without a period: names,
        or ``(order, 0)``; the mixed derivatives need zero end values.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].
    fx, fy, fxy : array_like, optional
        Derivatives ∂f/∂x, ∂f/∂y, ∂²f/∂x∂y at the knots, ``fp``'s shape, that
        replace the method's; those not given come from the method.

    Returns
    -------
    z : jax.Array
        Shape ``broadcast(x, y).shape + fp.shape[2:]``, with a leading axis
        of results when ``derivative`` is a sequence of pairs; dtype
        ``result_type(x, y, xp, yp, fp, fx, fy, fxy)``, at least float32.

    Raises
    ------
    ValueError
        As `interp1d`'s, per axis; also ``bc_type`` with non-zero end values,
        or with a period on both axes.  Bad traced data give NaN values and
        gradients instead.
    TypeError
        An option of the wrong type, as `interp1d`'s.
    NotRealError
        A coordinate, knot, period or tension that is not real.

    See Also
    --------
    interp1d : The 1-D methods, their slopes and options.
    Interpolator2D : The same interpolant, fitted once.
    interpn : Any number of dimensions, scipy's conventions.

    Notes
    -----
    For the methods linear in the data (``"cubic2"``, ``"cubic"``,
    ``"catmull-rom"``, ``"cardinal"``) the result is the 1-D interpolant
    along x, then along y, at the point: the cell's bicubic Hermite patch
    from the values and the slopes ``fx``, ``fy``, ``fxy`` at its four
    corners.  ``"linear"`` and ``"nearest"`` are
    `scipy.interpolate.RegularGridInterpolator`'s.  The data-dependent
    ``"monotonic"``, ``"akima"``, ``"makima"`` take the slopes and the mixed
    derivative from their 1-D rule along each axis in turn, as interpax.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp, yp = jnp.arange(3.0), jnp.arange(4.0)
    >>> fp = xp[:, None] + 2 * yp[None, :]
    >>> z = splines.interp2d(jnp.array([0.5, 1.25]), jnp.array([1.5, 2.0]), xp, yp, fp)
    >>> print(np.round(np.asarray(z), 6))
    [3.5  5.25]
    >>> print(np.round(np.asarray(splines.interp2d(0.5, 1.5, xp, yp, fp, derivative=(0, 1))), 6))
    2.0
    """
    given = {1: fx, 2: fy, 3: fxy}
    return interp_grid(
        (x, y),
        (xp, yp),
        fp,
        method,
        derivative,
        extrap,
        period,
        even_spacing,
        bc_type,
        c,
        given,
        GRID_NAMES[2],
    )


def interp3d(
    x: Float[ArrayInput, "..."],
    y: Float[ArrayInput, "..."],
    z: Float[ArrayInput, "..."],
    xp: Float[ArrayInput, " nx"],
    yp: Float[ArrayInput, " ny"],
    zp: Float[ArrayInput, " nz"],
    fp: Inexact[ArrayInput, "nx ny nz *columns"],
    method: MethodName = "cubic",
    derivative: GridOrders = 0,
    extrap: GridExtrap = False,
    period: PerAxis[Float[ArrayLike, ""] | None] = None,
    even_spacing: PerAxis[bool | None] = False,
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
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` on the grid ``xp × yp × zp`` to the points ``(x, y, z)``.

    As `interp2d`, with a third axis: a tensor product of the 1-D ``method``
    along each axis, fitted and evaluated in one jitted program.  To
    evaluate one fit many times, use `Interpolator3D`.

    Parameters
    ----------
    x, y, z : array_like
        Query coordinates, real; they broadcast against each other.
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
    derivative : int, (int, int, int) or sequence of triples, default 0
        Orders ``(along x, along y, along z)``, one int for all, or a
        sequence of such triples, whose results are stacked on a new leading
        axis.
    extrap : bool, scalar, pair, or one per axis, default False
        As `interp2d`'s, with three entries when given per axis.
    period : scalar, None, or one per axis, optional
        One for all axes or one per axis; as `interp1d`'s.
    even_spacing : bool, None, or one per axis, default False
        One for all axes or one per axis; as `interp1d`'s.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions on every axis without a period, with
        zero values (as `interp2d`'s).
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].
    fx, fy, fz, fxy, fxz, fyz, fxyz : array_like, optional
        Derivatives at the knots (∂f/∂x, …, ∂³f/∂x∂y∂z), ``fp``'s shape, that
        replace the method's; those not given come from the method.

    Returns
    -------
    w : jax.Array
        Shape ``broadcast(x, y, z).shape + fp.shape[3:]``, with a leading axis
        of results when ``derivative`` is a sequence of triples; dtype
        ``result_type`` of every array argument, at least float32.

    Raises
    ------
    ValueError
        As `interp2d`'s.  Bad traced data give NaN values and gradients.
    TypeError
        An option of the wrong type, as `interp1d`'s.
    NotRealError
        A coordinate, knot, period or tension that is not real.

    See Also
    --------
    interp1d : The 1-D methods, their slopes and options.
    Interpolator3D : The same interpolant, fitted once.
    interpn : Any number of dimensions, scipy's conventions.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> xp, yp, zp = jnp.arange(3.0), jnp.arange(4.0), jnp.arange(2.0)
    >>> fp = xp[:, None, None] + 2 * yp[None, :, None] + 3 * zp[None, None, :]
    >>> w = splines.interp3d(0.5, 1.5, 0.5, xp, yp, zp, fp, method="linear")
    >>> print(f"{float(w):.6f}")
    5.000000
    """
    given = {1: fx, 2: fy, 4: fz, 3: fxy, 5: fxz, 6: fyz, 7: fxyz}
    return interp_grid(
        (x, y, z),
        (xp, yp, zp),
        fp,
        method,
        derivative,
        extrap,
        period,
        even_spacing,
        bc_type,
        c,
        given,
        GRID_NAMES[3],
    )


def interpn(
    points: Sequence[Float[ArrayInput, " n"]] | Float[ArrayInput, "d n"],
    values: Inexact[ArrayInput, "*grid_and_columns"],
    xi: Float[ArrayInput, "... d"],
    method: GridMethodName = "linear",
    bounds_error: bool = True,
    fill_value: Inexact[ArrayLike, ""] | None = np.nan,
    *,
    period: PerAxis[Float[ArrayLike, ""] | None] = None,
    derivative: GridOrders = 0,
    bc_type: BcType = None,
    c: Float[ArrayLike, ""] | None = None,
) -> Inexact[Array, "..."]:
    """Interpolate on a regular grid of any number of dimensions, as `scipy.interpolate.interpn`.

    A tensor product of a 1-D method along each axis (see `interp1d`), fitted
    and evaluated in one call; differentiable w.r.t. ``points``, ``values``
    and ``xi``, jittable and vmappable.  To evaluate one fit many times, use
    `RegularGridInterpolator`.

    Parameters
    ----------
    points : tuple of d array_like, each of shape (n_a,), or an array of shape (d, n)
        The grid's knots per axis (an array: one axis per row, as scipy), real, finite and strictly ascending (or,
        when concrete, strictly descending: reversed with the values).  An
        axis of one point is scipy's: the data are constant along it.
    values : array_like, shape (n_0, ..., n_{d-1}, ...)
        The values on the grid, real or complex; further axes are columns.
    xi : array_like, shape (..., d), or tuple of d array_like
        The points to interpolate at, or their d coordinate arrays, which
        broadcast against each other; a flat array of m·d numbers is read as
        m points, as scipy reads it.
    method : str, default "linear"
        scipy's ``"linear"``, ``"nearest"``, ``"slinear"`` (linear),
        ``"cubic"`` and ``"cubic_legacy"`` (both the exact not-a-knot
        tensor-product spline, our ``"cubic2"``; scipy's ``"cubic"`` solves
        for it iteratively, to about 1e-3), or one of our methods (see
        `interp1d`; ``"cubic"`` here means scipy's).  scipy's ``"pchip"`` and
        the quintics are not available (`ValueError`).
    bounds_error : bool, default True
        Raise for a concrete point outside the grid on an axis without a
        period; traced points there give NaN.
    fill_value : scalar or None, default nan
        The value outside the grid when ``bounds_error`` is False; ``None``
        extends the end pieces.
    period : scalar, None, or one per axis, optional
        One for all axes or one per axis (None: not periodic), as
        `interp1d`'s; a periodic axis wraps and is never outside.
    derivative : int, tuple of d ints, or sequence of such tuples, default 0
        Orders per axis: one int for all, a tuple of d (scipy's ``nu`` of
        `RegularGridInterpolator`), or a sequence of such tuples, whose
        results are stacked on a new leading axis.
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions with zero values (see `interp2d`); a
        pair's first end is at the smallest point of each axis, also when the
        points are given descending.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].

    Returns
    -------
    y : jax.Array
        Shape ``xi.shape[:-1] + values.shape[d:]``, with a leading axis of
        results when ``derivative`` is a sequence of tuples; dtype
        ``result_type(points, values, xi)``, at least float32.

    Raises
    ------
    ValueError
        A point outside the grid with ``bounds_error`` (concrete points
        only), an unknown or unavailable ``method``, shapes that do not
        match, points neither ascending nor descending, a complex
        ``fill_value`` for real values, and `interp1d`'s checks per axis.
        Bad traced data give NaN values and gradients instead.
    TypeError
        ``points`` not a tuple or list, ``bounds_error`` not a bool.
    NotRealError
        Points, ``xi``, a period or the tension not real.

    See Also
    --------
    RegularGridInterpolator : The same interpolant, fitted once.
    interp2d, interp3d : interpax's argument names for d = 2, 3.

    Notes
    -----
    Each point reads its cell's node data: 2^d numbers for linear, 4^d for the
    cubics (values and every mixed slope at 2^d corners), summed one axis at a
    time.  Memory grows as points × 4^d: in d = 6, 10^4 points gather 4096
    numbers each (330 MB in float64); evaluate such batches in chunks.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x, y = jnp.arange(3.0), jnp.arange(4.0)
    >>> values = x[:, None] + 2 * y[None, :]
    >>> out = splines.interpn((x, y), values, jnp.array([[0.5, 1.5], [1.25, 2.0]]))
    >>> print(np.round(np.asarray(out), 6))
    [3.5  5.25]
    """
    points, values = points_and_values(points, values)
    periods = per_axis(period, len(points), "period")
    extrap = scipy_fill(bounds_error, fill_value, periods)
    check_fill_kind(fill_value, values)
    names = scipy_names(len(points))
    wide, values, single = widen_single_points(points, values, periods)
    fit_spec, fit_args = prepare_grid(
        wide, values, grid_method(method), bc_type, period, c, {}, names
    )
    xi = query_points(xi, len(points), fit_args.knots[0].dtype)
    if bounds_error:
        check_bounds(xi, points, fit_spec.periodic)
    xi = onto_single_points(xi, points, single) if single else xi
    plan = memoized(
        evaluation_plan, (), (derivative, extrap), (False, fit_spec, fit_args.fp.dtype, ())
    )
    return _interpolate_points(xi, fit_args, plan[1], fit_spec, plan[0])


def scipy_names(d: int) -> ArgumentNames:
    """scipy's names of a grid's arguments, for error messages."""
    return ArgumentNames(
        tuple(f"points[{a}]" for a in range(d)), tuple(f"xi[..., {a}]" for a in range(d)), "values"
    )


def interp_grid(
    queries,
    knots,
    fp,
    method,
    derivative,
    extrap,
    period,
    even_spacing,
    bc_type,
    c,
    given,
    names: ArgumentNames,
):
    """`interp2d`/`interp3d` on any number of axes (``given``: mask → derivative)."""
    knots, fp, periods, c, given = grid_arrays(knots, fp, period, c, given)
    return _call(
        lists_to_arrays(*queries),
        knots,
        fp,
        method,
        derivative,
        extrap,
        periods,
        even_spacing,
        bc_type,
        0,
        c,
        given,
        names,
        one_axis=False,
    )


class CallPlan(NamedTuple):
    """What a call that fits and evaluates decides from its options and the arrays' types."""

    fit: FitPlan
    spec: EvalSpec
    fill: tuple  # per axis, (below, above)
    query_dtypes: tuple  # per query array
    queries_ready: bool  # each query array a jax array of its dtype already (`is_of_dtype`)


def _call(
    queries: tuple,
    knots: tuple,
    fp,
    method,
    derivative,
    extrap,
    periods: tuple,
    even_spacing,
    bc_type,
    axis,
    c,
    given: dict,
    names: ArgumentNames,
    one_axis: bool,
):
    """Fit and evaluate in one program, after one lookup of the call's plan (`memoized`).

    The arrays are numpy or jax arrays or Python scalars (`lists_to_arrays`).
    """
    masks, derivatives = present(given)
    arrays = (*queries, *knots, fp, *periods, *derivatives)
    plan = memoized(
        _plan_call,
        arrays,
        (method, bc_type, axis, derivative, extrap),
        (len(queries), len(knots), masks, c is None, names, one_axis),
    )
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


def evaluation_plan(
    derivative, extrap, one_axis: bool, fit_spec: FitSpec, dtype, even: tuple = ()
) -> tuple:
    """``(EvalSpec, fill)``: the evaluation's static half, kept per options (`memoized`).

    ``one_axis``: `interp1d`'s meaning of ``derivative`` (a tuple stacks orders)
    and ``extrap``; otherwise the grids' (a tuple gives one per axis).  ``even``:
    per axis, locate without a search (`even_axes`; empty: search everywhere).
    """
    if one_axis:
        extraps = (parse_extrap(extrap, fit_spec.periodic[0], dtype),)
    else:
        extraps = parse_grid_extrap(extrap, fit_spec.periodic, dtype)
    spec = eval_spec(
        derivative,
        one_axis,
        tuple(e.extend for e in extraps),
        fit_spec.periodic,
        fit_spec.axis,
        fit_spec.column_shape,
        fit_spec.method,
        even,
    )
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
