"""The guide pages (`docs/guides/`) run as written, and their index lists them all.

Every ```python block of a page runs, in order, as one script (later blocks use the
names of earlier ones), in a fresh Python process: a page starts where a reader starts,
with jax's defaults (x64 off unless the page turns it on; the suite's conftest turns it
on in this process), and one page's jax settings, warnings shown once per process or
virtual devices cannot leak into another page or into the rest of the suite.
A page's own ``assert`` statements make a wrong claim in its prose a failure here.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDES = ROOT / "docs" / "guides"
PAGES = sorted(p.stem for p in GUIDES.glob("*.md") if p.stem != "index")
TIMEOUT_S = 300  # a page is meant to run in well under 10 s; this only stops a hang

# A fenced block: its opening fence (``` or more, or ~~~) and info string, up to the
# same fence. A page's python blocks are those whose info string is exactly `python`.
FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$",
                   re.S | re.M)  # fmt: skip


def python_blocks(text: str) -> list[str]:
    return [m["body"] for m in FENCE.finditer(text) if m["info"].strip() == "python"]


def toctree_entries(text: str) -> list[str]:
    """The entries of the page's ``{toctree}`` directives (options and blanks dropped)."""
    entries = []
    for m in FENCE.finditer(text):
        if m["info"].strip().startswith("{toctree}"):
            lines = (line.strip() for line in m["body"].splitlines())
            entries += [line for line in lines if line and not line.startswith(":")]
    return entries


def script_of(page: str) -> str:
    """The page's python blocks as one script, each under a comment naming its line."""
    text = (GUIDES / f"{page}.md").read_text()
    parts = []
    for m in FENCE.finditer(text):
        if m["info"].strip() == "python":
            line = text.count("\n", 0, m.start()) + 2
            parts.append(f"# --- {page}.md, line {line}\n{m['body']}")
    return "\n".join(parts)


def test_the_guides_are_there():
    assert len(PAGES) >= 9, PAGES
    assert (GUIDES / "index.md").is_file()


def test_index_lists_every_page_once():
    entries = toctree_entries((GUIDES / "index.md").read_text())
    assert sorted(entries) == PAGES, f"toctree {entries} against the pages {PAGES}"
    assert len(set(entries)) == len(entries), entries


@pytest.mark.parametrize("page", ["index", *PAGES])
def test_page_has_one_title_and_links_that_exist(page):
    text = (GUIDES / f"{page}.md").read_text()
    prose = FENCE.sub("", text)
    titles = re.findall(r"^# \S.*$", prose, re.M)
    assert len(titles) == 1 and prose.lstrip().startswith("# "), titles
    for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", prose):
        assert (GUIDES / target).is_file(), f"{page}.md links to a missing {target}"


@pytest.mark.parametrize("page", PAGES)
def test_page_code_runs_as_one_script(page, tmp_path):
    script = script_of(page)
    assert python_blocks((GUIDES / f"{page}.md").read_text()), f"{page}.md has no python block"
    compile(script, f"{page}.md", "exec")  # a syntax error names the page first
    path = tmp_path / f"{page}.py"
    path.write_text(script)
    env = {k: v for k, v in os.environ.items() if k not in ("JAX_ENABLE_X64", "XLA_FLAGS")}
    done = subprocess.run([sys.executable, str(path)], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=TIMEOUT_S)  # fmt: skip
    assert done.returncode == 0, f"{page}.md:\n{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
