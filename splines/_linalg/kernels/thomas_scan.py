"""Thomas algorithm as two `lax.scan` sweeps, with independent systems in lanes.

For rows ``a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i`` (``a_0 = c_{n-1} = 0``):

    forward:  w_i  = b_i - a_i c'_{i-1}
              c'_i = c_i / w_i
              d'_i = (d_i - a_i d'_{i-1}) / w_i          (c'_{-1} = d'_{-1} = 0)
    backward: x_i  = d'_i - c'_i x_{i+1}                  (x_n = 0)

No pivoting: exact for the diagonally dominant systems that splines build; a
zero pivot gives inf/NaN rather than a plausible number.  The scan carries one
value per system, so a batch of B systems costs n steps of B-wide vector work.
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


def unroll_for(lanes: int) -> int:
    return _UNROLL_ONE_SYSTEM if lanes == 1 else _UNROLL_BATCH


def divider(pivot):
    """``x ↦ x / pivot``, the one rule both scan kernels divide by.

    A reciprocal of |w| > 1/FLT_MIN (8.5e37 in float32) is subnormal and XLA:CPU
    flushes it to 0: a well-conditioned system would solve to x = 0.  So real
    floats of at most 32 bits divide.  float64 multiplies by ``1 / pivot``: a
    float64 division in the loop stops XLA:CPU compiling it into one native call
    (measured ~20x slower at n = 1e5), and its reciprocal only flushes for
    |w| > 4.5e307.
    """
    dtype = jnp.dtype(pivot.dtype)
    if jnp.issubdtype(dtype, jnp.floating) and dtype.itemsize <= 4:
        return lambda x: x / pivot
    inverse = 1 / pivot
    return lambda x: x * inverse


def eliminate(previous, row):
    """One forward step: ``(c'_i, d'_i)`` from ``(c'_{i-1}, d'_{i-1})`` and ``row = (a, b, c, d)``.

    The Pallas kernel (`pallas_thomas`) takes the same step.
    """
    c_prev, d_prev = previous
    a, b, c, d = row
    per_w = divider(b - a * c_prev)
    return per_w(c), per_w(d - a * d_prev)


@jax.jit
def splines_thomas_scan(lower, diag, upper, rhs):
    """Solve ``(..., n)`` systems; ``lower``/``upper`` of shape ``(..., n-1)``.

    All four arguments share their leading (batch) shape.  Wrapped in its own
    `jax.jit` so that its lowering is one named function (`splines_thomas_scan`)
    that callers and tests can recognise in the compiled program.
    """
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    unroll = unroll_for(_lanes.lanes(batch))
    # (N, *batch) rows with identity padding to a multiple of the unroll (`_lanes`).
    rows = _lanes.to_lanes(lower, diag, upper, rhs, unroll)

    def forward(carry, row):
        carry = eliminate(carry, row)
        return carry, carry

    zero = jnp.zeros_like(rows[0][0])  # varies as the rows do (over shard_map's axes too)
    init = (zero, zero)
    _, (c_p, d_p) = lax.scan(forward, init, tuple(rows), unroll=unroll)

    def backward(x_next, row):
        c, d = row
        x = d - c * x_next
        return x, x

    _, x = lax.scan(backward, init[0], (c_p, d_p), reverse=True, unroll=unroll)
    return _lanes.from_lanes(x, batch, n)
