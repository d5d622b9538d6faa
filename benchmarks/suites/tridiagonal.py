"""`splines.tridiagonal_solve` (and the cyclic solve) against LAPACK, lineax and scipy.

Contenders, each given the same diagonally dominant systems (`_data`, so that
Thomas applies too) in its own layout, built outside the timing:

- `splines.tridiagonal_solve(lower, diag, upper, rhs)`: lower/upper (B, n-1),
  diag/rhs (B, n); the batch goes into the scan's lanes.  Timed both ways: the
  default ``pivoting=True`` (partial pivoting as gtsv, `splines_gtsv_scan`)
  and ``pivoting=False`` (Thomas, `splines_thomas_scan`), the one the others
  are compared with (ratio and max rel Δ).  The pivoting kernel is branch-free
  (selects), so its time does not depend on how often it swaps.
- `jax.lax.linalg.tridiagonal_solve(dl, d, du, b)`: dl/d/du (B, n) with
  dl[..., 0] = du[..., -1] = 0, b (B, n, 1); LAPACK gtsv on CPU (a loop over
  systems inside the custom call).
- lineax `Tridiagonal` (`linear_solve` on a `TridiagonalLinearOperator`,
  vmapped over a batch; default ``throw=True``), if lineax is installed.
- scipy `solve_banded((1, 1), ab, b)`, a Python loop over a batch's systems.

Cases: one system (n = 1e3 … 1e6, and 1e5, 1e6 in float64), batches B × n
(10 × 1e4 … 1e4 × 64), and `splines.cyclic_tridiagonal_solve` at n = 1e3 and
1e5 against the plain solve of its tridiagonal part (and, at n ≤ 1000, a dense
`jnp.linalg.solve` of the cyclic matrix).  ``params["bytes"]`` is 5 arrays ×
n × B × itemsize: the four inputs read and the solution written once, for a
roofline-style GB/s (bytes / median), not a claim about what a solver touches.

Shared bands: one system's bands with k right-hand sides (k × n = 2 × 1e5,
64 × 256, 1000 × 256), the bands eliminated once (``rhs`` (k, n), bands
(n,)), against the same solve with the bands copied to every column, LAPACK
gtsv given the k columns at once (``b`` (n, k): one factorisation), and
scipy's `solve_banded` with an (n, k) right-hand side.

And the pivoting sweep: B = 1 … 65 systems of n = 256, where the CPU kernel
goes from one native loop of lanes to chained systems (up to 64 float32) and
then to a loop of wide lanes (`kernels/gtsv_scan.py`).

Targets (float32, blocked): pivoting=False no slower than LAPACK for one
system (n = 1e5, 1e6); ≥ 3x faster than LAPACK's loop for 1000 × 256; the
cyclic solve (pivoting=False) ≤ 1.5x the plain one at n = 1000; the default
(pivoting) solve of one system of n = 256 no slower than LAPACK.  (The other
pivoting target, no step above 1.5x between neighbouring B, spans cases:
read it off the sweep's plot and table.)

Not a case: the unroll sweep of the scan kernels (`sweep_unroll`),

    python -m benchmarks.suites.tridiagonal --unroll-sweep [--quick] [--results-dir DIR]

→ ``results/tridiagonal_unroll_sweep[_quick].json``.
"""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from .. import _timing as T
from .._data import on_device, tridiagonal_system
from .._peers import installed
from .._suite import Case, Contender, Target

PIVOTING = "splines.tridiagonal_solve"
THOMAS = "splines.tridiagonal_solve(pivoting=False)"
LAPACK = "lax.linalg.tridiagonal_solve (LAPACK gtsv)"
CYCLIC = "splines.cyclic_tridiagonal_solve(pivoting=False)"
CYCLIC_PIVOTING = "splines.cyclic_tridiagonal_solve"
DENSE = "jnp.linalg.solve (dense cyclic matrix)"
COPIED = "splines.tridiagonal_solve(pivoting=False), bands copied to every column"
LAPACK_COLUMNS = "lax.linalg.tridiagonal_solve (LAPACK gtsv, k columns)"
SCIPY_COLUMNS = "scipy solve_banded (k columns)"
PIVOTING_N = 256  # the pivoting sweep's systems
DENSE_MAX_N = 1000  # an n × n LU: O(n³), only where it is a fair comparison

