"""Every public name has a numpydoc docstring, and its Examples run as doctests.

Public: every name in `splines.__all__`, and the public methods and properties of
the public classes (those a user calls: ``__call__`` and the names without a
leading underscore that are not fields), found by looking, so a new method needs
its docstring too.  Inherited methods are checked once, on the class that
defines them (`AbstractPPoly`'s on it, not again on `PPoly` or `CubicSpline`).

The format check parses with numpydoc's ``docscrape`` (in the test extra); the
examples run with `doctest` as written, under whatever ``jax_enable_x64`` the
suite runs with, so they print x64-independent output.
"""

import dataclasses
import doctest
import inspect
import io
import warnings

import pytest

import splines
from splines._utils.methods import plain_method

ELLIPSIS_AND_SPACE = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _function(member):
    """The function behind a class member (a method, property, classmethod or `plain_method`)."""
    if isinstance(member, property):
        return member.fget
    if isinstance(member, (classmethod, staticmethod)):
        return member.__func__
    if isinstance(member, plain_method):
        return member.function
    return member


def _public_members(cls) -> dict:
    """``{"Class.name": member}`` for the members that ``cls`` itself defines and a user calls."""
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    members = {}
    for name, member in vars(cls).items():
        if (name.startswith("_") and name != "__call__") or name in fields:
            continue
        if inspect.isfunction(_function(member)):
            members[f"{cls.__name__}.{name}"] = member
    return members


def _public_objects() -> dict:
    objects = {name: getattr(splines, name) for name in splines.__all__}
    for obj in list(objects.values()):
        if inspect.isclass(obj):
            objects.update(_public_members(obj))
    return objects


PUBLIC = _public_objects()


def _needs_lineax(name: str) -> None:
    if name.split(".")[0] == "Tridiagonal":
        pytest.importorskip("lineax", reason="splines.Tridiagonal is a lineax solver")


def _documented_parameters(doc) -> set:
    """Names in the Parameters section (numpydoc allows ``x, y : ...`` for several)."""
    names = set()
    for parameter in doc["Parameters"]:
        names.update(part.strip().lstrip("*") for part in parameter.name.split(","))
    return names


def _signature_parameters(obj) -> list:
    """The parameters a caller passes (no self/cls, no ``*args``/``**kwargs``); None when
    the object has no signature (exceptions: their arguments are the message)."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [
        name
        for name, p in signature.parameters.items()
        if name not in ("self", "cls") and p.kind not in variadic
    ]


def _parse(name: str, obj):
    """numpydoc's reading of the docstring; its warnings (unknown sections, bad
    underlines) are errors."""
    docscrape = pytest.importorskip("numpydoc.docscrape", reason="numpydoc is in the test extra")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if inspect.isclass(obj):
            return docscrape.ClassDoc(obj, config={"show_class_members": False})
        return docscrape.FunctionDoc(_function(obj), role="meth" if "." in name else "func")


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_docstring_is_numpydoc(name):
    _needs_lineax(name)
    obj = PUBLIC[name]
    doc = _parse(name, obj)
    assert " ".join(doc["Summary"]).strip(), f"{name}: no one-line summary"
    assert "".join(doc["Examples"]).strip(), f"{name}: no Examples section"
    if isinstance(obj, property):
        return  # a property: a summary, what it is, an example
    function = obj if inspect.isclass(obj) else _function(obj)
    expected = _signature_parameters(function)
    if expected is not None:
        documented = _documented_parameters(doc)
        missing = [p for p in expected if p not in documented]
        assert not missing, f"{name}: Parameters does not document {missing}"
        unknown = sorted(documented - set(expected))
        assert not unknown, f"{name}: Parameters documents {unknown}, not in the signature"
    if not inspect.isclass(obj):
        returns_none = inspect.signature(function).return_annotation in (None, "None")
        assert returns_none or doc["Returns"], f"{name}: no Returns section"


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_example_runs(name):
    _needs_lineax(name)
    obj = PUBLIC[name]
    target = obj if inspect.isclass(obj) else _function(obj)
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(target, name, module=False, globs={}) if t.examples]
    assert tests, f"{name}: no doctest examples"
    runner = doctest.DocTestRunner(optionflags=ELLIPSIS_AND_SPACE)
    report = io.StringIO()
    for test in tests:
        runner.run(test, out=report.write)
    assert runner.failures == 0, f"{name}: an example fails\n{report.getvalue()}"


def test_every_class_method_is_found():
    """Guard the guard: the discovery sees methods, properties, classmethods and
    `plain_method`s, and skips fields and private names."""
    found = {name.split(".", 1)[1] for name in PUBLIC if name.startswith("AbstractPPoly.")}
    assert {"__call__", "x", "c", "derivative", "integrate", "roots", "from_spline"} <= found
    assert not {"breaks", "coefficients", "_with"} & found
    assert {"Interpolator1D.even_spacing", "RegularGridInterpolator.__call__"} <= set(PUBLIC)
