"""`interp1d`: fit and evaluate in one jitted call."""

from functools import partial
from typing import Any, Literal, Optional

import jax
from jaxtyping import Array, ArrayLike, Float, Inexact

from ._boundary import parse_extrap
from ._dtypes import lists_to_arrays
from ._evaluate import EvalSpec, check_derivative, evaluate, prepare_queries
from ._fit import FitArgs, FitSpec, fit, prepare_fit
from ._memo import memoized
from ._methods import get_method

Method = Literal["nearest", "linear", "cubic2", "cubic", "catmull-rom", "cardinal", "monotonic",
                 "monotonic-0", "akima", "makima"]  # fmt: skip


def interp1d(
    x: Float[ArrayLike, "..."],
    xp: Float[ArrayLike, " n"],
    fp: Float[ArrayLike, "*shape"],
    method: Method = "cubic2",
    *,
    bc_type: Any = None,
    derivative: int | tuple[int, ...] = 0,
    extrap: Any = False,
    period: Optional[Float[ArrayLike, ""]] = None,
    axis: int = 0,
    c: Optional[Float[ArrayLike, ""]] = None,
    fx: Optional[Inexact[ArrayLike, "*shape"]] = None,
) -> Inexact[Array, "..."]:
    """Interpolate ``fp`` sampled at knots ``xp`` to query points ``x``.

    Argument order follows `numpy.interp`: queries, knots, values.

    Args:
        x: query points, any shape.
        xp: strictly increasing knots, shape ``(n,)``.
        fp: values; ``fp.shape[axis] == n``; every other axis is a column.
        method: ``"nearest"``, ``"linear"``, or a cubic (piecewise cubic
            Hermite) method: ``"cubic2"`` (C² spline from a tridiagonal
            solve, as `scipy.interpolate.CubicSpline`), ``"cubic"`` (C¹,
            mean of the neighbouring secants), ``"catmull-rom"``,
            ``"cardinal"`` (tension ``c``), ``"monotonic"`` (as
            `scipy.interpolate.PchipInterpolator`), ``"monotonic-0"`` (the
            same with zero end slopes), ``"akima"``, ``"makima"`` (as
            `scipy.interpolate.Akima1DInterpolator`).  See `approx_df`.
        bc_type: cubic2 end conditions, as scipy: ``"not-a-knot"`` (default),
            ``"natural"``, ``"clamped"``, ``"periodic"``, or a pair of ends, each
            a name or ``(order, value)`` with order 1 or 2.  Values are arrays
            (one per column, broadcast) and differentiable.
        derivative: static order of the derivative to evaluate (past the
            method's degree: zeros), or a tuple of orders, stacked on a new
            leading axis (one cell search for all).
        extrap: ``False`` → NaN outside ``[xp[0], xp[-1]]``; ``True`` → extend
            the end pieces; a scalar → that fill value; a pair → (below, above).
            Periodic data wrap instead: leave ``extrap`` out.
        period: if given, the knots cover one period (the closing knot
            ``xp[0] + period`` may be included, with its value equal to the
            first; decided by the data, also when traced), queries wrap
            around and cubic2 is periodic.
            ``bc_type="periodic"`` alone takes the period ``xp[-1] - xp[0]``.
        axis: the axis of ``fp`` along the knots.
        c: the tension of ``"cardinal"``, in [0, 1] (default 0, which is
            Catmull-Rom; 1 gives zero slopes); differentiable.
        fx: slopes dy/dx at the knots, ``fp``'s shape: with any cubic method
            they replace the method's (a cubic Hermite spline, as
            `scipy.interpolate.CubicHermiteSpline`); differentiable.

    Returns:
        Array of shape ``fp.shape[:axis] + x.shape + fp.shape[axis+1:]`` (with
        a leading axis of orders when ``derivative`` is a tuple), of dtype
        ``numpy.result_type(x, xp, fp, fx)`` (at least float32).

    Bad static input raises `ValueError`/`TypeError`.  Bad concrete data
    (knots not finite and strictly increasing, non-finite ``fp``, knots past
    the period) raise `ValueError`; traced, they make every output and every
    gradient NaN (see `splines._validate`).  NaN queries give NaN.
    """
    x, xp, fp, period, fx = lists_to_arrays(x, xp, fp, period, fx)
    fit_spec, fit_args = prepare_fit(xp, fp, method, bc_type, period, axis, c, fx)
    x = prepare_queries(x, fit_args.xp.dtype)
    options, internal = (derivative, extrap), (method, fit_spec, fit_args.fp.dtype)
    spec, fill = memoized(_plan_evaluation, (), options, internal)
    return _interp1d(x, fit_args, fill, fit_spec, spec)


def _plan_evaluation(derivative, extrap, method: str, fit_spec: FitSpec, dtype) -> tuple:
    """``(EvalSpec, fill)``: the evaluation's static half, kept per options (`_memo`)."""
    extrap = parse_extrap(extrap, fit_spec.periodic, dtype)
    spec = EvalSpec(
        check_derivative(derivative), extrap.extend, fit_spec.periodic,
        get_method(method).right_closed, fit_spec.axis, fit_spec.column_shape,
    )  # fmt: skip
    return spec, extrap.fill


@partial(jax.jit, static_argnums=(3, 4))
def _interp1d(x, fit_args: FitArgs, fill, fit_spec: FitSpec, eval_spec: EvalSpec):
    breaks, coefficients, end = fit(fit_args, fit_spec)
    return evaluate(x, breaks, coefficients, fill, eval_spec, end)
