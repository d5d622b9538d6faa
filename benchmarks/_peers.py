"""The peers' ways to do what `splines.interp1d` does, as contenders.

Each function returns a list of `Contender` (empty when the peer is not
installed: `run.py` reports that once).  ``wrap`` is applied to every JAX
function before it is timed: `jax.jit`, or ``jit(vmap(...))`` for batches.
interpax is timed in each of its three ways, because the fastest differs by
case: `interp1d` (re-fits on every call), `Interpolator1D` and
`CubicSpline(check=False)` (its default ``check=True`` cannot be traced).
"""

from __future__ import annotations

import importlib.util

import numpy as np

from ._suite import Contender


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def interpax_contenders(method: str, args: tuple, wrap, check: str | None) -> list[Contender]:
    """interpax's ways for ``method`` on ``args = (xq, xp, fp)`` (not-a-knot cubic2),
    named as `interpax_names` says."""
    if not installed("interpax"):
        return []
    import interpax

    def interp1d(q, k, v):
        return interpax.interp1d(q, k, v, method=method)

    def interpolator(q, k, v):
        return interpax.Interpolator1D(k, v, method=method)(q)

    def cubic_spline(q, k, v):  # cubic2 only
        return interpax.CubicSpline(k, v, check=False)(q)

    ways = (interp1d, interpolator, cubic_spline)
    return [Contender(name, "interpax", wrap(way), args, check)
            for name, way in zip(interpax_names(method), ways)]  # fmt: skip


def interpax_names(method: str) -> tuple[str, ...]:
    """The rows `interpax_contenders` gives: a target's denominators ("interpax's
    fastest way")."""
    names = (f"interpax.interp1d {method}", f"interpax.Interpolator1D {method}")
    return names + (("interpax.CubicSpline(check=False)",) if method == "cubic2" else ())


# scipy's counterpart of each of our methods (f64, build + evaluate as used).
def _scipy_builders():
    from scipy import interpolate as si

    return {
        "cubic2": lambda k, v: si.CubicSpline(k, v),
        "monotonic": lambda k, v: si.PchipInterpolator(k, v),
        "akima": lambda k, v: si.Akima1DInterpolator(k, v),
        "makima": lambda k, v: si.Akima1DInterpolator(k, v, method="makima"),
        "linear": lambda k, v: si.make_interp_spline(k, v, k=1),
    }


def scipy_contenders(method: str, args: tuple, batched: bool, check: str | None):
    """scipy's build + evaluate in float64 (a Python loop over grids when batched)."""
    if not installed("scipy") or method not in _scipy_builders():
        return []
    build = _scipy_builders()[method]
    q, k, v = (np.asarray(a, np.float64) for a in args)

    def one(q, k, v):
        return build(k, v)(q)

    def loop(q, k, v):
        return np.stack([one(*row) for row in zip(q, k, v)])

    name = f"scipy {method} (f64" + (", loop over grids)" if batched else ")")
    return [Contender(name, "scipy", loop if batched else one, (q, k, v), check)]
