"""The GPU's kernels (CUDA, ROCm), as a measurement on an H200 chose them.

A `lax.scan` on a GPU is a host-driven loop (~8 µs per step), so every
kernel here is one device call (benchmarks/results/gpu_nvidia_h200.md,
"kernel" rows, f32, n = 256 per system):

- ``pivoting=True``: the Pallas gtsv (`pallas_gtsv`, one system per thread)
  is 13x faster than the scan at 1e3 systems, 2.3x at 1e6, and 80x on one
  system of 1e5 unknowns.  Complex systems (Triton has no complex numbers)
  run the scan.
- ``pivoting=False``: cuSPARSE (`cusparse_gtsv`) below
  ``_PALLAS_THOMAS_MIN_LANES`` systems, the Pallas Thomas (`pallas_thomas`)
  from there: 1.5x slower than cuSPARSE at 1e3 systems, 1.3x faster at 1e5
  and 1.4x at 1e6.  One long system stays with cuSPARSE (30x faster there:
  the Pallas kernel runs it on one thread).

Half precision is solved in float32 and rounded back, as cuSPARSE needs.
The Pallas modules are imported when a solve is lowered, not by
``import splines`` (importing Pallas takes ~0.6 s).  ``interpret=True``
runs the Pallas kernels on any platform: the CPU tests of this choice.
"""

import jax.numpy as jnp

from ..._utils.dtypes import compute_dtype
from . import _lanes
from .cusparse_gtsv import splines_cusparse_gtsv
from .gtsv_scan import splines_gtsv_scan

# From this many systems on, Thomas runs as the Pallas kernel.  The crossover lies
# between 1e3 systems (cuSPARSE faster) and 1e5 (Pallas faster), where no size was
# measured: 1e4 is their geometric middle.  bench_gpu's kernel rows at 3e3, 1e4 and
# 3e4 systems place it on the next run on a GPU.
_PALLAS_THOMAS_MIN_LANES = 10_000


def _in_float32(kernel):
    """``kernel`` on real systems of at least float32; half precision in float32."""

    def solve(lower, diag, upper, rhs):
        wide = compute_dtype(rhs.dtype)
        if wide == rhs.dtype:
            return kernel(lower, diag, upper, rhs)
        return kernel(*(a.astype(wide) for a in (lower, diag, upper, rhs))).astype(rhs.dtype)

    return solve


def thomas(interpret: bool = False):
    def solve(lower, diag, upper, rhs):
        few = _lanes.lanes(rhs.shape[:-1]) < _PALLAS_THOMAS_MIN_LANES
        if few or jnp.issubdtype(rhs.dtype, jnp.complexfloating):
            return splines_cusparse_gtsv(lower, diag, upper, rhs)
        from .pallas_thomas import splines_pallas_thomas

        return _in_float32(lambda *a: splines_pallas_thomas(*a, interpret=interpret))(
            lower, diag, upper, rhs
        )

    solve.__name__ = "thomas_gpu"
    return solve


def pivoting(interpret: bool = False):
    def solve(lower, diag, upper, rhs):
        if jnp.issubdtype(rhs.dtype, jnp.complexfloating):
            return splines_gtsv_scan(lower, diag, upper, rhs)
        from .pallas_gtsv import splines_pallas_gtsv

        return _in_float32(lambda *a: splines_pallas_gtsv(*a, interpret=interpret))(
            lower, diag, upper, rhs
        )

    solve.__name__ = "pivoting_gpu"
    return solve
