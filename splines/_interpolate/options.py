"""The user's options parsed once: ``bc_type`` into end conditions, ``extrap`` into
extension or fill values, one option or one per axis.

``bc_type`` becomes each end's static kind (`_methods.ends`), which steers
Python-level branches at trace time, and an array value for derivative
kinds (differentiable, possibly traced): only the values reach the program.
"""

from typing import Any, NamedTuple

import jax.numpy as jnp
import numpy as np

from .._methods.ends import NOT_A_KNOT, PERIODIC, EndConditions
from .._utils.dtypes import dtype_kind, value_as_dtype

_NAMED_END = {"natural": (2, 0.0), "clamped": (1, 0.0), NOT_A_KNOT: (NOT_A_KNOT, 0.0)}
BC_TYPES = (NOT_A_KNOT, "natural", "clamped", PERIODIC)


def _bad_bc(bc_type: Any, why: str) -> ValueError:
    return ValueError(
        f"`bc_type`={bc_type!r} is not understood: {why}. Use one of {BC_TYPES} "
        "or a pair of ends, each a name or (order, value) with order 1 or 2."
    )


def _parse_end(end: Any, bc_type: Any) -> tuple:
    if isinstance(end, str):
        if end not in _NAMED_END:
            raise _bad_bc(bc_type, f"unknown end condition {end!r}")
        return _NAMED_END[end]
    if not isinstance(end, (tuple, list)) or len(end) != 2:
        raise _bad_bc(bc_type, f"end condition {end!r} is not a name or (order, value)")
    order, value = end
    if isinstance(order, bool) or order not in (1, 2):
        raise _bad_bc(bc_type, f"derivative order {order!r} is not 1 or 2")
    return int(order), value


def parse_bc_type(bc_type: Any, periodic: bool) -> EndConditions:
    """Turn scipy-style ``bc_type`` into static kinds and array values.

    ``None`` means ``"not-a-knot"``, or ``"periodic"`` when a period is given.
    """
    if bc_type is None:
        bc_type = PERIODIC if periodic else NOT_A_KNOT
    if periodic and bc_type != PERIODIC:
        raise _bad_bc(bc_type, "a `period` was given, which implies 'periodic'")
    if isinstance(bc_type, str):
        if bc_type == PERIODIC:
            return EndConditions((PERIODIC, PERIODIC), (0.0, 0.0))
        if bc_type not in _NAMED_END:
            raise _bad_bc(bc_type, "unknown name")
        bc_type = (bc_type, bc_type)
    if not isinstance(bc_type, (tuple, list)) or len(bc_type) != 2:
        raise _bad_bc(bc_type, "expected a name or a pair of end conditions")
    (k0, v0), (k1, v1) = (_parse_end(end, bc_type) for end in bc_type)
    return EndConditions((k0, k1), (v0, v1))


class Extrapolation(NamedTuple):
    """Per side (below, above): ``extend`` the end piece (static), else ``fill`` it."""

    extend: tuple  # two bools
    fill: tuple  # two arrays of the data's dtype, or None: NaN (a side given as a bool)


def fill_array(fill: tuple, dtype):
    """The (below, above) ``fill`` as one array of ``dtype``, NaN for None."""
    return jnp.stack([jnp.full((), jnp.nan, dtype) if f is None else f for f in fill])


