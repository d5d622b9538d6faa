"""splines: differentiable, callback-free cubic-spline interpolation in JAX."""

from ._approx_df import approx_df as approx_df
from ._cyclic import cyclic_tridiagonal_solve as cyclic_tridiagonal_solve
from ._fourier import fft_interp1d as fft_interp1d
from ._fourier import fft_interp2d as fft_interp2d
from ._interp import interp1d as interp1d
from ._interp_grid import interp2d as interp2d
from ._interp_grid import interp3d as interp3d
from ._interpolator import Interpolator1D as Interpolator1D
from ._interpolator_grid import Interpolator2D as Interpolator2D
from ._interpolator_grid import Interpolator3D as Interpolator3D
from ._lineax import Tridiagonal as Tridiagonal
from ._ppoly import AbstractPPoly as AbstractPPoly
from ._ppoly import PPoly as PPoly
from ._scipy_splines import Akima1DInterpolator as Akima1DInterpolator
from ._scipy_splines import CubicHermiteSpline as CubicHermiteSpline
from ._scipy_splines import CubicSpline as CubicSpline
from ._scipy_splines import PchipInterpolator as PchipInterpolator
from ._tridiagonal import tridiagonal_solve as tridiagonal_solve

__version__ = "0.1.0"

__all__ = [
    "AbstractPPoly", "Akima1DInterpolator", "approx_df", "CubicHermiteSpline", "CubicSpline",
    "cyclic_tridiagonal_solve", "fft_interp1d", "fft_interp2d", "interp1d", "interp2d",
    "interp3d", "Interpolator1D", "Interpolator2D", "Interpolator3D", "PchipInterpolator",
    "PPoly", "Tridiagonal", "tridiagonal_solve",
]  # fmt: skip
