"""Preparing a fit on any number of axes: the options checked, the arrays in their dtypes.

`prepare_fit` does everything that can be done before tracing.  Its static
half — the options checked against the arrays' shapes and dtypes, the end
conditions parsed, the dtypes chosen — is a *plan*, made once per call
signature (`_utils.eager_cache`).  Then every number is converted to the
data's dtype (so no value's type selects a program) and, for concrete
inputs, the data are checked in numpy (once per jax array).  It returns a
hashable `FitSpec` and the `FitArgs` arrays, which `fit.fit` takes.

The d grid axes of ``fp`` are consecutive, from ``axis`` on (``axis`` is
`interp1d`'s; on grids it is 0); every other axis of ``fp`` is a column.
"""

import math
from typing import Any, NamedTuple

import jax.numpy as jnp
import numpy as np

from .._methods.ends import PERIODIC
from .._methods.registry import CUBIC_METHODS, Method, get_method
from .._utils.columns import normalize_axis, to_columns
from .._utils.dtypes import (
    as_dtype,
    check_real,
    constant,
    data_dtypes,
    is_of_dtype,
    result_type,
    value_as_dtype,
)
from .._utils.eager_cache import check_once, memoized
from .._utils.validate import (
    check_ends_match_eagerly,
    check_evenly_spaced_eagerly,
    check_knots_eagerly,
    check_merged_values_eagerly,
    check_period_eagerly,
    check_placeable_eagerly,
    check_values_eagerly,
    closes_period,
    ends_match,
    is_concrete,
    knot_eps,
    merged_values_eps,
    poison,
    wrapped_knots_eagerly,
)
from .options import parse_bc_type, per_axis


class ArgumentNames(NamedTuple):
    """What the caller calls the arguments, for error messages."""

    knots: tuple[str, ...] = ("xp",)  # per axis
    queries: tuple[str, ...] = ("x",)  # per axis
    values: str = "fp"
    slopes: str = "fx"  # 1-D given slopes (scipy's `CubicHermiteSpline` calls them `dydx`)

    def derivative(self, mask: int) -> str:
        """The given derivative along the axes in ``mask`` (bit a: axis a): ``"fxy"``."""
        if len(self.knots) == 1:
            return self.slopes
        return "f" + "".join(q for a, q in enumerate(self.queries) if mask >> a & 1)


class FitSpec(NamedTuple):
    """Static description of a fit: part of the jit cache key."""

    method: str
    bc_kinds: tuple  # per axis, the kinds of its two ends (PERIODIC on a periodic axis)
    axis: int  # fp's first grid axis
    column_shape: tuple  # fp's shape without the grid axes
    # Per axis with a period: whether its knots end with knots[0] + period; None
    # when the knots or the period are traced and the program decides (`_pieces.periodic`).
    closes_period: tuple
    knot_eps: float  # the knots' precision, for the closing tolerances
    given: tuple = ()  # masks of the given derivatives, in `FitArgs.given`'s order

    @property
    def periodic(self) -> tuple:
        """Per axis: queries wrap (a ``period`` was given, or ``bc_type="periodic"``)."""
        return tuple(kinds[0] == PERIODIC for kinds in self.bc_kinds)


class FitArgs(NamedTuple):
    """The fit's array arguments, already in the data's dtypes."""

    knots: tuple  # per axis
    fp: Any
    bc_values: tuple  # cubic2's two end values, one per column (broadcast); None: 0
    periods: tuple  # per axis, a scalar or None
    given: tuple = ()  # user-given derivatives, fp's shape
    tension: Any = None  # cardinal's `c`; None for every other method


class FitPlan(NamedTuple):
    """What `prepare_fit` decides from the options and the arrays' types and shapes."""

    spec: FitSpec  # closes_period: None per axis, decided per call from the data
    real: Any  # dtype of knots and periods
    value: Any  # dtype of values and given derivatives
    bc_values: tuple
    takes_tension: bool
    given_names: tuple  # what the caller calls the given derivatives
    has_period: bool  # some axis has a `period` or closes at its last knot
    of_their_dtypes: bool  # every array already a jax array of its dtype (`is_of_dtype`)


_CALLERS_NAMES = ArgumentNames()  # interp1d's: xp, x, fp, fx


def prepare_fit(
    knots: tuple,
    fp,
    method,
    bc_type,
    periods: tuple,
    axis=0,
    c=None,
    given: dict | None = None,
    names: ArgumentNames = _CALLERS_NAMES,
    check: bool = True,
):
    """Validate and convert; return ``(FitSpec, FitArgs)``.  Raises ValueError/TypeError.

    ``given`` maps axis masks to user-given derivatives (None: not given).
    ``check=False`` (interpax's) skips the eager data checks: bad concrete data
    then give NaN, as traced data do, instead of raising.  An eager call's cost,
    so written for few Python operations.
    """
    masks, derivatives = present(given)
    arrays = (*knots, fp, *periods, *derivatives)  # flat: a tuple in the key costs ~0.4 µs
    plan = memoized(
        plan_fit, arrays, (method, bc_type, axis), (len(knots), masks, c is None, names)
    )
    return fit_data(plan, knots, fp, periods, derivatives, c, names, check)


