"""`splines._pieces.roots.real_roots` against scipy's `PPoly.solve`, its derivatives and its program.

Our pieces are polynomials in t = (x − b_j)/h_j (ascending powers); scipy's
are in s = x − x_i (highest power first), with x_i the first break of the
interval in the order given: the lower end for ascending breaks, the upper
for descending ones, whose pieces we hold in z = −x (s = −h t).  Break widths
are powers of two where a test needs exact values at the breaks.

Most cases share the shape (6 pieces, 3 columns, cubic) so that the programs
compile once.  Where scipy's companion-matrix eigenvalues are inexact (a
double root, a root on the far end of an interval from its x_i) no test asks
for a match.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _lowered import custom_calls, lowered_text
from hypothesis import given, settings
from hypothesis import strategies as st
from jax.test_util import check_grads
from scipy.interpolate import CubicSpline, PPoly

from splines._pieces.roots import _polish, max_roots, real_roots

# (discontinuity, extrapolate, descending)
FLAGS = [(True, False, False), (True, True, False), (False, True, True), (True, False, True)]


def scipy_ppoly(breaks, coef, descending=False):
    """scipy's PPoly of our pieces; with ``descending`` ours are in z = −x, so its
    breakpoints are ``−breaks`` (same order, same expansion points; s = −h t)."""
    breaks, coef = np.asarray(breaks, float), np.asarray(coef, float)
    order = coef.shape[-1]
    h = -np.diff(breaks) if descending else np.diff(breaks)
    c = np.stack([coef[:, :, p] / h[:, None] ** p for p in range(order)])[::-1]
    return PPoly(c, -breaks if descending else breaks)


def local(c, x):
    """Our coefficients (m, k, d+1) from scipy's c (d+1, m, k) on ascending x."""
    h = np.diff(x)[:, None]
    d = c.shape[0] - 1
    return np.stack([c[d - p] * h**p for p in range(d + 1)], axis=-1)


def raw(breaks, coef, y=0.0, size=None, disc=True, ext=False, desc=False, dtype=None, **kw):
    """Ours as arrays: (roots (k, size), counts (k,)); by default size = max_roots."""
    m, _, order = np.shape(coef)
    size = max_roots(m, order - 1) if size is None else size
    dtype = jnp.asarray(coef).dtype if dtype is None else dtype
    args = (jnp.asarray(a, dtype) for a in (breaks, coef, y))
    flags = dict(discontinuity=disc, extrapolate=ext, descending=desc, size=size, **kw)
    return real_roots(*args, **flags)


def solve(breaks, coef, y=0.0, disc=True, ext=False, desc=False, **kw):
    """Ours as scipy's list: one array per column."""
    roots, counts = raw(breaks, coef, y, None, disc, ext, desc, **kw)
    return [np.asarray(r[:n]) for r, n in zip(roots, counts)]


def reference(breaks, coef, y=0.0, disc=True, ext=False, desc=False):
    return list(scipy_ppoly(breaks, coef, desc).solve(y, disc, ext))


def assert_same(ours, ref, span, tol=1e-10, rtol=1e-12):
    """Same count, same NaN markers, same order; values to tol·span (or rtol)."""
    assert len(ours) == len(ref)
    for column, (a, b) in enumerate(zip(ours, ref)):
        assert a.shape == b.shape, (column, a, b)
        np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
        np.testing.assert_allclose(a, b, rtol=rtol, atol=tol * span, err_msg=f"column {column}")


def check(breaks, coef, y=0.0, disc=True, ext=False, desc=False):
    """Ours equals scipy's list — with scipy's carry-over between columns (a
    scipy bug that our default does not have, see the test below)."""
    ours = solve(breaks, coef, y, disc, ext, desc, independent_columns=False)
    assert_same(ours, reference(breaks, coef, y, disc, ext, desc), np.ptp(breaks))
    return ours


