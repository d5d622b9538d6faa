"""Cell lookup: a branch-free binary search with a static number of steps.

The breaks (n of them, so n − 1 pieces) are padded with +inf up to 2^p + 1
entries, 2^p > n − 2.  Then every step is one gather, one compare and one add,
with no clamp:

    j ← j + s · [breaks[j + s] ≤ x]        for s = 2^(p−1), …, 2, 1

from j = 0, and j = min(j, n − 2) at the end (a query ≥ the last break climbs
into the padding).  No `while` is needed, and none is used where a loop costs
a host round trip per step (GPUs, docs/architecture.md §6).

The steps run in one of two ways, chosen per platform when the program is
lowered (`locate_p`, as `_linalg.tridiagonal` chooses its solve kernels), and
few breaks are counted instead:

- ``unrolled``: the p steps in line.  Everywhere but on CPU, and on CPU for
  few queries.
- ``counted``: ``j = #{k ∈ 1 … n−2 : breaks[k] ≤ x}`` — for increasing breaks
  the same j, and 0 for a NaN query or NaN (poisoned) breaks, as the search
  gives.  One fusion however many steps: on CPU up to 5 steps (n ≤ 33),
  where the n − 2 compares cost less than the steps' gathers, and a grid's
  per-axis searches stay few thunks (XLA:CPU runs a program of at most 8
  thunks in line, and hands a larger one with independent thunks to its
  thread pool: ~50 µs on 2 cores).
- ``rolled``: a `fori_loop` over the steps, each step one pass over all
  queries (CPU, long searches).  In line, XLA:CPU cuts the chain of gathers
  into several fusions, and every consumer of j (the piece's breaks, its
  coefficients) recomputes the chain in its own fusion; the loop hands j over
  once, computed: a fit + evaluate at n = 1000, q = 1e5 (f32) then runs as
  fast as `jnp.interp` (`benchmarks/suites/interp1d.py`).

About evenly spaced breaks need no search (`locate`'s ``even``): a multiply and a
floor guess j, and a step left or right by the piece's two breaks corrects it.
In line everywhere but on CPU for many queries, where the corrections run as a
loop of two steps for the reason above: a grid's corner gather reads j once per
corner, and recomputed there it made a 2-D evaluation 2x slower than the search.
"""

import math
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import lax
from jax.extend.core import Primitive
from jax.interpreters import ad, batching, mlir

from .._utils.validate import poison
from .._utils.variance import varying_alike

locate_p = Primitive("splines_locate")

# When XLA:CPU runs the rolled search (past the counted ones): at ≥ 5 steps and ≥ 64
# queries.  Measured (2-core CPU, f32, blocked medians of `locate` alone, µs,
# unrolled / rolled): n=64 q=1000 65 / 64; n=1000
# q=1e5 2565 / 1172; n=1e4 q=1e4 661 / 256; n=8 q=1e5 178 / 528 (3 steps: one
# fusion, in line wins); q=8: 11-19 / 12-20 (the loop's fixed cost).
_ROLLED_MIN_STEPS = 5
_ROLLED_MIN_QUERIES = 64
# XLA:CPU counts the piece up to this many steps (n ≤ 33 breaks).  Measured (2-core
# CPU, f32, jitted cubic2 fit + evaluate, µs, search / count): n=16 q=1e5 946 / 344;
# n=32 q=1e3 55 / 25, q=1e5 934 / 445; n=64 q=1e5 1058 / 3237 (6 steps: the search).
_COUNTED_MAX_STEPS = 5


def locate(x, breaks, right_closed: bool = False, even: bool = False):
    """Index j of the piece ``[breaks[j], breaks[j+1]]`` holding x, in ``[0, n-2]``.

    A point on an interior break belongs to the piece on its right, or with
    ``right_closed`` to the one on its left.  Points outside the breaks get
    the end pieces, so those extend; NaN gets piece 0.  ``breaks``: one row
    (n,) or rows (*batch, n); ``x``: any shape that leads with ``batch``.
    Piecewise constant: its derivatives are zero.

    ``even``: the breaks are about evenly spaced, so no search: one multiply and
    a floor give the piece j of x were the breaks exactly even, then a step left
    or right corrects it by the two breaks of that piece.  So j is the search's
    wherever every break lies within a piece width of its even place
    (`evenly_spaced` asks a quarter); `find_cells` makes the other queries NaN.
    """
    if jnp.shape(breaks)[-1:] < (2,):
        raise ValueError(f"locate needs at least 2 breaks (one piece); got {jnp.shape(breaks)}.")
    x, breaks = varying_alike(x, breaks)  # j varies as either does (`_utils.variance`)
    return locate_p.bind(x, breaks, right_closed=bool(right_closed), even=bool(even))


def steps(n: int) -> int:
    """p: the number of halvings for n breaks (2^p > n − 2 ≥ 2^(p−1))."""
    return max(n - 2, 0).bit_length()


