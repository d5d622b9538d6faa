"""Smoothing splines (`splines.CubicSmoothingSpline`) against interpax, scipy's
`make_smoothing_spline` at the same λ, and the exact limits p = 0 and p = 1."""

import interpax
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from scipy.interpolate import CubicSpline as ScipyCubicSpline
from scipy.interpolate import _bsplines as scipy_bsplines
from scipy.interpolate import make_smoothing_spline
from scipy.optimize import minimize_scalar

import splines
from splines._methods.smoothing import gcv, gcv_lambda
from splines._utils.dtypes import span_units
from splines._utils.minimize import bounded_minimum


def noisy(n, seed=0, columns=()):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 3.0, n))
    y = np.sin(x).reshape((n,) + (1,) * len(columns)) + 0.1 * rng.normal(size=(n, *columns))
    return x, y, rng.uniform(0.5, 2.0, n)


def csaps_k(x, w):
    """csaps' normalisation constant in the data's units (the class' Notes)."""
    n, span, h = len(x), x[-1] - x[0], np.diff(x)
    eff_x = 1 + span**2 / np.sum(h**2)
    eff_w = np.sum(w) ** 2 / np.sum(w**2)
    return 80 * span**3 / (n**2 * np.sqrt(eff_x) * np.sqrt(eff_w))


def max_error(ours, ref, q, orders=(0, 1, 2)):
    """Largest difference over the derivative orders, relative to each one's scale."""
    return max(
        np.max(np.abs(np.asarray(ours(q, nu)) - ref(q, nu))) / max(np.max(np.abs(ref(q, nu))), 1)
        for nu in orders
    )


QUERIES = np.linspace(-0.5, 3.5, 81)


@pytest.mark.parametrize("n", [2, 3, 5, 10, 50])
@pytest.mark.parametrize("p", [0.1, 0.5, 0.9, 1.0])
def test_matches_interpax(n, p):
    x, y, w = noisy(n, seed=n)
    ours = splines.CubicSmoothingSpline(x, y, p=p, w=w)
    theirs = interpax.CubicSmoothingSpline(x, y, p=p, w=w)
    ref = lambda q, nu: np.asarray(theirs(q, nu))  # noqa: E731
    # interpax solves Reinsch's system, whose condition grows like λ/h⁴: at n = 50,
    # p = 0.1 its values are 3e-10 from a 40-digit solve, ours 1e-15
    # (test_values_match_an_exact_solve); second derivatives differ by up to 1.3e-8.
    # Beyond an end, the end cell's cubic term, from Hermite data h apart, carries the
    # values' rounding ε|f|/h³, grown by d³ at a distance d (n = 10: a last cell of
    # 0.0028 and d = 0.63 give ~1e-9; interpax's, from its moments, ~4e-13).
    d = np.maximum(x[0] - QUERIES, QUERIES - x[-1]).max()
    beyond = 8 * np.finfo(float).eps * (d / min(x[1] - x[0], x[-1] - x[-2])) ** 3
    assert max_error(ours, ref, QUERIES, orders=(0,)) < 1e-9 + beyond
    assert max_error(ours, ref, QUERIES, orders=(1, 2)) < 1e-7


