"""The notebooks (`notebooks/`) run from top to bottom, at their small size.

Each executes in a fresh kernel on its committed source (`notebooks/run.py`), with
its figures sent to a temporary folder: the committed notebooks and figures are
not touched.  A notebook's own assertions (accuracy against scipy, gradients,
sharded == unsharded, ...) make a failure here a failure of the library, not only
of the prose.  The committed copies must carry their outputs, and the README must
link each notebook and show figures that exist.  Their sources are for readers: each
opens with its story, needs nothing of the repository's code but the installed
package (no `benchmarks` import, no `sys.path` entry), and names no tracker issue.
"""

import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))

from run import NOTEBOOKS, execute  # noqa: E402

NAMES = [
    "01_quickstart",
    "02_gradient_descent",
    "03_batches",
    "04_benchmarks",
    "05_fitting",
    "06_scattered",
]
MAIN_FIGURES = {  # the figure of each notebook that the README shows
    "01_quickstart": "01_methods.png",
    "02_gradient_descent": "02_recovered_response.png",
    "03_batches": "03_batch_timings.png",
    "04_benchmarks": "04_speedup_vs_interpax.png",
    "05_fitting": "05_fitting.png",
    "06_scattered": "06_scattered.png",
}


# Code of the repository's own, outside the installed package: the benchmarks' helpers, or any
# module reached by a `sys.path` entry.
REPOSITORY_CODE = re.compile(r"^\s*(from|import)\s+benchmarks\b|\bsys\.path\b", re.M)
# A reference to the issue tracker: "issue 12", "PR #3", "(#12)".
TRACKER = re.compile(r"\b(issue|pr|pull request|ticket)s?\s*#?\d+|(^|[\s(\[])#\d+\b", re.I | re.M)


def sources(name):
    notebook = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    return [(i, c.cell_type, c.source) for i, c in enumerate(notebook.cells)]


def test_every_notebook_is_listed():
    assert [p.stem for p in NOTEBOOKS] == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_notebook_opens_with_its_story(name):
    (_, kind, source), *_ = sources(name)
    assert kind == "markdown" and source.startswith("# "), source[:80]


@pytest.mark.parametrize("name", NAMES)
def test_notebook_needs_only_the_installed_package(name):
    found = [(i, m.group(0).strip()) for i, kind, source in sources(name) if kind == "code"
             for m in REPOSITORY_CODE.finditer(source)]  # fmt: skip
    assert not found, found


@pytest.mark.parametrize("name", NAMES)
def test_notebook_names_no_tracker_issue(name):
    found = [(i, m.group(0).strip()) for i, _, source in sources(name)
             for m in TRACKER.finditer(source)]  # fmt: skip
    assert not found, found


def test_tracker_and_repository_code_patterns_catch_what_they_name():
    assert TRACKER.search("as issue 12 asked") and TRACKER.search("fixed in (#7)")
    assert not TRACKER.search('# 1 step, colour "#1f77b4", C0 and C1')
    assert REPOSITORY_CODE.search("from benchmarks._timing import machine")
    assert REPOSITORY_CODE.search("sys.path.insert(0, str(ROOT))")
    assert not REPOSITORY_CODE.search("import splines  # see benchmarks/ for more")


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_at_small_size(name, tmp_path):
    if name == "04_benchmarks" and not (ROOT / "benchmarks" / "results" / "cpu.json").is_file():
        pytest.skip("it plots the committed benchmark results, which a source distribution omits")
    notebook = execute(ROOT / "notebooks" / f"{name}.ipynb", "small", figures=tmp_path)
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]  # fmt: skip
    assert not errors, errors
    assert (tmp_path / MAIN_FIGURES[name]).stat().st_size > 10_000  # a real plot


@pytest.mark.skipif(
    (ROOT / "PKG-INFO").exists(), reason="a source distribution ships the notebooks' sources only"
)
@pytest.mark.parametrize("name", NAMES)
def test_committed_notebook_carries_its_outputs(name):
    notebook = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in cells), "run `python notebooks/run.py` and commit"
    counts = [c.execution_count for c in cells]
    assert counts == list(range(1, len(cells) + 1)), f"not run top to bottom: {counts}"
    assert not [o for c in cells for o in c.outputs if o.output_type == "error"]
    assert any(o.output_type == "display_data" for c in cells for o in c.outputs), "no plot"


def test_readme_links_every_notebook_and_its_figure():
    readme = (ROOT / "README.md").read_text()
    for name in NAMES:
        assert f"(notebooks/{name}.ipynb)" in readme, name
        assert f"(notebooks/figures/{MAIN_FIGURES[name]})" in readme, name
    if not (ROOT / "notebooks" / "figures").is_dir():
        return  # a source distribution omits the figures (the index page shows none)
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme):
        assert (ROOT / image).is_file(), image
