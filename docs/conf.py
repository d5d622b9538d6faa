"""Sphinx configuration: ``sphinx-build -W --keep-going -b html docs docs/_build/html``.

Why this stack: autodoc/autosummary + numpydoc render the API from the numpydoc docstrings;
myst-parser reads the Markdown pages and guides; myst-nb renders the notebooks from their
committed outputs without executing them; the PyData theme is numpy's, scipy's and JAX's.
No intersphinx: the build reaches no network (tests/test_docs.py runs it, -W).
"""

import shutil
from pathlib import Path

import splines

DOCS = Path(__file__).resolve().parent
NOTEBOOKS = DOCS.parent / "notebooks"
# Where the notebooks are copied at build time (git-ignored): Sphinx reads only files
# under docs/, and the notebooks stay where notebooks/run.py writes them.
NOTEBOOK_COPIES = DOCS / "_notebooks"

project = "splines"
author = "The splines developers"
copyright = "The splines developers"
version = release = splines.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",  # loads myst_parser for the .md pages
]

exclude_patterns = ["_build", "**.ipynb_checkpoints"]
templates_path = ["_templates"]

# -- API pages: a stub per public name (docs/generated/, git-ignored) -------------------
autosummary_generate = True
# The docstrings state the types (numpydoc's Parameters); jaxtyping's annotations would
# fill a signature with `Union[Float[Array, 'n'], Float[ndarray, 'n']]`.
autodoc_typehints = "none"
autodoc_member_order = "bysource"
# A member without its own docstring is left out: `Tridiagonal`'s lineax interface
# (init, compute, ...) would otherwise show lineax's Markdown docstrings.
autodoc_inherit_docstrings = False
# numpydoc's own member tables need stubs for every field; the class template lists them.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# `name` in a docstring: a link where the name is documented here, else plain code (no
# warning: jax's and scipy's names have no inventory in an offline build).
default_role = "autolink"

# -- Markdown and notebooks ---------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath", "deflist", "html_image"]
myst_heading_anchors = 3
nb_execution_mode = "off"  # render the committed outputs
nb_merge_streams = True

# -- HTML ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"splines {release}"
html_theme_options = {"show_toc_level": 2}


def copy_notebooks(app) -> None:
    """Mirror notebooks/NN_*.ipynb and notebooks/figures/ into docs/_notebooks/.

    A file is rewritten only when its bytes changed, so an incremental build re-reads
    only the notebooks that did; copies whose original is gone are removed.
    """
    wanted = {path.name: path for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))}
    wanted.update(
        {f"figures/{path.name}": path for path in sorted((NOTEBOOKS / "figures").glob("*"))}
    )
    for name, source in wanted.items():
        target = NOTEBOOK_COPIES / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)
    for target in NOTEBOOK_COPIES.rglob("*"):
        if target.is_file() and target.relative_to(NOTEBOOK_COPIES).as_posix() not in wanted:
            target.unlink()


def remove_api_stubs(app) -> None:
    """Empty docs/generated/ before autosummary writes it: a stub left from a name that
    api.rst no longer lists would be a page in no toctree (a warning, so an error)."""
    shutil.rmtree(DOCS / "generated", ignore_errors=True)


def setup(app):
    # Before autosummary's builder-inited handler (priority 500) and the reading of sources.
    app.connect("builder-inited", copy_notebooks, priority=400)
    app.connect("builder-inited", remove_api_stubs, priority=400)
