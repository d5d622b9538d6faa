"""``python -m compat interpax|scipy [--tests DIR] [pytest arguments]``: a peer's tests on ours.

interpax: the tests of the installed interpax's source release (downloaded once
with pip into ``~/.cache/splines-compat``), or those in ``--tests DIR``.  scipy:
the installed scipy's tests of the classes `splines` mirrors (`SCIPY_TESTS`).
Prints pytest's summary: each failure is a place where ported code would break.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

CACHE = Path.home() / ".cache" / "splines-compat"
ROOT = Path(__file__).resolve().parents[1]
# The scipy tests of CubicSpline, CubicHermiteSpline, PchipInterpolator,
# Akima1DInterpolator and PPoly, as `module::selection` for ``-k``.
SCIPY_TESTS = {
    "test_polyint.py": "TestPCHIP or TestCubicSpline or CubicHermiteSpline or gh_11185",
    "test_interpolate.py": "TestAkima1DInterpolator or TestPPolyCommon or TestPPoly and not "
    "TestPPolyCalculus",
}


def interpax_tests() -> Path:
    """The tests folder of the installed interpax version's sdist."""
    version = metadata.version("interpax")
    folder = CACHE / f"interpax-{version}"
    if not (folder / "tests").is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", f"interpax=={version}",
                        "--no-binary", ":all:", "--no-deps", "-q", "-d", str(CACHE)],
                       check=True)  # fmt: skip
        with tarfile.open(CACHE / f"interpax-{version}.tar.gz") as tar:
            tar.extractall(CACHE, filter="data")
    return folder / "tests"


def _pytest(args: list, peer: str, cwd: Path) -> int:
    env = {
        **os.environ,
        "SPLINES_COMPAT_PEER": peer,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "pytest", "-p", "compat.alias", "-p", "no:cacheprovider",
               "-p", "no:benchmark", "-q", "-rfE", "--tb=line", *args]  # fmt: skip
    return subprocess.run(command, cwd=cwd, env=env).returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compat", description=__doc__)
    parser.add_argument("peer", choices=["interpax", "scipy"])
    parser.add_argument("--tests", type=Path, help="interpax: a tests folder to run instead")
    args, rest = parser.parse_known_args(argv)
    if args.peer == "interpax":
        source = args.tests or interpax_tests()
        work = CACHE / "run-interpax"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(source, work / "tests")
        return _pytest(["-c", os.devnull, "--rootdir", str(work), "tests", *rest], "interpax",
                       work)  # fmt: skip
    import scipy.interpolate

    tests = Path(scipy.interpolate.__file__).parent / "tests"
    status = 0
    for module, selection in SCIPY_TESTS.items():
        status |= _pytest(
            [
                "-c",
                os.devnull,
                "--rootdir",
                str(tests.parents[1]),
                str(tests / module),
                "-k",
                selection,
                *rest,
            ],
            "scipy",
            tests,
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
