"""splines: differentiable, callback-free cubic-spline interpolation in JAX."""

from ._cyclic import cyclic_tridiagonal_solve as cyclic_tridiagonal_solve
from ._interp import interp1d as interp1d
from ._interpolator import Interpolator1D as Interpolator1D
from ._tridiagonal import tridiagonal_solve as tridiagonal_solve

__version__ = "0.1.0"

__all__ = ["Interpolator1D", "cyclic_tridiagonal_solve", "interp1d", "tridiagonal_solve"]