def exact_values(x, y, w, lam, slopes=(None, None)):
    """The smoothing spline's values at the knots in 40 digits, over the C² cubic splines
    with knots x and, per end, f'' = 0 (None), a given slope (a number), a given f''
    (``(2, value)``) or ``"not-a-knot"``.  Such a spline is its values f and second
    derivatives m with A m = R f + g (f' continuous at the interior knots; the end
    rows: the condition); with m = B f + c (B = A⁻¹R, c = A⁻¹g) the minimum of
    Σ w (y − f)² + λ mᵀ M m (M: ∫ f''² from the widths) solves
    (W + λ Bᵀ M B) f = W y − λ Bᵀ M c."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    n = len(x)
    lam, h = mp.mpf(lam), [mp.mpf(x[i + 1]) - mp.mpf(x[i]) for i in range(n - 1)]
    a, r, g, m = mp.zeros(n, n), mp.zeros(n, n), mp.zeros(n, 1), mp.zeros(n, n)
    for i in range(1, n - 1):  # (f_{i+1} − f_i)/h_i − (f_i − f_{i−1})/h_{i−1} = …
        a[i, i - 1], a[i, i], a[i, i + 1] = h[i - 1] / 6, (h[i - 1] + h[i]) / 3, h[i] / 6
        r[i, i - 1], r[i, i], r[i, i + 1] = 1 / h[i - 1], -1 / h[i - 1] - 1 / h[i], 1 / h[i]
    for end, (i, j, sign) in zip(slopes, [(0, 1, -1), (n - 1, n - 2, 1)]):
        if end is None:
            a[i, i] = 1
        elif isinstance(end, tuple):  # (2, value): m_i = value
            a[i, i], g[i, 0] = 1, mp.mpf(end[1])
        elif end == "not-a-knot":  # (m_k − m_j)/h_j − (m_j − m_i)/h_i = 0, the cells at i
            k = j + (j - i)
            near, far = h[min(i, j)], h[min(j, k)]
            a[i, i], a[i, j], a[i, k] = 1 / near, -1 / near - 1 / far, 1 / far
        else:  # f'_0 = (f_1 − f_0)/h_0 − h_0 (2 m_0 + m_1)/6, or its mirror at the end
            width = h[min(i, j)]
            a[i, i], a[i, j] = width / 3, width / 6
            r[i, i], r[i, j] = -1 / width, 1 / width
            g[i, 0] = sign * mp.mpf(end)
    for i in range(n - 1):
        m[i, i] += h[i] / 3
        m[i + 1, i + 1] += h[i] / 3
        m[i, i + 1] += h[i] / 6
        m[i + 1, i] += h[i] / 6
    inverse = mp.inverse(a)
    b, c = inverse * r, inverse * g
    weights = mp.diag([mp.mpf(v) for v in w])
    values = mp.matrix([mp.mpf(v) for v in y])
    f = mp.lu_solve(weights + lam * b.T * m * b, weights * values - lam * b.T * m * c)
    return np.array([float(v) for v in f])


def test_values_match_an_exact_solve():
    x, y, w = noisy(50, seed=50)
    p = 0.1
    rho = p / (p + (1 - p) * csaps_k(x, w))
    exact = exact_values(x, y, w, (1 - rho) / rho)
    ours = splines.CubicSmoothingSpline(x, y, p=p, w=w)
    # interpax (Reinsch's pentadiagonal system): 3e-10
    assert np.max(np.abs(np.asarray(ours(x)) - exact)) < 1e-14
    scipys = splines.make_smoothing_spline(x, y, w, lam=(1 - rho) / rho)
    np.testing.assert_allclose(scipys(x), exact, rtol=0, atol=5e-14)  # (+ the B-spline form)


ENDS = [  # bc_type and the slopes it gives (None: natural)
    ("clamped", (0.0, 0.0)),
    (((1, 1.5), (1, -2.0)), (1.5, -2.0)),
    (("natural", (1, 0.4)), (None, 0.4)),
    (((1, -0.7), (2, 0.0)), (-0.7, None)),
]


@pytest.mark.parametrize("p", [1e-6, 0.1, 0.9])
@pytest.mark.parametrize("bc_type, slopes", ENDS)
def test_end_conditions_match_an_exact_solve(bc_type, slopes, p):
    x, y, w = noisy(30, seed=3)
    rho = p / (p + (1 - p) * csaps_k(x, w))
    exact = exact_values(x, y, w, (1 - rho) / rho, slopes)
    ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type)
    # interpax: up to 7e-9 at p = 1e-6, n = 60
    np.testing.assert_allclose(np.asarray(ours(x)), exact, rtol=0, atol=1e-14)
    for end, at in zip(slopes, x[[0, -1]]):
        np.testing.assert_allclose(ours(at, 2 if end is None else 1), end or 0.0, atol=1e-12)


# Ends on the second or third derivative (`_methods.smoothing_ends`): bc_type and
# `exact_values`' ends.
SECOND_ORDER_ENDS = [
    ("not-a-knot", ("not-a-knot", "not-a-knot")),
    (((2, 1.5), (2, -0.5)), ((2, 1.5), (2, -0.5))),
    (("not-a-knot", (1, 0.3)), ("not-a-knot", 0.3)),
    (((2, 0.7), "clamped"), ((2, 0.7), 0.0)),
    (("natural", "not-a-knot"), (None, "not-a-knot")),
]


@pytest.mark.parametrize("bc_type, ends", SECOND_ORDER_ENDS, ids=str)
def test_second_order_ends_match_an_exact_solve(bc_type, ends):
    """p from near 0 to 1 at n = 30 and at the fewest sites (4); each condition holds
    at its end."""
    x, y, w = noisy(30, seed=5)
    for n, p in [(30, 1e-6), (30, 0.1), (30, 0.9), (30, 1.0), (4, 0.5)]:
        xs, ys, ws = x[:: 30 // n][:n], y[:: 30 // n][:n], w[:: 30 // n][:n]
        rho = p / (p + (1 - p) * csaps_k(xs, ws))
        exact = exact_values(xs, ys, ws, (1 - rho) / rho, ends)
        ours = splines.CubicSmoothingSpline(xs, ys, p=p, w=ws, bc_type=bc_type)
        # interpax: 1e-12 … 9e-11 off at n = 12 (an ad-hoc run)
        np.testing.assert_allclose(np.asarray(ours(xs)), exact, rtol=0, atol=1e-13,
                                   err_msg=f"n = {n}, p = {p}")  # fmt: skip
        for end, at, inner in zip(ends, xs[[0, -1]], xs[[1, -2]]):
            if end == "not-a-knot":  # the third derivative equal on both sides of x_1
                jump = ours(inner + 1e-9, 3) - ours(inner - 1e-9, 3)
                assert abs(float(jump)) < 1e-8 * max(1.0, float(abs(ours(inner, 3))))
            elif isinstance(end, tuple):
                np.testing.assert_allclose(ours(at, 2), end[1], atol=1e-10)
            elif end is not None:
                np.testing.assert_allclose(ours(at, 1), end, atol=1e-11)


def test_not_a_knot_with_a_given_second_derivative_at_large_lambda():
    """A not-a-knot end with a given f'' ≠ 0 at the other, few sites, p → 0 (λ̂ ≫ 1).

    The not-a-knot row annihilates lines, so its terms are O(1/λ̂); formed from the
    smoother's O(1) outputs they were off by ε λ̂ of the data when c ≠ 0 (μ ~ λ̂ c): at
    n = 4, 7e-7 at p = 1e-8 and 0.1 at 1e-14 (`_methods.smoothing_ends`: the large-λ̂
    form)."""
    x, y, w = noisy(30, seed=5)
    xs, ys, ws = x[::7][:4], y[::7][:4], w[::7][:4]
    for bc_type, ends in [(("not-a-knot", (2, 1.0)), ("not-a-knot", (2, 1.0))),
                          (((2, 1.0), "not-a-knot"), ((2, 1.0), "not-a-knot"))]:  # fmt: skip
        for p in (1e-8, 1e-14):
            rho = p / (p + (1 - p) * csaps_k(xs, ws))
            exact = exact_values(xs, ys, ws, (1 - rho) / rho, ends)
            ours = splines.CubicSmoothingSpline(xs, ys, p=p, w=ws, bc_type=bc_type)
            np.testing.assert_allclose(np.asarray(ours(xs)), exact, rtol=0, atol=1e-12,
                                       err_msg=f"{bc_type}, p = {p}")  # fmt: skip


@pytest.mark.parametrize("p", [0.3, 0.9])
def test_end_conditions_match_interpax(p):
    x, y, w = noisy(10, seed=4, columns=(2,))
    for bc_type in [
        "clamped",
        ((1, np.array([0.5, -1.0])), "natural"),
        ((2, np.zeros(2)), (1, np.array([2.0, 0.0]))),
        "not-a-knot",
        ((2, np.array([1.0, -2.0])), "not-a-knot"),
        ((1, np.array([0.5, -1.0])), (2, np.array([0.3, 0.0]))),
    ]:
        ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type)
        theirs = interpax.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type)
        ref = lambda q, nu, theirs=theirs: np.asarray(theirs(q, nu))  # noqa: E731
        assert max_error(ours, ref, QUERIES, orders=(0, 1)) < 1e-9, bc_type
        assert max_error(ours, ref, QUERIES, orders=(2,)) < 1e-7, bc_type


def test_p_zero_with_given_slopes_is_the_least_curved_spline():
    """p = 0: f'' is linear from slope a to slope b, f = c + a t + (b − a) t²/(2L), and c
    fits the data by weighted least squares."""
    x, y, w = noisy(12, seed=8)
    spline = splines.CubicSmoothingSpline(x, y, p=0.0, w=w, bc_type=((1, 0.5), (1, -1.0)))
    t, span = x - x[0], x[-1] - x[0]
    shape = 0.5 * t - 1.5 * t**2 / (2 * span)
    expected = shape + np.sum(w * (y - shape)) / np.sum(w)
    np.testing.assert_allclose(np.asarray(spline(x)), expected, rtol=0, atol=1e-12)


def test_p_zero_with_second_order_ends():
    """p = 0 (λ = ∞): not-a-knot ends leave the weighted least-squares line; given second
    derivatives add the least-curved spline with them that vanishes at every knot (its
    roughness is all that is left: J = λ (∫ n''² + ∫ z''²), n's part the line's 0)."""
    x, y, w = noisy(12, seed=8)
    design = np.stack([np.ones_like(x), x], axis=1)
    line = design @ np.linalg.solve(design.T @ (w[:, None] * design), design.T @ (w * y))
    spline = splines.CubicSmoothingSpline(x, y, p=0.0, w=w, bc_type="not-a-knot")
    np.testing.assert_allclose(np.asarray(spline(x)), line, rtol=0, atol=1e-12)
    q = np.linspace(x[0], x[-1], 41)
    zero = splines.CubicSpline(x, np.zeros_like(x), bc_type=((2, 1.0), (2, -2.0)))
    line = splines.CubicSpline(x, line)  # a line through the line's values
    spline = splines.CubicSmoothingSpline(x, y, p=0.0, w=w, bc_type=((2, 1.0), (2, -2.0)))
    for nu in (0, 1, 2):
        np.testing.assert_allclose(spline(q, nu), zero(q, nu) + line(q, nu), atol=1e-10)


def exact_periodic(x, y, w, lam, at):
    """The periodic smoothing spline at the points ``at`` (in [x_0, x_{n-1}]) in 40
    digits, over its N = n − 1 knot values f and second derivatives m (cyclic: A m = R f
    is f' continuous at every knot), as `exact_values` (y_{n-1} a datum of f_0)."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    n, big = len(x), len(x) - 1
    h = [mp.mpf(x[i + 1]) - mp.mpf(x[i]) for i in range(n - 1)]
    a, r, m = mp.zeros(big, big), mp.zeros(big, big), mp.zeros(big, big)
    for j in range(big):
        before, after, left, right = h[j - 1], h[j], (j - 1) % big, (j + 1) % big
        a[j, left] += before / 6
        a[j, j] += (before + after) / 3
        a[j, right] += after / 6
        r[j, left] += 1 / before
        r[j, j] -= 1 / before + 1 / after
        r[j, right] += 1 / after
        m[j, j] += h[j] / 3
        m[right, right] += h[j] / 3
        m[j, right] += h[j] / 6
        m[right, j] += h[j] / 6
    b = mp.inverse(a) * r
    normal, rhs = mp.mpf(lam) * b.T * m * b, mp.zeros(big, 1)
    for i in range(n):  # Σ w_i (y_i − f_{i mod N})²
        normal[i % big, i % big] += mp.mpf(w[i])
        rhs[i % big] += mp.mpf(w[i]) * mp.mpf(y[i])
    f = mp.lu_solve(normal, rhs)
    second = b * f
    out = []
    for point in at:
        cell = min(max(int(np.searchsorted(x, point, side="right")) - 1, 0), big - 1)
        u = (mp.mpf(point) - x[cell]) / h[cell]
        f0, f1, m0, m1 = f[cell], f[(cell + 1) % big], second[cell], second[(cell + 1) % big]
        bend = ((1 - u) ** 3 - (1 - u)) * m0 + (u**3 - u) * m1
        out.append(float((1 - u) * f0 + u * f1 + h[cell] ** 2 / 6 * bend))
    return np.array(out)


@pytest.mark.parametrize("n", [3, 9])
@pytest.mark.parametrize("p", [0.0, 1e-6, 0.5, 1.0])
def test_periodic_matches_an_exact_solve(n, p):
    x, y, w = noisy(n, seed=n + 20)
    rho = p / (p + (1 - p) * csaps_k(x, w)) if p > 0 else 0.0
    inside = np.linspace(x[0], x[-1], 41)
    if p == 0:  # λ = ∞: the weighted mean (y_{n-1} a datum of f(x_0))
        expected = np.full_like(inside, np.sum(w * y) / np.sum(w))
    else:
        expected = exact_periodic(x, y, w, (1 - rho) / rho, inside)
    spline = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type="periodic")
    np.testing.assert_allclose(np.asarray(spline(inside)), expected, rtol=0, atol=1e-12)
    for nu in (0, 1, 2):  # one period joins the next: f, f', f'' equal at both ends
        np.testing.assert_allclose(spline(x[0], nu), spline(x[-1], nu), rtol=1e-9, atol=1e-9)
    period = x[-1] - x[0]  # extrapolation wraps
    np.testing.assert_allclose(spline(inside + 2 * period), spline(inside), atol=1e-12)


