"""`splines.PPoly` against `scipy.interpolate.PPoly` (f64): every method, both directions.

Errors are relative to the reference's largest magnitude (per derivative
order), so polynomials of any scale are held to the same ~1e-12.
"""

import jax
import numpy as np
import pytest
import scipy.interpolate as si

import splines

RTOL = 1e-12


def close(ours, ref, rtol=RTOL, floor=1e-300, what=""):
    """Max error ≤ rtol × the reference's largest magnitude (at least ``floor``)."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (what, ours.shape, ref.shape)
    assert (np.isnan(ours) == np.isnan(ref)).all(), what
    finite = ~np.isnan(ref)
    scale = max(np.max(np.abs(ref[finite]), initial=0.0), floor)
    error = np.max(np.abs(ours[finite] - ref[finite]), initial=0.0) / scale
    assert error <= rtol, (what, error)


def random_ppoly(degree=3, m=5, columns=(), descending=False, complex_=False, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.normal(size=(degree + 1, m) + columns)
    if complex_:
        c = c + 1j * rng.normal(size=c.shape)
    x = np.sort(rng.uniform(-2.0, 3.0, m + 1))
    x = x[::-1].copy() if descending else x
    return c, x


def queries(x, extra=1.0):
    """Points inside, on every breakpoint and outside."""
    lo, hi = min(x[0], x[-1]), max(x[0], x[-1])
    return np.concatenate([np.linspace(lo - extra, hi + extra, 61), x])


CASES = {
    "cubic": {},
    "quintic, columns": dict(degree=5, columns=(2, 3)),
    "constant": dict(degree=0),
    "linear, one piece": dict(degree=1, m=1),
    "descending": dict(descending=True),
    "descending quartic, columns": dict(degree=4, descending=True, columns=(3,)),
    "complex": dict(complex_=True),
}


@pytest.fixture(params=list(CASES), ids=list(CASES))
def pair(request):
    c, x = random_ppoly(**CASES[request.param])
    return splines.PPoly(c, x), si.PPoly(c, x)


EXTRAPOLATE = [None, True, False, "periodic"]


def test_values_and_derivatives(pair):
    """Orders 0, 1, 2 and 4 (one search) with every `extrapolate`: all in one compiled
    program (the PPoly is a pytree argument of jit; compiling dominates)."""
    ours, ref = pair
    x = queries(ref.x, extra=4.0)
    orders = (0, 1, 2, 4)
    every = jax.jit(lambda p, x: [p(x, orders, extrapolate=e) for e in EXTRAPOLATE])(ours, x)
    # scipy's periodic wrap, x[0] + (x − x[0]) % period, rounds points on a break into
    # the piece before it; ours keeps points inside the period where they are, so a
    # break takes the piece starting there, as without a period (pieces of random
    # coefficients jump at their breaks): compared apart, with the non-periodic call.
    between = np.arange(len(x)) < len(x) - len(ref.x)
    for extrapolate, stacked in zip(EXTRAPOLATE, every):
        for nu, mine in zip(orders, stacked):
            on = between if extrapolate == "periodic" else slice(None)
            close(mine[on], ref(x, nu, extrapolate=extrapolate)[on],
                  what=f"extrapolate={extrapolate!r}, nu={nu}")  # fmt: skip
    inside = np.asarray(every[0])[:, ~between]  # on the breaks, without a period
    np.testing.assert_array_equal(np.asarray(every[3])[:, ~between][:, :-1], inside[:, :-1])


def test_attributes_are_scipys(pair):
    ours, ref = pair
    close(ours.c, ref.c)
    np.testing.assert_array_equal(ours.x, ref.x)
    assert ours.axis == ref.axis and ours.extrapolate == ref.extrapolate
    assert isinstance(ours, splines.AbstractPPoly)


def test_derivative_and_antiderivative_pieces(pair):
    """The methods' pieces and values, computed in one compiled program (the PPoly is a
    pytree argument of jit, and so are the PPolys the methods return)."""
    ours, ref = pair
    x = queries(ref.x)
    past_degree = ref.c.shape[0] + 1

    @jax.jit
    def methods(p, x):
        derivatives = [p.derivative(nu) for nu in (1, past_degree)]
        anti = p.antiderivative(2)
        return ([(d, d.c, d(x)) for d in derivatives], (anti.c, anti(x)),
                anti.derivative(2)(x), p(x), p.derivative(-1)(x))  # fmt: skip

    derivatives, (anti_c, anti_x), undone, values, minus_one = methods(ours, x)
    for nu, (mine, mine_c, mine_x) in zip((1, past_degree), derivatives):
        theirs = ref.derivative(nu)
        assert isinstance(mine, splines.PPoly), nu
        close(mine_c, theirs.c, what=f"derivative({nu}).c")
        close(mine_x, theirs(x), what=f"derivative({nu})(x)")
    theirs = ref.antiderivative(2)
    close(anti_c, theirs.c, 1e-11, what="antiderivative(2).c")
    close(anti_x, theirs(x), 1e-11, what="antiderivative(2)(x)")
    close(undone, values, what="derivative undoes antiderivative")
    close(minus_one, ref.antiderivative()(x), 1e-11, what="derivative(-1)")


BOUNDS = [(-0.5, 2.5), (2.5, -0.5), (-4.0, 7.0), (0.1, 0.1), (-9.0, -3.0)]


def test_integrate(pair):
    """Every bound pair, extending the end pieces or not: one compiled program."""
    ours, ref = pair
    modes = (True, False)
    integrals = jax.jit(lambda p: [[p.integrate(a, b, e) for a, b in BOUNDS] for e in modes])(ours)
    for extrapolate, row in zip(modes, integrals):
        for (a, b), mine in zip(BOUNDS, row):
            close(mine, ref.integrate(a, b, extrapolate), 1e-11,
                  what=f"integrate({a}, {b}, extrapolate={extrapolate})")  # fmt: skip


def per_polynomial(roots, ndim):
    """A list of 1-D root arrays: scipy's object array (several polynomials) or one array."""
    return list(np.asarray(roots, dtype=object).reshape(-1)) if ndim > 2 else [roots]


