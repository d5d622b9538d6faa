"""scipy's interpolating splines on our fit: `CubicSpline`, `CubicHermiteSpline`,
`PchipInterpolator`, `Akima1DInterpolator`, and scipy's function `pchip_interpolate`.

Each is `_interpolate.fit.fit` with one of our methods — ``"cubic2"``, given slopes,
``"monotonic"``, ``"akima"``/``"makima"`` — held as an `AbstractPPoly`:
the same breaks and local coefficients as `Interpolator1D`, scipy's names
and defaults around them.  Arguments are checked as `interp1d` checks them
(bad concrete data raise `ValueError`; bad traced data give NaN).  ``check=False``
(interpax's keyword) skips the eager data checks: bad concrete data then give NaN too.
"""

from collections.abc import Sequence
from typing import overload

import numpy as np
from jaxtyping import Array, Float, Inexact

from .._interpolate.fit import jit_fit
from .._interpolate.prepare import ArgumentNames, prepare_fit
from .._utils.dtypes import dtype_kind, lists_to_arrays, warn_if_x64_disabled
from .._utils.types import AkimaMethodName, ArrayInput, BcType, Extrapolate, Order
from .checks import parse_extrapolate
from .ppoly import PERIODIC, AbstractPPoly, set_fields

_NAMES = ArgumentNames(knots=("x",), queries=("x",), values="y", slopes="dydx")


def _fit_into(
    self: AbstractPPoly, x, y, method, axis, extrapolate, default, check, bc_type=None, dydx=None
):
    """Fit ``y`` at ``x`` with ``method`` and set the fields of ``self`` (in `__init__`)."""
    x, y, dydx = lists_to_arrays(x, y, dydx)
    warn_if_x64_disabled(x, y, dydx)
    spec, args = prepare_fit(
        (x,), y, method, bc_type, (None,), axis, None, {1: dydx}, _NAMES, bool(check)
    )
    (breaks,), coefficients, end = jit_fit(args, spec)
    extrapolate = parse_extrapolate(extrapolate, PERIODIC if spec.periodic[0] else default)
    set_fields(self, breaks, coefficients, end, extrapolate, spec.axis, spec.column_shape, False)


def _real_only(y, cls: str) -> None:
    if dtype_kind(y) == "c":
        raise ValueError(f"`{cls}` needs real `y`; got complex values (pass `y.real`?).")


class CubicHermiteSpline(AbstractPPoly):
    """Piecewise cubic with given values and slopes: `scipy.interpolate.CubicHermiteSpline`.

    On each interval the cubic with the values ``y`` and slopes ``dydx`` at
    its two ends (the Hermite form in `interp1d`'s Notes), so the result is
    C¹.  An `AbstractPPoly`: it evaluates, differentiates, integrates and
    finds roots as `PPoly`, and `jax.jit`, `jax.vmap` and `jax.grad` (w.r.t.
    ``x``, ``y``, ``dydx`` and the points) go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    y : array_like, shape (..., n, ...)
        Values, real or complex, with ``y.shape[axis] == n``.
    dydx : array_like
        Slopes at the knots, ``y``'s shape.
    axis : int, default 0
        The axis of ``y`` along the knots.
    extrapolate : bool or "periodic", optional
        Outside the knots: extend the end cubics (``True``, the default), NaN
        (``False``), or wrap into ``[x[0], x[-1]]`` (``"periodic"``).
    check : bool, default True
        ``False`` (interpax's keyword) skips the eager data checks: bad
        concrete data then give NaN, as traced data do.

    Raises
    ------
    ValueError
        Shapes that do not match, fewer than 2 knots, and bad concrete data
        (knots not finite and strictly increasing, non-finite values or
        slopes).  Traced bad data make every value and gradient NaN.
    NotRealError
        ``x`` not real.

    Warns
    -----
    X64DisabledWarning
        Once per process, for float64 numpy data while ``jax_enable_x64`` is
        off.

    See Also
    --------
    interp1d : ``fx=`` gives the same interpolant.
    CubicSpline, PchipInterpolator, Akima1DInterpolator : Slopes from a rule.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 4)
    >>> spline = splines.CubicHermiteSpline(x, x**2, 2 * x)
    >>> print(np.round(np.asarray(spline(jnp.array([0.5, 1.5]))), 6))
    [0.25 2.25]
    """

    def __init__(
        self,
        x: Float[ArrayInput, " n"],
        y: Inexact[ArrayInput, "*shape"],
        dydx: Inexact[ArrayInput, "*shape"],
        axis: int = 0,
        extrapolate: Extrapolate = None,
        check: bool = True,
    ):
        _fit_into(self, x, y, "cubic", axis, extrapolate, True, check, dydx=dydx)


