"""Gaussian elimination with partial pivoting (as LAPACK ``dgtsv``) as two `lax.scan` sweeps.

Rows ``a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i`` in the layout of `_lanes`
(``a_0 = c_{n-1} = 0``; independent systems in lanes; identity rows pad the
length N to a multiple of the unroll).

Forward sweep.  Before step i, the rows above have been reduced so that one
row in two unknowns is left over, the *current* row ``p x_{i-1} + q x_i = r``;
step i reads original row i.  Of the two, the row with the larger
``|coefficient of x_{i-1}|`` is the pivot row; on a tie the current row stays
(dgtsv's ``IF( ABS( D( I ) ).GE.ABS( DL( I ) ) )``):

    swap                  = |p| < |a_i|
    pivot (P0, P1, P2, PR) = swap ? (a_i, b_i, c_i, d_i) : (p, q, 0, r)
    other (O0, O1, O2, OR) = swap ? (p, q, 0, r)         : (a_i, b_i, c_i, d_i)

The pivot row is row i-1 of U (upper triangular, two superdiagonals), stored
divided by its pivot, ``x_{i-1} + s1 x_i + s2 x_{i+1} = t``:

    s1 = P1 / P0,   s2 = P2 / P0,   t = PR / P0

and x_{i-1} leaves the other row (multiplier ``O0 / P0``, at most 1 in
magnitude: partial pivoting's growth bound), giving the next current row

    p' = O1 − O0 s1,   q' = O2 − O0 s2,   r' = OR − O0 t.

The sweep starts from a fictitious current row ``1·x_{-1} + 0·x_0 = 0``: as
a_0 = 0, step 0 never swaps, emits it as U's row −1 (s1 = s2 = t = 0) and
leaves original row 0 as the current row.  So step i emits U's row i−1, and
the final carry is U's last row ``p x_{N-1} = r`` (its q multiplies x_N,
which does not exist: c_{N-1} = 0 makes it 0).

Backward sweep (x_N = x_{N+1} = 0 beyond the end):

    x_{N-1} = r / p,    x_i = t_i − s1_i x_{i+1} − s2_i x_{i+2}    (i = N-2 … −1).

Branch-free: the pivot, the multiplier's numerator and the rows are picked by
`jnp.where` selects, and the divisions are by the chosen pivot
(``where(swap, a_i, p)``), so an unchosen candidate is never divided by.
In float32 they are divisions, as in dgtsv: a pivot above 1/FLT_MIN (8.5e37)
has a subnormal reciprocal, which XLA:CPU flushes to 0, and the system would
solve to 0; float64 multiplies by 1/P0 (`thomas_scan.divider` says why).
Terms known to be 0 (P2 without a swap, O2 with one) are not computed.
In exact arithmetic A is singular exactly when some pivot P0 is 0 (both
candidates for it are 0); then P1 / 0 (or 1/0) makes that row non-finite and
with it the solution: inf/NaN, never a plausible number.  (In float64, a pivot
below the smallest normal number, ~2e-308, may also overflow its reciprocal
where dgtsv's division would not.)

Shared bands.  The pivot choice and U's s1, s2 depend on the bands alone
(`pivot_step`), t and the next r on the right-hand side too (`rhs_step`):
bands shared by several right-hand sides (`_lanes`) are pivoted once for all
of them — in the same loop for one system with a few right-hand sides, else
in a sweep of their own before the right-hand sides' (`_shared_sweeps`).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from . import _lanes
from .thomas_scan import divider, pivot_like

# Unroll factor of both sweeps, measured on CPU (the unroll sweep of
# `python -m benchmarks.suites.tridiagonal --unroll-sweep`,
# results/tridiagonal_cpu_unroll_sweep.json; 2-core AMD EPYC VM, jax 0.10.2;
# two runs).  One system, n=1e5: 2 is best (f32 2.1–2.5 ms, f64 2.7–3.3 ms); 1 is
# 8–33% slower, and from 4 on XLA:CPU no longer compiles the forward loop into one
# native call (the body is larger than Thomas'), ~15x slower.  A batch
# (1000 × n=256): 1 is best (f32 4.6–5.8 ms, f64 6.9–7.1 ms), 2 is 0–11% slower.
_UNROLL_ONE_SYSTEM = 2
_UNROLL_BATCH = 1

# Up to this many systems the sweeps carry their rows stacked, one array each way
# (rows (N, 4, *batch), U's rows (N, 3, *batch), the carry (3, *batch)), past it as
# separate arrays.  A loop too large for XLA:CPU's one-call compilation runs each
# iteration's fusions as thunks, and stacked rows make ~3x fewer of them; past ~32
# systems the stacked body computes more slowly than the thunks cost.  Both give
# identical results; the measurement is benchmarks/results/cpu_gtsv_stacked_rows.md.
_MAX_STACKED_LANES = 16

# XLA:CPU compiles a loop into one native call only while an iteration accesses
# < 1 KiB (its SmallWhileLoopHoistingPass; docs/architecture.md §6): this
# elimination fits 4 float32 lanes, 2 float64 (measured).  A larger batch on a
# single device is chained (`_lanes.to_chains`) into that many lanes, up to this
# many systems per lane; past it the wide loop's thunks cost less than the chain's
# length (benchmarks/results/cpu_gtsv_chains.md).
_MAX_LINKS = 16

# One system's bands shared by a few right-hand sides: one native loop at the one-system
# unroll, the step broadcasting the bands, while the right-hand sides of a row take at
# most 16 bytes (float32 4 columns, float64 2; n = 1e5, ms: float32 2 columns 1.7, 4 2.2,
# 6 33; float64 2 columns 2.0, 3 29).  More columns, or more band systems, sweep the
# bands first (`_shared_sweeps`: float32 2 columns 3.4, 8 columns 4.1; n = 256, 64
# columns 84 µs against 163 with the bands copied).
_NATIVE_COLUMN_BYTES = 16


def native_lanes(dtype) -> int:
    """Systems one native loop of this elimination holds: 4 float32, 2 float64 (measured).

    0 for other dtypes, which are not chained: half precision never runs as a native
    loop, and complex chains measured slower than their lanes.
    """
    return {jnp.dtype(jnp.float32): 4, jnp.dtype(jnp.float64): 2}.get(jnp.dtype(dtype), 0)


def unroll_for(lanes: int) -> int:
    return _UNROLL_ONE_SYSTEM if lanes == 1 else _UNROLL_BATCH


def eliminate(current, row):
    """One forward step: pivot the current row ``(p, q, r)`` against ``row = (a, b, c, d)``.

    Returns the next current row and U's emitted row ``(s1, s2, t)`` (module
    docstring); the Pallas kernel (`pallas_gtsv`) takes the same step.
    """
    p, q, r = current
    a, b, c, d = row
    (p_new, q_new), (swap, pivot, o0, s1, s2) = pivot_step((p, q), (a, b, c))
    r_new, t = rhs_step(r, d, (swap, pivot, o0))
    return (p_new, q_new, r_new), (s1, s2, t)


def pivot_step(current, row):
    """`eliminate`'s part in the bands alone: the current row's ``(p, q)`` against
    ``row = (a, b, c)``; returns the next ``(p, q)`` and ``(swap, P0, O0, s1, s2)``."""
    p, q = current
    a, b, c = row
    swap = jnp.abs(p) < jnp.abs(a)
    pivot = jnp.where(swap, a, p)
    per_pivot = divider(pivot)  # x / P0
    o0 = jnp.where(swap, p, a)
    s1 = per_pivot(jnp.where(swap, b, q))
    s2 = jnp.where(swap, per_pivot(c), 0)  # P2 = 0 without a swap
    p_new = jnp.where(swap, q, b) - o0 * s1
    q_new = jnp.where(swap, -p * s2, c)  # O2 = 0 with a swap, s2 = 0 without
    return (p_new, q_new), (swap, pivot, o0, s1, s2)


def rhs_step(r, d, step):
    """`eliminate`'s part in a right-hand side: the current row's ``r`` and the row's ``d``,
    with the bands' ``step = (swap, P0, O0)``; returns the next ``r`` and U's ``t``."""
    swap, pivot, o0 = step
    t = divider(pivot, d)(jnp.where(swap, d, r))
    return jnp.where(swap, r, d) - o0 * t, t


@partial(jax.jit, static_argnames="chain")
def splines_gtsv_scan(lower, diag, upper, rhs, chain: bool = False):
    """Solve ``(..., n)`` systems with partial pivoting; ``lower``/``upper`` ``(..., n-1)``.

    The bands' leading shape broadcasts to rhs's: bands shared by several right-hand
    sides are pivoted once for all of them.  ``chain=True`` lets a
    batch too wide for one native loop be chained (`_lanes.to_chains`); a program
    partitioned over devices must keep its systems in lanes, as the partitioner
    splits lanes, never a loop.  Wrapped in its own `jax.jit` so that its
    lowering is one named function (`splines_gtsv_scan`) that callers and tests
    can recognise in the compiled program.
    """
    batch, n = rhs.shape[:-1], rhs.shape[-1]
    systems, chains = _lanes.lanes(batch), native_lanes(rhs.dtype)
    # A symbolic batch (`jax.export`) has systems in lanes and unstacked rows.
    known = isinstance(systems, int)
    lanes = _lanes.lanes(diag.shape[:-1])
    if known and isinstance(lanes, int) and systems > lanes:  # bands shared by columns
        rows = _lanes.to_lanes(lower, diag, upper, rhs, _UNROLL_ONE_SYSTEM)
        if lanes == 1 and systems * rhs.dtype.itemsize <= _NATIVE_COLUMN_BYTES:
            x = _sweeps(rows, None, _UNROLL_ONE_SYSTEM, tuple)
        else:
            x = _shared_sweeps(rows, unroll_for(lanes))
        return _lanes.from_lanes(x, batch, n)
    lower, diag, upper, rhs = _lanes.full_bands(lower, diag, upper, rhs)
    if chain and known and 0 < chains < systems <= _MAX_LINKS * chains:
        rows, first = _lanes.to_chains(lower, diag, upper, rhs, chains)
        x = _sweeps(rows, first, unroll=1, pack=jnp.stack)
        return _lanes.from_chains(x, batch, n)
    unroll = unroll_for(systems)
    rows = _lanes.to_lanes(lower, diag, upper, rhs, unroll)
    # The sweeps' rows and carries: stacked arrays, or tuples (see _MAX_STACKED_LANES).
    x = _sweeps(rows, None, unroll, jnp.stack if known and systems <= _MAX_STACKED_LANES else tuple)
    return _lanes.from_lanes(x, batch, n)


def _sweeps(rows, first, unroll: int, pack):
    """Both sweeps over ``(N, *lanes)`` rows: the ``(N, *lanes)`` solution.

    ``first`` flags the rows where a chained system starts (None: one system per
    lane).  There the current row is the previous system's last, ``p x = r``
    (its q is 0, as that row's c is): step i emits it as U's row ``(0, 0, r/p)``
    (a true division, as the last system's x: a float64 reciprocal flushes to 0
    past 4.5e307) and the next current row is row i alone; the backward sweep
    takes x = t there and leaves the next system's unknowns out of the rows
    above (U's row i-2 may hold x_i, with a zero coefficient).  Selects, not
    products with those zeros, cut the chain, so that a non-finite system
    (0 · inf = NaN) cannot spill into its neighbours.
    """
    # Zeros that vary as the rows do (over shard_map's axes too): a band's, a right-hand side's.
    zero, zero_rhs = jnp.zeros_like(rows[0][0]), jnp.zeros_like(rows[3][0])

    def forward(current, xs):
        row, starts = xs
        row = tuple(row)
        new, u_row = eliminate(tuple(current), row)
        if starts is not None:  # the current row is the previous system's last, p x = r
            p, _, r = current
            new = tuple(jnp.where(starts, own, eliminated) for own, eliminated in zip(row[1:], new))
            s1, s2, t = u_row
            u_row = (jnp.where(starts, 0, s1), s2, jnp.where(starts, r / p, t))
        return pack(new), pack(u_row)

    init = pack((zero + 1, zero, zero_rhs))
    rows = jnp.stack(rows, axis=1) if pack is jnp.stack else rows
    (p, _, r), u_rows = lax.scan(forward, init, (rows, first), unroll=unroll)
    x_last = r / pivot_like(p, r)

    def backward(x_next, xs):
        (s1, s2, t), starts = xs
        x1, x2 = x_next
        x = t - s1 * x1 - s2 * x2
        if starts is not None:  # x is the previous system's last unknown; x1 not its own
            x, x1 = jnp.where(starts, t, x), jnp.where(starts, 0, x1)
        return pack((x, x1)), x

    # xs[k] = x_{k-1}: the scan's rows are U's rows −1 … N-2.
    _, xs = lax.scan(
        backward, pack((x_last, zero_rhs)), (u_rows, first), reverse=True, unroll=unroll
    )
    return jnp.concatenate([xs[1:], x_last[None]])


def _shared_sweeps(rows, unroll: int):
    """Both sweeps for bands ``(N, *bands)`` shared by right-hand sides ``(N, *batch)``.

    The bands' sweep pivots once for all their right-hand sides (`pivot_step`); the
    right-hand sides' forward sweep (`rhs_step`) and the backward sweep follow.
    """
    a, b, c, d = rows
    zero_band, zero_rhs = jnp.zeros_like(a[0]), jnp.zeros_like(d[0])
    (p, _), (swap, pivot, o0, s1, s2) = lax.scan(
        pivot_step, (zero_band + 1, zero_band), (a, b, c), unroll=unroll
    )

    def forward(r, row):
        d, *step = row
        return rhs_step(r, d, step)

    r, t = lax.scan(forward, zero_rhs, (d, swap, pivot, o0))
    x_last = r / pivot_like(p, r)

    def backward(x_next, row):
        s1, s2, t = row
        x1, x2 = x_next
        x = t - s1 * x1 - s2 * x2
        return (x, x1), x

    _, xs = lax.scan(backward, (x_last, zero_rhs), (s1, s2, t), reverse=True)
    return jnp.concatenate([xs[1:], x_last[None]])
