"""Device benchmark, prepared for one GPU (H200: ≤ 5 minutes, installs nothing).

    python benchmarks/bench_gpu.py                        # default device → results/gpu_<device>.{json,md}
    python benchmarks/bench_gpu.py --device cpu --smoke   # tiny sizes: the test suite's run check
    python benchmarks/bench_gpu.py --only kernel          # some cases: results/gpu_<dev>_kernel.*
    bash benchmarks/gpu_check.sh OUT_DIR                  # on a lent GPU: this, then the GPU tests

Cases, each timed with its peers in one process (`_timing`: compiled first,
blocked, medians of interleaved repeats), f32:

- copy:      ``x * 1`` over a large array — the device's achieved bandwidth,
             the roofline the other rows are measured against;
- fit:       B distinct grids × n = 256 knots, cubic2 not-a-knot, under `vmap`
             (`Interpolator1D`), against interpax `CubicSpline` under `vmap`;
             "GB/s" counts 12 bytes per unknown (read knots and values, write
             slopes), the least a fit must move;
- fit+eval:  the same with 256 queries per grid, against interpax `interp1d`;
- solve:     one system of n unknowns, `tridiagonal_solve(pivoting=False)`
             against `lax.linalg.tridiagonal_solve` and lineax;
- kernel:    the GPU kernel candidates, B systems × n = 256 and one long
             system: cuSPARSE vs Pallas Thomas (``pivoting=False``), the scan
             vs Pallas gtsv (``pivoting=True``) — the measurement behind the
             choice in `splines/_linalg/kernels/gpu.py` (on CPU the Pallas
             kernels run in interpret mode: the smoke test checks plumbing only);
- banded:    the banded primitive's kernels, B systems × n = 256 and one long
             system: the scan vs the Pallas kernel, LU with and without pivoting
             ((2, 2) bands) and LDLᵀ (p = 2);
- queries:   `interp1d` with many queries on n = 1000 knots;
- grid:      2-D cubic2 on a 256² grid with 1e6 queries, against interpax;
- grad:      d/d(fp, xp) of a batched loss;
- tiny:      n = 8 knots, 8 queries, against a trivial jitted function of the
             same arguments (the per-call floor);
- accuracy:  max |splines − scipy| / max |f| on the device, scipy in f64 on
             the f32-rounded inputs (DESIGN.md §6: ≤ 2e-6).

A peer that is not installed is reported in one line and skipped.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _timing as T  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import splines  # noqa: E402

cubic2 = partial(splines.interp1d, method="cubic2")  # scipy's CubicSpline, as its rows compare

FULL = {"batches": (1_000, 10_000, 100_000, 1_000_000), "n": 256, "queries": 256,
        "systems": (1_000_000, 10_000_000), "many_queries": 10_000_000, "copy": 250_000_000,
        "grad_batch": 10_000, "kernel_batches": (1_000, 3_000, 10_000, 30_000, 100_000, 1_000_000),
        "kernel_system": 100_000, "grid": 256, "grid_queries": 1_000_000}  # fmt: skip
SMOKE = {"batches": (10,), "n": 16, "queries": 8, "systems": (1_000,), "many_queries": 1_000,
         "copy": 100_000, "grad_batch": 10, "kernel_batches": (10,), "kernel_system": 100,
         "grid": 8, "grid_queries": 10}  # fmt: skip


def _optional(name):
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"{name} is not installed here: its rows are skipped")
        return None


def _grids(rng, batch, n, queries):
    """Jittered knots on [0, 1] (well spaced), smooth values, random queries; f32."""
    base = np.linspace(0, 1, n) + rng.uniform(-0.3, 0.3, (batch, n)) / n
    xp = np.sort(base, axis=-1).astype(np.float32)
    fp = np.sin(6 * xp).astype(np.float32)
    x = rng.uniform(0, 1, (batch, queries)).astype(np.float32)
    return x, xp, fp


def _row(case, name, timing, reference=None, moved_bytes=None, roofline=None):
    gbs = (
        None
        if moved_bytes is None or isinstance(timing, T.Failure)
        else (moved_bytes / timing.median / 1e9)
    )
    print(f"{case} | {name} | {T.fmt_us(timing)} µs", flush=True)  # survives a cut-off run
    return {
        "case": case, "name": name, "timing": timing,
        "ratio": T.ratio(timing, reference) if reference is not None else None,
        "GB_per_s": gbs, "roofline_fraction": None if gbs is None or not roofline else gbs / roofline,
    }  # fmt: skip


CASES = ("fit", "solve", "kernel", "banded", "queries", "grid", "grad", "tiny")


def run(sizes, budget, device, cases=CASES):
    rng = np.random.default_rng(0)
    put = lambda *a: tuple(jax.device_put(v, device) for v in a)  # noqa: E731
    interpax, lineax = _optional("interpax"), _optional("lineax")
    rows = []

    x = put(np.ones(sizes["copy"], np.float32))[0]
    copy = T.time_one(jax.jit(lambda a: a * 1), (x,), **budget)
    roofline = 2 * x.nbytes / copy.median / 1e9 if not isinstance(copy, T.Failure) else None
    rows.append(_row("copy", f"x * 1, {x.nbytes / 1e9:.2f} GB", copy, None, 2 * x.nbytes))
    del x

    for batch in sizes["batches"] if "fit" in cases else ():
        x, xp, fp = put(*_grids(rng, batch, sizes["n"], sizes["queries"]))
        case, unknowns = f"fit B={batch:.0e} n={sizes['n']}", batch * sizes["n"]
        fits = {"splines Interpolator1D": jax.jit(jax.vmap(
            lambda xp, fp: splines.Interpolator1D(xp, fp, "cubic2").coefficients))}  # fmt: skip
        if interpax:
            fits["interpax CubicSpline"] = jax.jit(jax.vmap(
                lambda xp, fp: interpax.CubicSpline(xp, fp, check=False).c))  # fmt: skip
        timed = T.time_interleaved({k: (f, (xp, fp)) for k, f in fits.items()}, **budget)
        ref = timed["splines Interpolator1D"]
        rows += [_row(case, k, t, ref, 12 * unknowns, roofline) for k, t in timed.items()]
        evals = {"splines interp1d": jax.jit(jax.vmap(cubic2))}
        if interpax:
            evals["interpax interp1d cubic2"] = jax.jit(jax.vmap(
                lambda x, xp, fp: interpax.interp1d(x, xp, fp, method="cubic2")))  # fmt: skip
        timed = T.time_interleaved({k: (f, (x, xp, fp)) for k, f in evals.items()}, **budget)
        ref = timed["splines interp1d"]
        rows += [_row(case.replace("fit", "fit+eval"), k, t, ref) for k, t in timed.items()]
        del x, xp, fp

    for n in sizes["systems"] if "solve" in cases else ():
        lower, upper = put(*(rng.uniform(-1, 1, n - 1).astype(np.float32) for _ in range(2)))
        diag, rhs = put(np.full(n, 4, np.float32), rng.normal(size=n).astype(np.float32))
        zero = jnp.zeros(1, jnp.float32)
        dl, du = jnp.concatenate([zero, lower]), jnp.concatenate([upper, zero])
        solves = {
            "splines pivoting=False": (
                jax.jit(lambda *a: splines.tridiagonal_solve(*a, pivoting=False)),
                (lower, diag, upper, rhs),
            ),  # fmt: skip
            "lax.linalg.tridiagonal_solve": (
                jax.jit(
                    lambda dl, d, du, b: jax.lax.linalg.tridiagonal_solve(dl, d, du, b[:, None])[
                        :, 0
                    ]
                ),
                (dl, diag, du, rhs),
            ),  # fmt: skip
        }
        if lineax:
            solves["lineax Tridiagonal"] = (jax.jit(lambda d, l, u, b: lineax.linear_solve(
                lineax.TridiagonalLinearOperator(d, l, u), b, lineax.Tridiagonal()).value),
                (diag, lower, upper, rhs))  # fmt: skip
        timed = T.time_interleaved(solves, **budget)
        ref = timed["splines pivoting=False"]
        rows += [_row(f"solve n={n:.0e}", k, t, ref, 20 * n, roofline) for k, t in timed.items()]

    if "kernel" in cases:
        rows += _kernel_rows(rng, put, sizes, budget, roofline, device.platform == "cpu")
    if "banded" in cases:
        rows += _banded_rows(rng, put, sizes, budget, roofline, device.platform == "cpu")
    if "queries" in cases:
        rows += _query_rows(rng, put, sizes, budget, interpax)
    if "grid" in cases:
        rows += _grid_rows(rng, put, sizes, budget, interpax)
    if "grad" in cases:
        rows += _grad_rows(rng, put, sizes, budget)
    if "tiny" in cases:
        rows += _tiny_rows(rng, put, budget)
    return rows, roofline, _accuracy(rng, put)


def _query_rows(rng, put, sizes, budget, interpax):
    x, xp, fp = put(rng.uniform(0, 1, sizes["many_queries"]).astype(np.float32),
                    *(a[0] for a in _grids(rng, 1, 1000, 1)[1:]))  # fmt: skip
    many = {"splines interp1d": (jax.jit(cubic2), (x, xp, fp))}
    if interpax:
        many["interpax interp1d cubic2"] = (
            jax.jit(lambda x, xp, fp: interpax.interp1d(x, xp, fp, method="cubic2")),
            (x, xp, fp),
        )
    timed = T.time_interleaved(many, **budget)
    return [_row(f"queries q={x.size:.0e} n=1000", k, t, timed["splines interp1d"])
            for k, t in timed.items()]  # fmt: skip


def _grad_rows(rng, put, sizes, budget):
    x, xp, fp = put(*_grids(rng, sizes["grad_batch"], sizes["n"], sizes["queries"]))
    loss = lambda fp, xp, x: jnp.sum(jax.vmap(cubic2)(x, xp, fp) ** 2)  # noqa: E731
    grads = {
        "splines forward": (jax.jit(loss), (fp, xp, x)),
        "splines grad fp, xp": (jax.jit(jax.grad(loss, argnums=(0, 1))), (fp, xp, x)),
    }
    timed = T.time_interleaved(grads, **budget)
    return [_row(f"grad B={sizes['grad_batch']:.0e}", k, t, timed["splines forward"])
            for k, t in timed.items()]  # fmt: skip


def _tiny_rows(rng, put, budget):
    x, xp, fp = put(*(a[0] for a in _grids(rng, 1, 8, 8)))
    tiny = {"splines interp1d": (jax.jit(cubic2), (x, xp, fp)),
            "trivial jit (x + xp[0] + fp[0])": (jax.jit(lambda x, xp, fp: x + xp[0] + fp[0]),
                                                (x, xp, fp))}  # fmt: skip
    timed = T.time_interleaved(tiny, **budget)
    return [_row("tiny n=8 q=8", k, t, timed["trivial jit (x + xp[0] + fp[0])"])
            for k, t in timed.items()]  # fmt: skip


def _grid_rows(rng, put, sizes, budget, interpax):
    """2-D cubic2 on an n² grid with many queries (fit and evaluation in one call)."""
    n, q = sizes["grid"], sizes["grid_queries"]
    x, y = np.linspace(0, 1, n, dtype=np.float32), np.linspace(0, 2, n, dtype=np.float32)
    f = (np.sin(4 * x)[:, None] * np.cos(3 * y)[None, :]).astype(np.float32)
    xq, yq = rng.uniform(0, 1, q).astype(np.float32), rng.uniform(0, 2, q).astype(np.float32)
    args = put(xq, yq, x, y, f)
    calls = {"splines interp2d": (jax.jit(partial(splines.interp2d, method="cubic2")), args)}
    if interpax:
        calls["interpax interp2d cubic2"] = (jax.jit(partial(interpax.interp2d,
                                                             method="cubic2")), args)  # fmt: skip
    timed = T.time_interleaved(calls, **budget)
    return [_row(f"grid 2-D n={n}² q={q:.0e}", k, t, timed["splines interp2d"])
            for k, t in timed.items()]  # fmt: skip


def _kernel_rows(rng, put, sizes, budget, roofline, interpret):
    """The GPU kernels per ``pivoting``, f32: the measurement behind `kernels/gpu.py`'s choice."""
    from splines._linalg.kernels import splines_cusparse_gtsv, splines_gtsv_scan
    from splines._linalg.kernels.pallas_gtsv import splines_pallas_gtsv
    from splines._linalg.kernels.pallas_thomas import splines_pallas_thomas

    candidates = {
        "pivoting=False": {"splines_cusparse_gtsv": splines_cusparse_gtsv,
                           "splines_pallas_thomas": partial(splines_pallas_thomas,
                                                            interpret=interpret)},
        "pivoting=True": {"splines_gtsv_scan": splines_gtsv_scan,
                          "splines_pallas_gtsv": partial(splines_pallas_gtsv,
                                                         interpret=interpret)},
    }  # fmt: skip
    shapes = [(b, sizes["n"]) for b in sizes["kernel_batches"]] + [(sizes["kernel_system"],)]
    rows = []
    for shape in shapes:
        batch, n = shape[:-1], shape[-1]
        lower, upper = (rng.uniform(-1, 1, batch + (n - 1,)).astype(np.float32) for _ in range(2))
        diag = (rng.choice([-1, 1], shape) * rng.uniform(2.5, 3.5, shape)).astype(np.float32)
        system = put(lower, diag, upper, rng.normal(size=shape).astype(np.float32))
        for pivoting, kernels in candidates.items():
            timed = T.time_interleaved({k: (jax.jit(f), system) for k, f in kernels.items()},
                                       **budget)  # fmt: skip
            ref = next(iter(timed.values()))
            case = f"kernel {f'B={batch[0]:.0e} ' if batch else ''}n={n} {pivoting}"
            # Each kernel's answer against the first's (the systems are dominant: both
            # solve them to rounding), so that a timing never stands for a wrong answer.
            answers = {k: np.asarray(jax.jit(f)(*system), np.float64) for k, f in kernels.items()}
            first = next(iter(answers.values()))
            rows += [_row(case, f"{k} (Δ {np.max(np.abs(x - first)) / np.max(np.abs(first)):.0e})",
                          t, ref, 20 * diag.size, roofline)
                     for (k, t), x in zip(timed.items(), answers.values())]  # fmt: skip
    return rows


