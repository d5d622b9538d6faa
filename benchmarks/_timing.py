"""Shared timing helpers for the benchmark scripts (DESIGN.md §7).

Rules: compile (first call) before timing, block on results with
`jax.block_until_ready` (every call, or every repeat's batch of calls: the
"blocked" and "pipelined" regimes), report the median of repeats (with the
IQR), and time peers in the same process, interleaved, so that ratios survive
a noisy machine.

    entries = {"splines": (jitted_fn, args), "peer": (other_fn, args)}
    timings = time_interleaved(entries, repeats=21)
    timings["splines"].median   # seconds per call

`write_result` writes ``benchmarks/results/<name>.json`` with the date, the
machine and the package versions.
"""

from __future__ import annotations

import dataclasses
import datetime
import importlib.metadata
import json
import os
import platform
import re
import statistics
import subprocess
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import numpy as np

RESULTS_DIR = Path(__file__).resolve().parent / "results"

# Repeats / time per repeat for full and --quick runs.
FULL = {"repeats": 21, "min_time": 0.02}
QUICK = {"repeats": 5, "min_time": 0.005}


@dataclasses.dataclass
class Timing:
    """Seconds per call: median and interquartile range over the repeats."""

    median: float
    min: float
    iqr: float
    q1: float
    q3: float
    repeats: int
    number: int  # calls per repeat (each blocked on)
    first_call: float  # seconds of the first (compiling) call

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class Failure:
    """A peer that raised when compiled or called (recorded, not fatal)."""

    error: str

    def as_dict(self) -> dict:
        return {"error": self.error}


def _call_blocked(fn: Callable, args: tuple, number: int) -> float:
    """Latency: each call waits for its result (as an optimisation loop does)."""
    start = time.perf_counter()
    for _ in range(number):
        jax.block_until_ready(fn(*args))
    return (time.perf_counter() - start) / number


def _call_pipelined(fn: Callable, args: tuple, number: int) -> float:
    """Throughput: ``number`` calls dispatched, then all waited for once."""
    start = time.perf_counter()
    jax.block_until_ready([fn(*args) for _ in range(number)])
    return (time.perf_counter() - start) / number


CALLS = {"blocked": _call_blocked, "pipelined": _call_pipelined}


def _warm(fn: Callable, args: tuple, min_time: float) -> tuple[float, int]:
    """Compile (first call), warm up, and pick calls-per-repeat ≥ ``min_time``."""
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    first = time.perf_counter() - start
    per_call = _call_blocked(fn, args, 1)
    per_call = min(per_call, _call_blocked(fn, args, 1))
    number = max(1, int(np.ceil(min_time / max(per_call, 1e-9))))
    return first, number


def _summarise(samples: list[float], number: int, first: float) -> Timing:
    q1, _, q3 = np.percentile(samples, [25, 50, 75])
    return Timing(
        median=statistics.median(samples), min=min(samples), iqr=float(q3 - q1),
        q1=float(q1), q3=float(q3), repeats=len(samples), number=number, first_call=first,
    )  # fmt: skip


def _describe(exc: BaseException) -> str:
    line = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    line = re.sub(r" at 0x[0-9a-f]+", "", line)  # no memory addresses in results
    return f"{type(exc).__name__}: {line}"[:300]


def time_interleaved(
    entries: dict[str, tuple[Callable, tuple]],
    repeats: int = FULL["repeats"],
    min_time: float = FULL["min_time"],
    verbose: bool = False,
    regime: str = "blocked",
) -> dict[str, Timing | Failure]:
    """Time each ``name: (fn, args)``; repeats are round-robin across entries.

    ``regime``: "blocked" waits for every call, "pipelined" for every
    repeat's ``number`` calls at once (see `CALLS`).

    Each entry is compiled and warmed first; one that raises becomes a
    `Failure` and the others go on.  Per repeat, an entry runs ``number``
    blocked calls (chosen so that a repeat lasts ≥ ``min_time``); the order of
    the entries rotates from one repeat to the next.
    """
    ready, out = {}, {}
    for name, (fn, args) in entries.items():
        try:
            ready[name] = (fn, args, *_warm(fn, args, min_time))
        except Exception as exc:  # noqa: BLE001 - a failing peer is a result
            if verbose:
                traceback.print_exc()
            out[name] = Failure(_describe(exc))
    samples: dict[str, list[float]] = {name: [] for name in ready}
    names = list(ready)
    for r in range(repeats):
        # Rotate the order so no entry always follows the same neighbour (a slow
        # Python loop, a cache-flushing peer) or always opens the round.
        for name in names[r % len(names) :] + names[: r % len(names)]:
            fn, args, _, number = ready[name]
            samples[name].append(CALLS[regime](fn, args, number))
    for name, (_, _, first, number) in ready.items():
        out[name] = _summarise(samples[name], number, first)
    return {name: out[name] for name in entries}  # keep the caller's order


def time_one(fn: Callable, args: tuple, **kwargs) -> Timing | Failure:
    """`time_interleaved` for a single callable."""
    return time_interleaved({"fn": (fn, args)}, **kwargs)["fn"]


# --- machine, versions, results --------------------------------------------------------


def _cpu_model() -> str:
    name = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return name or platform.machine()


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        root = Path(__file__).resolve().parent.parent
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        return commit + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def machine() -> dict:
    """Where the numbers came from."""
    device = jax.devices()[0]
    return {
        "cpu": _cpu_model(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "system": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "jax_backend": jax.default_backend(),
        "jax_device": f"{device.platform}: {device.device_kind}",
        "x64": bool(jax.config.jax_enable_x64),
        "XLA_FLAGS": os.environ.get("XLA_FLAGS"),
        "loadavg_1_5_15min": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def versions() -> dict:
    names = ["splines", "jax", "jaxlib", "numpy", "scipy", "interpax", "lineax", "equinox"]
    out = {name: _version(name) for name in names}
    out["splines_git"] = _git_commit()
    return out


def write_result(name: str, payload: dict, directory: Path = RESULTS_DIR) -> Path:
    """Write ``<directory>/<name>.json`` with date, machine and versions added."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.json"
    record = {
        "benchmark": name,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(),
        **payload,
    }
    path.write_text(json.dumps(record, indent=2, default=_jsonable) + "\n")
    return path


def _jsonable(obj: Any):
    if isinstance(obj, (Timing, Failure)):
        return obj.as_dict()
    if isinstance(obj, np.generic):
        return obj.item()
    raise TypeError(f"not JSON serialisable: {type(obj)}")


# --- formatting ------------------------------------------------------------------------


def fmt_us(t: Timing | Failure, field: str = "median") -> str:
    if isinstance(t, Failure):
        return "FAIL"
    us = getattr(t, field) * 1e6
    return f"{us:,.1f}" if us < 1e4 else f"{us:,.0f}"


def fmt_iqr(t: Timing | Failure) -> str:
    if isinstance(t, Failure):
        return ""
    return f"{100 * t.iqr / t.median:.0f}%"


def ratio(t: Timing | Failure, ref: Timing | Failure) -> float | None:
    if isinstance(t, Failure) or isinstance(ref, Failure):
        return None
    return t.median / ref.median


def fmt_ratio(r: float | None) -> str:
    return "—" if r is None else f"{r:.2f}x"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
