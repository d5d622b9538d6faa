"""`approx_df`: a method's slopes at the knots, on their own (interpax's name and meaning)."""

from functools import partial

import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._methods.registry import CUBIC_METHODS
from .._utils.dtypes import lists_to_arrays
from .._utils.types import ArrayInput, BcType, CubicMethodName
from .fit import knot_slopes
from .prepare import ArgumentNames, FitArgs, FitSpec, prepare_fit


def approx_df(
    x: Float[ArrayInput, " n"],
    f: Inexact[ArrayInput, "*shape"],
    method: CubicMethodName = "cubic",
    axis: int = -1,
    *,
    bc_type: BcType = None,
    c: Float[ArrayLike, ""] | None = None,
) -> Inexact[Array, "*shape"]:
    """Slopes df/dx at the knots ``x`` that a cubic ``method`` of `interp1d` uses.

    interpax's function: the knot slopes alone, without a fit's pieces.  Passed
    as ``fx`` to `interp1d` with any cubic method, they rebuild the method's
    interpolant.  Jittable, vmappable and differentiable.

    Parameters
    ----------
    x : array_like, shape (n,)
        Knots, real, finite and strictly increasing; ``n >= 2``.
    f : array_like, shape (..., n, ...)
        Values at the knots, real or complex, with ``f.shape[axis] == n``;
        every other axis is a column.
    method : str, default "cubic"
        One of the cubic methods of `interp1d` (its Notes give each one's
        slopes): ``"cubic"``, ``"cubic2"``, ``"catmull-rom"``,
        ``"cardinal"``, ``"monotonic"``, ``"monotonic-0"``, ``"akima"``,
        ``"makima"``.
    axis : int, default -1
        The axis of ``f`` along the knots (interpax's default, the last).
    bc_type : str or (start, end) pair, optional
        ``"cubic2"``'s end conditions, as `interp1d`'s.
    c : scalar, optional
        ``"cardinal"``'s tension, in [0, 1].

    Returns
    -------
    df : jax.Array
        The slopes, ``f``'s shape, in the fit's dtype ``result_type(x, f)``
        (at least float32).

    Raises
    ------
    ValueError
        A ``method`` without slopes (``"linear"``, ``"nearest"``) or unknown,
        and `interp1d`'s checks of the options and of concrete data.  Bad
        traced data give NaN slopes and gradients instead.
    NotRealError
        Knots or tension not real.

    See Also
    --------
    interp1d : The interpolant with these slopes (``fx``).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 4)
    >>> print(np.round(np.asarray(splines.approx_df(x, x**2)), 6))
    [1. 2. 4. 5.]
    >>> print(np.round(np.asarray(splines.approx_df(x, x**2, method="cubic2")), 6))
    [0. 2. 4. 6.]
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
