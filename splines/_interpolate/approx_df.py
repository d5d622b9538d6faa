"""`approx_df`: a method's slopes at the knots, on their own (interpax's name and meaning)."""

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._methods.registry import CUBIC_METHODS
from .._utils.dtypes import lists_to_arrays
from .fit import knot_slopes
from .prepare import ArgumentNames, FitArgs, FitSpec, prepare_fit


def approx_df(
    x: Float[ArrayLike, " n"],
    f: Inexact[ArrayLike, "*shape"],
    method: str = "cubic",
    axis: int = -1,
    *,
    bc_type: Any = None,
    c: Float[ArrayLike, ""] | None = None,
) -> Inexact[Array, "*shape"]:
    """Slopes df/dx at the knots ``x`` that a cubic ``method`` of `interp1d` uses.

    Args:
        x: strictly increasing knots, shape ``(n,)``.
        f: values, ``f.shape[axis] == n``; every other axis is a column.
        method: one of the cubic methods (see `interp1d`): ``"cubic"``,
            ``"cubic2"``, ``"catmull-rom"``, ``"cardinal"``, ``"monotonic"``,
            ``"monotonic-0"``, ``"akima"``, ``"makima"``.
        axis: the axis of ``f`` along the knots (interpax's default, −1).
        bc_type: ``"cubic2"``'s end conditions (see `interp1d`).
        c: ``"cardinal"``'s tension in [0, 1].

    Returns:
        The slopes, ``f``'s shape, in the fit's dtype ``result_type(x, f)``
        (at least float32).  Invalid data raise or give NaN as in `interp1d`.
    """
    if method not in CUBIC_METHODS:
        raise ValueError(f"`method`={method!r} has no slopes; use one of {CUBIC_METHODS}.")
    x, f = lists_to_arrays(x, f)
    spec, args = prepare_fit((x,), f, method, bc_type, (None,), axis, c, names=_NAMES)
    return _approx_df(args, spec)


_NAMES = ArgumentNames(knots=("x",), queries=("x",), values="f")


@partial(jax.jit, static_argnums=1)
def _approx_df(args: FitArgs, spec: FitSpec):
    slopes = knot_slopes(args, spec)  # (n, k)
    slopes = jnp.reshape(slopes, slopes.shape[:1] + spec.column_shape)
    return jnp.moveaxis(slopes, 0, spec.axis)
