"""Smoothing on grids: `NdGridCubicSmoothingSpline` against csaps' and against the
tensor product of the 1-D smoothing splines; interpolation at smooth = 1; gradients,
jit, vmap; float32 at extreme spans; errors and NaN for bad input."""

import csaps
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import splines

RNG = np.random.default_rng(7)
SITES = (
    np.sort(RNG.uniform(0.0, 3.0, 9)),
    np.linspace(-1.0, 2.0, 7),
    np.sort(RNG.uniform(0.0, 1.0, 6)),
)
QUERIES = tuple(np.linspace(x[0], x[-1], 11) for x in SITES)
DATA = RNG.normal(size=tuple(len(x) for x in SITES))


def _grid(d):
    return list(SITES[:d]), DATA[(slice(None),) * d + (0,) * (3 - d)], list(QUERIES[:d])


def _scale(reference):
    return np.max(np.abs(reference))


@pytest.mark.parametrize("d", [1, 2, 3])
@pytest.mark.parametrize(
    "smooth, normalized",
    [(None, False), (0.3, False), (None, True), (0.7, True), ((0.2, 0.9, 0.5), True)],
)
def test_equals_csaps(d, smooth, normalized):
    x, y, q = _grid(d)
    smooth = smooth[:d] if isinstance(smooth, tuple) else smooth
    weights = [None, RNG.uniform(0.5, 2.0, len(x[1])), None][:d] if d > 1 else None
    ours = splines.NdGridCubicSmoothingSpline(x, y, weights, smooth, normalized)
    ones = (
        None
        if weights is None
        else [np.ones(len(a)) if w is None else w for a, w in zip(x, weights)]
    )
    ref = csaps.NdGridCubicSmoothingSpline(x, y, ones, smooth, normalizedsmooth=normalized)
    np.testing.assert_allclose(np.asarray(ours.smooth), ref.smooth, rtol=1e-12)
    for nu in [(0,) * d, (1,) * d, (1,) + (0,) * (d - 1)]:
        expected = ref(q, nu=nu)
        got = np.asarray(ours(q, nu=nu))
        assert got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-10 * _scale(expected), err_msg=nu)


def test_second_derivatives_within_the_node_data_bound():
    """Node data are values and slopes: f'' is formed from them as (6Δ − 4u₀ − 2u₁)/h²,
    so its error is ~ε |f| / h², not ε |f''|."""
    x, y, q = _grid(2)
    ours = splines.NdGridCubicSmoothingSpline(x, y, smooth=0.5)
    ref = csaps.NdGridCubicSmoothingSpline(x, y, smooth=0.5)
    h = min(np.min(np.diff(a)) for a in x)
    for nu in [(2, 0), (0, 2), (2, 1)]:
        bound = 1e-12 * np.max(np.abs(y)) / h**3
        np.testing.assert_allclose(np.asarray(ours(q, nu=nu)), ref(q, nu=nu), atol=bound)


def test_is_the_tensor_product_of_the_one_dimensional_splines():
    """Along each axis the 1-D `CubicSmoothingSpline` (csaps' normalised p); their
    tensor product, from the 1-D splines of the unit vectors, with two data columns."""
    x, y, q = _grid(3)
    y = np.stack([y, -2 * y], axis=-1)
    p = (0.4, 0.6, 0.8)
    grid = splines.NdGridCubicSmoothingSpline(x, y, smooth=p, normalizedsmooth=True)
    maps = [
        np.asarray(splines.CubicSmoothingSpline(xa, np.eye(len(xa)), pa)(qa))
        for xa, pa, qa in zip(x, p, q)
    ]
    expected = np.einsum("ai,bj,ck,ijkl->abcl", *maps, y)
    np.testing.assert_allclose(np.asarray(grid(q)), expected, atol=1e-12 * _scale(expected))


def test_smooth_one_interpolates_with_natural_ends():
    x, y, q = _grid(2)
    spline = splines.NdGridCubicSmoothingSpline(x, y, smooth=1.0)
    natural = splines.RegularGridInterpolator(tuple(x), y, method="cubic2", bc_type="natural")
    points = np.stack(np.meshgrid(*q, indexing="ij"), axis=-1)
    np.testing.assert_allclose(np.asarray(spline(q)), np.asarray(natural(points)), atol=1e-12)


def test_smooth_zero_gives_least_squares_planes():
    x, y, _ = _grid(2)
    spline = splines.NdGridCubicSmoothingSpline(x, y, smooth=0.0)
    design = np.stack([np.ones_like(x[0]), x[0]], axis=1)
    left = np.linalg.lstsq(design, y, rcond=None)[0]  # lines along axis 0 ...
    design = np.stack([np.ones_like(x[1]), x[1]], axis=1)
    fitted = (
        design
        @ np.linalg.lstsq(design, (np.stack([np.ones_like(x[0]), x[0]], 1) @ left).T, rcond=None)[0]
    )
    np.testing.assert_allclose(np.asarray(spline(x)), fitted.T, atol=1e-12)


def test_smooth_one_interpolates_where_the_span_cubed_underflows():
    x, y = np.array([0.0, 0.7, 1.5, 2.2]), np.array([0.3, -1.2, 0.8, 0.1])
    for sites, data in [(x * 1e-110, y), (np.float32(x * 1e-20), np.float32(y))]:
        spline = splines.NdGridCubicSmoothingSpline([sites], data, smooth=1.0)
        np.testing.assert_allclose(np.asarray(spline([sites])), data, rtol=1e-6)


