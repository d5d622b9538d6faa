"""Real roots of piecewise polynomials: scipy's ``PPoly.solve``, branch-free.

Semantics (scipy 1.17 ``_ppoly.real_roots``), per column, intervals in scipy's
order (the order of its breakpoints; descending ones are held as the ascending
z = −x, as `AbstractPPoly` holds them, so the order is always ascending):

1. with ``discontinuity``, a break where the value jumps across y with a
   strict sign change (``va < 0 < vb`` or ``va > 0 > vb``) is a root;
2. a piece whose polynomial minus y is identically zero gives its start
   (scipy's ``x[i]``: the lower end ascending, the upper end descending) and
   a NaN marker, and nothing else;
3. otherwise the real roots of the piece's polynomial in its closed interval,
   ascending in x — except a true quadratic with a negative leading
   coefficient, whose two roots scipy lists descending (closed form, unsorted).
   With ``extrapolate`` the first piece extends past the first breakpoint and
   the last past the last, a single piece both ways (scipy 1.17 skips the
   bound when ``m = 1``).

An entry equal to the previous one is dropped (a root on a shared break is
reported once); the x of a zero piece is never dropped, and its NaN marker
resets the comparison.  scipy does not reset it between columns, so a column
loses a first root equal to the last entry of the columns before it (a
bug: each column is its own polynomial); ``independent_columns=False``
reproduces that, for the tests.

Algorithm.  Each piece's ``q(t) = Σ_p c_p tᵖ − y`` is solved on [0, 1];
an extended end adds problems on [0, 1] in v: t = −v and t = −1/v below,
t = 1/v above (the reciprocal ones on ``vᵉ q(1/v)``, e the true degree: far
roots keep their relative accuracy while q's values near them stay normal
floats, |t| ≲ 1e290 in f64 for O(1) values); where two problems share a
point (t = 1 of the last piece, t = −1 of the near one) both use one value
of q there, or a root within rounding of it falls between them.  On [0, 1],
recursion on the derivative order: the roots of p⁽ˡ⁺¹⁾ split the range into
segments where p⁽ˡ⁾ is monotone; a segment whose ends have strictly opposite
signs holds one root, found by bisection; an end where p⁽ˡ⁾ is exactly 0 is a
root, once.
Critical points of degree ≤ 2 come in closed form (they only split ranges);
the roots themselves always come from signs, so zeros at breaks are exact.
Non-negative floats are ordered as their bit patterns: bisecting the integers
62 (f64) / 30 (f32) times reaches adjacent floats.  Leading zero coefficients
only lower the count.  The entries are then put in scipy's order and packed
into ``size`` slots by two sorts.  The flags are data, chosen with `where`
(the end problems are always solved): one program per shape and ``size``.
No ``while``, no conditional, no eigenvalues (unsupported on GPUs), no
callback.

Roots are differentiable by the implicit function theorem: with t* from the
bisection (no derivative), dt = −(Σ dc_p t*ᵖ − dy) / q'(t*), a custom JVP so
that every order is right; x = b_j + t h_j.  A multiple root has an infinite
derivative; where q'(t*) is exactly 0 we give 0.  Where q'(t*) overflows (a
far root, |t|ᵈ past the float range) the derivative is NaN.

Where we differ from scipy, scipy is the inexact one: its companion-matrix
eigenvalues put a root exactly on the far end of an interval (s = ±h from
its x[i]) a few ulps to either side, so it may drop it or report it twice,
and a tangency (double root) comes out twice, once, or not at all; we find
roots on breaks exactly (then apply scipy's rules), and a tangency when q is
exactly 0 at the computed critical point.  Roots closer together than the
rounding of q may be missed by both.  Non-finite coefficients, breaks or y
give a column of NaN with count ``size`` (scipy silently skips such pieces);
see docs/architecture.md §5.
"""

import operator
from functools import partial
from math import comb

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .._utils.dtypes import compute_dtype, result_type
from .polynomials import horner


def max_roots(m: int, degree: int) -> int:
    """The most entries scipy emits per column for m pieces of a given degree.

    Each piece gives at most ``degree`` roots and each interior break one
    jump: ``(degree + 1) m − 1``.  A zero piece gives two entries but rules out
    the jumps at both its ends (no strict sign change against 0): ``2 m``.
    """
    return max((degree + 1) * m - 1, 2 * m)