def test_roots_and_solve(pair):
    """Eagerly scipy's arrays (one per polynomial); under jit, ``size`` NaN-padded slots."""
    ours, ref = pair
    if np.iscomplexobj(ref.c):
        with pytest.raises(ValueError, match="real"):
            ours.roots()
        return
    columns = ref.c.reshape(ref.c.shape[:2] + (-1,)).transpose(2, 0, 1)
    for options in ((0.0, True, None), (0.3, False, False)):
        mine = per_polynomial(ours.solve(*options), ref.c.ndim)
        for got, column in zip(mine, columns):  # scipy, one polynomial at a time
            expected = si.PPoly(column, ref.x).solve(*options)
            np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-10, atol=1e-10)
    size = 3 * ref.c.shape[0] * ref.c.shape[1]
    padded = np.asarray(jax.jit(lambda p: p.roots(size=size))(ours))
    assert padded.shape == ref.c.shape[2:] + (size,)
    for slots, eager in zip(padded.reshape(-1, size), per_polynomial(ours.roots(), ref.c.ndim)):
        np.testing.assert_array_equal(slots[: len(eager)], eager)
        assert np.isnan(slots[len(eager) :]).all()


@pytest.mark.parametrize("a, b", BOUNDS + [(-20.0, 31.0), (31.0, -20.0), (0.3, 0.3 + 5.0)])
def test_integrate_periodic(a, b):
    c, x = random_ppoly(columns=(2,))
    ours, ref = splines.PPoly(c, x, "periodic"), si.PPoly(c, x, "periodic")
    close(ours.integrate(a, b), ref.integrate(a, b), 1e-11)


def test_integrate_periodic_descending():
    """scipy raises here ("Integral bounds not in order"); we sum the periods' pieces."""
    c, x = random_ppoly(descending=True, seed=3)
    ref = si.PPoly(c, x)
    low, high = x[-1], x[0]
    period, a, b = high - low, -3.0, 7.0
    expected = 0.0
    for k in range(-5, 6):  # [a, b] ∩ (one period shifted by k), integrated in place
        start, end = max(a, low + k * period), min(b, high + k * period)
        if start < end:
            expected += ref.integrate(start - k * period, end - k * period)
    close(splines.PPoly(c, x, "periodic").integrate(a, b), expected, 1e-11)
    with pytest.raises(ValueError):
        si.PPoly(c, x, "periodic").integrate(a, b)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_axis(axis):
    rng = np.random.default_rng(4)
    shape = [3, 2, 5]
    shape[axis:axis] = [4, 6]  # power and interval axes at `axis`, `axis + 1`
    c, x = rng.normal(size=shape), np.sort(rng.uniform(0.0, 2.0, 7))
    ours, ref = splines.PPoly(c, x, axis=axis), si.PPoly(c, x, axis=axis)
    q = rng.uniform(-0.5, 2.5, (4, 2))
    close(ours(q), ref(q))
    close(ours.c, ref.c)
    close(ours.integrate(0.1, 1.7), ref.integrate(0.1, 1.7))
    close(ours.derivative()(q), ref.derivative()(q))


