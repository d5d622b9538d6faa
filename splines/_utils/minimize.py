"""A bounded scalar minimiser that traces: Brent's method in a fixed number of steps.

scipy's ``minimize_scalar(f, bounds=(a, b), method="bounded")`` is Brent's
``fmin`` (R. P. Brent, *Algorithms for Minimization without Derivatives*,
1973, ch. 5): golden-section steps, parabolic steps through the three best
points when they are acceptable, stopping once the bracket around the best
point ``xf`` is within ``2·tol1 = 2 (√ε |xf| + xatol/3)``, or after ``max_steps``
evaluations (scipy's ``maxiter``, 500).  Here every step is branch-free
(`jnp.where` picks what a branch would assign), so the search runs under `jit`
and `vmap`, and it takes the same steps as scipy's (ε = 2.2e-16, as scipy's
constant): the same evaluations, so the same answer to rounding.
"""

import math

import jax.numpy as jnp
from jax import lax

_GOLDEN = 0.5 * (3.0 - math.sqrt(5.0))
_SQRT_EPS = math.sqrt(2.2e-16)
XATOL, MAX_STEPS = 1e-5, 500  # scipy's defaults (``xatol``, ``maxiter``)


def bounded_minimum(f, lower, upper, xatol: float = XATOL, max_steps: int = MAX_STEPS):
    """The ``x`` in [lower, upper] where scipy's bounded Brent search of ``f`` stops.

    ``f`` maps a scalar to a scalar (jnp); ``lower``, ``upper`` scalars.  A
    `lax.while_loop` (under `vmap` it runs until every search has stopped);
    no derivative: differentiate the minimum implicitly (`_methods.smoothing`).
    The GPU's kernel (`_methods.smoothing_gpu`) runs the same `start`, `searching`
    and `step` on its lanes.
    """

    def step_(carry):
        state, steps = carry
        return step(f, state, xatol), steps + 1

    state, _ = lax.while_loop(
        lambda carry: searching(*carry, xatol, max_steps), step_, (start(f, lower, upper), 1)
    )
    return state["xf"]


def start(f, lower, upper):
    """The search's state before its first step: one evaluation at the golden section."""
    a, b = jnp.asarray(lower), jnp.asarray(upper)
    xf = a + _GOLDEN * (b - a)
    fx = f(xf)
    zero = jnp.zeros_like(xf)
    return dict(a=a, b=b, fulc=xf, nfc=xf, xf=xf, fx=fx, ffulc=fx, fnfc=fx, rat=zero, e=zero)


def searching(state, steps, xatol, max_steps):
    """Whether the search goes on after ``steps`` evaluations: its bracket is wider than
    ``2·tol1`` around the best point, and fewer than ``max_steps`` evaluations."""
    xm = 0.5 * (state["a"] + state["b"])
    tol1 = _SQRT_EPS * jnp.abs(state["xf"]) + xatol / 3.0
    wide = jnp.abs(state["xf"] - xm) > 2.0 * tol1 - 0.5 * (state["b"] - state["a"])
    return wide & (steps < max_steps)


def step(f, s, xatol):
    """One step of scipy's ``_minimize_scalar_bounded`` loop, its branches as selects."""
    a, b, xf, fx = s["a"], s["b"], s["xf"], s["fx"]
    nfc, fnfc, fulc, ffulc = s["nfc"], s["fnfc"], s["fulc"], s["ffulc"]
    xm = 0.5 * (a + b)
    tol1 = _SQRT_EPS * jnp.abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    # A parabola through (xf, fx), (nfc, fnfc), (fulc, ffulc), tried once |e| > tol1.
    try_parabola = jnp.abs(s["e"]) > tol1
    r = (xf - nfc) * (fx - ffulc)
    q = (xf - fulc) * (fx - fnfc)
    p = (xf - fulc) * q - (xf - nfc) * r
    q = 2.0 * (q - r)
    p = jnp.where(q > 0.0, -p, p)
    q = jnp.abs(q)
    acceptable = (jnp.abs(p) < jnp.abs(0.5 * q * s["e"])) & (p > q * (a - xf)) & (p < q * (b - xf))
    parabolic = try_parabola & acceptable
    rat_parabola = p / jnp.where(parabolic, q, 1.0)
    near_end = ((xf + rat_parabola - a) < tol2) | ((b - (xf + rat_parabola)) < tol2)
    towards_middle = jnp.sign(xm - xf) + ((xm - xf) == 0)
    rat_parabola = jnp.where(near_end, tol1 * towards_middle, rat_parabola)
    # Otherwise a golden-section step into the larger side.
    e_golden = jnp.where(xf >= xm, a - xf, b - xf)
    e = jnp.where(parabolic, s["rat"], e_golden)
    rat = jnp.where(parabolic, rat_parabola, _GOLDEN * e_golden)
    x = xf + (jnp.sign(rat) + (rat == 0)) * jnp.maximum(jnp.abs(rat), tol1)
    fu = f(x)
    better = fu <= fx
    # The bracket and the three best points, as scipy updates them.
    a_new = jnp.where(better, jnp.where(x >= xf, xf, a), jnp.where(x < xf, x, a))
    b_new = jnp.where(better, jnp.where(x >= xf, b, xf), jnp.where(x < xf, b, x))
    second = ~better & ((fu <= fnfc) | (nfc == xf))
    third = ~better & ~second & ((fu <= ffulc) | (fulc == xf) | (fulc == nfc))
    fulc_new = jnp.where(better | second, nfc, jnp.where(third, x, fulc))
    ffulc_new = jnp.where(better | second, fnfc, jnp.where(third, fu, ffulc))
    nfc_new = jnp.where(better, xf, jnp.where(second, x, nfc))
    fnfc_new = jnp.where(better, fx, jnp.where(second, fu, fnfc))
    return dict(
        a=a_new,
        b=b_new,
        fulc=fulc_new,
        ffulc=ffulc_new,
        nfc=nfc_new,
        fnfc=fnfc_new,
        xf=jnp.where(better, x, xf),
        fx=jnp.where(better, fu, fx),
        rat=rat,
        e=e,
    )