def real_roots(
    breaks,
    coefficients,
    y,
    *,
    discontinuity: bool,
    extrapolate: bool,
    descending: bool,
    size: int,
    independent_columns: bool = True,
    end=None,
):
    """Roots of ``p(x) = y`` for each column: ``(roots (k, size), counts (k,))``.

    ``breaks`` (m+1,) ascending; ``coefficients`` (m, k, d+1), ascending
    powers of t = (x − b_j)/h_j; ``end`` (k,): the values at the last break
    (a fit's data there, `_interpolate.evaluate.at_last_break`), by default the last
    piece's coefficient sum.  With ``descending``, both are in z = −x
    (scipy's descending breakpoints, as `AbstractPPoly` holds them: each
    piece's expansion point x[i] stays its start, and nothing is re-expanded)
    and the roots come back in x, in scipy's order.  Roots are NaN-padded to the
    static ``size``; ``counts`` is scipy's number of entries (NaN markers
    included), not clipped to ``size`` (entries past ``size`` are dropped).

    Computes in ``result_type(float, breaks, coefficients)`` (f16 and bf16 in
    f32); y is cast to it.  Jitted, with only ``size`` static: the flags are
    selected with `where`, so one program per shape serves them all (and an
    eager call does not dispatch the unrolled bisection op by op, which would
    compile for many seconds).
    """
    shape = np.shape(coefficients)
    if len(shape) != 3 or shape[0] < 1 or np.shape(breaks) != (shape[0] + 1,):
        raise ValueError(
            "`breaks` of shape (m+1,) and `coefficients` of shape (m, k, d+1), m ≥ 1, "
            f"expected; got {np.shape(breaks)} and {shape}"
        )
    if operator.index(size) < 0:
        raise ValueError(f"`size` must be ≥ 0, got {size}")
    dtype = result_type(breaks, coefficients)
    if jnp.issubdtype(dtype, jnp.complexfloating):
        raise ValueError(f"`coefficients` must be real to find roots, got dtype {dtype}")
    dtype = compute_dtype(dtype)
    if shape[1] == 0:  # no polynomials (values with a zero-length axis)
        return jnp.full((0, size), jnp.nan, dtype), jnp.zeros(0, jnp.int32)
    end = horner(coefficients[-1], 1.0, 0) if end is None else end
    breaks, coefficients, end, y = (jnp.asarray(a, dtype) for a in (breaks, coefficients, end, y))
    flags = (discontinuity, extrapolate, descending, independent_columns)
    return _real_roots(breaks, coefficients, end, y, *flags, size)


@partial(jax.jit, static_argnums=(8,))
def _real_roots(
    breaks, coefficients, end, y, discontinuity, extrapolate, descending, independent, size
):
    q = coefficients.at[..., 0].add(-y)
    # c_0 == y rather than q_0 == 0: a difference of two subnormals may flush to 0
    zero = jnp.all(coefficients[..., 1:] == 0, axis=-1) & (coefficients[..., 0] == y)
    x, found = _roots_in_x(breaks, q, end - y, zero, extrapolate, descending)
    values, valid, always = _entries(breaks, q, x, found, zero, discontinuity)
    roots, counts = _compact(values, valid, always, size, independent)
    roots = jnp.where(descending, 0 - roots, roots)  # x = −z (0 − z: no −0.0)
    bad = ~jnp.all(jnp.isfinite(coefficients), axis=(0, 2))
    bad = bad | ~jnp.isfinite(y) | ~jnp.all(jnp.isfinite(breaks))
    return jnp.where(bad[:, None], jnp.nan, roots), jnp.where(bad, size, counts)


def _roots_in_x(breaks, q, q_end, zero, extrapolate, descending):
    """Each piece's roots in x (z when ``descending``), in scipy's order, (m, k, d),
    and which are real; ``q_end`` is q at the last break."""
    scaled, exponent = _unit_scale(lax.stop_gradient(q))
    scaled_end = jnp.ldexp(lax.stop_gradient(q_end), -exponent[-1, :, 0])  # the last piece's scale
    t = _piece_roots(scaled, scaled_end, extrapolate)
    t = _scipy_order(q, t, descending)
    found = ~jnp.isnan(t) & ~zero[..., None]
    t = _polish(q, jnp.where(found, t, 0))  # 0: no NaN in the unused derivatives
    lo, hi = breaks[:-1, None, None], breaks[1:, None, None]
    width = hi - lo
    x = jnp.where(t <= 0.5, lo + t * width, hi - (1 - t) * width)  # exact at t = 0 and 1
    return x, found


