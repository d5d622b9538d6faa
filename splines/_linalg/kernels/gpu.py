"""The GPU's kernels (CUDA, ROCm), as a measurement on an H200 chose them.

A `lax.scan` on a GPU is a host-driven loop (~8 µs per step), so each kernel
here is one device call (benchmarks/results/gpu_nvidia_h200.md, "kernel"
rows, f32, n = 256 per system):

- ``pivoting=True``: the Pallas gtsv (`pallas_gtsv`, one system per thread)
  is 13x faster than the scan at 1e3 systems, 2.3x at 1e6, and 80x on one
  system of 1e5 unknowns.  Complex systems (Triton has no complex numbers)
  run the scan; half precision is solved in float32 and rounded back.
- ``pivoting=False``: cuSPARSE (`cusparse_gtsv`) at every size.  The Pallas
  Thomas (`pallas_thomas`) was 1.3x faster at 1e5 systems and 1.4x at 1e6,
  but 1.5x slower at 1e3 and 30x on one long system, and a Triton call
  makes `jax.export` refuse the program unless told it has no compatibility
  guarantee: every large spline fit would need that, for a gain below 1.5x.

Banded systems (`banded`) take the Pallas kernel `pallas_banded` (one
system per thread, the loops inside), by the tridiagonal measurement above:
the scan's host-driven loop is the cost it removes, for any bandwidth.  Not
measured on a GPU yet (benchmarks/results/gpu_nvidia_h200.md has no banded
rows).

The Pallas module is imported when a solve is lowered, not by ``import
splines`` (importing Pallas takes ~0.6 s).  ``interpret=True`` runs the
Pallas kernel on any platform: the CPU tests of this choice.
"""

import jax.numpy as jnp

from ..._utils.dtypes import compute_dtype
from .banded_scan import splines_banded_scan
from .cusparse_gtsv import splines_cusparse_gtsv
from .gtsv_scan import splines_gtsv_scan

thomas = splines_cusparse_gtsv


def pivoting(interpret: bool = False):
    """The GPU's pivoting kernel; ``interpret``: its Pallas kernel in interpret mode."""

    def solve(lower, diag, upper, rhs):
        if jnp.issubdtype(rhs.dtype, jnp.complexfloating):
            return splines_gtsv_scan(lower, diag, upper, rhs)
        from .pallas_gtsv import splines_pallas_gtsv

        wide = compute_dtype(rhs.dtype)  # float32 for half precision
        system = (a.astype(wide) for a in (lower, diag, upper, rhs))
        return splines_pallas_gtsv(*system, interpret=interpret).astype(rhs.dtype)

    return solve


def banded(interpret: bool = False):
    """The GPU's banded kernel; ``interpret``: its Pallas kernel in interpret mode."""

    def solve(rows, rhs, **params):
        if jnp.issubdtype(rhs.dtype, jnp.complexfloating):
            return splines_banded_scan(rows, rhs, **params)
        from .pallas_banded import splines_pallas_banded

        wide = compute_dtype(rhs.dtype)  # float32 for half precision
        x = splines_pallas_banded(
            rows.astype(wide), rhs.astype(wide), **params, interpret=interpret
        )
        return x.astype(rhs.dtype)

    return solve
