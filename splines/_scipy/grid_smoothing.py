"""Smoothing on a grid: csaps' `NdGridCubicSmoothingSpline`, a tensor product of the
1-D smoothing splines, evaluated by the grid pipeline.

The smoothing spline along one axis is a linear map of the data, y ↦ (f, f') at
the knots (`_methods.smoothing`).  The tensor-product spline smooths along each
axis in turn, every slot of node data found so far (`_interpolate.fit`'s
D_S): along axis a, each D_S gives the smoothed D_S and D_{S∪a}.  The maps
along different axes commute, so the order does not matter (csaps goes from the
last axis).  Node data are kept in each axis' unit P_a, as the grid pipeline
keeps them (`_interpolate.fit`), so no mixed derivative overflows.
"""

import dataclasses
from collections.abc import Sequence
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._interpolate.evaluate import orders_per_axis
from .._interpolate.fit import in_axis_units
from .._interpolate.modules import TensorSpline
from .._interpolate.options import fill_array, parse_grid_extrap, per_axis
from .._interpolate.prepare import ArgumentNames, prepare_fit
from .._methods.smoothing import smoothing_at_knots
from .._methods.units import knot_units
from .._pieces.polynomials import cubic_pieces
from .._utils.dtypes import lists_to_arrays, span_units, unit_of, warn_if_x64_disabled
from .._utils.types import ArrayInput, Extrapolate
from .._utils.validate import knots_are_valid, poison, poison_columns
from .smoothing import _csaps_noises, _parameter, _weights


