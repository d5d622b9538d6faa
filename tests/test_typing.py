"""The types a user sees: pyright on a user's script, the package's type completeness,
and the ``Literal`` option names against the sets the runtime accepts.

- `tests/typed_usage.py` calls every public name with jax and numpy arrays, lists
  and Python scalars; pyright checks it in strict mode (``[tool.pyright]`` in
  pyproject.toml) and it runs as Python here.
- ``pyright --verifytypes splines --ignoreexternal``: every public symbol has a
  known type (`COMPLETENESS`).
- The aliases of `splines._utils.types` equal the runtime's sets, and every ``method``,
  ``bc_type``, ``extrap`` and ``extrapolate`` parameter of the public API uses them.

pyright comes from the Python package index (``pyright[nodejs]``: the wheel bundles
pyright and its node.js), and runs offline: the version check it would make is
switched off, and a pyright that would download itself is skipped.
"""

import inspect
import json
import os
import runpy
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, get_args

import numpy as np
import pytest

import splines
from splines._interpolate import options, scipy_grid
from splines._methods.registry import CUBIC_METHODS, METHODS
from splines._scipy.checks import parse_extrapolate
from splines._utils import types as aliases

ROOT = Path(__file__).resolve().parent.parent
USER_SCRIPT = ROOT / "tests" / "typed_usage.py"

# pyright's completeness score of the public symbols (`--verifytypes --ignoreexternal`):
# 27 of 28.  The one short is `Tridiagonal`, a subclass of lineax's
# `AbstractLinearSolver`: lineax ships no `py.typed`, so to `--verifytypes` its
# base class is unknown (`INCOMPLETE`); every other symbol is fully typed.
COMPLETENESS = 27 / 28
INCOMPLETE = {"splines._linalg.lineax.Tridiagonal": {"Type of base class unknown",
                                                     "Type of metaclass unknown"}}  # fmt: skip


