"""`RBFInterpolator`: scipy's semantics in 1-D … 4-D, derivatives, transforms, bad input."""

import re

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compare import close
from _compiles import compiles
from jax.test_util import check_grads

import splines
from splines._scattered import interpolator, solve

KERNELS = [
    "linear",
    "thin_plate_spline",
    "cubic",
    "quintic",
    "multiquadric",
    "inverse_multiquadric",
    "inverse_quadratic",
    "gaussian",
]
MIN_DEGREE = {"linear": 0, "thin_plate_spline": 1, "cubic": 1, "quintic": 2, "multiquadric": 0}
SHAPED = {"multiquadric", "inverse_multiquadric", "inverse_quadratic", "gaussian"}


def scattered(n_sites, ndim, seed=0, queries=25):
    """Sites and queries in the unit cube, smooth values, and an ε of one per spacing
    (a well-conditioned system for the shape-parameter kernels)."""
    rng = np.random.default_rng(seed)
    y = rng.random((n_sites, ndim))
    d = np.cos(2 * y).sum(1) + y.prod(1)
    x = rng.random((queries, ndim))
    return y, d, x, n_sites ** (1 / ndim)


def options(kernel, epsilon):
    return {"kernel": kernel, "epsilon": epsilon if kernel in SHAPED else None}


# ------------------------------------------------------------------ agreement --


@pytest.mark.parametrize("ndim", [1, 2, 3, 4])
@pytest.mark.parametrize("kernel", KERNELS)
def test_matches_scipy_for_every_kernel_and_degree(kernel, ndim):
    y, d, x, epsilon = scattered(30, ndim, seed=ndim)
    least = MIN_DEGREE.get(kernel, -1)
    for degree in sorted({least, max(least, 0), 2} - ({2} if ndim == 4 else set())):
        kw = {**options(kernel, epsilon), "degree": degree}
        close(splines.RBFInterpolator(y, d, **kw)(x), si.RBFInterpolator(y, d, **kw)(x), 1e-10)


@pytest.mark.parametrize("ndim", [1, 2, 3, 4])
@pytest.mark.parametrize("kernel", ["thin_plate_spline", "quintic", "gaussian", "multiquadric"])
def test_matches_scipy_with_neighbors_and_smoothing(kernel, ndim):
    y, d, x, epsilon = scattered(40, ndim, seed=10 + ndim)
    epsilon = 2 * epsilon  # a local system of 20 sites in 1-D is ill-conditioned at 1
    per_site = np.random.default_rng(ndim).random(len(y)) * 1e-2
    for neighbors, smoothing in [(20, 0.0), (None, 1e-3), (None, per_site), (25, per_site)]:
        kw = {**options(kernel, epsilon), "neighbors": neighbors, "smoothing": smoothing}
        ours = splines.RBFInterpolator(y, d, **kw)(x)
        close(ours, si.RBFInterpolator(y, d, **kw)(x), 1e-10, what=(neighbors, smoothing))


def test_values_of_any_trailing_shape_and_complex_values():
    y, d, x, _ = scattered(20, 2)
    values = np.stack([d, d**2, -d, 1 / (1 + d), d * y[:, 0], d * y[:, 1]], -1).reshape(20, 2, 3)
    f = splines.RBFInterpolator(y, values)
    assert f(x).shape == (25, 2, 3) and f.d_shape == (2, 3) and f.d.shape == (20, 6)
    close(f(x), si.RBFInterpolator(y, values)(x), 1e-10)
    z = values[..., 0] + 1j * values[..., 1]
    g = splines.RBFInterpolator(y, z, neighbors=8)
    assert g(x).dtype == jnp.complex128 and g(x).shape == (25, 2)
    close(g(x), si.RBFInterpolator(y, z, neighbors=8)(x), 1e-10)


