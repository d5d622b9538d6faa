"""One promotion rule for every public entry point."""

import jax.numpy as jnp
import numpy as np


def promote_inexact(*arrays):
    """Convert to one common floating dtype; integers and bools become floats.

    ``float`` takes part as a weak type, so f32 inputs stay f32 and integer
    inputs become JAX's default float (f64 when x64 is enabled).
    """
    dtype = jnp.result_type(float, *arrays)
    return tuple(jnp.asarray(a, dtype) for a in arrays)


def lists_to_arrays(*values):
    """Python sequences become numpy arrays (jit would take a list as many scalars)."""
    return tuple(np.asarray(v) if isinstance(v, (list, tuple)) else v for v in values)
