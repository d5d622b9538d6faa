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

from .._data import on_device, spline_data
from .._peers import interpax_names, interpax_contenders
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
    return [Case("dispatch", "n=8 q=8", {"n": 8, "q": 8}, _build(8, 8), regimes=regimes,
                 targets=targets)]  # fmt: skip
