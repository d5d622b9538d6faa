"""Scattered data: `splines.RBFInterpolator` against scipy's and interpax's.

Each contender fits and evaluates (the fit alone is not observable from scipy's
object), float64, on P sites uniform in the unit square with values
sin(6 y₀) y₁, at Q queries uniform in the square:

- the global interpolant, thin plate spline (degree 1) and Gaussian (ε = 40, about
  one per site spacing at P = 2000);
- local interpolation on each query's 50 nearest sites (``neighbors=50``), thin plate
  spline; interpax's needs jaxkd (the ``bench`` extra).

Ours and interpax's are jitted (one program: fit + evaluate). Target (issue 28,
float64, blocked): the global fit + evaluate ≥ 2x faster than scipy's and interpax's.
"""

from __future__ import annotations

import jax
import numpy as np

from .._data import on_device
from .._peers import installed
from .._suite import Case, Contender, Target

OURS = "splines.RBFInterpolator"
SCIPY = "scipy RBFInterpolator"
INTERPAX = "interpax.RBFInterpolator"

SIZES = {
    "full": {"sites": 2000, "queries": 10_000, "neighbors": 50},
    "quick": {"sites": 2000, "queries": 10_000, "neighbors": 50},
    "smoke": {"sites": 60, "queries": 100, "neighbors": 10},
}


def _data(sites: int, queries: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random((sites, 2))
    return y, np.sin(6 * y[:, 0]) * y[:, 1], rng.random((queries, 2))


def _ours(y, d, x, **options):
    import splines

    return splines.RBFInterpolator(y, d, **options)(x)


def _interpax(y, d, x, **options):
    import interpax

    return interpax.RBFInterpolator(y, d, **options)(x)


def _scipy(y, d, x, **options):
    from scipy.interpolate import RBFInterpolator

    return RBFInterpolator(y, d, **options)(x)


def _build(sites: int, queries: int, **options):
    def build():
        y, d, x = _data(sites, queries)
        device = on_device((y, d, x))

        def bound(f):
            return lambda y, d, x: f(y, d, x, **options)

        out = [Contender(OURS, "splines", jax.jit(bound(_ours)), device)]
        if installed("scipy"):
            out.append(Contender(SCIPY, "scipy", bound(_scipy), (y, d, x), check=OURS))
        local = options.get("neighbors") is not None
        if installed("interpax") and (not local or installed("jaxkd")):
            out.append(Contender(INTERPAX, "interpax", jax.jit(bound(_interpax)), device,
                                 check=OURS))  # fmt: skip
        return out

    return build


def cases(mode: str) -> list[Case]:
    sites, queries, k = (SIZES[mode][key] for key in ("sites", "queries", "neighbors"))
    params = {"P": sites, "Q": queries}
    faster = [Target("≥ 2x faster than scipy and interpax", OURS, [SCIPY, INTERPAX], 0.5)]
    if not installed("interpax"):
        faster = [Target("≥ 2x faster than scipy", OURS, [SCIPY], 0.5)]

    def case(name, options, targets=()):
        return Case("scattered", f"{name} P={sites} Q={queries}", {**params, **options},
                    _build(sites, queries, **options), dtype="float64",
                    targets=list(targets))  # fmt: skip

    return [
        case("thin plate spline", {}, faster),
        case("gaussian", {"kernel": "gaussian", "epsilon": 40.0}),
        case(f"thin plate spline neighbors={k}", {"neighbors": k}),
    ]
