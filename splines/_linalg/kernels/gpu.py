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

from functools import partial

import jax.numpy as jnp

from ..._utils.dtypes import compute_dtype
from .banded_scan import splines_banded_scan
from .cusparse_gtsv import splines_cusparse_gtsv
from .gtsv_scan import splines_gtsv_scan

thomas = splines_cusparse_gtsv


def pivoting(interpret: bool = False):
    """The GPU's pivoting kernel; ``interpret``: its Pallas kernel in interpret mode."""

    def pallas(*system, interpret):
        from .pallas_gtsv import splines_pallas_gtsv

        return splines_pallas_gtsv(*system, interpret=interpret)

    return partial(_real_in_pallas, pallas, splines_gtsv_scan, interpret=interpret)


def banded(interpret: bool = False):
    """The GPU's banded kernel; ``interpret``: its Pallas kernel in interpret mode."""

    def pallas(*system, interpret, **params):
        from .pallas_banded import splines_pallas_banded

        return splines_pallas_banded(*system, **params, interpret=interpret)

    return partial(_real_in_pallas, pallas, splines_banded_scan, interpret=interpret)


def _real_in_pallas(pallas, scan, *operands, interpret, **params):
    """``pallas`` on real operands, half precision solved in float32 and rounded back;
    complex ones (Triton has none) by ``scan``.  The last operand is the right-hand side."""
    dtype = operands[-1].dtype
    if jnp.issubdtype(dtype, jnp.complexfloating):
        return scan(*operands, **params)
    wide = compute_dtype(dtype)  # float32 for half precision
    x = pallas(*(a.astype(wide) for a in operands), interpret=interpret, **params)
    return x.astype(dtype)
