"""The tree is linted and formatted by ruff with the configuration in pyproject.toml."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=" ".join)
def test_ruff_passes_on_the_tree(command):
    ruff = shutil.which("ruff")
    assert ruff, "ruff is in the test extra: pip install -e '.[test]'"
    done = subprocess.run([ruff, *command, "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