def _unit_scale(q):
    """Each piece's q times a power of two (exact) so its largest coefficient is in
    [0.5, 1): the same roots, and no sign test sees a value flushed as subnormal.
    Returns the scaled q and the exponents."""
    _, exponent = jnp.frexp(jnp.max(jnp.abs(q), axis=-1, keepdims=True))
    return jnp.ldexp(q, -exponent), exponent


def _entries(breaks, q, x, found, zero, discontinuity):
    """scipy's candidate entries per column, in its order: for each interval, the
    jump at its start, the zero piece's (x, NaN), its roots; and which are valid.
    Pieces and breaks are in scipy's order (ascending x, or ascending z = −x)."""
    m, k, _ = q.shape
    ends = horner(q[:-1], 1.0, 0)  # value of piece j-1 at its end, j = 1..m-1
    jump = ((ends < 0) & (q[1:, :, 0] > 0)) | ((ends > 0) & (q[1:, :, 0] < 0))
    jump = jump & discontinuity
    start = jnp.broadcast_to(breaks[:-1, None], (m, k))  # scipy's x[i]
    disc = jnp.concatenate([jnp.zeros((1, k), bool), jump])
    nan = jnp.full((m, k), jnp.nan, x.dtype)
    values = jnp.concatenate([jnp.stack([start, start, nan], -1), x], -1)
    valid = jnp.concatenate([jnp.stack([disc, zero, zero], -1), found], -1)
    always = np.zeros(values.shape[-1], bool)
    always[1:3] = True  # the zero piece's x and NaN are never deduplicated
    # (k, m·(d+3)), row by row in scipy's order
    flat = [jnp.swapaxes(a, 0, 1).reshape(k, m * a.shape[-1]) for a in (values, valid)]
    return flat[0], flat[1], np.tile(always, m)


def _scipy_order(q, t, descending):
    """A piece's sorted roots t in scipy's order: ascending in s = x − x_i, which
    is ascending t, or descending t for pieces in z (s = −h t) — except the two
    roots of a true quadratic, (−b ∓ √D)/(2a), so descending in s when a < 0
    (scipy sorts the eigenvalues of degree ≥ 3 only).  a has the sign of q_2."""
    flip = descending
    if q.shape[-1] >= 3:
        quadratic = jnp.all(q[..., 3:] == 0, axis=-1) & (q[..., 2] < 0) & ~jnp.isnan(t[..., 1])
        flip = flip ^ quadratic[..., None]
    return jnp.where(flip, t[..., ::-1], t)  # NaN padding may lead: `found` masks it


def _compact(values, valid, always, size: int, independent):
    """scipy's list per row: drop a valid entry equal to the previous valid one
    (unless ``always``), then pack the emitted ones into ``size`` slots.

    Two sorts on unique keys, not prefix sums (XLA:CPU compiles a sort in
    ~0.02 s, a cumulative sum's `reduce_window` in ~0.3 s): the first packs
    the valid entries of all rows in order, so that each one's predecessor is
    its neighbour (scipy compares across rows too); the second brings each
    row's emitted entries first.
    """
    k, n = values.shape
    pos = jnp.arange(k * n)
    column = jnp.repeat(jnp.arange(k), n)
    flags = jnp.broadcast_to(always, (k, n)).ravel()
    key = jnp.where(valid.ravel(), pos, k * n)
    _, dense, column, flags = lax.sort((key, values.ravel(), column, flags), num_keys=1)
    packed = pos < jnp.sum(valid)
    prev, prev_column = jnp.roll(dense, 1).at[0].set(jnp.nan), jnp.roll(column, 1)
    fresh = (dense != prev) | (independent & (column != prev_column))
    emit = packed & (flags | fresh)
    key = jnp.where(emit, pos, k * n + pos)
    _, _, dense, emit = lax.sort((column, key, dense, emit), num_keys=2)
    counts = jnp.sum(emit.reshape(k, n), axis=1, dtype=jnp.int32)
    dense = dense.reshape(k, n)[:, :size]
    dense = jnp.pad(dense, ((0, 0), (0, size - dense.shape[1])), constant_values=jnp.nan)
    return jnp.where(jnp.arange(size) < counts[:, None], dense, jnp.nan), counts


