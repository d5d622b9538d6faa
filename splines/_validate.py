"""Data checks (DESIGN.md §5, tier 2): eager inputs raise, traced inputs give NaN.

`check_knots_eagerly` runs only on concrete values (numpy arrays, or jax
arrays outside any trace) and raises a `ValueError` naming the first offending
index.  `knots_are_valid` is the same test as a traced boolean; the fit turns
a false one into NaN breaks and coefficients, so every output is NaN — never
a plausible number — and no host callback is needed.  To turn that NaN into
an error inside `jit`, wrap the caller in
``jax.experimental.checkify.checkify(f, errors=checkify.float_checks)``
or test ``jnp.isnan`` on the result.
"""

import jax
import jax.numpy as jnp
import numpy as np


def is_concrete(*arrays) -> bool:
    """True when no argument is being traced (so numpy can look at it)."""
    return not any(isinstance(a, jax.core.Tracer) for a in arrays)


def check_knots_eagerly(xp) -> None:
    """Raise for the first knot that is not finite or not above its predecessor."""
    xp = np.asarray(xp)
    not_finite = np.flatnonzero(~np.isfinite(xp))
    not_rising = np.flatnonzero(np.diff(xp) <= 0) + 1  # index of the later knot
    first = min(np.concatenate([not_finite, not_rising]), default=None)
    if first is None:
        return
    if first in not_finite:
        raise ValueError(f"`xp` must be finite; `xp[{first}]` = {xp[first]}.")
    raise ValueError(
        "`xp` must be strictly increasing; "
        f"`xp[{first - 1}]` = {xp[first - 1]} but `xp[{first}]` = {xp[first]}."
    )


def check_period_eagerly(xp, period) -> None:
    xp, period = np.asarray(xp), np.asarray(period)
    if period.ndim != 0 or not (np.isfinite(period) and period > 0):
        raise ValueError(f"`period` must be finite and positive; got {period}.")
    if xp[-1] - xp[0] > period:
        raise ValueError(
            f"`xp` must lie within one period: `xp[-1] - xp[0]` = {xp[-1] - xp[0]} "
            f"exceeds `period` = {period}."
        )


def knots_are_valid(xp):
    """Traced version of `check_knots_eagerly`: finite and strictly increasing.

    A NaN fails every comparison, so ``diff > 0`` throughout means no NaN and
    a strictly increasing sequence, which is finite iff its two ends are: one
    reduction instead of two (each costs a thread hand-off on XLA:CPU).
    """
    return jnp.all(jnp.diff(xp) > 0) & jnp.isfinite(xp[0]) & jnp.isfinite(xp[-1])


def ends_match(fp):
    """``fp[0] == fp[-1]`` per column, to a few ulps of the column's scale.

    Periodic data often closes with rounding error (``sin(2π) ≈ -2.4e-16``);
    anything larger than 16 ulps of ``max |fp|`` is a real mismatch.
    """
    scale = jnp.max(jnp.abs(fp), axis=0)
    tol = 16 * jnp.finfo(fp.dtype).eps * scale
    return jnp.abs(fp[-1] - fp[0]) <= tol


def check_ends_match_eagerly(fp, name: str) -> None:
    mismatch = np.flatnonzero(~np.asarray(ends_match(fp)).reshape(-1))
    if mismatch.size:
        first, last = np.asarray(fp[0]).reshape(-1), np.asarray(fp[-1]).reshape(-1)
        j = mismatch[0]
        raise ValueError(
            f"{name} needs the first and last values along `axis` to be equal; "
            f"column {j} has {first[j]} and {last[j]}."
        )
