"""Data checks (docs/architecture.md §5, tier 2): eager inputs raise, traced inputs give NaN.

The eager checks (`check_*`) run on concrete inputs only — numpy arrays,
Python numbers, or jax arrays outside any trace — and use numpy alone, so they
never touch a tracer even when called while a trace is active (numpy constants
closed over by a jitted function).  They run in the dtype the computation
will use, so knots that only collide after rounding to f32 are caught.

The traced tests (`knots_are_valid`, `ends_match`, `closes_period`) are the
same formulas on jax arrays; the fit turns a false one into NaN breaks and
coefficients through `poison`, so every output *and every gradient* is NaN —
never a plausible number — and no host callback is needed.  To turn that NaN
into an error inside `jit`, wrap the caller in
``jax.experimental.checkify.checkify(f, errors=checkify.float_checks)`` or
test ``jnp.isnan`` on the result.
"""

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

# "Closes the period" and "exceeds the period" share one symmetric tolerance:
# this many ulps of the largest magnitude among the end knots and the period
# (the span xp[-1] - xp[0] is rounded relative to the knots, not to itself).
_PERIOD_ULPS = 16
# Periodic values may close with rounding error (sin(2π) ≈ -2.4e-16), and more
# when the closing knot itself is a few ulps off: sin(2π·(1 + 3 ulps)) is 19
# ulps from 0.  Anything past 64 ulps of the column's scale is a real mismatch.
_ENDS_ULPS = 64


def is_concrete(*arrays) -> bool:
    """True when no argument is being traced (so numpy can look at it)."""
    return not any(isinstance(a, jax.core.Tracer) for a in arrays)


# ----------------------------------------------------------- shared tests --


def knots_are_valid(*knots):
    """Every knot sequence finite, strictly increasing, with finite gaps: a traced boolean.

    A NaN fails every comparison, so ``0 < diff < inf`` throughout means no
    NaN, a strictly increasing sequence and no gap that overflows (±max knots:
    an infinite width would make every piece's coordinate 0); such a sequence
    is finite iff its two ends are.  One reduction for all sequences (a grid's
    axes, their ends included): each reduction is a thunk of its own on XLA:CPU,
    and a program whose thunks do not form a chain (nor number ≤ 8, nor all
    use ≤ 512 B) runs them on a thread pool.  One sequence tests its ends as
    scalars in the same fusion as its gaps, which keeps a small 1-D program a
    chain; a grid's ends stay in the reduction, where they cost its program
    least (benchmarks/results/cpu_shared_bands.md).
    """
    gaps = jnp.concatenate([jnp.diff(xp) for xp in knots])
    rising = (gaps > 0) & (gaps < jnp.inf)
    if len(knots) == 1:
        (xp,) = knots
        return jnp.all(rising) & jnp.isfinite(xp[0]) & jnp.isfinite(xp[-1])
    ends = jnp.stack([xp[i] for xp in knots for i in (0, -1)])
    return jnp.all(jnp.concatenate([rising, jnp.isfinite(ends)]))


@functools.lru_cache(maxsize=64)
def _tiny(dtype) -> float:
    """The smallest normal number of a float dtype (``np.finfo`` costs µs a call)."""
    return np.finfo(dtype).tiny


@functools.lru_cache(maxsize=64)
def knot_eps(xp_dtype, real_dtype) -> float:
    """Precision of the knots as the user gave them (f32 knots stay f32-rounded
    when the computation is f64), for the closing tolerance."""
    eps = float(jnp.finfo(real_dtype).eps)
    if jnp.issubdtype(xp_dtype, jnp.floating):
        eps = max(eps, float(jnp.finfo(xp_dtype).eps))
    return eps


def period_gap(xp, period, eps, xnp=jnp):
    """``(xp[-1] - xp[0]) - period`` and the tolerance within which it counts as 0.

    ``eps`` is the knots' precision (`knot_eps`).
    """
    scale = xnp.maximum(xnp.maximum(abs(xp[0]), abs(xp[-1])), abs(period))
    return (xp[-1] - xp[0]) - period, _PERIOD_ULPS * eps * scale


def closes_period(xp, period, eps, xnp=jnp):
    """The last knot is the first plus the period, to rounding."""
    gap, tol = period_gap(xp, period, eps, xnp)
    return abs(gap) <= tol


def ends_match(values, eps, xnp=jnp, first=0, last=-1):
    """``values[first] == values[last]`` per column ``(n, k) → (k,)``, to rounding of the
    column (by default its two ends).

    ``eps`` is the knots' precision (`knot_eps`): values computed at f32 knots
    close only to f32 rounding, even when they are f64.
    """
    scale = xnp.max(abs(values), axis=0)
    tol = _ENDS_ULPS * max(eps, float(xnp.finfo(values.dtype).eps)) * scale
    return abs(values[last] - values[first]) <= tol


