"""Fitting: knots and values → piecewise polynomial (breaks, coefficients), purely.

`prepare_fit` does everything that can be done before tracing: it checks the
static options, converts every number to the data's dtype (so that no value's
type selects a program), runs the eager data checks when the inputs are
concrete, and returns a hashable `FitSpec` plus the `FitArgs` arrays.  `fit`
is traceable and free of host callbacks and data-dependent control flow.

Scale-free: the slope rules give each knot's slope in units of its cell
(`_slopes._units`), a value-sized number built from value differences and
ratios of neighbouring widths; dy/dx itself is formed only for `approx_df`.
The stored pieces are in local coordinates (`_hermite`), so nothing overflows
or flushes to zero whatever the knots' scale: what must be representable are
the values, each gap between neighbouring knots and their ratios.  (A global
rescaling to a unit coordinate would cost a tiny fit half its time on
XLA:CPU: every width waits for one data-dependent scalar.)
"""

import math
from typing import Any, NamedTuple, Optional

import jax.numpy as jnp
import numpy as np

from ._boundary import PERIODIC, EndConditions, parse_bc_type
from ._dtypes import as_dtype, check_real, constant, data_dtypes, result_type, value_as_dtype
from ._layout import column_values, normalize_axis, to_columns
from ._memo import check_once, memoized
from ._methods import CUBIC_METHODS, Method, get_method
from ._periodic import close_at_last_knot, fit_periodic
from ._slopes._units import as_dydx
from ._validate import (
    check_ends_match_eagerly,
    check_knots_eagerly,
    check_period_eagerly,
    check_values_eagerly,
    check_within_period_eagerly,
    finite_columns,
    is_concrete,
    knot_eps,
    knots_are_valid,
    poison,
)


class Names(NamedTuple):
    """What the caller calls the arguments, for error messages."""

    knots: tuple = ("xp",)  # per axis
    queries: tuple = ("x",)  # per axis
    values: str = "fp"
    slopes: str = "fx"  # given 1-D slopes (scipy's `CubicHermiteSpline` calls them `dydx`)

    def derivative(self, mask: int) -> str:
        """``"fxy"`` for the mixed derivative along the axes in ``mask`` (bit a: axis a)."""
        return "f" + "".join(q for a, q in enumerate(self.queries) if mask >> a & 1)


class FitSpec(NamedTuple):
    """Static description of a fit: part of the jit cache key."""

    method: str
    bc_kinds: tuple
    axis: int
    column_shape: tuple  # fp's shape without the knot axis
    # With a period: whether xp ends with xp[0] + period; None when the knots or
    # the period are traced and the program decides by the data (`_periodic`).
    closes_period: Optional[bool]
    knot_eps: float  # the knots' precision, for the closing tolerance
    given_slopes: bool = False  # `fx` replaces the method's slopes

    @property
    def periodic(self) -> bool:
        """Queries wrap: a ``period`` was given or ``bc_type="periodic"``."""
        return self.bc_kinds[0] == PERIODIC


class FitArgs(NamedTuple):
    """The fit's array arguments, already in the data's dtypes."""

    xp: Any
    fp: Any
    bc_values: tuple
    period: Any  # None without a period
    fx: Any = None  # given slopes dy/dx, fp's shape; None: the method's own
    tension: Any = None  # cardinal's `c`; None for every other method


class FitPlan(NamedTuple):
    """What `prepare_fit` decides from the options and the arrays' types and shapes."""

    spec: FitSpec  # closes_period: None, decided per call from the data
    real: Any  # dtype of knots and period
    value: Any  # dtype of values and slopes
    bc_values: tuple
    takes_tension: bool


def prepare_fit(xp, fp, method, bc_type, period, axis, c=None, fx=None, names=Names()):
    """Validate and convert; return ``(FitSpec, FitArgs)``.  Raises ValueError/TypeError.

    The static half is planned once per call signature (`_memo`); the data
    checks run on every call, except for jax arrays that passed them before.
    """
    plan = memoized(_plan_fit, (xp, fp, period, fx), (method, bc_type, axis), (c is None, names))
    args = FitArgs(
        as_dtype(xp, plan.real),
        as_dtype(fp, plan.value),
        plan.bc_values,
        None if period is None else as_dtype(period, plan.real),
        None if fx is None else as_dtype(fx, plan.value),
        tension(c, plan.real) if plan.takes_tension else None,
    )
    spec = plan.spec
    closes = _check_data_eagerly(args, spec.bc_kinds, spec.axis, spec.knot_eps, names)
    return (spec if closes is None else spec._replace(closes_period=closes)), args


