"""Moving the interpolation axis to the front and back.

Internally values are ``(n, k)``: knots first, every other axis of ``fp``
flattened into k columns.  Results come back as numpy's convention,
``fp.shape[:axis] + x.shape + fp.shape[axis+1:]``.
"""

import math

import jax.numpy as jnp

from .validate import static_int


def normalize_axis(axis: int, ndim: int, values: str = "fp") -> int:
    """``axis`` (a Python or numpy integer) of the array ``values`` as a non-negative int."""
    axis = static_int(axis, "axis", kind="an integer")
    if not -ndim <= axis < ndim:
        raise ValueError(f"`axis`={axis!r} is out of range for `{values}` with {ndim} dimensions.")
    return int(axis) % ndim


def to_columns(fp, axis: int, xnp=jnp):
    """``fp`` → ``(n, k)`` and the shape of one column's trailing axes (jnp or np)."""
    moved = xnp.moveaxis(fp, axis, 0)
    return xnp.reshape(moved, (moved.shape[0], -1)), moved.shape[1:]


def restore_axis(out, rest: tuple, axis: int):
    """`to_columns`' inverse: ``(n', m, *extra)`` → n' at ``axis``, then ``rest``, extra last."""
    out = jnp.reshape(out, out.shape[:1] + rest + out.shape[2:])
    return jnp.moveaxis(out, 0, axis)


def from_columns(out, x_shape: tuple, column_shape: tuple, axis: int):
    """``(m, k)`` results at ``m = prod(x_shape)`` points → numpy's output layout."""
    out = jnp.reshape(out, x_shape + column_shape)
    nx = len(x_shape)
    before = list(range(nx, nx + axis))
    return jnp.transpose(out, before + list(range(nx)) + list(range(nx + axis, out.ndim)))


def column_values(value, column_shape: tuple, dtype):
    """A boundary value broadcast to one entry per column: shape ``(k,)``.

    None is zero, made in the program: a call passes no array for a default end.
    """
    if value is None:
        return jnp.zeros(math.prod(column_shape), dtype)
    value = jnp.broadcast_to(jnp.asarray(value, dtype), column_shape)
    return jnp.reshape(value, (math.prod(column_shape),))
