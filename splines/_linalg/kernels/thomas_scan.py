"""Thomas algorithm as two `lax.scan` sweeps, with independent systems in lanes.

For rows ``a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i`` (``a_0 = c_{n-1} = 0``):

    forward:  w_i  = b_i - a_i c'_{i-1}
              c'_i = c_i / w_i
              d'_i = (d_i - a_i d'_{i-1}) / w_i          (c'_{-1} = d'_{-1} = 0)
    backward: x_i  = d'_i - c'_i x_{i+1}                  (x_n = 0)

No pivoting: exact for the diagonally dominant systems that splines build; a
zero pivot gives inf/NaN rather than a plausible number.  The scan carries one
value per system, so a batch of B systems costs n steps of B-wide vector work.
w and c' depend on the bands only: bands shared by several right-hand sides
(`_lanes`) are eliminated once for all of them, and only d' and x are computed
per right-hand side — in the same loop for one system with a few right-hand
sides (XLA:CPU's native loop: `unroll_for`), else in a loop of their own after
the bands' (a loop body of one fusion: f32, n = 256, 64 columns 40 µs against
58 with the bands copied to every column; 1000 columns 240 against 365).
"""

import jax
import jax.numpy as jnp
from jax import lax

from . import _lanes

# Unroll factor of both sweeps, measured on CPU (the unroll sweep of
# `python -m benchmarks.suites.tridiagonal --unroll-sweep`).  One system: 4 is
# best — XLA:CPU then compiles each loop into one native call; at 8 and above
# it stops doing so and n=1e5 gets ~8x slower.
# A batch (never compiled that way): 1 is best, ~20% ahead of 4.
_UNROLL_ONE_SYSTEM = 4
_UNROLL_BATCH = 1

# One system's bands shared by a few right-hand sides stay one native loop at unroll 2
# while the right-hand sides of a row take at most 32 bytes (float32 8 columns, float64
# 4); more run the bands' sweep first (measured, n = 1e5, ms: float32 2 columns 1.4, 4
# 1.5, 8 2.0 (at unroll 4, 4 columns: 13; the bands first: 2.0, 2.2, 2.2, 16 columns
# 3.8); float64 4 columns 1.7, 6 2.4).
_NATIVE_COLUMN_BYTES = 32


def unroll_for(lanes: int, columns: int = 1, itemsize: int = 4) -> int:
    """The unroll for ``lanes`` band systems with ``columns`` right-hand sides each."""
    if lanes != 1:
        return _UNROLL_BATCH
    if columns == 1:
        return _UNROLL_ONE_SYSTEM
    return 2 if columns * itemsize <= _NATIVE_COLUMN_BYTES else _UNROLL_BATCH


def divider(pivot, like=None):
    """``x ↦ x / pivot``, the one rule both scan kernels divide by; x has pivot's shape, or
    ``like``'s (a right-hand side's, over which shared bands' pivot broadcasts).

    A reciprocal of |w| > 1/FLT_MIN (8.5e37 in float32) is subnormal and XLA:CPU
    flushes it to 0: a well-conditioned system would solve to x = 0.  So real
    floats of at most 32 bits divide — and by a pivot of x's own shape: XLA
    rewrites a division by a broadcast operand into a product with its reciprocal
    (``A / broadcast(B) → A · broadcast(1 / B)``).  A select gives it that shape,
    which XLA keeps: 1 where ``like`` is NaN (the quotient is NaN either way), the
    pivot elsewhere (`pivot_like`).  float64 multiplies by ``1 / pivot``: a
    float64 division in the loop stops XLA:CPU compiling it into one native call
    (measured ~20x slower at n = 1e5), and its reciprocal only flushes for
    |w| > 4.5e307.
    """
    dtype = jnp.dtype(pivot.dtype)
    if jnp.issubdtype(dtype, jnp.floating) and dtype.itemsize <= 4:
        pivot = pivot if like is None else pivot_like(pivot, like)
        return lambda x: x / pivot
    inverse = 1 / pivot
    return lambda x: x * inverse


