"""Another revision of `splines`, timed beside this one in the same process (``--baseline``).

``load(rev)`` extracts ``splines/`` at a git revision into a temporary folder
as the package ``splines_baseline`` (its imports are relative, so it runs
under that name) and imports it.  ``contenders(case, module)`` builds the
case again with ``import splines`` answering that module, and keeps the
rows of our library, renamed ``… [rev]`` and checked against today's where
those have a result to compare (not a fitted module's fields).
"""

from __future__ import annotations

import importlib
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

NAME = "splines_baseline"
ROOT = Path(__file__).resolve().parents[1]


def load(rev: str):
    """The package ``splines/`` at git revision ``rev``, imported as `splines_baseline`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "splines"],
                             check=True, capture_output=True).stdout  # fmt: skip
    folder = Path(tempfile.mkdtemp(prefix="splines_baseline_"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "splines").rename(folder / NAME)
    sys.path.insert(0, str(folder))
    return importlib.import_module(NAME)


def contenders(case, module, rev: str) -> list:
    """The case's ``splines`` rows built on ``module``, named ``name [rev]``."""
    ours = importlib.import_module("splines")
    sys.modules["splines"] = module
    try:
        built = case.build()
    finally:
        sys.modules["splines"] = ours
    rows = [c for c in built if c.library == "splines"]
    for c in rows:  # checked against today's row where that row has a result to compare
        compared = c.check is not None or c is built[0]
        c.check = c.name if compared else None
        c.name, c.library = f"{c.name} [{rev}]", f"splines {rev}"
    return rows
