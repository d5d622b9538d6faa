"""The cell search (`splines._pieces.search`): both kernels against numpy, the CPU choice, transforms.

``searchsorted(side="right") − 1``, clipped to the pieces, is the reference;
``right_closed`` is ``side="left"``.  NaN queries get piece 0.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from _lowered import ROLLED_SEARCH, functions, loops_outside_kernels, lowered_text
from splines._pieces import search as _search

KERNELS = {"unrolled": _search.unrolled, "rolled": _search.rolled}
# 2 breaks: no step; 17 / 18: the last with 4 steps / the first with 5; 65: 2^6 + 1.
SIZES = [2, 3, 4, 5, 17, 18, 19, 64, 65, 1000]


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
        _search.locate(jnp.asarray([1.0], jnp.float32), jnp.asarray(wide)), [1])
    np.testing.assert_array_equal(
        _search.locate(jnp.asarray([1.0 + 1e-12, 1.0]), jnp.asarray(wide, jnp.float32)), [2, 2])


@pytest.mark.parametrize(
    "queries_, n, expected",
    [(64, 18, "rolled"), (10**5, 1000, "rolled"), (63, 1000, "unrolled"),
     (10**5, 17, "unrolled"), (8, 8, "unrolled")],
)  # fmt: skip
def test_cpu_runs_the_loop_for_long_searches_only(queries_, n, expected):
    assert _search.cpu_kernel(queries_, n) is KERNELS[expected]


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
        jax.vmap(_search.locate, (0, None))(x, breaks[0]), reference(x, breaks[0]))
    np.testing.assert_array_equal(
        jax.vmap(_search.locate, (None, 0))(x[0], breaks),
        np.stack([reference(x[0], b) for b in breaks]))  # fmt: skip
    # Batch axes that are not leading, nested.
    nested = jax.vmap(jax.vmap(_search.locate, (1, None), 1), (None, 0))
    cube = x.reshape(4, q // 2 if q > 8 else 4, -1)
    np.testing.assert_array_equal(
        nested(cube, breaks), np.stack([reference(cube, b) for b in breaks]))


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
