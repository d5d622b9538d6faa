"""numpy knots and values closed over inside JAX transformations.

Knots and values given as numpy arrays are constants: concrete even while the
query is traced.  The library must run its eager checks on them with numpy
(never by turning them into jax values inside the trace, which makes tracers:
`TracerArrayConversionError`) and give the eager answer under `jax.jit`,
`jax.vmap`, `jax.grad` (w.r.t. the query), `jax.checkpoint`, a `lax.scan`
body and combinations — for `interp1d` and for `Interpolator1D` built inside
the transformed function, every method, and bc_type in (None, "natural",
"periodic" with the closing knot, `period=` with and without the closing
knot).  Bad numpy constants still raise `ValueError` eagerly: they are
concrete.

Reproducer: ``jax.jit(lambda x: interp1d(x, xp, fp, bc_type="periodic"))(0.3)``
with ``xp = np.linspace(0, 1, 9); fp = np.cos(2π xp)``.

Cost: every configuration × transformation for one API is traced into one
jitted program (`_transformed`); an error raised while tracing one of them is
caught and reported by name, so one program still says which ones fail.  The
eager answer is the f64 reference (scipy's `CubicSpline`, `np.interp`, scipy's
nearest) to 1e-12, which the eager library meets elsewhere (test_interp_scipy);
the reproducer is also compared with the eager library call itself.  The
local methods (one per family) are compared with the eager call, which
tests/test_methods.py validates against scipy and interpax.
"""

import functools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from jax import lax

from splines import Interpolator1D, interp1d

XP = np.linspace(0.0, 1.0, 9)  # includes the closing knot xp[0] + 1
FP = np.cos(2 * np.pi * XP)
X = np.array([0.13, 0.3, 0.52, 0.87, 0.61, 0.05])  # inside, off knots and midpoints
# One local method per family of slope rules; cardinal's tension is a constant too.
METHODS = ["nearest", "linear", "cubic2", "cardinal", "monotonic", "akima"]
OPTIONS = {"cardinal": {"c": np.float64(0.3)}}
RTOL = 1e-12

# (id, method, knots, values, options)
CONFIGS = [
    (f"{m}-{name}", m, xp, fp, {**kwargs, **OPTIONS.get(m, {})})
    for m in METHODS
    for name, xp, fp, kwargs in [
        ("default", XP, FP, {}),
        ("natural", XP, FP, {"bc_type": "natural"}),
        ("bc-periodic", XP, FP, {"bc_type": "periodic"}),
        ("period-closed", XP, FP, {"period": 1.0}),
        ("period-open", XP[:-1], FP[:-1], {"period": 1.0}),
    ]
    if m == "cubic2" or "bc_type" not in kwargs  # bc_type is cubic2's alone (spec 9)
]
CONFIG_IDS = [c[0] for c in CONFIGS]
APIS = ["interp1d", "Interpolator1D"]


def _function(api, method, xp, fp, kwargs):
    """A function of the query alone; xp, fp are numpy constants closed over."""
    if api == "interp1d":
        return lambda q: interp1d(q, xp, fp, method, **kwargs)
    return lambda q: Interpolator1D(xp, fp, method, **kwargs)(q)


TRANSFORMS = {
    "jit": lambda f, x: f(x),  # under the outer jit only
    "vmap": lambda f, x: jax.vmap(f)(x),  # jit of vmap
    "grad": lambda f, x: jax.vmap(jax.grad(f))(x),  # jit of vmap of grad
    "checkpoint": lambda f, x: jax.checkpoint(f)(x),
    "scan": lambda f, x: lax.scan(lambda c, q: (c, f(q)), 0.0, x)[1],
}


@functools.cache
def _transformed(api):
    """Run every configuration × transformation in one jitted program.

    Returns ``(outputs, errors)``, both keyed by ``"<config id>/<transform>"``.
    """
    errors = {}

    def run(x):
        outs = {}
        for cid, method, xp, fp, kwargs in CONFIGS:
            f = _function(api, method, xp, fp, kwargs)
            for name, transform in TRANSFORMS.items():
                key = f"{cid}/{name}"
                try:
                    outs[key] = transform(f, x)
                except Exception as e:  # noqa: BLE001 - reported by the tests
                    errors[key] = e
                    outs[key] = jnp.full(x.shape, jnp.nan)
        return outs

    outs = jax.jit(run)(X)
    return {k: np.asarray(v) for k, v in outs.items()}, errors


@functools.cache
def _reference(cid):
    """f64 values and first derivatives at X: what the eager call gives."""
    _, method, xp, fp, kwargs = next(c for c in CONFIGS if c[0] == cid)
    periodic = "period" in kwargs or kwargs.get("bc_type") == "periodic"
    xc, fc = (XP, FP) if periodic else (xp, fp)  # closed knots
    if method == "cubic2":
        bc = "periodic" if periodic else kwargs.get("bc_type", "not-a-knot")
        spline = si.CubicSpline(xc, fc, bc_type=bc)
        return spline(X), spline(X, 1)
    if method == "linear":
        cell = np.searchsorted(xc, X, side="right") - 1
        return np.interp(X, xc, fc), (np.diff(fc) / np.diff(xc))[cell]
    if method == "nearest":
        return si.interp1d(xc, fc, kind="nearest")(X), np.zeros_like(X)
    # The local methods: the eager library call (validated in test_methods.py).
    value, slope = interp1d(X, xp, fp, method, derivative=(0, 1), **kwargs)
    return np.asarray(value), np.asarray(slope)


