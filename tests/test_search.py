"""The cell search (`splines._pieces.search`): both kernels against numpy, the CPU choice, transforms.

``searchsorted(side="right") − 1``, clipped to the pieces, is the reference;
``right_closed`` is ``side="left"``.  NaN queries get piece 0.

Also at the ends of the range (±max, ±inf breaks, signed zeros, long runs of
equal breaks, the smallest normal), for integer and half-precision breaks, 2^16
breaks, invalid breaks (unsorted or NaN: an index in range all the same), fewer
than two breaks (rejected), Python scalar queries; under vmap on any axis, jvp and
linear_transpose, shard_map, and exported for CPU and CUDA or with a symbolic
query count.  Through the public paths: at exact knots, one ulp either side and
outside, `interp1d` (values, derivatives, gradients) and `PPoly` take scipy's
piece.  Subnormal queries and breaks are left out: XLA:CPU flushes them to zero
(DAZ), so numpy's order and XLA's differ there by design.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _lowered import ROLLED_SEARCH, functions, loops_outside_kernels, lowered_text
from jax import export
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

import splines
from splines._pieces import search as _search

KERNELS = {"unrolled": _search.unrolled, "rolled": _search.rolled, "counted": _search.counted}
# 2 breaks: no step; 17 / 18: the last with 4 steps / the first with 5; 33 / 34: the
# last counted on CPU / the first searched; 65: 2^6 + 1.
SIZES = [2, 3, 4, 5, 17, 18, 19, 33, 34, 64, 65, 1000]


def reference(x, breaks, right_closed=False):
    """Index of the piece per query, numpy's way."""
    x, breaks = np.asarray(x), np.asarray(breaks)
    side = "left" if right_closed else "right"
    j = np.clip(np.searchsorted(breaks, x, side=side) - 1, 0, len(breaks) - 2)
    return np.where(np.isnan(x), 0, j)


