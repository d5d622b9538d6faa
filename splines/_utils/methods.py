"""`plain_method`: a method of an equinox module whose access builds no module.

On every access of a method of an instance, equinox returns a `BoundMethod`, a
module (a pytree, so that a bound method can be passed through `jax.jit`); its
construction costs more than an eager call of our methods does otherwise (~60 µs
of ``spline.integrate(a, b)``).  A `plain_method` is bound with `functools.partial`
instead: the same call, not a pytree (pass the module, not its bound method,
through a transformation).
"""

import functools
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

_Self = TypeVar("_Self")
_Params = ParamSpec("_Params")
_Return = TypeVar("_Return", covariant=True)


class plain_method(Generic[_Self, _Params, _Return]):  # noqa: N801 (a decorator, as `property`)
    """Decorate a method of an `eqx.Module`: accessed on an instance, the function with
    the instance bound first (`functools.partial`), else the function itself."""

    def __init__(self, function: Callable[Concatenate[_Self, _Params], _Return]) -> None:
        self.function = function
        functools.update_wrapper(self, function)  # pyright: ignore[reportArgumentType]

    @overload
    def __get__(
        self, instance: None, owner: type | None = None
    ) -> Callable[Concatenate[_Self, _Params], _Return]: ...

    @overload
    def __get__(self, instance: _Self, owner: type | None = None) -> Callable[_Params, _Return]: ...

    def __get__(self, instance: Any, owner: type | None = None) -> Callable[..., _Return]:
        if instance is None:
            return self.function
        return functools.partial(self.function, instance)