def _plan_fit(xp, fp, period, fx, method, bc_type, axis, no_tension: bool, names: Names):
    rule = get_method(method)
    given = (names.slopes,) if fx is not None else ()
    c = None if no_tension else 0.0  # stands for the tension: only "given or not" is static
    check_method_options(method, rule, bc_type, c, given, all_given=fx is not None)
    if jnp.ndim(fp) == 0:
        raise ValueError(f"`{names.values}` must have at least one dimension; got a scalar.")
    axis = normalize_axis(axis, jnp.ndim(fp), names.values)
    check_axis(xp, names.knots[0], fp, axis, period, f"`axis`={axis}", names.values)
    check_given_shape(fx, names.slopes, fp, names.values)
    ends = parse_bc_type(bc_type, periodic=period is not None)
    column_shape = jnp.shape(fp)[:axis] + jnp.shape(fp)[axis + 1 :]
    real, value = data_dtypes(xp, fp) if fx is None else data_dtypes(xp, fp, fx)
    eps = knot_eps(result_type(xp), real)
    bc_values = tuple(_bc_value(v, column_shape, value) for v in ends.values)
    spec = FitSpec(method, ends.kinds, axis, column_shape, None, eps, fx is not None)
    return FitPlan(spec, real, value, bc_values, rule.takes_tension)


def check_axis(xp, name: str, fp, axis: int, period, along: str, values: str) -> None:
    """One axis of the data: 1-D real knots ``name``, one value per knot along ``axis``
    of ``fp`` (called ``values``), enough knots, and a real scalar ``period`` (or None)."""
    if jnp.ndim(xp) != 1:
        raise ValueError(f"`{name}` must be one-dimensional; got shape {jnp.shape(xp)}.")
    check_real(xp, name)
    n = jnp.shape(xp)[0]
    if jnp.shape(fp)[axis] != n:
        raise ValueError(
            f"`{values}` must have len({name}) = {n} entries along {along}; got "
            f"`{values}.shape`={jnp.shape(fp)}."
        )
    fewest = 1 if period is not None else 2  # a period closes a single knot
    if n < fewest:
        raise ValueError(f"`{name}` needs at least {fewest} knot{'s' * (fewest > 1)}; got {n}.")
    if period is not None:
        check_real(period, "period")
        if jnp.ndim(period) != 0:
            raise ValueError(f"`period` must be a scalar; got shape {jnp.shape(period)}.")


def check_given_shape(derivative, name: str, fp, values: str) -> None:
    """User-given derivatives at the knots have the values' shape."""
    if derivative is not None and jnp.shape(derivative) != jnp.shape(fp):
        raise ValueError(
            f"`{name}` (derivatives at the knots) must have `{values}`'s shape {jnp.shape(fp)}; "
            f"got {jnp.shape(derivative)}."
        )


def check_method_options(method: str, rule: Method, bc_type, c, given=(), all_given=False):
    """Options that the method does not take are errors, not silently ignored.

    ``given``: the names of the user-given derivatives; ``all_given``: they
    leave nothing for the method's slope rule to compute.
    """
    listed = ", ".join(f"`{name}`" for name in given)
    if bc_type is not None and (not rule.takes_bc_type or all_given):
        why = f"the slopes are given ({listed})" if all_given else (
            "its slopes come from neighbouring values" if rule.slopes else "it has no slopes")
        raise ValueError(
            f"`bc_type`={bc_type!r} has no effect on method {method!r}: {why}. Leave it "
            "out (use `period` for periodic data)."
        )  # fmt: skip
    if c is not None and not rule.takes_tension:
        raise ValueError(f"`c` (tension) applies to method 'cardinal' only; got {method!r}.")
    if c is not None and all_given:
        raise ValueError(f"`c` (tension) has no effect when the slopes are given ({listed}).")
    if given and method not in CUBIC_METHODS:
        raise ValueError(
            f"`{given[0]}` (slopes) needs a cubic method, one of {CUBIC_METHODS}; "
            f"got {method!r}."
        )


def tension(c, real):
    """Cardinal's tension as a real scalar (0 when not given); concrete: in [0, 1]."""
    c = 0.0 if c is None else c
    check_real(c, "c")
    if jnp.ndim(c) != 0:
        raise ValueError(f"`c` (tension) must be a scalar; got shape {jnp.shape(c)}.")
    if is_concrete(c) and not 0 <= float(c) <= 1:
        raise ValueError(f"`c` (tension) must be in [0, 1]; got {c!r}.")
    return as_dtype(c, real)


