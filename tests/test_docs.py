"""The documentation (`docs/`) builds without a warning, and its getting-started page runs.

The build is `sphinx-build -W --keep-going -b html docs OUT`, as a reader of docs/conf.py
would run it, in a fresh process (it imports `splines` through autodoc; the notebooks are
rendered from their committed outputs, not executed). It needs the `docs` extra
(`pip install -e ".[docs]"`). The getting-started page's ```python blocks run in order as
one script, in a fresh process with jax's defaults, as a reader who copies them would.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import splines

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GETTING_STARTED = DOCS / "getting-started.md"
TIMEOUT_S = 600  # the build takes ~10-25 s and the page ~15-50 s on 2 busy cores

# A fenced block: its opening fence (``` or more, or ~~~) and info string, up to the
# same fence. The page's python blocks are those whose info string is exactly `python`.
FENCE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.S | re.M
)


def clean_env() -> dict[str, str]:
    """This process's environment without the settings that would change jax's defaults."""
    return {k: v for k, v in os.environ.items() if k not in ("JAX_ENABLE_X64", "XLA_FLAGS")}


def test_docs_build_without_warnings(tmp_path):
    out = tmp_path / "html"  # myst-nb writes the notebooks' images beside it
    options = ["-W", "--keep-going", "-q", "-b", "html"]  # -q: only the warnings print
    command = [sys.executable, "-m", "sphinx", *options, str(DOCS), str(out)]
    done = subprocess.run(
        command, cwd=ROOT, env=clean_env(), text=True, capture_output=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 0, (
        f"sphinx-build failed ({done.returncode}); its warnings:\n{done.stderr[-12000:]}"
        f"\n{done.stdout[-3000:]}"
    )
    html = "\n".join(page.read_text() for page in out.rglob("*.html"))
    missing = [name for name in splines.__all__ if f'id="splines.{name}"' not in html]
    assert not missing, f"no API entry for {missing}: add them to docs/api.rst"
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    rendered = sorted(p.stem for p in (out / "_notebooks").glob("*.html"))
    assert rendered == notebooks


def test_getting_started_runs_as_one_script(tmp_path):
    text = GETTING_STARTED.read_text()
    parts = []
    for m in FENCE.finditer(text):
        if m["info"].strip() == "python":
            line = text.count("\n", 0, m.start()) + 2
            parts.append(f"# --- getting-started.md, line {line}\n{m['body']}")
    assert len(parts) >= 8, "the getting-started page lost its python blocks"
    script = "\n".join(parts)
    compile(script, str(GETTING_STARTED), "exec")  # a syntax error names the page first
    path = tmp_path / "getting_started.py"
    path.write_text(script)
    done = subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        env=clean_env(),
        text=True,
        capture_output=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    # The page turns on x64 before its scipy-style classes: they must not warn.
    assert "X64DisabledWarning" not in done.stderr, done.stderr[-3000:]