def test_periodic_matches_interpax():
    """interpax fits n = 2 with the line (not periodic) and its slopes at n = 3 are off
    (test_periodic_matches_an_exact_solve holds ours); here n = 12."""
    x, y, w = noisy(12, seed=9, columns=(2,))
    for p in (0.3, 0.9):
        ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type="periodic")
        theirs = interpax.CubicSmoothingSpline(x, y, p=p, w=w, bc_type="periodic")
        ref = lambda q, nu, theirs=theirs: np.asarray(theirs(q, nu))  # noqa: E731
        assert max_error(ours, ref, QUERIES, orders=(0, 1)) < 1e-9, p
        assert max_error(ours, ref, QUERIES, orders=(2,)) < 1e-7, p


def test_periodic_of_two_points_is_their_weighted_mean():
    spline = splines.CubicSmoothingSpline(
        [0.0, 2.0], [1.0, 4.0], p=0.7, w=[1.0, 2.0], bc_type="periodic"
    )
    np.testing.assert_allclose(np.asarray(spline(np.array([0.0, 0.7, 2.0, 3.1]))), 3.0, atol=1e-14)


def test_periodic_gradients():
    x, y, w = noisy(6, seed=10)

    def value(x, y, w, p):
        spline = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type="periodic", check=False)
        return spline(jnp.linspace(0.2, 2.8, 5))

    check_grads(jax.jit(value), (x, y, w, 0.6), order=1, modes=("rev",), eps=1e-3)