def _padded(breaks):
    """The breaks with +inf (an integer dtype's largest) appended up to 2^p + 1 entries, and 2^p."""
    size = 1 << steps(breaks.shape[-1])
    top = jnp.inf if jnp.issubdtype(breaks.dtype, jnp.inexact) else jnp.iinfo(breaks.dtype).max
    pad = jnp.full((*breaks.shape[:-1], size + 1 - breaks.shape[-1]), top, breaks.dtype)
    return jnp.concatenate([breaks, pad], axis=-1), size


def _step(padded, x, j, step, right_closed: bool):
    """``j + step`` where the break there is at or below x (strictly below if ``right_closed``)."""
    left = jnp.take_along_axis(padded, j + step, axis=-1, mode="promise_in_bounds")
    return j + jnp.where(left < x if right_closed else left <= x, step, 0)


def _search(x, breaks, right_closed: bool, rolled: bool):
    """The search on rows: ``breaks`` (*batch, n), ``x`` (*batch, m) → j (*batch, m)."""
    padded, size = _padded(breaks)
    last = breaks.shape[-1] - 2
    j = jnp.zeros_like(x, jnp.int32)  # varies as x does (over shard_map's axes too)
    if rolled:

        def body(i, j):
            return _step(padded, x, j, jnp.right_shift(size >> 1, i), right_closed)

        j = lax.fori_loop(0, steps(breaks.shape[-1]), body, j)
    else:
        step = size >> 1
        while step:  # static
            j = _step(padded, x, j, step, right_closed)
            step >>= 1
    return jnp.minimum(j, max(last, 0))


def _even(x, breaks, right_closed: bool, rolled: bool):
    """The even locate on rows: ``breaks`` (*batch, n), ``x`` (*batch, m) → j (*batch, m)."""
    last = breaks.shape[-1] - 2
    first = breaks[..., :1]
    scale = (last + 1) / (breaks[..., -1:] - first)
    guess = jnp.clip(jnp.floor((x - first) * scale), 0, last)
    j = jnp.where(jnp.isnan(guess), 0, guess).astype(jnp.int32)

    def correct(j):
        lo = jnp.take_along_axis(breaks, j, axis=-1, mode="promise_in_bounds")
        hi = jnp.take_along_axis(breaks, j + 1, axis=-1, mode="promise_in_bounds")
        left = (x <= lo if right_closed else x < lo) & (j > 0)
        right = (x > hi if right_closed else x >= hi) & (j < last)
        return j - left.astype(jnp.int32) + right.astype(jnp.int32)

    # Two steps in a loop (a loop of one XLA removes): the second corrects nothing more.
    return lax.fori_loop(0, 2, lambda _, j: correct(j), j) if rolled else correct(j)


def _rows(search):
    """``search`` on x of any shape whose leading dims are those of ``breaks[..., 0]``."""

    def kernel(x, breaks, *, right_closed: bool):
        batch = breaks.shape[:-1]
        rows = jnp.reshape(x, (*batch, math.prod(jnp.shape(x)[len(batch) :])))  # 0-size batch too
        return jnp.reshape(search(rows, breaks, right_closed), jnp.shape(x))

    return kernel


@partial(jax.jit, static_argnames="right_closed")
def splines_locate_unrolled(rows, breaks, right_closed: bool):
    return _search(rows, breaks, right_closed, rolled=False)


@partial(jax.jit, static_argnames="right_closed")
def splines_locate_rolled(rows, breaks, right_closed: bool):
    return _search(rows, breaks, right_closed, rolled=True)


@partial(jax.jit, static_argnames="right_closed")
def splines_locate_counted(rows, breaks, right_closed: bool):
    inner = breaks[..., None, 1:-1]  # (*batch, 1, n − 2) against rows (*batch, m, 1)
    below = inner < rows[..., None] if right_closed else inner <= rows[..., None]
    return jnp.sum(below, axis=-1, dtype=jnp.int32)


@partial(jax.jit, static_argnames="right_closed")
def splines_locate_even(rows, breaks, right_closed: bool):
    return _even(rows, breaks, right_closed, rolled=False)


@partial(jax.jit, static_argnames="right_closed")
def splines_locate_even_rolled(rows, breaks, right_closed: bool):
    return _even(rows, breaks, right_closed, rolled=True)


unrolled = _rows(splines_locate_unrolled)
rolled = _rows(splines_locate_rolled)
counted = _rows(splines_locate_counted)
even_inline = _rows(splines_locate_even)
even_rolled = _rows(splines_locate_even_rolled)


def kernel_for(cpu: bool, queries: int, n: int, is_even: bool = False):
    """The kernel for this many queries (all rows) and breaks: in line off the CPU,
    `cpu_kernel` on it."""
    if cpu:
        return cpu_kernel(queries, n, is_even)
    return even_inline if is_even else unrolled


def cpu_kernel(queries: int, n: int, is_even: bool = False):
    """The kernel XLA:CPU runs for this many queries (all rows) and breaks.

    A symbolic number of queries (`jax.export`) counts as many.
    """
    many = not isinstance(queries, int) or queries >= _ROLLED_MIN_QUERIES  # int: not symbolic
    if is_even:
        return even_rolled if many else even_inline
    if steps(n) <= _COUNTED_MAX_STEPS:
        return counted
    long = steps(n) >= _ROLLED_MIN_STEPS and many
    return rolled if long else unrolled


