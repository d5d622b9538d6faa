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
    lower, diag, upper, rhs = _lanes.full_bands(lower, diag, upper, rhs)  # a system per lane
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    systems = _lanes.lanes(batch)
    rows = tuple(jnp.reshape(row, (n, systems)) for row in _lanes.to_lanes(lower, diag, upper, rhs))
    x, *_ = call_in_lanes(
        body,
        rows,
        fills=(0, 1, 0, 0),  # identity systems
        outputs=[(n,)] * (1 + scratch),
        dtype=rhs.dtype,
        interpret=interpret,
        name=name,
    )
    return _lanes.from_lanes(x, batch, n)


def call_in_lanes(body, inputs, *, fills, outputs, dtype, interpret: bool, name: str):
    """``body(*input_refs, *output_refs)`` over blocks of lanes, the systems on the last axis.

    ``inputs``: arrays ``(*rows, L)`` of one system per lane; ``fills``: for each,
    the values (broadcasting to ``(*rows, 1)``) of the identity systems that pad
    L to whole blocks; ``outputs``: the ``rows`` shapes of the outputs (the first
    the result, the others scratch).  Returns the outputs ``(*rows, L)``.
    """
    if jnp.issubdtype(dtype, jnp.complexfloating):
        raise TypeError(f"the Pallas kernel `{name}` solves real systems only, got {dtype}.")
    systems = inputs[0].shape[-1]
    if systems == 0:
        return [jnp.zeros(shape + (0,), dtype) for shape in outputs]
    width = lanes_per_program(systems)
    pad = -systems % width
    inputs = [
        jnp.concatenate(
            [a, jnp.broadcast_to(jnp.asarray(fill, a.dtype), a.shape[:-1] + (pad,))], axis=-1
        )
        for a, fill in zip(inputs, fills)
    ]

    def spec(shape):
        return pl.BlockSpec(shape + (width,), lambda program: (0,) * len(shape) + (program,))

    out = pl.pallas_call(
        body,
        out_shape=[jax.ShapeDtypeStruct(shape + (systems + pad,), dtype) for shape in outputs],
        grid=((systems + pad) // width,),
        in_specs=[spec(a.shape[:-1]) for a in inputs],
        out_specs=[spec(shape) for shape in outputs],
        compiler_params=pltriton.CompilerParams(num_warps=max(1, width // 32), num_stages=1),
        interpret=interpret,
        name=name,
    )(*inputs)
    return [a[..., :systems] for a in out]