def _piece_roots(q, q_end, extrapolate):
    """Sorted roots in t of every piece's q on its range: (m, k, d), NaN-padded.

    The extended ends are problems on [0, 1] in v, solved whatever
    ``extrapolate`` (a few more rows; one program for both): t < 0 of piece 0
    is t = −v (v ≤ 1) and t = −1/v (v < 1); t > 1 of piece m−1 is t = 1/v
    (v < 1).  Each end point belongs to one problem only; v = 0 of a far one
    is ±∞.
    """
    m, degree = q.shape[0], q.shape[-1] - 1
    near = q[0] * ((-1.0) ** np.arange(degree + 1)).astype(q.dtype)  # q(−v)
    problems = jnp.concatenate([q, near[None], _reversed(near)[None], _reversed(q[-1])[None]])
    keep_lo = np.array([True] * m + [False] * 3)[:, None, None]
    keep_hi = np.array([True] * m + [True, False, False])[:, None, None]
    # A point shared by two problems gets one value, or a root within rounding of it
    # falls between them (Horner's q(1) < 0 while the reversed one rounds to 0):
    # v = 1 of the far ends is t = −1 (near's v = 1) and t = 1 (the last piece's,
    # ``q_end``: the value at the last break, not a rounded sum of coefficients).
    at_one = _horner(list(jnp.moveaxis(problems, -1, 0)), 1.0)
    at_one = at_one.at[m - 1].set(q_end).at[m + 1].set(at_one[m]).at[m + 2].set(q_end)
    v = _unit_roots(problems, keep_lo, keep_hi, at_one)
    t = v[:m]
    extended = t.at[0].set(_merge(-1 / v[m + 1], -v[m], t[0]))  # both ends when m = 1
    extended = extended.at[m - 1].set(_merge(extended[m - 1], 1 / v[m + 2]))
    return jnp.where(extrapolate, extended, t)


def _merge(*parts):
    """The ascending roots of one piece from its parts (at most d in all)."""
    joined = jnp.concatenate(parts, axis=-1)
    return jnp.sort(joined, axis=-1)[..., : parts[-1].shape[-1]]


def _reversed(q):
    """``vᵉ q(1/v)``, e the true degree: ``r_i = q_{e−i}`` (r_0 ≠ 0 unless q ≡ 0)."""
    index = np.arange(q.shape[-1])
    e = jnp.max(jnp.where(q != 0, index, -1), axis=-1, keepdims=True)
    return jnp.stack([jnp.sum(jnp.where(index == e - i, q, 0), axis=-1) for i in index], -1)


def _unit_roots(p, keep_lo, keep_hi, at_one):
    """Sorted roots on [0, 1] of Σ p_i vⁱ (last axis), NaN-padded; exact zeros at
    v = 0 / v = 1 only where ``keep_lo`` / ``keep_hi``; ``at_one`` is p(1), as
    the problem sharing that point computes it."""
    degree = p.shape[-1] - 1
    roots = jnp.zeros(p.shape[:-1] + (0,), p.dtype)  # p^(d) is constant: none
    for order in range(degree - 1, -1, -1):
        # p^(l) / l!: coefficients C(i + l, l) p_{i+l}; its roots split p^(l-1)'s range
        scale = np.array([comb(i + order, order) for i in range(degree + 1 - order)])
        derivative = p[..., order:] * scale.astype(p.dtype)
        if order > 0 and degree - order <= 2:
            roots = _critical_points(derivative)
        else:
            lo, hi, one = (keep_lo, keep_hi, at_one) if order == 0 else (True, True, None)
            roots = _roots_between(derivative, roots, lo, hi, one)
    return roots


def _critical_points(p):
    """Roots in [0, 1] of a linear or quadratic p, sorted, NaN-padded.

    Closed form; they only split a range into monotone segments, so an error of
    a few ulps moves no root (it could only merge a pair closer than that).
    """
    scale = jnp.max(jnp.abs(p), axis=-1, keepdims=True)
    p = p / jnp.maximum(scale, jnp.finfo(p.dtype).tiny)  # no overflow in p1²
    if p.shape[-1] == 2:
        roots = -p[..., :1] / p[..., 1:]
    else:
        p0, p1, p2 = p[..., 0], p[..., 1], p[..., 2]
        disc = p1 * p1 - 4 * p0 * p2
        w = -(p1 + jnp.where(p1 < 0, -1, 1) * jnp.sqrt(jnp.maximum(disc, 0))) / 2
        quadratic = jnp.stack([w / p2, p0 / w], -1)  # (−p1 ∓ √D)/(2 p2), no cancellation
        quadratic = jnp.where((disc >= 0)[..., None], quadratic, jnp.nan)
        linear = jnp.stack([-p0 / p1, jnp.full_like(p0, jnp.nan)], -1)
        roots = jnp.where((p2 == 0)[..., None], linear, quadratic)
    roots = jnp.where((roots >= 0) & (roots <= 1), roots, jnp.nan)
    return jnp.sort(jnp.where(roots == 0, 0, roots), axis=-1)  # −0.0 → +0.0


