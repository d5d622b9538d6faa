"""B-splines (t, c, k) as our pieces (`splines._scipy.bspline`), against scipy's
``BSpline`` and ``PPoly.from_spline`` in f64: values and every derivative, inside,
on the knots and outside (extended), to 1e-12 of each order's max |f^(ν)|."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from scipy.interpolate import BSpline, PPoly, splev, splrep

from splines._interpolate.evaluate import EvalSpec, evaluate
from splines._scipy.bspline import bspline_pieces

TOL = 1e-12


def ours(t, c, k, x, orders, extend=True):
    """Our pieces evaluated at x: orders stacked on a leading axis."""
    return evaluate_pieces(bspline_pieces(t, c, k), x, orders, extend)


def evaluate_pieces(pieces, x, orders, extend=True):
    breaks, coefficients, column_shape = pieces
    fill = (jnp.full((), jnp.nan, coefficients.dtype),) * 2
    spec = EvalSpec(tuple((o,) for o in orders), True, ((extend,) * 2,), (False,), 0, column_shape)
    return evaluate((jnp.asarray(x, breaks.dtype),), (breaks,), coefficients, (fill,), spec)


def compiled(function, *args):
    """``function(*args)`` as one program, in numpy (compiles dominate this file's runtime:
    each test builds one program for all its cases)."""
    return jax.tree.map(np.asarray, jax.jit(function)(*args))


def queries(t):
    """Inside, on every knot, between knots, and outside on both sides."""
    span = t[-1] - t[0]
    grid = np.linspace(t[0] - span / 4, t[-1] + span / 4, 241)
    return np.concatenate([grid, t, (t[:-1] + t[1:]) / 2])


def relative_error(got, want):
    """Max |got - want| over max |want| (absolute where want is 0 everywhere)."""
    scale = np.max(np.abs(want))
    return np.max(np.abs(got - want)) / (scale if scale > 0 else 1)


def clamped(k, interior):
    return np.concatenate([[0.0] * (k + 1), np.sort(interior), [1.0] * (k + 1)])


def mixed(k, rng):
    """Non-clamped, non-uniform, a double knot at the start (k ≥ 1), a double and
    a triple interior knot; k+2 distinct knots at each end keep the end intervals
    of the base non-empty (see `test_degenerate_end_intervals` for those)."""
    ends = np.r_[rng.uniform(0, 0.2, k + 2), rng.uniform(0.8, 1, k + 2)]
    t = np.sort(np.r_[ends, rng.uniform(0.2, 0.8, 3), [0.3] * 2, [0.7] * 3])
    return np.r_[t[0], t] if k >= 1 else t


def knot_vectors(k, rng):
    """(name, t, c) cases for degree k; splrep's c has k+1 trailing zeros (unused)."""
    cases = []
    if k >= 1:
        x = np.linspace(0, 3, 19)
        t, c, _ = splrep(x, np.sin(2 * x) + x**2 / 5, k=k)
        cases.append(("splrep", t, c))
    double_triple = np.concatenate([rng.uniform(0.05, 0.95, 5), [0.3] * 2, [0.7] * 3])
    knots = [
        ("clamped, double and triple interior knots", clamped(k, double_triple)),
        ("non-clamped arange", np.arange(12.0)),
        ("non-clamped, non-uniform, multiple knots", mixed(k, rng)),
    ]
    return cases + [(name, t, rng.normal(size=len(t) - k - 1)) for name, t in knots]


def evaluate_cases(cases, orders, extend=True):
    """Each case (t, c, k, x) evaluated by our pieces, all in one program."""

    def run(cs, xs):
        return [ours(t, c, k, x, orders(k), extend) for (t, _, k, _), c, x in zip(cases, cs, xs)]

    return compiled(run, [case[1] for case in cases], [case[3] for case in cases])


def all_orders(k):
    return range(k + 2)


def from_spline_pieces(t, c, k):
    """scipy's ``PPoly.from_spline`` without zero-width pieces, in local powers:
    ``c_p h^p`` for the x-power coefficient c_p of piece width h."""
    pp = PPoly.from_spline((t, c, k))
    width = np.diff(pp.x)
    keep = width > 0
    powers = [pp.c[k - p, keep] * width[keep] ** p for p in range(k + 1)]
    return pp.x[np.r_[keep, True]], np.stack(powers, axis=-1)


