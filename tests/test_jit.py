"""Compiled programs: what a call compiles, and what must not compile it again.

1. Options are static Python values and data are traced: a user's `jax.jit` around
   `interp1d` with Python options traces once for any data; eager calls with new
   values (boundary values too) reuse one program; `Interpolator1D` compiles its
   call once per derivative order.  The public entry points are `jax.jit`
   functions (the C++ fast path, docs/architecture.md §6), not `eqx.filter_jit`;
   an `Interpolator1D` is a pytree through jit, vmap and grad; `interp1d` also
   runs under `jax.disable_jit`.
2. The *type* of a data value does not recompile either: a boundary value, a fill
   value or the period given in turn as a Python float, a Python int,
   `np.float32`, `np.float64`, a 0-d numpy array or a jax array reaches the
   program as one array of the computation dtype, so every variant runs the same
   compiled program.  Counted as XLA compilations of the jitted inner functions
   (`jax.log_compiles` messages): `splines._interpolate.functions._interpolate`
   (fit + evaluate of `interp1d`) and `splines._interpolate.fit.jit_fit` /
   `evaluate.jit_evaluate` (`Interpolator1D`), call by call, so a failure names
   the variants that compiled.  (``_cache_size()`` would also count the C++ fast
   path's separate entries for a numpy and a jax argument of the same dtype and
   shape, which share one compiled program.)  Each test uses a query shape (or
   knot count) meant for it alone; at most one call may compile.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _compiles import compiles

import splines
from splines._interpolate.evaluate import jit_evaluate as _evaluate
from splines._interpolate.fit import jit_fit as _fit
from splines._interpolate.functions import _interpolate as _interp1d

XP = jnp.linspace(0.0, 1.0, 9)
XP5 = np.arange(5.0)  # the data of the value-type tests
FP5 = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
DTYPES = [pytest.param(np.float64, id="f64"), pytest.param(np.float32, id="f32")]


# ------------------------------------------------------------ static options, traced data


@pytest.mark.parametrize(
    "bc_type", ["natural", "not-a-knot", "clamped", ((1, 0.2), (2, -0.3)), ("natural", (1, 1.0))]
)
def test_user_jit_with_python_options_compiles_once(bc_type):
    traces = []

    @jax.jit
    def user(x, xp, fp):
        traces.append(1)
        return splines.interp1d(x, xp, fp, method="cubic2", bc_type=bc_type, extrap=True)

    rng = np.random.default_rng(0)
    for _ in range(10):
        xp = np.sort(rng.random(9))
        out = user(rng.random(5), xp, rng.normal(size=9))
        assert np.all(np.isfinite(out))
    assert len(traces) == 1
    assert user._cache_size() == 1


def test_eager_calls_with_new_values_reuse_one_compiled_program():
    rng = np.random.default_rng(1)
    shape_no_one_else_uses = (13,)
    before = _interp1d._cache_size()
    for _ in range(10):
        splines.interp1d(rng.random(shape_no_one_else_uses), XP, rng.normal(size=9), "cubic2")
    assert _interp1d._cache_size() == before + 1


def test_bc_values_are_traced_not_static():
    """New boundary values must not recompile: they are data."""
    before = _interp1d._cache_size()
    for v in np.linspace(-1, 1, 5):
        splines.interp1d(jnp.arange(3.0) / 3, XP, XP**2, "cubic2", bc_type=((1, v), (2, 2 * v)))
    assert _interp1d._cache_size() == before + 1


def test_public_entry_points_use_jax_jit_not_filter_jit():
    for jitted in (_interp1d, _fit, _evaluate):
        assert type(jitted).__name__ == "PjitFunction"
        assert not isinstance(jitted, eqx.Module)


def test_interpolator_is_a_pytree_through_jit_vmap_grad():
    fp = jnp.cos(3 * XP)
    interp = splines.Interpolator1D(XP, fp, "cubic2", bc_type="natural")
    x = jnp.linspace(0.05, 0.95, 7)
    expected = splines.interp1d(x, XP, fp, "cubic2", bc_type="natural")
    leaves = jax.tree_util.tree_leaves(interp)
    assert all(isinstance(leaf, jax.Array) for leaf in leaves)

    np.testing.assert_allclose(jax.jit(lambda f, x: f(x))(interp, x), expected, rtol=1e-13)
    batched = jax.vmap(lambda f, x: f(x), in_axes=(None, 0))(interp, x[:, None])
    np.testing.assert_allclose(batched[:, 0], expected, rtol=1e-13)
    grads = jax.grad(lambda f: jnp.sum(f(x)))(interp)
    assert grads.coefficients.shape == interp.coefficients.shape
    np.testing.assert_allclose(  # the interpolant is linear in its coefficients
        jnp.sum(grads.coefficients * interp.coefficients), jnp.sum(expected), rtol=1e-12
    )


def test_interpolator_call_compiles_once_per_derivative():
    interp = splines.Interpolator1D(XP, XP**3, "cubic2")
    before = _evaluate._cache_size()
    for k in range(3):
        for _ in range(3):
            interp(jnp.linspace(0, 1, 11) * (k + 1) / 3, derivative=k)
    assert _evaluate._cache_size() == before + 3


def test_interp1d_runs_under_disable_jit():
    x, fp = jnp.linspace(0.05, 0.95, 7), jnp.cos(3 * XP)
    expected = splines.interp1d(x, XP, fp, "cubic2", bc_type="natural")
    with jax.disable_jit():
        got = splines.interp1d(x, XP, fp, "cubic2", bc_type="natural")
    np.testing.assert_allclose(got, expected, rtol=1e-13)


# ----------------------------------------------------------------- the type of a data value


def _variants(v):
    """The same number, exactly representable in f32, in every type a user might pass."""
    return {
        "python float": float(v),
        "python int": int(v),
        "np.float32": np.float32(v),
        "np.float64": np.float64(v),
        "np.array": np.array(float(v)),
        "jnp.array": jnp.array(float(v)),  # weak-typed f64 (x64 is on)
        "jnp f32 array": jnp.array(float(v), jnp.float32),
    }


def _queries(length, dtype):
    """A query shape reserved for one test (so its first call is its only compile)."""
    return np.linspace(-0.5, 4.5, length).astype(dtype)


def _run(jitted, calls):
    """Run ``calls`` (name → thunk) in order; note which of them compiled ``jitted``."""
    outs, compiled = {}, []
    with compiles(jitted) as counter:
        for name, call in calls.items():
            before = counter.count
            outs[name] = call()
            if counter.count > before:
                compiled.append(name)
    return outs, compiled


def _assert_one_program(jitted, calls, what, dtype):
    """One program for all ``calls``, and the same result (and dtype) from each."""
    outs, compiled = _run(jitted, calls)
    assert len(compiled) <= 1, (  # 0 when an earlier test compiled this very program
        f"{what}, fp {np.dtype(dtype).name}: {len(compiled)} programs for "
        f"one shape when only the type of a data value changed; these variants compiled: "
        f"{compiled} (all variants: {list(calls)})"
    )
    first = next(iter(outs.values()))
    assert first.dtype == dtype, (what, first.dtype)
    for name, out in outs.items():
        assert out.dtype == first.dtype, (what, name, out.dtype)
        np.testing.assert_array_equal(np.asarray(out), np.asarray(first), err_msg=f"{what}: {name}")


def _data(length, dtype):
    return _queries(length, dtype), XP5.astype(dtype), FP5.astype(dtype)


@pytest.mark.parametrize("dtype, length", [(np.float64, 37), (np.float32, 38)], ids=["f64", "f32"])
def test_bc_value_types_share_one_interp1d_program(dtype, length):
    x, xp, fp = _data(length, dtype)
    calls = {
        name: lambda v=v: splines.interp1d(x, xp, fp, "cubic2", bc_type=((1, v), (2, v)))
        for name, v in _variants(2.0).items()
    }
    _assert_one_program(_interp1d, calls, "interp1d bc value", dtype)


@pytest.mark.parametrize("dtype, length", [(np.float64, 39), (np.float32, 40)], ids=["f64", "f32"])
def test_fill_value_types_share_one_interp1d_program(dtype, length):
    x, xp, fp = _data(length, dtype)
    calls = {
        name: lambda v=v: splines.interp1d(x, xp, fp, "linear", extrap=v)
        for name, v in {**_variants(0.0), "np.int64": np.int64(0)}.items()
    }
    _assert_one_program(_interp1d, calls, "interp1d fill value", dtype)
    assert np.all(np.asarray(calls["python float"]())[x < 0] == 0)


@pytest.mark.parametrize("dtype, length", [(np.float64, 41), (np.float32, 42)], ids=["f64", "f32"])
def test_fill_pair_types_share_one_interp1d_program(dtype, length):
    x, xp, fp = _data(length, dtype)
    below, above = _variants(-1.0), _variants(3.0)
    calls = {
        f"({a}, {b})": lambda a=a, b=b: splines.interp1d(
            x, xp, fp, "linear", extrap=(below[a], above[b])
        )
        for a, b in zip(below, list(above)[::-1])
    }
    _assert_one_program(_interp1d, calls, "interp1d fill pair", dtype)


@pytest.mark.parametrize("dtype, length", [(np.float64, 43), (np.float32, 44)], ids=["f64", "f32"])
def test_period_types_share_one_interp1d_program(dtype, length):
    x, xp, fp = _data(length, dtype)
    calls = {
        name: lambda p=p: splines.interp1d(x, xp, fp, "linear", period=p)
        for name, p in _variants(6.0).items()
    }
    _assert_one_program(_interp1d, calls, "interp1d period", dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_interpolator_bc_value_types_share_one_fit(dtype):
    # The fit program is keyed by knot count: 6 knots here, used by no other test.
    xp, fp = np.arange(6.0).astype(dtype), np.arange(6.0).astype(dtype) ** 2
    x = _queries(45, dtype)
    calls = {
        name: lambda v=v: splines.Interpolator1D(xp, fp, "cubic2", bc_type=((1, v), (2, v)))(x)
        for name, v in _variants(2.0).items()
    }
    _assert_one_program(_fit, calls, "Interpolator1D bc value", dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_interpolator_period_types_share_one_fit(dtype):
    xp, fp = np.arange(7.0).astype(dtype), np.arange(7.0).astype(dtype) ** 2
    x = _queries(46, dtype)
    calls = {
        name: lambda p=p: splines.Interpolator1D(xp, fp, "linear", period=p)(x)
        for name, p in _variants(8.0).items()
    }
    _assert_one_program(_fit, calls, "Interpolator1D period", dtype)


@pytest.mark.parametrize("dtype, length", [(np.float64, 47), (np.float32, 48)], ids=["f64", "f32"])
def test_interpolator_fill_types_share_one_evaluation(dtype, length):
    x, xp, fp = _data(length, dtype)
    fits = {
        name: splines.Interpolator1D(xp, fp, "linear", extrap=v)
        for name, v in _variants(0.0).items()
    }
    calls = {name: lambda f=f: f(x) for name, f in fits.items()}
    _assert_one_program(_evaluate, calls, "Interpolator1D fill", dtype)


def test_the_compile_counter_sees_real_compiles():
    """Control: a new static option (the derivative order) must show up as a compile."""
    x, xp, fp = _data(41, np.float64)
    calls = {
        f"derivative={d}": lambda d=d: splines.interp1d(x, xp, fp, "cubic2", derivative=d)
        for d in (0, 1)
    }
    _, compiled = _run(_interp1d, calls)
    assert compiled == ["derivative=0", "derivative=1"], compiled
