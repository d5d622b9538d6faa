"""Partial pivoting (as LAPACK ``gtsv``) as one Pallas kernel: one system per GPU thread.

The elimination of `gtsv_scan`, run by each thread on its own system.  Step 0
never swaps (a_0 = 0), so the loop starts from original row 0 as the current
row ``p x_{i-1} + q x_i = r`` and step i (i = 1 … n-1) pivots it against
original row i:

    swap = |p| < |a_i|                          (a tie keeps the current row)
    pivot (P0, P1, P2, PR) = swap ? (a_i, b_i, c_i, d_i) : (p, q, 0, r)
    other (O0, O1, O2, OR) = swap ? (p, q, 0, r)         : (a_i, b_i, c_i, d_i)
    U's row i-1:   s1 = P1 / P0,  s2 = P2 / P0,  t = PR / P0
    next current:  p = O1 − O0 s1,  q = O2 − O0 s2,  r = OR − O0 t

then back-substitutes ``x_{n-1} = r / p``, ``x_i = t_i − s1_i x_{i+1} − s2_i x_{i+2}``.
t lives in the solution (overwritten in place), s1 and s2 in scratch outputs.
A singular matrix (some P0 = 0) gives inf/NaN, as in `gtsv_scan`.

The GPU's kernel for ``pivoting=True`` (`gpu`; the scan is a host-driven loop
there).  Arithmetic tested on CPU in interpret mode (tests/test_kernels.py),
CUDA program in tests/test_lowering.py.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from . import _pallas
from .gtsv_scan import eliminate


def _gtsv(a, b, c, d, x, s1_out, s2_out):
    n, width = x.shape
    zero = jnp.zeros((width,), x.dtype)

    def forward(i, current):
        current, (s1, s2, t) = eliminate(current, (a[i, :], b[i, :], c[i, :], d[i, :]))
        s1_out[i - 1, :], s2_out[i - 1, :], x[i - 1, :] = s1, s2, t
        return current

    p, _, r = lax.fori_loop(1, n, forward, (b[0, :], c[0, :], d[0, :]))
    x_last = r / p
    x[n - 1, :] = x_last

    def backward(k, x_next):
        i = n - 2 - k
        x1, x2 = x_next
        x_i = x[i, :] - s1_out[i, :] * x1 - s2_out[i, :] * x2
        x[i, :] = x_i
        return x_i, x1

    lax.fori_loop(0, n - 1, backward, (x_last, zero))


@partial(jax.jit, static_argnames="interpret")
def splines_pallas_gtsv(lower, diag, upper, rhs, *, interpret=False):
    """Solve ``(..., n)`` real systems with partial pivoting; ``lower``/``upper`` ``(..., n-1)``."""
    return _pallas.solve_in_lanes(
        _gtsv, lower, diag, upper, rhs, scratch=2, interpret=interpret, name="splines_pallas_gtsv"
    )
