"""The layout the kernels share: rows along the loop, systems in lanes.

A kernel receives ``rhs`` of shape ``(*batch, n)``, ``diag`` of shape
``(*bands, n)`` and ``lower``/``upper`` of shape ``(*bands, n-1)``, where the
bands' batch broadcasts to rhs's (a size-1 axis: bands shared by the
right-hand sides along it; `tridiagonal`).  `to_lanes` turns them into
``(N, *bands)`` and ``(N, *batch)`` arrays — row ``i`` of every system at index
``i``, the systems side by side as the lanes of one scan (``(N, 1)`` for a
single system), so that a step's arithmetic broadcasts the shared bands over
their right-hand sides — with the bands aligned to the row they sit in:

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

Chains (`to_chains`): XLA:CPU compiles a loop into one native call only while
an iteration touches little memory, so a loop holds only a few lanes that way
(`gtsv_scan.native_lanes`).  A larger batch can then be laid end to end: lane l
of an ``(S·N, L)`` array holds systems l, L + l, 2L + l, ..., each in its own
N rows, with flags on each system's first row; the kernel's step cuts the
chain there.  The last link is filled with identity systems.
"""

import math

import jax.numpy as jnp
import numpy as np
from jax import lax


def lanes(batch: tuple[int, ...]) -> int:
    """Number of independent systems (lanes) for a leading shape."""
    return math.prod(batch)


def to_lanes(lower, diag, upper, rhs, row_multiple: int = 1):
    """``(a, b, c)`` of shape ``(N, *bands)`` and ``d`` of shape ``(N, *batch)``, with
    N = n rounded up to ``row_multiple``."""
    n = rhs.shape[-1]
    zero = jnp.zeros(diag.shape[:-1] + (1,), diag.dtype)

    def rows(v, fill):
        batch = v.shape[:-1] or (1,)
        pad = ((-n % row_multiple, 0),) + ((0, 0),) * len(batch)  # in front (module docstring)
        return jnp.pad(jnp.reshape(jnp.moveaxis(v, -1, 0), (n,) + batch), pad, constant_values=fill)

    return (
        rows(jnp.concatenate([zero, lower], axis=-1), 0),
        rows(diag, 1),
        rows(jnp.concatenate([upper, zero], axis=-1), 0),
        rows(rhs, 0),
    )


def full_bands(lower, diag, upper, rhs):
    """The operands with the bands broadcast to rhs's batch: one system per lane, for the
    kernels that do not share bands."""
    batch = rhs.shape[:-1]
    return (*(jnp.broadcast_to(b, batch + b.shape[-1:]) for b in (lower, diag, upper)), rhs)


def from_lanes(x, batch: tuple[int, ...], n: int):
    """The last n rows of an ``(N, *batch)`` solution, in the ``(*batch, n)`` layout."""
    return jnp.moveaxis(jnp.reshape(x[x.shape[0] - n :], (n,) + batch), 0, -1)


def to_chains(lower, diag, upper, rhs, chains: int):
    """``(a, b, c, d)``, each ``(S·n, chains)``, and the ``(S·n,)`` flags of the systems' first rows.

    System ``s·chains + l`` of the flattened batch sits in rows ``s·n … s·n + n-1``
    of lane l; S = ⌈B / chains⌉.
    """
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    systems = lanes(batch)
    links = -(-systems // chains)
    pad = ((0, 0), (0, links * chains - systems))
    rows = (
        jnp.pad(jnp.reshape(v, (n, systems)), pad, constant_values=fill)
        .reshape(n, links, chains)
        .transpose(1, 0, 2)
        .reshape(links * n, chains)
        for v, fill in zip(to_lanes(lower, diag, upper, rhs), (0, 1, 0, 0))
    )
    return tuple(rows), _first_rows(links, n)


def _first_rows(links, n):
    """Flags of each system's first row: a constant while small (computed in the
    program they cost a thunk, which hands a small solve to XLA:CPU's thread pool),
    computed for a long chain (no megabytes of constant) or a symbolic n."""
    if isinstance(n, int) and links * n <= 1 << 16:
        return np.arange(links * n) % n == 0
    return lax.iota(jnp.int32, links * n) % n == 0


def from_chains(x, batch: tuple[int, ...], n: int):
    """The ``(*batch, n)`` solutions from the ``(S·n, chains)`` layout of `to_chains`."""
    links, chains = x.shape[0] // n, x.shape[1]
    x = x.reshape(links, n, chains).transpose(1, 0, 2).reshape(n, links * chains)
    return from_lanes(x[:, : lanes(batch)].reshape((n,) + batch), batch, n)
