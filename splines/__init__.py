"""splines: differentiable, callback-free spline interpolation and fitting in JAX."""

from ._interpolate.approx_df import approx_df as approx_df
from ._interpolate.fourier import fft_interp1d as fft_interp1d
from ._interpolate.fourier import fft_interp2d as fft_interp2d
from ._interpolate.functions import interp1d as interp1d
from ._interpolate.functions import interp2d as interp2d
from ._interpolate.functions import interp3d as interp3d
from ._interpolate.functions import interpn as interpn
from ._interpolate.modules import Interpolator1D as Interpolator1D
from ._interpolate.modules import Interpolator2D as Interpolator2D
from ._interpolate.modules import Interpolator3D as Interpolator3D
from ._interpolate.modules import RegularGridInterpolator as RegularGridInterpolator
from ._linalg.banded import solve_banded as solve_banded
from ._linalg.banded import solveh_banded as solveh_banded
from ._linalg.cyclic import cyclic_tridiagonal_solve as cyclic_tridiagonal_solve
from ._linalg.lineax import Tridiagonal as Tridiagonal
from ._linalg.tridiagonal import tridiagonal_solve as tridiagonal_solve
from ._scattered.interpolator import RBFInterpolator as RBFInterpolator
from ._scipy.bspline_fits import make_interp_spline as make_interp_spline
from ._scipy.bspline_fits import make_lsq_spline as make_lsq_spline
from ._scipy.bsplines import BSpline as BSpline
from ._scipy.grid_smoothing import NdGridCubicSmoothingSpline as NdGridCubicSmoothingSpline
from ._scipy.ppoly import AbstractPPoly as AbstractPPoly
from ._scipy.ppoly import PPoly as PPoly
from ._scipy.smoothing import CubicSmoothingSpline as CubicSmoothingSpline
from ._scipy.smoothing import make_smoothing_spline as make_smoothing_spline
from ._scipy.splines import Akima1DInterpolator as Akima1DInterpolator
from ._scipy.splines import CubicHermiteSpline as CubicHermiteSpline
from ._scipy.splines import CubicSpline as CubicSpline
from ._scipy.splines import PchipInterpolator as PchipInterpolator
from ._scipy.splines import pchip_interpolate as pchip_interpolate
from ._utils.dtypes import NotRealError as NotRealError
from ._utils.dtypes import X64DisabledWarning as X64DisabledWarning

__version__ = "0.1.0"

__all__ = [
    "AbstractPPoly",
    "Akima1DInterpolator",
    "approx_df",
    "BSpline",
    "CubicHermiteSpline",
    "CubicSmoothingSpline",
    "CubicSpline",
    "cyclic_tridiagonal_solve",
    "fft_interp1d",
    "fft_interp2d",
    "interp1d",
    "interp2d",
    "interp3d",
    "interpn",
    "Interpolator1D",
    "Interpolator2D",
    "Interpolator3D",
    "make_interp_spline",
    "make_lsq_spline",
    "make_smoothing_spline",
    "NdGridCubicSmoothingSpline",
    "NotRealError",
    "pchip_interpolate",
    "PchipInterpolator",
    "PPoly",
    "RBFInterpolator",
    "RegularGridInterpolator",
    "solve_banded",
    "solveh_banded",
    "Tridiagonal",
    "tridiagonal_solve",
    "X64DisabledWarning",
]
