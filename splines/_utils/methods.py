"""`plain_method`: a method of an equinox module whose access builds no module.

On every access of a method of an instance, equinox returns a `BoundMethod`, a
module (a pytree, so that a bound method can be passed through `jax.jit`); its
construction costs more than an eager call of our methods does otherwise (~60 µs
of ``spline.integrate(a, b)``).  A `plain_method` is bound with `functools.partial`
instead: the same call, not a pytree (pass the module, not its bound method,
through a transformation).
"""

import functools


class plain_method:  # noqa: N801 (used as a decorator, as `property`)
    """Decorate a method of an `eqx.Module`: accessed on an instance, the function with
    the instance bound first (`functools.partial`), else the function itself."""

    def __init__(self, function):
        self.function = function
        functools.update_wrapper(self, function)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self.function
        return functools.partial(self.function, instance)
