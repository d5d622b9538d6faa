"""scipy's interpolating splines on our fit: `CubicSpline`, `CubicHermiteSpline`,
`PchipInterpolator`, `Akima1DInterpolator`.

Each is `_interpolate.fit.fit` with one of our methods — ``"cubic2"``, given slopes,
``"monotonic"``, ``"akima"``/``"makima"`` — held as an `AbstractPPoly`:
the same breaks and local coefficients as `Interpolator1D`, scipy's names
and defaults around them.  Arguments are checked as `interp1d` checks them
(bad concrete data raise `ValueError`; bad traced data give NaN).  ``check=False``
(interpax's keyword) skips the eager data checks: bad concrete data then give NaN too.
"""

from typing import Any, Literal, Optional

from jaxtyping import ArrayLike, Float, Inexact

from .._interpolate.fit import jit_fit
from .._interpolate.prepare import ArgumentNames, prepare_fit
from .._utils.dtypes import dtype_kind, lists_to_arrays
from .checks import parse_extrapolate
from .ppoly import PERIODIC, AbstractPPoly

_NAMES = ArgumentNames(knots=("x",), queries=("x",), values="y", slopes="dydx")


def _fit_into(self: AbstractPPoly, x, y, method, axis, extrapolate, default, check,
              bc_type=None, dydx=None):  # fmt: skip
    """Fit ``y`` at ``x`` with ``method`` and set the fields of ``self`` (in `__init__`)."""
    x, y, dydx = lists_to_arrays(x, y, dydx)
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
        extrapolate: Optional[bool | str] = None,
        check: bool = True,
    ):
        _fit_into(self, x, y, "cubic", axis, extrapolate, True, check, dydx=dydx)


class CubicSpline(AbstractPPoly):
    """The C² cubic spline through ``y`` at ``x`` (`scipy.interpolate.CubicSpline`).

    ``bc_type``: ``"not-a-knot"``, ``"natural"``, ``"clamped"``, ``"periodic"``
    (``y`` equal at both ends; extrapolation then defaults to periodic) or a
    pair of ends, each a name or ``(order, value)`` with order 1 or 2 and
    values broadcasting to one per polynomial — differentiable.
    """

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Inexact[ArrayLike, "*shape"],
        axis: int = 0,
        bc_type: Any = "not-a-knot",
        extrapolate: Optional[bool | str] = None,
        check: bool = True,
    ):
        _fit_into(self, x, y, "cubic2", axis, extrapolate, True, check, bc_type=bc_type)


class PchipInterpolator(AbstractPPoly):
    """Monotone piecewise cubic (Fritsch & Carlson 1980, `scipy.interpolate.PchipInterpolator`)."""

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Float[ArrayLike, "*shape"],
        axis: int = 0,
        extrapolate: Optional[bool | str] = None,
        check: bool = True,
    ):
        _real_only(y, "PchipInterpolator")
        _fit_into(self, x, y, "monotonic", axis, extrapolate, True, check)


class Akima1DInterpolator(AbstractPPoly):
    """Akima's (1970) piecewise cubic, or its modified form ``method="makima"``
    (`scipy.interpolate.Akima1DInterpolator`; NaN outside unless ``extrapolate``)."""

    def __init__(
        self,
        x: Float[ArrayLike, " n"],
        y: Float[ArrayLike, "*shape"],
        axis: int = 0,
        extrapolate: Optional[bool | str] = None,
        check: bool = True,
        *,
        method: Literal["akima", "makima"] = "akima",
    ):
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"`method`={method!r} is not 'akima' or 'makima'.")
        _real_only(y, "Akima1DInterpolator")
        _fit_into(self, x, y, method, axis, extrapolate, False, check)