class NdGridCubicSmoothingSpline(eqx.Module):
    """A cubic smoothing spline of data on a grid of any number of axes: csaps'
    ``NdGridCubicSmoothingSpline``.

    The tensor product of the 1-D natural smoothing splines (`CubicSmoothingSpline`)
    along each axis, each with its own smoothing parameter and weights.  An
    equinox module: `jax.jit`, `jax.vmap` and `jax.grad` (w.r.t. the sites,
    data, weights, ``smooth`` and the points) go through its construction and
    its calls.

    Parameters
    ----------
    xdata : sequence of array_like
        The sites along each axis, d ≥ 1 vectors, each real, finite and strictly
        increasing with ≥ 2 entries.
    ydata : array_like, shape (n_0, …, n_{d-1}, ...)
        The data on the grid; trailing axes are separate columns; finite.
    weights : sequence of array_like or None, optional
        Positive weights per axis (a vector of n_a, or None for ones); default
        ones everywhere.
    smooth : float or sequence of float, optional
        The smoothing parameter in [0, 1], one for all axes or one per axis
        (None entries: the default).  ``1`` interpolates along that axis, ``0``
        fits its least-squares straight lines.  csaps' meaning: with
        ``normalizedsmooth=False`` it weighs ``p Σ w (y − f)² + (1 − p) ∫ f''²``
        directly (a default chosen from the sites, csaps' rule); with ``True``
        it is normalised as `CubicSmoothingSpline`'s ``p`` (default 0.5).
        May be traced (outside [0, 1] then gives NaN).
    normalizedsmooth : bool, default False
        Whether ``smooth`` is normalised (csaps' keyword).

    Attributes
    ----------
    smooth : tuple of jax.Array
        The smoothing parameter used along each axis (csaps' property): the
        default filled in; with ``normalizedsmooth`` the normalised one.

    Raises
    ------
    ValueError
        ``smooth`` outside [0, 1] or of the wrong length, weights not positive
        and finite or not of their axis' length; as `RegularGridInterpolator`:
        sites not finite and increasing, data not finite, shapes that do not
        fit.

    See Also
    --------
    CubicSmoothingSpline : The same spline along one axis.
    RegularGridInterpolator : Interpolation on a grid.

    Notes
    -----
    Along each axis the smoothing spline is a Kalman filter and smoother over
    the knots (`CubicSmoothingSpline`'s Notes), run once for all lines of every
    slot, which share its gains.  csaps' default (``normalizedsmooth=False``,
    ``smooth=None``) is ``p = 1 / (1 + tr R / (6 tr QᵀW⁻¹Q))``, Reinsch's
    matrices; it depends on the scale of the sites, and reaches 0 or 1 in
    floating point for sites of extreme span, where the fit (computed from λ,
    not from p) does not.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x, y = jnp.linspace(0.0, 1.0, 6), jnp.linspace(0.0, 2.0, 7)
    >>> data = jnp.sin(x)[:, None] * jnp.cos(y)[None, :]
    >>> exact = splines.NdGridCubicSmoothingSpline([x, y], data, smooth=1.0)
    >>> print(bool(jnp.allclose(exact([x, y]), data)))  # p = 1 interpolates
    True
    >>> flat = splines.NdGridCubicSmoothingSpline([x, y], data, smooth=0.0)
    >>> print(bool(jnp.max(jnp.abs(flat([x, y], nu=(2, 0)))) < 1e-9))  # planes
    True
    """

    spline: TensorSpline
    smooth: tuple[Float[Array, ""], ...]

    def __init__(
        self,
        xdata: Sequence[Float[ArrayInput, " n"]],
        ydata: Inexact[ArrayInput, "..."],
        weights: Sequence[Float[ArrayInput, " n"] | None] | None = None,
        smooth: float | Float[ArrayLike, ""] | Sequence[float | None] | None = None,
        normalizedsmooth: bool = False,
    ) -> None:
        if isinstance(xdata, (str, bytes)) or not isinstance(xdata, Sequence) or not xdata:
            raise TypeError(
                f"`xdata` must be a sequence of 1-D arrays; got {type(xdata).__name__}."
            )
        d = len(xdata)
        knots = lists_to_arrays(*xdata)
        (ydata,) = lists_to_arrays(ydata)
        warn_if_x64_disabled(*knots, ydata)
        names = _names(d)
        spec, args = prepare_fit(knots, ydata, "cubic2", "natural", (None,) * d, 0, None, {}, names)
        knots = args.knots
        weights = tuple(
            _weights(w, xp, True, f"weights[{a}]", f"xdata[{a}]")
            for a, (w, xp) in enumerate(zip(_axis_weights(weights, d), knots))
        )
        normalized = bool(normalizedsmooth)
        smooth = tuple(
            None if p is None else _parameter(p, xp.dtype, True, f"smooth[{a}]")
            for a, (p, xp) in enumerate(zip(per_axis(smooth, d, "smooth"), knots))
        )
        self.smooth, breaks, nodes, end = _fit(knots, args.fp, weights, smooth, normalized)
        (extrap,) = parse_grid_extrap(True, (False,), args.fp.dtype)
        fill = jnp.stack([fill_array(extrap.fill, args.fp.dtype)] * d)
        self.spline = TensorSpline(
            breaks,
            nodes,
            end,
            fill,
            ((True, True),) * d,
            (False,) * d,
            "cubic2",
            spec.column_shape,
            names,
            (False,) * d,
        )

    def __call__(
        self,
        x: Sequence[Float[ArrayInput, " m"]],
        nu: Sequence[int] | None = None,
        extrapolate: Extrapolate = None,
    ) -> Inexact[Array, "..."]:
        """The spline (or its derivatives) on the grid of the points ``x``, as csaps'.

        Parameters
        ----------
        x : sequence of array_like
            One vector of points per axis.
        nu : int or sequence of int, optional
            The derivative order along each axis (one int: along all); default none.
        extrapolate : bool, optional
            Whether to extend the end pieces beyond the sites (default) or give NaN
            (``"periodic"`` raises: the spline is not periodic).

        Returns
        -------
        jax.Array
            Shape ``(len(x[0]), …, len(x[d-1]))`` followed by the columns of ``ydata``.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> x = jnp.linspace(0.0, 1.0, 5)
        >>> s = splines.NdGridCubicSmoothingSpline([x, x], jnp.add.outer(x, 2 * x))
        >>> print(s([jnp.array([0.5]), jnp.array([0.25, 0.5])], nu=(0, 1)).round(6))
        [[2. 2.]]
        """
        spline = self.spline
        d = len(spline.breaks)
        if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != d:
            raise ValueError(f"`x` must be a sequence of {d} vectors, one per axis; got {x!r}.")
        points = lists_to_arrays(*x)
        shaped = []
        for a, q in enumerate(points):
            q = jnp.asarray(q)
            if q.ndim > 1:
                raise ValueError(f"`x[{a}]` must be a vector; got shape {q.shape}.")
            shaped.append(jnp.reshape(q, (1,) * a + (-1,) + (1,) * (d - a - 1)))
        orders = (0,) * d if nu is None else (nu,) * d if isinstance(nu, int) else tuple(nu)
        orders_per_axis(orders, d, "nu")  # checked here, to name `nu`
        if isinstance(extrapolate, str):
            raise ValueError(f"`extrapolate` must be True, False or None; got {extrapolate!r}.")
        if extrapolate is not None and not extrapolate:
            (nan,) = parse_grid_extrap(False, (False,), spline.nodes.dtype)
            fill = jnp.stack([fill_array(nan.fill, spline.nodes.dtype)] * d)
            spline = dataclasses.replace(spline, fill=fill, extend=((False, False),) * d)
        return spline(tuple(shaped), orders)