def _roots_between(p, critical, keep_lo, keep_hi, at_one=None):
    """Roots of p on [0, 1] given its sorted critical points there (NaN-padded);
    p(1) is ``at_one`` where given."""
    n = critical.shape[-1] + 1  # segments
    shape = critical.shape[:-1] + (1,)
    zero, one = jnp.zeros(shape, p.dtype), jnp.ones(shape, p.dtype)
    ends = jnp.concatenate([zero, jnp.where(jnp.isnan(critical), 1, critical), one], axis=-1)
    cs = [p[..., i, None] for i in range(p.shape[-1])]
    values = _horner(cs, ends)
    if at_one is not None:  # wherever v = 1, a critical point included
        values = jnp.where(ends == 1, at_one[..., None], values)
    va, vb = values[..., :-1], values[..., 1:]
    change = ((va < 0) & (vb > 0)) | ((va > 0) & (vb < 0))
    inside = jnp.where(change, _bisect(cs, ends[..., :-1], ends[..., 1:], va), jnp.nan)
    new = jnp.concatenate([jnp.ones(shape, bool), ends[..., 1:] != ends[..., :-1]], axis=-1)
    keep = jnp.where(ends == 0, keep_lo, jnp.where(ends == 1, keep_hi, True))
    on_end = jnp.where((values == 0) & new & keep, ends, jnp.nan)
    # ascending candidates: end 0, segment 0, end 1, ..., segment n-1, end n
    both = jnp.stack([on_end[..., :-1], inside], axis=-1).reshape(critical.shape[:-1] + (2 * n,))
    roots = jnp.sort(jnp.concatenate([both, on_end[..., -1:]], axis=-1), axis=-1)[..., :n]
    return jnp.where(jnp.all(p == 0, axis=-1, keepdims=True), jnp.nan, roots)


def _horner(cs, t):
    """Σ cs[i] tⁱ for a list of coefficient arrays."""
    result = cs[-1]
    for c in cs[-2::-1]:
        result = result * t + c
    return result


def _bisect(cs, a, b, va):
    """A root of Σ cs[i] tⁱ in [a, b] ⊂ [0, 1] where the ends' signs differ.

    Non-negative floats are ordered as their bit patterns: halving the integer
    bracket a bit-width of times (30 in f32, 62 in f64: the bits of 1.0)
    reaches adjacent floats from any bracket in [0, 1].
    """
    dtype, int_dtype = a.dtype, {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    cs = [jnp.where(va < 0, -c, c) for c in cs]  # positive at a
    low, high = lax.bitcast_convert_type(a, int_dtype), lax.bitcast_convert_type(b, int_dtype)
    for _ in range(int(np.array(1, dtype).view(int_dtype)).bit_length()):
        mid = (low + high) >> 1  # no overflow: both ≤ the bits of 1.0
        up = _horner(cs, lax.bitcast_convert_type(mid, dtype)) > 0  # root above mid
        low, high = lax.select(up, mid, low), lax.select(up, high, mid)
    a, b = lax.bitcast_convert_type(low, dtype), lax.bitcast_convert_type(high, dtype)
    return jnp.where(jnp.abs(_horner(cs, b)) <= jnp.abs(_horner(cs, a)), b, a)


@jax.custom_jvp
def _polish(q, t):
    """t, a root of Σ q_p tᵖ (per trailing slot), differentiable in q."""
    return t


@_polish.defjvp
def _polish_jvp(primals, tangents):
    # implicit function theorem on q(t(c); c) = 0: dt = −(Σ dq_p tᵖ) / q'(t)
    q, t = primals
    dq, _ = tangents
    t = _polish(q, t)  # through the rule again: higher orders stay right
    slope = horner(q[..., None, :], t, 1)
    flat = slope == 0  # multiple root: infinite derivative, given as 0
    dt = -horner(dq[..., None, :], t, 0) / jnp.where(flat, 1, slope)
    return t, jnp.where(flat, 0, dt)