# Sizes per mode: one system (f32, f64), batches (B, n), cyclic n.
SIZES = {
    "full": {"one": (1_000, 10_000, 100_000, 1_000_000), "one_f64": (100_000, 1_000_000),
             "batch": ((10, 10_000), (100, 1_000), (1_000, 256), (10_000, 64)),
             "cyclic": (1_000, 100_000), "pivoting": (1, 2, 3, 4, 5, 6, 8, 16, 32, 64, 65),
             "shared": ((2, 100_000), (64, 256), (1_000, 256))},
    "quick": {"one": (100_000, 1_000_000), "one_f64": (), "batch": ((1_000, 256),),
              "cyclic": (1_000,), "pivoting": (4, 5), "shared": ()},
    # smoke: each code path once (one system, f32 and f64; the batch sweep keeps two
    # points, so that the run still plots a sweep)
    "smoke": {"one": (32,), "one_f64": (64,), "batch": ((2, 32), (4, 16)), "cyclic": (16,),
              "pivoting": (5,), "shared": ((8, 16),)},
}  # fmt: skip


# --- the solves, each in its own layout ---------------------------------------------------


def _solve(lower, diag, upper, rhs):
    import splines

    return splines.tridiagonal_solve(lower, diag, upper, rhs)


def _solve_thomas(lower, diag, upper, rhs):
    import splines

    return splines.tridiagonal_solve(lower, diag, upper, rhs, pivoting=False)


def _lapack_layout(lower, diag, upper, rhs):
    """gtsv's bands are all n long: dl[..., 0] = du[..., -1] = 0; b has one column."""
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


def _banded_layout(lower, diag, upper, rhs):
    """scipy's banded storage: ab[u + i − j, j] = A[i, j] with u = 1."""
    ab = np.zeros(diag.shape[:-1] + (3, diag.shape[-1]), diag.dtype)
    ab[..., 0, 1:] = upper
    ab[..., 1, :] = diag
    ab[..., 2, :-1] = lower
    return ab, rhs


def _scipy_solve(ab, rhs):
    from scipy.linalg import solve_banded

    if ab.ndim == 2:
        return solve_banded((1, 1), ab, rhs, check_finite=False)
    return np.stack([solve_banded((1, 1), a, b, check_finite=False) for a, b in zip(ab, rhs)])


# --- contenders -------------------------------------------------------------------------


def _peers(system, batched: bool) -> list[Contender]:
    """lineax and scipy, where installed."""
    out = []
    if installed("lineax"):
        fn = jax.vmap(_lineax_solve) if batched else _lineax_solve
        out.append(Contender("lineax Tridiagonal" + (" (vmap)" if batched else ""), "lineax",
                             jax.jit(fn), on_device(system), check=THOMAS))  # fmt: skip
    if installed("scipy"):
        out.append(Contender("scipy solve_banded" + (" (loop)" if batched else ""), "scipy",
                             _scipy_solve, _banded_layout(*system), check=THOMAS))  # fmt: skip
    return out


def _build(batch, n: int, dtype: str):
    def build():
        system = tridiagonal_system(batch, n, dtype)
        args = on_device(system)
        return [
            Contender(PIVOTING, "splines", jax.jit(_solve), args, check=THOMAS),
            Contender(THOMAS, "splines", jax.jit(_solve_thomas), args),
            Contender(LAPACK, "lax", jax.jit(_lax_solve), on_device(_lapack_layout(*system)),
                      check=THOMAS),
            *_peers(system, batch is not None),
        ]  # fmt: skip

    return build