def test_attributes_are_scipys():
    y, d, _, _ = scattered(15, 3)
    ours, ref = splines.RBFInterpolator(y, d, degree=2), si.RBFInterpolator(y, d, degree=2)
    np.testing.assert_array_equal(ours.powers, ref.powers)
    assert (ours.kernel, ours.neighbors, float(ours.epsilon)) == ("thin_plate_spline", None, 1.0)
    np.testing.assert_array_equal(ours.smoothing, ref.smoothing)
    assert splines.RBFInterpolator(y, d, neighbors=99).neighbors == 15  # at most the sites


def test_interpolates_the_data_and_smoothing_approaches_the_polynomial_fit():
    y, d, _, _ = scattered(30, 2)
    close(splines.RBFInterpolator(y, d)(y), d, 1e-11)
    heavy = splines.RBFInterpolator(y, d, smoothing=1e12, degree=1)(y)
    p = np.c_[np.ones(30), y]
    close(heavy, p @ np.linalg.lstsq(p, d, rcond=None)[0], 1e-6)


def test_flat_kernels_are_as_accurate_as_scipy():
    """A Gaussian at ε = 2 on 40 sites of [0, 1]: the matrix's condition number is ~6e15;
    the values still agree with a 60-digit solve to 4e-9 (scipy: 4e-9), because the LU
    solve is backward stable (docs of `splines._scattered.solve`)."""
    mp = pytest.importorskip("mpmath")
    rng = np.random.default_rng(0)
    y, x = rng.random((40, 1)), rng.random((30, 1))
    d = np.sin(3 * y[:, 0])
    with mp.workdps(60):
        k = mp.matrix(
            [[mp.exp(-((2 * (mp.mpf(a) - mp.mpf(b))) ** 2)) for b in y[:, 0]] for a in y[:, 0]]
        )
        c = mp.lu_solve(k, mp.matrix(d.tolist()))
        exact = [
            float(
                sum(c[j] * mp.exp(-((2 * (mp.mpf(q) - mp.mpf(y[j, 0]))) ** 2)) for j in range(40))
            )
            for q in x[:, 0]
        ]
    ours = splines.RBFInterpolator(y, d, kernel="gaussian", epsilon=2.0)(x)
    close(ours, exact, 2e-8)


def test_float32_matches_scipy_on_the_rounded_inputs():
    y, d, x, epsilon = scattered(30, 2)
    y32, d32, x32 = (a.astype(np.float32) for a in (y, d, x))
    for kernel in ["thin_plate_spline", "gaussian"]:
        f = splines.RBFInterpolator(y32, d32, **options(kernel, epsilon))
        out = f(x32)
        assert out.dtype == jnp.float32
        ref = si.RBFInterpolator(y32.astype(float), d32.astype(float), **options(kernel, epsilon))
        close(out, ref(x32.astype(float)), 1e-4, what=kernel)


def test_float32_at_wide_and_narrow_spans():
    y, d, x, _ = scattered(30, 2)
    for span in (1e-6, 1e6):
        y32, d32, x32 = (
            (y * span).astype(np.float32),
            d.astype(np.float32),
            (x * span).astype(np.float32),
        )
        ours = splines.RBFInterpolator(y32, d32)(x32)
        ref = si.RBFInterpolator(y32.astype(float), d32.astype(float))(x32.astype(float))
        close(ours, ref, 1e-4, what=span)


def test_scale_free_kernels_at_tiny_scaled_distances():
    """ε r down to 1e-150 (a small ε, or sites spanning 1e-150; float32: 1e-14): the
    kernel at a site's distance to itself is exactly 0 (a floor under √ρ would act as a
    negative smoothing of √tiny / (ε h)), and between sites the values are scipy's."""
    y, d, x, _ = scattered(12, 2, queries=8)
    for kernel in ("linear", "thin_plate_spline"):  # r³ would underflow
        for span, epsilon, dtype, rtol in [
            (1.0, 1e-150, np.float64, 1e-12),
            (1e-150, 1.0, np.float64, 1e-12),
            (1e-14, 1.0, np.float32, 1e-5),
        ]:
            ys, ds, xs = ((a * s).astype(dtype) for a, s in ((y, span), (d, 1), (x, span)))
            ours = splines.RBFInterpolator(ys, ds, kernel=kernel, epsilon=epsilon)(xs)
            ref = si.RBFInterpolator(ys.astype(float), ds.astype(float), kernel=kernel,
                                     epsilon=epsilon)(xs.astype(float))  # fmt: skip
            close(ours, ref, rtol, what=(kernel, span, epsilon))