def test_matches_scipy_at_the_same_lambda():
    # scipy's λ in Σ w (y − f)² + λ ∫ f''²  is  (1 − p̂)/p̂ here: p = p̂ k / (1 − p̂ + p̂ k).
    x, y, w = noisy(40, seed=1)
    k = csaps_k(x, w)
    for lam in [1e-4, 1e-2, 1.0]:
        rho = 1 / (1 + lam)
        p = rho * k / (1 - rho + rho * k)
        ours = splines.CubicSmoothingSpline(x, y, p=p, w=w)
        ref = make_smoothing_spline(x, y, w=w, lam=lam)
        inside = np.linspace(x[0], x[-1], 101)
        assert max_error(ours, ref, inside, orders=(0,)) < 1e-10
        assert max_error(ours, ref, inside, orders=(1, 2)) < 1e-9


def test_p_one_interpolates_and_p_zero_is_the_weighted_line():
    x, y, w = noisy(20, seed=2)
    natural = ScipyCubicSpline(x, y, bc_type="natural")
    spline = splines.CubicSmoothingSpline(x, y, p=1.0, w=w)
    assert max_error(spline, lambda q, nu: natural(q, nu), QUERIES) < 1e-12
    basis = np.stack([np.ones_like(x), x], axis=1) * np.sqrt(w)[:, None]
    intercept, slope = np.linalg.lstsq(basis, y * np.sqrt(w), rcond=None)[0]
    line = splines.CubicSmoothingSpline(x, y, p=0.0, w=w)
    np.testing.assert_allclose(line(QUERIES), intercept + slope * QUERIES, atol=1e-10)
    np.testing.assert_allclose(line(QUERIES, 2), 0, atol=1e-9)


def test_columns_and_axis_are_independent_fits():
    x, y, w = noisy(12, seed=3, columns=(2, 3))
    spline = splines.CubicSmoothingSpline(x, np.moveaxis(y, 0, 1), p=0.7, w=w, axis=1)
    values = np.asarray(spline(QUERIES))
    assert values.shape == (2, QUERIES.size, 3)
    for i in range(2):
        for j in range(3):
            one = splines.CubicSmoothingSpline(x, y[:, i, j], p=0.7, w=w)
            # (the shared factorisation rounds alike; lanes may fuse differently)
            np.testing.assert_allclose(values[i, :, j], one(QUERIES), rtol=0, atol=1e-11)


@pytest.mark.parametrize("span", [1e-30, 1e-5, 1e5, 1e30])
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-12), (np.float32, 2e-6)])
def test_scale_free(span, dtype, tol):
    # csaps' normalisation makes p mean the same at every span: the spline of scaled
    # knots is the unit spline, scaled.  float32 against float64 on the rounded inputs.
    x, y, w = noisy(30, seed=4)
    xs, ys, ws = (x * span).astype(dtype), y.astype(dtype), w.astype(dtype)
    as64 = lambda a: a.astype(np.float64)  # noqa: E731
    unit = splines.CubicSmoothingSpline(as64(xs) / span, as64(ys), p=0.5, w=as64(ws))
    scaled = splines.CubicSmoothingSpline(xs, ys, p=0.5, w=ws)
    q = (np.linspace(0.1, 2.9, 29) * span).astype(dtype)
    np.testing.assert_allclose(scaled(q), unit(as64(q) / span), atol=tol * np.max(np.abs(y)))
    # weights in any unit: only Σw²/(Σw)² and the weights' unit enter csaps' p̂
    heavy = splines.CubicSmoothingSpline(xs, ys, p=0.5, w=(w * 1e20).astype(dtype))
    assert np.all(np.isfinite(heavy(q)))


@pytest.mark.parametrize(
    "span, scale", [(1e-30, 1e-30), (1e-30, 1e30), (1e30, 1e-30), (1e30, 1e30)]
)
def test_second_order_ends_are_scale_free_in_float32(span, scale):
    """float32 against float64 on the rounded inputs, within 2e-6 of the data's scale
    (the rows and the data columns of the 2×2 system each in their own power of two;
    a second derivative given in the data's units, scale/span², brought to the fit's
    in products: span² alone overflows)."""
    x, y, w = noisy(30, seed=4)
    xs, ys, ws = (x * span).astype(np.float32), (y * scale).astype(np.float32), w.astype(np.float32)
    q = (np.linspace(0.1, 2.9, 29) * span).astype(np.float32)
    as64 = lambda a: a.astype(np.float64)  # noqa: E731
    # Derivatives in the data's units, rounded to float32 (0 where float32 cannot hold them).
    with np.errstate(over="ignore"):
        second, slope = (float(np.nan_to_num(np.float32(v), posinf=0.0, neginf=0.0))
                         for v in (0.5 * scale / span**2, -0.2 * scale / span))  # fmt: skip
    for bc_type in ["not-a-knot", ((2, second), (1, slope))]:
        ours = splines.CubicSmoothingSpline(xs, ys, p=0.5, w=ws, bc_type=bc_type)
        wide = splines.CubicSmoothingSpline(as64(xs), as64(ys), p=0.5, w=as64(ws), bc_type=bc_type)
        error = np.max(np.abs(as64(np.asarray(ours(q))) - wide(as64(q)))) / np.max(np.abs(ys))
        assert error < 2.5e-6, (bc_type, error)


# ---------------------------------------------------------------- gradients --


def _value(x, y, w, p):
    spline = splines.CubicSmoothingSpline(x, y, p=p, w=w, check=False)
    return spline(jnp.linspace(0.2, 2.8, 5))


def test_check_grads_every_argument():
    """Including the given end slopes (the natural ends: make_smoothing_spline's)."""
    x, y, w = noisy(7, seed=5)

    def value(x, y, w, p, left, right):
        bc_type = ((1, left), (1, right))
        spline = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type, check=False)
        return spline(jnp.linspace(0.2, 2.8, 5))

    # eps = 1e-3: the second derivatives w.r.t. x carry ~1e-9 of rounding, which a step of
    # 1e-4 (the default) turns into 1e-3 of the finite difference, natural ends as these
    args = (x, y, w, 0.6, 0.3, -0.5)
    check_grads(jax.jit(value), args, order=2, modes=("fwd", "rev"), eps=1e-3)


def test_check_grads_with_second_order_ends():
    """Order 2 w.r.t. y, w, p and a traced second derivative; order 1 w.r.t. x."""
    x, y, w = noisy(8, seed=9)

    def value(x, y, w, p, second):
        bc_type = ((2, second), "not-a-knot")
        spline = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type, check=False)
        return spline(jnp.linspace(0.2, 2.8, 5))

    data = jax.jit(lambda y, w, p, second: value(x, y, w, p, second))
    check_grads(data, (y, w, 0.6, 0.7), order=2, modes=("fwd", "rev"))
    sites = jax.jit(lambda x: value(x, y, w, 0.6, 0.7))
    check_grads(sites, (x,), order=1, modes=("fwd", "rev"), eps=1e-6)


