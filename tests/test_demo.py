"""`python -m splines` — the README's main job — runs and reaches scipy's answer."""

import re
import subprocess
import sys


def test_demo_fits_the_least_squares_spline(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "splines"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    losses = [float(v) for v in re.findall(r"loss ([\d.]+)", done.stdout)]
    assert losses[-1] < 0.05 * losses[0]
    gap = float(re.search(r"scipy least squares\|: ([\d.e+-]+)", done.stdout).group(1))
    assert gap < 1e-6
    assert (tmp_path / "splines_demo.png").stat().st_size > 10_000