def test_nan_queries_give_nan_at_their_rows_only():
    y, d, x, _ = scattered(30, 2)
    x[3, 1] = np.nan
    for neighbors in (None, 10):
        out = np.asarray(splines.RBFInterpolator(y, d, neighbors=neighbors)(x))
        assert np.isnan(out[3]) and np.isfinite(np.delete(out, 3)).all(), neighbors


def test_sites_far_from_the_origin_keep_their_digits():
    """ε (x − y), not ε x − ε y: the offset of the sites is not rounded into the distances
    (float32 sites at 1000 ± 1 with ε = 6 were 5e-4 off)."""
    y, d, x, _ = scattered(30, 2)
    for offset, dtype, rtol in [(1000.0, np.float32, 2e-5), (1e8, np.float64, 1e-10)]:
        y_far, x_far, d_far = (
            (y + offset).astype(dtype),
            (x + offset).astype(dtype),
            d.astype(dtype),
        )
        for kernel in ["gaussian", "multiquadric"]:
            ours = splines.RBFInterpolator(y_far, d_far, kernel=kernel, epsilon=6.0)(x_far)
            # scipy on the same rounded inputs, shifted back exactly in float64
            shift = np.float64(offset)
            ref = si.RBFInterpolator(
                y_far.astype(float) - shift, d_far.astype(float), kernel=kernel, epsilon=6.0
            )(x_far.astype(float) - shift)
            close(ours, ref, rtol, what=(offset, kernel))


def test_a_huge_epsilon_keeps_each_site_at_distance_zero():
    """At ε = 1e150 the inverse quadratic is 1 at a site and 0 elsewhere: the interpolant
    is the data at the sites and the tail's constant between them, as scipy's."""
    y, d, x, _ = scattered(30, 2)
    for epsilon in (1e12, 1e16, 1e150):
        kw = {"kernel": "inverse_quadratic", "epsilon": epsilon}
        close(splines.RBFInterpolator(y, d, **kw)(x), si.RBFInterpolator(y, d, **kw)(x), 1e-10)
        close(splines.RBFInterpolator(y, d, **kw)(y), d, 1e-12)


def test_matches_interpax():
    interpax = pytest.importorskip("interpax")
    if not hasattr(interpax, "RBFInterpolator"):
        pytest.skip("interpax without RBFInterpolator")
    y, d, x, epsilon = scattered(30, 3)
    for kernel in ["thin_plate_spline", "inverse_multiquadric"]:
        kw = options(kernel, epsilon)
        close(
            splines.RBFInterpolator(y, d, **kw)(x), interpax.RBFInterpolator(y, d, **kw)(x), 1e-10
        )


# ----------------------------------------------------------------- neighbours --


def test_neighbors_finds_the_k_nearest_sites():
    from scipy.spatial import KDTree

    from splines._scattered.neighbors import nearest

    rng = np.random.default_rng(3)
    y, x = rng.random((500, 3)) * 1e3 + 5e3, rng.random((200, 3)) * 1e3 + 5e3
    ours = np.sort(np.asarray(nearest(jnp.asarray(x), jnp.asarray(y), 20)), axis=1)
    np.testing.assert_array_equal(ours, np.sort(KDTree(y).query(x, 20)[1], axis=1))


