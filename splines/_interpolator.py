"""`Interpolator1D`: fit once, evaluate many times; a pytree for jit/vmap/grad."""

from functools import partial
from typing import Any, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float

from ._boundary import parse_extrap
from ._dtypes import promote_inexact
from ._evaluate import EvalSpec, check_derivative, evaluate
from ._fit import fit, prepare_fit


class Interpolator1D(eqx.Module):
    """A fitted 1-D interpolant (see `interp1d` for the arguments).

    Holds the (closed, if periodic) knots, the values and — for cubic2 — the
    knot slopes, so calls only search and evaluate.  Fields are arrays, so a
    batch of interpolants over different grids is one `jax.vmap` away.
    """

    knots: Float[Array, " n"]
    values: Float[Array, "n k"]
    slopes: Optional[Float[Array, "n k"]]
    fill: Float[Array, "2"]  # (below, above), used unless extending or periodic
    method: str = eqx.field(static=True)
    extend: bool = eqx.field(static=True)
    periodic: bool = eqx.field(static=True)
    axis: int = eqx.field(static=True)
    column_shape: tuple = eqx.field(static=True)

    def __init__(
        self,
        xp: Float[ArrayLike, " n"],
        fp: Float[ArrayLike, "*shape"],
        method: str = "cubic2",
        *,
        bc_type: Any = None,
        extrap: Any = False,
        period: Optional[Float[ArrayLike, ""]] = None,
        axis: int = 0,
    ):
        xp, fp = promote_inexact(xp, fp)
        spec, bc_values = prepare_fit(xp, fp, method, bc_type, period, axis)
        extrap = parse_extrap(extrap)
        self.knots, self.values, self.slopes = _fit(xp, fp, bc_values, period, spec)
        self.column_shape = spec.column_shape
        self.fill = jnp.stack([jnp.asarray(f, self.values.dtype) for f in extrap.fill])
        self.method, self.extend, self.axis = method, extrap.extend, spec.axis
        self.periodic = spec.periodic

    def __call__(self, x: Float[ArrayLike, "..."], derivative: int = 0) -> Float[Array, "..."]:
        """Values (or the ``derivative``-th derivative) at ``x``; shape as `interp1d`."""
        return _evaluate(self, x, check_derivative(derivative))


@partial(jax.jit, static_argnums=4)
def _fit(xp, fp, bc_values, period, spec):
    return fit(xp, fp, bc_values, period, spec)


@partial(jax.jit, static_argnums=2)
def _evaluate(interpolator: Interpolator1D, x, derivative: int):
    (x,) = promote_inexact(x)
    spec = EvalSpec(
        interpolator.method, derivative, interpolator.extend, interpolator.periodic,
        interpolator.axis, interpolator.column_shape,
    )  # fmt: skip
    return evaluate(x, interpolator.knots, interpolator.values, interpolator.slopes,
                    interpolator.fill, spec)  # fmt: skip
