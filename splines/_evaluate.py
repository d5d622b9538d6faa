"""Evaluation: cell search → local polynomial → Horner → out-of-range handling."""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from ._hermite import horner
from ._layout import from_columns
from ._methods import get_method
from ._search import locate, wrap


class EvalSpec(NamedTuple):
    """Static description of an evaluation: part of the jit cache key."""

    method: str
    derivative: int
    extend: bool  # extend the end pieces (ignored when periodic)
    periodic: bool  # wrap queries into the knots' period
    axis: int
    column_shape: tuple


def check_derivative(derivative) -> int:
    if isinstance(derivative, bool) or not isinstance(derivative, (int, np.integer)):
        raise TypeError(f"`derivative` must be a Python int; got {derivative!r}.")
    if derivative < 0:
        raise ValueError(f"`derivative` must be ≥ 0; got {derivative}.")
    return int(derivative)


def evaluate(x, knots, values, slopes, fill, spec: EvalSpec):
    """Interpolant at ``x`` (any shape) in numpy's output layout.

    ``values``/``slopes``: ``(n, k)``; ``fill``: (below, above) scalars, used
    only when neither extending nor periodic.
    """
    x_shape = jnp.shape(x)
    x = jnp.reshape(x, (-1,))
    if spec.periodic:
        x = wrap(x, knots[0], knots[-1] - knots[0])
    i = locate(x, knots)
    t = (x - knots[i])[:, None]
    h = (knots[i + 1] - knots[i])[:, None]
    s0, s1 = (None, None) if slopes is None else (slopes[i], slopes[i + 1])
    pieces = get_method(spec.method).pieces(t, h, values[i], values[i + 1], s0, s1)
    out = horner(pieces, t, spec.derivative)
    out = jnp.broadcast_to(out, (x.shape[0], values.shape[1]))
    if not (spec.extend or spec.periodic):
        below, above = (jnp.asarray(f, out.dtype) for f in fill)
        out = jnp.where((x < knots[0])[:, None], below, out)
        out = jnp.where((x > knots[-1])[:, None], above, out)
    return from_columns(out, x_shape, spec.column_shape, spec.axis)