def _abstract_eval(x, breaks, *, right_closed, even):
    if breaks.ndim < 1 or x.shape[: breaks.ndim - 1] != breaks.shape[:-1]:
        batch = breaks.shape[:-1]
        raise ValueError(f"locate: x {x.shape} does not lead with breaks' batch {batch}")
    return x.update(dtype=jnp.dtype(jnp.int32), weak_type=False)  # x's shape and variance


def _jvp(primals, tangents, **params):
    """An index is piecewise constant: a zero (float0) tangent."""
    j = locate_p.bind(*primals, **params)
    return j, ad.Zero(jax.typeof(j).to_tangent_aval())


def _batch(args, dims, **params):
    x, breaks = args
    dx, db = dims
    if db is None and breaks.ndim == 1:  # elementwise in x
        return locate_p.bind(x, breaks, **params), dx
    size = x.shape[dx] if dx is not None else breaks.shape[db]
    x, breaks = (batching.bdim_at_front(a, d, size) for a, d in zip(args, dims))
    return locate_p.bind(x, breaks, **params), 0


def _lowering(cpu: bool):
    def rule(ctx, x, breaks, *, right_closed, even):
        x_aval, breaks_aval = ctx.avals_in
        kernel = kernel_for(cpu, x_aval.size, breaks_aval.shape[-1], even)
        lowered = mlir.lower_fun(partial(kernel, right_closed=right_closed), multiple_results=False)
        return lowered(ctx, x, breaks)

    return rule


def _impl(x, breaks, *, right_closed, even):
    """Eager evaluation (also under `jax.disable_jit`): the default backend's kernel."""
    cpu = jax.default_backend() == "cpu"
    kernel = kernel_for(cpu, jnp.size(x), jnp.shape(breaks)[-1], even)
    return kernel(x, breaks, right_closed=right_closed)


# Registration, in one place.
locate_p.def_impl(_impl)
locate_p.def_abstract_eval(_abstract_eval)
ad.primitive_jvps[locate_p] = _jvp
batching.primitive_batchers[locate_p] = _batch
mlir.register_lowering(locate_p, _lowering(cpu=False))
mlir.register_lowering(locate_p, _lowering(cpu=True), platform="cpu")


class Cell(NamedTuple):
    """Where flat queries fall along one axis."""

    index: Any  # j: the piece [breaks[j], breaks[j+1]]
    x: Any  # the queries, wrapped into the period when periodic
    start: Any  # breaks[j]
    width: Any  # breaks[j+1] − breaks[j]


def find_cells(x, breaks, periodic: bool, right_closed: bool, even: bool = False) -> Cell:
    """`locate` flat queries (after `wrap` when ``periodic``); their pieces' start and width.

    ``even``: the breaks are about evenly spaced (`locate`'s arithmetic, no search); a
    query whose piece that misses is NaN, and so are its gradients.
    """
    if periodic:
        x = wrap(x, breaks[0], breaks[-1] - breaks[0])
    j = locate(x, breaks, right_closed, even)
    start, end = take_pieces(breaks, j), take_pieces(breaks, j + 1)
    if even:
        last = breaks.shape[-1] - 2
        after_start = (x > start if right_closed else x >= start) | (j == 0)
        before_end = (x <= end if right_closed else x < end) | (j == last)
        x = x * poison(after_start & before_end)  # NaN, and NaN gradients (not a zero one)
    return Cell(j, x, start, end - start)


def take_pieces(table, index):
    """``table[index]``: the rows ``index`` (an int array of any shape) of ``table``.

    In bounds by construction, so one `lax.gather` without jnp's bounds handling
    and with the index in its own layout: jnp's indexing adds a negative-index
    select and, for a 2-D index, a transposing copy that XLA:CPU fuses into the
    gather as per-element index arithmetic (a grid's corner gather).  Fewer ops also matter
    for tiny calls: XLA:CPU runs a program of < 1000 flops inline on the
    calling thread and any other on a worker (a thread hand-off per call).
    """
    rank = jnp.ndim(index)
    numbers = lax.GatherDimensionNumbers(
        offset_dims=tuple(range(rank, rank + table.ndim - 1)),
        collapsed_slice_dims=(0,),
        start_index_map=(0,),
    )
    return lax.gather(
        table,
        jnp.expand_dims(index, -1),
        numbers,
        (1, *table.shape[1:]),
        mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS,
    )


def wrap(x, start, period):
    """Map x into ``[start, start + period)`` (as `numpy.interp`'s ``period``).

    Points already there stay as they are: ``start + (x − start)`` rounds, and
    would move a query on a knot off it (into the cell before, in float32).
    """
    inside = (x >= start) & (x - start < period)
    return jnp.where(inside, x, start + jnp.mod(x - start, period))