def test_neighbors_of_all_sites_is_the_global_fit():
    y, d, x, _ = scattered(25, 2)
    local = splines.RBFInterpolator(y, d, neighbors=25)
    close(local(x), splines.RBFInterpolator(y, d)(x), 1e-14)


def test_neighbors_memory_grows_with_queries_times_neighbors_not_sites():
    """The compiled local evaluation's scratch memory at 20 000 queries × 4 000 sites is
    far below one (queries × sites) float64 matrix (640 MB)."""
    f = splines.RBFInterpolator(*scattered(4000, 2)[:2], neighbors=10)
    x = jax.ShapeDtypeStruct((20000, 2), jnp.float64)
    compiled = jax.jit(lambda g, x: g(x)).lower(f, x).compile()
    scratch = compiled.memory_analysis().temp_size_in_bytes
    assert scratch < 20000 * 4000 * 8 / 20, scratch


def test_local_solves_run_one_lapack_call_at_a_time():
    """The batches of local solves form one loop: a remainder batch beside it would be a
    second batched LAPACK call, and two at once deadlock XLA:CPU (jaxlib 0.10,
    docs/architecture.md §6). 1500 queries are one batch of 962 and a remainder."""
    y, d, _, _ = scattered(200, 2)
    f = splines.RBFInterpolator(y, d, neighbors=30)
    x = jax.ShapeDtypeStruct((1500, 2), jnp.float64)
    program = jax.jit(lambda f, x: f(x)).lower(f, x).compile().as_text()
    assert len(re.findall(r'custom_call_target="[^"]*getrf[^"]*"', program)) == 1


@pytest.mark.parametrize("n", [1, 2, 17, 300])
def test_the_solve_applies_laxs_row_order(n):
    """The pivots → permutation loop (one step per iteration, or unrolled by 16 from
    257 rows) gives `lax.linalg.lu`'s permutation."""
    a = jax.random.normal(jax.random.key(n), (n, n))
    _, pivots, permutation = jax.lax.linalg.lu(a)
    np.testing.assert_array_equal(solve._permutation(pivots), permutation)


# ---------------------------------------------------------------- derivatives --


def _interpolant(kernel, n_sites=10):
    """Values at 3 queries as a function of each argument of `RBFInterpolator` (the others
    fixed), for `check_grads`."""
    y, d, x, epsilon = map(jnp.asarray, scattered(n_sites, 2, queries=3))
    kw = options(kernel, epsilon)

    def at(y=y, d=d, x=x, smoothing=0.0, epsilon=kw["epsilon"]):
        return splines.RBFInterpolator(y, d, smoothing=smoothing, kernel=kernel, epsilon=epsilon)(x)

    smoothing = jnp.full(n_sites, 0.5)
    arguments = {"y": y, "d": d, "x": x, "smoothing": smoothing, "epsilon": kw["epsilon"]}
    return at, {k: v for k, v in arguments.items() if v is not None}


@pytest.mark.parametrize("kernel", ["gaussian", "thin_plate_spline"])
def test_gradients_match_finite_differences_to_second_order(kernel):
    at, arguments = _interpolant(kernel)
    del arguments["d"]  # the values enter linearly: order 1 checks them
    for name, value in arguments.items():
        check_grads(lambda v, name=name: at(**{name: v}), (value,), order=2, modes=["fwd", "rev"])


@pytest.mark.parametrize("kernel", ["linear", "cubic", "quintic", "multiquadric"])
def test_gradients_match_finite_differences(kernel):
    at, arguments = _interpolant(kernel)
    for name, value in arguments.items():
        check_grads(lambda v, name=name: at(**{name: v}), (value,), order=1, modes=["fwd", "rev"])