def _banded_rows(rng, put, sizes, budget, roofline, interpret):
    """The banded primitive's kernels, f32, (2, 2) bands (LU with and without pivoting)
    and p = 2 (LDLᵀ): the scan against the Pallas kernel `kernels/gpu.py` chose for GPUs
    by the tridiagonal rows, B systems × n = 256 and one long system."""
    from splines._linalg.kernels.banded_scan import splines_banded_scan
    from splines._linalg.kernels.pallas_banded import splines_pallas_banded

    kinds = {"LU pivoting": dict(lower=2, upper=2, symmetric=False, pivoting=True),
             "LU no pivoting": dict(lower=2, upper=2, symmetric=False, pivoting=False),
             "LDLT": dict(lower=2, upper=0, symmetric=True, pivoting=False)}  # fmt: skip
    shapes = [(b, sizes["n"]) for b in sizes["kernel_batches"][::2]] + [(sizes["kernel_system"],)]
    rows = []
    for shape in shapes:
        batch, n = shape[:-1], shape[-1]
        for kind, params in kinds.items():
            width = params["lower"] + params["upper"] + 1
            bands = rng.uniform(-1, 1, shape + (width,))
            bands[..., params["lower"]] = 6.0  # dominant (and SPD for LDLᵀ's lower band)
            system = put(bands.astype(np.float32), rng.normal(size=shape).astype(np.float32))
            kernels = {"splines_banded_scan": partial(splines_banded_scan, **params),
                       "splines_pallas_banded": partial(splines_pallas_banded, **params,
                                                        interpret=interpret)}  # fmt: skip
            timed = T.time_interleaved({k: (jax.jit(f), system) for k, f in kernels.items()},
                                       **budget)  # fmt: skip
            answers = {k: np.asarray(jax.jit(f)(*system), np.float64) for k, f in kernels.items()}
            first = next(iter(answers.values()))
            ref = next(iter(timed.values()))
            case = f"banded {f'B={batch[0]:.0e} ' if batch else ''}n={n} {kind}"
            rows += [_row(case, f"{k} (Δ {np.max(np.abs(x - first)) / np.max(np.abs(first)):.0e})",
                          t, ref, 4 * (width + 2) * int(np.prod(shape)), roofline)
                     for (k, t), x in zip(timed.items(), answers.values())]  # fmt: skip
    return rows