@pytest.mark.parametrize("k", range(6))
def test_matches_scipy(k):
    """Every case's pieces are ``PPoly.from_spline``'s (less its zero-width ones);
    the last (non-clamped, multiple knots) is also evaluated: values and
    derivatives inside, on every knot (right limits) and extended outside."""
    cases = knot_vectors(k, np.random.default_rng(k))
    _, t, c = cases[-1]
    x = queries(t)

    def run(cs, x):
        pieces = [bspline_pieces(t, c, k) for (_, t, _), c in zip(cases, cs)]
        return [p[:2] for p in pieces], evaluate_pieces(pieces[-1], x, all_orders(k))

    pieces, got = compiled(run, [c for *_, c in cases], x)
    for (name, t_case, c_case), (breaks, coefficients) in zip(cases, pieces):
        want_breaks, want = from_spline_pieces(t_case, c_case, k)
        np.testing.assert_array_equal(breaks, want_breaks)
        for p in range(k + 1):
            assert relative_error(coefficients[:, 0, p], want[:, p]) <= TOL, (name, p)
    for nu in all_orders(k):
        assert relative_error(got[nu], PPoly.from_spline((t, c, k))(x, nu)) <= TOL, nu
        assert relative_error(got[nu], BSpline(t, c, k)(x, nu)) <= TOL, nu


def test_nan_outside_without_extension():
    k = 3
    t, c, _ = splrep(np.linspace(0, 1, 12), np.cos(np.linspace(0, 4, 12)), k=k)
    x = np.r_[-0.5, -1e-12, np.linspace(0, 1, 31), 1 + 1e-12, 2.0]
    ((got,),) = evaluate_cases([(t, c, k, x)], lambda k: [0], extend=False)
    want = PPoly.from_spline((t, c, k), extrapolate=False)(x)
    np.testing.assert_allclose(got, want, rtol=0, atol=TOL * np.nanmax(np.abs(want)))
    assert np.array_equal(np.isnan(got), (x < 0) | (x > 1))


def test_degenerate_end_intervals():
    """An empty end interval of the base (t[k] == t[k+1], t[n-1] == t[n]):
    scipy's B-splines on it are 0, so ``splev`` and ``BSpline`` give 0 beyond
    it, with every derivative (``PPoly.from_spline`` keeps a stale top
    coefficient there); we follow them.  Degree 0 with t[0] == t[1] has no
    piece left of t[0]: ``BSpline`` gives c[0] there, ``PPoly.from_spline`` and
    we extend the first piece, c[1]."""
    t = np.array([0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 8, 9.0])  # k=3: t[3] == t[4]; k=1: t[9] == t[10]
    rng = np.random.default_rng(7)
    cases = [(t, rng.normal(size=len(t) - k - 1), k, queries(t)) for k in (1, 3)]
    t0, c0, x0 = np.r_[0, 0, 1, 2, 3.0], np.r_[10, 20, 30, 40.0], np.r_[-1, 0, 0.5, 3, 4]
    *got, degree_0 = evaluate_cases(cases + [(t0, c0, 0, x0)], all_orders)
    for (t, c, k, x), values in zip(cases, got):
        assert relative_error(values[0], splev(x, (t, c, k))) <= TOL
        for nu in all_orders(k):
            assert relative_error(values[nu], BSpline(t, c, k)(x, nu)) <= TOL, (k, nu)
    np.testing.assert_array_equal(degree_0[0], PPoly.from_spline((t0, c0, 0))(x0))
    np.testing.assert_array_equal(degree_0[0], [20, 20, 20, 40, 40])


def test_breaks_are_the_distinct_knots():
    t = clamped(3, [0.2, 0.5, 0.5, 0.8])
    breaks, coefficients = compiled(lambda c: bspline_pieces(t, c, 3)[:2], np.ones(8))
    np.testing.assert_array_equal(breaks, [0, 0.2, 0.5, 0.8, 1])
    assert coefficients.shape == (4, 1, 4)
    np.testing.assert_allclose(coefficients, np.tile([1.0, 0, 0, 0], (4, 1, 1)), atol=1e-15)


def test_columns():
    k = 3
    t, _, _ = splrep(np.linspace(0, 2, 15), np.linspace(0, 2, 15) ** 3, k=k)
    c = np.random.default_rng(3).normal(size=(len(t) - k - 1, 3, 2))
    x = queries(t)
    (got,) = evaluate_cases([(t, c, k, x)], lambda k: range(k + 1))
    assert got.shape == (k + 1, len(x), 3, 2)
    for nu in range(k + 1):
        assert relative_error(got[nu], BSpline(t, c, k)(x, nu)) <= TOL
        for i, j in np.ndindex(3, 2):
            want = PPoly.from_spline((t, c[:, i, j], k))(x, nu)
            assert relative_error(got[nu, :, i, j], want) <= TOL