def test_thin_plate_hessian_at_a_site_does_not_depend_on_the_precision():
    """At a data site the true second derivatives of r² log r diverge; ours are finite,
    and the same in float32 and float64 (not set by the floor under the logarithm,
    whose log is −708 or −87)."""
    y, d, _, _ = scattered(8, 2)

    def hessian(dtype):
        f = splines.RBFInterpolator(y.astype(dtype), d.astype(dtype))
        return jax.hessian(lambda q: f(q[None])[0])(jnp.asarray(y[3], dtype))

    h32, h64 = hessian(np.float32), hessian(np.float64)
    assert np.isfinite(h64).all()
    close(h32, h64, 1e-3)


def test_gradient_of_a_fitted_module_follows_its_data():
    """`equinox.filter_grad` of a call with respect to a module built outside: the
    gradients of d, y, ε and smoothing are those of building it inside (the module
    holds its coefficients but a call takes their derivatives from the data)."""
    y, d, x, epsilon = map(jnp.asarray, scattered(15, 2, queries=5))
    smoothing = jnp.full(15, 1e-2)
    kw = {"kernel": "gaussian"}

    def inside(y, d, smoothing, epsilon):
        return splines.RBFInterpolator(y, d, smoothing=smoothing, epsilon=epsilon, **kw)(x).sum()

    expected = jax.grad(inside, argnums=(0, 1, 2, 3))(y, d, smoothing, epsilon)
    for neighbors in (None, 15, 10):
        f = splines.RBFInterpolator(
            y, d, smoothing=smoothing, epsilon=epsilon, neighbors=neighbors, **kw
        )
        grads = eqx.filter_grad(lambda m: m(x).sum())(f)
        if neighbors == 10:  # a local interpolant: other values, the same rule
            expected = jax.grad(
                lambda y, d, s, e: splines.RBFInterpolator(
                    y, d, smoothing=s, epsilon=e, neighbors=10, **kw
                )(x).sum(),
                argnums=(0, 1, 2, 3),
            )(y, d, smoothing, epsilon)
        for got, want in zip((grads.y, grads.d[:, 0], grads.smoothing, grads.epsilon), expected):
            close(got, want, 1e-9, what=neighbors)


def test_gradient_of_a_module_built_inside_is_counted_once():
    y, d, x, _ = map(jnp.asarray, scattered(12, 2, queries=4))
    g = jax.grad(lambda d: splines.RBFInterpolator(y, d)(x).sum())(d)
    h = 1e-6
    for i in (0, 5):
        e = jnp.zeros(12).at[i].set(h)
        f = lambda d: splines.RBFInterpolator(y, d)(x).sum()  # noqa: E731
        close(g[i], (f(d + e) - f(d - e)) / (2 * h), 1e-6)


def test_gradients_with_neighbors():
    y, d, x, _ = scattered(30, 2, queries=4)
    y, d, x = map(jnp.asarray, (y, d, x))
    f = lambda y, d, x: splines.RBFInterpolator(y, d, neighbors=10)(x)  # noqa: E731
    check_grads(f, (y, d, x), order=1, modes=["fwd", "rev"])


def test_gradient_at_a_data_site_is_finite():
    """r³, r⁵ and r² log r are differentiable at r = 0; the cone −r takes its subgradient."""
    y, d, _, _ = scattered(12, 2)
    for kernel in ["linear", "thin_plate_spline", "cubic", "quintic"]:
        f = splines.RBFInterpolator(y, d, kernel=kernel)
        g = jax.grad(lambda x, f=f: f(x[None])[0])(jnp.asarray(y[3]))
        assert np.isfinite(g).all(), kernel


# ----------------------------------------------------------------- transforms --


def test_vmap_over_independent_problems_and_jit():
    y, d, x, _ = scattered(15, 2)
    ys = jnp.stack([y, y + 0.1, y * 2])
    ds = jnp.stack([d, d**2, -d])
    both = jax.vmap(lambda y, d: splines.RBFInterpolator(y, d)(x))(ys, ds)
    jitted = jax.jit(lambda y, d: splines.RBFInterpolator(y, d, neighbors=6)(x))
    for i in range(3):
        close(both[i], splines.RBFInterpolator(ys[i], ds[i])(x), 1e-13)
        close(jitted(ys[i], ds[i]), splines.RBFInterpolator(ys[i], ds[i], neighbors=6)(x), 1e-13)


