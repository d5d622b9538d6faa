"""The eager side of scipy's B-spline fits (`bspline_fits`): their arguments' shapes,
``bc_type`` parsed into static derivative orders and values, the knot rule, and the
checks of concrete data in numpy (`ValueError` naming the argument and index:
non-finite values, decreasing sites, sites outside the knots, Schoenberg–Whitney)."""

import math

import jax
import jax.numpy as jnp
import numpy as np

from .._utils.columns import normalize_axis
from .._utils.dtypes import check_real
from .._utils.validate import check_knots_eagerly as check_increasing_eagerly
from .._utils.validate import check_values_eagerly
from .bspline import _basis_values
from .bsplines import check_inside_eagerly, check_knots_eagerly

_NAMED_ENDS = {"clamped": 1, "natural": 2}


def _sites_and_values(x, y, axis):
    """``x`` checked 1-D and real, ``y`` with ``axis`` first, and y's other axes."""
    check_real(x, "x")
    if np.ndim(x) != 1:
        raise ValueError(f"`x` must be 1-D; got shape {np.shape(x)}.")
    if np.ndim(y) < 1:
        raise ValueError(f"`y` must be at least 1-D; got shape {np.shape(y)}.")
    axis = normalize_axis(axis, np.ndim(y), "y")
    y = (
        jnp.moveaxis(y, axis, 0)
        if isinstance(y, jax.Array)
        else np.moveaxis(np.asarray(y), axis, 0)
    )
    if y.shape[0] != np.shape(x)[0]:
        raise ValueError(
            f"`y` must have len(x) = {np.shape(x)[0]} values along `axis`={axis}; got "
            f"{y.shape[0]} (shape {np.shape(y)})."
        )
    return x, y, tuple(y.shape[1:]), axis


def _parse_bc_type(bc_type):
    """``(start, end)`` ends (None, a name, or (order, value) pairs); None for periodic."""
    if bc_type is None or (isinstance(bc_type, str) and bc_type == "not-a-knot"):
        return (None, None)
    if isinstance(bc_type, str):
        if bc_type == "periodic":
            return None
        if bc_type not in _NAMED_ENDS:
            raise ValueError(
                f"`bc_type` must be None, 'not-a-knot', 'clamped', 'natural', 'periodic' or a "
                f"(start, end) pair; got {bc_type!r}."
            )
        return (bc_type, bc_type)
    try:
        start, end = bc_type
    except (TypeError, ValueError):
        raise ValueError(
            f"`bc_type` must be a name or a (start, end) pair of ends; got {bc_type!r}."
        ) from None
    return (start, end)


def _end(end, side: str, k: int, columns: tuple, dtype):
    """An end's static derivative orders and their values ``(orders, values)``."""
    if end is None or (isinstance(end, str) and end == "not-a-knot"):
        return (), None
    if isinstance(end, str):
        if end not in _NAMED_ENDS:
            raise ValueError(
                f"`bc_type` at the {side}: unknown end condition {end!r} (use 'clamped', "
                "'natural' or (order, value) pairs)."
            )
        return (_NAMED_ENDS[end],), np.zeros((1,) + columns, dtype)
    try:
        pairs = [tuple(pair) for pair in end]
        orders, values = zip(*pairs) if pairs else ((), ())
        if any(len(pair) != 2 for pair in pairs):
            raise TypeError
    except TypeError:
        raise ValueError(
            f"`bc_type` at the {side} must be a name or a sequence of (order, value) pairs; "
            f"got {end!r}."
        ) from None
    if not pairs:
        return (), None
    orders = tuple(
        _derivative_order(order, k, side, end) for order in orders
    )  # static: they select the program
    try:
        values = [_as_columns(v, columns, dtype) for v in values]
    except ValueError:
        raise ValueError(
            f"`bc_type` at the {side}: each value must broadcast to `y`'s shape without "
            f"`axis`, {columns}; got {end!r}."
        ) from None
    stack = jnp.stack if any(isinstance(v, jax.Array) for v in values) else np.stack
    return orders, stack(values)


def _as_columns(value, columns: tuple, dtype):
    """An end value as ``y``'s shape without ``axis``: broadcast, or reshaped when it holds
    one number per column (scipy reshapes)."""
    xnp = jnp if isinstance(value, jax.Array) else np
    value = xnp.asarray(value, dtype)
    if value.size == math.prod(columns):
        return xnp.reshape(value, columns)
    return xnp.broadcast_to(value, columns)


def _derivative_order(order, k: int, side: str, end) -> int:
    if isinstance(order, (bool, np.bool_)) or not isinstance(order, (int, np.integer)):
        raise ValueError(f"`bc_type` at the {side}: orders must be ints; got {end!r}.")
    if not 0 <= order <= k:
        raise ValueError(
            f"`bc_type` at the {side}: derivative orders must be in 0 … k = {k}; got "
            f"{int(order)} in {end!r}."
        )
    return int(order)