def fit_data(
    plan: FitPlan,
    knots: tuple,
    fp,
    periods: tuple,
    derivatives: tuple,
    c,
    names: ArgumentNames,
    check: bool = True,
):
    """`prepare_fit`'s data half, after its ``plan``: the arrays in their dtypes, checked."""
    real, value = plan.real, plan.value
    c = tension(c, real) if plan.takes_tension else None
    if plan.of_their_dtypes:  # (the usual eager call: no conversions to make)
        args = FitArgs(knots, fp, plan.bc_values, periods, derivatives, c)
    else:
        args = FitArgs(
            tuple([as_dtype(xp, real) for xp in knots]),
            as_dtype(fp, value),
            plan.bc_values,
            tuple([None if p is None else as_dtype(p, real) for p in periods]),
            tuple([as_dtype(v, value) for v in derivatives]),
            c,
        )
    closes = None
    if check:
        args, closes = _check_data_eagerly(args, plan, names)
    return (plan.spec if closes is None else plan.spec._replace(closes_period=closes)), args


def present(given) -> tuple:
    """The masks and arrays of the given derivatives, by mask."""
    present = [(m, v) for m, v in given.items() if v is not None] if given else None
    if not present:
        return (), ()
    present.sort(key=lambda item: item[0])
    return tuple([m for m, _ in present]), tuple([v for _, v in present])


def plan_fit(*args):
    """The `FitPlan`; ``args``: `prepare_fit`'s arrays flat, its options, then
    ``(d, masks, no_tension, names)``."""
    *arrays, method, bc_type, axis, d, masks, no_tension, names = args
    knots, fp, periods, given = (
        arrays[:d],
        arrays[d],
        arrays[d + 1 : 2 * d + 1],
        arrays[2 * d + 1 :],
    )
    knots, periods, given = tuple(knots), tuple(periods), tuple(given)
    rule = get_method(method)
    given_names = tuple(names.derivative(mask) for mask in masks)
    c = None if no_tension else 0.0  # stands for the tension: only "given or not" is static
    check_method_options(method, rule, bc_type, c, given_names, len(masks) == 2**d - 1)
    if jnp.ndim(fp) < d:
        raise ValueError(
            f"`{names.values}` must have at least one dimension; got a scalar."
            if d == 1
            else f"`{names.values}` must have at least {d} dimensions, one per axis of the grid; "
            f"got shape {jnp.shape(fp)}."
        )
    axis = normalize_axis(axis, jnp.ndim(fp) - d + 1, names.values)
    for a, (xp, name, period) in enumerate(zip(knots, names.knots, periods)):
        along = f"`axis`={axis}" if d == 1 else f"axis {a}"
        check_axis(xp, name, fp, axis + a, period, along, names.values)
    for value, name in zip(given, given_names):
        check_given_shape(value, name, fp, names.values)
    shape = jnp.shape(fp)
    column_shape = shape[:axis] + shape[axis + d :]
    real, value = data_dtypes(*knots, fp, *given)
    kinds, values = _end_conditions(bc_type, periods)
    bc_values = tuple(_bc_value(v, column_shape, value) for v in values)
    eps = max(knot_eps(result_type(xp), real) for xp in knots)
    spec = FitSpec(method, kinds, axis, column_shape, (None,) * d, eps, masks)
    has_period = any(k[0] == PERIODIC for k in kinds)
    of_their_dtypes = all(is_of_dtype(a, real) for a in knots + periods if a is not None) and all(
        is_of_dtype(a, value) for a in (fp, *given)
    )
    return FitPlan(
        spec, real, value, bc_values, rule.takes_tension, given_names, has_period, of_their_dtypes
    )