def test_new_values_reuse_the_compiled_programs():
    y, d, x, _ = scattered(15, 2)
    splines.RBFInterpolator(y, d, epsilon=1.0)(x)
    with compiles(interpolator._fit) as fits, compiles(interpolator._evaluate) as evals:
        for scale in (2.0, 3):
            splines.RBFInterpolator(y * scale, d * scale, epsilon=scale, smoothing=scale)(x * scale)
    assert (fits.count, evals.count) == (0, 0)


def test_the_module_is_a_pytree():
    y, d, x, _ = scattered(15, 2)
    f = splines.RBFInterpolator(y, d)
    g = jax.tree_util.tree_map(lambda a: a, f)
    close(jax.jit(lambda f, x: f(x))(g, x), f(x), 0)


# ------------------------------------------------------------------ bad input --


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"kernel": "spline"}, "`kernel` must be one of"),
        ({"kernel": "gaussian"}, "`epsilon` must be given"),
        ({"degree": 0}, "`degree` must be at least 1"),
        ({"kernel": "quintic", "degree": -1}, "`degree` must be at least 2"),
        ({"degree": -2}, "`degree` must be ≥ -1"),
        ({"smoothing": -1.0}, r"`smoothing` must be ≥ 0; `smoothing\[0\]` = -1.0"),
        ({"smoothing": np.ones(3)}, r"`smoothing` must be a scalar or have shape \(10,\)"),
        ({"epsilon": 0.0}, "`epsilon` must be finite and positive"),
        ({"epsilon": np.ones(2)}, "`epsilon` must be a scalar"),
        ({"neighbors": 2}, "At least 3 data points are required"),
        ({"degree": 4, "kernel": "cubic"}, "At least 15 data points"),
    ],
)
def test_bad_arguments_raise(kwargs, match):
    y, d, _, _ = scattered(10, 2)
    with pytest.raises(ValueError, match=match):
        splines.RBFInterpolator(y, d, **kwargs)


def test_bad_data_raise_naming_the_entry():
    y, d, _, _ = scattered(10, 2)
    with pytest.raises(ValueError, match="for 1-D sites pass `y\\[:, None\\]`"):
        splines.RBFInterpolator(y[:, 0], d)
    with pytest.raises(ValueError, match="`d` must have 10 rows"):
        splines.RBFInterpolator(y, d[:9])
    bad = d.copy()
    bad[4] = np.nan
    with pytest.raises(ValueError, match=r"`d\[4\]` = nan"):
        splines.RBFInterpolator(y, bad)
    with pytest.raises(ValueError, match=r"`x` must have shape \(Q, 2\)"):
        splines.RBFInterpolator(y, d)(np.zeros((3, 3)))
    with pytest.raises(TypeError, match="`y` must be real"):
        splines.RBFInterpolator(y + 0j, d)


def test_sites_without_coordinates_raise():
    with pytest.raises(ValueError, match="`y` must have at least one coordinate"):
        splines.RBFInterpolator(np.zeros((5, 0)), np.zeros(5))


def test_bad_numpy_constants_inside_jit_raise():
    y, d, x, _ = scattered(10, 2)
    y[7] = y[2]
    with pytest.raises(ValueError, match=r"`y\[2\]` and `y\[7\]` are the same site"):
        jax.jit(lambda x: splines.RBFInterpolator(y, d)(x))(x)