def _names(d: int) -> ArgumentNames:
    return ArgumentNames(
        tuple(f"xdata[{a}]" for a in range(d)), tuple(f"x[{a}]" for a in range(d)), "ydata"
    )


def _axis_weights(weights, d: int) -> tuple:
    """One weight vector (or None) per axis; None or an empty sequence (csaps') is none."""
    if weights is None or (isinstance(weights, (list, tuple)) and not weights):
        return (None,) * d
    scalar = not isinstance(weights, (list, tuple)) and np.ndim(weights) == 0
    if isinstance(weights, (str, bytes)) or scalar or len(weights) != d:
        raise ValueError(f"`weights` must have one entry per axis ({d}); got {weights!r}.")
    return tuple(weights)


@partial(jax.jit, static_argnums=4)
def _fit(knots, fp, weights, smooth, normalized: bool):
    """``(smooth, breaks, nodes, end)``: the parameters used and `TensorSpline`'s fields."""
    d = len(knots)
    y = jnp.reshape(fp, fp.shape[:d] + (-1,))
    nodes = y[..., None]  # (n_0, …, n_{d-1}, k, slots)
    used, valid = [], knots_are_valid(*knots)
    for axis, (xp, w, p) in enumerate(zip(knots, weights, smooth)):
        widths = in_axis_units(jnp.diff(xp), xp)
        scale = unit_of(jnp.max(w))
        p, noise, drift = _noises(p, widths, w / scale, scale, xp, normalized)
        lines = jnp.moveaxis(nodes, axis, 0)
        f, s = smoothing_at_knots(  # s: the node datum D̃, the slope in the axis' unit
            widths, jnp.reshape(lines, (xp.shape[0], -1)), w / scale, noise, drift
        )
        if d == 1:  # one axis keeps the pieces' table (`_interpolate.fit`)
            u = s * knot_units(widths)[:, None]
            breaks, table = cubic_pieces(xp, jnp.diff(xp), f, u)
            columns = poison(valid & _valid(w, p)) * poison_columns(table, axis=-2)
            return (p,), (xp * poison(valid),), table * columns[:, None], f[-1] * columns
        smoothed = [jnp.reshape(a, lines.shape) for a in (f, s)]
        nodes = jnp.moveaxis(jnp.concatenate(smoothed, axis=-1), 0, axis)
        used.append(p)
        valid = valid & _valid(w, p)
    columns = poison(valid) * poison_columns(nodes, axis=-2, by_slot=True)
    breaks = tuple(xp * poison(valid) for xp in knots)
    return tuple(used), breaks, nodes * columns[:, None], None


def _valid(w, p):
    return jnp.all((w > 0) & jnp.isfinite(w)) & (p >= 0) & (p <= 1)


def _noises(p, widths, w, scale, xp, normalized: bool):
    """``(p, noise, drift)`` along one axis in its units (widths ~ span ≤ 1, weights / ω):
    csaps' normalised p (`_csaps_noises`), its raw p (λ = (1 − p)/p in the data's
    units, λ̂ = λ / (ω P³)), or its default raw p (λ̂ = tr R̂ / (6 tr Q̂ᵀŴ⁻¹Q̂))."""
    if normalized:
        p = jnp.asarray(0.5, widths.dtype) if p is None else p
        span = in_axis_units(xp[-1], xp) - in_axis_units(xp[0], xp)
        noise, drift = _csaps_noises(p, widths, span, w, scale)
        return drift / (drift + noise * _cube(xp) * scale), noise, drift  # csaps' p̂
    if p is not None:  # p = 1 interpolates even where P³ underflows (then λ̂ = 0/0)
        return p, jnp.where(p == 1, 0, (1 - p) / _cube(xp) / scale), p
    lam = _csaps_default(widths, w)
    return 1 / (1 + lam * scale * _cube(xp)), lam, jnp.ones_like(lam)


def _cube(xp):
    """P³, the axis' unit cubed (λ's unit; it may overflow: then λ is ∞, or p 0)."""
    unit = span_units(xp)[1]
    return unit * unit * unit


def _csaps_default(h, w):
    """λ̂ of csaps' default p, ``tr R / (6 tr QᵀW⁻¹Q)`` (0 for two sites: the line)."""
    if h.shape[0] < 2:
        return jnp.zeros_like(h[0])
    r = 2 * jnp.sum(h[1:] + h[:-1])
    left, right = 1 / h[:-1], 1 / h[1:]
    q = jnp.sum(left * left / w[:-2] + jnp.square(left + right) / w[1:-1] + right * right / w[2:])
    return r / (6 * q)