@pytest.mark.parametrize("descending", [False, True])
def test_extend_both_sides(descending):
    c, x = random_ppoly(descending=descending)
    ours, ref = splines.PPoly(c, x), si.PPoly(c, x)
    rng = np.random.default_rng(5)
    step = -1.0 if descending else 1.0
    after = x[-1] + step * np.array([0.5, 1.5])
    before = x[0] - step * np.array([2.0, 1.0])
    for new_x in (after, before):
        new_c = rng.normal(size=(4, 2))
        assert ours.extend(new_c, new_x) is None
        ref.extend(new_c, new_x)
    np.testing.assert_array_equal(ours.x, ref.x)
    close(ours.c, ref.c)
    close(ours(queries(ref.x)), ref(queries(ref.x)))


def test_extend_with_another_degree():
    c, x = random_ppoly()
    ours, ref = splines.PPoly(c, x), si.PPoly(c, x)
    new_c = np.random.default_rng(6).normal(size=(6, 1))
    ours.extend(new_c, [x[-1] + 1.0])
    ref.extend(new_c, [x[-1] + 1.0])  # appending works in scipy; prepending another
    close(ours.c, ref.c)  # degree fails there (a broadcasting bug), ours handles both
    close(ours(queries(ref.x)), ref(queries(ref.x)))
    ours.extend(np.array([[0.0], [1.0]]), [x[0] - 1.0])  # the constant 1
    assert ours.c.shape == (6, 7) and float(ours(x[0] - 0.5)) == 1.0


def test_construct_fast_is_ppoly():
    c, x = random_ppoly()
    ours = splines.PPoly.construct_fast(c, x, False)
    close(ours(queries(x)), si.PPoly.construct_fast(c, x, False)(queries(x)))


def test_repeated_breakpoints_are_dropped():
    """scipy allows empty intervals (`from_spline` makes them); we drop them."""
    x = np.array([0.0, 0.0, 1.0, 2.0, 2.0, 3.0])
    c = np.random.default_rng(7).normal(size=(4, 5))
    ours, ref = splines.PPoly(c, x), si.PPoly(c, x)
    q = np.linspace(0.0, 3.0, 31)
    close(ours(q), ref(q))
    assert ours.x.shape == (4,)


def test_from_spline_matches_scipy():
    xs = np.linspace(0.0, 3.0, 12)
    tck = si.splrep(xs, np.sin(2 * xs))
    ours, ref = splines.PPoly.from_spline(tck), si.PPoly.from_spline(tck)
    q = np.linspace(-0.5, 3.5, 50)
    close(ours(q), ref(q))
    bspline = si.BSpline(*tck, extrapolate=False)
    close(splines.PPoly.from_spline(bspline)(q), si.PPoly.from_spline(bspline)(q))


BAD = {
    "c one-dimensional": (np.ones(3), np.arange(4.0), {}, "at least 2 dimensions"),
    "x two-dimensional": (np.ones((2, 3)), np.ones((2, 2)), {}, "one-dimensional"),
    "one breakpoint": (np.ones((2, 0)), np.ones(1), {}, "at least 2 breakpoints"),
    "no coefficients": (np.ones((0, 3)), np.arange(4.0), {}, "at least one coefficient"),
    "interval count": (np.ones((2, 3)), np.arange(3.0), {}, r"len\(x\) - 1 = 2"),
    "not monotone": (np.ones((2, 3)), np.array([0.0, 2.0, 1.0, 3.0]), {}, "increasing or"),
    "NaN breakpoint": (np.ones((2, 3)), np.array([0.0, np.nan, 1.0, 3.0]), {}, "finite"),
    "axis": (np.ones((2, 3)), np.arange(4.0), dict(axis=1), "`axis`=1"),
    "extrapolate": (np.ones((2, 3)), np.arange(4.0), dict(extrapolate="wrap"), "'periodic'"),
}


@pytest.mark.parametrize("c, x, kwargs, match", BAD.values(), ids=list(BAD))
def test_bad_input_raises_where_scipy_does(c, x, kwargs, match):
    with pytest.raises(ValueError, match=match):
        splines.PPoly(c, x, **kwargs)
    if "extrapolate" not in kwargs:  # scipy takes any string as True
        with pytest.raises(ValueError):
            si.PPoly(c, x, **kwargs)


def test_bad_calls_raise():
    c, x = random_ppoly()
    p = splines.PPoly(c, x)
    with pytest.raises(ValueError, match="`nu`"):
        p(0.5, -1)
    with pytest.raises(ValueError, match="`a` must be a scalar"):
        p.integrate(np.zeros(2), 1.0)
    with pytest.raises(ValueError, match="wholly after or before"):
        p.extend(np.ones((4, 1)), [0.0])
    with pytest.raises(ValueError, match="shape"):
        p.extend(np.ones((4, 2)), [9.0])
