"""`splines.interp1d`, fit + evaluate in one jitted call, against its peers.

Sweeps of cubic2 (not-a-knot) over the queries q at n = 64 knots and over the
knots n at q = 1000; every method once at n = 64, q = 1000; the float64 case
n = 1000, q = 1e5.  Peers: interpax in each of its ways (`_peers`), scipy
(build + evaluate in float64, as it is used) and `jnp.interp`, the floor for
any method (linear, no fit).  The splines rows "fit-only" / "eval-only" split
our work in two (`Interpolator1D`).  ``check``: each row's result against
ours of the same method (interpax's ``makima`` does not exist; scipy's is
``Akima1DInterpolator(method="makima")``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .._data import on_device, spline_data
from .._peers import installed, interpax_contenders, interpax_names, scipy_contenders
from .._suite import Case, Contender, Target

METHODS = ("nearest", "linear", "cubic2", "cubic", "catmull-rom", "cardinal", "monotonic",
           "monotonic-0", "akima", "makima")  # fmt: skip
FLOOR = "jnp.interp (linear)"


def ours(method: str) -> str:
    return f"splines.interp1d {method}"


def _build(method: str, n: int, q: int, dtype: str, split: bool = False):
    def build():
        import splines

        data = spline_data(None, n, q, dtype)
        args = on_device(data)

        def interp(q, k, v):
            return splines.interp1d(q, k, v, method=method)

        name = ours(method)
        contenders = [Contender(name, "splines", jax.jit(interp), args)]
        if split:  # where the time goes: the fit, then the evaluation
            fit = jax.jit(lambda k, v: splines.Interpolator1D(k, v, method=method))
            contenders += [
                Contender("splines Interpolator1D fit-only", "splines", fit, args[1:]),
                Contender("splines Interpolator1D eval-only", "splines",
                          jax.jit(lambda itp, q: itp(q)), (fit(*args[1:]), args[0]), name),
            ]  # fmt: skip
        contenders += interpax_contenders(method, args, jax.jit, check=name)
        contenders += scipy_contenders(method, data, batched=False, check=name)
        check = name if method == "linear" else None
        contenders.append(Contender(FLOOR, "jax", jax.jit(jnp.interp), args, check))
        return contenders

    return build


def _build_even(n: int, q: int):
    """Evenly spaced knots: the piece by arithmetic (``even_spacing=True``) or by search,
    ours and interpax's (which has the same keyword)."""

    def build():
        import splines

        xq, _, _ = spline_data(None, n, q, "float32")
        xp = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
        args = on_device((xq, xp, jnp.sin(2 * jnp.pi * 3 * xp)))
        libraries = {"splines": splines.interp1d}
        if installed("interpax"):
            import interpax

            libraries["interpax"] = interpax.interp1d
        reference = "splines.interp1d cubic even_spacing=True"
        return [
            Contender(f"{library}.interp1d cubic even_spacing={even}", library,
                      jax.jit(lambda q, k, v, f=f, e=even: f(q, k, v, "cubic", 0, False, None, e)),
                      args, reference)
            for library, f in libraries.items() for even in (True, False)
        ]  # fmt: skip

    return build


def _case(method, n, q, dtype="float32", split=False, **options) -> Case:
    name = f"{method} n={n} q={q}" + ("" if dtype == "float32" else " f64")
    return Case("interp1d", name, {"method": method, "n": n, "q": q},
                _build(method, n, q, dtype, split), dtype=dtype, **options)  # fmt: skip


def _targets_small(regimes):
    return [
        t
        for regime in regimes
        for t in (
            Target("≥ 2x faster than interpax's fastest way", ours("cubic2"),
                   interpax_names("cubic2"), 0.5, regime),
            Target("≤ 2x jnp.interp", ours("cubic2"), [FLOOR], 2.0, regime),
        )
    ]  # fmt: skip


def _targets_large():
    return [
        Target("≥ 2x faster than interpax's fastest way", ours("cubic2"),
               interpax_names("cubic2"), 0.5),
        Target("≥ 3x faster than scipy", ours("cubic2"), ["scipy cubic2 (f64)"], 1 / 3),
    ]  # fmt: skip


def cases(mode: str) -> list[Case]:
    if mode == "smoke":
        return [_case("cubic2", 8, 8, split=True), _case("cubic2", 8, 8, "float64")]
    regimes = ("blocked", "pipelined")
    by_q, by_n = "cubic2, n=64", "cubic2, q=1000"
    small = _case("cubic2", 64, 1000, split=True, sweep=(by_q, by_n), x=("q", "n"),
                  regimes=regimes, targets=_targets_small(regimes))  # fmt: skip
    large = _case("cubic2", 1000, 100_000, "float64", targets=_targets_large())
    if mode == "quick":
        return [small, _case("linear", 64, 1000), _case("akima", 64, 1000), large]
    sweeps = [_case("cubic2", 64, q, sweep=by_q, x="q") for q in (8, 64, 10_000, 100_000,
                                                                   1_000_000)]  # fmt: skip
    sweeps += [_case("cubic2", n, 1000, sweep=by_n, x="n") for n in (8, 256, 1000, 10_000)]
    methods = [_case(m, 64, 1000) for m in METHODS if m != "cubic2"]
    even = [Case("interp1d", f"even spacing n={n} q={q}", {"method": "cubic", "n": n, "q": q},
                 _build_even(n, q)) for n, q in ((64, 1000), (10_000, 100_000))]  # fmt: skip
    return [small, *sweeps, *methods, *even, large]