def queries(breaks, rng, dtype):
    """Random points inside and outside, every break, its neighbours, NaN and ±inf."""
    span = breaks[-1] - breaks[0]
    inside = rng.uniform(breaks[0] - 0.2 * span, breaks[-1] + 0.2 * span, 200)
    neighbours = np.concatenate([np.nextafter(breaks, -np.inf), np.nextafter(breaks, np.inf)])
    special = [np.nan, np.inf, -np.inf]
    return np.concatenate([inside, breaks, neighbours, special]).astype(dtype)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_each_kernel_finds_numpys_piece(kernel):
    """Every size, both dtypes, both closures: one compiled program per kernel (the cases
    differ in shapes only, and compiling dominates); a failure names its cases."""
    cases = {}
    for n in SIZES:
        for dtype in (np.float32, np.float64):
            rng = np.random.default_rng(n)
            breaks = np.sort(rng.uniform(-3, 5, n)).astype(dtype)
            cases[f"n={n} {dtype.__name__}"] = (queries(breaks, rng, dtype), breaks)
    search = KERNELS[kernel]

    @jax.jit
    def run(cases):
        return {name: [search(x, breaks, right_closed=rc) for rc in (False, True)]
                for name, (x, breaks) in cases.items()}  # fmt: skip

    failures = []
    for name, found in run(cases).items():
        x, breaks = cases[name]
        for right_closed, j in zip((False, True), found):
            what = f"{name} {'right' if right_closed else 'left'}-closed"
            if j.dtype != jnp.int32:
                failures.append(f"{what}: dtype {j.dtype}")
            elif not np.array_equal(j, reference(x, breaks, right_closed)):
                failures.append(f"{what}: {np.asarray(j)} != {reference(x, breaks, right_closed)}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_repeated_breaks_and_any_query_shape(kernel):
    """Equal breaks (not valid knots, but the search stays numpy's) and a 3-D query array."""
    breaks = np.array([0.0, 1.0, 1.0, 1.0, 2.0, 5.0, 5.0, 7.0])
    x = np.linspace(-1, 8, 2 * 3 * 20).reshape(2, 3, 20)
    for right_closed in (False, True):
        j = KERNELS[kernel](jnp.asarray(x), jnp.asarray(breaks), right_closed=right_closed)
        assert j.shape == x.shape
        np.testing.assert_array_equal(j, reference(x, breaks, right_closed))


def test_mixed_dtypes_compare_in_the_wider_one():
    """float32 queries against float64 breaks and the reverse: promoted, not rounded."""
    wide = np.array([0.0, 0.1, 1.0 + 1e-12, 2.0])  # 1 + 1e-12 is 1.0 in float32
    np.testing.assert_array_equal(
        _search.locate(jnp.asarray([1.0], jnp.float32), jnp.asarray(wide)), [1]
    )
    np.testing.assert_array_equal(
        _search.locate(jnp.asarray([1.0 + 1e-12, 1.0]), jnp.asarray(wide, jnp.float32)), [2, 2]
    )


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_every_kernel_gives_piece_0_for_nan_breaks(kernel):
    """Poisoned (NaN) breaks: every comparison fails, so piece 0 whatever the kernel."""
    breaks = jnp.full(20, jnp.nan)
    x = jnp.array([-1.0, 0.5, 7.0, jnp.nan, jnp.inf])
    for right_closed in (False, True):
        j = KERNELS[kernel](x, breaks, right_closed=right_closed)
        np.testing.assert_array_equal(j, np.zeros(5, np.int32))


@pytest.mark.parametrize(
    "queries_, n, expected",
    [(64, 34, "rolled"), (10**5, 1000, "rolled"), (63, 1000, "unrolled"),
     (10**5, 33, "counted"), (64, 18, "counted"), (8, 8, "counted"), (1, 2, "counted")],
)  # fmt: skip
def test_cpu_counts_few_breaks_and_loops_over_long_searches(queries_, n, expected):
    assert _search.cpu_kernel(queries_, n) is KERNELS[expected]


@pytest.mark.parametrize("kernel", [_search.even_inline, _search.even_rolled],
                         ids=["inline", "rolled"])  # fmt: skip
def test_the_even_kernels_find_numpys_piece_on_about_even_breaks(kernel):
    """Breaks up to a quarter spacing off their even places (`evenly_spaced`'s bound), rows
    of them and one row for all, both dtypes and closures: the search's pieces."""
    rng = np.random.default_rng(7)
    for n in (2, 3, 17, 200):
        for dtype in (np.float32, np.float64):
            even = np.linspace(-3.0, 5.0, n)
            wobble = rng.uniform(-0.25, 0.25, (3, n)) * (even[1] - even[0])
            wobble[:, [0, -1]] = 0
            breaks = (even + wobble).astype(dtype)
            x = np.stack([queries(b, rng, dtype) for b in breaks])
            for right_closed in (False, True):
                rows = kernel(jnp.asarray(x), jnp.asarray(breaks), right_closed=right_closed)
                expected = np.stack([reference(q, b, right_closed) for q, b in zip(x, breaks)])
                np.testing.assert_array_equal(rows, expected, err_msg=f"n={n} {dtype}")
                one = kernel(jnp.asarray(x), jnp.asarray(breaks[0]), right_closed=right_closed)
                np.testing.assert_array_equal(one, reference(x, breaks[0], right_closed))


def test_cpu_corrects_an_even_guess_in_a_loop_for_many_queries():
    """A grid's corner gather reads j once per corner: recomputed in line, a 2-D evaluation
    is slower than the search; a loop's output is computed once (`docs/architecture.md` §6)."""
    assert _search.cpu_kernel(64, 1000, True) is _search.even_rolled
    assert _search.cpu_kernel(63, 1000, True) is _search.even_inline
    x, breaks = jnp.zeros(1000), jnp.linspace(0.0, 1.0, 100)
    locate = functools.partial(_search.locate, even=True)
    assert "stablehlo.while" in lowered_text(locate, x, breaks, platform="cpu")
    cuda = lowered_text(locate, x, breaks, platform="cuda")
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if"):
        assert forbidden not in cuda


@pytest.mark.parametrize("q", [8, 1000])
def test_locate_under_jit_and_eagerly_agrees_with_numpy(q):
    """Both CPU kernels through the primitive: jitted (the lowering) and eager (the impl)."""
    rng = np.random.default_rng(q)
    breaks = np.sort(rng.uniform(0, 1, 100))
    x = rng.uniform(-0.5, 1.5, q)
    for right_closed in (False, True):
        expected = reference(x, breaks, right_closed)
        np.testing.assert_array_equal(_search.locate(x, breaks, right_closed), expected)
        jitted = jax.jit(_search.locate, static_argnums=2)
        np.testing.assert_array_equal(jitted(x, breaks, right_closed), expected)


def test_the_loop_is_lowered_for_cpu_only_and_inside_its_kernel():
    x, breaks = jnp.zeros(1000), jnp.linspace(0.0, 1.0, 100)
    cpu = lowered_text(_search.locate, x, breaks, platform="cpu")
    assert any(f.startswith(ROLLED_SEARCH) for f in functions(cpu))
    assert "stablehlo.while" in cpu and loops_outside_kernels(cpu) == []
    cuda = lowered_text(_search.locate, x, breaks, platform="cuda")
    assert ROLLED_SEARCH not in cuda
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if"):
        assert forbidden not in cuda


@pytest.mark.parametrize("q", [8, 1000])  # the unrolled and the rolled kernel
def test_vmap_over_breaks_queries_or_both(q):
    rng = np.random.default_rng(1)
    breaks = np.sort(rng.uniform(0, 1, (4, 40)), axis=1)
    x = rng.uniform(-0.1, 1.1, (4, q))
    rows = np.stack([reference(x[i], breaks[i]) for i in range(4)])
    np.testing.assert_array_equal(jax.jit(jax.vmap(_search.locate))(x, breaks), rows)
    np.testing.assert_array_equal(
        jax.vmap(_search.locate, (0, None))(x, breaks[0]), reference(x, breaks[0])
    )
    np.testing.assert_array_equal(
        jax.vmap(_search.locate, (None, 0))(x[0], breaks),
        np.stack([reference(x[0], b) for b in breaks]))  # fmt: skip
    # Batch axes that are not leading, nested.
    nested = jax.vmap(jax.vmap(_search.locate, (1, None), 1), (None, 0))
    cube = x.reshape(4, q // 2 if q > 8 else 4, -1)
    np.testing.assert_array_equal(
        nested(cube, breaks), np.stack([reference(cube, b) for b in breaks])
    )


def test_the_index_has_zero_derivatives():
    breaks = jnp.linspace(0.0, 1.0, 30)
    x = jnp.linspace(-0.1, 1.1, 100)

    def through_index(x, breaks):
        return jnp.sum(breaks[_search.locate(x, breaks)] * x)

    dx, dbreaks = jax.grad(through_index, argnums=(0, 1))(x, breaks)
    j = np.asarray(_search.locate(x, breaks))
    np.testing.assert_array_equal(dx, np.asarray(breaks)[j])  # the index itself: no term
    np.testing.assert_array_equal(dbreaks, np.bincount(j, np.asarray(x), minlength=30))
    _, tangent = jax.jvp(lambda x: _search.locate(x, breaks), (x,), (jnp.ones_like(x),))
    assert tangent.dtype == jax.dtypes.float0


# ------------------------------------------------ extreme, invalid and unusual breaks


def adversarial_breaks(kind, n, dtype, rng):
    fi = np.finfo(dtype)
    if kind == "huge":  # spread over the whole range: ±1e38 (f32), ±1e308 (f64)
        b = np.sort(rng.uniform(-1, 1, n)) * fi.max
    elif kind == "infinite-ends":  # sorted, so valid for a search: -inf … +inf
        b = np.linspace(-1, 1, n)
        b[0], b[-1] = -np.inf, np.inf
    elif kind == "signed-zero":  # -0.0 as a break, +0.0 as a query
        b = np.linspace(-1, 1, n)
        b[np.argmin(abs(b))] = -0.0
    elif kind == "ties":  # long runs of equal breaks, including at both ends
        b = np.sort(rng.integers(0, 3, n)).astype(float)
    else:  # "extremes": ±max, ±0, tiny (normal) and normals mixed
        b = np.concatenate([[-fi.max, fi.max, 0.0, -0.0, fi.tiny], rng.normal(size=n)])[:n]
    return np.sort(b.astype(dtype))


def adversarial_queries(breaks, dtype, rng):
    fi = np.finfo(dtype)
    with np.errstate(over="ignore"):  # max's neighbour is inf
        up, down = np.nextafter(breaks, dtype(np.inf)), np.nextafter(breaks, dtype(-np.inf))
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, fi.max, -fi.max, fi.tiny, -fi.tiny]
    x = np.concatenate([np.array(special, dtype), breaks, up, down]).astype(dtype)
    x = x[~((x != 0) & (np.abs(x) < fi.tiny))]  # no subnormals (DAZ, see the docstring)
    return np.resize(x, 256)  # one shape for all: the kernels compile once per n and dtype


@pytest.mark.parametrize("kind", ["huge", "infinite-ends", "signed-zero", "ties", "extremes"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [2, 17, 18, 65])
def test_kernels_and_primitive_match_numpy_on_adversarial_values(n, dtype, kind):
    # Both kernels, eager locate, and jitted locate at q = 63/64/65 (the kernel switch) = numpy.
    rng = np.random.default_rng(n)
    b = adversarial_breaks(kind, n, dtype, rng)
    x = adversarial_queries(b, dtype, rng)
    for rc in (False, True):
        expected = reference(x, b, rc)
        for kernel in KERNELS.values():
            np.testing.assert_array_equal(kernel(x, b, right_closed=rc), expected)
        np.testing.assert_array_equal(_search.locate(x, b, rc), expected)
    for xq, rc, j in zip(*_switch_queries(x), _locate_around_the_switch(x, b)):
        np.testing.assert_array_equal(j, reference(xq, b, rc))


def _switch_queries(x):
    sizes = [(q, rc) for q in (63, 64, 65) for rc in (False, True)]
    return [x[:q] for q, _ in sizes], [rc for _, rc in sizes]


@jax.jit
def _locate_around_the_switch(x, b):
    """One program (one compile) with the primitive at 63, 64 and 65 queries, both closures."""
    return [_search.locate(xq, b, rc) for xq, rc in zip(*_switch_queries(x))]


@pytest.mark.parametrize("breaks_kind", ["one-nan", "all-nan", "last-nan", "descending", "random"])
@pytest.mark.parametrize("n", [2, 3, 18, 65])
def test_invalid_breaks_still_give_an_index_in_range(n, breaks_kind):
    # Unsorted or NaN breaks: no meaning, but j stays in [0, n-2] and both searches agree
    # (counting, which needs no order, may find another piece: the data is poisoned).
    rng = np.random.default_rng(n)
    b = rng.normal(size=n)
    if breaks_kind == "one-nan":
        b[n // 2] = np.nan
    elif breaks_kind == "all-nan":
        b[:] = np.nan
    elif breaks_kind == "last-nan":
        b = np.sort(b)
        b[-1] = np.nan
    elif breaks_kind == "descending":
        b = np.sort(b)[::-1].copy()
    x = np.concatenate([rng.normal(size=100) * 3, [np.nan, np.inf, -np.inf], b])
    for rc in (False, True):
        ju, jr, jc = (np.asarray(k(x, b, right_closed=rc)) for k in KERNELS.values())
        np.testing.assert_array_equal(ju, jr)
        for j in (ju, jc):
            assert j.min() >= 0 and j.max() <= n - 2


@pytest.mark.parametrize("dtype", [jnp.bfloat16, jnp.float16])
def test_half_precision_breaks_and_queries(dtype):
    # bf16/f16 (inf padding representable): both kernels and the primitive agree with numpy in f32.
    b = jnp.linspace(0, 1, 33).astype(dtype)
    x = jnp.tile(jnp.concatenate([b, jnp.array([jnp.nan, jnp.inf, -jnp.inf, 2.0], dtype)]), 3)
    expected = reference(np.asarray(x, np.float32), np.asarray(b, np.float32))
    for kernel in KERNELS.values():
        np.testing.assert_array_equal(kernel(x, b, right_closed=False), expected)
    np.testing.assert_array_equal(jax.jit(_search.locate)(x, b), expected)


# Integer breaks: the search pads with the largest value of the dtype (+inf would become
# INT_MIN under jit, and queries in the last pieces would climb into it).
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_integer_breaks(kernel):
    b = np.arange(20, dtype=np.int32)
    for x in (np.arange(-2, 23, dtype=np.int32), np.array([15.5, 16.0, 16.5, 17.5])):
        np.testing.assert_array_equal(KERNELS[kernel](x, b, right_closed=False), reference(x, b))


@pytest.mark.parametrize("n", [2**16 + 1, 2**16 + 2])
def test_many_breaks_and_queries(n):
    # 2^16 + 1 breaks (16 steps, no padding) and 2^16 + 2 (17 steps, 65535 pads); 2^17 queries.
    b = np.linspace(1, 2, n)  # no 0: its neighbour would be subnormal
    x = np.concatenate([b, np.nextafter(b, 2)])
    for rc in (False, True):
        np.testing.assert_array_equal(_search.locate(x, b, rc), reference(x, b, rc))


# Fewer than two breaks hold no piece: rejected, so that no caller reads breaks[1] out of
# bounds.
@pytest.mark.parametrize("n", [0, 1])
def test_fewer_than_two_breaks_are_rejected(n):
    with pytest.raises((ValueError, TypeError)):
        _search.locate(jnp.array([0.0, 2.0]), jnp.ones(n))


# A Python scalar query works eagerly as under jit.
def test_python_scalar_query_eagerly():
    b = np.linspace(0, 1, 20)
    assert int(_search.locate(0.5, b)) == int(jax.jit(_search.locate)(0.5, b)) == 9


# --------------------------------------------------------------- more transforms


@pytest.mark.parametrize("q", [8, 200])  # the unrolled and the rolled kernel
def test_vmap_on_non_leading_axes_per_batch_scalars_and_row_breaks(q):
    # in_axes (1, 1), out_axes, 0-d per-batch queries, rows of breaks with vmap on x.
    rng = np.random.default_rng(q)
    batch, n = 3, 40
    b = np.sort(rng.uniform(0, 1, (batch, n)), axis=1)
    x = rng.uniform(-0.1, 1.1, (q, batch, 2))
    per_row = np.stack([reference(x[:, i], b[i]) for i in range(batch)])
    np.testing.assert_array_equal(jax.vmap(_search.locate, (1, 1))(x, b.T), per_row)
    np.testing.assert_array_equal(
        jax.vmap(_search.locate, (None, 1), 1)(x[:, 0], b.T),
        np.stack([reference(x[:, 0], b[i]) for i in range(batch)], 1))  # fmt: skip
    np.testing.assert_array_equal(
        jax.vmap(_search.locate)(x[0, :, 0], b),
        [reference(x[0, i, 0], b[i]) for i in range(batch)])  # fmt: skip
    rows_first = x.transpose(1, 0, 2)  # (batch, q, 2): rows of breaks, vmap over the last axis
    np.testing.assert_array_equal(
        jax.jit(jax.vmap(_search.locate, (2, None)))(rows_first, b), per_row.transpose(2, 0, 1)
    )


def test_jvp_wrt_breaks_and_linear_transpose_through_the_index():
    # The index has a float0 tangent for breaks too; a gather by it transposes to a scatter-add.
    b = jnp.linspace(0.0, 1.0, 30)
    x = jnp.linspace(-0.1, 1.1, 100)
    _, tangent = jax.jvp(lambda b: _search.locate(x, b), (b,), (jnp.ones_like(b),))
    assert tangent.dtype == jax.dtypes.float0
    j = np.asarray(_search.locate(x, b))
    (ct,) = jax.linear_transpose(lambda v: v[_search.locate(x, b)], b)(jnp.ones(100))
    np.testing.assert_array_equal(ct, np.bincount(j, minlength=30))


def test_closed_over_constant_breaks_empty_queries_and_export_for_cpu_and_cuda():
    # numpy breaks closed over by jit; zero-size query arrays; a cpu+cuda export runs on CPU.
    b = np.linspace(0, 1, 50)
    x = np.random.default_rng(0).uniform(-0.5, 1.5, 1000)
    np.testing.assert_array_equal(jax.jit(lambda x: _search.locate(x, b))(x), reference(x, b))
    for shape in [(0,), (5, 0), (0, 7)]:
        assert _search.locate(np.zeros(shape), b).shape == shape
    assert _search.locate(np.zeros((3, 0)), np.tile(b, (3, 1))).shape == (3, 0)
    exported = export.export(jax.jit(_search.locate), platforms=("cpu", "cuda"))(
        jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct(b.shape, b.dtype)
    )
    np.testing.assert_array_equal(exported.call(x, b), reference(x, b))


# The rolled kernel runs inside shard_map (check_vma): its loop carry varies over the mesh
# axis as the body's output does (`jnp.zeros_like(x, jnp.int32)`, not `jnp.zeros(x.shape)`).
def test_shard_map_runs_the_rolled_kernel():
    mesh = Mesh(np.array(jax.devices()[:1]), ("d",))
    xp = np.linspace(0, 1, 50)
    x = np.linspace(0, 1, 64)  # ≥ 64 queries and ≥ 18 breaks: the rolled kernel on CPU
    f = jax.shard_map(lambda x: splines.interp1d(x, xp, np.sin(xp), method="linear"), mesh=mesh,
                      in_specs=P("d"), out_specs=P("d"))  # fmt: skip
    np.testing.assert_allclose(jax.jit(f)(x), np.interp(x, xp, np.sin(xp)), atol=1e-15)


# Exported with a symbolic number of queries (n ≥ 18 breaks): the CPU kernel choice does not
# compare the symbolic count with 64.
def test_export_with_a_symbolic_number_of_queries():
    (q,) = export.symbolic_shape("q")
    xp = np.linspace(0, 1, 50)
    f = jax.jit(lambda x: splines.interp1d(x, xp, np.sin(xp), method="linear"))
    exported = export.export(f)(jax.ShapeDtypeStruct((q,), jnp.float64))
    x = np.linspace(0, 1, 100)
    np.testing.assert_allclose(exported.call(x), np.interp(x, xp, np.sin(xp)), atol=1e-15)


# -------------------------------------------- the public paths at knots and breaks


@pytest.mark.parametrize(
    "method, n", [("linear", 4), ("cubic2", 4), ("cubic2", 65), ("monotonic", 18), ("akima", 18),
                  ("makima", 65)])  # fmt: skip
def test_interp1d_matches_scipy_on_knots_their_neighbours_and_outside(method, n):
    # At exact knots, one ulp either side and far outside: values and derivatives 1-3 as scipy.
    rng = np.random.default_rng(n)
    xp = np.linspace(-2, 3, n) + rng.uniform(0, 0.3, n) * 5 / n
    fp = np.sin(3 * xp) + 0.1 * rng.normal(size=n)
    q = np.concatenate([xp, np.nextafter(xp, -np.inf), np.nextafter(xp, np.inf),
                        [xp[0] - 1, xp[-1] + 1]])  # fmt: skip
    ref = {"linear": lambda: si.make_interp_spline(xp, fp, k=1),
           "cubic2": lambda: si.CubicSpline(xp, fp),
           "monotonic": lambda: si.PchipInterpolator(xp, fp),
           "akima": lambda: si.Akima1DInterpolator(xp, fp, extrapolate=True),
           "makima": lambda: si.Akima1DInterpolator(xp, fp, method="makima", extrapolate=True),
           }[method]()  # fmt: skip
    orders = (0, 1) if method == "linear" else (0, 1, 2, 3)
    out = splines.interp1d(q, xp, fp, method=method, extrap=True, derivative=orders)
    for order, got in zip(orders, np.asarray(out)):
        expected = ref(q, nu=order)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


@pytest.mark.parametrize("method", ["linear", "cubic2"])
def test_grad_at_exact_knots_is_the_derivative_of_the_piece_on_the_right(method):
    # jax.grad w.r.t. x at knots and their neighbours equals derivative=1; xp/fp gradients finite.
    xp = np.linspace(0, 1, 20) ** 1.5
    fp = np.cos(5 * xp)
    q = np.concatenate([xp, np.nextafter(xp, -1)[1:], np.nextafter(xp, 2)[:-1]])

    def f(x, xp, fp):
        return splines.interp1d(x, xp, fp, method=method)

    # Each output depends on its own query only: d(sum)/dx is the elementwise derivative.
    dx, dxp, dfp = jax.jit(jax.grad(lambda *a: f(*a).sum(), argnums=(0, 1, 2)))(q, xp, fp)
    np.testing.assert_allclose(dx, splines.interp1d(q, xp, fp, method=method, derivative=1),
                               rtol=1e-12, atol=1e-12)  # fmt: skip
    assert np.isfinite(dxp).all() and np.isfinite(dfp).all()


@pytest.mark.parametrize("n", [18])
@pytest.mark.parametrize("descending", [False, True])
def test_ppoly_takes_scipys_interval_at_exact_breaks(descending, n):
    # Discontinuous pieces: at a break, ±1 ulp and outside, PPoly picks scipy's interval.
    rng = np.random.default_rng(n)
    x = np.sort(rng.uniform(-1, 2, n))
    x = x[::-1].copy() if descending else x
    c = rng.normal(size=(4, n - 1))
    q = np.concatenate([x, np.nextafter(x, -9), np.nextafter(x, 9), [-5.0, 5.0]])
    for extrapolate in (True, False):
        ours = np.asarray(splines.PPoly(c, x, extrapolate)(q, (0, 1, 3)))
        for got, nu in zip(ours, (0, 1, 3)):
            np.testing.assert_allclose(got, si.PPoly(c, x, extrapolate)(q, nu), rtol=1e-9,
                                       atol=1e-9)  # fmt: skip
