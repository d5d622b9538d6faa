"""The natural smoother's GPU kernel (`splines._methods.smoothing_gpu`) and the per-platform
primitive that runs it (`splines._linalg.kernels.per_platform`): its arithmetic on CPU in
Pallas's interpret mode against the scans, its CUDA programs by lowering."""

import jax
import jax.numpy as jnp
import jax.test_util
import numpy as np
import pytest
from _lowered import custom_calls, lowered_text

import splines
from splines._methods import smoothing
from splines._methods.smoothing_gpu import gcv_search, natural_fit, smooth_in_lanes


def fits(rng, lanes, n, dtype=np.float64, narrowest=0.05):
    h = rng.uniform(narrowest, 2.0, (lanes, n - 1))
    y = rng.normal(size=(lanes, n))
    v = rng.uniform(0.2, 3.0, (lanes, n))
    drift = rng.uniform(0.1, 5.0, lanes)
    if lanes > 2:
        v[0] = 0.0  # interpolation (λ = 0)
        drift[1] = 0.0  # the least-squares line (λ = ∞)
    return [jnp.asarray(a, dtype) for a in (h, y, v, drift)]


def scans(h, y, v, drift, variances=True):
    return smoothing._scans(h, y, v, drift, (None, None), variances)


@pytest.mark.parametrize("n", [3, 4, 17])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kernel_matches_the_scans(n, dtype):
    """130 fits: two blocks of lanes, the second padded with 126 idle fits.  The same
    steps rounded differently (XLA fuses the scans' products, interpret mode runs each
    operation alone): in float64 the worst of these 390 random fits differs by 2e-15; in
    float32, on fits whose widths vary 4x (the fits' units, `smoothing`), both are within
    a few ε of the float64 scans."""
    narrowest = 0.05 if dtype == np.float64 else 0.5  # float32: condition ~10, not ~1e3
    h, y, v, drift = fits(np.random.default_rng(n), 130, n, dtype, narrowest)
    ours = np.stack(smooth_in_lanes(h, y, v, drift, interpret=True), axis=1)  # (lanes, 3, n)
    exact = np.asarray(lane_scans(*(a.astype(np.float64) for a in (h, y, v, drift))))
    rounded = np.asarray(lane_scans(h, y, v, drift)) if dtype == np.float32 else exact
    scale = np.maximum(np.max(np.abs(exact), axis=-1), 1.0)
    own = np.max(np.abs(rounded - exact), axis=-1)
    floor = 1e-14 if dtype == np.float64 else 1e-5
    assert np.all(np.max(np.abs(ours - exact), axis=-1) <= 4 * own + floor * scale)


@jax.jit
@jax.vmap
def lane_scans(h, y, v, drift):
    f, s, var = scans(h, y[:, None], v, drift)
    return jnp.stack([f[:, 0], s[:, 0], var])


@pytest.mark.parametrize("variances", [False, True])
def test_gpu_twin_matches_the_scans_for_batches_columns_and_dtypes(variances):
    rng = np.random.default_rng(5)
    h, _, v, drift = (a[:6].reshape((2, 3) + a.shape[1:]) for a in fits(rng, 6, 9))
    for dtype in (np.float64, np.complex128, np.float16):
        y = rng.normal(size=(2, 3, 9, 4))
        if dtype == np.complex128:
            y = y + 1j * rng.normal(size=y.shape)
        y = jnp.asarray(y, dtype)
        out = natural_fit(2, h, y, v, drift, variances=variances, interpret=True)
        assert len(out) == 2 + variances and out[0].dtype == dtype
        tol = 2e-3 if dtype == np.float16 else 1e-12
        for i in np.ndindex(2, 3):
            wide = y[i].astype(np.complex128 if dtype == np.complex128 else np.float64)
            ref = scans(h[i], wide, v[i], drift[i], variances)
            for ours, theirs in zip(out, ref):
                np.testing.assert_allclose(ours[i], theirs, rtol=0, atol=tol * 4)


def test_vmap_keeps_shared_arguments_unbatched_and_matches_a_loop():
    natural = smoothing._NATURAL[True]
    h, y, v, drift = fits(np.random.default_rng(8), 5, 12)
    columns = jnp.stack([y, 2 * y + 1], axis=-1)  # (5, 12, 2)
    mapped = jax.jit(jax.vmap(natural, in_axes=(None, 0, None, 0)))(h[2], columns, v[2], drift)
    nested = jax.vmap(jax.vmap(natural, in_axes=(None, 0, None, None)), in_axes=(0, None, 0, 0))
    twice = nested(h, columns, v, drift)  # (5 fits, 5 data sets)
    for b in range(5):
        ref = scans(h[2], columns[b], v[2], drift[b])
        for ours, theirs in zip(mapped, ref):
            np.testing.assert_allclose(ours[b], theirs, rtol=1e-12, atol=1e-12)
        for c in range(5):
            ref = scans(h[b], columns[c], v[b], drift[b])
            for ours, theirs in zip(twice, ref):
                np.testing.assert_allclose(ours[b, c], theirs, rtol=1e-12, atol=1e-12)


