"""Operands of a primitive that vary over `shard_map`'s manual axes alike.

Inside `shard_map` (its default ``check_vma``) every value is typed by the mesh
axes it varies over, and a primitive's output must vary as any of its operands
does; a gather of a replicated table at a varying index only transposes into
a sum over the devices when the index is typed varying.  Our primitives give
their output the abstract value of one operand, so they are bound to operands
made alike first: each plus a scalar zero that varies as all of them
(`jnp.zeros_like` keeps an array's variance).  XLA drops the additions of 0.
"""

import jax
import jax.numpy as jnp


def varying_alike(*operands) -> tuple:
    """The operands, each varying as any of them does (as they are outside a trace)."""
    if not any(isinstance(a, jax.core.Tracer) for a in operands):
        return operands
    zero = sum(jnp.zeros_like(a, shape=(), dtype=jnp.float32) for a in operands)
    return tuple(a + zero.astype(a.dtype) for a in operands)
