"""The benchmark harness: every suite, timed against its peers, reported.

    python -m benchmarks                  # full run → results/<platform>.json and plots
    python -m benchmarks --quick          # ≤ 2 minutes on 2 cores → results/<platform>_quick.*
    python -m benchmarks --only interp1d  # one suite (repeatable)
    python -m benchmarks --list           # the suites and their cases, nothing run
    python -m benchmarks --baseline REV   # also our rows at git revision REV, same process

(``python benchmarks/run.py`` is the same.)  Each case times its contenders in
this process, interleaved (`_timing`: compiled first, medians of repeats,
IQR), in the regimes it names: "blocked" waits for every call (latency, as
in an optimisation loop), "pipelined" for a batch of calls (throughput).
Tables go to stdout, a progress bar to stderr, and the JSON (machine,
versions, date, every median and IQR, the targets) and the PNG plots to
``benchmarks/results/``.  float32 cases run first; float64 ones then enable
jax's x64 (a jitted function's cache is keyed on it).  A peer that is not
installed is reported once and its rows are left out (``pip install -e
".[bench]"`` installs them all).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    __package__ = "benchmarks"

import jax  # noqa: E402
import numpy as np  # noqa: E402

from . import _baseline  # noqa: E402
from . import _report as R  # noqa: E402
from . import _timing as T  # noqa: E402

SUITES = ("tridiagonal", "interp1d", "batch", "grad", "dispatch", "grid", "fitting", "scattered")
BUDGETS = {"full": T.FULL, "quick": T.QUICK, "smoke": {"repeats": 1, "min_time": 0.0}}
PEERS = ("interpax", "lineax", "scipy")


def main(argv=None) -> int:
    args = _parse(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    suites = args.only or list(SUITES)
    cases = [c for name in suites for c in _suite(name).cases(mode)]
    cases.sort(key=lambda c: c.dtype != "float32")  # stable: f32 first, then x64 on
    if args.list:
        for c in cases:
            print(f"{c.suite:12s} {c.name}  ({c.dtype}, {', '.join(c.regimes)})")
        return 0
    _report_missing_peers()
    m = T.machine()
    print(f"# benchmarks ({mode}) on {m['cpu']}, {m['cpu_count']} CPUs "
          f"(affinity {m['affinity']}), jax {jax.__version__} {m['jax_backend']}, "
          f"load average {m['loadavg_1_5_15min']}")  # fmt: skip
    baseline = _baseline.load(args.baseline) if args.baseline else None
    records, progress = [], _Progress(len(cases))
    for case in cases:
        if case.dtype == "float64":
            jax.config.update("jax_enable_x64", True)
        progress.step(f"{case.suite}: {case.name}")
        extra = _baseline.contenders(case, baseline, args.baseline) if baseline else []
        record = run_case(case, BUDGETS[mode], args.verbose, extra)
        R.print_case(record)
        records.append(record)
    progress.done()
    targets = R.evaluate_targets(records)
    R.print_targets(targets)
    stem = _stem(mode, args.only) + ("_vs_" + args.baseline if args.baseline else "")
    directory = Path(args.results_dir) if args.results_dir else T.RESULTS_DIR
    path = T.write_result(stem, {"mode": mode, "budget": BUDGETS[mode], "suites": suites,
                                 "baseline": args.baseline,
                                 "cases": records, "targets": targets},
                          directory=directory)  # fmt: skip
    plots = R.plot_sweeps(records, directory, stem)
    print(f"\nwrote {path}" + "".join(f"\nwrote {p}" for p in plots))
    return 0


def run_case(case, budget: dict, verbose: bool = False, extra=()) -> dict:
    """Time a case's contenders (and ``extra`` ones) in each of its regimes, interleaved;
    compare their results."""
    contenders = {c.name: c for c in [*case.build(), *extra]}
    timings = {
        regime: T.time_interleaved(
            {n: (c.fn, c.args) for n, c in contenders.items()},
            verbose=verbose,
            regime=regime,
            **budget,
        )  # fmt: skip
        for regime in case.regimes
    }
    baseline = case.baseline or next(iter(contenders))
    outputs = {}
    rows = []
    for name, c in contenders.items():
        row_timings = {regime: timings[regime][name] for regime in case.regimes}
        rows.append({
            "name": name, "library": c.library, "timings": row_timings,
            "ratio": {r: T.ratio(row_timings[r], timings[r][baseline]) for r in case.regimes},
            "max_rel_diff": _difference(c, contenders, outputs, row_timings),
        })  # fmt: skip
    return {
        "suite": case.suite, "case": case.name, "params": case.params, "dtype": case.dtype,
        "regimes": list(case.regimes), "baseline": baseline, "sweep": case.sweep, "x": case.x,
        "rows": rows, "targets": [vars(t) for t in case.targets],
    }  # fmt: skip


def _difference(contender, contenders, outputs, timings) -> float | None:
    """max|this − check| / max|check| (None: nothing to compare, or a failure)."""
    if contender.check is None or any(isinstance(t, T.Failure) for t in timings.values()):
        return None
    try:
        ours, ref = (_output(contenders[n], outputs) for n in (contender.name, contender.check))
    except Exception:  # noqa: BLE001 - the reference failed: recorded in its own row
        return None
    scale = np.max(np.abs(ref)) if ref.size else 0.0
    return float(np.max(np.abs(ours - ref)) / scale) if scale else 0.0


def _output(contender, cache: dict) -> np.ndarray:
    """The contender's result as one flat float64 array (computed once)."""
    if contender.name not in cache:
        leaves = jax.tree.leaves(contender.fn(*contender.args))
        cache[contender.name] = np.concatenate(
            [np.ravel(np.asarray(leaf, np.complex128 if np.iscomplexobj(leaf) else np.float64))
             for leaf in leaves])  # fmt: skip
    return cache[contender.name]


