"""Rectilinear grids: `splines.interp2d` and `interp3d` fit + evaluate, against the peers.

Every JAX row is jitted, and fits and evaluates in one call as a user who
changes the values between calls does: our `interp2d`/`interp3d` (the
baseline), interpax's (re-fit on each call) and its `Interpolator2D`/`3D`
(built and called inside one jit).  Our `Interpolator2D`/`3D` are also timed
split, fit only (the coefficients) and evaluation only (of a fitted one), to
show which half costs.  scipy is timed as it is used, in float64 on the same inputs: 2-D
`RectBivariateSpline` (FITPACK, s=0: the not-a-knot bicubic, cubic2's
interpolant) and `RegularGridInterpolator` (linear, and its two cubics in
3-D).  Cases: 2-D grids of 8², 32², 200² with 1000 queries in cubic2, linear
and akima (each method a sweep against n), 8² with one query (the per-call
overhead), 100 value arrays on one 16² grid (vmap); 3-D grids (1000 queries)
of 8³ … 128³ in cubic2, 8³ … 64³ in linear, 32³ and 64³ in akima and
monotonic.  "max rel Δ" is against our interp2d/interp3d of the same method,
where a contender computes the same interpolant.  The targets: our cubic2 at
most the time of interpax's fastest way on 32² and 200² and on 32³, and at
most 1/1.5 of it on 64³.  --quick runs the first three cases only, without the
split and the slow scipy rows; --smoke three tiny cases.
"""

from __future__ import annotations

import jax
import numpy as np

from .._data import on_device
from .._peers import installed
from .._suite import Case, Contender, Target

METHODS = {2: ("cubic2", "linear", "akima"), 3: ("cubic2", "linear", "akima", "monotonic")}
SIZES_3D = {"cubic2": (8, 32, 64, 128), "linear": (8, 32, 64), "akima": (32, 64),
            "monotonic": (32, 64)}  # fmt: skip


def ours(dims: int, method: str) -> str:
    """The case's baseline and every check's reference."""
    return f"splines.interp{dims}d {method}"


def interpax_ways(dims: int, method: str) -> list[str]:
    """interpax's rows: a target's denominators."""
    return [f"interpax.interp{dims}d {method}", f"interpax.Interpolator{dims}D {method}"]


# --- data ---------------------------------------------------------------------------------


def grid_data(dims: int, n: int, q: int, batch=None, seed: int = 0) -> tuple:
    """(queries per axis, knots per axis, values), float32: jittered (well-spaced,
    non-uniform) knots on [0, 1], a smooth separable function, uniform queries
    inside; ``batch`` value arrays (scaled copies) on the same grid if given."""
    rng = np.random.default_rng(seed)
    knots = [_jittered(n, rng) for _ in range(dims)]
    factors = (np.sin(6 * knots[0]), np.cos(4 * knots[1]), np.cos(3 * knots[-1] + 1))
    values = np.einsum(",".join("ijk"[:dims]) + "->" + "ijk"[:dims], *factors[:dims])
    if batch is not None:
        values = values * rng.uniform(0.5, 1.5, (batch,) + (1,) * dims)
    queries = list(rng.uniform(0.0, 1.0, (dims, q)))
    return tuple(np.asarray(a, np.float32) for a in (*queries, *knots, values))


def _jittered(n: int, rng) -> np.ndarray:
    h = 1.0 / (n - 1)
    k = np.linspace(0.0, 1.0, n) + rng.uniform(-0.3, 0.3, n) * h
    k[0], k[-1] = 0.0, 1.0
    return k


def _jit(fn, nargs: int, batched: int | None):
    """`jax.jit`, over a `jax.vmap` along argument ``batched`` when given.  Grids and
    queries are arguments, never closed over: a constant would let XLA fold the
    cell search into the compiled program."""
    if batched is None:
        return jax.jit(fn)
    return jax.jit(jax.vmap(fn, in_axes=tuple(0 if i == batched else None for i in range(nargs))))


# --- contenders ---------------------------------------------------------------------------