def _end_conditions(bc_type, periods: tuple) -> tuple:
    """End kinds per axis — periodic on axes with a period, ``bc_type``'s on the others —
    and ``bc_type``'s two values.

    On a grid the values must be zero: the mixed derivatives would need the
    boundary values' derivatives along the other axes.
    """
    free = [p is None for p in periods]
    if len(periods) == 1:
        ends = parse_bc_type(bc_type, periodic=not free[0])
        return (ends.kinds,), ends.values
    if bc_type is not None and not any(free) and bc_type != PERIODIC:
        raise ValueError(
            f"`bc_type`={bc_type!r} has no effect: every axis has a `period`. Leave it out."
        )
    ends = parse_bc_type(bc_type, periodic=False)
    if not all(is_concrete(v) and np.all(np.asarray(v) == 0) for v in ends.values):
        raise ValueError(
            f"`bc_type`={bc_type!r}: on a grid, end conditions take zero values only "
            "('natural', 'clamped', 'not-a-knot', 'periodic' or (order, 0)), since the mixed "
            "derivatives would need the values' derivatives along the other axes."
        )
    return tuple(ends.kinds if f else (PERIODIC, PERIODIC) for f in free), ends.values


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
        why = (
            f"the slopes are given ({listed})"
            if all_given
            else ("its slopes come from neighbouring values" if rule.slopes else "it has no slopes")
        )
        raise ValueError(
            f"`bc_type`={bc_type!r} has no effect on method {method!r}: {why}. Leave it "
            "out (use `period` for periodic data)."
        )
    if c is not None and not rule.takes_tension:
        raise ValueError(f"`c` (tension) applies to method 'cardinal' only; got {method!r}.")
    if c is not None and all_given:
        raise ValueError(f"`c` (tension) has no effect when the slopes are given ({listed}).")
    if given and method not in CUBIC_METHODS:
        raise ValueError(
            f"`{given[0]}` (slopes) needs a cubic method, one of {CUBIC_METHODS}; got {method!r}."
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
        return None if value == 0 else constant(value, dtype)  # None: the fit's own zero
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


def _check_data_eagerly(args: FitArgs, plan: FitPlan, names: ArgumentNames) -> tuple:
    """Raise on bad concrete data (in numpy); wrap concrete knots that span more than one
    period into it (`wrapped_knots_eagerly`).  Return the arguments and per axis whether
    its knots close their period (None when no axis has a period to decide)."""
    for xp, name in zip(args.knots, names.knots):
        check_once(check_knots_eagerly, xp, name)
    arrays = ((names.values, args.fp), *zip(plan.given_names, args.given))
    for name, values in arrays:
        check_once(check_values_eagerly, values, name)
    if not plan.has_period:
        return args, None
    spec, d, closes = plan.spec, len(args.knots), []
    for a, (xp, period, kinds) in enumerate(zip(args.knots, args.periods, spec.bc_kinds)):
        closes.append(None)
        if period is not None:
            if is_concrete(period):
                check_period_eagerly(np.asarray(period), f" along axis {a}" if d > 1 else "")
            if xp.shape[0] == 1:
                closes[-1] = False  # one knot cannot close a positive period
            elif is_concrete(xp, period):
                knots, p = np.asarray(xp), np.asarray(period)
                check_placeable_eagerly(knots, p, spec.knot_eps, names.knots[a])
                wrapped = wrapped_knots_eagerly(knots, p, spec.knot_eps)
                if wrapped is not None:
                    args = _wrapped(args, a, wrapped, spec, names, plan.given_names)
                closes[-1] = wrapped is None and bool(closes_period(knots, p, spec.knot_eps, np))
        if kinds[0] == PERIODIC and (period is None or closes[-1]):
            what = "periodic data" + (f" along axis {a} (`{names.knots[a]}`)" if d > 1 else "")
            for name, values in arrays:
                if is_concrete(values):
                    check_ends_match_eagerly(
                        np.asarray(values), spec.axis + a, name, what, spec.knot_eps
                    )
    return args, tuple(closes)


def _wrapped(args: FitArgs, a: int, wrapped, spec: FitSpec, names: ArgumentNames, given_names):
    """``args`` with axis ``a``'s knots wrapped into one period, their values taken in that
    order; merged knots must have equal values (concrete: raise; traced: NaN)."""
    knots, kept, merged = wrapped
    along = spec.axis + a
    period = np.asarray(args.periods[a])
    eps = merged_values_eps(np.asarray(args.knots[a]), period, spec.knot_eps)

    def take(values, name):
        if merged and is_concrete(values):
            check_merged_values_eagerly(
                np.asarray(values), along, name, names.knots[a], merged, period, eps
            )
        taken = jnp.take(values, kept, axis=along)
        if merged and not is_concrete(values):
            lines, _ = to_columns(values, along)
            agree = [jnp.all(ends_match(lines, eps, jnp, i, j)) for i, j in merged]
            taken = taken * poison(jnp.all(jnp.stack(agree)))
        return taken

    return args._replace(
        knots=args.knots[:a] + (jnp.asarray(knots),) + args.knots[a + 1 :],
        fp=take(args.fp, names.values),
        given=tuple(take(v, name) for v, name in zip(args.given, given_names)),
    )


def even_axes(even_spacing, args: FitArgs, names: ArgumentNames) -> tuple:
    """Per axis, whether queries find their piece by arithmetic (`locate`'s ``even``).

    ``even_spacing``: one for all axes or one per axis, interpax's meaning: True
    (the knots are evenly spaced: checked when concrete; traced, a query whose
    piece the arithmetic misses is NaN), False (search), None (True where the
    knots and period are concrete and evenly spaced; None, a search, where traced).
    """
    flags = per_axis(even_spacing, len(args.knots), "even_spacing")
    even = []
    for flag, xp, period, name in zip(flags, args.knots, args.periods, names.knots):
        if flag is not None and not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"`even_spacing` must be True, False or None; got {flag!r}.")
        concrete = is_concrete(xp, period)
        p = float(period) if period is not None and concrete else None
        if flag is None and concrete:
            flag = _passes(check_evenly_spaced_eagerly, xp, name, p)
        elif flag and concrete:
            check_once(check_evenly_spaced_eagerly, xp, name, p)
        even.append(None if flag is None else bool(flag))
    return tuple(even)


def _passes(check, array, *args) -> bool:
    """Whether ``check_once(check, array, *args)`` passes (a jax array that passed before
    is not copied to the host again)."""
    try:
        check_once(check, array, *args)
    except ValueError:
        return False
    return True