def test_one_traced_smooth_among_the_axes():
    x, y, q = _grid(2)

    def f(p):
        return jnp.sum(splines.NdGridCubicSmoothingSpline(x, y, None, [None, p])(q))

    assert np.isfinite(jax.jit(jax.grad(f))(0.6))
    np.testing.assert_allclose(jax.jit(f)(0.6), f(0.6), rtol=1e-13)


def test_extrapolate_false_gives_nan_outside():
    x, y, _ = _grid(2)
    spline = splines.NdGridCubicSmoothingSpline(x, y)
    out = np.asarray(spline([np.array([x[0][0] - 1, 1.0]), np.array([0.0])], extrapolate=False))
    assert np.isnan(out[0, 0]) and np.isfinite(out[1, 0])
    assert np.all(np.isfinite(np.asarray(spline([np.array([x[0][0] - 1]), np.array([0.0])]))))
    np.testing.assert_allclose(  # one order for every axis; empty weights are none (csaps)
        np.asarray(spline(x, nu=1)),
        np.asarray(splines.NdGridCubicSmoothingSpline(x, y, [])(x, nu=(1, 1))),
    )


def test_gradients_of_every_argument():
    x = [jnp.array([0.0, 0.4, 1.1, 1.5, 2.0]), jnp.array([-1.0, 0.0, 0.5, 2.0])]
    y = jnp.asarray(RNG.normal(size=(5, 4)))
    w = jnp.array([1.0, 2.0, 0.5, 1.5])
    q = jnp.array([0.3, 1.7])

    def f(x0, y, p, w, q):
        spline = splines.NdGridCubicSmoothingSpline([x0, x[1]], y, [None, w], p, True)
        return spline([q, jnp.array([0.2, 1.1])], nu=(1, 0))

    check_grads(jax.jit(f), (x[0], y, 0.6, w, q), order=1, modes=("fwd", "rev"))


def test_jit_and_vmap_over_data():
    x, y, q = _grid(2)
    ys = np.stack([y, 2 * y + 1])

    @jax.jit
    def fit_and_call(y):
        return splines.NdGridCubicSmoothingSpline(x, y, smooth=0.5)(q)

    batched = jax.vmap(fit_and_call)(ys)
    for b in range(2):
        expected = splines.NdGridCubicSmoothingSpline(x, ys[b], smooth=0.5)(q)
        np.testing.assert_allclose(np.asarray(batched[b]), np.asarray(expected), atol=1e-13)


@pytest.mark.parametrize("span", [1e-30, 1e30])
def test_float32_at_extreme_spans(span):
    """Against float64 on the float32-rounded sites, data and points, within 2e-6 of the
    data's scale (each axis' smoothing adds its rounding)."""
    x, y, q = _grid(2)
    x, y, q = [np.float32(a * span) for a in x], np.float32(y), [np.float32(a * span) for a in q]
    fit = [splines.NdGridCubicSmoothingSpline(x, y, smooth=0.5, normalizedsmooth=True)]
    fit.append(
        splines.NdGridCubicSmoothingSpline(
            [np.float64(a) for a in x], np.float64(y), smooth=0.5, normalizedsmooth=True
        )
    )
    got, reference = np.asarray(fit[0](q)), np.asarray(fit[1]([np.float64(a) for a in q]))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, reference, atol=2e-6 * _scale(y))


def test_traced_bad_input_gives_nan_values_and_gradients():
    x, y, q = _grid(2)

    def f(y, p, w):
        return jnp.sum(splines.NdGridCubicSmoothingSpline(x, y, [w, None], p)(q))

    w = jnp.ones(len(x[0]))
    for bad in [
        (y, 1.5, w),
        (y, 0.5, w.at[2].set(-1.0)),
        (jnp.asarray(y).at[1, 1].set(jnp.nan), 0.5, w),
    ]:
        value, grads = jax.jit(jax.value_and_grad(f, argnums=(0, 1, 2)))(*bad)
        assert np.isnan(value)
        assert all(np.all(np.isnan(g)) for g in grads)


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda x, y: splines.NdGridCubicSmoothingSpline(x, y, smooth=1.5),
            r"`smooth\[0\]` must be in \[0, 1\]",
        ),
        (
            lambda x, y: splines.NdGridCubicSmoothingSpline(x, y, smooth=[0.5]),
            r"`smooth`=\[0.5\] must be one value for all 2 axes or one per axis",
        ),
        (
            lambda x, y: splines.NdGridCubicSmoothingSpline(x, y, [None, -np.ones(7)]),
            r"`weights\[1\]\[0\]` = -1.0",
        ),
        (
            lambda x, y: splines.NdGridCubicSmoothingSpline(x, y, [np.ones(3), None]),
            r"`weights\[0\]` must have the shape",
        ),
        (lambda x, y: splines.NdGridCubicSmoothingSpline(x, y[:-1]), "ydata"),
        (lambda x, y: splines.NdGridCubicSmoothingSpline([x[0][::-1], x[1]], y), r"xdata\[0\]"),
        (lambda x, y: splines.NdGridCubicSmoothingSpline(x, np.where(y > 1, np.nan, y)), "ydata"),
        (lambda x, y: splines.NdGridCubicSmoothingSpline(x, y)([x[0]]), "sequence of 2 vectors"),
        (lambda x, y: splines.NdGridCubicSmoothingSpline(x, y)(x, nu=(1,)), "nu"),
        (
            lambda x, y: splines.NdGridCubicSmoothingSpline(x, y, 2.0),
            "`weights` must have one entry per axis",
        ),
    ],
)
def test_bad_input_raises_naming_it(call, match):
    x, y, _ = _grid(2)
    with pytest.raises(ValueError, match=match):
        call(x, y)
