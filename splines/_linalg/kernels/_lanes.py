"""The layout the kernels share: rows along the loop, systems in lanes.

A kernel receives ``lower``/``upper`` of shape ``(*batch, n-1)`` and
``diag``/``rhs`` of shape ``(*batch, n)``.  `to_lanes` turns them into four
``(N, *batch)`` arrays — row ``i`` of every system at index ``i``, the systems
side by side as the lanes of one scan (``(N, 1)`` for a single system) — with
the bands aligned to the row they sit in:

    a_i = A[i, i-1] (a_0 = 0),   b_i = A[i, i],   c_i = A[i, i+1] (c_{n-1} = 0),   d_i = rhs_i.

The batch axes are kept, not flattened: merging them would make a batch
sharded along a minor axis all-gather before the solve (tests/test_sharding.py).

Rows ``0 … N-n-1`` are decoupled identity rows (a = c = d = 0, b = 1, so x = 0)
that make N a multiple of the scan's unroll factor.  They come first: the forward
sweep leaves them as it found its start (c' = d' = 0), and the backward sweep
reaches them only after every row of the system, so a non-finite solution
(0 · inf = NaN in a pad row) cannot flow back into it.  A scan whose length is not
a multiple of its unroll is not compiled by XLA:CPU into one native call and
costs ~50 µs more per solve.  The end rows and the padding are built by
concatenation and `jnp.pad`, never by a scatter (`.at[].set`), which also
stops XLA:CPU from compiling the scan that way (docs/architecture.md §6).
"""

import math

import jax.numpy as jnp


def lanes(batch: tuple[int, ...]) -> int:
    """Number of independent systems (lanes) for a leading shape."""
    return math.prod(batch)


def to_lanes(lower, diag, upper, rhs, row_multiple: int = 1):
    """``(a, b, c, d)``, each ``(N, *batch)`` with N = n rounded up to ``row_multiple``."""
    batch, n = rhs.shape[:-1] or (1,), rhs.shape[-1]
    zero = jnp.zeros(rhs.shape[:-1] + (1,), rhs.dtype)
    pad = ((-n % row_multiple, 0),) + ((0, 0),) * len(batch)  # in front (module docstring)
    return tuple(
        jnp.pad(jnp.reshape(jnp.moveaxis(v, -1, 0), (n,) + batch), pad, constant_values=fill)
        for v, fill in (
            (jnp.concatenate([zero, lower], axis=-1), 0),
            (diag, 1),
            (jnp.concatenate([upper, zero], axis=-1), 0),
            (rhs, 0),
        )
    )  # fmt: skip


def from_lanes(x, batch: tuple[int, ...], n: int):
    """The last n rows of an ``(N, *batch)`` solution, in the ``(*batch, n)`` layout."""
    return jnp.moveaxis(jnp.reshape(x[x.shape[0] - n :], (n,) + batch), 0, -1)
