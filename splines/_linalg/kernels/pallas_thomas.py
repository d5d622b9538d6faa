"""Thomas algorithm as one Pallas kernel: one system per GPU thread, the loop over n inside.

The recurrences of `thomas_scan` (``a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i``,
``a_0 = c_{n-1} = 0``), run by each thread on its own system:

    forward  (i = 0 … n-1):  w_i = b_i − a_i c'_{i-1},  c'_i = c_i / w_i,
                             d'_i = (d_i − a_i d'_{i-1}) / w_i        (c'_{-1} = d'_{-1} = 0)
    backward (i = n-1 … 0):  x_i = d'_i − c'_i x_{i+1}                (x_n = 0)

c' lives in a scratch output and d' in the solution, which the backward
sweep overwrites in place.  Memory traffic per unknown: read a, b, c, d;
write and read back c', d'; write x — 9 values, against 5 for a solve that
keeps everything in registers (impossible for n beyond a few hundred).

A candidate for ``pivoting=False`` on GPUs, measured and not registered:
`gpu` says why cuSPARSE serves every size.  Arithmetic tested on CPU in
interpret mode (tests/test_kernels.py), CUDA program in tests/test_lowering.py.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from . import _pallas
from .thomas_scan import eliminate


def _thomas(a, b, c, d, x, c_prime):
    n, width = x.shape
    zero = jnp.zeros((width,), x.dtype)

    def forward(i, previous):
        c_i, d_i = eliminate(previous, (a[i, :], b[i, :], c[i, :], d[i, :]))
        c_prime[i, :] = c_i
        x[i, :] = d_i
        return c_i, d_i

    def backward(k, x_next):
        i = n - 1 - k
        x_i = x[i, :] - c_prime[i, :] * x_next
        x[i, :] = x_i
        return x_i

    lax.fori_loop(0, n, forward, (zero, zero))
    lax.fori_loop(0, n, backward, zero)


@partial(jax.jit, static_argnames="interpret")
def splines_pallas_thomas(lower, diag, upper, rhs, *, interpret=False):
    """Solve ``(..., n)`` real systems without pivoting; ``lower``/``upper`` ``(..., n-1)``."""
    return _pallas.solve_in_lanes(
        _thomas,
        lower,
        diag,
        upper,
        rhs,
        scratch=1,
        interpret=interpret,
        name="splines_pallas_thomas",
    )