def _splines(dims: int, method: str, args: tuple, batch, split: bool) -> list[Contender]:
    """interpNd (the reference), and if ``split`` InterpolatorND fit and evaluation apart."""
    import splines

    interp = getattr(splines, f"interp{dims}d")
    batched = None if batch is None else len(args) - 1  # the values, last

    def fit_eval(*a):
        return interp(*a, method)

    reference = Contender(ours(dims, method), "splines", _jit(fit_eval, len(args), batched), args)
    return [reference, *(_split(dims, method, args, batch) if split else [])]


def _split(dims: int, method: str, args: tuple, batch) -> list[Contender]:
    """InterpolatorND fit only (to the coefficients), and evaluation only of a fitted one."""
    import splines

    interpolator = getattr(splines, f"Interpolator{dims}D")

    def fit(*a):  # knots and values
        return interpolator(*a, method)

    def evaluate(itp, *queries):
        return itp(*queries)

    jfit = _jit(fit, dims + 1, None if batch is None else dims)
    fitted = jfit(*args[dims:])
    cls = f"splines.Interpolator{dims}D {method}"
    return [
        Contender(f"{cls} fit-only", "splines", jfit, args[dims:]),  # coefficients: no check
        Contender(f"{cls} eval-only", "splines",
                  _jit(evaluate, dims + 1, None if batch is None else 0),
                  (fitted, *args[:dims]), check=ours(dims, method)),
    ]  # fmt: skip


def _interpax(dims: int, method: str, args: tuple, batch) -> list[Contender]:
    """interpax's two ways, both fit + evaluate (its default even_spacing: as users call
    them).  Its cubic2 is the not-a-knot spline (its fx, fy, fxy along each axis in
    turn) and its akima the same per-axis rule as ours: same interpolants, within
    float32 rounding (≤ 4e-6 relative measured)."""
    if not installed("interpax"):
        return []
    import interpax

    interp = getattr(interpax, f"interp{dims}d")
    interpolator = getattr(interpax, f"Interpolator{dims}D")
    batched = None if batch is None else len(args) - 1

    def fit_eval(*a):
        return interp(*a, method=method)

    def build_call(*a):
        return interpolator(*a[dims:], method=method)(*a[:dims])

    ref = ours(dims, method)
    return [Contender(name, "interpax", _jit(fn, len(args), batched), args, check=ref)
            for name, fn in zip(interpax_ways(dims, method), (fit_eval, build_call))]  # fmt: skip


def _scipy(dims: int, method: str, args: tuple, batch, slow: bool) -> list[Contender]:
    """scipy's counterparts in float64 (a Python loop over value arrays if batched)."""
    if not installed("scipy"):
        return []
    f64 = tuple(np.asarray(a, np.float64) for a in args)
    out = []
    for name, build, check in _scipy_ways(dims, method, len(args[dims]), slow):
        fn = _scipy_fn(dims, build)
        if batch is not None:
            fn, name = _loop(fn), name + " (loop over value arrays)"
        out.append(Contender(f"scipy {name} (f64)", "scipy", fn, f64,
                             ours(dims, method) if check else None))  # fmt: skip
    return out


def _scipy_ways(dims: int, method: str, n: int, slow: bool) -> list[tuple]:
    """(name, build(knots, values) -> evaluate(points (q, dims)), same interpolant?);
    the 3-D cubics (0.3-1.3 s a call at 32³) only if ``slow``."""
    from scipy.interpolate import RectBivariateSpline, RegularGridInterpolator

    def rgi(kind):
        return lambda knots, values: RegularGridInterpolator(knots, values, method=kind)

    def bicubic(knots, values):  # s=0, kx=ky=3: interior knots at the data, not-a-knot
        spline = RectBivariateSpline(*knots, values)
        return lambda points: spline(*points.T, grid=False)

    if method == "linear":
        return [("RegularGridInterpolator linear", rgi("linear"), True)]
    if method == "cubic2" and dims == 2:
        return [("RectBivariateSpline", bicubic, True)]
    if method == "cubic2" and dims == 3 and slow:
        # Both are the not-a-knot tensor spline.  "cubic_legacy" fits 1-D splines axis
        # by axis at each point: exact.  "cubic" (NdBSpline) solves for all n³
        # coefficients at once, iteratively (gcrotmk, atol 1e-6): ~2e-5 relative off,
        # not rounding, so no check; 1.7 s a call at 64³, so only up to 32³.
        iterative = [("RegularGridInterpolator cubic", rgi("cubic"), False)] if n <= 32 else []
        legacy = [("RegularGridInterpolator cubic_legacy", rgi("cubic_legacy"), True)]
        return iterative + (legacy if n <= 64 else [])
    return []  # akima: scipy has no grid counterpart of this rule