def test_vmap_over_data_is_the_loop():
    x, y, w = noisy(9, seed=6, columns=(4,))
    batched = jax.jit(jax.vmap(_value, in_axes=(None, 1, None, 0)))
    ps = jnp.array([0.2, 0.5, 0.8, 1.0])
    got = batched(x, y, w, ps)
    for i in range(4):
        np.testing.assert_allclose(got[i], _value(x, y[:, i], w, ps[i]), rtol=0, atol=1e-11)


# ------------------------------------------------------------------- errors --


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(p=1.5), r"`p` must be in \[0, 1\]; got 1.5"),
        (dict(p=-0.1), r"`p` must be in \[0, 1\]"),
        (dict(w=-np.ones(5)), r"`w\[0\]` = "),
        (dict(w=np.array([1, 1, np.nan, 1, 1.0])), r"`w\[2\]` = nan"),
        (dict(w=np.ones(4)), "`w` must have the shape"),
        (dict(bc_type="not-a-knot", x=[0.0, 1.0, 2.0]), "at least 4 data sites.*got 3"),
        (dict(bc_type=("natural", (2, 1.0)), x=[0.0, 1.0]), "at least 3 data sites.*got 2"),
        (dict(bc_type=(1, 0.0)), "`bc_type`"),
    ],
)
def test_bad_arguments_raise_naming_them(kwargs, match):
    x, y, _ = noisy(5)
    if "x" in kwargs:
        x = kwargs.pop("x")
        y = y[: len(x)]
    with pytest.raises(ValueError, match=match):
        splines.CubicSmoothingSpline(x, y, **kwargs)


def test_bad_knots_and_values_raise_as_cubic_splines_do():
    x, y, _ = noisy(5)
    with pytest.raises(ValueError, match="`x`"):
        splines.CubicSmoothingSpline(x[::-1], y)
    with pytest.raises(ValueError, match="`y`"):
        splines.CubicSmoothingSpline(x, np.where(x > 1, np.nan, y))


def test_bad_traced_data_give_nan_values_and_gradients():
    x, y, w = noisy(6, seed=7)
    f = jax.jit(lambda w, p: jnp.sum(_value(x, y, w, p)))
    not_a_knot = jax.jit(lambda w, p: jnp.sum(splines.CubicSmoothingSpline(
        x, y, p=p, w=w, bc_type=((2, 0.5), "not-a-knot"), check=False)(x)))  # fmt: skip
    for bad_w, bad_p in [(w, 1.5), (-w, 0.5), (w * np.r_[1, 1, np.nan, 1, 1, 1], 0.5)]:
        for fit in (f, not_a_knot):
            value, grads = jax.value_and_grad(fit, argnums=(0, 1))(bad_w, bad_p)
            assert np.isnan(value)
            assert np.all(np.isnan(grads[0])) and np.isnan(grads[1])


# ---------------------------------------------- generalised cross-validation --


def hat_matrix(x, w, lam):
    """The influence matrix (W + λ Q M⁻¹ Qᵀ)⁻¹ W of the natural smoothing spline, dense."""
    n, h = len(x), np.diff(x)
    q, m = np.zeros((n, n - 2)), np.zeros((n - 2, n - 2))
    for i in range(1, n - 1):
        q[i - 1, i - 1], q[i, i - 1], q[i + 1, i - 1] = (
            1 / h[i - 1],
            -1 / h[i - 1] - 1 / h[i],
            1 / h[i],
        )
        m[i - 1, i - 1] = (h[i - 1] + h[i]) / 3
        if i < n - 2:
            m[i - 1, i] = m[i, i - 1] = h[i] / 6
    return np.linalg.solve(np.diag(w) + lam * q @ np.linalg.solve(m, q.T), np.diag(w))


@pytest.mark.parametrize("n", [3, 5, 12])
def test_gcv_criterion_matches_the_dense_formula(n):
    x, y, w = noisy(n, seed=20 + n)
    lam = 0.3
    hat = hat_matrix(x, w, lam)
    expected = np.mean((y - hat @ y) ** 2) / (1 - np.trace(hat) / n) ** 2
    got = gcv(jnp.diff(x), jnp.asarray(y)[:, None], jnp.asarray(w), lam, 1.0)
    np.testing.assert_allclose(got, [expected], rtol=1e-11)