class CubicSpline(AbstractPPoly):
    """The C² cubic spline through ``y`` at ``x``: `scipy.interpolate.CubicSpline`.

    `interp1d`'s ``"cubic2"``, held as an `AbstractPPoly`: it evaluates,
    differentiates, integrates and finds roots as `PPoly`, and `jax.jit`,
    `jax.vmap` and `jax.grad` (w.r.t. ``x``, ``y``, the end values and the
    points) go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    y : array_like, shape (..., n, ...)
        Values, real or complex, with ``y.shape[axis] == n``; every other
        axis is a polynomial of its own.
    axis : int, default 0
        The axis of ``y`` along the knots.
    bc_type : str or (start, end) pair, default "not-a-knot"
        ``"not-a-knot"``, ``"natural"``, ``"clamped"``, ``"periodic"`` (``y``
        equal at both ends; ``extrapolate`` then defaults to periodic), or a
        pair of ends, each a name or ``(order, value)`` with order 1 or 2 and,
        as scipy's, a value of the shape of ``y`` without ``axis``.  A complex
        value makes the spline complex.  Values are differentiable.
    extrapolate : bool or "periodic", optional
        Outside the knots: extend the end cubics (``True``, the default
        unless periodic), NaN (``False``), or wrap (``"periodic"``).
    check : bool, default True
        ``False`` (interpax's keyword) skips the eager data checks: bad
        concrete data then give NaN, as traced data do.

    Raises
    ------
    ValueError
        An unknown ``bc_type``, an end value of the wrong shape, shapes that
        do not match, fewer than 2 knots, and bad concrete data (knots not
        finite and strictly increasing, non-finite ``y``, periodic ``y`` that
        differs at the ends).  Traced bad data make every value and gradient
        NaN.
    NotRealError
        ``x`` not real.

    Warns
    -----
    X64DisabledWarning
        Once per process, for float64 numpy data while ``jax_enable_x64`` is
        off.

    See Also
    --------
    interp1d : ``method="cubic2"``, in one call.
    PchipInterpolator, Akima1DInterpolator : Local, shape-preserving rules.

    Notes
    -----
    The slopes ``s_i`` at the knots make the second derivative continuous:
    with ``h_i = x_{i+1} − x_i`` and ``m_i = (y_{i+1} − y_i) / h_i``, at each
    interior knot
    ::

        h_i s_{i−1} + 2 (h_{i−1} + h_i) s_i + h_{i−1} s_{i+1}
            = 3 (h_i m_{i−1} + h_{i−1} m_i)

    (de Boor, *A Practical Guide to Splines*, 1978, ch. IV).  The ends close
    the system: not-a-knot makes the third derivative continuous at ``x[1]``
    and ``x[-2]`` (one cubic across the first two and the last two
    intervals), natural sets ``p'' = 0``, clamped ``p' = 0``, ``(order,
    value)`` that derivative, periodic wraps the rows around.  The
    tridiagonal system is solved by the Thomas algorithm without pivoting
    (its rows, with not-a-knot's eliminated into its neighbour, are
    diagonally dominant), periodic ones by Sherman–Morrison on it.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 4)
    >>> print(f"{float(splines.CubicSpline(x, x**3)(1.5)):.6f}")  # not-a-knot: exact for cubics
    3.375000
    >>> natural = splines.CubicSpline(x, x**3, bc_type="natural")
    >>> print(f"{float(natural(1.5)):.6f}", f"{float(natural(0.0, 2)):.6f}")
    3.150000 0.000000
    """

    def __init__(
        self,
        x: Float[ArrayInput, " n"],
        y: Inexact[ArrayInput, "*shape"],
        axis: int = 0,
        bc_type: BcType = "not-a-knot",
        extrapolate: Extrapolate = None,
        check: bool = True,
    ):
        (y,) = lists_to_arrays(y)
        y = _scipy_boundary_rules(y, axis, bc_type)
        _fit_into(self, x, y, "cubic2", axis, extrapolate, True, check, bc_type=bc_type)


