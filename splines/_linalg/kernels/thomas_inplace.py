"""Thomas algorithm for one system as two loops over one buffer, updated in place.

The recurrences are `thomas_scan`'s (its `eliminate` step): rows
``a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i`` sit in the columns of one
``(3 + k, n)`` buffer ``[a; b; c; d_1 … d_k]`` (k right-hand sides sharing the
bands); the forward loop overwrites column i's ``c, d`` with ``c'_i, d'_i``,
the backward loop its ``d'_i`` with ``x_i``:

    forward  (i = 0 … n-1):  c'_i, d'_i = eliminate((c'_{i-1}, d'_{i-1}), column i)
    backward (i = n-1 … 0):  x_i = d'_i − c'_i x_{i+1}            (x_n = 0)

Why a second kernel for the same arithmetic (bit for bit the same results for
real data, non-finite ones included; complex results may differ in the last
bit, as XLA:CPU compiles the complex products of the scan's unrolled body
differently):
XLA:CPU runs a compiled program as a graph of "thunks" (one per fusion, copy,
loop, ...) and, when several are ready at once, hands half of them to its
worker threads; the call then waits for a worker's wake-up, ~100 µs on a
2-core VM.  A scan brings many independent thunks: per input row array a
pad and a copy, per stacked output a zero-filled buffer and its copies, per
carry a copy.  One buffer carried through both loops has none of those, and
a small fit + evaluate then runs on the calling thread from start to end
(profiled: n = 64, 1000 queries).  Measured (2-core CPU, f32, ``interp1d``
cubic2 with 1000 queries, blocked medians, interleaved in one process),
against `thomas_scan`: n = 64: 85 µs against 139 (interpax `CubicSpline`
103), and with ``jax_cpu_enable_async_dispatch=False`` 29 against 130
(interpax 48); n = 128: 83 against 139; n = 256 and 512: the same; n = 1024:
99 against 161.

Alone, the solve is as fast as `thomas_scan` up to n = 256 and slower past
it (1.1x at n = 1000, 1.3x at 1e4: these loops cannot be unrolled, as an
unrolled loop copies the buffer at every step), so XLA:CPU takes it for one
system of at most 1024 rows (`small_enough`), where the program around it gains more.
"""

import math

import jax
import jax.numpy as jnp
from jax import lax

from .thomas_scan import eliminate

# The largest system, and the most float32 right-hand sides sharing its bands, this
# kernel takes.
_MAX_ROWS = 1024
_MAX_COLUMNS = 4


def small_enough(bands: tuple, shape: tuple, dtype=jnp.float32) -> bool:
    """Whether XLA:CPU solves systems of these shapes (``diag``'s, ``rhs``'s) with this kernel:
    one band system of at most 1024 rows, with one right-hand side, or up to 4 in float32
    (n = 1000: 2 columns 17 µs, 4 columns 21; two float64 columns took 1.1 ms, the scan
    63 µs)."""
    one_system, columns = math.prod(bands[:-1]) == 1, math.prod(shape[:-1])
    few = columns == 1 or (
        jnp.dtype(dtype) == jnp.float32 and isinstance(columns, int) and 0 < columns <= _MAX_COLUMNS
    )
    return one_system and few and shape[-1] <= _MAX_ROWS


@jax.jit
def splines_thomas_inplace(lower, diag, upper, rhs):
    """Solve one system for k right-hand sides: ``rhs`` of shape ``(…, n)`` with k entries in
    front, ``diag`` ``(1, …, 1, n)`` and ``lower``/``upper`` ``(1, …, 1, n-1)``.

    The buffer is ``(3 + k, n)``: ``[a; b; c; d_1 … d_k]``.  Wrapped in its own
    `jax.jit`, so that its lowering is one named function that tests can
    recognise in the compiled program.
    """
    shape, n = rhs.shape, rhs.shape[-1]
    zero = jnp.zeros((1,), rhs.dtype)
    lower, diag, upper = (jnp.reshape(v, (-1,)) for v in (lower, diag, upper))
    bands = jnp.stack([jnp.concatenate([zero, lower]), diag, jnp.concatenate([upper, zero])])
    rows = jnp.concatenate([bands, jnp.reshape(rhs, (-1, n))])

    # d and x are scalars for one right-hand side (the loops' carries as XLA:CPU best keeps
    # a small program in line), vectors of k for several.
    rhs_rows = 3 if rows.shape[0] == 4 else slice(3, None)

    def forward(i, state):
        rows, previous = state[0], state[1:]
        column = rows[:, i]
        c, d = eliminate(previous, (column[0], column[1], column[2], column[rhs_rows]))
        update = jnp.concatenate([c[None], jnp.reshape(d, (-1,))])[:, None]
        return lax.dynamic_update_slice(rows, update, (2, i)), c, d

    def backward(k, state):
        rows, x_next = state
        i = n - 1 - k
        x = rows[rhs_rows, i] - rows[2, i] * x_next
        return lax.dynamic_update_slice(rows, jnp.reshape(x, (-1, 1)), (3, i)), x

    # Zeros that vary as the rows do (over shard_map's axes too).
    start = jnp.zeros_like(rows[rhs_rows, 0])
    rows, _, _ = lax.fori_loop(0, n, forward, (rows, jnp.zeros_like(rows[2, 0]), start))
    rows, _ = lax.fori_loop(0, n, backward, (rows, start))
    return jnp.reshape(rows[3:], shape)
