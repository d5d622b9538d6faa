"""A jax function with a GPU twin, chosen per platform when the program is lowered.

`lax.platform_dependent` leaves a ``stablehlo.case`` in a single-platform program (and
under `grad` a nested one), whose predicate a GPU copies to the host each call.  A
primitive with one lowering per platform leaves only the chosen code, as the solve
primitives do (`_linalg.banded`).  `per_platform` makes such a primitive for any pair:

- ``default(*args)`` (jax code, a tuple of arrays) is what every platform but CUDA and
  ROCm runs, and what differentiation sees: the JVP is ``default``'s, so derivative
  programs run ``default`` everywhere;
- ``gpu(batch_ndim, *args)`` computes the same on CUDA/ROCm, for arguments broadcast to
  one leading batch shape of ``batch_ndim`` axes (unbatched: 0).

Under `vmap` the primitive records which arguments each level maps (``levels``, the
outermost first); ``default`` then runs under the same nested `vmap`s, so arguments a
level does not map stay unbatched inside it (a data-free scan stays one scan for a
batch of data), and ``gpu`` receives them broadcast.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import batching, mlir

from . import platform_of


def per_platform(default, gpu, name: str):
    primitive = Primitive(name)
    primitive.multiple_results = True

    def run(*args, levels, platform):
        if platform in ("cuda", "rocm", "gpu"):
            shape = _batch_shape(args, levels)
            return tuple(gpu(len(levels), *(_broadcast(a, i, levels, shape)
                                             for i, a in enumerate(args))))  # fmt: skip
        return tuple(_mapped(default, levels)(*args))

    def abstract_eval(*avals, levels):
        args = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in avals]
        out = jax.eval_shape(_mapped(default, levels), *args)
        return [jax.core.ShapedArray(o.shape, o.dtype) for o in out]

    def impl(*args, levels):
        platform, _ = platform_of(args)
        return _compiled(run, platform, levels, *args)

    def batch(args, dims, *, levels):
        args = [a if d is None else jnp.moveaxis(a, d, 0)
                for a, d in zip(args, dims)]  # fmt: skip
        level = tuple(d is not None for d in dims)
        out = primitive.bind(*args, levels=(level,) + levels)
        return out, [0] * len(out)

    primitive.def_impl(impl)
    primitive.def_abstract_eval(abstract_eval)
    batching.primitive_batchers[primitive] = batch
    mlir.register_lowering(primitive, _lowering(run, "default"))
    for platform in ("cuda", "rocm"):
        mlir.register_lowering(primitive, _lowering(run, platform), platform=platform)

    @jax.custom_jvp
    def call(*args):
        return tuple(primitive.bind(*args, levels=()))

    call.defjvp(lambda primals, tangents: jax.jvp(lambda *a: tuple(default(*a)), primals, tangents))
    return call


def _lowering(run, platform):
    def rule(ctx, *args, levels):
        return mlir.lower_fun(partial(run, levels=levels, platform=platform), True)(ctx, *args)

    return rule


@partial(jax.jit, static_argnums=(0, 1, 2))
def _compiled(run, platform, levels, *args):
    return run(*args, levels=levels, platform=platform)


def _mapped(fun, levels):
    """``fun`` under one `vmap` per level, the outermost first in ``levels``."""
    for level in reversed(levels):
        fun = jax.vmap(fun, in_axes=tuple(0 if mapped else None for mapped in level))
    return fun


def _broadcast(arg, index, levels, shape):
    """Argument ``index`` with every level's batch axis, where it had only those of the
    levels that map it."""
    mapped = [level[index] for level in levels]
    core = arg.shape[sum(mapped) :]
    expanded = tuple(size if m else 1 for size, m in zip(shape, mapped))
    return jnp.broadcast_to(jnp.reshape(arg, expanded + core), shape + core)


def _batch_shape(args, levels):
    """The size of each level's batch axis, from an argument it maps."""
    shape = []
    for depth, level in enumerate(levels):
        index = level.index(True)
        axis = sum(outer[index] for outer in levels[:depth])
        shape.append(args[index].shape[axis])
    return tuple(shape)
