"""What a user installs: the wheel and the sdist that `hatchling` builds from this tree.

The distribution is `jax-splines` (import name `splines`); both archives carry the
license; the wheel is typed (`py.typed`); the sdist ships the package, tests, docs
and the notebooks' sources, without benchmark results or notebook outputs, in at
most 1 MB; the package index page (the README down to its marker) has no link an
index page cannot follow; every runtime dependency has a lower bound.
"""

import json
import re
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_FLOORS = ("jax", "jaxlib", "equinox", "numpy", "jaxtyping")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,), (sdist,) = out.glob("*.whl"), out.glob("*.tar.gz")
    return wheel, sdist


def _metadata(wheel):
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return Parser().parsestr(archive.read(name).decode())


def test_wheel_is_jax_splines_with_license_and_types(built):
    wheel, _ = built
    assert wheel.name.startswith("jax_splines-")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "splines/py.typed" in names and "splines/__init__.py" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not [n for n in names if not n.startswith(("splines/", "jax_splines-"))], names
    metadata = _metadata(wheel)
    assert metadata["Name"] == "jax-splines" and metadata["License-Expression"] == "Apache-2.0"


def test_every_runtime_dependency_has_a_lower_bound(built):
    requires = [r for r in _metadata(built[0]).get_all("Requires-Dist") if "extra ==" not in r]
    bounds = dict(re.match(r"([\w-]+)\s*(.*)", r).groups() for r in requires)
    assert sorted(bounds) == sorted(RUNTIME_FLOORS), bounds
    assert all(b.startswith(">=") for b in bounds.values()), bounds


def test_index_page_links_only_where_an_index_page_can_follow(built):
    description = _metadata(built[0]).get_payload()
    assert description.startswith("# splines") and "pip install jax-splines" in description
    targets = re.findall(r"\]\(([^)\s]+)\)", description) + re.findall(
        r"<img[^>]*src=\"([^\"]+)\"", description
    )
    relative = [t for t in targets if not t.startswith(("https://", "http://", "#"))]
    assert not relative, relative


def test_sdist_ships_sources_without_results_or_outputs(built):
    _, sdist = built
    assert sdist.stat().st_size <= 1_000_000, sdist.stat().st_size
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1]: m for m in archive.getmembers() if "/" in m.name}
        notebooks = {
            name: json.load(archive.extractfile(member))
            for name, member in members.items()
            if name.endswith(".ipynb")
        }
    for needed in ("LICENSE", "README.md", "splines/py.typed", "tests/conftest.py", "docs"):
        assert any(n == needed or n.startswith(needed + "/") for n in members), needed
    assert not [n for n in members if n.startswith(("benchmarks/results", "notebooks/figures"))]
    assert sorted(Path(n).stem for n in notebooks) == sorted(
        p.stem for p in (ROOT / "notebooks").glob("*.ipynb")
    )
    for name, notebook in notebooks.items():
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert code and not [c for c in code if c["outputs"] or c["execution_count"]], name


def test_citation_and_changelog_carry_the_version():
    import yaml

    import splines

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == splines.__version__ and citation["license"] == "Apache-2.0"
    released = re.findall(r"^## \[(\d[^\]]*)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert released and released[0] == splines.__version__, released


def test_sdist_tests_that_read_what_it_omits_skip(built, tmp_path):
    """From the unpacked sdist (no benchmark results, no notebook figures), the tests that
    read them pass or skip: a packager runs the suite from the sdist."""
    _, sdist = built
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (root,) = tmp_path.iterdir()
    tests = ["tests/test_notebooks.py::test_readme_links_every_notebook_and_its_figure",
             "tests/test_notebooks.py::test_notebook_runs_at_small_size[04_benchmarks]"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n0", "-q", "-p", "no:cacheprovider", *tests],
        cwd=root, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0 and "1 passed, 1 skipped" in done.stdout, done.stdout[-3000:]


def test_docs_extra_installs_on_every_supported_python(built):
    """`pip install "jax-splines[docs]"` resolves on Python 3.10: its lineax is the lineax
    extra's (0.1.0), not the test extra's 0.1.1, which requires Python 3.11."""
    requires = _metadata(built[0]).get_all("Requires-Dist")
    lineax = {
        m[2]: m[1] for r in requires if (m := re.match(r"lineax\s*(\S+);.*extra == [\"'](\w+)", r))
    }
    assert lineax["docs"] == lineax["lineax"] == ">=0.1.0", lineax


def test_contributing_set_up_commands_are_installed():
    """Each program CONTRIBUTING.md's set-up block runs is pip, python, pytest (the test
    extra) or one the same line installs first (pre-commit is in no extra)."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    (block,) = re.findall(r"## Set up.*?```bash\n(.*?)```", text, re.S)
    for line in block.splitlines():
        for command in line.split("#")[0].split("&&"):
            program = command.split()[0] if command.split() else None
            assert program in (None, "pip", "python", "pytest") or (
                f"pip install {program}" in line
            ), line