def _scipy_boundary_rules(y, axis, bc_type):
    """scipy's rules for `CubicSpline`'s boundary values (`interp1d` broadcasts them and
    keeps real data real): each has the shape of ``y`` without ``axis``, and a complex
    one makes ``y`` complex.  Returns ``y``."""
    ends = bc_type if isinstance(bc_type, (tuple, list)) else ()
    values = [end[1] for end in ends if isinstance(end, (tuple, list)) and len(end) == 2]
    if not values or np.ndim(y) == 0 or not -np.ndim(y) <= axis < np.ndim(y):
        return y  # (the fit reports what else is wrong)
    shape = np.shape(y)
    per_polynomial = shape[: axis % len(shape)] + shape[axis % len(shape) + 1 :]
    for value in values:
        if np.shape(value) != per_polynomial:
            raise ValueError(
                f"`bc_type` value {value!r} must have the shape of `y` without its `axis`, "
                f"{per_polynomial}, as scipy's; got shape {np.shape(value)}."
            )
    if dtype_kind(y) != "c" and any(dtype_kind(value) == "c" for value in values):
        return y + 0j  # scipy's cast (complex64 for float32 data)
    return y


class PchipInterpolator(AbstractPPoly):
    """Shape-preserving piecewise cubic (PCHIP): `scipy.interpolate.PchipInterpolator`.

    `interp1d`'s ``"monotonic"``, held as an `AbstractPPoly`: C¹, monotone
    wherever the data are, with no overshoot past the data's local extrema.
    It evaluates, differentiates, integrates and finds roots as `PPoly`, and
    `jax.jit`, `jax.vmap` and `jax.grad` go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    y : array_like, shape (..., n, ...)
        Values, real, with ``y.shape[axis] == n``; every other axis is a
        polynomial of its own.
    axis : int, default 0
        The axis of ``y`` along the knots.
    extrapolate : bool or "periodic", optional
        Outside the knots: extend the end cubics (``True``, the default), NaN
        (``False``), or wrap into ``[x[0], x[-1]]`` (``"periodic"``).
    check : bool, default True
        ``False`` (interpax's keyword) skips the eager data checks: bad
        concrete data then give NaN, as traced data do.

    Raises
    ------
    ValueError
        Complex ``y``, shapes that do not match, fewer than 2 knots, and bad
        concrete data (knots not finite and strictly increasing, non-finite
        ``y``).  Traced bad data make every value and gradient NaN.
    NotRealError
        ``x`` not real.

    Warns
    -----
    X64DisabledWarning
        Once per process, for float64 numpy data while ``jax_enable_x64`` is
        off.

    See Also
    --------
    pchip_interpolate : Fit and evaluate in one call.
    interp1d : ``method="monotonic"``, also on grids (`interp2d`, `interpn`).
    Akima1DInterpolator, CubicSpline

    Notes
    -----
    The slopes at the knots, from the secants ``m_i = (y_{i+1} − y_i) / h_i``
    (Fritsch and Carlson 1980; Fritsch and Butland 1984): 0 at an interior
    knot where ``m_{i−1}`` and ``m_i`` differ in sign or either is 0 (a local
    extremum or a flat spot), otherwise the weighted harmonic mean
    ::

        (w_1 + w_2) / s_i = w_1 / m_{i−1} + w_2 / m_i,
        w_1 = 2 h_i + h_{i−1},   w_2 = h_i + 2 h_{i−1},

    which lies between the two secants.  At the ends, the three-point
    estimate ``((2 h_0 + h_1) m_0 − h_0 m_1) / (h_0 + h_1)``, set to 0 if its
    sign differs from ``m_0``'s and to ``3 m_0`` if ``m_0`` and ``m_1`` differ
    in sign and it exceeds ``3 m_0`` in magnitude (mirrored at the other end;
    Moler, *Numerical Computing with MATLAB*, 2004).  Two knots: the chord.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 4)
    >>> pchip = splines.PchipInterpolator(x, jnp.array([0.0, 1.0, 1.0, 2.0]))
    >>> print(np.round(np.asarray(pchip(jnp.array([1.5, 2.5]))), 6))  # flat between equal values
    [1.     1.3125]
    """

    def __init__(
        self,
        x: Float[ArrayInput, " n"],
        y: Float[ArrayInput, "*shape"],
        axis: int = 0,
        extrapolate: Extrapolate = None,
        check: bool = True,
    ):
        _real_only(y, "PchipInterpolator")
        _fit_into(self, x, y, "monotonic", axis, extrapolate, True, check)