def test_derivatives_are_the_scans():
    h, y, v, drift = fits(np.random.default_rng(9), 1, 10)
    args = (h[0], y[0][:, None], v[0] + 0.5, drift[0] + 0.5)

    def loss(fit, *args):
        f, s, var = fit(*args)
        return jnp.sum(f**2) + jnp.sum(jnp.sin(s)) + jnp.sum(var)

    ours = jax.grad(lambda *a: loss(smoothing._NATURAL[True], *a), argnums=(0, 1, 2, 3))(*args)
    theirs = jax.grad(lambda *a: loss(scans, *a), argnums=(0, 1, 2, 3))(*args)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-13)
    jax.test_util.check_grads(smoothing._NATURAL[True], args, order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("n", [3, 5, 20])
def test_gcv_search_kernel_takes_the_scans_steps(n):
    """Every lane runs scipy's Brent steps (`_utils.minimize`) on the kernel's criterion:
    the scans' λ to within the search's own tolerance (2 (√ε λ + xatol/3); the criterion's
    rounding can steer a step), and the same GCV there, in 2-D batches.  At n = 3 the
    criterion is flat (every λ leaves one residual degree of freedom), so only GCV's
    value is the scans'."""
    rng = np.random.default_rng(n)
    sites = np.sort(rng.uniform(0.0, 1.0, (2, 3, n)), axis=-1)
    widths = jnp.asarray(np.diff(sites, axis=-1))
    column = jnp.asarray(np.sin(6 * sites) + 0.2 * rng.normal(size=sites.shape))
    w = jnp.asarray(rng.uniform(0.5, 1.0, sites.shape))
    unit, scale = jnp.full((2, 3), 2.0), jnp.full((2, 3), 0.5)
    ours = gcv_search(2, widths, column, w, unit, scale, interpret=True)
    (theirs,) = jax.jit(jax.vmap(jax.vmap(smoothing._search)))(widths, column, w, unit, scale)
    assert ours.shape == (2, 3)
    criterion = jax.jit(jax.vmap(jax.vmap(smoothing._criterion)))
    np.testing.assert_allclose(
        criterion(ours, widths, column, w, unit, scale),
        criterion(theirs, widths, column, w, unit, scale),
        rtol=1e-8,  # (a minimum on the interval's end: G's slope times the λs' difference)
    )
    if n > 3:
        tolerance = 2 * (np.sqrt(2.2e-16) * np.abs(theirs) + 1e-5 / 3)
        assert np.all(np.abs(ours - theirs) <= tolerance)


x = np.linspace(0.0, 1.0, 40)


def cuda_program_without_host_loops(program, *args):
    """``program``'s CUDA program, checked to hold no while, case, if or callback."""
    text = lowered_text(program, *args, platform="cuda")
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text
    return text


@pytest.mark.parametrize(
    "name, program, args",
    [
        ("make_smoothing_spline", lambda x, y: splines.make_smoothing_spline(x, y, lam=1e-3)(x),
         (x, np.sin(x))),
        ("CubicSmoothingSpline", lambda x, y: splines.CubicSmoothingSpline(x, y, p=0.5)(x),
         (x, np.stack([np.sin(x), np.cos(x)], axis=1))),
        ("a batch", jax.vmap(lambda x, y: splines.CubicSmoothingSpline(x, y, p=0.5)(x), (None, 0)),
         (x, np.ones((8, 40)))),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)  # fmt: skip
def test_cuda_program_is_one_kernel_call_per_fit(name, program, args):
    """No host-driven `while` on a GPU (~8 µs a step): the natural fit is one Triton call."""
    text = cuda_program_without_host_loops(program, *args)
    assert custom_calls(text) == ["__gpu$xla.gpu.triton"]
    assert "splines_pallas_smoother" in text


@pytest.mark.parametrize(
    "name, program, args",
    [
        ("make_smoothing_spline", lambda x, y: splines.make_smoothing_spline(x, y)(x),
         (x, np.stack([np.sin(x), np.cos(x)], axis=1))),
        ("a batch", jax.vmap(lambda x, y: splines.make_smoothing_spline(x, y)(x), (None, 0)),
         (x, np.ones((8, 40)))),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)  # fmt: skip
def test_cuda_program_of_gcv_is_two_kernel_calls(name, program, args):
    """λ by GCV with no `while` in the CUDA program (issue 27): one Triton call runs every
    column's Brent search, one the fits at the λ found."""
    text = cuda_program_without_host_loops(program, *args)
    assert custom_calls(text) == ["__gpu$xla.gpu.triton"] * 2
    assert "splines_pallas_gcv_search" in text and "splines_pallas_smoother" in text


def test_cpu_program_keeps_the_scans():
    text = lowered_text(lambda x, y: splines.make_smoothing_spline(x, y, lam=1e-3)(x), x, x)
    assert "stablehlo.while" in text and "triton" not in text


def test_gpu_twin_with_variances_of_zero_columns_is_the_scans():
    """The twin must return what the default returns for every shape the default takes:
    y ``(n, 0)`` gives f, f' ``(n, 0)`` and the (data-free) variances ``(n,)``."""
    h, _, v, drift = fits(np.random.default_rng(10), 1, 6)
    y = jnp.zeros((6, 0))
    out = natural_fit(0, h[0], y, v[0], drift[0], variances=True, interpret=True)
    ref = scans(h[0], y, v[0], drift[0])
    assert [a.shape for a in out] == [a.shape for a in ref]
    np.testing.assert_allclose(out[2], ref[2], rtol=1e-12)


def test_kernels_keep_a_nan_lane_to_itself():
    """NaN data in one fit (one lane) leave every other lane's fit and λ as the scans'."""
    h, y, v, drift = fits(np.random.default_rng(11), 5, 6)
    y = y.at[2, 3].set(jnp.nan)
    ours = np.stack(smooth_in_lanes(h, y, v, drift, interpret=True), axis=1)
    exact = np.asarray(lane_scans(h, y, v, drift))
    assert np.all(np.isnan(ours[2]) == np.isnan(exact[2])) and np.any(np.isnan(ours[2]))
    others = [0, 1, 3, 4]
    np.testing.assert_allclose(ours[others], exact[others], rtol=0, atol=1e-11)
    w, unit, scale = jnp.ones((5, 6)), jnp.full(5, 2.0), jnp.full(5, 0.5)
    lam = np.asarray(gcv_search(1, h, y, w, unit, scale, interpret=True))
    assert np.isfinite(lam[others]).all()


x32 = x.astype(np.float32)


@pytest.mark.parametrize(
    "name, program, args",
    [
        ("float32 GCV", lambda x, y: splines.make_smoothing_spline(x, y)(x), (x32, np.sin(x32))),
        ("weights", lambda x, y, w: splines.make_smoothing_spline(x, y, w)(x),
         (x, np.sin(x), 1 + x)),
        ("axis 1, 7 columns", lambda x, y: splines.make_smoothing_spline(x, y, axis=1)(x),
         (x, np.ones((7, 40)))),
        ("nested vmap", jax.vmap(jax.vmap(lambda y: splines.make_smoothing_spline(x, y)(x))),
         (np.ones((2, 3, 40)),)),
        ("vmap over w", jax.vmap(lambda w: splines.make_smoothing_spline(x, np.sin(x), w)(x)),
         (np.ones((3, 40)),)),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)  # fmt: skip
def test_cuda_programs_of_gcv_variants_have_no_while(name, program, args):
    text = cuda_program_without_host_loops(program, *args)
    assert custom_calls(text) == ["__gpu$xla.gpu.triton"] * 2


def test_per_platform_twin_broadcasts_as_the_default_maps(monkeypatch):
    """The GPU twin run eagerly (the platform forced to CUDA, the kernel interpreted) on
    vmaps that map a non-leading axis, an empty batch and nested levels that map
    different arguments: the default's numbers and shapes."""
    from splines._linalg.kernels import per_platform as module
    from splines._methods import smoothing_gpu

    natural = smoothing._NATURAL[True]
    h, y, v, drift = fits(np.random.default_rng(12), 3, 5)
    columns = jnp.stack([y, -y], axis=-1)  # (3, 5, 2)
    programs = [
        (jax.vmap(natural, in_axes=(None, 2, None, None)), (h[0], jnp.moveaxis(columns, 0, 2), v[0], drift[0])),
        (jax.vmap(natural, in_axes=(None, 0, None, None)), (h[0], columns[:0], v[0], drift[0])),
        (jax.vmap(jax.vmap(natural, in_axes=(None, None, None, 0)), in_axes=(0, 0, None, None)),
         (h, columns, v[1], drift)),
    ]  # fmt: skip
    expected = [jax.tree.map(np.asarray, program(*args)) for program, args in programs]
    interpreted = smoothing_gpu.smooth_in_lanes
    monkeypatch.setattr(module, "platform_of", lambda args: ("cuda", 1))
    monkeypatch.setattr(smoothing_gpu, "smooth_in_lanes",
                        lambda *a, interpret=False: interpreted(*a, interpret=True))  # fmt: skip
    for (program, args), ref in zip(programs, expected):
        out = program(*args)
        for ours, theirs in zip(out, ref):
            assert ours.shape == theirs.shape
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