def test_gcv_criterion_is_differentiable():
    x, y, w = noisy(8, seed=30)

    def criterion(lam, y, w):
        return gcv(jnp.diff(x), y[:, None], w, lam, 1.0)[0]

    check_grads(jax.jit(criterion), (0.3, y, w), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize(
    "f, bounds",
    [
        (lambda x: (x - 0.3) ** 2, (0.0, 2.0)),
        (lambda x: jnp.sin(3 * x) + 0.1 * x, (0.0, 10.0)),
        (lambda x: jnp.abs(x - 1.234), (0.0, 5.0)),
        (lambda x: jnp.exp(x) - 5 * x, (-3.0, 4.0)),
        (lambda x: (x - 1e-3) ** 2 * (x + 2), (0.0, 100.0)),
    ],
)
def test_bounded_minimum_takes_scipys_steps(f, bounds):
    expected = minimize_scalar(lambda x: float(f(x)), bounds=bounds, method="bounded").x
    got = jax.jit(lambda: bounded_minimum(f, *bounds))()
    np.testing.assert_allclose(got, expected, rtol=1e-10)  # (jnp.exp and np.exp round apart)


@pytest.mark.parametrize("n, noise", [(10, 0.01), (10, 1.0), (50, 0.01), (50, 0.1), (200, 0.01)])
def test_gcv_lambda_is_scipys(n, noise, monkeypatch):
    # scipy does not return its λ: read it off its call of minimize_scalar.
    found = []

    def recording(*args, **kwargs):
        result = minimize_scalar(*args, **kwargs)
        found.append(result.x)
        return result

    monkeypatch.setattr(scipy_bsplines, "minimize_scalar", recording)
    rng = np.random.default_rng(n)
    x = np.sort(rng.uniform(0.0, 3.0, n))
    y = np.sin(3 * x) + noise * rng.normal(size=n)
    make_smoothing_spline(x, y)
    unit = float(span_units(jnp.asarray(x))[1])
    lam = jax.jit(gcv_lambda)(jnp.diff(x) / unit, jnp.asarray(y)[:, None], jnp.ones(n), unit, 1.0)
    np.testing.assert_allclose(lam, found, rtol=1e-6)


# ------------------------------------------------------ make_smoothing_spline --


@pytest.mark.parametrize("n", [5, 8, 50])
def test_make_smoothing_spline_matches_scipy(n):
    x, y, w = noisy(n, seed=40 + n)
    for lam in [1e-4, 1e-2, 1.0]:
        ours, theirs = (
            splines.make_smoothing_spline(x, y, w, lam),
            make_smoothing_spline(x, y, w, lam),
        )
        np.testing.assert_array_equal(ours.t, theirs.t)
        assert ours.k == theirs.k == 3
        np.testing.assert_allclose(ours.c, theirs.c, rtol=0, atol=1e-10)
        assert max_error(ours, theirs, QUERIES) < 1e-9


@pytest.mark.parametrize("n, noise", [(10, 0.1), (50, 0.1), (50, 1.0)])
def test_make_smoothing_spline_chooses_lambda_as_scipy(n, noise):
    rng = np.random.default_rng(n)
    x = np.sort(rng.uniform(0.0, 3.0, n))
    y = np.sin(3 * x) + noise * rng.normal(size=n)
    ours, theirs = splines.make_smoothing_spline(x, y), make_smoothing_spline(x, y)
    assert max_error(ours, theirs, QUERIES, orders=(0,)) < 1e-8


def test_make_smoothing_spline_columns_and_axis():
    x, y, w = noisy(12, seed=50, columns=(3,))
    y[:, 2] *= 10  # another λ by GCV
    both = splines.make_smoothing_spline(x, y.T, w, axis=1)
    values = np.asarray(both(QUERIES))
    assert values.shape == (3, QUERIES.size)
    for j in range(3):
        one = splines.make_smoothing_spline(x, y[:, j], w)
        # (each column's λ from its own search: its steps round alike to ~1e-12)
        np.testing.assert_allclose(values[j], one(QUERIES), rtol=0, atol=1e-10)
    fixed = splines.make_smoothing_spline(x, y, w, lam=0.01)
    np.testing.assert_allclose(
        fixed(QUERIES), make_smoothing_spline(x, y, w, 0.01)(QUERIES), atol=1e-10
    )


def test_make_smoothing_spline_gradients():
    x, y, w = noisy(6, seed=51)

    def value(x, y, w, lam):
        return splines.make_smoothing_spline(x, y, w, lam)(jnp.linspace(0.5, 2.5, 4))

    check_grads(jax.jit(value), (x, y, w, 0.05), order=2, modes=("fwd", "rev"))
    chosen = jax.jit(jax.grad(lambda y: splines.make_smoothing_spline(x, y)(1.5)))
    assert np.all(np.isfinite(chosen(y)))


def test_gcv_lambda_moves_as_the_exact_minimum():
    # The chosen λ's derivative is the exact minimiser's (the implicit function theorem),
    # against central differences of the exact minimum: a search run to 1e-13, then
    # Newton's steps on ∂G/∂λ = 0 (Brent's default stops at 1e-5, and even at 1e-13
    # within ~1e-8 of λ: differences of its answer are its steps', not the minimum's).
    x, y, w = noisy(20, seed=53)
    widths, w = jnp.diff(x) / 4.0, jnp.asarray(w)

    @jax.jit
    def tight(y):
        def criterion(lam):
            return gcv(widths, y[:, None], w, lam / 64.0, 1.0)[0]

        lam = bounded_minimum(criterion, 0.0, 20.0, xatol=1e-13)
        slope = jax.grad(criterion)
        for _ in range(3):
            lam = lam - slope(lam) / jax.grad(slope)(lam)
        return lam

    direction = np.random.default_rng(0).normal(size=y.shape)

    def central(step):
        return (tight(y + step * direction) - tight(y - step * direction)) / (2 * step)

    expected = (4 * central(1e-3) - central(2e-3)) / 3  # Richardson: O(step⁴)

    def chosen(y):
        return gcv_lambda(widths, y[:, None], w, 4.0, 1.0)[0]

    lam, moved = jax.jit(lambda y, d: jax.jvp(chosen, (y,), (d,)))(jnp.asarray(y), direction)
    assert 0 < lam < 20
    # (~1e-6: the derivative is taken at the search's λ, within 1e-5 of the minimum)
    np.testing.assert_allclose(moved, expected, rtol=1e-5)
    reverse = jax.jit(jax.grad(chosen))(jnp.asarray(y))
    np.testing.assert_allclose(jnp.dot(reverse, direction), moved, rtol=1e-10)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((np.arange(4.0), np.ones(4)), {}, "at least 5"),
        ((np.arange(6.0), np.ones(6)), dict(lam=-1.0), "`lam` must be ≥ 0"),
        ((np.arange(6.0), np.ones(6), -np.ones(6)), {}, r"`w\[0\]`"),
        ((np.arange(6.0)[::-1], np.ones(6)), {}, "`x`"),
    ],
)
def test_make_smoothing_spline_bad_arguments(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        splines.make_smoothing_spline(*args, **kwargs)


@pytest.mark.parametrize("span", [1e-30, 1e-12, 1e12, 1e30])
def test_make_smoothing_spline_float32_at_extreme_spans(span):
    """Against float64 on the float32-rounded data: 2e-6 of scale at a given λ (in the
    data's units λ scales as span³: below 1e-38 at span 1e-12, which XLA:CPU would
    flush to zero, and past float32's range at 1e±30); by GCV 1e-4, where the search
    stops within its tolerance of λ on a criterion rounded to float32 (2.7e-5 here)."""
    x, y, _ = noisy(40, seed=11)
    x, y, q = np.float32(x * span), np.float32(y), np.float32(np.linspace(0.1, 2.9, 30) * span)
    lams = [None] + ([1e-3 * span**3] if abs(np.log10(span)) < 20 else [])
    for lam in lams:
        got = splines.make_smoothing_spline(x, y, lam=lam)(q)
        reference = splines.make_smoothing_spline(np.float64(x), np.float64(y), lam=lam)
        reference = np.asarray(reference(np.float64(q)))
        assert got.dtype == np.float32
        tol = 1e-4 if lam is None else 2e-6
        np.testing.assert_allclose(
            np.asarray(got), reference, atol=tol * np.max(np.abs(y)), err_msg=lam
        )
    assert np.isnan(splines.make_smoothing_spline(x, y)(np.float32([np.nan, x[3]])))[0]


def test_parameters_as_floats_or_arrays_share_one_program():
    from splines._scipy import smoothing

    x, y, w = noisy(9, seed=12)
    splines.make_smoothing_spline(x, y, lam=0.1)
    before = smoothing._smoothing_bspline._cache_size()
    for lam in [0.2, np.float64(0.3), jnp.asarray(0.4), 1e-300]:
        splines.make_smoothing_spline(x, y, lam=lam)
    splines.CubicSmoothingSpline(x, y, p=0.3)
    fits = smoothing._fit._cache_size()
    for p in [0.4, np.float64(0.5), jnp.asarray(0.6)]:
        splines.CubicSmoothingSpline(x, y, p=p)
    assert smoothing._smoothing_bspline._cache_size() == before
    assert smoothing._fit._cache_size() == fits


def test_make_smoothing_spline_traced_bad_lambda_is_nan():
    x, y, w = noisy(6, seed=52)

    def total(lam):
        return jnp.sum(splines.make_smoothing_spline(x, y, w, lam)(jnp.linspace(0.5, 2.5, 4)))

    value, grad = jax.jit(jax.value_and_grad(total))(-1.0)
    assert np.isnan(value) and np.isnan(grad)


# ------------------------------------------------------- extremes (break-it) --


def weighted_line(x, y, w, at):
    basis = np.stack([np.ones_like(x), x], axis=1) * np.sqrt(w)[:, None]
    intercept, slope = np.linalg.lstsq(basis, y * np.sqrt(w), rcond=None)[0]
    return intercept + slope * at


def test_infinite_smoothing_is_the_weighted_line_without_overflow():
    # λ = ∞, λ = 1e154 (whose noise scales would overflow), and weights so small that
    # csaps' p = 0.5 smooths without bound: each the least-squares line.
    x, y, w = np.arange(6.0), np.array([0.0, 1.0, 0.0, 2.0, 1.0, 3.0]), np.ones(6)
    line = weighted_line(x, y, w, x)
    for lam in [np.inf, 1e154]:
        np.testing.assert_allclose(
            splines.make_smoothing_spline(x, y, lam=lam)(x), line, atol=1e-12
        )
    tiny = splines.CubicSmoothingSpline(x, y, w=np.full(6, 1e-160))
    np.testing.assert_allclose(tiny(x), line, atol=1e-12)
    gcv_tiny = splines.make_smoothing_spline(x, y, w=np.full(6, 1e-300))
    assert np.all(np.isfinite(gcv_tiny(x)))


def test_gcv_does_not_depend_on_the_scale_of_y():
    x, y, w = noisy(30, seed=60)
    unit = np.asarray(splines.make_smoothing_spline(x, y, w)(QUERIES))
    for factor in [2.0**-500, 1e-150, 1e150]:
        scaled = np.asarray(splines.make_smoothing_spline(x, y * factor, w)(QUERIES)) / factor
        np.testing.assert_allclose(scaled, unit, rtol=0, atol=1e-7 * np.max(np.abs(unit)))


def test_gcv_of_float32_data_with_x64_enabled():
    x = np.linspace(0, 1, 12, dtype=np.float32)
    y = (np.sin(3 * x) + 0.05 * np.random.default_rng(61).normal(size=12)).astype(np.float32)
    ours = splines.make_smoothing_spline(x, y)
    assert ours.c.dtype == np.float32
    reference = splines.make_smoothing_spline(x.astype(np.float64), y.astype(np.float64))
    # (GCV evaluated in float32 moves the chosen λ by ~1%: 8e-5 here)
    np.testing.assert_allclose(ours(x), reference(x), atol=2e-4)


@pytest.mark.parametrize("name", ["p", "w", "lam"])
def test_complex_parameters_are_not_real(name):
    x, y, _ = noisy(6, seed=62)
    value = 0.5 + 0j if name != "w" else np.ones(6) * (1 + 1j)
    with pytest.raises(splines.NotRealError, match=f"`{name}` must be real"):
        if name == "lam":
            splines.make_smoothing_spline(x, y, lam=value)
        else:
            splines.CubicSmoothingSpline(x, y, **{name: value})


def test_make_smoothing_spline_complex_gcv_searches_real_and_imaginary_apart():
    """make_smoothing_spline's Notes: "complex ``y`` has its real and imaginary parts
    searched apart" — so a complex fit by GCV is the real part's fit plus i times the
    imaginary part's, each with its own λ (at a given λ it is, by linearity)."""
    rng = np.random.default_rng(63)
    x = np.sort(rng.uniform(0.0, 2.0, 30))
    real, imag = rng.normal(size=30), rng.normal(size=30)
    ours = splines.make_smoothing_spline(x, real + 1j * imag)(QUERIES)
    apart = (splines.make_smoothing_spline(x, real)(QUERIES)
             + 1j * splines.make_smoothing_spline(x, imag)(QUERIES))  # fmt: skip
    np.testing.assert_allclose(ours, apart, rtol=0, atol=1e-7 * np.max(np.abs(apart)))


TINY_WEIGHTS = {  # data all but ignored: padding, masked points
    "first": [0],
    "second": [1],
    "first two": [0, 1],
    "a leading block": slice(0, 6),
    "every other": slice(0, None, 2),
    "last two": [-2, -1],
}


@pytest.mark.parametrize("tiny", [1e-12, 1e-300])
@pytest.mark.parametrize("where", TINY_WEIGHTS)
def test_tiny_weights_match_an_exact_solve(where, tiny):
    """Tiny weights anywhere, also on the first two knots, where the filter's flat prior
    starts from y_0 and y_1: a state known in one direction only must neither cancel nor
    overflow later (`_methods.smoothing_steps`).  Natural, clamped, not-a-knot and
    periodic ends against the 40-digit solves (scipy's banded solve: ~1e-16).  A filter
    carrying its covariance as the entries (p00, p01, p11) loses 1e-4 at a weight of
    1e-12 on y_0 and gives NaN at 1e-160."""
    x, y, w = noisy(20, seed=21)
    w[TINY_WEIGHTS[where]] = tiny
    lam = 1e-3
    ours = splines.make_smoothing_spline(x, y, w=w, lam=lam)
    np.testing.assert_allclose(ours(x), exact_values(x, y, w, lam), rtol=0, atol=1e-14)
    rho = 1 / (1 + lam)  # csaps' p for this λ
    p = rho * csaps_k(x, w) / (1 - rho + rho * csaps_k(x, w))
    for bc_type, ends in [("clamped", (0.0, 0.0)), ("not-a-knot", ("not-a-knot",) * 2)]:
        ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type)
        exact = exact_values(x, y, w, lam, ends)
        np.testing.assert_allclose(ours(x), exact, rtol=0, atol=1e-13, err_msg=bc_type)
    ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type="periodic")
    np.testing.assert_allclose(ours(x), exact_periodic(x, y, w, lam, x), rtol=0, atol=1e-13)


