"""Kernels behind `tridiagonal_solve_p`, chosen per platform at lowering time.

Each kernel has the signature ``kernel(lower, diag, upper, rhs) -> x`` with the
primitive's (already broadcast) operand shapes.  A platform has two: ``thomas``
(no pivoting, for `pivoting=False`) and ``pivoting`` (partial pivoting as
LAPACK gtsv, for `pivoting=True`).  A platform without an entry in
`PLATFORM_KERNELS` uses `DEFAULT_KERNELS`.  A program that the partitioner
splits over several devices takes its platform's ``partitioned`` kernels where
they differ: those keep every system in a lane, as the partitioner splits
lanes, never a loop.

On a GPU the registered kernels are one device call each (`gpu`): cuSPARSE
without pivoting, the Pallas kernel `pallas_gtsv` (one system per GPU
thread) with it, as a measurement on a real GPU chose them.
"""

from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Optional

import jax

from . import gpu, thomas_inplace
from .cusparse_gtsv import splines_cusparse_gtsv
from .gtsv_scan import splines_gtsv_scan
from .thomas_inplace import splines_thomas_inplace
from .thomas_scan import splines_thomas_scan


class SolveKernels(NamedTuple):
    thomas: Callable  # no pivoting
    pivoting: Callable  # partial pivoting (row interchanges as LAPACK gtsv)
    partitioned: Optional["SolveKernels"] = None  # for a program split over devices

    def pick(self, pivoting: bool, partitioned: bool = False) -> Callable:
        kernels = (partitioned and self.partitioned) or self
        return kernels.pivoting if pivoting else kernels.thomas


DEFAULT_KERNELS = SolveKernels(thomas=splines_thomas_scan, pivoting=splines_gtsv_scan)


def _thomas_cpu(lower, diag, upper, rhs):
    """XLA:CPU's Thomas kernel, by static shape: one small system (with a few right-hand
    sides) in place, else the scan."""
    small = thomas_inplace.small_enough(diag.shape, rhs.shape, rhs.dtype)
    return (splines_thomas_inplace if small else splines_thomas_scan)(lower, diag, upper, rhs)


# On one device a batch of pivoted systems too wide for one native loop is chained.
CPU_KERNELS = SolveKernels(
    thomas=_thomas_cpu,
    pivoting=partial(splines_gtsv_scan, chain=True),
    partitioned=SolveKernels(thomas=_thomas_cpu, pivoting=splines_gtsv_scan),
)


def gpu_kernels(interpret: bool = False) -> SolveKernels:
    """The GPU's kernels (`gpu`); ``interpret=True`` runs their Pallas kernel on any platform."""
    return SolveKernels(thomas=gpu.thomas, pivoting=gpu.pivoting(interpret))


GPU_KERNELS = gpu_kernels()

# Lowering platform → its kernels.
PLATFORM_KERNELS = {"cpu": CPU_KERNELS, "cuda": GPU_KERNELS, "rocm": GPU_KERNELS}


def platform_of(args) -> tuple[str, int]:
    """The platform whose kernel an eager call on ``args`` runs, and their device count.

    That is the platform the lowering rule would be chosen for: arrays placed on
    the CPU of a machine with a GPU are solved by the CPU's kernel.
    """
    devices = {d for a in args if isinstance(a, jax.Array) for d in a.devices()}
    platforms = {d.platform for d in devices}
    return (platforms.pop() if len(platforms) == 1 else jax.default_backend()), len(devices)


def kernels_for(platform: str) -> SolveKernels:
    """The kernels of a device's ``platform``: jax calls CUDA and ROCm devices "gpu"."""
    return PLATFORM_KERNELS.get("cuda" if platform == "gpu" else platform, DEFAULT_KERNELS)


__all__ = [
    "CPU_KERNELS",
    "DEFAULT_KERNELS",
    "GPU_KERNELS",
    "PLATFORM_KERNELS",
    "SolveKernels",
    "gpu_kernels",
    "kernels_for",
    "platform_of",
    "splines_cusparse_gtsv",
    "splines_gtsv_scan",
    "splines_thomas_inplace",
    "splines_thomas_scan",
]
