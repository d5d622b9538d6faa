"""A B-spline ``(t, c, k)`` as our piecewise polynomial (breaks + local coefficients).

A spline of degree k on the knots ``t_0 ≤ … ≤ t_{n+k}`` is

    s(x) = Σ_{i<n} c_i B_{i,k}(x),      base interval [t_k, t_n],

and on each non-empty base interval ``[t_l, t_{l+1})``, k ≤ l < n, it is a
polynomial of degree k in the coefficients ``c_{l-k..l}``.  Its derivatives
are splines of lower degree (de Boor, *A Practical Guide to Splines*, 1978,
ch. X):

    s^{(r)} = Σ_i c_i^{(r)} B_{i,k-r},
    c_i^{(r)} = (k-r+1) (c_i^{(r-1)} - c_{i-1}^{(r-1)}) / (t_{i+k-r+1} - t_i),

and the B-splines of degree q that are non-zero on ``[t_l, t_{l+1})``,
``i = l-q..l``, follow from ``B_{l,0} = 1`` by the Cox–de Boor recursion
(de Boor's BSPLVB):

    B_{i,q}(x) = (x - t_i) / (t_{i+q} - t_i) · B_{i,q-1}(x)
               + (t_{i+q+1} - x) / (t_{i+q+1} - t_{i+1}) · B_{i+1,q-1}(x).

Inside the interval they are ≥ 0 and sum to 1, so ``s^{(r)}(x)`` is a convex
combination of the ``c^{(r)}_i`` there; outside it the same formulas extend
the interval's polynomial.  The knots are concrete, so every ratio of knots
(and every ``B_{i,q}(b_j)``) is a numpy constant made at trace time; only the
differences of c and the weighted sums are jnp.

Our pieces (`_pieces.polynomials`) hold ``coefficients[j, :, r] = s^{(r)}(b_j+) h_j^r / r!``
on ``[b_j, b_j + h_j]``.  To keep every intermediate value-sized (knot spans
of 1e-200 or 1e200 in f64) we carry ``a^{(r)} = c^{(r)} h_j^r / r!``,

    a_i^{(r)} = (k-r+1)/r · (a_i^{(r-1)} - a_{i-1}^{(r-1)}) · [h_j / (t_{i+k-r+1} - t_i)],

where the bracket, a ratio of knot spacings (≤ 1 inside the base interval),
is formed before it meets the coefficients, so no power of h is ever formed;
then ``coefficients[j, :, r] = Σ_i a_i^{(r)} B_{i,k-r}(b_j)``.

Breaks are the distinct values of the whole knot vector, as scipy's
``PPoly.from_spline`` (minus its zero-width pieces).  Pieces left of ``t_k``
and right of ``t_n`` extend the end base polynomials, as ``splev`` does:
it uses interval l = k below and l = n-1 above *even when that interval is
empty*, and on an empty interval the B-spline basis vanishes, so scipy's
spline is 0 there; we reproduce that.  (Where such an interval sits at
``t_0`` or ``t_{-1}`` itself — an end knot repeated more than k+1 times —
there is no piece to hold that 0: beyond the breaks we extend the nearest
piece, where ``BSpline`` gives 0, or c_0 for k = 0.)  The knots are concrete
(numpy at trace time: they set the shapes); the coefficients ``c`` may be
traced.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np

from .._utils.dtypes import check_real, result_type
from .._utils.validate import static_int


def bspline_pieces(t, c, k):
    """Breaks, coefficients and column shape of the spline ``(t, c, k)``.

    ``t``: concrete knots (1-D, non-decreasing, finite); ``c``: B-spline
    coefficients of shape ``(≥ n,) + column_shape`` with ``n = len(t) - k - 1``
    (only the first n are used, as scipy's ``splrep`` pads c with k+1 zeros);
    may be traced.  The knots are first rounded to the real dtype of the
    result (f32 for f32 c).  Returns ``breaks`` (m+1,) strictly increasing in the real
    dtype, ``coefficients`` (m, ncols, k+1) in ascending powers of the local
    coordinate, in ``result_type(float, c)`` (complex for complex c), and
    ``column_shape`` (c's trailing shape).
    """
    k = _check_degree(k)
    c = np.asarray(c) if isinstance(c, (list, tuple)) else c
    dtype = result_type(c)
    real = jnp.finfo(dtype).dtype
    t = _check_knots(t, k, real)
    n = len(t) - k - 1
    column_shape = _check_coefficients(c, n)
    columns = jnp.reshape(jnp.asarray(c, dtype)[:n], (n, math.prod(column_shape)))
    breaks = np.unique(t)  # float64 (or wider): the weights are formed there
    left, width = breaks[:-1], np.diff(breaks)
    l, empty = _source_intervals(t, k, n, left)
    window = columns[l[:, None] - k + np.arange(k + 1)]  # c_{l-k..l}: (m, k+1, ncols)
    if empty.any():  # scipy's basis is 0 on an empty end interval
        window = window * np.where(empty, 0, 1).astype(real)[:, None, None]
    scaled = _scaled_derivative_coefficients(window, t, l, width, k, real)
    basis = _basis_values(t, l, left, k)
    # coefficients[j, :, r] = Σ_i a_i^{(r)} B_{i,k-r}(b_j): a sum of products, not a matmul
    pieces = [
        jnp.sum(a * basis[k - r].astype(real)[..., None], axis=1) for r, a in enumerate(scaled)
    ]
    return jnp.asarray(breaks, real), jnp.stack(pieces, axis=-1), column_shape


def _source_intervals(t, k, n, left):
    """The base interval l whose polynomial each piece is, as ``splev`` picks it.

    ``t_l ≤ b_j < t_{l+1}`` inside the base interval; l = k left of it and
    l = n-1 right of it.  Also whether that interval is empty (only possible
    at the ends).
    """
    l = np.clip(np.searchsorted(t, left, side="right") - 1, k, n - 1)
    return l, t[l] == t[l + 1]


def _scaled_derivative_coefficients(window, t, l, width, k, real):
    """``a^{(r)} = c^{(r)} h^r / r!`` for r = 0..k; a^{(r)}: (m, k+1-r, ncols), i = l-k+r..l."""
    scaled = [window]
    for r in range(1, k + 1):
        i = l[:, None] - k + r + np.arange(k + 1 - r)
        # (k-r+1)/r · h / (t_{i+k-r+1} - t_i): a ratio of spacings, value-sized
        ratio = (k - r + 1) / r * (width[:, None] / _spacing(t, i, k - r + 1))
        a = scaled[-1]
        scaled.append((a[:, 1:] - a[:, :-1]) * ratio.astype(real)[..., None])
    return scaled


def _basis_values(t, l, x, k):
    """``B_{i,q}(x_j)``, i = l_j-q..l_j, as (m, q+1) numpy arrays for q = 0..k (BSPLVB)."""
    values = [np.ones((len(l), 1))]  # B_{l,0} = 1
    for q in range(1, k + 1):
        i = l[:, None] - q + np.arange(q + 1)
        # B_{i,q-1} for i = l-q..l+1, zero outside l-q+1..l
        lower = np.pad(values[-1], ((0, 0), (1, 1)))
        # (x - t_i)/(t_{i+q} - t_i) B_{i,q-1} + (t_{i+q+1} - x)/(t_{i+q+1} - t_{i+1}) B_{i+1,q-1}
        rising = (x[:, None] - t[i]) / _spacing(t, i, q) * lower[:, :-1]
        falling = (t[i + q + 1] - x[:, None]) / _spacing(t, i + 1, q) * lower[:, 1:]
        values.append(rising + falling)
    return values


def _spacing(t, i, steps):
    """``t_{i+steps} - t_i``; 1 where it is 0: there the other factor is 0 (a B-spline
    outside the interval, or a coefficient on an empty end interval)."""
    span = t[i + steps] - t[i]
    return np.where(span > 0, span, 1)


# ------------------------------------------------------------------ checks --


def _check_degree(k) -> int:
    return static_int(k, "k", 0, "a Python or numpy int (the degree)")


def _check_knots(t, k, real):
    """The knots rounded to ``real``, as float64 (or wider) numpy for the weights."""
    if isinstance(t, jax.core.Tracer):
        raise TypeError(
            "`t` (the knots) must be concrete (a numpy array or a jax array outside "
            "any trace): the number of distinct knots sets the shapes of the pieces; "
            f"got the traced {t!r}. Close over the knots instead of passing them to "
            "`jit`/`vmap`; the coefficients `c` may be traced."
        )
    t = np.asarray(t)
    check_real(t, "t")
    if t.ndim != 1:
        raise ValueError(f"`t` (the knots) must be 1-D; got shape {t.shape}.")
    t = t.astype(real).astype(np.promote_types(real, np.float64))
    bad = np.flatnonzero(~np.isfinite(t))
    if bad.size:
        raise ValueError(f"`t` must be finite; t[{bad[0]}] = {float(t[bad[0]])!r}.")
    down = np.flatnonzero(np.diff(t) < 0)
    if down.size:
        i = down[0]
        raise ValueError(
            f"`t` must be non-decreasing; t[{i + 1}] = {float(t[i + 1])!r} < "
            f"t[{i}] = {float(t[i])!r}."
        )
    n = len(t) - k - 1
    if n < k + 1:
        raise ValueError(
            f"`t` needs at least 2k+2 = {2 * k + 2} knots for degree `k`={k}; got {len(t)}."
        )
    if t[k] == t[n]:
        raise ValueError(
            f"The base interval [t[k], t[n]] = [t[{k}], t[{n}]] of `t` is empty "
            f"(both {float(t[k])!r}); it needs two distinct knots."
        )
    return t


def _check_coefficients(c, n) -> tuple:
    """c's trailing (column) shape, once its length fits the knots."""
    shape = np.shape(c)
    if len(shape) < 1:
        raise ValueError(f"`c` must be at least 1-D; got shape {shape}.")
    if shape[0] < n:
        raise ValueError(
            f"`c` needs at least n = len(t) - k - 1 = {n} coefficients; got len(c) = {shape[0]}."
        )
    return tuple(shape[1:])
