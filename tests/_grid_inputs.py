"""The grids, values and queries that the argument and data checks of the grid
interpolants share, and one way to call each interpolant: the function
(`interp2d`, `interp3d`) or the class (`Interpolator2D`, `Interpolator3D`: its
constructor, then its call for ``derivative`` and the queries)."""

import numpy as np

from splines import Interpolator2D, Interpolator3D, interp2d, interp3d

XP = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])  # 6 knots
YP = np.array([0.0, 0.5, 1.3, 2.0, 2.9])  # 5 knots
ZP = np.array([0.0, 0.6, 1.4, 2.0])  # 4 knots
FP = np.random.default_rng(7).normal(size=(6, 5))
FP3 = np.random.default_rng(3).normal(size=(6, 5, 4))
X = np.array([0.3, 1.1, 2.0, 3.9])  # paired with Y: points (X[i], Y[i]), all inside
Y = np.array([0.25, 0.9, 1.65, 2.45])
PX, PY = 5.5, 3.5  # periods the knots fit in without closing them

FP_X_CLOSED = FP.copy()  # periodic along x only (last row = first row)
FP_X_CLOSED[-1] = FP_X_CLOSED[0]
FP_CLOSED = FP_X_CLOSED.copy()  # periodic along both axes
FP_CLOSED[:, -1] = FP_CLOSED[:, 0]
FP3_XY_CLOSED = FP3.copy()  # periodic along x and y, not along z
FP3_XY_CLOSED[-1] = FP3_XY_CLOSED[0]
FP3_XY_CLOSED[:, -1] = FP3_XY_CLOSED[:, 0]


def with_entry(array, index, value):
    """A copy of ``array`` with ``array[index] = value`` (its dtype widened to hold it)."""
    out = np.array(array, dtype=np.result_type(array, value))
    out[index] = value
    return out


def call_2d(api, x=X, y=Y, xp=XP, yp=YP, fp=FP, method="cubic2", derivative=(0, 0), **options):
    if api == "interp2d":
        return interp2d(x, y, xp, yp, fp, method, derivative=derivative, **options)
    return Interpolator2D(xp, yp, fp, method, **options)(x, y, derivative)


def call_3d(api, x=X, y=Y, z=Y / 2, xp=XP, yp=YP, zp=ZP, fp=FP3, method="cubic2",
            derivative=(0, 0, 0), **options):  # fmt: skip
    if api == "interp3d":
        return interp3d(x, y, z, xp, yp, zp, fp, method, derivative=derivative, **options)
    return Interpolator3D(xp, yp, zp, fp, method, **options)(x, y, z, derivative)
