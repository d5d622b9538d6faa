"""`PPoly.solve` / `roots`: scipy's arrays eagerly, a static ``size`` under `jit`.

The roots themselves come from `_pieces.roots.real_roots` (branch-free, on our local
pieces).  A root count is data, so a traced call needs a static ``size``:
each polynomial's roots fill ``size`` slots, NaN-padded (scipy also marks an
identically zero interval by its start followed by NaN).  Called eagerly
without ``size``, the slots are sized for the most roots the pieces can have
and trimmed to scipy's exact arrays.
"""

import jax.numpy as jnp
import numpy as np

from .._pieces.roots import max_roots, real_roots
from .._utils.dtypes import as_dtype, check_real
from .._utils.validate import is_concrete, static_int
from .checks import check_scalar, parse_extrapolate


def solve(ppoly, y, discontinuity, extrapolate, size, fill_value=np.nan):
    """See `AbstractPPoly.solve`."""
    if jnp.issubdtype(ppoly.coefficients.dtype, jnp.complexfloating):
        raise ValueError("`solve`/`roots` need real coefficients; this PPoly is complex.")
    # scipy passes bool(extrapolate) to its root finder: "periodic" counts as True.
    extend = bool(parse_extrapolate(extrapolate, ppoly.extrapolate))
    y = as_dtype(_per_polynomial(y, ppoly.column_shape), ppoly.coefficients.dtype)
    options = dict(
        discontinuity=bool(discontinuity),
        extrapolate=extend,
        descending=ppoly.descending,
        end=ppoly.end,
    )
    breaks, coefficients = ppoly.breaks, ppoly.coefficients  # in z = −x if descending
    if size is not None:
        roots, counts = real_roots(breaks, coefficients, y, size=_check_size(size), **options)
        if not (isinstance(fill_value, float) and np.isnan(fill_value)):
            check_scalar(fill_value, "fill_value")
            padding = jnp.arange(roots.shape[-1]) >= counts[:, None]
            roots = jnp.where(padding, as_dtype(fill_value, roots.dtype), roots)
        return jnp.reshape(roots, ppoly.column_shape + roots.shape[-1:])
    if not is_concrete(ppoly.breaks, ppoly.coefficients, ppoly.end, y):
        raise TypeError(
            "`roots`/`solve` under jit/vmap/grad need a static `size=` (the number of slots "
            "per polynomial; unused slots are NaN): how many roots there are is data."
        )
    m, degree = ppoly.coefficients.shape[0], ppoly.coefficients.shape[-1] - 1
    roots, counts = real_roots(breaks, coefficients, y, size=max_roots(m, degree), **options)
    return _as_scipy(np.asarray(roots), np.asarray(counts), ppoly.column_shape)


def _as_scipy(roots, counts, column_shape: tuple):
    """One array of roots, or an object array of them (one per polynomial)."""
    trimmed = [row[:count] for row, count in zip(roots, counts)]
    if not column_shape:
        return trimmed[0]
    out = np.empty(len(trimmed), dtype=object)
    for i, row in enumerate(trimmed):
        out[i] = row
    return out.reshape(column_shape)


def _per_polynomial(y, column_shape: tuple):
    """``y`` real, a scalar or broadcast to one per polynomial, flat ``(k,)``."""
    check_real(y, "y")
    if np.ndim(y) == 0:
        return y
    try:
        return jnp.reshape(jnp.broadcast_to(y, column_shape), (-1,))
    except ValueError:
        raise ValueError(
            f"`y` must be a scalar or broadcast to one value per polynomial, shape "
            f"{column_shape}; got shape {np.shape(y)}."
        ) from None


def _check_size(size) -> int:
    return static_int(size, "size", 0, "a Python int (static)")
