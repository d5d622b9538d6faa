"""Cell lookup without host-driven loops.

`jnp.searchsorted(method="scan_unrolled")` is a fixed-depth binary search:
log2(n) unrolled compare-and-select steps, no `while` (DESIGN.md §3).
"""

import jax.numpy as jnp


def locate(x, xp):
    """Index i of the cell ``[xp[i], xp[i+1]]`` holding x, clipped to ``[0, n-2]``.

    Points left of ``xp[0]`` get the first cell and points right of
    ``xp[-1]`` the last (so end pieces extend); ``x == xp[-1]`` lies in the
    last cell.
    """
    i = jnp.searchsorted(xp, x, side="right", method="scan_unrolled") - 1
    return jnp.clip(i, 0, xp.shape[0] - 2)


def wrap(x, start, period):
    """Map x into ``[start, start + period)`` (as `numpy.interp`'s ``period``)."""
    return start + jnp.mod(x - start, period)