def _cyclic_system(n: int, dtype: str):
    """(lower, diag, upper, rhs), all (n,): `tridiagonal_system`'s bands with the corners
    lower[0] = A[0, n−1] and upper[n−1] = A[n−1, 0] (`splines._linalg.cyclic`) put in front of
    lower and after upper.  Still strictly dominant: two off-diagonals of |·| ≤ 1 per row
    against |diag| ≥ 2.5."""
    lower, diag, upper, rhs = tridiagonal_system(None, n, dtype)
    corners = np.random.default_rng(1).uniform(-1, 1, 2).astype(dtype)
    return np.concatenate([corners[:1], lower]), diag, np.concatenate([upper, corners[1:]]), rhs


def _dense(lower, diag, upper):
    """The cyclic matrix as n × n (the corners add, as the solve's n = 2 convention)."""
    a = np.diag(diag) + np.diag(lower[1:], -1) + np.diag(upper[:-1], 1)
    a[0, -1] += lower[0]
    a[-1, 0] += upper[-1]
    return a


def _build_cyclic(n: int, dtype: str):
    def build():
        import splines

        system = _cyclic_system(n, dtype)
        lower, diag, upper, rhs = system

        def cyclic(*a):
            return splines.cyclic_tridiagonal_solve(*a, pivoting=False)

        plain = on_device((lower[1:], diag, upper[:-1], rhs))  # its tridiagonal part
        out = [
            Contender(CYCLIC, "splines", jax.jit(cyclic), on_device(system)),
            Contender(CYCLIC_PIVOTING, "splines", jax.jit(splines.cyclic_tridiagonal_solve),
                      on_device(system), check=CYCLIC),
            Contender(THOMAS, "splines", jax.jit(_solve_thomas), plain),
        ]  # fmt: skip
        if n <= DENSE_MAX_N:  # the n × n matrix only where it is timed
            out.append(
                Contender(
                    DENSE,
                    "jax",
                    jax.jit(jnp.linalg.solve),
                    on_device((_dense(lower, diag, upper), rhs)),
                    check=CYCLIC,
                )
            )
        return out

    return build


def _lax_columns(dl, d, du, b):
    return jax.lax.linalg.tridiagonal_solve(dl, d, du, b).T  # (n, k) → (k, n)


def _scipy_columns(ab, b):
    from scipy.linalg import solve_banded

    return solve_banded((1, 1), ab, b, check_finite=False).T


def _build_shared(columns: int, n: int, dtype: str):
    def build():
        lower, diag, upper, _ = tridiagonal_system(None, n, dtype)
        rhs = tridiagonal_system(columns, n, dtype, seed=1)[3]  # (k, n)
        shared = on_device((lower, diag, upper, rhs))
        copied = [np.broadcast_to(b, (columns,) + b.shape).copy() for b in (lower, diag, upper)]
        dl, d, du, _ = _lapack_layout(lower, diag, upper, rhs)
        columns_last = np.ascontiguousarray(rhs.T)  # (n, k)
        out = [
            Contender(PIVOTING, "splines", jax.jit(_solve), shared, check=THOMAS),
            Contender(THOMAS, "splines", jax.jit(_solve_thomas), shared),
            Contender(COPIED, "splines", jax.jit(_solve_thomas), on_device((*copied, rhs)),
                      check=THOMAS),
            Contender(LAPACK_COLUMNS, "lax", jax.jit(_lax_columns),
                      on_device((dl, d, du, columns_last)), check=THOMAS),
        ]  # fmt: skip
        if installed("scipy"):
            ab, _ = _banded_layout(lower, diag, upper, rhs)
            out.append(Contender(SCIPY_COLUMNS, "scipy", _scipy_columns, (ab, columns_last),
                                 check=THOMAS))  # fmt: skip
        return out

    return build


