"""Execute the notebooks: ``python notebooks/run.py [--size small|full] [NAME ...]``.

``--size full`` (the default) runs each notebook in place: its outputs and its
figures (``notebooks/figures/``) are rewritten, ready to commit.  ``--size
small`` only checks that they run: nothing committed is written (figures go to
a temporary folder).  The test suite calls `execute` the same way.

A notebook reads its size from ``SPLINES_NOTEBOOK_SIZE`` and where to save
figures from ``SPLINES_NOTEBOOK_FIGURES`` (unset, as in a Jupyter session: it
saves none); it runs with ``notebooks/`` as its working directory.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
NOTEBOOKS = sorted(HERE.glob("[0-9][0-9]_*.ipynb"))
SIZES = ("small", "full")


def execute(
    path: Path, size: str = "full", figures: Path | None = None, timeout: int = 600
) -> nbformat.NotebookNode:
    """Run every cell of ``path`` in a fresh kernel; raises on the first failing cell."""
    if size not in SIZES:
        raise ValueError(f"`size` must be one of {SIZES}; got {size!r}.")
    notebook = nbformat.read(path, as_version=4)
    environment = {
        "SPLINES_NOTEBOOK_SIZE": size,
        "SPLINES_NOTEBOOK_FIGURES": str(figures or HERE / "figures"),
    }
    saved = {name: os.environ.get(name) for name in environment}
    os.environ.update(environment)  # the kernel inherits this process's environment
    try:
        NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name="python3",
            record_timing=False,
            resources={"metadata": {"path": str(HERE)}},
        ).execute()
    finally:
        for name, value in saved.items():
            os.environ.pop(name) if value is None else os.environ.update({name: value})
    return notebook


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument("names", nargs="*", help="notebooks to run (default: all)")
    args = parser.parse_args(argv)
    paths = [(HERE / n).with_suffix(".ipynb") for n in args.names] if args.names else NOTEBOOKS
    for path in paths:
        print(f"running {path.name} ({args.size}) ...", flush=True)
        if args.size == "full":
            nbformat.write(execute(path, "full"), path)
        else:  # a check: the committed notebook and figures stay as they are
            with tempfile.TemporaryDirectory() as figures:
                execute(path, args.size, Path(figures))


if __name__ == "__main__":
    sys.exit(main())