@overload
def pchip_interpolate(
    xi: Float[ArrayInput, " n"],
    yi: Float[ArrayInput, "*shape"],
    x: Float[ArrayInput, "..."],
    der: Order = 0,
    axis: int = 0,
) -> Float[Array, "..."]: ...


@overload
def pchip_interpolate(
    xi: Float[ArrayInput, " n"],
    yi: Float[ArrayInput, "*shape"],
    x: Float[ArrayInput, "..."],
    der: Sequence[Order],
    axis: int = 0,
) -> list[Float[Array, "..."]]: ...


def pchip_interpolate(
    xi: Float[ArrayInput, " n"],
    yi: Float[ArrayInput, "*shape"],
    x: Float[ArrayInput, "..."],
    der: Order | Sequence[Order] = 0,
    axis: int = 0,
) -> Float[Array, "..."] | list[Float[Array, "..."]]:
    """Interpolate with `PchipInterpolator` in one call, as `scipy.interpolate.pchip_interpolate`.

    ``PchipInterpolator(xi, yi, axis=axis)`` evaluated at ``x``.

    Parameters
    ----------
    xi : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    yi : array_like, shape (..., n, ...)
        Values, real, with ``yi.shape[axis] == n``.
    x : array_like, any shape
        Points to evaluate at, real.
    der : int or sequence of int, default 0
        The derivative's order (negative: an antiderivative, as scipy's), or
        a sequence of orders (the non-negative ones share one search).
    axis : int, default 0
        The axis of ``yi`` along the knots.

    Returns
    -------
    jax.Array or list of jax.Array
        The shape of ``x`` in place of ``axis`` of ``yi``; a list of such
        arrays, one per order, when ``der`` is a sequence.

    Raises
    ------
    ValueError
        As `PchipInterpolator`'s; a negative order is not an error.
    TypeError
        An order that is not an int.

    See Also
    --------
    PchipInterpolator : The interpolant, its slopes and references.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x, y = jnp.linspace(0.0, 3.0, 4), jnp.array([0.0, 1.0, 1.0, 2.0])
    >>> print(np.round(np.asarray(splines.pchip_interpolate(x, y, jnp.array([1.5, 2.5]))), 6))
    [1.     1.3125]
    >>> value, slope = splines.pchip_interpolate(x, y, 0.5, der=[0, 1])
    >>> print(f"{float(value):.6f} {float(slope):.6f}")
    0.687500 1.125000
    """
    spline = PchipInterpolator(xi, yi, axis=axis)
    if np.ndim(der) == 0:
        return spline(x, der) if der >= 0 else spline.derivative(der)(x)
    if any(nu < 0 for nu in der):
        return [spline.derivative(nu)(x) for nu in der]
    return list(spline(x, tuple(int(nu) for nu in der))) if len(der) else []