def _accuracy(rng, put):
    """max |splines − scipy| / max |f| over 100 grids, on the device, f32."""
    from scipy.interpolate import CubicSpline

    _, xp, fp = _grids(rng, 100, 64, 256)
    x = (xp[:, :1] + rng.uniform(0, 1, (100, 256)) * (xp[:, -1:] - xp[:, :1])).astype(np.float32)
    got = np.asarray(jax.jit(jax.vmap(cubic2))(*put(x, xp, fp)), np.float64)
    ref = np.stack([CubicSpline(k.astype(np.float64), v.astype(np.float64))(q.astype(np.float64))
                    for q, k, v in zip(x, xp, fp)])  # fmt: skip
    return float(np.max(np.abs(got - ref)) / np.max(np.abs(fp)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=None, help="jax platform (default: jax's default)")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, two repeats")
    parser.add_argument("--results-dir", default=None, help="where JSON/markdown go")
    parser.add_argument("--only", nargs="+", choices=CASES, default=CASES, help="these cases")
    args = parser.parse_args(argv)
    device = jax.devices(args.device)[0] if args.device else jax.devices()[0]
    directory = Path(args.results_dir) if args.results_dir else T.RESULTS_DIR
    sizes, budget = (SMOKE, {"repeats": 2, "min_time": 0.0}) if args.smoke else (FULL, T.QUICK)
    with jax.default_device(device):
        rows, roofline, accuracy = run(sizes, budget, device, args.only)
    header = ["case", "contender", "median µs", "IQR", "ratio", "GB/s", "of roofline"]
    table = T.markdown_table(header, [[
        r["case"], r["name"], T.fmt_us(r["timing"]), T.fmt_iqr(r["timing"]),
        T.fmt_ratio(r["ratio"]), "" if r["GB_per_s"] is None else f"{r['GB_per_s']:.1f}",
        "" if r["roofline_fraction"] is None else f"{100 * r['roofline_fraction']:.0f}%",
    ] for r in rows])  # fmt: skip
    summary = (
        f"device: {device.platform} {device.device_kind}; copy bandwidth "
        f"{roofline or float('nan'):.0f} GB/s; f32 error vs scipy {accuracy:.1e}·max|f|"
    )
    print(summary + "\n\n" + table)
    name = "gpu_" + "".join(c if c.isalnum() else "_" for c in device.device_kind.lower())
    name += "_smoke" if args.smoke else ""
    name += "" if set(args.only) == set(CASES) else "_" + "_".join(args.only)
    T.write_result(name, {"rows": rows, "copy_GB_per_s": roofline, "accuracy": accuracy},
                   directory=directory)  # fmt: skip
    (directory / f"{name}.md").write_text(summary + "\n\n" + table + "\n")


if __name__ == "__main__":
    main()
