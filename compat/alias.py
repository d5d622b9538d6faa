"""A pytest plugin: the peer's names in every collected test module become ours.

Once collection is done, each global of a test module that the peer
(``$SPLINES_COMPAT_PEER``) defines is rebound to the `splines` object of the same
name, the test reading it at call time as an ``import splines as peer`` port
would.  A name `splines` lacks becomes a stub that raises, so only the tests that
use it fail, not their whole module.  Tests run in float64 (both peers' do).
"""

from __future__ import annotations

import os
import types

import jax

import splines

# scipy's classes and functions that `splines` mirrors; every other scipy name in
# its tests (BPoly, splrep, ...) stays scipy's, the reference those tests compare to.
SCIPY_NAMES = ("Akima1DInterpolator", "CubicHermiteSpline", "CubicSpline", "PPoly",
               "PchipInterpolator", "pchip_interpolate")  # fmt: skip


def _missing(name: str):
    def stub(*args, **kwargs):
        raise NotImplementedError(f"splines has no {name!r}")

    stub.__name__ = name
    return stub


def _ours(name: str):
    return getattr(splines, name, None) or _missing(name)


def _from_peer(value, peer: str) -> bool:
    module = getattr(value, "__module__", None) or ""
    if isinstance(value, types.ModuleType):
        module = value.__name__
    return module == peer or module.startswith(peer + ".")


def _rebind(module: types.ModuleType, peer: str) -> None:
    for name, value in list(vars(module).items()):
        if name.startswith("__"):
            continue
        if peer == "scipy":
            if name in SCIPY_NAMES and _from_peer(value, peer):
                setattr(module, name, _ours(name))
        elif isinstance(value, types.ModuleType) and value.__name__ == peer:
            setattr(module, name, splines)
        elif _from_peer(value, peer) and not isinstance(value, types.ModuleType):
            setattr(module, name, _ours(name))


def pytest_configure(config):
    jax.config.update("jax_enable_x64", True)


def pytest_collection_modifyitems(session, config, items):
    peer = os.environ["SPLINES_COMPAT_PEER"]
    for module in {id(item.module): item.module for item in items if item.module}.values():
        _rebind(module, peer)
