"""Six knots on [0, 1], a sine and its slopes on them, queries inside, on the knots and
outside, and each scipy-compatible class next to scipy's: the small data that the
tests of the classes' edge cases share."""

import jax.numpy as jnp
import numpy as np
import scipy.interpolate as si

from splines import Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator

F32 = np.float32
X = np.linspace(0.0, 1.0, 6)
Y = np.sin(3 * X)
DYDX = 3 * np.cos(3 * X)
Q = np.linspace(-0.2, 1.2, 15)  # inside, on knots, outside
# Knots with a NaN (inside) or an inf (the last).
BAD_X = {
    "NaN": np.where(np.arange(6) == 2, np.nan, X),
    "inf": np.where(np.arange(6) == 5, np.inf, X),
}

# name → (ours, scipy's), each built as ``make(x, y, **options)``
CLASSES = {
    "CubicSpline": (lambda x, y, **k: CubicSpline(x, y, **k), si.CubicSpline),
    "CubicHermiteSpline": (
        lambda x, y, **k: CubicHermiteSpline(x, y, jnp.cos(jnp.asarray(x)), **k),
        lambda x, y, **k: si.CubicHermiteSpline(x, y, np.cos(x), **k),
    ),
    "PchipInterpolator": (lambda x, y, **k: PchipInterpolator(x, y, **k), si.PchipInterpolator),
    "Akima1DInterpolator": (
        lambda x, y, **k: Akima1DInterpolator(x, y, **k),
        si.Akima1DInterpolator,
    ),
}