def pivot_like(pivot, like):
    """``pivot`` with ``like``'s shape, computed, not broadcast (`divider`)."""
    if jnp.shape(pivot) == jnp.shape(like):
        return pivot
    return jnp.where(jnp.isnan(like), jnp.ones_like(pivot), pivot)


def eliminate(previous, row):
    """One forward step: ``(c'_i, d'_i)`` from ``(c'_{i-1}, d'_{i-1})`` and ``row = (a, b, c, d)``.

    The Pallas kernel (`pallas_thomas`) takes the same step.
    """
    c_prev, d_prev = previous
    a, b, c, d = row
    c_new, w = band_step(c_prev, (a, b, c))
    return c_new, rhs_step(d_prev, (a, w, d))


def band_step(c_prev, row):
    """`eliminate`'s part in the bands alone: ``(c'_i, w_i)`` from c'_{i-1} and ``(a, b, c)``."""
    a, b, c = row
    w = b - a * c_prev
    return divider(w)(c), w


def rhs_step(d_prev, row):
    """`eliminate`'s part in a right-hand side: d'_i from d'_{i-1} and ``(a, w, d)``."""
    a, w, d = row
    return divider(w, d)(d - a * d_prev)


@jax.jit
def splines_thomas_scan(lower, diag, upper, rhs):
    """Solve ``(..., n)`` systems; ``lower``/``upper`` of shape ``(..., n-1)``.

    The bands' leading shape broadcasts to rhs's (`_lanes`).  Wrapped in its own
    `jax.jit` so that its lowering is one named function (`splines_thomas_scan`)
    that callers and tests can recognise in the compiled program.
    """
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    lanes, systems = _lanes.lanes(diag.shape[:-1]), _lanes.lanes(batch)
    if isinstance(lanes, int) and isinstance(systems, int):
        columns = systems // max(lanes, 1)  # right-hand sides per band system
        unroll = unroll_for(lanes, columns, rhs.dtype.itemsize)
    else:  # a symbolic batch (`jax.export`): one loop, whatever the bands share
        columns, unroll = 1, _UNROLL_BATCH
    # (N, *bands) and (N, *batch) rows with identity padding to a multiple of the
    # unrolls (`_lanes`).
    rows = _lanes.to_lanes(lower, diag, upper, rhs, max(unroll, unroll_for(lanes)))
    # Zeros that vary as the rows do (over shard_map's axes too).
    zeros = jnp.zeros_like(rows[0][0]), jnp.zeros_like(rows[3][0])
    if columns == 1 or unroll > 1:
        c_p, d_p = _forward(rows, zeros, unroll)
    else:
        c_p, d_p = _forward_bands_first(rows, zeros, unroll_for(lanes), unroll)

    def backward(x_next, row):
        c, d = row
        x = d - c * x_next
        return x, x

    _, x = lax.scan(backward, zeros[1], (c_p, d_p), reverse=True, unroll=unroll)
    return _lanes.from_lanes(x, batch, n)


def _forward(rows, zeros, unroll: int):
    """c' and d' in one loop (the step broadcasts shared bands over their columns)."""

    def forward(carry, row):
        carry = eliminate(carry, row)
        return carry, carry

    _, (c_p, d_p) = lax.scan(forward, zeros, rows, unroll=unroll)
    return c_p, d_p


def _forward_bands_first(rows, zeros, band_unroll: int, unroll: int):
    """The bands' sweep (w, c') once, then d' for every right-hand side."""
    a, b, c, d = rows

    def factor(c_prev, row):
        c_new, w = band_step(c_prev, row)
        return c_new, (c_new, w)

    _, (c_p, w) = lax.scan(factor, zeros[0], (a, b, c), unroll=band_unroll)

    def forward(d_prev, row):
        d_new = rhs_step(d_prev, row)
        return d_new, d_new

    _, d_p = lax.scan(forward, zeros[1], (a, w, d), unroll=unroll)
    return c_p, d_p
