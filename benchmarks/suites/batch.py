"""A batch of B distinct grids (n = 256 knots, 256 queries each) under `vmap`.

Each grid has its own knots, values and queries: the case of fitting many
curves at once.  Ours is `jax.vmap` of `splines.interp1d` (the batch goes into
the solve kernel's lanes); interpax in each of its ways under the same `vmap`;
scipy as a Python loop over the grids (up to B = 1000: beyond, one call takes
seconds); `jnp.interp` under `vmap` as the floor.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._data import on_device, spline_data
from .._peers import interpax_contenders, interpax_names, scipy_contenders
from .._suite import Case, Contender, Target

OURS = "splines.interp1d cubic2 (vmap)"
SCIPY_UP_TO = 1000


def _build(batch: int, n: int, q: int):
    def build():
        import splines

        data = spline_data(batch, n, q, "float32")
        args = on_device(data)

        def interp(q, k, v):
            return splines.interp1d(q, k, v, "cubic2")

        batched = lambda f: jax.jit(jax.vmap(f))  # noqa: E731
        contenders = [Contender(OURS, "splines", batched(interp), args)]
        contenders += interpax_contenders("cubic2", args, batched, check=OURS)
        if batch <= SCIPY_UP_TO:
            contenders += scipy_contenders("cubic2", data, batched=True, check=OURS)
        contenders.append(Contender("jnp.interp (linear, vmap)", "jax", batched(jnp.interp), args))
        return contenders

    return build


def _case(batch, n=256, q=256, targets=()) -> Case:
    return Case("batch", f"B={batch} n={n} q={q}", {"B": batch, "n": n, "q": q},
                _build(batch, n, q), sweep=f"cubic2 B grids, n={n}, q={q}", x="B",
                targets=list(targets))  # fmt: skip


def cases(mode: str) -> list[Case]:
    if mode == "smoke":
        return [_case(4, 8, 8)]
    target = Target("≥ 2x faster than interpax's fastest way under vmap", OURS,
                    interpax_names("cubic2"), 0.5)  # fmt: skip
    main = _case(1000, targets=[target])
    if mode == "quick":
        return [main]
    return [_case(10), _case(100), main, _case(10_000)]