def placeable(xp, period, eps, xnp=jnp):
    """The knots can be placed in the period: they lie clearly inside one period (none
    within rounding of the closing knot or past it), or their rounding (``tol``,
    `period_gap`) is at most 1/64 of the period.  Else whether the last knot closes
    the period, and where a wrapped knot lands, is decided by rounding."""
    gap, tol = period_gap(xp, period, eps, xnp)
    return (gap < -tol) | (tol <= period / 64)


def check_placeable_eagerly(xp, period, eps, name: str = "xp") -> None:
    """`placeable`, or a ValueError naming the largest knot."""
    if not placeable(xp, period, eps, np):
        i = int(np.argmax(abs(xp)))
        _, tol = period_gap(xp, period, eps, np)
        raise ValueError(
            f"`{name}` cannot be placed in `period` = {period} in {xp.dtype}: at `{name}[{i}]` "
            f"= {xp[i]} the knots' rounding ({tol:.3g}) is not small against the period, so "
            "whether they close it or wrap into it is decided by rounding; shift the knots "
            "nearer to 0 or use float64."
        )


def wrap_into_period(xp, period, eps):
    """Knots past ``xp[0] + period`` (beyond the closing tolerance) moved back by whole
    periods, then sorted; also the order taken and which knots moved.

    For traced knots (`_pieces.periodic.wrap_periodic_knots`); the same rule as
    `wrapped_knots_eagerly`, with a fixed shape: knots that coincide after wrapping
    are not merged (the caller makes the fit NaN).
    """
    offset = xp - xp[0]
    _, tol = period_gap(xp, period, eps)
    moved = offset > period + tol
    wrapped = jnp.where(moved, xp[0] + jnp.mod(offset, period), xp)
    order = jnp.argsort(wrapped)
    return wrapped[order], order, moved[order], tol


def poison(valid):
    """1 where ``valid``, NaN elsewhere: multiply by it to make values *and* gradients NaN.

    ``jnp.where(valid, a, nan)`` has a zero derivative on its NaN side, so an
    optimiser would see a zero gradient; ``a * poison(valid)`` has the
    derivative ``da * nan``.
    """
    return jnp.where(valid, 1.0, jnp.nan)


def poison_columns(table, axis: int, by_slot: bool = False):
    """Per column (``axis`` of ``table``): 1 if all of its entries are finite, else
    NaN — `poison` of that test, to multiply the column by.  ``by_slot``: the
    last axis stacks arrays computed apart (a grid's node data).

    Traced data cannot raise as concrete ones do (`check_values_eagerly`): a
    non-finite value, slope or boundary value reaches its column's pieces or
    node data, and then every output and gradient of that column is to be NaN,
    not only the outputs near it.  Tested on the fit's result rather than its
    inputs: the test then follows the fit in one chain; on the inputs it is an
    independent piece of the program, which XLA:CPU hands to its thread pool
    (docs/architecture.md §6), doubling the time of a small fit.

    ``1 + Σ 0·x``: a sum of zeros is 0, and NaN as soon as one x is inf or NaN
    (never a false alarm: no sum of large finite entries is formed).  Written
    as a product with a zero vector over the rows: XLA keeps ``0·x`` for floats,
    and a dot reads the table where it lies.  A reduction would not do as well
    on XLA:CPU: ``all(isfinite)`` writes a boolean array and reduces it one
    element at a time, ``sum(0·x)`` writes the zeros first, and its vectorised
    max/min reductions drop NaN.  At the highest precision: a dot of reduced
    precision (TF32 on a GPU) could round an entry near the largest float to inf.
    But a small 1-D fit (a table of at most `_BOOLEAN_MAX_ENTRIES`) takes the
    boolean test: the dot's thunk takes its fit + evaluation off XLA:CPU's
    sequential path, a thread hand-off that costs it about twice its time
    (benchmarks/results/cpu_shared_bands.md).
    """
    axis = axis % table.ndim
    if not by_slot and table.size <= _BOOLEAN_MAX_ENTRIES:
        return poison(_all_finite(table, axis))
    slots = table.shape[-1] if by_slot and axis == table.ndim - 2 else 1
    if slots > 1 and table.size // slots * table.dtype.itemsize <= _IN_LINE_BYTES:
        parts = [
            table[..., s, None] for s in range(slots)
        ]  # a small grid's node data, slot by slot
    else:
        parts = [table]
    return 1 + jnp.real(sum(_zero_sums(part, axis) for part in parts))


# A 1-D fit's table up to this many entries is tested by `all(isfinite)` (`poison_columns`).
_BOOLEAN_MAX_ENTRIES = 1 << 14


