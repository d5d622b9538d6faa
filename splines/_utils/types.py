"""The types of the public API: what its array arguments accept, and its option names.

One place for every alias a public signature uses, so that a type checker
(pyright, mypy) accepts what the runtime accepts and rejects the option names
it rejects.  `tests/test_typing.py` checks each ``Literal`` against the
runtime's own sets (`_methods.registry.METHODS`, ...), so they cannot drift.

Arrays: `ArrayInput` is `jax.typing.ArrayLike` (jax and numpy arrays, numpy
and Python scalars) or a nested sequence of them (lists, tuples), which every
entry point converts with `numpy.asarray`.  jaxtyping's ``Float[ArrayInput,
"n"]`` adds the shape for the reader; to a type checker it is `ArrayInput`
(jaxtyping's dtype-and-shape types are ``Annotated`` there).
"""

from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

import numpy as np
from jax.typing import ArrayLike

_T = TypeVar("_T")

#: An array, a scalar, or nested lists and tuples of them (`numpy.asarray`'s input).
ArrayInput: TypeAlias = ArrayLike | Sequence["ArrayInput"]

#: The methods of `interp1d`, `interp2d`, `interp3d` and the interpolator classes
#: (`_methods.registry.METHODS`).
MethodName: TypeAlias = Literal[
    "nearest",
    "linear",
    "cubic2",
    "cubic",
    "catmull-rom",
    "cardinal",
    "monotonic",
    "monotonic-0",
    "akima",
    "makima",
]

#: The methods with slopes at the knots: `approx_df`'s, and those that take given
#: derivatives (`_methods.registry.CUBIC_METHODS`).
CubicMethodName: TypeAlias = Literal[
    "cubic2",
    "cubic",
    "catmull-rom",
    "cardinal",
    "monotonic",
    "monotonic-0",
    "akima",
    "makima",
]

#: `interpn`'s and `RegularGridInterpolator`'s: ours and scipy's names
#: (``"slinear"``, ``"cubic_legacy"``; scipy's ``"cubic"`` is our ``"cubic2"``).
GridMethodName: TypeAlias = Literal[MethodName, "slinear", "cubic_legacy"]

#: `Akima1DInterpolator`'s ``method``.
AkimaMethodName: TypeAlias = Literal["akima", "makima"]

#: `make_lsq_spline`'s ``method``: QR or the normal equations.
LsqMethodName: TypeAlias = Literal["qr", "norm-eq"]

#: A named end condition of ``bc_type`` (`_interpolate.options`).
EndName: TypeAlias = Literal["not-a-knot", "natural", "clamped"]

#: ``bc_type`` given as one name for both ends.
BcTypeName: TypeAlias = Literal[EndName, "periodic"]

#: One end: a name, or ``(order, value)`` with order 1 or 2.
End: TypeAlias = EndName | tuple[Literal[1, 2], ArrayInput]

#: ``bc_type``: a name, a (start, end) pair of ends, or None (the default).
BcType: TypeAlias = BcTypeName | tuple[End, End] | Sequence[End] | None

#: One end of `make_interp_spline`'s ``bc_type``: None (not-a-knot), a name, or
#: ``(order, value)`` pairs of derivatives there.
BSplineEnd: TypeAlias = (
    Literal["not-a-knot", "clamped", "natural"] | Sequence[tuple[int, ArrayInput]] | None
)

#: `make_interp_spline`'s ``bc_type``: one name for both ends, or a (start, end) pair.
BSplineBcType: TypeAlias = (
    Literal["not-a-knot", "clamped", "natural", "periodic"]
    | tuple[BSplineEnd, BSplineEnd]
    | Sequence[BSplineEnd]
    | None
)

#: scipy's ``extrapolate``: True, False, ``"periodic"`` or None (the object's own).
Extrapolate: TypeAlias = bool | Literal["periodic"] | None

#: interpax's ``extrap``: a bool (extend or NaN) or a number (a fill), or a
#: (below, above) pair of them.
Extrap: TypeAlias = ArrayLike | Sequence[ArrayLike]

#: A grid's ``extrap``: one `Extrap` for every axis, or one per axis.
GridExtrap: TypeAlias = ArrayLike | Sequence[ArrayLike | Sequence[ArrayLike]]

#: A grid's option given once for every axis or once per axis (a tuple or a list).  The
#: sequences here are `Sequence`, read-only: a ``list[float]`` passes for ``float | None``.
PerAxis: TypeAlias = _T | Sequence[_T]

#: One derivative order: a Python int or a numpy integer (``np.arange``'s, an index).
Order: TypeAlias = int | np.integer[Any]

#: The derivative orders of a 1-D interpolant: one order, or several (stacked).
Orders: TypeAlias = Order | Sequence[Order]

#: A grid's orders: one for every axis, one per axis, or a sequence of either (stacked).
GridOrders: TypeAlias = Order | Sequence[Order] | Sequence[Sequence[Order]]


class BSplineLike(Protocol):
    """What `PPoly.from_spline` reads off a B-spline object (scipy's `BSpline`)."""

    @property
    def t(self) -> ArrayInput: ...

    @property
    def c(self) -> ArrayInput: ...

    @property
    def k(self) -> int: ...
