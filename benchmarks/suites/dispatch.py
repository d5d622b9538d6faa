"""Per-call cost on tiny inputs (n = 8 knots, 8 queries): what dispatch costs.

Against the floor, a trivial jitted function of the same three arguments, and
against interpax.  Eager rows are the calls exactly as a user writes them: for
`splines.interp1d` they include dtype promotion and the eager knot checks of
DESIGN.md §5, which the target keeps.  Both regimes: in an optimisation loop
every call waits for its result.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._data import on_device, spline_data
from .._peers import installed, interpax_contenders, interpax_names
from .._suite import Case, Contender, Target

JIT = "splines.interp1d cubic2 (jit)"
EAGER = "splines.interp1d cubic2 (eager)"
FLOOR = "trivial jitted function (q + k[0] + v[0])"


def _build(n: int, q: int):
    def build():
        import splines

        args = on_device(spline_data(None, n, q, "float32"))

        def interp(q, k, v):
            return splines.interp1d(q, k, v, "cubic2")

        def trivial(q, k, v):
            return q + k[0] + v[0]

        itp = splines.Interpolator1D(args[1], args[2], "cubic2")
        return [
            Contender(JIT, "splines", jax.jit(interp), args),
            Contender(EAGER, "splines", interp, args, check=JIT),
            Contender("splines.Interpolator1D.__call__ (eager)", "splines", itp, args[:1],
                      check=JIT),
            Contender(FLOOR, "jax", jax.jit(trivial), args),
            Contender("jnp.interp (jit)", "jax", jax.jit(jnp.interp), args),
            *interpax_contenders("cubic2", args, jax.jit, check=JIT),
        ]  # fmt: skip

    return build


CLASS_EAGER = "splines.CubicSpline(x, y)(q) (eager)"
CLASS_JIT = "splines.CubicSpline(x, y)(q) (jit)"
SCIPY_CALL = "scipy CubicSpline(x, y)(q) (f64)"
INTERPAX_CALL = "interpax.CubicSpline(x, y)(q)"
INTEGRATE_EAGER = "splines.CubicSpline.integrate (eager)"
INTEGRATE_JIT = "splines.CubicSpline.integrate (jit)"
SCALAR_FLOOR = "trivial jitted function (q + 1) of a Python float"


def _build_class_calls(n: int):
    """A fitted spline's eager calls as ported scipy code makes them: a scalar query and
    an integral, against the same call jitted and scipy's and interpax's calls, and the
    floor of any call that runs a compiled program: a trivial one of a Python float."""

    def build():
        import scipy.interpolate as si

        import splines

        _, knots, values = spline_data(None, n, 1, "float32")
        ours = splines.CubicSpline(knots, values)
        q = float(knots[1] + 0.3 * (knots[2] - knots[1]))
        a, b = float(knots[0]), float(knots[n // 2])
        call, integrate = jax.jit(lambda s, q: s(q)), jax.jit(lambda s: s.integrate(a, b))
        scipy_spline = si.CubicSpline(np.float64(knots), np.float64(values))
        contenders = [
            Contender(CLASS_JIT, "splines", call, (ours, q)),
            Contender(CLASS_EAGER, "splines", lambda q: ours(q), (q,), check=CLASS_JIT),
            Contender(SCIPY_CALL, "scipy", scipy_spline, (q,), check=CLASS_JIT),
            Contender(SCALAR_FLOOR, "jax", jax.jit(lambda q: q + 1), (q,)),
            Contender(INTEGRATE_JIT, "splines", integrate, (ours,)),
            Contender(INTEGRATE_EAGER, "splines", lambda: ours.integrate(a, b), (),
                      check=INTEGRATE_JIT),
            Contender("scipy CubicSpline.integrate (f64)", "scipy",
                      lambda: scipy_spline.integrate(a, b), (), check=INTEGRATE_JIT),
        ]  # fmt: skip
        if installed("interpax"):
            import interpax

            theirs = interpax.CubicSpline(knots, values)
            contenders.append(Contender(INTERPAX_CALL, "interpax", lambda q: theirs(q), (q,),
                                        check=CLASS_JIT))  # fmt: skip
        return contenders

    return build


def cases(mode: str) -> list[Case]:
    regimes = ("blocked", "pipelined")
    targets = [
        t
        for regime in regimes
        for t in (
            Target("jitted ≤ 1.2x a trivial jitted function", JIT, [FLOOR], 1.2, regime),
            Target("eager ≤ 2x the jitted call", EAGER, [JIT], 2.0, regime),
            Target("jitted faster than interpax's fastest way", JIT,
                   interpax_names("cubic2"), 1.0, regime),
        )
    ]  # fmt: skip
    class_targets = [
        Target("eager scalar call ≤ 2x the jitted call", CLASS_EAGER, [CLASS_JIT], 2.0),
        Target("eager scalar call ≤ 3x scipy's", CLASS_EAGER, [SCIPY_CALL], 3.0),
        Target("eager scalar call ≤ 0.5x interpax's", CLASS_EAGER, [INTERPAX_CALL], 0.5),
        Target("eager integrate ≤ 2x the jitted call", INTEGRATE_EAGER, [INTEGRATE_JIT], 2.0),
    ]
    return [
        Case("dispatch", "n=8 q=8", {"n": 8, "q": 8}, _build(8, 8), regimes=regimes,
             targets=targets),
        Case("dispatch", "scipy class n=11, scalar", {"n": 11, "q": 1}, _build_class_calls(11),
             targets=class_targets),
    ]  # fmt: skip