def _all_finite(table, axis: int):
    """Per column, whether all its entries are finite: the entries behind a column
    first, then the rows (XLA:CPU vectorises these two reductions)."""
    finite = jnp.isfinite(_rows_columns_rest(table, axis))
    return jnp.all(jnp.all(finite, axis=2), axis=0)


def _rows_columns_rest(table, axis: int):
    """``table`` as ``(rows, columns, rest)`` around its column ``axis``, without gradient."""
    shape = (math.prod(table.shape[:axis]), table.shape[axis], math.prod(table.shape[axis + 1 :]))
    return jax.lax.stop_gradient(jnp.reshape(table, shape))


# XLA:CPU runs a program on the calling thread when every buffer is this small
# (docs/architecture.md §6).  A dot needs its operand in a buffer: the stacked
# node data of an 8² grid (1 KB) would take a small fit + evaluation off that
# path; its slots as the fit computed them (256 B each) do not.  (Slices of a
# table computed whole, as 1-D pieces, would each recompute it.)
_IN_LINE_BYTES = 512


def _zero_sums(table, axis: int):
    """``Σ 0·x`` per column: 0, or NaN where an entry is inf or NaN."""
    entries = _rows_columns_rest(table, axis)
    zeros = jnp.einsum(
        "rct,r->ct",
        entries,
        jnp.zeros(entries.shape[0], entries.dtype),
        precision=jax.lax.Precision.HIGHEST,
    )
    return jnp.sum(zeros, axis=1)


# ------------------------------------------------------------ eager tests --


def static_int(value, name: str, minimum=None, kind: str = "a Python int", shown=None) -> int:
    """A static integer option (it selects a program): a Python or numpy int and not a
    bool, at least ``minimum``.  Errors name it ``name``, say it must be ``kind`` and
    show ``shown`` (the whole option, when ``value`` is part of it)."""
    shown = value if shown is None else shown
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"`{name}` must be {kind}; got {shown!r}.")
    if minimum is not None and value < minimum:
        raise ValueError(f"`{name}` must be ≥ {minimum}; got {shown!r}.")
    return int(value)


