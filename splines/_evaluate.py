"""Evaluation: cell search → Horner on the piece → out-of-range handling."""

from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from ._dtypes import as_dtype, check_real, query_dtype
from ._hermite import horner
from ._layout import from_columns
from ._search import locate, wrap


class EvalSpec(NamedTuple):
    """Static description of an evaluation: part of the jit cache key."""

    derivative: int
    extend: bool  # extend the end pieces (ignored when periodic)
    periodic: bool  # wrap queries into the breaks' period
    right_closed: bool  # a query on a break takes the piece on its left
    axis: int
    column_shape: tuple


def check_derivative(derivative) -> int:
    if isinstance(derivative, bool) or not isinstance(derivative, (int, np.integer)):
        raise TypeError(f"`derivative` must be a Python int; got {derivative!r}.")
    if derivative < 0:
        raise ValueError(f"`derivative` must be ≥ 0; got {derivative}.")
    return int(derivative)


def prepare_queries(x, real_dtype):
    """Queries as an array of their promoted real dtype; complex ones raise `TypeError`."""
    check_real(x, "x")
    return as_dtype(x, query_dtype(x, real_dtype))


def evaluate(x, breaks, coefficients, fill, spec: EvalSpec):
    """The piecewise polynomial at ``x`` (any shape), in numpy's output layout.

    ``coefficients``: ``(len(breaks) - 1, k, degree + 1)`` in the local
    coordinate t of each piece (`_hermite`); ``fill``: (below, above) scalars,
    used only when neither extending nor periodic.  A NaN query — or ±inf under
    a period, which wraps to NaN — gives NaN whatever the method, order or fill.
    """
    x_shape = x.shape
    x = jnp.reshape(x, (-1,))
    if spec.periodic:
        x = wrap(x, breaks[0], breaks[-1] - breaks[0])
    j = locate(x, breaks, spec.right_closed)
    width = (breaks[j + 1] - breaks[j])[:, None]
    out = horner(coefficients[j], (x[:, None] - breaks[j][:, None]) / width, spec.derivative)
    degree = coefficients.shape[-1] - 1
    if spec.derivative:  # d/dx = (d/dt) / h, one factor at a time: no overflow
        inverse = 1 / width  # (XLA folds (a / h) / h into a / h², which would)
        for _ in range(min(spec.derivative, degree)):
            out = out * inverse
    if spec.derivative >= degree:  # no t left: keep invalid data's NaN in d/dx too
        out = out + _zero_carrying_nan(x, breaks[j])[:, None]
    if not (spec.extend or spec.periodic):
        below, above = fill
        out = jnp.where((x < breaks[0])[:, None], below, out)
        out = jnp.where((x > breaks[-1])[:, None], above, out)
    out = jnp.where(jnp.isnan(x)[:, None], jnp.nan, out)
    return from_columns(out, x_shape, spec.column_shape, spec.axis)


def _zero_carrying_nan(x, start):
    """An exact 0 whose derivatives in ``x`` and the knots are NaN when ``start`` is.

    Where the output does not depend on t (a constant piece, or a derivative
    at or past the degree), invalid knots (NaN breaks, see `_validate.poison`)
    would otherwise leave a zero gradient w.r.t. the queries.  ``0 · start``
    comes first so the product never overflows; infinite queries count as 0.
    """
    return (0 * start) * jnp.where(jnp.isinf(x), 0, x)
