"""One promotion rule for every public entry point."""

import jax.numpy as jnp


def promote_inexact(*arrays):
    """Convert to one common floating dtype; integers and bools become floats.

    ``float`` takes part as a weak type, so f32 inputs stay f32 and integer
    inputs become JAX's default float (f64 when x64 is enabled).
    """
    dtype = jnp.result_type(float, *arrays)
    return tuple(jnp.asarray(a, dtype) for a in arrays)