def check_knots_eagerly(xp, name: str = "xp") -> None:
    """Raise for the first knot that is not finite or not above its predecessor.

    "Above" means by at least the smallest normal number: XLA on CPU flushes
    subnormal differences to zero, which would make the knots collide.  And by
    less than infinity: knots near ±max whose gap overflows are as unusable.
    """
    tiny = _tiny(xp.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        gaps = xp[1:] - xp[:-1]
        rising = (gaps >= tiny) & (gaps < np.inf)
    if np.isfinite(xp).all() and rising.all():
        return  # the common case in a few vector tests (an eager call's cost)
    not_rising = np.flatnonzero(~rising) + 1
    not_finite = np.flatnonzero(~np.isfinite(xp))
    first = min(np.concatenate([not_finite, not_rising]), default=None)
    if first is None:
        return
    if first in not_finite:
        raise ValueError(f"`{name}` must be finite; `{name}[{first}]` = {xp[first]}.")
    if gaps[first - 1] == np.inf:
        raise ValueError(
            f"`{name}[{first}] - {name}[{first - 1}]` overflows {xp.dtype} "
            f"({xp[first]} - {xp[first - 1]}); rescale the knots."
        )
    if xp[first] > xp[first - 1]:
        raise ValueError(
            f"`{name}[{first}] - {name}[{first - 1}]` = {xp[first] - xp[first - 1]} is below the "
            f"smallest normal {xp.dtype} ({np.finfo(xp.dtype).tiny}); rescale the knots."
        )
    raise ValueError(
        f"`{name}` must be strictly increasing in {xp.dtype}; "
        f"`{name}[{first - 1}]` = {xp[first - 1]} but `{name}[{first}]` = {xp[first]}."
    )


def check_values_eagerly(fp, name: str = "fp") -> None:
    """Raise for the first value that is NaN or infinite (as scipy does)."""
    if np.isfinite(fp).all():
        return
    bad = np.argwhere(~np.isfinite(fp))
    if bad.size:
        index = ", ".join(str(i) for i in bad[0])
        raise ValueError(f"`{name}` must be finite; `{name}[{index}]` = {fp[tuple(bad[0])]}.")


def check_period_eagerly(period, where: str = "") -> None:
    if period.ndim != 0 or not (np.isfinite(period) and period > 0):
        raise ValueError(f"`period` must be finite and positive{where}; got {period}.")


def wrapped_knots_eagerly(xp, period, eps):
    """Knots spanning more than one period, wrapped into it: None if they lie within one
    (the closing knot ``xp[0] + period`` included), else ``(knots, kept, merged)``.

    Each knot moves by whole periods into ``[xp[0], xp[0] + period)``; they are
    sorted, and a knot that moved (or closed the period) and then meets another
    (within the closing tolerance, `period_gap`) is merged with it: ``kept``
    holds, in sorted order, the index of the knot kept for each (the first
    given), ``merged`` the pairs ``(kept, other)``.  The knots are `placeable`
    (`check_placeable_eagerly`).
    """
    gap, tol = period_gap(xp, period, eps, np)
    if gap <= tol:
        return None
    offset = np.mod(xp - xp[0], period)
    offset[period - offset <= tol] = 0  # a whole number of periods past xp[0], to rounding
    order = np.argsort(offset, kind="stable")
    moved = (xp - xp[0] >= period - tol)[order]  # the closing knot too: it lands on xp[0]
    meets = (np.diff(offset[order]) <= tol) & (moved[1:] | moved[:-1])  # as `wrap_into_period`
    starts = np.concatenate([[True], ~meets])
    group = np.cumsum(starts) - 1
    kept = np.array([order[group == g].min() for g in range(group[-1] + 1)])
    merged = [(kept[g], i) for i, g in zip(order, group) if i != kept[g]]
    return (xp[0] + offset[kept]).astype(xp.dtype), kept, merged


def merged_values_eps(xp, period, eps) -> float:
    """The precision to which the values of merged knots (`wrapped_knots_eagerly`) must
    agree: the knots' own, times how much larger than the period they are (a knot's
    rounding moves it that much further within the period, and its value with it)."""
    return eps * max(1.0, float(np.max(abs(xp))) / float(period))


def check_merged_values_eagerly(
    values, axis: int, name: str, knots: str, merged, period, eps
) -> None:
    """Raise naming the first pair of merged knots (`wrapped_knots_eagerly`) whose values
    along ``axis`` differ in some line (``eps``: `merged_values_eps`)."""
    lines = np.moveaxis(values, axis, 0).reshape(values.shape[axis], -1)
    for kept, other in merged:
        mismatch = np.flatnonzero(~ends_match(lines, eps, np, kept, other))
        if mismatch.size:
            j = mismatch[0]
            raise ValueError(
                f"`{knots}[{kept}]` and `{knots}[{other}]` wrap onto the same point of "
                f"`period` = {period}, "
                f"so their values must be equal; `{name}` has {lines[kept, j]} and "
                f"{lines[other, j]} there (line {j} along the other axes)."
            )


def check_ends_match_eagerly(values, axis: int, name: str, what: str, eps, agree=None) -> None:
    """Raise naming the first line of ``values`` along ``axis`` whose two ends differ
    (`ends_match`, or ``agree(lines, eps, np)`` per line of ``(n, lines)``).

    The line is written as an index with ``:`` along ``axis``, e.g. ``fp[2, :, 1]``.
    """
    moved = np.moveaxis(values, axis, 0)
    lines = moved.reshape(moved.shape[0], -1)
    with np.errstate(invalid="ignore", over="ignore"):
        mismatch = np.flatnonzero(~(agree or ends_match)(lines, eps, np))
    if mismatch.size:
        j = mismatch[0]
        index = [str(i) for i in np.unravel_index(j, moved.shape[1:])]
        index.insert(axis, ":")
        raise ValueError(
            f"{what} needs the first and last values of each line of `{name}` along the "
            f"axis to be equal; `{name}[{', '.join(index)}]` starts at {lines[0, j]} and "
            f"ends at {lines[-1, j]}."
        )


def evenly_spaced(xp, period=None) -> bool:
    """Whether every knot lies within a quarter spacing of its place on an even grid
    (with ``period``: the knots and their closing ``xp[0] + period`` unless they
    already end there), which `locate`'s ``even`` needs to find each piece."""
    if period is not None and xp.size > 1 and xp[-1] - xp[0] < period * (1 - 1e-9):
        xp = np.append(xp, xp[0] + period)
    if xp.size < 3:
        return xp.size == 2
    with np.errstate(over="ignore", invalid="ignore"):
        even = np.linspace(xp[0], xp[-1], xp.size)
        # NaN where the span overflows: not even (`locate`'s ``even`` divides by the span)
        return bool(np.max(np.abs(xp - even)) <= 0.25 * (even[1] - even[0]))


def check_evenly_spaced_eagerly(xp, name: str, period=None) -> None:
    """Raise unless `evenly_spaced` (``even_spacing=True`` with uneven knots)."""
    if not evenly_spaced(xp, period):
        with np.errstate(over="ignore"):
            gaps, span = np.diff(xp), xp[-1] - xp[0]
        if not np.isfinite(span):
            raise ValueError(
                f"`even_spacing=True` but the span of `{name}` overflows {xp.dtype} "
                f"({xp[-1]} - {xp[0]}); pass even_spacing=False or None (detect)."
            )
        raise ValueError(
            f"`even_spacing=True` but `{name}` is not evenly spaced (gaps from {gaps.min()} "
            f"to {gaps.max()}); pass even_spacing=False or None (detect)."
        )
