"""The prepared GPU benchmark runs (on CPU, at tiny sizes) and writes its results."""

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "bench_gpu.py"
CASES = (
    "copy",
    "fit B=",
    "fit+eval B=",
    "solve n=",
    "queries q=",
    "grad B=",
    "tiny n=8",
    "kernel B=",
    "kernel n=",
    "banded B=",
    "banded n=",
)


def test_gpu_benchmark_smoke_mode_runs_on_cpu(tmp_path):
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--device", "cpu", "--smoke", "--results-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    (result,) = tmp_path.glob("gpu_*_smoke.json")
    record = json.loads(result.read_text())
    cases = {row["case"] for row in record["rows"]}
    assert all(any(c.startswith(prefix) for c in cases) for prefix in CASES), cases
    splines_rows = [r for r in record["rows"] if r["name"].startswith(("splines", "registered"))]
    assert all(r["timing"]["median"] > 0 for r in splines_rows)  # none of ours failed
    assert record["accuracy"] <= 2e-6  # f32 against scipy (docs/architecture.md §4)
    assert record["copy_GB_per_s"] > 0
    assert (tmp_path / result.name.replace(".json", ".md")).read_text().startswith("device: cpu")