def test_a_singular_neighbourhood_raises_eagerly():
    """20 sites on a line and 3 off it: a query among the collinear ones has a
    neighbourhood on the line, singular for the linear tail (scipy raises too)."""
    t = np.linspace(0, 1, 20)
    y = np.r_[np.c_[t, t], [[0.0, 1.0], [1.0, 0.0], [0.2, 0.9]]]
    d = y.sum(1) ** 2
    f = splines.RBFInterpolator(y, d, neighbors=5)
    with pytest.raises(ValueError, match=r"The 5 sites nearest to `x\[0\]`"):
        f(np.array([[0.5, 0.5], [0.3, 0.8]]))


def test_duplicate_sites_raise_naming_their_indices():
    y, d, _, _ = scattered(10, 2)
    y[7] = y[2]
    with pytest.raises(ValueError, match=r"`y\[2\]` and `y\[7\]` are the same site"):
        splines.RBFInterpolator(y, d)
    smoothed = np.zeros(10)
    smoothed[7] = 1e-3  # one of the pair smoothed: a solvable system, as in scipy
    close(
        splines.RBFInterpolator(y, d, smoothing=smoothed)(y),
        si.RBFInterpolator(y, d, smoothing=smoothed)(y),
        1e-10,
    )


@pytest.mark.parametrize("neighbors", [None, 5])
def test_a_smoothed_copy_between_two_clashing_sites_does_not_hide_them(neighbors):
    """Three copies of one site, the middle one by index smoothed: the other two still
    make the system singular, eagerly and traced."""
    y, d, x, _ = scattered(10, 2)
    y[[4, 7]] = y[2]
    smoothing = np.zeros(10)
    smoothing[4] = 1e-3
    with pytest.raises(ValueError, match=r"`y\[2\]` and `y\[7\]` are the same site"):
        splines.RBFInterpolator(y, d, smoothing=smoothing, neighbors=neighbors)

    def values(y):
        return splines.RBFInterpolator(y, d, smoothing=smoothing, neighbors=neighbors)(x)

    assert np.isnan(jax.jit(values)(jnp.asarray(y))).all()


def test_sites_on_a_line_raise_for_a_linear_tail():
    t = np.linspace(0, 1, 8)
    with pytest.raises(ValueError, match="does not have full column rank"):
        splines.RBFInterpolator(np.c_[t, 2 * t + 1], np.sin(t))


def test_too_flat_a_kernel_raises_in_float32():
    y, d, _, _ = scattered(60, 1)
    y32, d32 = y.astype(np.float32), d.astype(np.float32)
    with pytest.raises(ValueError, match="numerically singular"):
        splines.RBFInterpolator(y32, d32, kernel="gaussian", epsilon=1e-3)


@pytest.mark.parametrize("neighbors", [None, 5])
def test_traced_bad_data_give_nan_values_and_gradients(neighbors):
    """Everywhere, with `neighbors` too: also the queries whose neighbourhood does not
    hold the bad site. A NaN value also makes the gradient NaN (the solution is linear
    in the values, so without a test its gradient would not see it)."""
    y, d, x, _ = scattered(10, 2)
    duplicate = y.copy()
    duplicate[7] = duplicate[2]
    not_a_number = d.copy()
    not_a_number[4] = np.nan

    def loss(d, y=y, smoothing=0.0, epsilon=1.0):
        f = splines.RBFInterpolator(
            y, d, smoothing=smoothing, kernel="gaussian", epsilon=epsilon, neighbors=neighbors
        )
        return f(x)

    cases = {
        "duplicate sites": lambda d: loss(d, y=jnp.asarray(duplicate)),
        "negative smoothing": lambda d: loss(d, smoothing=jnp.asarray(-1.0)),
        "zero epsilon": lambda d: loss(d, epsilon=jnp.asarray(0.0)),
        "a NaN value": lambda d: loss(d + jnp.asarray(not_a_number) - jnp.asarray(d)),
    }
    for name, f in cases.items():
        assert np.isnan(jax.jit(f)(d)).all(), name
        assert np.isnan(jax.jit(jax.grad(lambda d, f=f: f(d).sum()))(jnp.asarray(d))).all(), name