def _knot_rule(k: int, t, left: tuple, right: tuple, n: int) -> str:
    """Which knots the fit makes ("given" when ``t`` is), with scipy's static checks."""
    given = t is not None
    if k == 0:
        if given or left or right:
            raise ValueError(
                "Too much information for k = 0: `t` and `bc_type` must be None (or 'not-a-knot')."
            )
        if n < 1:
            raise ValueError("`x` needs at least 1 site for k = 0; got 0.")
        return "k0"
    if k == 1 and not given:
        if left or right:
            raise ValueError("Too much information for k = 1: `bc_type` must be None.")
        if n < 2:
            raise ValueError(f"`x` needs at least 2 sites for k = 1; got {n}.")
        return "k1"
    if given:
        return "given"
    if not left and not right:
        if n < k + 1:
            raise ValueError(
                f"`x` needs at least k + 1 = {k + 1} sites for not-a-knot knots of degree "
                f"`k`={k}; got {n}."
            )
        return "not-a-knot"
    if len(left) + len(right) != k - 1:
        raise ValueError(
            f"The number of end derivatives does not match: degree `k`={k} with the knots "
            f"made from `x` needs k − 1 = {k - 1}; got {len(left)} + {len(right)}."
        )
    if n < 2:
        raise ValueError(f"`x` needs at least 2 sites; got {n}.")
    return "augknt"


def _check_interp_eagerly(x, y, t, k, left, right, left_values, right_values, check_finite):
    x = np.asarray(x)
    if check_finite:
        check_values_eagerly(x, "x")
        check_values_eagerly(np.asarray(y), "y")
        for values, side in ((left_values, "start"), (right_values, "end")):
            if values is not None:
                check_values_eagerly(np.asarray(values), f"bc_type values at the {side}")
    if x.shape[0] > 1:
        check_increasing_eagerly(x, "x")
    if t is None:
        return
    t = np.asarray(t)
    if check_finite:
        check_values_eagerly(t, "t")
    check_knots_eagerly(t, k, "t", base=False)
    end = t[-k] if k else t[-1]
    if x[0] < t[k] or x[-1] > end:
        i = 0 if x[0] < t[k] else x.shape[0] - 1
        raise ValueError(
            f"`x[{i}]` = {x[i]} is outside the knots' interval [t[k], t[-k]] = [{t[k]}, {end}]."
        )
    nt = t.shape[0] - k - 1
    l = np.clip(np.searchsorted(t, x, side="right") - 1, k, nt - 1)
    basis = _basis_values(t.astype(np.float64), l, x.astype(np.float64), k)[k]
    rows = len(left) + np.arange(x.shape[0])
    position = (l - rows)[:, None] + np.arange(k + 1)
    stray = np.flatnonzero(np.any(((position < 0) | (position > 2 * k)) & (basis != 0), axis=1))
    j = k - (l - rows)  # the diagonal's place in each row's window
    diagonal = np.take_along_axis(basis, np.clip(j, 0, k)[:, None], axis=1)[:, 0]
    singular = np.flatnonzero((j < 0) | (j > k) | (diagonal == 0))
    if stray.size or (not left and not right and singular.size):
        i = stray[0] if stray.size else singular[0]
        r = rows[i]
        raise ValueError(
            f"`x[{i}]` = {x[i]} and the knots `t` violate the Schoenberg–Whitney conditions: "
            f"B-spline {r} (on [t[{r}], t[{r + k + 1}]] = [{t[r]}, {t[r + k + 1]}]) must be "
            "non-zero at it, else the collocation matrix is singular."
        )


def _check_lsq_eagerly(x, y, t, w, k, check_finite):
    x, t = np.asarray(x), np.asarray(t)
    if check_finite:
        check_values_eagerly(x, "x")
        check_values_eagerly(np.asarray(y), "y")
        if w is not None:
            check_values_eagerly(np.asarray(w), "w")
    check_values_eagerly(t, "t")
    check_knots_eagerly(t, k, "t")
    down = np.flatnonzero(np.diff(x) < 0)
    if down.size:
        i = down[0] + 1
        raise ValueError(
            f"`x` must be non-decreasing; `x[{i}]` = {x[i]} < `x[{i - 1}]` = {x[i - 1]}."
        )
    check_inside_eagerly(x, t, k)
    _check_schoenberg_whitney(x, t, k)


def _check_schoenberg_whitney(x, t, k: int) -> None:
    """Each B-spline j gets its own site, in order, where it is non-zero (the greedy
    matching: the design matrix then has full rank), else a ValueError naming j."""
    n = t.shape[0] - k - 1
    l = np.clip(np.searchsorted(t, x, side="right") - 1, k, n - 1)
    nonzero = (_basis_values(t.astype(np.float64), l, x.astype(np.float64), k)[k] != 0).tolist()
    starts = (l - k).tolist()
    m, i = len(starts), 0
    for j in range(n):
        while i < m:
            offset = j - starts[i]
            if offset < 0:  # x[i] and every later site lie right of B-spline j
                i = m
            elif offset <= k and nonzero[i][offset]:
                break
            else:
                i += 1
        if i >= m:
            raise ValueError(
                f"`x` and `t` violate the Schoenberg–Whitney conditions: no site of `x` is "
                f"left for B-spline {j} (non-zero on (t[{j}], t[{j + k + 1}]) = "
                f"({t[j]}, {t[j + k + 1]})), so the least-squares system is singular; "
                "remove knots there or add sites."
            )
        i += 1