@pytest.mark.parametrize("where", ["first", "first two", "a leading block", "every other"])
def test_huge_values_at_tiny_weights_match_an_exact_solve(where):
    """Masked data: sentinels of 1e150 at weights of 1e-300 barely move the fit.  At the
    start they make the filter's state huge (f' of ~1e150 after y_0, y_1), which an update
    in f' would cancel; the filter re-anchors f' on c = f' − l f, the smoother takes the
    form with the smaller terms (`_methods.smoothing_steps`).  The end rows of
    `smoothing_ends` feed such data in themselves (W⁻¹ Aᵀ).  Columns and a batch under
    vmap agree with the single fit."""
    x, y, w = noisy(20, seed=23)
    index = TINY_WEIGHTS[where]
    y[index], w[index] = 1e150, 1e-300
    lam = 1e-2
    ours = splines.make_smoothing_spline(x, y, w=w, lam=lam)
    exact = exact_values(x, y, w, lam)
    np.testing.assert_allclose(ours(x), exact, rtol=0, atol=1e-13 * np.max(np.abs(exact)))
    rho = 1 / (1 + lam)
    p = rho * csaps_k(x, w) / (1 - rho + rho * csaps_k(x, w))
    for bc_type, ends in [
        ("not-a-knot", ("not-a-knot",) * 2),
        (((2, 1.5), (1, -0.3)), ((2, 1.5), -0.3)),
    ]:
        exact = exact_values(x, y, w, lam, ends)
        ours = splines.CubicSmoothingSpline(x, y, p=p, w=w, bc_type=bc_type)
        np.testing.assert_allclose(ours(x), exact, rtol=0, atol=1e-12 * np.max(np.abs(exact)),
                                   err_msg=str(bc_type))  # fmt: skip
    columns = np.stack([y, -2 * y, np.where(w < 1e-200, 0.0, y)], axis=1)
    together = splines.make_smoothing_spline(x, columns, w=w, lam=lam)(x)
    for j in range(3):
        alone = splines.make_smoothing_spline(x, columns[:, j], w=w, lam=lam)(x)
        np.testing.assert_allclose(together[:, j], alone, rtol=1e-14, atol=1e-300)
    fits = jax.vmap(lambda y: splines.make_smoothing_spline(x, y, w=w, lam=lam)(x), 1, 1)
    np.testing.assert_allclose(fits(jnp.asarray(columns)), together, rtol=1e-14, atol=1e-300)