def parse_extrap(extrap: Any, periodic: bool, dtype, name: str = "extrap") -> Extrapolation:
    """interpax's ``extrap``: one option for both sides, or a (below, above) pair of them
    (a sequence or a 1-D array of two); an option is ``True`` (extend the end piece),
    ``False`` (NaN outside) or a number (that fill).

    Periodic queries wrap and are never outside, so any other ``extrap`` than
    ``False`` (or ``(False, False)``) is an error there rather than an option
    silently ignored.
    """
    sides = _as_pair(extrap)
    if periodic and not (sides is not None and all(_is_bool(e) and not e for e in sides)):
        raise ValueError(
            f"`{name}`={extrap!r} has no effect on periodic data: queries wrap into "
            "the period. Leave it out."
        )
    if sides is None or not all(_is_bool(e) or _is_scalar(e) for e in sides):
        raise ValueError(
            f"`{name}`={extrap!r} must be a bool, a number, or a (below, above) pair of them; "
            "complex fills need complex `fp`."
        )
    extend = tuple(bool(e) if _is_bool(e) else False for e in sides)
    # NaN is made in the program: a call then passes no array for it.
    fill = tuple(None if _is_bool(e) else value_as_dtype(e, dtype, "extrap") for e in sides)
    return Extrapolation(extend, fill)


def _as_pair(extrap: Any):
    """``extrap`` as (below, above): a pair as it is, one option twice; None if neither."""
    if isinstance(extrap, (tuple, list)) or np.ndim(extrap) == 1:
        return tuple(extrap) if len(extrap) == 2 else None
    return (extrap, extrap)


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_scalar(value: Any) -> bool:
    """A number (not a bool): Python, numpy or a 0-d array, real or complex."""
    return np.ndim(value) == 0 and dtype_kind(value) in "iufc"


def per_axis(value: Any, ndim: int, name: str) -> tuple:
    """One option for every axis, or a sequence (or 1-D array) of ``ndim``, one per axis."""
    if isinstance(value, (tuple, list)) or np.ndim(value) == 1:
        if len(value) != ndim:
            raise ValueError(
                f"`{name}`={value!r} must be one value for all {ndim} axes or one per axis."
            )
        return tuple(value)
    return (value,) * ndim


def parse_grid_extrap(extrap: Any, periodic: tuple, dtype) -> tuple:
    """`parse_extrap` per axis, read as interpax reads it: ``extrap`` is one 1-D option
    for all axes (a bool, a number, or a (below, above) pair of them, in any number of
    dimensions), or one per axis.

    One per axis is an array of shape ``(ndim, 2)``, or a sequence of ``ndim``
    options that is not a pair of scalars: ``((True, True), (0.0, 1.0))`` extends x
    and fills y; in 3-D, ``(0.0, 1.0, 2.0)`` fills each axis with its own.  So in
    2-D ``(True, 0.0)`` is one pair for both axes (interpax's reading): below
    extend, above fill with 0.  One option for all axes applies to the axes that
    do not wrap (an error when all of them wrap, unless it is ``False``).
    """
    ndim = len(periodic)
    if getattr(extrap, "shape", None) == (ndim, 2):  # an array of (below, above) rows
        extrap = [
            tuple(row) for row in (extrap.tolist() if isinstance(extrap, np.ndarray) else extrap)
        ]
    if _one_per_axis(extrap, ndim):
        return tuple(
            parse_extrap(e, p, dtype, f"extrap[{axis}]")
            for axis, (e, p) in enumerate(zip(extrap, periodic))
        )
    if isinstance(extrap, (tuple, list)) and not _pair_of_scalars(extrap):
        raise ValueError(
            f"`extrap`={extrap!r} must be one option for all {ndim} axes (a bool, a number "
            f"or a (below, above) pair of them) or {ndim} options, one per axis."
        )
    if all(periodic):
        return (parse_extrap(extrap, True, dtype),) * ndim
    one, wraps = parse_extrap(extrap, False, dtype), parse_extrap(False, True, dtype)
    return tuple(wraps if p else one for p in periodic)


def _pair_of_scalars(extrap: Any) -> bool:
    return len(extrap) == 2 and all(_is_bool(e) or _is_scalar(e) for e in extrap)


def _one_per_axis(extrap: Any, ndim: int) -> bool:
    """A sequence of ``ndim`` options, unless it is a pair of scalars (one for all axes)."""
    if not isinstance(extrap, (tuple, list)) or len(extrap) != ndim:
        return False
    return not _pair_of_scalars(extrap)