class Akima1DInterpolator(AbstractPPoly):
    """Akima's piecewise cubic, or its modified form: `scipy.interpolate.Akima1DInterpolator`.

    `interp1d`'s ``"akima"`` and ``"makima"``, held as an `AbstractPPoly`: a
    C¹ cubic whose slopes come from the four secants around each knot, so a
    spike in the data stays local and wiggles less than a spline's.  NaN
    outside the knots unless ``extrapolate``.  It evaluates, differentiates,
    integrates and finds roots as `PPoly`, and `jax.jit`, `jax.vmap` and
    `jax.grad` go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    y : array_like, shape (..., n, ...)
        Values, real, with ``y.shape[axis] == n``; every other axis is a
        polynomial of its own (the cutoff below is over all of them).
    axis : int, default 0
        The axis of ``y`` along the knots.
    extrapolate : bool or "periodic", optional
        Outside the knots: NaN (``False``, the default), extend the end
        cubics (``True``), or wrap into ``[x[0], x[-1]]`` (``"periodic"``).
    check : bool, default True
        ``False`` (interpax's keyword) skips the eager data checks: bad
        concrete data then give NaN, as traced data do.
    method : {"akima", "makima"}, default "akima"
        Akima's weights, or the modified ones (makima), which avoid
        overshoot where the data are flat.

    Raises
    ------
    NotImplementedError
        A ``method`` other than ``"akima"`` or ``"makima"`` (as scipy's).
    ValueError
        Complex ``y``, shapes that do not match, fewer than 2 knots, and bad
        concrete data (knots not finite and strictly increasing, non-finite
        ``y``).  Traced bad data make every value and gradient NaN.
    NotRealError
        ``x`` not real.

    Warns
    -----
    X64DisabledWarning
        Once per process, for float64 numpy data while ``jax_enable_x64`` is
        off.

    See Also
    --------
    interp1d : ``method="akima"`` or ``"makima"``, also on grids.
    PchipInterpolator, CubicSpline

    Notes
    -----
    At knot i, with the secants ``m_j = (y_{j+1} − y_j) / h_j``,
    ::

        s_i = (f_1 m_{i−1} + f_2 m_i) / (f_1 + f_2),
        akima:   f_1 = |m_{i+1} − m_i|,
                 f_2 = |m_{i−1} − m_{i−2}|,
        makima:  f_1 = |m_{i+1} − m_i| + |m_{i+1} + m_i| / 2,
                 f_2 = |m_{i−1} − m_{i−2}| + |m_{i−1} + m_{i−2}| / 2

    (Akima 1970, *J. ACM* 17, 589–602; makima: C. Moler, 2019).  Two
    secants are extrapolated linearly past each end,
    ``m_{−1} = 2 m_0 − m_1``, ``m_{−2} = 2 m_{−1} − m_0``.  Where
    ``f_1 + f_2`` is at most 1e-9 of its maximum over every knot and
    polynomial, the weights are undefined and ``s_i = (m_{i−2} + m_{i+1}) / 2``,
    as scipy's.  Two knots: the chord.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x, y = jnp.arange(5.0), jnp.array([0.0, 1.0, 1.0, 1.0, 2.0])
    >>> akima = splines.Akima1DInterpolator(x, y)
    >>> print(np.round(np.asarray(akima(jnp.array([1.5, 2.5, 5.0]))), 6))  # NaN outside
    [ 1.  1. nan]
    >>> makima = splines.Akima1DInterpolator(x, y, method="makima")
    >>> print(np.round(np.asarray(makima(jnp.array([0.5, 3.5]))), 6))
    [0.6625 1.3375]
    """

    def __init__(
        self,
        x: Float[ArrayInput, " n"],
        y: Float[ArrayInput, "*shape"],
        axis: int = 0,
        extrapolate: Extrapolate = None,
        check: bool = True,
        *,
        method: AkimaMethodName = "akima",
    ):
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"`method`={method} is unsupported: use 'akima' or 'makima'.")
        _real_only(y, "Akima1DInterpolator")
        _fit_into(self, x, y, method, axis, extrapolate, False, check)