def _scipy_fn(dims: int, build):
    def fn(*a):
        return build(a[dims:-1], a[-1])(np.stack(a[:dims], axis=-1))

    return fn


def _loop(fn):
    def loop(*a):
        return np.stack([fn(*a[:-1], values) for values in a[-1]])

    return loop


def _build(dims: int, method: str, n: int, q: int, batch=None, quick: bool = False):
    """``quick``: no split rows (two more compiles) and no slow scipy rows."""

    def build():
        host = grid_data(dims, n, q, batch)
        args = on_device(host)
        return [*_splines(dims, method, args, batch, split=not quick),
                *_interpax(dims, method, args, batch),
                *_scipy(dims, method, host, batch, slow=not quick)]  # fmt: skip

    return build


# --- cases --------------------------------------------------------------------------------


def _case(dims: int, method: str, n: int, q: int, target=False, quick=False) -> Case:
    """One grid of one method: a point of the "<dims>-D <method>" sweep against n;
    ``target``: our interpNd at most the time of interpax's fastest way (a number: at
    most that fraction of it)."""
    name = ours(dims, method)
    targets = []
    if target:
        bound = 1.0 if target is True else float(target)
        what = "faster than" if bound == 1.0 else f"≥ {1 / bound:.3g}x faster than"
        targets.append(Target(f"{name} {what} interpax's fastest way", name,
                              interpax_ways(dims, method), bound))  # fmt: skip
    return Case("grid", f"{dims}-D {method} n={n} q={q}",
                {"dims": dims, "method": method, "n": n, "q": q},
                _build(dims, method, n, q, quick=quick), sweep=f"{dims}-D {method}", x="n",
                targets=targets)  # fmt: skip


def _overhead(n: int) -> Case:
    """One query on a small grid: what a call costs beyond the arithmetic.  Both
    regimes, as in the dispatch suite: an optimisation loop waits for each call."""
    return Case("grid", f"2-D cubic2 n={n} q=1 (per-call overhead)",
                {"dims": 2, "method": "cubic2", "n": n, "q": 1}, _build(2, "cubic2", n, 1),
                regimes=("blocked", "pipelined"))  # fmt: skip


def _batch(method: str, batch: int, n: int, q: int) -> Case:
    """Many value arrays on one grid, as a field sampled at many times: jit(vmap)."""
    return Case("grid", f"2-D batch {method} b={batch} n={n} q={q}",
                {"dims": 2, "method": method, "batch": batch, "n": n, "q": q},
                _build(2, method, n, q, batch))  # fmt: skip


def cases(mode: str) -> list[Case]:
    if mode == "smoke":  # ≤ 8 knots a side, ≤ 8 queries: each code path but scipy's 3-D
        # cubics (3-D linear: 3-D cubic2's compiles would double the run's ~12 s)
        return [_case(2, "cubic2", 8, 8), _batch("cubic2", 3, 8, 8), _case(3, "linear", 8, 8)]
    if mode == "quick":  # the targets' cases; compiling is most of its ~20 s on 2 cores
        return [_case(2, "cubic2", n, 1000, True, quick=True) for n in (32, 200)] + [
            _case(3, "cubic2", 32, 1000, True, quick=True)]  # fmt: skip
    targeted = {(2, 32): True, (2, 200): True, (3, 32): True, (3, 64): 1 / 1.5}
    return [
        *(_case(2, m, n, 1000, m == "cubic2" and targeted.get((2, n), False))
          for m in METHODS[2] for n in (8, 32, 200)),
        _overhead(8),
        *(_batch(m, 100, 16, 100) for m in METHODS[2]),
        *(_case(3, m, n, 1000, m == "cubic2" and targeted.get((3, n), False))
          for m in METHODS[3] for n in SIZES_3D[m]),
    ]  # fmt: skip
