"""Kernels behind `tridiagonal_solve_p`, chosen per platform at lowering time.

Each kernel has the signature ``kernel(lower, diag, upper, rhs) -> x`` with the
primitive's (already broadcast) operand shapes.  A platform without an entry
uses `DEFAULT_KERNEL`.
"""

from .thomas_scan import splines_thomas_scan

DEFAULT_KERNEL = splines_thomas_scan

# Platform name (as in `jax.devices()[0].platform`) → kernel.  A faster
# one-kernel GPU solve (DESIGN.md §3) registers here under "cuda"/"rocm".
PLATFORM_KERNELS = {"cpu": splines_thomas_scan}

__all__ = ["DEFAULT_KERNEL", "PLATFORM_KERNELS", "splines_thomas_scan"]
