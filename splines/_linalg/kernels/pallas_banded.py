"""Banded solves as one Pallas kernel: one system per GPU thread, the loops over n inside.

The three eliminations of `banded_scan`, each thread on its own system, its
window of rows held in registers (Python lists of lane vectors: Triton
tensors need power-of-two shapes, a window of l+1 rows has none):

- ``pivoting=True`` (`_lu`): partial pivoting as LAPACK ``gbsv``, with
  `banded_scan`'s l leading identity rows, so that each of the n+l steps
  picks the first largest |W[r, 0]| of its l+1 window rows, stores it as U's
  row (and its right-hand side, which rides in the window as one more column),
  and reduces and shifts the others; then ``x_j = (t_j − Σ_m U[j, j+m]
  x_{j+m}) / U[j, j]`` from the last row up.
- ``pivoting=False`` (`_ldu`): ``A = L D U`` row by row with the right-hand
  side (`banded_scan.eliminate_row`), U's rows in scratch, then the backward
  sweep.
- ``symmetric=True`` (`_ldl`): ``A = L D Lᵀ`` row by row with the forward
  substitution (`banded_scan.ldl_row`); the backward sweep reads only row k of
  L when x_k is known, adding ``L[k, j] x_k`` to the sums of the p rows j
  above it, so no row beyond n is read.

A zero pivot gives inf/NaN, and an LDLᵀ pivot ≤ 0 NaN, as in the scans.  Real
dtypes only (Triton has no complex numbers).  Arithmetic tested on CPU in
interpret mode and its CUDA program by lowering (tests/test_banded.py).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from . import _lanes, _pallas
from .banded_scan import eliminate_row, ldl_row


def _plain_division(pivot):
    return lambda x: x / pivot


def _ldu(lower, upper):
    def body(rows, d, x, u_rows):
        n, width = x.shape
        zero = jnp.zeros((width,), x.dtype)

        def forward(i, window):  # window[r]: U[j, j+1 … j+u] and z_j of the previous l rows
            a = eliminate_row(
                [rows[i, m, :] for m in range(lower + upper + 1)], window, lower, upper
            )
            b = d[i, :]
            for r in range(lower):
                b = b - a[r] * window[r][upper]
            new = tuple(v / a[lower] for v in a[lower + 1 :]) + (b / a[lower],)
            for m in range(upper):
                u_rows[i, m, :] = new[m]
            x[i, :] = new[upper]
            return window[1:] + (new,) if lower else window

        def backward(k, later):  # x_{i+1} … x_{i+u}
            i = n - 1 - k
            x_i = x[i, :]
            for m in range(upper):
                x_i = x_i - u_rows[i, m, :] * later[m]
            x[i, :] = x_i
            return (x_i,) + later[:-1] if upper else later

        lax.fori_loop(0, n, forward, ((zero,) * (upper + 1),) * lower)
        lax.fori_loop(0, n, backward, (zero,) * upper)

    return body


def _ldl(p):
    def body(rows, d, x, l_rows, pivots):
        n, width = x.shape
        zero = jnp.zeros((width,), x.dtype)

        def forward(i, carry):  # L's rows, pivots and z of rows i-p … i-1
            previous, pivots_before, z_before = carry
            entries, pivot = ldl_row(
                [rows[i, m, :] for m in range(p + 1)], previous, pivots_before, p, _plain_division
            )
            z = d[i, :]
            for m in range(p):
                z = z - entries[m] * z_before[m]
                l_rows[i, m, :] = entries[m]
            pivots[i, :] = pivot
            x[i, :] = z
            if not p:
                return carry
            return (
                previous[1:] + (tuple(entries),),
                pivots_before[1:] + (pivot,),
                z_before[1:] + (z,),
            )

        def backward(t, sums):  # Σ_{k>j} L[k, j] x_k so far, for rows j = k, k-1, … k-p+1
            k = n - 1 - t
            x_k = x[k, :] / pivots[k, :] - sums[0] if p else x[k, :] / pivots[k, :]
            x[k, :] = x_k
            above = sums[1:] + (zero,)  # rows k-1 … k-p; row k-1-j gains L[k, k-1-j] x_k
            return tuple(above[j] + l_rows[k, p - 1 - j, :] * x_k for j in range(p))

        start = (((zero,) * p,) * p, (zero + 1,) * p, (zero,) * p)  # L = 0, d = 1 before row 0
        lax.fori_loop(0, n, forward, start)
        lax.fori_loop(0, n, backward, (zero,) * p)

    return body


def _lu(lower, upper):
    width_u = lower + upper + 1  # U's rows: the pivot row's entries in columns j … j+l+u

    def body(rows, d, x, u_rows):
        steps, lanes = x.shape  # n + l
        n = steps - lower
        zero = jnp.zeros((lanes,), x.dtype)
        # A window row: its entries in columns j … j+l+u, then its right-hand side.
        identity = [
            tuple(zero + (c == r) for c in range(width_u)) + (zero,) for r in range(width_u)
        ]

        def original(i):
            """Original row i (identity rows, 1 in column l, past the last)."""
            inside = i < n
            at = jnp.minimum(i, n - 1)
            entries = [
                jnp.where(inside, rows[at, c, :], identity[lower][c]) for c in range(width_u)
            ]
            return tuple(entries) + (jnp.where(inside, d[at, :], zero),)

        def forward(j, window):
            best, index = jnp.abs(window[0][0]), jnp.zeros((lanes,), jnp.int32)
            for r in range(1, lower + 1):  # the first largest |W[r, 0]| (LAPACK's idamax)
                larger = jnp.abs(window[r][0]) > best
                best = jnp.where(larger, jnp.abs(window[r][0]), best)
                index = jnp.where(larger, r, index)
            pivot = window[0]
            for r in range(1, lower + 1):
                pivot = tuple(jnp.where(index == r, v, p) for v, p in zip(window[r], pivot))
            reduced = []
            for r in range(1, lower + 1):  # row 0 takes the pivot's place
                other = tuple(jnp.where(index == r, v0, v) for v0, v in zip(window[0], window[r]))
                m = other[0] / pivot[0]
                entries = [other[c] - m * pivot[c] for c in range(1, width_u)]
                reduced.append(tuple(entries) + (zero, other[-1] - m * pivot[-1]))
            for c in range(width_u):
                u_rows[j, c, :] = pivot[c]
            x[j, :] = pivot[-1]
            return tuple(reduced) + (original(j + 1),)

        def backward(k, later):  # x_{j+1} … x_{j+l+u}
            j = steps - 1 - k
            rest = x[j, :]
            for m in range(width_u - 1):
                rest = rest - u_rows[j, m + 1, :] * later[m]
            x_j = rest / u_rows[j, 0, :]
            x[j, :] = x_j
            return (x_j,) + later[:-1] if width_u > 1 else later

        lax.fori_loop(0, steps, forward, tuple(identity[:lower]) + (original(0),))
        lax.fori_loop(0, steps, backward, (zero,) * (width_u - 1))

    return body


@partial(jax.jit, static_argnames=("lower", "upper", "symmetric", "pivoting", "interpret"))
def splines_pallas_banded(
    rows, rhs, *, lower: int, upper: int, symmetric: bool, pivoting: bool, interpret: bool = False
):
    """Solve real banded systems, ``rows`` ``(*bands, n, l+u+1)`` (`banded`'s layout; a
    symmetric one's lower band, l = p, u = 0) and ``rhs`` ``(*batch, n)``, the bands'
    leading shape broadcasting to rhs's."""
    batch, n, diagonals = rhs.shape[:-1], rhs.shape[-1], rows.shape[-1]
    systems = _lanes.lanes(batch)
    rows = jnp.broadcast_to(rows, batch + (n, diagonals))
    band_rows = jnp.reshape(jnp.moveaxis(rows, (-2, -1), (0, 1)), (n, diagonals, systems))
    d = jnp.reshape(jnp.moveaxis(rhs, -1, 0), (n, systems))
    identity = (jnp.arange(diagonals) == lower)[None, :, None]  # 1 on the diagonal
    if symmetric:  # x (z, then x), L's rows, the pivots
        body, outputs = _ldl(lower), [(n,), (n, max(lower, 1)), (n,)]
    elif pivoting:  # x (t, then x) and U's rows, with the l leading identity rows
        body, outputs = _lu(lower, upper), [(n + lower,), (n + lower, diagonals)]
    else:  # x (z, then x) and U's rows
        body, outputs = _ldu(lower, upper), [(n,), (n, max(upper, 1))]
    x, *_ = _pallas.call_in_lanes(
        body,
        (band_rows, d),
        fills=(identity, 0),
        outputs=outputs,
        dtype=rhs.dtype,
        interpret=interpret,
        name="splines_pallas_banded",
    )
    return jnp.moveaxis(jnp.reshape(x[x.shape[0] - n :], (n,) + batch), 0, -1)
