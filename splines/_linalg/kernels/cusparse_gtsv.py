"""CUDA/ROCm kernel for ``pivoting=False``: one cuSPARSE ``gtsv2StridedBatch`` call.

On a GPU a `lax.scan` is a host-driven loop (~8 µs per step, docs/architecture.md §6), so
the scan kernels would spend milliseconds launching steps.  This kernel hands
the whole batch to `jax.lax.linalg.tridiagonal_solve`, whose CUDA lowering
(jax 0.10, ``jax/_src/lax/linalg.py: _tridiagonal_solve_gpu_lowering``) is
one custom call, ``cusparse_gtsv2_ffi`` (``hipsparse_…`` on ROCm).  jaxlib's
handler runs cuSPARSE's batched, non-pivoting ``gtsv2StridedBatch`` when there
is more than one system and the right-hand side has one column per system —
the layout used here — and the pivoting ``gtsv2`` otherwise (in a host loop
over systems for other layouts; once for a single system):

    dl = (0, lower),  d = diag,  du = (upper, 0),  b = rhs[..., None]     (all length n)

(lax's convention: ``dl[..., 0] = du[..., -1] = 0``).  Like Thomas it does
not pivot (cyclic reduction), so it serves the same diagonally dominant
systems.  For n ≤ 2 jax would fall back to its own scan (a `while`), so those
are solved here in closed form:

    n = 1:  x = r / d
    n = 2:  w = d_1 − l (u / d_0),  x_1 = (r_1 − l (r_0 / d_0)) / w,  x_0 = (r_0 − u x_1) / d_0

(one Thomas step: every product is of the matrix's scale, never its square,
so entries near the ends of the float range do not overflow).  cuSPARSE
takes f32, f64, c64 and c128 only (jaxlib's ``Gtsv2`` handler): half
precision is solved in f32 and rounded back (the closed forms too), and no
batch of zero systems (it returns the empty solution without a call).

The arithmetic is tested on CPU (where lax's solve is LAPACK ``gtsv``) against
the scan kernels; tests/test_lowering.py checks the CUDA program.
"""

import jax
import jax.numpy as jnp

from ..._utils.dtypes import compute_dtype
from . import _lanes


@jax.jit
def splines_cusparse_gtsv(lower, diag, upper, rhs):
    """Solve ``(..., n)`` systems without pivoting; ``lower``/``upper`` ``(..., n-1)``,
    their leading shape broadcast to rhs's (one system per column, as the batched call takes)."""
    lower, diag, upper, rhs = _lanes.full_bands(lower, diag, upper, rhs)
    n = rhs.shape[-1]
    wide = compute_dtype(rhs.dtype)
    if wide != rhs.dtype:  # f16/bf16: cuSPARSE has no half precision
        return splines_cusparse_gtsv(*(a.astype(wide) for a in (lower, diag, upper, rhs))).astype(
            rhs.dtype
        )
    if rhs.size == 0:
        return rhs
    if n == 1:
        return rhs / diag
    if n == 2:
        return _two_by_two(lower[..., 0], diag, upper[..., 0], rhs)
    zero = jnp.zeros(rhs.shape[:-1] + (1,), rhs.dtype)
    dl = jnp.concatenate([zero, lower], axis=-1)
    du = jnp.concatenate([upper, zero], axis=-1)
    return jax.lax.linalg.tridiagonal_solve(dl, diag, du, rhs[..., None])[..., 0]


def _two_by_two(low, diag, up, rhs):
    d0, d1, r0, r1 = diag[..., 0], diag[..., 1], rhs[..., 0], rhs[..., 1]
    w = d1 - low * (up / d0)
    x1 = (r1 - low * (r0 / d0)) / w
    return jnp.stack([(r0 - up * x1) / d0, x1], axis=-1)