def run_pyright(*args: str) -> dict[str, Any]:
    """pyright's ``--outputjson`` report, run on this interpreter's packages, offline."""
    pyright = pytest.importorskip("pyright", reason="pyright[nodejs] (the test extra)")
    bundled = Path(pyright.__file__).parent / "dist" / "index.js"
    if not bundled.exists():
        pytest.skip("this pyright package bundles no pyright (it would download one)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYRIGHT_PYTHON")}
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"  # no look-up of the latest version
    command = [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable]
    done = subprocess.run([*command, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"pyright gave no report:\n{done.stdout}\n{done.stderr}") from None


def test_user_script_passes_pyright_strict():
    report = run_pyright("--project", str(ROOT))
    errors = [f"{Path(d['file']).name}:{d['range']['start']['line'] + 1}: {d['message']}"
              for d in report["generalDiagnostics"] if d["severity"] == "error"]  # fmt: skip
    assert report["summary"]["filesAnalyzed"] >= 1
    assert not errors, "\n".join(errors)


def test_public_symbols_have_known_types():
    report = run_pyright("--verifytypes", "splines", "--ignoreexternal")
    completeness = report["typeCompleteness"]
    problems = {
        symbol["name"]: {d["message"] for d in symbol["diagnostics"] if d["severity"] == "error"}
        for symbol in completeness["symbols"]
    }
    problems = {name: messages for name, messages in problems.items() if messages}
    assert problems == INCOMPLETE
    assert completeness["completenessScore"] >= COMPLETENESS - 1e-9


def test_user_script_runs():
    with warnings.catch_warnings():  # (the script filters a warning: not for the others)
        namespace = runpy.run_path(str(USER_SCRIPT), run_name="__main__")
    assert namespace["version"] == splines.__version__


def literal_names(alias: Any) -> set[str]:
    names = set(get_args(alias))
    assert names and all(isinstance(name, str) for name in names), alias
    return names


def test_literals_are_the_runtime_sets():
    assert literal_names(aliases.MethodName) == set(METHODS)
    assert literal_names(aliases.CubicMethodName) == set(CUBIC_METHODS)
    grid = literal_names(aliases.GridMethodName)
    assert grid == set(METHODS) | set(scipy_grid._SCIPY_METHODS)
    assert not grid & set(scipy_grid._NOT_OURS)
    for name in grid:
        assert scipy_grid.grid_method(name) in METHODS
    assert literal_names(aliases.EndName) == set(options._NAMED_END)
    assert literal_names(aliases.BcTypeName) == set(options.BC_TYPES)
    literals = [set(get_args(a)) for a in get_args(aliases.Extrapolate) if get_args(a)]
    assert literals == [{"periodic"}] and parse_extrapolate("periodic", True) == "periodic"
    with pytest.raises(ValueError):
        parse_extrapolate("clamped", True)


def test_lsq_method_literal_is_what_it_accepts():
    assert literal_names(aliases.LsqMethodName) == {"qr", "norm-eq"}
    x, t = np.linspace(0.0, 1.0, 9), np.r_[[0.0] * 4, 0.5, [1.0] * 4]
    for method in ("qr", "norm-eq"):
        splines.make_lsq_spline(x, x, t, method=method)
    with pytest.raises(ValueError, match="`method`"):
        splines.make_lsq_spline(x, x, t, method="lsqr")


def test_akima_literal_is_what_it_accepts():
    akima = literal_names(aliases.AkimaMethodName)
    assert akima == {"akima", "makima"} and akima <= set(METHODS)
    for name in set(METHODS) - akima:
        with pytest.raises(NotImplementedError):
            splines.Akima1DInterpolator(np.arange(4.0), np.arange(4.0), method=name)


# Per public entry point, the alias of each of its option parameters.
METHOD = aliases.MethodName
GRID_METHOD = aliases.GridMethodName
EXPECTED = {
    "interp1d": {"method": METHOD, "bc_type": aliases.BcType, "extrap": aliases.Extrap},
    "interp2d": {"method": METHOD, "bc_type": aliases.BcType, "extrap": aliases.GridExtrap},
    "interp3d": {"method": METHOD, "bc_type": aliases.BcType, "extrap": aliases.GridExtrap},
    "interpn": {"method": GRID_METHOD, "bc_type": aliases.BcType},
    "approx_df": {"method": aliases.CubicMethodName, "bc_type": aliases.BcType},
    "Interpolator1D.__init__": {
        "method": METHOD,
        "bc_type": aliases.BcType,
        "extrap": aliases.Extrap,
    },  # fmt: skip
    "Interpolator2D.__init__": {
        "method": METHOD,
        "bc_type": aliases.BcType,
        "extrap": aliases.GridExtrap,
    },  # fmt: skip
    "Interpolator3D.__init__": {
        "method": METHOD,
        "bc_type": aliases.BcType,
        "extrap": aliases.GridExtrap,
    },  # fmt: skip
    "RegularGridInterpolator.__init__": {"method": GRID_METHOD, "bc_type": aliases.BcType},
    "RegularGridInterpolator.__call__": {"method": GRID_METHOD | None},
    "Akima1DInterpolator.__init__": {"method": aliases.AkimaMethodName},
    "make_lsq_spline": {"method": aliases.LsqMethodName},
    "CubicSpline.__init__": {"bc_type": aliases.BcType},
}
OPTIONS = ("method", "bc_type", "extrap", "extrapolate")


def public_callables():
    """``(name, function)`` for every public function and every method of a public class."""
    for name in splines.__all__:
        value = getattr(splines, name)
        if inspect.isfunction(value):
            yield name, value
        elif inspect.isclass(value):
            for cls in value.__mro__:
                for attr, member in vars(cls).items():
                    function = getattr(member, "function", member)  # (`plain_method`)
                    function = getattr(function, "__func__", function)  # (classmethod)
                    public = attr in ("__init__", "__call__") or not attr.startswith("_")
                    if public and written_here(function):
                        yield f"{name}.{attr}", function


def written_here(function: Any) -> bool:
    """A function of ours, not a dataclass's generated ``__init__`` nor a base's."""
    package = str(Path(splines.__file__).parent)
    return inspect.isfunction(function) and function.__code__.co_filename.startswith(package)


def test_every_option_uses_its_alias():
    found = {}
    for name, function in public_callables():
        parameters = inspect.signature(function).parameters
        given = {p: parameters[p].annotation for p in OPTIONS if p in parameters}
        if name in EXPECTED:
            for option, alias in EXPECTED[name].items():
                assert given[option] == alias, (name, option, given[option])
        if "extrapolate" in given:
            assert given["extrapolate"] == aliases.Extrapolate, name
        if "method" in given:
            found[name] = given["method"]
    # every entry point with a `method` is listed above (a new one must be added)
    assert set(found) == {name for name, o in EXPECTED.items() if "method" in o}