def _suite(name: str):
    return importlib.import_module(f".suites.{name}", __package__)


def _stem(mode: str, only) -> str:
    stem = jax.default_backend()
    if only:
        stem += "_" + "_".join(only)
    return stem + ("" if mode == "full" else f"_{mode}")


def _report_missing_peers() -> None:
    for peer in PEERS:
        if importlib.util.find_spec(peer) is None:
            print(f"{peer} is not installed: its rows are skipped (pip install -e '.[bench]')")


class _Progress:
    """``[####......] 3/40 suite: case (1m05s)`` on stderr, redrawn in place on a terminal."""

    def __init__(self, total: int):
        self.total, self.count, self.start = total, 0, time.perf_counter()
        self.tty = sys.stderr.isatty()

    def step(self, label: str) -> None:
        self.count += 1
        filled = round(20 * (self.count - 1) / max(self.total, 1))
        elapsed = time.perf_counter() - self.start
        line = (f"[{'#' * filled}{'.' * (20 - filled)}] {self.count}/{self.total} {label} "
                f"({int(elapsed // 60)}m{int(elapsed % 60):02d}s)")  # fmt: skip
        print(("\r\033[K" if self.tty else "") + line, end="" if self.tty else "\n",
              file=sys.stderr, flush=True)  # fmt: skip

    def done(self) -> None:
        elapsed = time.perf_counter() - self.start
        end = "\n" if self.tty else ""
        print(f"{end}done: {self.total} cases in {elapsed:.0f} s", file=sys.stderr, flush=True)


def _parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats (≤ 2 min)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one repeat (plumbing)")
    parser.add_argument(
        "--only",
        action="append",
        choices=SUITES,
        metavar="SUITE",
        help=f"run this suite only (repeatable): {', '.join(SUITES)}",
    )
    parser.add_argument("--list", action="store_true", help="list the cases; run nothing")
    parser.add_argument("--results-dir", default=None, help="where JSON and plots go")
    parser.add_argument(
        "--baseline",
        default=None,
        metavar="REV",
        help="also time our rows at this git revision, in the same process",
    )
    parser.add_argument("--verbose", action="store_true", help="tracebacks of failures")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(main())