def spline(seed, n=7):
    """Cubic splines through random data: 6 pieces, 3 columns."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([[0.0], np.sort(rng.uniform(0, 10, n - 2)), [10.0]])
    return x, local(CubicSpline(x, rng.normal(size=(n, 3))).c, x)


@pytest.mark.parametrize("extrapolate", [False, True])
def test_cubic_splines(extrapolate):
    for seed in range(4):
        x, coef = spline(seed)
        for y in (0.0, 0.25):
            check(x, coef, y, True, extrapolate)


@pytest.mark.parametrize("disc, ext, desc", FLAGS)
def test_random_pieces_of_every_degree(disc, ext, desc):
    """Nominal degree 5, true degree 0..5 per piece (leading zeros), jumps at breaks."""
    rng = np.random.default_rng(1)
    for _ in range(6):
        coef = rng.normal(size=(6, 3, 6))
        coef[np.arange(6) > rng.integers(0, 6, (6, 3, 1))] = 0
        breaks = np.cumsum(np.r_[0, rng.uniform(0.5, 2, 6)])
        check(breaks, coef, rng.normal() / 2, disc, ext, desc)


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.floats(-1, 1))
def test_random_cubics_property(seed, y):
    rng = np.random.default_rng(seed)
    breaks = np.cumsum(np.r_[0, rng.uniform(0.1, 3, 6)])
    check(breaks, rng.normal(size=(6, 3, 4)), y, True, True)


def test_roots_on_breaks_once_and_quadratic_order():
    """Shared-break roots once; a quadratic with a < 0 lists its roots descending."""
    b = np.arange(4.0)[:, None]
    p = np.stack([(b - 1) * (b - 2.5), 2 * b - 3.5, np.ones_like(b)], -1)  # (x−1)(x−2.5) at b+t
    cap = np.zeros((3, 1, 3))
    cap[0, 0], cap[1:, 0, 0] = [-0.1875, 1, -1], 1  # −(t−¼)(t−¾), then 1
    coef = np.concatenate([p[:3], -p[:3], cap], axis=1)
    ours = check(b[:, 0], coef)
    assert [r.tolist() for r in ours] == [[1, 2.5], [1, 2.5], [0.75, 0.25, 1]]
    x = np.arange(7.0)  # a spline through zeros at knots 1, 3, 5
    values = np.array([1, 0, -1, 0, 2, 0, 1.0])[:, None] * [1, -1, 2]
    for ext in (False, True):
        ours = check(x, local(CubicSpline(x, values).c, x), 0.0, True, ext)
        assert all(np.sum(np.isin(r, [1, 3, 5])) == 3 for r in ours)


@pytest.mark.parametrize("disc, desc", [(1, 0), (0, 0), (1, 1), (0, 1)])
def test_jumps_zero_pieces_and_constants(disc, desc):
    y = 2.0
    coef = np.zeros((6, 3, 2))
    coef[:, 0, 0] = [3, 1, 2, 2, -1, 4]  # jumps across y, two pieces equal to y
    coef[:, 1] = [[y - 1, 1], [y, 0], [y, 1], [y + 1, 0], [y + 1, 0], [y + 1, 0]]
    coef[:, 2, 0] = y  # identically y: 2m entries, the most for a linear
    ours = check(np.arange(7.0), coef, y, bool(disc), False, bool(desc))
    if disc and not desc:
        np.testing.assert_array_equal(ours[0], [1, 2, np.nan, 3, np.nan, 5])
        np.testing.assert_array_equal(ours[1], [1, 1, np.nan, 2])  # the zero piece's x is kept
    assert len(ours[2]) == 12 == max_roots(6, 1)


def test_scipy_carries_the_last_root_across_columns():
    """scipy never resets `last_root` between columns: column 2 loses its 0.5."""
    coef = np.zeros((6, 3, 2))
    coef[:, :, 0] = 1
    coef[0, [0, 2]] = [-0.5, 1]  # t − 0.5 on piece 0
    coef[3, 2] = [-0.5, 1]  # and on piece 3: a jump at 3, a root at 3.5
    carried = solve(np.arange(7.0), coef, independent_columns=False)
    assert [r.tolist() for r in carried] == [[0.5], [], [3, 3.5]]
    assert [r.tolist() for r in reference(np.arange(7.0), coef)] == [[0.5], [], [3, 3.5]]
    ours = solve(np.arange(7.0), coef)  # each column on its own: PPoly's answer
    assert [r.tolist() for r in ours] == [[0.5], [], [0.5, 3, 3.5]]


@pytest.mark.parametrize("ext, desc", [(True, False), (True, True), (False, False)])
def test_one_piece_extends_both_ways(ext, desc):
    coef = np.array([[[-6, -1, 1], [-1e12, 1, 0], [1, 1e-200, 0]]])  # t = −2, 3; 1e12; −1e200
    ours = check([1.0, 3.0], coef, 0.0, True, ext, desc)
    expected = [[-3, 7], [1 + 2e12], [-2e200]]
    if desc:  # in z = −x: x = −z, ascending in x
        expected = [[-7, 3], [-1 - 2e12], [2e200]]
    expected = expected if ext else [[], [], []]
    for r, e in zip(ours, expected):
        np.testing.assert_allclose(r, e, rtol=1e-15)


@pytest.mark.parametrize("desc", [False, True])
def test_end_pieces_extend_outward_only(desc):
    coef = np.zeros((3, 3, 3))
    # (t+1)(t−½), (t−2)(t+3), (t−3)(t−½): the middle one's roots are outside [0, 1]
    coef[:, 0] = [[-0.5, 0.5, 1], [-6, 1, 1], [1.5, -3.5, 1]]
    coef[:, 1:, 0] = 1
    coef[0, 1, :2] = [1e6, 1]
    coef[2, 2, :2] = [-1e6, 1]
    ours = check([0.0, 1, 2, 4], coef, 0.0, True, True, desc)
    if desc:  # pieces in z = −x: x = −z, each piece's roots ascending in x
        expected = [[-0.5, 1, -1, -2, -8, -3], [1e6], [-2, -2 - 2e6]]
    else:
        expected = [[-1, 0.5, 1, 2, 3, 8], [-1e6], [2, 2 + 2e6]]
    for r, e in zip(ours, expected):
        np.testing.assert_allclose(r, e, rtol=1e-15)


def most_entries():
    """Column 0: 3 roots per piece and a jump at every break; column 1: zero."""
    coef = np.zeros((6, 3, 4))
    coef[:, 0] = [-0.08, 0.66, -1.5, 1]  # (t−.2)(t−.5)(t−.8)
    coef[:, 2] = spline(5)[1][:, 0]
    return np.arange(7.0), coef


def test_most_entries():
    full = check(*most_entries())
    assert [len(r) for r in full[:2]] == [max_roots(6, 3), 2 * 6]


def test_non_finite_data_gives_nan():
    x, coef = spline(2)
    coef[3, 1, 2] = np.nan
    size = max_roots(6, 3)
    roots, counts = raw(x, coef)
    assert np.isnan(roots[1]).all() and counts[1] == size
    assert_same(
        [np.asarray(r[:n]) for r, n in zip(roots[::2], counts[::2])],
        solve(x, spline(2)[1], 0.0)[::2],
        10,
    )
    roots, counts = raw(x, coef, np.nan)
    assert np.isnan(roots).all() and (counts == size).all()


@pytest.mark.parametrize("scale", [1e-200, 1e200])
@pytest.mark.parametrize("ext", [False, True])
def test_scale_free_f64(scale, ext):
    """Breaks at 1e±200 (scipy's own coefficients Δf/h³ would overflow), values at 1e±150."""
    x, coef = spline(3)
    ref = reference(x, coef, 0.0, True, ext)
    for value_scale in (1.0, 1e-150, 1e150):
        ours = solve(x * scale, coef * value_scale, 0.0, True, ext)
        assert_same(ours, [r * scale for r in ref], 10 * scale)


@pytest.mark.parametrize("scale", [1.0, 1e-30, 1e30])
def test_float32_against_scipy_on_rounded_inputs(scale):
    """f32 to 1e-5 of the span; breaks and values at 1e±30."""
    x = np.linspace(0, 10, 7)
    values = np.stack([np.sin(x), np.cos(x) - 0.3, 0.5 * x - 2], -1)
    x32 = (x * scale).astype(np.float32)
    c32 = (local(CubicSpline(x, values).c, x) * scale).astype(np.float32)
    y32 = np.float32(0.25 * scale)
    for ext in (False, True):
        ours = solve(x32, c32, y32, True, ext, dtype=np.float32)
        assert all(r.dtype == np.float32 for r in ours)
        ref = reference(x32.astype(float), c32.astype(float), float(y32), True, ext)
        assert_same(ours, ref, 10 * scale, tol=1e-5, rtol=1e-6)  # far roots: relative


def test_gradients_forward_reverse_and_implicit():
    """A simple root: dx/dc_p = −h tᵖ/q'(t), dx/dy = h/q'(t), dx/d(b_j, b_j+1) = (1 − t, t),
    in forward and reverse mode and as central differences.  A tangency moves
    only with the breaks; the NaN padding has zero derivatives."""
    x, coef = spline(7)
    y = 0.125
    coef[2, 1] = [0.25 + y, -1, 1, 0]  # column 1: (t − ½)² + y, a tangency mid-piece 2

    def roots(coef, x, y):
        return raw(x, coef, y)[0]

    value = np.asarray(roots(coef, x, y))
    j = np.searchsorted(x, value[0, 0]) - 1  # the piece of column 0's first root
    h, t = x[j + 1] - x[j], (value[0, 0] - x[j]) / (x[j + 1] - x[j])
    slope = sum(p * coef[j, 0, p] * t ** (p - 1) for p in range(1, 4))
    expected = [np.zeros_like(coef), np.zeros_like(x), h / slope]
    expected[0][j, 0] = -h * t ** np.arange(4) / slope
    expected[1][j : j + 2] = [1 - t, t]
    tangency = np.flatnonzero(value[1] == x[2] + (x[3] - x[2]) / 2)
    assert tangency.size == 1
    padding = np.isnan(value)

    @jax.jit  # reverse and forward mode in one compiled program
    def jacobians(coef, x, y):
        return [jacobian(roots, argnums=(0, 1, 2))(coef, x, y)
                for jacobian in (jax.jacrev, jax.jacfwd)]  # fmt: skip

    for derivatives in jacobians(coef, x, y):
        for d, e in zip(derivatives, expected):
            np.testing.assert_allclose(d[0, 0], e, rtol=1e-10, atol=1e-13)
            assert np.all(d[padding] == 0)
        dc, db, dy = (np.asarray(d[1, tangency[0]]) for d in derivatives)
        assert np.all(dc == 0) and dy == 0 and np.allclose(db[2:4], 0.5)
    eps = 1e-6
    for i in np.ndindex(coef[j].shape):
        step = np.zeros_like(coef)
        step[j][i] = eps
        diff = (roots(coef + step, x, y)[0, 0] - roots(coef - step, x, y)[0, 0]) / (2 * eps)
        np.testing.assert_allclose(diff, expected[0][j][i], rtol=1e-6, atol=1e-9)


def test_implicit_derivative_rule_to_second_order():
    """The custom JVP is itself differentiable: second derivatives of a root."""

    @jax.jit
    def root(q):  # the larger root of q0 + q1 t + q2 t², polished by the rule
        disc = q[1] ** 2 - 4 * q[0] * q[2]
        t = jax.lax.stop_gradient((-q[1] + jnp.sqrt(disc)) / (2 * q[2]))
        return _polish(q[None, None, :], t[None, None, None])[0, 0, 0]

    check_grads(root, (jnp.array([-0.3, 0.2, 1.1]),), order=2, modes=("fwd", "rev"))


def test_vmap_with_truncation():
    """Batched over different piecewise polynomials, with a smaller static size:
    each row is the unbatched answer's first entries; counts are not clipped."""
    batch = [most_entries(), spline(6), spline(8)]
    ys = np.array([0.0, 0.3, -0.2])
    fun = partial(real_roots, discontinuity=True, extrapolate=False, descending=False, size=5)
    roots, counts = jax.vmap(fun)(*(np.stack(a) for a in zip(*batch)), ys)
    for (x, coef), y, r, n in zip(batch, ys, np.asarray(roots), counts):
        full = solve(x, coef, y)
        assert n.tolist() == [len(f) for f in full]
        for row, f in zip(r, full):
            np.testing.assert_allclose(row[: len(f)], f[:5], rtol=1e-14, atol=1e-14)
            assert np.isnan(row[len(f) :]).all()


def test_static_errors_name_the_argument():
    flags = dict(discontinuity=True, extrapolate=False, descending=False, size=4)
    with pytest.raises(ValueError, match="`breaks`"):
        real_roots(np.arange(3.0), np.zeros((3, 1, 4)), 0.0, **flags)
    with pytest.raises(ValueError, match="`coefficients` must be real"):
        real_roots(np.arange(3.0), np.zeros((2, 1, 4), complex), 0.0, **flags)
    with pytest.raises(ValueError, match="`size`"):
        real_roots(np.arange(3.0), np.zeros((2, 1, 4)), 0.0, **{**flags, "size": -1})


def test_cuda_program_has_no_loops_conditionals_or_callbacks():
    flags = dict(discontinuity=True, extrapolate=True, descending=True, size=max_roots(6, 3))
    x, coef = spline(0)

    def grad(x, c, y):
        return jax.grad(lambda c: jnp.nansum(real_roots(x, c, y, **flags)[0]))(c)

    for f in (partial(real_roots, **flags), grad):
        text = lowered_text(f, x, coef, 0.0, platform="cuda")
        assert custom_calls(text) == []
        for op in ("stablehlo.while", "stablehlo.case", "stablehlo.if"):
            assert op not in text
