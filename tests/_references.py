"""Reference answers in float64 from scipy (or closed forms where scipy lacks the method)."""

import numpy as np
import scipy.interpolate as si

# The local cubic methods (slopes from neighbouring values, no solve): `reference_slopes`
# gives each one's.
LOCAL_METHODS = ("cubic", "catmull-rom", "cardinal", "monotonic", "monotonic-0", "akima", "makima")


def method_options(method):
    return {"c": 0.3} if method == "cardinal" else {}


def reference_slopes(method, u, v):
    """Each method's knot slopes in f64 (scipy where it has the method)."""
    m = np.diff(v) / np.diff(u)
    if method == "cubic":
        return np.concatenate([m[:1], (m[:-1] + m[1:]) / 2, m[-1:]])
    if method in ("catmull-rom", "cardinal"):
        c = 0.3 if method == "cardinal" else 0.0
        return (1 - c) * np.concatenate([m[:1], (v[2:] - v[:-2]) / (u[2:] - u[:-2]), m[-1:]])
    if method.startswith("monotonic"):
        slopes = si.PchipInterpolator(u, v)(u, 1)
        if method == "monotonic-0":
            slopes[[0, -1]] = 0.0
        return slopes
    return si.Akima1DInterpolator(u, v, method=method)(u, 1)