# --- cases ------------------------------------------------------------------------------


def _targets(kind: str, batch, n: int, dtype: str) -> list[Target]:
    if dtype != "float32":
        return []
    if kind == "one" and n in (100_000, 1_000_000):
        return [Target("pivoting=False no slower than LAPACK gtsv", THOMAS, [LAPACK], 1.0)]
    if kind == "batch" and (batch, n) == (1_000, 256):
        return [Target("pivoting=False ≥ 3x faster than LAPACK's loop", THOMAS, [LAPACK],
                       1 / 3)]  # fmt: skip
    if kind == "pivoting" and batch == 1:
        return [Target("pivoting solve of one system no slower than LAPACK gtsv", PIVOTING,
                       [LAPACK], 1.0)]  # fmt: skip
    if kind == "cyclic" and n == 1_000:
        return [Target("cyclic (pivoting=False) ≤ 1.5x the plain solve", CYCLIC, [THOMAS],
                       1.5)]  # fmt: skip
    return []


def _short(n: int) -> str:
    """1000 → "1e3" (powers of ten from 1000 up), else the number."""
    e = int(round(np.log10(n)))
    return f"1e{e}" if n >= 1000 and 10**e == n else str(n)


def _case(kind: str, batch, n: int, dtype: str) -> Case:
    b = batch or 1
    params = {"B": b, "n": n, "bytes": 5 * n * b * np.dtype(dtype).itemsize}
    suffix = "" if dtype == "float32" else " f64"
    if kind == "batch":
        name, sweep, x, build = f"B={b} n={n}", "batch", "B", _build(batch, n, dtype)
    elif kind == "pivoting":
        name, sweep, x = f"pivoting B={b} n={n}", f"pivoting batch n={n}", "B"
        build = _build(batch, n, dtype)
    elif kind == "shared":
        name, sweep, x = f"shared bands k={b} n={_short(n)}", None, None
        build = _build_shared(batch, n, dtype)
    elif kind == "cyclic":
        name, sweep, x, build = f"cyclic n={_short(n)}", "cyclic", "n", _build_cyclic(n, dtype)
    else:
        name, sweep, x = f"n={_short(n)}{suffix}", "one system" + suffix, "n"
        build = _build(None, n, dtype)
    return Case("tridiagonal", name, params, build, dtype=dtype, sweep=sweep, x=x,
                targets=_targets(kind, batch, n, dtype), baseline=THOMAS)  # fmt: skip


def cases(mode: str) -> list[Case]:
    sizes = SIZES[mode]
    return [
        *(_case("one", None, n, "float32") for n in sizes["one"]),
        *(_case("one", None, n, "float64") for n in sizes["one_f64"]),
        *(_case("batch", b, n, "float32") for b, n in sizes["batch"]),
        *(_case("cyclic", None, n, "float32") for n in sizes["cyclic"]),
        *(_case("pivoting", b, PIVOTING_N, "float32") for b in sizes["pivoting"]),
        *(_case("shared", k, n, "float32") for k, n in sizes["shared"]),
    ]


# --- the unroll sweep (not a case) ----------------------------------------------------------
#
# Once per scan kernel (`thomas_scan` for pivoting=False, `gtsv_scan` for
# pivoting=True): set both `_UNROLL_ONE_SYSTEM` and `_UNROLL_BATCH` of the
# kernel's module (the library picks one by the number of systems,
# `unroll_for`) to each value, clear JAX's caches, lower and AOT-compile the
# solve, and check in the lowered program that every scan's `while` trip count
# is ceil(n / unroll) (the kernels pad n to a multiple of the unroll), so that
# the value really took effect; then time all values interleaved.  Also count
# the scan loops XLA:CPU compiled as one native function
# (`xla_cpu_small_call`, its small-while-loop hoisting, which depends on the
# loop body's size and so on the unroll and the batch); the others pay a
# runtime step per trip.  The library's values are restored afterwards.

