"""Gradients of a loss through `interp1d`: w.r.t. the values fp, the knots xp,
both, and the queries x; against interpax, and as a ratio to our own forward.

The loss is Σ interp1d(x, xp, fp)², jitted with its gradient; the forward row
is the same loss without the gradient.  A gradient costs at least one more
pass (our transpose rule is one more solve with the same matrix), so 2x the
forward is the bound the target sets.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._data import on_device, spline_data
from .._peers import installed
from .._suite import Case, Contender, Target

FORWARD = "splines loss (forward only)"
WRT = {"fp": (2,), "xp": (1,), "(fp, xp)": (1, 2), "x": (0,)}


def ours(wrt: str) -> str:
    return f"splines grad w.r.t. {wrt}"


def _loss(interp):
    return lambda q, k, v: jnp.sum(interp(q, k, v) ** 2)


def _build(n: int, q: int, wrts=tuple(WRT)):
    def build():
        import splines

        args = on_device(spline_data(None, n, q, "float32"))
        loss = _loss(lambda q, k, v: splines.interp1d(q, k, v, "cubic2"))
        contenders = [Contender(FORWARD, "splines", jax.jit(loss), args)]
        contenders += [Contender(ours(wrt), "splines", jax.jit(jax.grad(loss, argnums)), args)
                       for wrt, argnums in WRT.items() if wrt in wrts]  # fmt: skip
        if installed("interpax"):
            import interpax

            ways = {
                "interpax.interp1d": lambda q, k, v: interpax.interp1d(q, k, v, method="cubic2"),
                "interpax.CubicSpline(check=False)":
                    lambda q, k, v: interpax.CubicSpline(k, v, check=False)(q),
            }  # fmt: skip
            for way, interp in ways.items():
                for wrt in [w for w in ("fp", "(fp, xp)") if w in wrts]:
                    grad = jax.jit(jax.grad(_loss(interp), WRT[wrt]))
                    contenders.append(Contender(f"{way} grad w.r.t. {wrt}", "interpax", grad,
                                                args, check=ours(wrt)))  # fmt: skip
        return contenders

    return build


def _case(n: int, q: int, targets=(), wrts=tuple(WRT)) -> Case:
    return Case("grad", f"n={n} q={q}", {"n": n, "q": q}, _build(n, q, wrts), baseline=FORWARD,
                targets=list(targets))  # fmt: skip


def cases(mode: str) -> list[Case]:
    if mode == "smoke":
        return [_case(8, 8, wrts=("(fp, xp)",))]  # one gradient: the plumbing
    target = Target("grad w.r.t. (fp, xp) ≤ 2x our own forward", ours("(fp, xp)"), [FORWARD], 2.0)
    large = _case(1000, 100_000, [target])
    return [large] if mode == "quick" else [_case(64, 1000), large]
