"""One system per GPU thread: the Pallas plumbing both Pallas kernels share.

A Pallas kernel body sees the `_lanes` layout — four ``(N, L)`` refs whose row
``i`` holds row i of every system, systems side by side — restricted to one
block of ``W`` lanes (one program of the grid; one lane per GPU thread).  It
loops over the rows itself (`lax.fori_loop`, compiled into the kernel, not a
host-driven loop), reading row ``i`` of its W systems as one vector: W
neighbouring threads read W neighbouring addresses, the interleaved layout
that coalesces memory access (cuThomasBatch, docs/architecture.md §6).

The body writes its result into the first output and may use further
``(N, L)`` outputs as scratch between its forward and backward sweep (Triton
kernels have no scratch memory beyond registers).

Backend: Triton, chosen explicitly with `pltriton.CompilerParams` (jax 0.10's
default Pallas GPU backend, Mosaic GPU, programs warpgroups, not independent
threads).  ``interpret=True`` runs the same body on any platform (the CPU
tests).  Real floating dtypes only: Triton has no complex numbers.  An empty
batch launches no program: its (empty) solution is returned directly.
"""

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

from . import _lanes

# Lanes per program: 4 warps of 32 threads, one system each; fewer (a power of
# two, as Triton requires) when the batch is smaller, so that one long system
# is not padded with 127 idle ones.
_MAX_LANES_PER_PROGRAM = 128


def lanes_per_program(systems: int) -> int:
    return min(_MAX_LANES_PER_PROGRAM, pl.next_power_of_2(systems))


def solve_in_lanes(body, lower, diag, upper, rhs, *, scratch: int, interpret: bool, name: str):
    """Run ``body(a, b, c, d, x, *scratch_refs)`` over blocks of lanes; ``x`` as ``(*batch, n)``."""
    if jnp.issubdtype(rhs.dtype, jnp.complexfloating):
        raise TypeError(f"the Pallas kernel `{name}` solves real systems only, got {rhs.dtype}.")
    lower, diag, upper, rhs = _lanes.full_bands(lower, diag, upper, rhs)  # a system per lane
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    if _lanes.lanes(batch) == 0:
        return jnp.zeros(rhs.shape, rhs.dtype)
    systems = _lanes.lanes(batch)
    width = lanes_per_program(systems)
    # (n, L): the batch flattened and padded with identity systems to whole blocks.
    rows = tuple(
        jnp.pad(
            jnp.reshape(row, (n, systems)),
            ((0, 0), (0, -systems % width)),
            constant_values=int(k == 1),
        )
        for k, row in enumerate(_lanes.to_lanes(lower, diag, upper, rhs))
    )
    spec = pl.BlockSpec((n, width), lambda program: (0, program))
    out = jax.ShapeDtypeStruct(rows[0].shape, rhs.dtype)
    x, *_ = pl.pallas_call(
        body,
        out_shape=(out,) * (1 + scratch),
        grid=(rows[0].shape[1] // width,),
        in_specs=[spec] * 4,
        out_specs=(spec,) * (1 + scratch),
        compiler_params=pltriton.CompilerParams(num_warps=max(1, width // 32), num_stages=1),
        interpret=interpret,
        name=name,
    )(*rows)
    return _lanes.from_lanes(x[:, :systems], batch, n)