UNROLLS = (1, 2, 4, 8, 16, 32)
# Kernel → (its module under splines._linalg.kernels, the `pivoting` that selects it).
SWEEP_KERNELS = {"thomas": ("thomas_scan", False), "gtsv": ("gtsv_scan", True)}
SWEEP_CASES = {  # name: (batch or None, n, dtype); float32 first (x64 is then enabled)
    "n=1e5 f32": (None, 100_000, "float32"),
    "B=1000 n=256 f32": (1000, 256, "float32"),
    "B=100 n=1000 f32": (100, 1000, "float32"),
    "n=1e5 f64": (None, 100_000, "float64"),
    "B=1000 n=256 f64": (1000, 256, "float64"),
    "B=100 n=1000 f64": (100, 1000, "float64"),
}


def _trip_counts(lowered_text: str) -> list[int]:
    """Trip counts of the `while` loops in a lowered program (scan length // unroll)."""
    pattern = r"cond \{\s*%\S+ = stablehlo\.constant dense<(\d+)>"
    return [int(m) for m in re.findall(pattern, lowered_text)]


def _compile(solve, args, n: int, unroll: int, name: str):
    """(executable, while-loop trip counts, small-call loops) at this unroll (already set)."""
    jax.clear_caches()  # the kernel's jit and the primitive's lowering re-trace
    lowered = jax.jit(solve).lower(*args)
    trips = _trip_counts(lowered.as_text())
    expected = -(-n // unroll) if unroll < n else None  # unroll ≥ n: fully unrolled, no loop
    ok = not trips if expected is None else bool(trips) and all(t == expected for t in trips)
    if not ok:
        raise RuntimeError(f"unroll={unroll} did not take effect for {name}: while-loop trip "
                           f"counts {trips}, expected {expected}.")  # fmt: skip
    executable = lowered.compile()
    return executable, trips, executable.as_text().count('xla_cpu_small_call="true"')


def _rel_diff(out, reference) -> float:
    out = np.asarray(out, np.float64)
    return float(np.max(np.abs(out - reference)) / np.max(np.abs(reference)))


def _sweep_case(kmod, solve, name: str, default_unrolls, budget: dict, verbose: bool) -> dict:
    batch, n, dtype = SWEEP_CASES[name]
    args = on_device(tridiagonal_system(batch, n, dtype))
    default = default_unrolls[0] if batch is None else default_unrolls[1]
    compiled, trips, small = {}, {}, {}
    for unroll in UNROLLS:
        kmod._UNROLL_ONE_SYSTEM = kmod._UNROLL_BATCH = unroll
        executable, trips[unroll], small[unroll] = _compile(solve, args, n, unroll, name)
        compiled[f"unroll={unroll}"] = (executable, args)
    timings = T.time_interleaved(compiled, verbose=verbose, **budget)
    reference = np.asarray(compiled[f"unroll={default}"][0](*args), np.float64)
    ok = [k for k, t in timings.items() if isinstance(t, T.Timing)]
    rows = [{"unroll": u, "timing": timings[f"unroll={u}"], "small_call_loops": small[u],
             "max_rel_diff_vs_default": _rel_diff(compiled[f"unroll={u}"][0](*args), reference),
             "ratio_to_default": T.ratio(timings[f"unroll={u}"], timings[f"unroll={default}"])}
            for u in UNROLLS]  # fmt: skip
    return {"case": name, "batch": batch, "n": n, "dtype": dtype,
            "best": min(ok, key=lambda k: timings[k].median) if ok else None,
            "library_default": f"unroll={default}",
            "trip_counts": {str(u): v for u, v in trips.items()}, "rows": rows}  # fmt: skip


def sweep_unroll(names, budget: dict, verbose: bool = False, kernel: str = "thomas") -> list:
    """Time `splines.tridiagonal_solve` at each unroll of one kernel, per case in ``names``."""
    module, pivoting = SWEEP_KERNELS[kernel]
    kmod = importlib.import_module(f"splines._linalg.kernels.{module}")
    solve = _solve if pivoting else _solve_thomas
    original = (kmod._UNROLL_ONE_SYSTEM, kmod._UNROLL_BATCH)
    try:
        return [{"kernel": kernel, **_sweep_case(kmod, solve, name, original, budget, verbose)}
                for name in names]  # fmt: skip
    finally:
        kmod._UNROLL_ONE_SYSTEM, kmod._UNROLL_BATCH = original
        jax.clear_caches()


def print_sweep(kernel: str, results: list) -> None:
    print(f"\n### unroll sweep, {kernel} kernel (median µs; ratio to the library's choice "
          "for the case)\n")  # fmt: skip
    header = ["case"] + [f"unroll={u}" for u in UNROLLS] + ["best"]
    rows = [[r["case"]] + [f"{T.fmt_us(x['timing'])} ({T.fmt_ratio(x['ratio_to_default'])})"
                           for x in r["rows"]] + [str(r["best"])]
            for r in results]  # fmt: skip
    print(T.markdown_table(header, rows))
    print(
        "\nScan loops compiled as one native function by XLA:CPU's small-while-loop "
        "hoisting\n(`xla_cpu_small_call`); the rest run one runtime step per trip:\n"
    )
    small = [[r["case"]] + [str(x["small_call_loops"]) for x in r["rows"]] for r in results]
    print(T.markdown_table(header[:-1], small))


def _main(argv=None) -> None:
    args = _parse(argv)
    budget = T.QUICK if args.quick else T.FULL
    m = T.machine()
    print(f"# tridiagonal unroll sweep on {m['cpu']} ({m['cpu_count']} CPUs), "
          f"jax {jax.__version__}, load average {m['loadavg_1_5_15min']}")  # fmt: skip
    results = {kernel: [] for kernel in args.kernels}
    for dtype in ("float32", "float64"):  # x64 on only for the second group
        names = [c for c in args.cases if SWEEP_CASES[c][2] == dtype]
        if dtype == "float64" and names:
            jax.config.update("jax_enable_x64", True)
        for kernel in args.kernels:
            results[kernel] += sweep_unroll(names, budget, args.verbose, kernel)
    for kernel, rows in results.items():
        print_sweep(kernel, rows)
    directory = Path(args.results_dir) if args.results_dir else T.RESULTS_DIR
    path = T.write_result("tridiagonal_unroll_sweep" + ("_quick" if args.quick else ""),
                          {"quick": args.quick, "budget": budget, "unrolls": list(UNROLLS),
                           "unroll_sweep": [r for rows in results.values() for r in rows]},
                          directory=directory)  # fmt: skip
    print(f"\nwrote {path}")


def _parse(argv):
    parser = argparse.ArgumentParser(
        description="The scan kernels' unroll sweep (the "
        "suite's cases run with `python -m benchmarks`)."
    )
    parser.add_argument("--unroll-sweep", action="store_true", help="run the unroll sweep")
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter repeats")
    parser.add_argument("--cases", nargs="*", default=list(SWEEP_CASES),
                        choices=list(SWEEP_CASES))  # fmt: skip
    parser.add_argument(
        "--kernels",
        nargs="*",
        default=list(SWEEP_KERNELS),
        choices=list(SWEEP_KERNELS),
        help="kernels whose unroll to sweep",
    )
    parser.add_argument("--results-dir", default=None, help="where the JSON goes")
    parser.add_argument("--verbose", action="store_true", help="tracebacks of failures")
    args = parser.parse_args(argv)
    if not args.unroll_sweep:
        parser.error("nothing to do without --unroll-sweep (the cases: python -m benchmarks "
                     "--only tridiagonal)")  # fmt: skip
    return args


if __name__ == "__main__":
    _main()
