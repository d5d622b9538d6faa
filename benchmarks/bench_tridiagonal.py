"""CPU benchmark: `splines.tridiagonal_solve` against its peers, plus an unroll sweep.

    python benchmarks/bench_tridiagonal.py          # full → results/tridiagonal_cpu.json
    python benchmarks/bench_tridiagonal.py --quick  # → results/tridiagonal_cpu_quick.json
    python benchmarks/bench_tridiagonal.py --no-sweep

Contenders, each given its inputs in its own native layout (built outside the
timing) and timed after compiling, interleaved in one process:

- `splines.tridiagonal_solve(lower, diag, upper, rhs)`: lower/upper (B, n-1),
  diag/rhs (B, n); the batch goes into the scan's lanes.  Timed both ways:
  the default `pivoting=True` (partial pivoting as gtsv, kernel
  `splines_gtsv_scan`) and `pivoting=False` (Thomas, `splines_thomas_scan`).
  The systems are diagonally dominant so that both apply; the pivoting kernel
  is branch-free (selects), so its time does not depend on how often it swaps.
- `jax.lax.linalg.tridiagonal_solve(dl, d, du, b)`: dl/d/du (B, n) with
  dl[..., 0] = du[..., -1] = 0, b (B, n, 1); LAPACK gtsv on CPU (a loop over
  systems inside the custom call).
- lineax `Tridiagonal` (`linear_solve` on a `TridiagonalLinearOperator`,
  vmapped over the batch; default `throw=True`).
- scipy `solve_banded((1, 1), ab, b)` in a Python loop over the systems.

"GB/s" is 5 arrays × n × B × itemsize / median time (the four inputs read and
the solution written once): a roofline-style figure for context, not a claim
about what each solver touches.  "max rel Δ" is max|x − x_splines| / max|x_splines|.

The unroll sweep runs once per kernel (`splines._kernels.thomas_scan` for
`pivoting=False`, `splines._kernels.gtsv_scan` for `pivoting=True`).  It sets
both `_UNROLL_ONE_SYSTEM` and `_UNROLL_BATCH` of that kernel's module (the
library picks one by the number of systems, see `unroll_for`) to each value,
clears JAX's caches, lowers and AOT-compiles `splines.tridiagonal_solve` with
that `pivoting` for each value, checks in the lowered program that each
scan's `while` trip count is ceil(n / unroll) (the kernels pad n to a multiple
of the unroll; so the value really took effect), then times all values
interleaved.  It also counts the scan loops that XLA:CPU compiled as one
native function (`xla_cpu_small_call`: its small-while-loop hoisting, which
depends on the loop body's size and so on the unroll and the batch); loops left
out of it pay a runtime step per trip.  The library's value is restored
afterwards.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)  # for the f64 cases; f32 arrays stay f32

import numpy as np  # noqa: E402

import _timing as T  # noqa: E402

REFERENCE = "splines.tridiagonal_solve"
NO_PIVOTING = "splines.tridiagonal_solve(pivoting=False)"
UNROLLS = (1, 2, 4, 8, 16, 32)
# Sweep name → (kernel module under splines._kernels, the `pivoting` that selects it).
SWEEP_KERNELS = {"thomas": ("thomas_scan", False), "gtsv": ("gtsv_scan", True)}
CASES = {
    # name: (batch or None, n, dtype)
    "n=1e5 f32": (None, 100_000, "float32"),
    "n=1e5 f64": (None, 100_000, "float64"),
    "B=1000 n=256 f32": (1000, 256, "float32"),
    "B=1000 n=256 f64": (1000, 256, "float64"),
    "B=100 n=1000 f32": (100, 1000, "float32"),
    "B=100 n=1000 f64": (100, 1000, "float64"),
}


def make_system(batch, n, dtype, seed=0):
    """Diagonally dominant random systems (so that Thomas applies too)."""
    rng = np.random.default_rng(seed)
    lead = () if batch is None else (batch,)
    lower = rng.uniform(-1, 1, lead + (n - 1,))
    upper = rng.uniform(-1, 1, lead + (n - 1,))
    diag = 2.5 + rng.uniform(0, 1, lead + (n,))
    rhs = rng.normal(size=lead + (n,))
    return tuple(np.asarray(a, dtype) for a in (lower, diag, upper, rhs))


def _splines_solve(lower, diag, upper, rhs, pivoting=True):
    import splines

    return splines.tridiagonal_solve(lower, diag, upper, rhs, pivoting=pivoting)


def _splines_solve_no_pivoting(lower, diag, upper, rhs):
    return _splines_solve(lower, diag, upper, rhs, pivoting=False)


def _lapack_layout(lower, diag, upper, rhs):
    zero = np.zeros(lower.shape[:-1] + (1,), lower.dtype)
    dl = np.concatenate([zero, lower], axis=-1)
    du = np.concatenate([upper, zero], axis=-1)
    return dl, diag, du, rhs[..., None]


def _lax_solve(dl, d, du, b):
    return jax.lax.linalg.tridiagonal_solve(dl, d, du, b)[..., 0]


def _lineax_solve(lower, diag, upper, rhs):
    import lineax as lx

    operator = lx.TridiagonalLinearOperator(diag, lower, upper)
    return lx.linear_solve(operator, rhs, lx.Tridiagonal()).value


def _scipy_layout(lower, diag, upper, rhs):
    ab = np.zeros(diag.shape[:-1] + (3, diag.shape[-1]), diag.dtype)
    ab[..., 0, 1:] = upper  # scipy's banded storage: ab[u + i - j, j] = A[i, j]
    ab[..., 1, :] = diag
    ab[..., 2, :-1] = lower
    return ab, rhs


def _scipy_solve(ab, rhs):
    from scipy.linalg import solve_banded

    if ab.ndim == 2:
        return solve_banded((1, 1), ab, rhs, check_finite=False)
    return np.stack([solve_banded((1, 1), a, b, check_finite=False) for a, b in zip(ab, rhs)])


def entries_for(system, batched):
    dev = lambda arrays: tuple(jax.device_put(a) for a in arrays)  # noqa: E731
    lineax = jax.vmap(_lineax_solve) if batched else _lineax_solve
    return {
        REFERENCE: (jax.jit(_splines_solve), dev(system)),
        NO_PIVOTING: (jax.jit(_splines_solve_no_pivoting), dev(system)),
        "lax.linalg.tridiagonal_solve (LAPACK gtsv)": (
            jax.jit(_lax_solve), dev(_lapack_layout(*system))),
        "lineax Tridiagonal (vmap)" if batched else "lineax Tridiagonal": (
            jax.jit(lineax), dev(system)),
        "scipy solve_banded" + (" (loop)" if batched else ""): (
            _scipy_solve, _scipy_layout(*system)),
    }  # fmt: skip


def _bytes(batch, n, dtype):
    return 5 * n * (batch or 1) * np.dtype(dtype).itemsize


def run_case(name, budget, verbose):
    batch, n, dtype = CASES[name]
    system = make_system(batch, n, dtype)
    entries = entries_for(system, batch is not None)
    timings = T.time_interleaved(entries, verbose=verbose, **budget)
    reference = np.asarray(entries[REFERENCE][0](*entries[REFERENCE][1]), np.float64)
    scale = np.max(np.abs(reference))
    rows = []
    for key, (fn, args) in entries.items():
        t = timings[key]
        diff = None
        if not isinstance(t, T.Failure):
            out = np.asarray(fn(*args), np.float64).reshape(reference.shape)
            diff = float(np.max(np.abs(out - reference)) / scale)
        gbs = None if isinstance(t, T.Failure) else _bytes(batch, n, dtype) / t.median / 1e9
        rows.append({
            "name": key, "timing": t, "ratio_to_splines": T.ratio(t, timings[REFERENCE]),
            "GB_per_s": gbs, "max_rel_diff_vs_splines": diff,
        })  # fmt: skip
    return {"case": name, "batch": batch, "n": n, "dtype": dtype,
            "bytes": _bytes(batch, n, dtype), "rows": rows}  # fmt: skip


def print_case(case):
    print(f"\n### {case['case']}\n")
    rows = []
    for r in case["rows"]:
        t = r["timing"]
        if isinstance(t, T.Failure):
            note, gbs = t.error[:90], ""
        else:
            note, gbs = f"{r['max_rel_diff_vs_splines']:.1e}", f"{r['GB_per_s']:.2f}"
        rows.append([r["name"], T.fmt_us(t), T.fmt_us(t, "min"), T.fmt_iqr(t),
                     T.fmt_ratio(r["ratio_to_splines"]), gbs, note])  # fmt: skip
    header = ["contender", "median µs", "min µs", "IQR", "ratio to splines", "GB/s",
              "max rel Δ / error"]  # fmt: skip
    print(T.markdown_table(header, rows))


# --- _UNROLL sweep ------------------------------------------------------------------------


def _trip_counts(lowered_text):
    """Trip counts of the `while` loops in a lowered program (scan length // unroll)."""
    pattern = r"cond \{\s*%\S+ = stablehlo\.constant dense<(\d+)>"
    return [int(m) for m in re.findall(pattern, lowered_text)]


def sweep_unroll(names, budget, verbose, kernel="thomas"):
    import importlib

    module, pivoting = SWEEP_KERNELS[kernel]
    kmod = importlib.import_module(f"splines._kernels.{module}")
    solve = _splines_solve if pivoting else _splines_solve_no_pivoting
    original = (kmod._UNROLL_ONE_SYSTEM, kmod._UNROLL_BATCH)
    results = []
    try:
        for name in names:
            batch, n, dtype = CASES[name]
            args = tuple(jax.device_put(a) for a in make_system(batch, n, dtype))
            compiled, checks, small = {}, {}, {}
            # The library's value (read before the loop below overwrites the module's).
            default = original[0] if (batch or 1) == 1 else original[1]
            for unroll in UNROLLS:
                kmod._UNROLL_ONE_SYSTEM = kmod._UNROLL_BATCH = unroll
                jax.clear_caches()  # the kernel's jit and the primitive's lowering re-trace
                lowered = jax.jit(solve).lower(*args)
                trips = _trip_counts(lowered.as_text())
                expected = -(-n // unroll) if unroll < n else None
                ok = (not trips) if expected is None else bool(trips) and all(
                    t == expected for t in trips)  # fmt: skip
                if not ok:
                    raise RuntimeError(
                        f"unroll={unroll} did not take effect for {name}: while-loop trip "
                        f"counts {trips}, expected {expected}.")  # fmt: skip
                checks[unroll] = trips
                executable = lowered.compile()
                small[unroll] = executable.as_text().count('xla_cpu_small_call="true"')
                compiled[f"unroll={unroll}"] = (executable, args)
            timings = T.time_interleaved(compiled, verbose=verbose, **budget)
            reference = np.asarray(compiled[f"unroll={default}"][0](*args), np.float64)
            diffs = {k: float(np.max(np.abs(np.asarray(fn(*a), np.float64) - reference))
                              / np.max(np.abs(reference))) for k, (fn, a) in compiled.items()}
            best = min((k for k in timings if not isinstance(timings[k], T.Failure)),
                       key=lambda k: timings[k].median)  # fmt: skip
            results.append({
                "kernel": kernel, "case": name, "batch": batch, "n": n, "dtype": dtype,
                "best": best,
                "library_default": f"unroll={default}",
                "trip_counts": {str(k): v for k, v in checks.items()},
                "rows": [{"unroll": int(k.split("=")[1]), "timing": t,
                          "small_call_loops": small[int(k.split("=")[1])],
                          "max_rel_diff_vs_default": diffs[k],
                          "ratio_to_default": T.ratio(t, timings[f"unroll={default}"])
                          if f"unroll={default}" in timings else None}
                         for k, t in timings.items()],
            })  # fmt: skip
    finally:
        kmod._UNROLL_ONE_SYSTEM, kmod._UNROLL_BATCH = original
        jax.clear_caches()
    return results


def print_sweep(results):
    kernel = results[0]["kernel"] if results else ""
    print(f"\n### unroll sweep, {kernel} kernel (median µs; ratio to the library's choice "
          "for the case)\n")  # fmt: skip
    header = ["case"] + [f"unroll={u}" for u in UNROLLS] + ["best"]
    rows = []
    for r in results:
        cells = [f"{T.fmt_us(x['timing'])} ({T.fmt_ratio(x['ratio_to_default'])})"
                 for x in r["rows"]]  # fmt: skip
        rows.append([r["case"]] + cells + [r["best"]])
    print(T.markdown_table(header, rows))
    print("\nScan loops compiled as one native function by XLA:CPU's small-while-loop hoisting")
    print("(`xla_cpu_small_call`), out of the 2 sweeps; the rest run one runtime step per trip:\n")
    small = [[r["case"]] + [str(x["small_call_loops"]) for x in r["rows"]] for r in results]
    print(T.markdown_table(header[:-1], small))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter repeats")
    parser.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    parser.add_argument("--no-sweep", action="store_true", help="skip the unroll sweep")
    parser.add_argument("--sweep-kernels", nargs="*", default=list(SWEEP_KERNELS),
                        choices=list(SWEEP_KERNELS), help="kernels whose unroll to sweep")
    parser.add_argument("--out", default=None, help="result name (default: tridiagonal_cpu...)")
    parser.add_argument("--verbose", action="store_true", help="print tracebacks of failures")
    args = parser.parse_args(argv)
    budget = T.QUICK if args.quick else T.FULL
    out = args.out or "tridiagonal_cpu" + ("_quick" if args.quick else "")

    m = T.machine()
    print(f"# tridiagonal_solve on {m['cpu']} ({m['cpu_count']} CPUs), jax {jax.__version__}, "
          f"load average {m['loadavg_1_5_15min']}")  # fmt: skip
    print(f"ratio = median time / '{REFERENCE}' in the same case; > 1 is slower.")
    cases = []
    for name in args.cases:
        case = run_case(name, budget, args.verbose)
        print_case(case)
        cases.append(case)
    sweep = []
    for kernel in [] if args.no_sweep else args.sweep_kernels:
        results = sweep_unroll(args.cases, budget, args.verbose, kernel)
        print_sweep(results)
        sweep += results
    path = T.write_result(out, {
        "quick": args.quick, "budget": budget, "reference": REFERENCE, "cases": cases,
        "unroll_sweep": sweep,
    })  # fmt: skip
    print(f"\nwrote {path}")


if __name__ == "__main__":
    main()
