"""Fitting: smoothing splines, B-spline interpolation and banded solves, against scipy
and interpax.

Contenders, each fitting and then evaluating at 100 points (the fit alone is not
observable from scipy's objects), float64, on one noisy sine:

- smoothing, p given: `splines.CubicSmoothingSpline(x, y, p)` against interpax's
  (both jitted, ``check=False``); knots uniform at random on [0, 10].
- smoothing, λ given: `splines.make_smoothing_spline(x, y, lam=λ)` (jitted) against
  scipy's.
- smoothing, λ by GCV: the same with ``lam=None``, on evenly spaced knots (on
  random ones scipy's search raises "ill-posed" at n = 1e4: its banded system's
  Cholesky breaks down); no check between them: scipy's criterion, computed from
  that system, is inaccurate there, so its λ is too.
- a batch of smoothing fits: 1000 fits of n = 256 (`jax.vmap` over the data) against
  a Python loop of scipy's.
- interpolation: `splines.make_interp_spline(x, y, k=5)` against scipy's, and
  ``k=3, bc_type="periodic"`` (the data's last value set to its first).
- smoothing with not-a-knot ends (p given) against interpax's.
- least squares: `splines.make_lsq_spline(x, y, t, 3)` (m sites, m/20 knots) against
  scipy's, with ``method="qr"`` (scipy's default) and ``"norm-eq"``.
- the banded solves: `splines.solve_banded((2, 2), ab, b)` and `solveh_banded` (p = 2)
  against scipy's (LAPACK gbsv, pbsv).

Targets (from issue 27, float64, blocked): p given ≥ 2x faster than interpax; λ given
≥ 3x and by GCV ≥ 2x faster than scipy; the batch ≥ 10x faster than scipy's loop;
``make_interp_spline(k=5)`` ≥ 2x faster than scipy's.
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from .._peers import installed
from .._suite import Case, Contender, Target

OURS_P = "splines.CubicSmoothingSpline"
INTERPAX_P = "interpax.CubicSmoothingSpline"
OURS_LAM = "splines.make_smoothing_spline"
SCIPY_LAM = "scipy make_smoothing_spline"
OURS_VMAP = "splines.make_smoothing_spline (vmap)"
SCIPY_LOOP = "scipy make_smoothing_spline (loop)"
OURS_INTERP = "splines.make_interp_spline"
SCIPY_INTERP = "scipy make_interp_spline"
OURS_LSQ = "splines.make_lsq_spline"
SCIPY_LSQ = "scipy make_lsq_spline"
OURS_BANDED = "splines.solve_banded"
OURS_SPD = "splines.solveh_banded"
SCIPY_BANDED = "scipy solve_banded"
SCIPY_SPD = "scipy solveh_banded"
QUERIES = np.linspace(0.5, 9.5, 100)
LAMBDA = 1e-2

SIZES = {
    "full": {"n": 10_000, "batch": (1_000, 256)},
    "quick": {"n": 10_000, "batch": (1_000, 256)},
    "smoke": {"n": 32, "batch": (4, 16)},
}


def _data(n: int, even: bool = False, batch: int | None = None, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, 10.0, n) if even else np.sort(rng.uniform(0.0, 10.0, n))
    shape = (n,) if batch is None else (batch, n)
    return x, np.sin(x) + 0.3 * rng.normal(size=shape)


def _ours_p(x, y, q, bc_type="natural"):
    import splines

    return splines.CubicSmoothingSpline(x, y, p=0.5, bc_type=bc_type, check=False)(q)


def _interpax_p(x, y, q, bc_type="natural"):
    import interpax

    return interpax.CubicSmoothingSpline(x, y, p=0.5, bc_type=bc_type, check=False)(q)


def _ours_lam(x, y, q, lam=LAMBDA):
    import splines

    return splines.make_smoothing_spline(x, y, lam=lam)(q)


def _ours_gcv(x, y, q):
    import splines

    return splines.make_smoothing_spline(x, y)(q)


def _scipy_lam(x, y, q, lam=LAMBDA):
    from scipy.interpolate import make_smoothing_spline

    return make_smoothing_spline(x, y, lam=lam)(q)


def _scipy_loop(x, ys, q):
    from scipy.interpolate import make_smoothing_spline

    return np.stack([make_smoothing_spline(x, y, lam=LAMBDA)(q) for y in ys])


def _ours_interp(x, y, q, k=5, bc_type=None):
    import splines

    return splines.make_interp_spline(x, y, k=k, bc_type=bc_type)(q)


def _scipy_interp(x, y, q, k=5, bc_type=None):
    from scipy.interpolate import make_interp_spline

    return make_interp_spline(x, y, k=k, bc_type=bc_type)(q)


def _lsq_knots(n: int):
    return np.r_[[0.0] * 4, np.linspace(0.0, 10.0, n // 20)[1:-1], [10.0] * 4]


def _ours_lsq(x, y, q, t, method="qr"):
    import splines

    return splines.make_lsq_spline(x, y, t, 3, check_finite=False, method=method)(q)


def _scipy_lsq(x, y, q, t, method="qr"):
    from scipy.interpolate import make_lsq_spline

    return make_lsq_spline(x, y, t, 3, method=method)(q)


def _build_lsq(n: int, method: str):
    def build():
        x, y = _data(n)
        t = _lsq_knots(n)
        ours, theirs = (partial(f, method=method) for f in (_ours_lsq, _scipy_lsq))
        out = [Contender(OURS_LSQ, "splines", jax.jit(ours), _device(x, y, QUERIES, t))]
        if installed("scipy"):
            out.append(Contender(SCIPY_LSQ, "scipy", theirs, (x, y, QUERIES, t), check=OURS_LSQ))
        return out

    return build


def _banded(n: int):
    rng = np.random.default_rng(2)
    ab = rng.normal(size=(5, n))
    ab[2] += 6.0  # diagonally dominant: the same answer from every solver
    spd = np.abs(rng.normal(size=(3, n))) * 0.3
    spd[2] += 3.0
    return ab, spd, rng.normal(size=n)


def _device(*arrays):
    return tuple(jnp.asarray(a) for a in arrays)


def _build_smoothing(n: int, bc_type: str = "natural"):
    def build():
        x, y = _data(n)
        ours, theirs = (partial(f, bc_type=bc_type) for f in (_ours_p, _interpax_p))
        out = [Contender(OURS_P, "splines", jax.jit(ours), _device(x, y, QUERIES))]
        if installed("interpax"):
            out.append(Contender(INTERPAX_P, "interpax", jax.jit(theirs),
                                 _device(x, y, QUERIES), check=OURS_P))  # fmt: skip
        return out

    return build


def _build_lambda(n: int, gcv: bool):
    def build():
        x, y = _data(n, even=gcv)
        ours = _ours_gcv if gcv else _ours_lam
        out = [Contender(OURS_LAM, "splines", jax.jit(ours), _device(x, y, QUERIES))]
        if installed("scipy"):
            scipy = (lambda x, y, q: _scipy_lam(x, y, q, None)) if gcv else _scipy_lam
            out.append(Contender(SCIPY_LAM, "scipy", scipy, (x, y, QUERIES),
                                 check=None if gcv else OURS_LAM))  # fmt: skip
        return out

    return build


def _build_batch(batch: int, n: int):
    def build():
        x, ys = _data(n, batch=batch)
        ours = jax.jit(jax.vmap(_ours_lam, in_axes=(None, 0, None)))
        out = [Contender(OURS_VMAP, "splines", ours, _device(x, ys, QUERIES))]
        if installed("scipy"):
            out.append(Contender(SCIPY_LOOP, "scipy", _scipy_loop, (x, ys, QUERIES),
                                 check=OURS_VMAP))  # fmt: skip
        return out

    return build


def _build_interp(n: int, k: int = 5, bc_type: str | None = None):
    def build():
        x, y = _data(n)
        if bc_type == "periodic":
            y[-1] = y[0]
        ours, theirs = (partial(f, k=k, bc_type=bc_type) for f in (_ours_interp, _scipy_interp))
        out = [Contender(OURS_INTERP, "splines", jax.jit(ours), _device(x, y, QUERIES))]
        if installed("scipy"):
            out.append(Contender(SCIPY_INTERP, "scipy", theirs, (x, y, QUERIES),
                                 check=OURS_INTERP))  # fmt: skip
        return out

    return build


def _build_banded(n: int, spd: bool):
    def build():
        import scipy.linalg

        import splines

        ab, positive, b = _banded(n)
        if spd:
            ours = jax.jit(lambda a, b: splines.solveh_banded(a, b, check_finite=False))
            theirs = lambda a, b: scipy.linalg.solveh_banded(a, b, check_finite=False)  # noqa: E731
            names, args = (OURS_SPD, SCIPY_SPD), (positive, b)
        else:
            ours = jax.jit(lambda a, b: splines.solve_banded((2, 2), a, b, check_finite=False))
            theirs = lambda a, b: scipy.linalg.solve_banded((2, 2), a, b, check_finite=False)  # noqa: E731
            names, args = (OURS_BANDED, SCIPY_BANDED), (ab, b)
        return [
            Contender(names[0], "splines", ours, _device(*args)),
            Contender(names[1], "scipy", theirs, args, check=names[0]),
        ]

    return build


def _short(n: int) -> str:
    e = int(round(np.log10(n)))
    return f"1e{e}" if n >= 1000 and 10**e == n else str(n)


def cases(mode: str) -> list[Case]:
    n, (batch, batch_n) = SIZES[mode]["n"], SIZES[mode]["batch"]
    size = _short(n)

    def case(name, build, params, targets=(), baseline=None):
        return Case("fitting", name, params, build, dtype="float64", targets=list(targets),
                    baseline=baseline)  # fmt: skip

    return [
        case(f"smoothing p n={size}", _build_smoothing(n), {"n": n},
             [Target("≥ 2x faster than interpax", OURS_P, [INTERPAX_P], 0.5)]),
        case(f"smoothing lam n={size}", _build_lambda(n, gcv=False), {"n": n},
             [Target("≥ 3x faster than scipy", OURS_LAM, [SCIPY_LAM], 1 / 3)]),
        case(f"smoothing GCV n={size}", _build_lambda(n, gcv=True), {"n": n},
             [Target("≥ 2x faster than scipy", OURS_LAM, [SCIPY_LAM], 0.5)]),
        case(f"smoothing {batch} fits n={batch_n}", _build_batch(batch, batch_n),
             {"B": batch, "n": batch_n},
             [Target("≥ 10x faster than scipy's loop", OURS_VMAP, [SCIPY_LOOP], 0.1)]),
        case(f"make_interp_spline k=5 n={size}", _build_interp(n), {"n": n, "k": 5},
             [Target("≥ 2x faster than scipy", OURS_INTERP, [SCIPY_INTERP], 0.5)]),
        case(f"smoothing p not-a-knot n={size}", _build_smoothing(n, "not-a-knot"),
             {"n": n, "bc_type": "not-a-knot"}),
        case(f"make_interp_spline k=3 periodic n={size}", _build_interp(n, 3, "periodic"),
             {"n": n, "k": 3, "bc_type": "periodic"}),
        case(f"make_lsq_spline k=3 qr n={size}", _build_lsq(n, "qr"), {"n": n, "k": 3}),
        case(f"make_lsq_spline k=3 norm-eq n={size}", _build_lsq(n, "norm-eq"), {"n": n, "k": 3}),
        case(f"solve_banded (2, 2) n={size}", _build_banded(n, spd=False), {"n": n}),
        case(f"solveh_banded p=2 n={size}", _build_banded(n, spd=True), {"n": n}),
    ]  # fmt: skip