def _bc_value(value, column_shape: tuple, dtype):
    if type(value) is float and math.isfinite(value):  # scipy's defaults: no array checks
        return constant(value, dtype)
    value = value_as_dtype(value, dtype, "bc_type")
    if is_concrete(value) and not np.isfinite(np.asarray(value)).all():
        raise ValueError(f"boundary values in `bc_type` must be finite; got {value}.")
    if not _broadcasts_to(jnp.shape(value), column_shape):
        raise ValueError(
            f"boundary value of shape {jnp.shape(value)} in `bc_type` does not "
            f"broadcast to one value per column, shape {column_shape}."
        )
    return value


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _check_data_eagerly(args: FitArgs, kinds, axis, eps, names: Names) -> Optional[bool]:
    """Raise on bad concrete data (in numpy); say whether the knots close the period."""
    xp, fp, _, period, fx, _ = args
    if is_concrete(xp):
        check_once(check_knots_eagerly, xp, names.knots[0])
    arrays = [(names.values, fp)] + ([(names.slopes, fx)] if fx is not None else [])
    for name, values in arrays:
        if is_concrete(values):
            check_once(check_values_eagerly, values, name)
    closes = None
    if period is not None:
        if is_concrete(period):
            check_period_eagerly(np.asarray(period))
        if xp.shape[0] == 1:
            closes = False  # one knot cannot close a positive period
        elif is_concrete(xp, period):
            closes = check_within_period_eagerly(np.asarray(xp), np.asarray(period), eps,
                                                 names.knots[0])  # fmt: skip
    if kinds[0] == PERIODIC and (period is None or closes):
        for name, values in arrays:
            if is_concrete(values):
                check_ends_match_eagerly(np.asarray(values), axis, name, "periodic data", eps)
    return closes


def fit(args: FitArgs, spec: FitSpec):
    """Return ``(breaks, coefficients, end)`` of the interpolant as a piecewise polynomial.

    ``coefficients`` has shape ``(len(breaks) - 1, k, degree + 1)``, ascending
    powers of the local coordinate (see `_hermite`); ``end`` ``(k,)`` holds the
    values at the last break, the data's own (the last piece's coefficient sum
    rounds away from them; `_evaluate.at_last_break`).  With a ``period`` the
    knots are closed first (see `_periodic`), so evaluation can wrap queries
    into one period.  Invalid knots, period or tension (see `_validate`) make
    every array — and every gradient through them — NaN; a column with a
    non-finite value, slope or boundary value is NaN on its own.
    """
    values, ends, options, valid = _columns(args, spec)
    method = get_method(spec.method)

    def pieces(knots, values):
        return _pieces(method, knots, values, ends, spec.given_slopes, options)

    if args.period is not None:
        breaks, coefficients, knots_valid = fit_periodic(
            pieces, args.xp, values, args.period, spec.closes_period, spec.knot_eps
        )
    else:
        breaks, coefficients = pieces(args.xp, values)
        knots_valid = knots_are_valid(args.xp)
    # The value at the last break: the last knot's, or the first's where it closes a period.
    end = values[0 if spec.periodic else -1, : coefficients.shape[1]]
    factor = poison(valid & knots_valid)
    columns = factor * poison(finite_columns(coefficients, axis=1))
    return breaks * factor, coefficients * columns[:, None], end * columns


def knot_slopes(args: FitArgs, spec: FitSpec):
    """The method's slopes dy/dx at the knots, ``(n, k)`` (`approx_df`; no ``period``)."""
    values, ends, options, valid = _columns(args, spec)
    widths = jnp.diff(args.xp)
    slopes = as_dydx(get_method(spec.method).slopes(widths, values, ends, **options), widths)
    factor = poison(valid & knots_are_valid(args.xp))
    return slopes * (factor * poison(finite_columns(slopes, axis=1)))


def _columns(args: FitArgs, spec: FitSpec):
    """Values as ``(n, k)`` columns, end conditions, method options, and their validity.

    Given slopes ride along as extra columns, so periodic closing treats them
    as values.  With ``bc_type="periodic"`` (no ``period``) the last knot closes
    the period: its values must match the first ones.
    """
    values, _ = to_columns(args.fp, spec.axis)
    if spec.given_slopes:
        values = jnp.concatenate([values, to_columns(args.fx, spec.axis)[0]], axis=1)
    ends = EndConditions(
        spec.bc_kinds,
        tuple(column_values(v, spec.column_shape, values.dtype) for v in args.bc_values),
    )
    options, valid = method_options(args.tension)
    if spec.periodic and args.period is None:
        values, ends_valid = close_at_last_knot(values, spec.knot_eps)
        valid = valid & ends_valid
    return values, ends, options, valid


def method_options(tension):
    """The slope rule's options and whether they are valid (a traced tension may not be)."""
    if tension is None:
        return {}, jnp.bool_(True)
    return {"tension": tension}, (tension >= 0) & (tension <= 1)


def _pieces(method: Method, knots, values, ends: EndConditions, given_slopes: bool, options):
    """Slopes (given dy/dx, or the method's rule in the knots' units, `_slopes._units`)
    and pieces."""
    widths = jnp.diff(knots)
    if given_slopes:
        values, slopes = jnp.split(values, 2, axis=1)
        return method.pieces(knots, widths, values, slopes)
    if method.slopes is None:
        return method.pieces(knots, widths, values, None)
    slopes = method.slopes(widths, values, ends, **options)
    return method.pieces(knots, widths, values, slopes, in_cell_units=True)
