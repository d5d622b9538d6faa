"""CPU benchmark: `splines.interp1d` (cubic2) against its peers, in one process.

    python benchmarks/bench_interp1d.py          # full → results/interp1d_cpu.json
    python benchmarks/bench_interp1d.py --quick  # fewer repeats → results/interp1d_cpu_quick.json
    python benchmarks/bench_interp1d.py --x64    # float64 → results/interp1d_cpu_f64.json

Every JAX peer is wrapped in `jax.jit` (fit + evaluate in one call) and timed
after compiling; scipy's `CubicSpline` (construction + evaluation, float64,
numpy) is timed as it is used.  Ratios are peer time / `splines` cubic2
not-a-knot time in the same case (> 1: slower than splines).

Cases:
  small     n=64 knots,    1000 queries
  large     n=1000 knots, 10000 queries
  batch     1000 different grids of n=64 (vmap), 100 queries each
  dispatch  n=8 knots, 1 query: the per-call overhead

Rows marked "no outer jit" are the public calls exactly as a user writes them
(single-grid cases only): they include each library's Python-side work per call
(for `splines.interp1d`: dtype promotion and the eager knot checks).
"Interpolator1D fit-only"/"eval-only" split the splines work in two.
`interpax.interp1d(..., bc_type=...)` cannot run: interpax jits `interp1d`
with `bc_type` in `**kwargs`, so a string is rejected and a tuple is traced;
its natural spline is reachable only through `interpax.CubicSpline`.

Columns: median and min over the repeats (µs per call), IQR as % of the
median, ratio of medians, and "max|Δ|": the largest difference from the
splines result with the same boundary condition (the rows compute the same
spline; scipy's is f64).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import _timing as T  # noqa: E402

REFERENCE = "splines cubic2 not-a-knot"
CASES = {
    # name: (batch or None, n knots, queries per grid)
    "small": (None, 64, 1000),
    "large": (None, 1000, 10000),
    "batch": (1000, 64, 100),
    "dispatch": (None, 8, 1),
}


def make_data(batch, n, m, dtype, seed=0):
    """Jittered (well-spaced, non-uniform) knots on [0, 1], smooth values, random queries."""
    rng = np.random.default_rng(seed)
    shape = (n,) if batch is None else (batch, n)
    h = 1.0 / (n - 1)
    x = np.linspace(0.0, 1.0, n) + rng.uniform(-0.3, 0.3, shape) * h
    x[..., 0], x[..., -1] = 0.0, 1.0
    f = np.sin(2 * np.pi * 3 * x) + 0.1 * x
    xq = rng.uniform(0.0, 1.0, shape[:-1] + (m,))
    return tuple(np.asarray(a, dtype) for a in (xq, x, f))


# --- the contenders ------------------------------------------------------------------------
# Each `_*_entries` returns {name: (fn, args, bc)}: fn(*args) is what gets timed, and bc
# names the boundary condition whose splines result it should match (None: no check).


def _jax_entries(xq, x, f, batched: bool):
    import interpax

    import splines

    def s_interp(bc):
        return lambda q, k, v: splines.interp1d(q, k, v, bc_type=bc)

    def s_eval(itp, q):
        return itp(q)

    def ix_interp1d(bc):
        if bc is None:  # interpax's default cubic2 end condition is not-a-knot
            return lambda q, k, v: interpax.interp1d(q, k, v, method="cubic2")
        return lambda q, k, v: interpax.interp1d(q, k, v, method="cubic2", bc_type=bc)

    def ix_spline(bc):
        return lambda q, k, v: interpax.CubicSpline(k, v, bc_type=bc, check=False)(q)

    def linear(q, k, v):
        return jnp.interp(q, k, v)

    def s_fit(k, v):
        return splines.Interpolator1D(k, v)

    wrap = (lambda g: jax.jit(jax.vmap(g))) if batched else jax.jit
    fitted = wrap(s_fit)(x, f)  # not-a-knot, fitted once for the eval-only row
    args = (xq, x, f)
    return {
        REFERENCE: (wrap(s_interp("not-a-knot")), args, "not-a-knot"),
        "splines cubic2 natural": (wrap(s_interp("natural")), args, "natural"),
        "splines Interpolator1D fit-only (not-a-knot)": (wrap(s_fit), (x, f), None),
        "splines Interpolator1D eval-only (not-a-knot)": (
            wrap(s_eval), (fitted, xq), "not-a-knot"),
        "interpax.interp1d cubic2 (default = not-a-knot)": (
            wrap(ix_interp1d(None)), args, "not-a-knot"),
        "interpax.interp1d cubic2 bc_type='natural'": (
            wrap(ix_interp1d("natural")), args, "natural"),
        "interpax.CubicSpline not-a-knot (fit+eval)": (
            wrap(ix_spline("not-a-knot")), args, "not-a-knot"),
        "interpax.CubicSpline natural (fit+eval)": (
            wrap(ix_spline("natural")), args, "natural"),
        "jnp.interp (linear floor)": (wrap(linear), args, None),
    }  # fmt: skip


def _unjitted_entries(xq, x, f):
    """The public calls exactly as a user writes them (no outer `jax.jit`)."""
    import interpax

    import splines

    itp = splines.Interpolator1D(x, f)
    return {
        "splines.interp1d, no outer jit (eager checks)": (
            lambda q, k, v: splines.interp1d(q, k, v), (xq, x, f), "not-a-knot"),
        "splines Interpolator1D.__call__, no outer jit": (itp, (xq,), "not-a-knot"),
        "interpax.interp1d cubic2, no outer jit": (
            lambda q, k, v: interpax.interp1d(q, k, v, method="cubic2"), (xq, x, f),
            "not-a-knot"),
        "jnp.interp, no outer jit": (jnp.interp, (xq, x, f), None),
    }  # fmt: skip


def _scipy_entries(xq, x, f, batched: bool):
    from scipy.interpolate import CubicSpline

    xq, x, f = (np.asarray(a, np.float64) for a in (xq, x, f))

    def make(bc):
        if batched:
            return lambda q, k, v: [CubicSpline(ki, vi, bc_type=bc)(qi) for qi, ki, vi in
                                    zip(q, k, v)]  # fmt: skip
        return lambda q, k, v: CubicSpline(k, v, bc_type=bc)(q)

    suffix = " (loop over grids)" if batched else ""
    return {
        f"scipy CubicSpline not-a-knot (fit+eval, f64){suffix}": (
            make("not-a-knot"), (xq, x, f), "not-a-knot"),
        f"scipy CubicSpline natural (fit+eval, f64){suffix}": (
            make("natural"), (xq, x, f), "natural"),
    }  # fmt: skip


def run_case(name, dtype, budget, verbose):
    batch, n, m = CASES[name]
    xq, x, f = make_data(batch, n, m, dtype)
    batched = batch is not None
    on_device = tuple(jax.device_put(a) for a in (xq, x, f))  # no transfer in the timing
    entries = {**_jax_entries(*on_device, batched)}
    if not batched:
        entries.update(_unjitted_entries(*on_device))
    entries.update(_scipy_entries(xq, x, f, batched))

    timings = T.time_interleaved(
        {k: (fn, args) for k, (fn, args, _) in entries.items()}, verbose=verbose, **budget
    )
    references = {
        bc: np.asarray(entries[key][0](*entries[key][1]), np.float64)
        for bc, key in (("not-a-knot", REFERENCE), ("natural", "splines cubic2 natural"))
    }
    rows = T.comparison_rows(entries, timings, references, REFERENCE)
    title = f"n={n} knots, {m} queries" + (f", batch of {batch} grids (vmap)" if batched else "")
    record = {"case": name, "batch": batch, "n": n, "queries": m, "rows": rows}
    return f"{name}: {title}", record


def main(argv=None):
    T.run_comparison(argv, __doc__, "interp1d_cpu", CASES, run_case, REFERENCE)


if __name__ == "__main__":
    main()