def test_mixed_ends_in_float32_match_an_exact_solve():
    """A given slope at one end and not-a-knot at the other, float32, ordinary data: the
    end rows' smoother columns W⁻¹ Aᵀ vary widely where the knots are dense (a filter
    carrying covariance entries loses up to 0.36 here).  Within 1.8e-5 with the slope at
    x_0 and 6.4e-6 at x_{n-1}, more than the natural fit's 2e-6: the bounds below are
    those measured; plain not-a-knot holds 2e-6."""
    x, y, w = (np.float32(a) for a in noisy(20, seed=22))
    x64, y64, w64 = (np.float64(a) for a in (x, y, w))
    k = csaps_k(x64, w64)
    slope_first, slope_last = ((1, 0.3), "not-a-knot"), ("not-a-knot", (1, 0.3))
    for p, bc_type, ends, tol in [
        (1e-6, slope_first, (0.3, "not-a-knot"), 3e-5),
        (0.01, slope_first, (0.3, "not-a-knot"), 3e-5),
        (0.5, slope_first, (0.3, "not-a-knot"), 1e-5),
        (1e-6, slope_last, ("not-a-knot", 0.3), 1e-5),
        (1e-6, "not-a-knot", ("not-a-knot",) * 2, 2e-6),
        (0.5, "not-a-knot", ("not-a-knot",) * 2, 2e-6),
    ]:
        p32 = float(np.float32(p))
        ours = splines.CubicSmoothingSpline(x, y, p=np.float32(p), w=w, bc_type=bc_type)(x)
        exact = exact_values(x64, y64, w64, (1 - p32) * k / p32, ends)
        np.testing.assert_allclose(np.asarray(ours), exact, rtol=0, atol=tol * np.max(np.abs(y)),
                                   err_msg=f"{bc_type}, p = {p}")  # fmt: skip


def test_gradient_with_a_small_weight_on_the_first_datum():
    """d f / d w_0 at w_0 = 1e-8 against a finite difference, to 1e-7.  The derivative
    through the noise variance v = ν/w (dv = −v dw/w) loses ε/w to the quotient rule's
    cancellations in the recursion: 1e-3 at w_0 = 1e-12, all of it below ~1e-16 (a known
    limit; a custom JVP for the weights, df = S[(dw/w − dν/ν)(y − f)], would lift it)."""
    x, y, w = noisy(12, seed=3)
    q = x[:-1] + 0.05

    def f(w0):
        return splines.make_smoothing_spline(x, y, w=jnp.asarray(w).at[0].set(w0), lam=0.01)(q)[0]

    slope = (f(1e-8 + 1e-7) - f(1e-8)) / 1e-7
    np.testing.assert_allclose(jax.grad(f)(1e-8), slope, rtol=1e-6)


@pytest.mark.parametrize("where", TINY_WEIGHTS)
def test_tiny_weights_in_float32(where):
    """Weights down to 1e-37 (float32's smallest normal is 1.2e-38): the noise variance
    of such a datum over a squared width passes float32's largest number, and XLA:CPU
    flushes subnormal ratios to zero; within 2e-6 of the exact solve on the rounded
    inputs."""
    x, y, w = (np.float32(a) for a in noisy(20, seed=22))
    for tiny in (1e-20, 1e-37):
        w[TINY_WEIGHTS[where]] = tiny
        ours = splines.make_smoothing_spline(x, y, w=w, lam=1e-3)(x)
        exact = exact_values(*(np.float64(a) for a in (x, y, w)), 1e-3)
        np.testing.assert_allclose(ours, exact, rtol=0, atol=2e-6, err_msg=tiny)