def test_complex():
    k = 3
    t = np.r_[0, 0, 0, 0, 0.1, 0.4, 0.4, 0.6, 1, 1, 1, 1]
    rng = np.random.default_rng(5)
    c = rng.normal(size=len(t) - k - 1) + 1j * rng.normal(size=len(t) - k - 1)
    x = queries(t)
    (got,) = evaluate_cases([(t, c, k, x)], lambda k: range(k + 1))
    assert np.iscomplexobj(got)
    for nu in range(k + 1):
        assert relative_error(got[nu], BSpline(t, c, k)(x, nu)) <= TOL
        # from_spline drops imaginary parts (ComplexWarning): one part at a time
        for part, take in [(c.real, np.real), (c.imag, np.imag)]:
            want = PPoly.from_spline((t, part, k))(x, nu)
            assert relative_error(take(got[nu]), want) <= TOL


@pytest.mark.parametrize(
    "dtype, coefficient_dtype, break_dtype",
    [
        (np.float32, np.float32, np.float32),
        (np.int64, np.float64, np.float64),
        (np.complex64, np.complex64, np.float32),
    ],
)
def test_dtypes(dtype, coefficient_dtype, break_dtype):
    """Coefficients in c's dtype promoted with float, breaks in its real part;
    trailing axes of c are columns."""
    column_shapes = []

    def pieces(c):
        breaks, coefficients, column_shape = bspline_pieces(np.arange(10.0), c, 3)
        column_shapes.append(column_shape)
        return breaks, coefficients

    c = jax.ShapeDtypeStruct((6, 3, 2), dtype)
    breaks, coefficients = jax.eval_shape(pieces, c)
    assert coefficients.dtype == coefficient_dtype and breaks.dtype == break_dtype
    assert coefficients.shape == (9, 6, 4) and column_shapes == [(3, 2)]


def test_grad_jit_vmap_over_c():
    k = 2
    t = clamped(k, [0.2, 0.5, 0.5, 0.8])
    c = np.random.default_rng(11).normal(size=(len(t) - k - 1, 2))
    pieces = jax.jit(lambda c: bspline_pieces(t, c, k)[1])
    check_grads(pieces, (c,), order=2, modes=("fwd", "rev"))
    batch = np.stack([c, 2 * c, -c])
    want = np.stack([pieces(b) for b in batch])
    np.testing.assert_allclose(jax.vmap(pieces)(batch), want, rtol=1e-15, atol=1e-15)


def test_extreme_spans():
    """Coefficients are f^(p) h^p / p!: the same numbers at spans 1e-200 and 1e200."""
    k = 5
    t = clamped(k, [0.1, 0.3, 0.3, 0.55, 0.7, 0.7, 0.7, 0.9])
    c = np.random.default_rng(13).normal(size=len(t) - k - 1)
    x = queries(t)
    scales = (1.0, 1e-200, 1e200)

    def run(c):
        return [(bspline_pieces(t * s, c, k)[1], ours(t * s, c, k, x * s, [0, 1])) for s in scales]

    (unit, _), *scaled = compiled(run, c)
    for s, (coefficients, got) in zip(scales[1:], scaled):
        assert np.all(np.isfinite(coefficients))
        assert relative_error(coefficients, unit) <= TOL
        assert relative_error(got[0], BSpline(t * s, c, k)(x * s)) <= TOL
        assert relative_error(got[1] * s, BSpline(t, c, k)(x, 1)) <= TOL


def test_errors():
    t, c = np.arange(10.0), np.ones(6)
    with pytest.raises(TypeError, match="`t`.*concrete"):
        jax.jit(lambda t: bspline_pieces(t, c, 3))(t)
    with pytest.raises(TypeError, match="`t`.*concrete"):
        jax.vmap(lambda t: bspline_pieces(t, c, 3))(np.stack([t, t]))
    for k, error in [(-1, ValueError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(error, match="`k`"):
            bspline_pieces(t, c, k)
    with pytest.raises(ValueError, match=r"`c`.*n = len\(t\) - k - 1 = 6.*len\(c\) = 5"):
        bspline_pieces(t, np.ones(5), 3)
    with pytest.raises(ValueError, match=r"non-decreasing; t\[5\] = 3.0 < t\[4\] = 4.0"):
        bspline_pieces(np.r_[0, 1, 2, 3, 4, 3, 6, 7, 8, 9.0], c, 3)
    with pytest.raises(ValueError, match=r"finite; t\[2\] = nan"):
        bspline_pieces(np.r_[0, 1, np.nan, 3, 4, 5, 6, 7, 8, 9], c, 3)
    with pytest.raises(ValueError, match="1-D"):
        bspline_pieces(t[None], c, 3)
    with pytest.raises(ValueError, match="2k\\+2 = 8 knots"):
        bspline_pieces(np.arange(7.0), c, 3)
    with pytest.raises(ValueError, match="empty"):
        bspline_pieces(np.r_[0, 1, 1, 1, 2.0], np.ones(3), 1)
    with pytest.raises(TypeError, match="`t` must be real"):
        bspline_pieces(t + 0j, c, 3)
