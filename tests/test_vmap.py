"""`jax.vmap` over batches of *different* knot grids equals the per-grid loop.

Under `vmap` the knots (and a period) are traced, so the eager data checks do
not run and a traced period cannot close the knots: periodic grids are passed
without their closing knot.  References are plain Python loops of eager calls.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines
from splines import Interpolator1D, interp1d
from splines._pieces import search as _search

B, N, M = 3, 6, 5  # grids, knots per grid, queries per grid


def _grids(seed=0):
    rng = np.random.default_rng(seed)
    spacing = rng.uniform(0.4, 1.2, (B, N - 1))
    xp = np.concatenate([rng.uniform(-0.5, 0.5, (B, 1)), spacing], axis=1).cumsum(axis=1)
    fp = rng.normal(size=(B, N))
    # Queries inside each grid, plus one just past its end (NaN without extrap).
    lo, hi = xp[:, :1], xp[:, -1:]
    x = lo + (hi - lo) * rng.uniform(0.02, 0.98, (B, M))
    x[:, -1] = hi[:, 0] + 0.3
    return xp, fp, x


XP, FP, X = _grids()
FP_CLOSED = FP.copy()
FP_CLOSED[:, -1] = FP_CLOSED[:, 0]  # for bc_type="periodic" (fp[-1] == fp[0])
PERIODS = XP[:, -1] - XP[:, 0] + np.array([0.5, 0.9, 0.7])  # one period per grid


def loop(f, in_axes, args):
    """What ``jax.vmap(f, in_axes)(*args)`` must equal: a Python loop."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    return np.stack([
        np.asarray(f(*(a if ax is None else np.take(a, k, axis=ax)
                       for a, ax in zip(args, in_axes))))
        for k in range(size)
    ])  # fmt: skip


