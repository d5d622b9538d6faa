"""The benchmark harness runs and reports (its plumbing, at tiny sizes: no timing is tested).

`python -m benchmarks --smoke` builds every suite's cases at tiny sizes, times
each contender once, and writes the JSON; the targets and plots are checked
on records made up here, since smoke numbers mean nothing.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import _report, _timing  # noqa: E402
from benchmarks.run import SUITES, _suite  # noqa: E402

# No timing is tested, and XLA's compiles are most of a smoke run: its backend compiles
# at -O0 (a third less compile time; the same results, to rounding).
XLA_FLAGS = os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0"


def harness(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=cwd,
                          env=os.environ | {"XLA_FLAGS": XLA_FLAGS}, capture_output=True,
                          text=True, timeout=600)  # fmt: skip


def test_every_suite_declares_cases_in_every_mode():
    for mode in ("full", "quick", "smoke"):
        cases = [case for suite in SUITES for case in _suite(suite).cases(mode)]
        assert {case.suite for case in cases} == set(SUITES)
        names = [(case.suite, case.name) for case in cases]
        assert len(set(names)) == len(names), "case names repeat within a suite"
        for case in cases:
            assert set(case.regimes) <= set(_timing.CALLS)
            assert all(t.regime in case.regimes for t in case.targets), case.name


def test_smoke_run_of_every_suite(tmp_path):
    """One ``--smoke`` run of all the suites (each named by a repeated ``--only``), then
    each suite's records checked on their own.

    One process instead of one per suite: jax, the peers and matplotlib start once.
    The per-suite checks name the suite (and case) they fail on.
    """
    only = [arg for suite in SUITES for arg in ("--only", suite)]
    run = harness("--smoke", *only, "--results-dir", str(tmp_path))
    assert run.returncode == 0, run.stderr[-3000:]
    record = json.loads((tmp_path / f"cpu_{'_'.join(SUITES)}_smoke.json").read_text())
    assert record["machine"]["cpu_count"] and record["versions"]["jax"]
    for suite in SUITES:
        cases = [case for case in record["cases"] if case["suite"] == suite]
        assert cases, f"{suite}: no case ran"
        for case in cases:
            for row in case["rows"]:
                if row["library"] == "splines":  # none of ours fails
                    assert all(t["median"] > 0 for t in row["timings"].values()), (suite, row)
                if row["max_rel_diff"] is not None:  # the contenders compute the same thing
                    assert row["max_rel_diff"] < 1e-4, (suite, case["case"], row["name"])
        assert f"### {suite}:" in run.stdout, suite


def test_script_form_lists_every_suite(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--list"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert {line.split()[0] for line in run.stdout.splitlines()} == set(SUITES)


def _record(case, x, medians, targets=()):
    timing = lambda m: _timing.Timing(m, m, 0.0, m, m, 1, 1, 0.0)  # noqa: E731
    return {
        "suite": "s", "case": case, "params": {"n": x}, "dtype": "float32",
        "regimes": ["blocked"], "baseline": "ours", "sweep": "by n", "x": "n",
        "targets": list(targets),
        "rows": [{"name": name, "library": name, "timings": {"blocked": timing(m)},
                  "ratio": {"blocked": None}, "max_rel_diff": None}
                 for name, m in medians.items()],
    }  # fmt: skip


def test_targets_are_ratios_to_the_fastest_denominator():
    target = {"description": "2x faster", "numerator": "ours", "denominators": ["a", "b", "c"],
              "bound": 0.5, "regime": "blocked"}  # fmt: skip
    met, missed = (_record("k", 1, {"ours": m, "a": 4.0, "b": 2.0}, [target]) for m in (1.0, 1.5))
    (first,), (second,) = _report.evaluate_targets([met]), _report.evaluate_targets([missed])
    assert (first["value"], first["met"]) == (0.5, True)  # "c" is missing: left out
    assert (second["value"], second["met"]) == (0.75, False)
    broken = _record("k", 1, {"ours": 1.0}, [target])  # no denominator at all
    (third,) = _report.evaluate_targets([broken])
    assert third["value"] is None and third["met"] is None


def test_one_plot_per_sweep(tmp_path):
    records = [_record(f"n={n}", n, {"ours": n * 1e-6, "peer": 2 * n * 1e-6}) for n in (8, 64)]
    records.append(_record("alone", 1, {"ours": 1.0}) | {"sweep": None})
    (path,) = _report.plot_sweeps(records, tmp_path, "cpu")
    assert path.name == "cpu_s_by_n.png" and path.stat().st_size > 1000