def _short(e):
    """The exception's type and first line (tracer errors print whole jaxprs)."""
    return f"{type(e).__name__}: {(str(e).splitlines() or [''])[0][:300]}"


def _failures(api, transform):
    outs, errors = _transformed(api)
    failures = []
    for cid in CONFIG_IDS:
        key = f"{cid}/{transform}"
        if key in errors:
            e = errors[key]
            failures.append(f"CONSTANTS-IN-TRANSFORM defect ({api}, {key}): {_short(e)}")
            continue
        value, slope = _reference(cid)
        want = slope if transform == "grad" else value
        got = outs[key]
        scale = max(float(np.max(np.abs(want))), 1.0)
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=RTOL * scale):
            failures.append(
                f"TRANSFORM-RESULT defect ({api}, {key}): {got} differs from the eager {want}"
            )
    return failures


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("api", APIS)
def test_numpy_constants_under_transformations(api, transform):
    failures = _failures(api, transform)
    assert not failures, f"{len(failures)} of {len(CONFIGS)} configurations:\n" + "\n".join(
        failures
    )


# --------------------------------------------------------------------------- reproducer


def test_reproducer_jit_periodic():
    """jax.jit(lambda x: interp1d(x, xp, fp, bc_type="periodic"))(0.3) — the issue's case."""
    xp = np.linspace(0, 1, 9)
    fp = np.cos(2 * np.pi * xp)
    eager = interp1d(0.3, xp, fp, "cubic2", bc_type="periodic")
    try:
        got = jax.jit(lambda x: interp1d(x, xp, fp, "cubic2", bc_type="periodic"))(0.3)
    except Exception as e:  # noqa: BLE001
        pytest.fail(f"CONSTANTS-IN-TRANSFORM defect (reproducer): {_short(e)}")
    np.testing.assert_allclose(got, eager, rtol=0, atol=1e-13)
    np.testing.assert_allclose(
        got, si.CubicSpline(xp, fp, bc_type="periodic")(0.3), rtol=0, atol=1e-12
    )


def test_plain_transformations_without_an_outer_jit():
    """vmap, grad, checkpoint and scan applied directly (not inside a jit) to the
    reproducer's function: same answers."""
    f = _function("interp1d", "cubic2", XP, FP, {"bc_type": "periodic"})
    value, slope = _reference("cubic2-bc-periodic")
    results = {}
    for name, run in {
        "vmap": lambda: jax.vmap(f)(X),
        "grad": lambda: jnp.stack([jax.grad(f)(q) for q in X[:2]]),
        "checkpoint": lambda: jax.checkpoint(f)(X),
        "scan": lambda: lax.scan(lambda c, q: (c, f(q)), 0.0, X)[1],
    }.items():
        try:
            results[name] = np.asarray(run())
        except Exception as e:  # noqa: BLE001
            results[name] = _short(e)
    failures = [f"{k}: {v}" for k, v in results.items() if isinstance(v, str)]
    assert not failures, "CONSTANTS-IN-TRANSFORM defect (plain):\n" + "\n".join(failures)
    for name, got in results.items():
        want = slope[:2] if name == "grad" else value
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=name)


# --------------------------------------------------------------------------- bad constants


BAD = [
    pytest.param(
        np.array([0.0, 1.0, 3.0, 2.0, 4.0]), np.arange(5.0), {}, r"`xp`", id="non-increasing xp"
    ),
    pytest.param(
        np.array([0.0, 1.0, 1.0, 2.0, 4.0]), np.arange(5.0), {}, r"`xp`", id="duplicate xp"
    ),
    pytest.param(
        np.arange(5.0),
        np.array([0.0, 1.0, 4.0, 9.0, 0.5]),
        {"bc_type": "periodic"},
        "first and last",
        id="periodic ends differ",
    ),  # fmt: skip
    pytest.param(
        np.arange(5.0), np.arange(5.0), {"period": 3.0}, "`period`", id="knots wrap onto others"
    ),
]


@pytest.mark.parametrize("xp, fp, kwargs, match", BAD)
@pytest.mark.parametrize("api", APIS)
def test_bad_numpy_constants_still_raise_inside_transformations(api, xp, fp, kwargs, match):
    """Concrete data, so the eager check runs (at trace time) and raises ValueError."""
    f = _function(api, "cubic2", xp, fp, kwargs)
    for name, transformed in {
        "jit": lambda: jax.jit(f)(0.5),
        "vmap": lambda: jax.vmap(f)(X),
        "grad": lambda: jax.grad(f)(0.5),
        "checkpoint": lambda: jax.checkpoint(f)(X),
        "scan": lambda: lax.scan(lambda c, q: (c, f(q)), 0.0, X),
    }.items():
        try:
            transformed()
        except ValueError as e:
            assert re.search(match, str(e)), (name, str(e))
        except Exception as e:  # noqa: BLE001
            pytest.fail(
                f"CONSTANTS-IN-TRANSFORM defect ({api}, {name}): expected ValueError "
                f"matching {match!r}, got {_short(e)}"
            )
        else:
            pytest.fail(f"VALIDATION defect ({api}, {name}): bad numpy constants did not raise")