def find_eqns(jaxpr, name):
    """Equations called ``name`` in a (closed) jaxpr, including sub-jaxprs."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    found = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == name:
            found.append(eqn)
        for sub in jax.extend.core.jaxprs_in_params(eqn.params):
            found += find_eqns(sub, name)
    return found


def count_eqns(jaxpr, name):
    return len(find_eqns(jaxpr, name))


def assert_close(actual, expected):
    # Same arithmetic per grid, batched or not: agreement to a few ulps.  NaN
    # (queries outside a grid) must appear at the same places.
    np.testing.assert_allclose(actual, expected, rtol=1e-13, atol=1e-13, equal_nan=True)


CONFIGS = {
    "not-a-knot": ({"method": "cubic2", "bc_type": "not-a-knot"}, FP),
    "natural": ({"method": "cubic2", "bc_type": "natural"}, FP),
    "clamped": ({"method": "cubic2", "bc_type": "clamped", "derivative": 1}, FP),
    "mixed": ({"method": "cubic2", "bc_type": ((1, 0.5), (2, -1.0)), "extrap": True}, FP),
    "periodic": ({"method": "cubic2", "bc_type": "periodic"}, FP_CLOSED),
    "linear": ({"method": "linear", "extrap": (-7.0, 7.0)}, FP),
    "nearest": ({"method": "nearest"}, FP),
}


def _config_function(name):
    kwargs, _ = CONFIGS[name]
    return lambda x, xp, fp: interp1d(x, xp, fp, **kwargs)


@functools.cache
def _batches_of_grids():
    """name → ``vmap`` of the config over the grids: every config in one compiled program."""
    run = jax.jit(lambda x, xp, fps: {name: jax.vmap(_config_function(name))(x, xp, fp)
                                      for name, fp in fps.items()})  # fmt: skip
    return run(X, XP, {name: fp for name, (_, fp) in CONFIGS.items()})


@pytest.mark.parametrize("name", CONFIGS)
def test_interp1d_batch_of_grids(name):
    fp = CONFIGS[name][1]
    out = _batches_of_grids()[name]
    assert out.shape == (B, M)
    assert_close(out, loop(_config_function(name), (0, 0, 0), (X, XP, fp)))
    if name not in ("mixed", "linear", "periodic"):  # NaN past the end without extrap
        assert np.all(np.isnan(out[:, -1])) and np.all(np.isfinite(out[:, :-1]))


@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, None), (None, None, 0)], ids=str)
@pytest.mark.parametrize("name", ["not-a-knot", "linear"])
def test_interp1d_batch_one_argument(name, in_axes):
    kwargs, fp = CONFIGS[name]

    def f(x, xp, fp):
        return interp1d(x, xp, fp, **kwargs)

    # The unbatched arguments are grid 0's.
    args = [a if ax == 0 else a[0] for a, ax in zip((X, XP, fp), in_axes)]
    if in_axes[1] == 0:  # shared queries: inside every grid's range
        args[0] = np.linspace(XP[:, 0].max() + 0.05, XP[:, -1].min() - 0.05, M)
    out = jax.vmap(f, in_axes=in_axes)(*args)
    assert_close(out, loop(f, in_axes, args))


def test_interp1d_batched_axes_not_first():
    # Batch axis last on fp (shape (N, B)) and on x (shape (M, B)).
    def f(x, xp, fp):
        return interp1d(x, xp, fp, "cubic2", bc_type="natural")

    args = (X.T, XP, FP.T)
    out = jax.vmap(f, in_axes=(1, 0, 1), out_axes=1)(*args)
    assert out.shape == (M, B)
    assert_close(out.T, loop(f, (1, 0, 1), args))


@pytest.mark.parametrize("batched_period", [False, True])
def test_interp1d_batch_with_period(batched_period):
    # Grids without the closing knot; queries wrap around (also from outside).
    period = PERIODS if batched_period else PERIODS.max()
    x = np.concatenate([X[:, :-1], X[:, :1] - 2 * np.reshape(period, (-1, 1))], axis=1)

    def f(x, xp, fp, period):
        return interp1d(x, xp, fp, "cubic2", period=period)

    in_axes = (0, 0, 0, 0 if batched_period else None)
    out = jax.vmap(f, in_axes=in_axes)(x, XP, FP, period)
    assert np.all(np.isfinite(out))
    assert_close(out, loop(f, in_axes, (x, XP, FP, period)))
    # The query two periods below wraps onto the first one (up to rounding).
    np.testing.assert_allclose(out[:, -1], out[:, 0], rtol=1e-12, atol=1e-12)


def test_interp1d_batch_of_boundary_values():
    v0, v1 = np.array([0.5, -1.0, 2.0]), np.array([0.0, 3.0, -2.0])

    def f(x, xp, fp, v0, v1):
        return interp1d(x, xp, fp, "cubic2", bc_type=((1, v0), (2, v1)), derivative=1)

    # Values only (one grid), then values together with grids.
    for in_axes in [(None, None, None, 0, 0), (0, 0, 0, 0, None), (0, 0, 0, 0, 0)]:
        args = [a if ax == 0 else a[0] for a, ax in zip((X, XP, FP, v0, v1), in_axes)]
        out = jax.vmap(f, in_axes=in_axes)(*args)
        assert_close(out, loop(f, in_axes, args))


def test_interp1d_batch_invalid_grid_gives_nan_only_there():
    # Traced knots cannot raise: a non-increasing grid turns its own outputs
    # into NaN and leaves the others alone.
    xp = XP.copy()
    xp[1, 2] = xp[1, 3]

    def f(x, xp, fp):
        return interp1d(x, xp, fp, "cubic2", bc_type="natural")

    out = np.asarray(jax.vmap(f)(X, xp, FP))
    assert np.all(np.isnan(out[1]))
    good = [0, 2]
    assert_close(out[good], loop(f, (0, 0, 0), (X[good], xp[good], FP[good])))


def test_interp1d_batch_uses_one_solve():
    # The batch of grids goes into the kernel's lanes: one primitive, no loop.
    def f(x, xp, fp):
        return interp1d(x, xp, fp, "cubic2", bc_type="not-a-knot")

    jaxpr = jax.make_jaxpr(jax.vmap(f))(X, XP, FP)
    assert count_eqns(jaxpr, "splines_tridiagonal_solve") == 1
    assert count_eqns(jaxpr, "while") == count_eqns(jaxpr, "scan") == 0
    (solve,) = find_eqns(jaxpr, "splines_tridiagonal_solve")
    assert B in solve.outvars[0].aval.shape  # the grids are lanes of one solve


# --------------------------------------------------------- Interpolator1D --

INTERPOLATORS = {
    "natural": ({"method": "cubic2", "bc_type": "natural"}, FP, None),
    "period": ({"method": "cubic2"}, FP, PERIODS),
    "linear": ({"method": "linear"}, FP, None),
}


@pytest.mark.parametrize("name", INTERPOLATORS)
def test_batch_of_interpolators(name):
    kwargs, fp, period = INTERPOLATORS[name]

    def build(xp, fp, period):
        return Interpolator1D(xp, fp, period=period, **kwargs)

    in_axes = (0, 0, None if period is None else 0)
    batch = jax.vmap(build, in_axes=in_axes)(XP, fp, period)
    # A batch of interpolators: every array in it carries the batch axis.
    leaves = jax.tree_util.tree_leaves(batch)
    assert leaves and all(leaf.shape[0] == B for leaf in leaves)

    def call(itp, x):
        return itp(x), itp(x, derivative=1)

    values, slopes = jax.vmap(call)(batch, X)
    singles = [build(*(a if ax is None else a[k] for a, ax in zip((XP, fp, period), in_axes)))
               for k in range(B)]  # fmt: skip
    assert_close(values, np.stack([s(X[k]) for k, s in enumerate(singles)]))
    assert_close(slopes, np.stack([s(X[k], 1) for k, s in enumerate(singles)]))
    # Each interpolator of the batch agrees with interp1d on its own grid.
    ref = np.stack([interp1d(X[k], XP[k], fp[k], period=None if period is None else period[k],
                             **kwargs) for k in range(B)])  # fmt: skip
    assert_close(values, ref)


# vmap over no grids (a batch of size 0) gives an empty result, as the cell search does for
# no rows of breaks.
def test_vmap_over_an_empty_batch_of_grids():
    x = jnp.linspace(0, 1, 7)
    out = jax.vmap(lambda xp, fp: splines.interp1d(x, xp, fp, method="linear"))(
        jnp.zeros((0, 5)), jnp.zeros((0, 5))
    )
    assert out.shape == (0, 7)
    assert _search.locate(np.zeros((0, 4)), np.zeros((0, 20))).shape == (0, 4)


# ------------------------------------------------------------ vmap x grad --


def test_vmap_of_grad_over_grids():
    def loss(xp, fp, x):
        return jnp.sum(interp1d(x, xp, fp, "cubic2", bc_type="natural") ** 2)

    grad = jax.grad(loss, argnums=(0, 1, 2))
    x = X[:, :-1]  # inside every grid
    batched = jax.vmap(grad)(XP, FP, x)
    single = jax.jit(grad)
    for k, got in enumerate(batched):
        want = np.stack([single(XP[b], FP[b], x[b])[k] for b in range(B)])
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_vmap_of_grad_wrt_boundary_values():
    def value(v, xp, fp):
        return jnp.sum(interp1d(X[0, :-1], xp, fp, "cubic2", bc_type=((1, v[0]), (2, v[1]))))

    v = np.array([[0.5, 0.0], [-1.0, 3.0], [2.0, -2.0]])
    batched = jax.vmap(jax.grad(value), in_axes=(0, None, None))(v, XP[0], FP[0])
    # The spline is affine in v, so the gradient is the same for every v.
    single = jax.grad(value)(v[0], XP[0], FP[0])
    np.testing.assert_allclose(batched, np.broadcast_to(single, (B, 2)), rtol=1e-12, atol=1e-14)
    assert np.all(np.abs(single) > 1e-3)
