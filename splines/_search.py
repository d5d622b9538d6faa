"""Cell lookup: a branch-free binary search with a static number of steps.

Each step is one gather, one compare and one select; for n breaks there are
``bit_length(n-2)`` of them (the powers of two up to n-2), unrolled at trace
time — no `while` in the program (DESIGN.md §3), and as fast on CPU as
`searchsorted`'s while-loop version (which `method="scan_unrolled"` is not:
2x slower at n=64).
"""

from typing import Any, NamedTuple

import jax.numpy as jnp


def locate(x, breaks, right_closed: bool = False):
    """Index j of the piece ``[breaks[j], breaks[j+1]]`` holding x, in ``[0, n-2]``.

    A point on an interior break belongs to the piece on its right, or with
    ``right_closed`` to the one on its left.  Points outside the breaks get
    the end pieces, so those extend; NaN gets piece 0.
    """
    last = breaks.shape[0] - 2
    j = jnp.zeros(jnp.shape(x), jnp.int32)
    step = 1 << (last.bit_length() - 1) if last > 0 else 0
    while step:  # static: steps 2^p, …, 2, 1 sum to 2^(p+1) − 1 ≥ last
        probe = jnp.minimum(j + step, last)
        left = breaks[probe]
        j = jnp.where(left < x if right_closed else left <= x, probe, j)
        step >>= 1
    return j


class Cell(NamedTuple):
    """Where flat queries fall along one axis."""

    index: Any  # j: the piece [breaks[j], breaks[j+1]]
    x: Any  # the queries, wrapped into the period when periodic
    start: Any  # breaks[j]
    width: Any  # breaks[j+1] − breaks[j]


def find_cells(x, breaks, periodic: bool, right_closed: bool) -> Cell:
    """`locate` flat queries (after `wrap` when ``periodic``); their pieces' start and width."""
    if periodic:
        x = wrap(x, breaks[0], breaks[-1] - breaks[0])
    j = locate(x, breaks, right_closed)
    return Cell(j, x, breaks[j], breaks[j + 1] - breaks[j])


def wrap(x, start, period):
    """Map x into ``[start, start + period)`` (as `numpy.interp`'s ``period``)."""
    return start + jnp.mod(x - start, period)
