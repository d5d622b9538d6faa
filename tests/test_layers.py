"""The package's layers import one way (docs/architecture.md §2): no cycle, no upward import.

Every module's imports of `splines` itself are read from its source (`ast`),
including imports inside functions, and each must reach a layer the
importing layer may use.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "splines"

# What each layer may import (besides itself), lowest first.
ALLOWED = {
    "_utils": set(),
    "_linalg": {"_utils"},
    "_pieces": {"_utils"},
    "_methods": {"_utils", "_linalg", "_pieces"},
    "_interpolate": {"_utils", "_pieces", "_methods"},
    "_scipy": {"_utils", "_linalg", "_pieces", "_methods", "_interpolate"},
    "_scattered": {"_utils"},
}


MODULES = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py"))


def _imported_layers(path, parts):
    """The layers (first package below `splines`) that the module at ``parts`` imports."""
    package = parts[:-1]  # a module's own package (for `__init__`: the package itself)
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: climb from the module's package
                base = list(package[: len(package) - (node.level - 1)])
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "splines":
                target = node.module.split(".")[1:]
            else:
                continue
            names = [target[0]] if target else [a.name for a in node.names]
            yield from names
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "splines":
                    yield (alias.name.split(".")[1:] or ["splines"])[0]


@pytest.mark.parametrize("module", [m for m in MODULES if "/" in m])
def test_a_module_imports_only_its_own_layer_and_those_below(module):
    path = PACKAGE / module
    parts = Path(module).with_suffix("").parts
    layer = parts[0]
    assert layer in ALLOWED, f"{layer}: a layer docs/architecture.md does not list"
    for target in _imported_layers(path, parts):
        assert target == layer or target in ALLOWED[layer], (
            f"splines/{'/'.join(parts)}.py imports {target}, which {layer} may not use"
        )


def test_every_module_is_in_a_layer_or_the_public_api():
    assert {m for m in MODULES if "/" not in m} == {"__init__.py", "__main__.py"}
    assert {m.split("/")[0] for m in MODULES if "/" in m} == set(ALLOWED)


def test_every_layer_is_a_package_that_says_what_it_may_import():
    for layer in ALLOWED:
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text()))
        assert doc and "mport" in doc, f"{layer}/__init__.py: say what the layer may import"


def test_the_checker_sees_an_upward_import(tmp_path):
    """Guard the guard: a `_utils` module importing `_interpolate` is reported."""
    module = tmp_path / "bad.py"
    module.write_text("from .._interpolate.fit import fit\n")
    assert list(_imported_layers(module, ("_utils", "bad"))) == ["_interpolate"]
