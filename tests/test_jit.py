"""jit behaviour: one compile, static options as plain Python, the C++ fast path."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines
from splines._interpolate.evaluate import jit_evaluate as _evaluate
from splines._interpolate.fit import jit_fit as _fit
from splines._interpolate.functions import _interpolate as _interp1d

XP = jnp.linspace(0.0, 1.0, 9)


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
        splines.interp1d(rng.random(shape_no_one_else_uses), XP, rng.normal(size=9))
    assert _interp1d._cache_size() == before + 1


def test_bc_values_are_traced_not_static():
    """New boundary values must not recompile: they are data."""
    before = _interp1d._cache_size()
    for v in np.linspace(-1, 1, 5):
        splines.interp1d(jnp.arange(3.0) / 3, XP, XP**2, bc_type=((1, v), (2, 2 * v)))
    assert _interp1d._cache_size() == before + 1


def test_public_entry_points_use_jax_jit_not_filter_jit():
    for jitted in (_interp1d, _fit, _evaluate):
        assert type(jitted).__name__ == "PjitFunction"
        assert not isinstance(jitted, eqx.Module)


def test_interpolator_is_a_pytree_through_jit_vmap_grad():
    fp = jnp.cos(3 * XP)
    interp = splines.Interpolator1D(XP, fp, bc_type="natural")
    x = jnp.linspace(0.05, 0.95, 7)
    expected = splines.interp1d(x, XP, fp, bc_type="natural")
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
    interp = splines.Interpolator1D(XP, XP**3)
    before = _evaluate._cache_size()
    for k in range(3):
        for _ in range(3):
            interp(jnp.linspace(0, 1, 11) * (k + 1) / 3, derivative=k)
    assert _evaluate._cache_size() == before + 3


def test_interp1d_runs_under_disable_jit():
    x, fp = jnp.linspace(0.05, 0.95, 7), jnp.cos(3 * XP)
    expected = splines.interp1d(x, XP, fp, bc_type="natural")
    with jax.disable_jit():
        got = splines.interp1d(x, XP, fp, bc_type="natural")
    np.testing.assert_allclose(got, expected, rtol=1e-13)
