"""CPU benchmark: `splines.interp2d` against its peers on a 2-D grid, in one process.

    python benchmarks/bench_interp2d.py          # full → results/interp2d_cpu.json
    python benchmarks/bench_interp2d.py --quick  # fewer repeats → results/interp2d_cpu_quick.json
    python benchmarks/bench_interp2d.py --x64    # float64 → results/interp2d_cpu_f64.json

Every JAX contender is wrapped in `jax.jit` (fit + evaluate in one call) and
timed after compiling; scipy (float64, numpy) is timed as it is used:
`RectBivariateSpline` (FITPACK, s=0: the not-a-knot bicubic spline, the same
interpolant as cubic2) and `RegularGridInterpolator` (linear).  Ratios are
contender time / `splines` cubic2 time in the same case (> 1: slower).

Cases:
  small     32 × 32 grid, 1000 queries
  large     200 × 200 grid, 10000 queries
  batch     100 value arrays on one 16 × 16 grid (vmap), 100 queries each
  dispatch  8 × 8 grid, 1 query: the per-call overhead

Columns: median and min over the repeats (µs per call), IQR as % of the
median, ratio of medians, and "max|Δ|": the largest difference from the
splines result of the same method (scipy's is f64).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import numpy as np  # noqa: E402

import _timing as T  # noqa: E402

REFERENCE = "splines interp2d cubic2"
CASES = {
    # name: (batch or None, knots per axis, queries per value array)
    "small": (None, 32, 1000),
    "large": (None, 200, 10000),
    "batch": (100, 16, 100),
    "dispatch": (None, 8, 1),
}


def make_data(batch, n, m, dtype, seed=0):
    """Jittered knots on [0, 1] per axis, smooth values, random queries inside."""
    rng = np.random.default_rng(seed)
    h = 1.0 / (n - 1)
    knots = []
    for _ in range(2):
        k = np.linspace(0.0, 1.0, n) + rng.uniform(-0.3, 0.3, n) * h
        k[0], k[-1] = 0.0, 1.0
        knots.append(k)
    xp, yp = knots
    f = np.sin(6 * xp)[:, None] * np.cos(4 * yp)[None, :]
    if batch is not None:
        f = f * rng.uniform(0.5, 1.5, (batch, 1, 1))
    x, y = rng.uniform(0.0, 1.0, (2, m))
    return tuple(np.asarray(a, dtype) for a in (x, y, xp, yp, f))


def _jax_entries(x, y, xp, yp, f, batched: bool):
    """{name: (fn, args, method)}: fn(*args) is timed; its result is compared with
    the splines result of ``method`` (None: no comparison)."""
    import interpax

    import splines

    def ours(method):
        return lambda f: splines.interp2d(x, y, xp, yp, f, method)

    def theirs(method):
        return lambda f: interpax.interp2d(x, y, xp, yp, f, method=method)

    def fit(f):
        return splines.Interpolator2D(xp, yp, f)

    def evaluate(itp):
        return itp(x, y)

    wrap = (lambda g: jax.jit(jax.vmap(g))) if batched else jax.jit
    fitted = wrap(fit)(f)
    return {
        REFERENCE: (wrap(ours("cubic2")), (f,), "cubic2"),
        "splines interp2d akima": (wrap(ours("akima")), (f,), "akima"),
        "splines interp2d linear": (wrap(ours("linear")), (f,), "linear"),
        "splines Interpolator2D fit-only (cubic2)": (wrap(fit), (f,), None),
        "splines Interpolator2D eval-only (cubic2)": (wrap(evaluate), (fitted,), "cubic2"),
        "interpax.interp2d cubic2": (wrap(theirs("cubic2")), (f,), "cubic2"),
        "interpax.interp2d akima": (wrap(theirs("akima")), (f,), "akima"),
        "interpax.interp2d linear": (wrap(theirs("linear")), (f,), "linear"),
    }


def _scipy_entries(x, y, xp, yp, f, batched: bool):
    from scipy.interpolate import RectBivariateSpline, RegularGridInterpolator

    x, y, xp, yp, f = (np.asarray(a, np.float64) for a in (x, y, xp, yp, f))
    points = np.stack([x, y], axis=-1)

    def bicubic(f):
        return RectBivariateSpline(xp, yp, f)(x, y, grid=False)

    def linear(f):
        return RegularGridInterpolator((xp, yp), f)(points)

    def each(g):
        return (lambda f: [g(fi) for fi in f]) if batched else g

    suffix = " (loop over value arrays)" if batched else ""
    return {
        f"scipy RectBivariateSpline (fit+eval, f64){suffix}": (each(bicubic), (f,), "cubic2"),
        f"scipy RegularGridInterpolator linear (f64){suffix}": (each(linear), (f,), "linear"),
    }


def run_case(name, dtype, budget, verbose):
    batch, n, m = CASES[name]
    data = make_data(batch, n, m, dtype)
    batched = batch is not None
    entries = _jax_entries(*(jax.device_put(a) for a in data), batched)
    entries.update(_scipy_entries(*data, batched))
    timings = T.time_interleaved(
        {k: (fn, args) for k, (fn, args, _) in entries.items()}, verbose=verbose, **budget
    )
    references = {
        method: np.asarray(entries[key][0](*entries[key][1]), np.float64)
        for method, key in (("cubic2", REFERENCE), ("akima", "splines interp2d akima"),
                            ("linear", "splines interp2d linear"))
    }  # fmt: skip
    rows = T.comparison_rows(entries, timings, references, REFERENCE)
    title = f"{n} × {n} grid, {m} queries" + (
        f", batch of {batch} value arrays (vmap)" if batched else "")  # fmt: skip
    record = {"case": name, "batch": batch, "n": n, "queries": m, "rows": rows}
    return f"{name}: {title}", record


def main(argv=None):
    T.run_comparison(argv, __doc__, "interp2d_cpu", CASES, run_case, REFERENCE)


if __name__ == "__main__":
    main()
