"""`Interpolator1D`: fit once, evaluate many times; a pytree for jit/vmap/grad."""

from typing import Any, Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, ArrayLike, Float, Inexact

from ._boundary import parse_extrap
from ._dtypes import lists_to_arrays
from ._evaluate import EvalSpec, check_derivative, evaluate, prepare_queries
from ._fit import fit, prepare_fit
from ._methods import get_method


class Interpolator1D(eqx.Module):
    """A fitted 1-D interpolant (see `interp1d` for the arguments).

    Holds a piecewise polynomial — breaks and per-piece coefficients, as
    scipy's `PPoly`, and the data's values at the last break — so a call only
    searches and runs Horner.  Fields are
    arrays, so a batch of interpolants over different grids is one
    `jax.vmap` away, and gradients flow to the coefficients.
    """

    breaks: Float[Array, " b"]
    coefficients: Float[Array, "b-1 k d"]  # ascending powers of (x − b_j) / (b_{j+1} − b_j)
    end: Inexact[Array, " k"]  # the values at the last break (`_evaluate.at_last_break`)
    fill: Float[Array, "2"]  # (below, above), used unless extending or periodic
    extend: bool = eqx.field(static=True)
    periodic: bool = eqx.field(static=True)
    right_closed: bool = eqx.field(static=True)
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
        c: Optional[Float[ArrayLike, ""]] = None,
        fx: Optional[Inexact[ArrayLike, "*shape"]] = None,
    ):
        xp, fp, period, fx = lists_to_arrays(xp, fp, period, fx)
        spec, args = prepare_fit(xp, fp, method, bc_type, period, axis, c, fx)
        extrap = parse_extrap(extrap, spec.periodic, args.fp.dtype)
        self.breaks, self.coefficients, self.end = _fit(args, spec)
        self.fill = jnp.stack(extrap.fill)  # already in the data's dtype
        self.extend, self.periodic = extrap.extend, spec.periodic
        self.right_closed = get_method(method).right_closed
        self.axis, self.column_shape = spec.axis, spec.column_shape

    def __call__(
        self, x: Float[ArrayLike, "..."], derivative: int | tuple[int, ...] = 0
    ) -> Inexact[Array, "..."]:
        """Values (or derivatives: an order or a tuple of orders) at ``x``; as `interp1d`."""
        spec = EvalSpec(
            check_derivative(derivative), self.extend, self.periodic, self.right_closed,
            self.axis, self.column_shape,
        )  # fmt: skip
        (x,) = lists_to_arrays(x)
        return _evaluate(prepare_queries(x, self.breaks.dtype), self.breaks, self.coefficients,
                         self.fill, spec, self.end)  # fmt: skip


_fit = jax.jit(fit, static_argnums=1)
_evaluate = jax.jit(evaluate, static_argnums=4)
