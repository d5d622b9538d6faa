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
from typing import Any, Literal

import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._interpolate.fit import jit_fit
from .._interpolate.prepare import ArgumentNames, prepare_fit
from .._utils.dtypes import dtype_kind, lists_to_arrays, warn_if_x64_disabled
from .checks import parse_extrapolate
from .ppoly import PERIODIC, AbstractPPoly

_NAMES = ArgumentNames(knots=("x",), queries=("x",), values="y", slopes="dydx")


def _fit_into(self: AbstractPPoly, x, y, method, axis, extrapolate, default, check,
              bc_type=None, dydx=None):  # fmt: skip
    """Fit ``y`` at ``x`` with ``method`` and set the fields of ``self`` (in `__init__`)."""
    x, y, dydx = lists_to_arrays(x, y, dydx)
    warn_if_x64_disabled(x, y, dydx)
    spec, args = prepare_fit((x,), y, method, bc_type, (None,), axis, None, {1: dydx}, _NAMES,
                             bool(check))  # fmt: skip
    (self.breaks,), self.coefficients, self.end = jit_fit(args, spec)
    self.extrapolate = parse_extrapolate(extrapolate, PERIODIC if spec.periodic[0] else default)
    self.axis, self.column_shape, self.descending = spec.axis, spec.column_shape, False


def _real_only(y, cls: str) -> None:
    if dtype_kind(y) == "c":
        raise ValueError(f"`{cls}` needs real `y`; got complex values (pass `y.real`?).")


class CubicHermiteSpline(AbstractPPoly):
    """Piecewise cubic with given values ``y`` and slopes ``dydx`` at ``x``
    (`scipy.interpolate.CubicHermiteSpline`; a `PPoly`)."""

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Inexact[ArrayLike, "*shape"],
        dydx: Inexact[ArrayLike, "*shape"],
        axis: int = 0,
        extrapolate: bool | str | None = None,
        check: bool = True,
    ):
        _fit_into(self, x, y, "cubic", axis, extrapolate, True, check, dydx=dydx)


class CubicSpline(AbstractPPoly):
    """The C² cubic spline through ``y`` at ``x`` (`scipy.interpolate.CubicSpline`).

    ``bc_type``: ``"not-a-knot"``, ``"natural"``, ``"clamped"``, ``"periodic"``
    (``y`` equal at both ends; extrapolation then defaults to periodic) or a
    pair of ends, each a name or ``(order, value)`` with order 1 or 2 and, as
    scipy's, one value per polynomial (the shape of ``y`` without ``axis``);
    a complex value makes the spline complex — differentiable.
    """

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Inexact[ArrayLike, "*shape"],
        axis: int = 0,
        bc_type: Any = "not-a-knot",
        extrapolate: bool | str | None = None,
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
    """Monotone piecewise cubic (Fritsch & Carlson 1980, `scipy.interpolate.PchipInterpolator`)."""

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Float[ArrayLike, "*shape"],
        axis: int = 0,
        extrapolate: bool | str | None = None,
        check: bool = True,
    ):
        _real_only(y, "PchipInterpolator")
        _fit_into(self, x, y, "monotonic", axis, extrapolate, True, check)


def pchip_interpolate(
    xi: Float[ArrayLike, " n"],
    yi: Float[ArrayLike, "*shape"],
    x: Float[ArrayLike, "..."],
    der: int | Sequence[int] = 0,
    axis: int = 0,
) -> Inexact[Array, "..."] | list:
    """`scipy.interpolate.pchip_interpolate`: `PchipInterpolator` ``(xi, yi, axis=axis)``
    at ``x``.  ``der``: a derivative order (negative: an antiderivative, as scipy's), or
    a list of them (then a list of arrays; the derivatives from one search)."""
    spline = PchipInterpolator(xi, yi, axis=axis)
    if np.ndim(der) == 0:
        return spline(x, der) if der >= 0 else spline.derivative(der)(x)
    if any(nu < 0 for nu in der):
        return [spline.derivative(nu)(x) for nu in der]
    return list(spline(x, tuple(int(nu) for nu in der))) if len(der) else []


class Akima1DInterpolator(AbstractPPoly):
    """Akima's (1970) piecewise cubic, or its modified form ``method="makima"``
    (`scipy.interpolate.Akima1DInterpolator`; NaN outside unless ``extrapolate``)."""

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Float[ArrayLike, "*shape"],
        axis: int = 0,
        extrapolate: bool | str | None = None,
        check: bool = True,
        *,
        method: Literal["akima", "makima"] = "akima",
    ):
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"`method`={method} is unsupported: use 'akima' or 'makima'.")
        _real_only(y, "Akima1DInterpolator")
        _fit_into(self, x, y, method, axis, extrapolate, False, check)
