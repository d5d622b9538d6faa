"""`splines.PPoly` against `scipy.interpolate.PPoly` (f64): every method, both directions.

Errors are relative to the reference's largest magnitude (per derivative
order), so polynomials of any scale are held to the same ~1e-12.

Also pinned, against scipy wherever it has an answer: integer and bfloat16
breakpoints; coefficients near the ends of the float32 and float64 ranges;
degrees 0 to 7 with axes before and after; discontinuous pieces on their
breakpoints; descending breakpoints, which keep scipy's expansion points;
`extend` on either side and in either direction, with traced breakpoints, and its
misuse; `from_spline`; roots at the outer breakpoints, of tiny values and of
empty data; bad input raising where scipy's does, also as numpy constants
inside `jit`.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compare import close, same_roots
from _unit_splines import F32, Q, X, Y

import splines
from splines import CubicHermiteSpline, CubicSpline, PPoly


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


# ------------------------------------------------------------ breakpoints, degrees, scale


@pytest.mark.parametrize("make", ["int list", "int array", "bfloat16", "extend int"])
def test_integer_breakpoints_work_as_in_scipy(make):
    """Integer and bfloat16 breakpoints are converted before they are checked, as
    scipy does: ``PPoly([[1, 2], [0, 1]], [0, 1, 2])`` works, so does `extend`."""
    c = np.array([[1.0, 2.0], [0.0, 1.0]])
    if make == "int list":
        p = PPoly([[1, 2], [0, 1]], [0, 1, 2])
    elif make == "int array":
        p = PPoly(c, np.array([0, 1, 2]))
    elif make == "bfloat16":
        p = PPoly(c.astype(F32), np.array([0, 1, 2], jnp.bfloat16))
    else:
        p = PPoly(c, np.array([0.0, 1.0, 2.0]))
        p.extend(np.ones((2, 1)), np.array([3]))
    close(p(np.array([0.5, 1.5])), si.PPoly(c, [0, 1, 2])(np.array([0.5, 1.5])), 1e-6)


@pytest.mark.parametrize("degree, m, descending", [(0, 3, False), (7, 1, True)])
def test_ppoly_degrees_and_trailing_axes(degree, m, descending):
    rng = np.random.default_rng(degree + m)
    x = np.linspace(0.0, 3.0, m + 1) if m > 1 else np.array([0.0, 1.0])
    x = x[::-1].copy() if descending else x
    c = rng.normal(size=(2, degree + 1, m, 3))  # axis=1: two axes before, one after
    ours, ref = PPoly(c, x, axis=1), si.PPoly(c, x, axis=1)
    q = np.array([-1.0, 0.0, 0.3, 1.0, 2.0, 3.0, 4.0])
    orders = (0, 1, degree, degree + 1)
    modes = (True, False, "periodic")

    @jax.jit  # every method in one compiled program (the PPoly is a pytree argument)
    def methods(p, q):
        return ([p(q, orders, e) for e in modes], p.c, p.derivative(degree + 2).c,
                p.antiderivative(2)(q), p.integrate(-0.5, 3.7))  # fmt: skip

    values, c_, derivative_c, anti, integral = methods(ours, q)
    for extrapolate, stacked in zip(modes, values):
        for nu, got in zip(orders, stacked):
            close(got, ref(q, nu, extrapolate), 1e-10)
    close(c_, ref.c, 1e-10)
    close(derivative_c, ref.derivative(degree + 2).c)
    close(anti, ref.antiderivative(2)(q), 1e-10)
    close(integral, ref.integrate(-0.5, 3.7), 1e-10)


@pytest.mark.parametrize("nu", [-2])
def test_negative_and_large_orders(nu):
    c = np.random.default_rng(2).normal(size=(4, 3))
    x = np.array([0.0, 0.5, 1.5, 2.0])
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    close(ours.derivative(nu)(Q), ref.derivative(nu)(Q))
    close(ours.antiderivative(nu)(Q), ref.antiderivative(nu)(Q))
    if nu >= 0:
        close(ours(Q, nu), ref(Q, nu))
    else:
        with pytest.raises(ValueError, match="`nu`"):
            ours(Q, nu)


@pytest.mark.parametrize("dtype, scale", [(np.float64, 1e-300), (np.float64, 1e300),
                                          (F32, 1e-30), (F32, 1e30)])  # fmt: skip
def test_huge_and_tiny_ppoly_coefficients(dtype, scale):
    c = np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]])
    x = np.array([0.0, 1.0, 2.0])
    ours, ref = PPoly((c * scale).astype(dtype), x.astype(dtype)), si.PPoly(c, x)
    rtol = 1e-12 if dtype == np.float64 else 2e-6
    q = np.linspace(-1, 3, 9).astype(dtype)
    close(np.asarray(ours(q), float) / scale, ref(q.astype(float)), rtol)
    close(float(ours.integrate(0, 2)) / scale, ref.integrate(0, 2), rtol)
    close(np.asarray(ours.derivative().c, float) / scale, ref.derivative().c, rtol)


@pytest.mark.parametrize("descending", [False, True])
def test_discontinuous_ppoly_on_breakpoints_seam_and_bounds(descending):
    c = np.random.default_rng(3).normal(size=(3, 3))
    x = np.array([0.0, 1.0, 2.5, 3.0])
    x = x[::-1].copy() if descending else x
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    q = np.array([-1.0, 0.0, 1.0, 2.5, 3.0, 4.0, 6.0, -3.0, 0.5, 2.75])
    modes = (True, False, "periodic")
    bounds = [(0.5, 2.7), (2.7, 0.5), (5.0, -1.0), (1.0, 1.0)]

    @jax.jit  # values, integrals and antiderivatives in one compiled program
    def methods(p, q):
        return ([p(q, (0, 1, 2), e) for e in modes],
                [[p.integrate(a, b, e) for e in (True, False)] for a, b in bounds],
                p.antiderivative()(x[0]), p.antiderivative(3).c)  # fmt: skip

    values, integrals, anchor, anti_c = methods(ours, q)
    for extrapolate, stacked in zip(modes, values):
        for nu, got in enumerate(stacked):
            close(got, ref(q, nu, extrapolate))
        # Roots eagerly: scipy's arrays (a root count is data).
        same_roots(ours.roots(extrapolate=extrapolate), ref.roots(extrapolate=extrapolate))
        same_roots(ours.solve(0.3, False, extrapolate), ref.solve(0.3, False, extrapolate))
    for (a, b), row in zip(bounds, integrals):
        for extrapolate, got in zip((True, False), row):
            close(got, ref.integrate(a, b, extrapolate))
    assert abs(float(anchor)) <= 1e-15  # scipy's anchor: its first breakpoint
    close(anti_c, ref.antiderivative(3).c)
    close(ours.x, ref.x)
    periodic = PPoly(c, x, extrapolate="periodic")
    assert periodic.antiderivative().extrapolate is False
    assert periodic.derivative().extrapolate == "periodic"


def test_descending_breakpoints_keep_scipys_accuracy_near_x_i():
    """Descending pieces keep scipy's expansion point x_i (no re-expansion about the
    other end, which cancels): (x − 100)³ + 1e-6 at 100 is 1e-6 to 1e-12 of it, and
    ``.c`` gives ``c`` back."""
    c = np.array([[1.0], [0.0], [0.0], [1e-6]])  # (x - 100)³ + 1e-6 on [0, 100]
    ours, ref = PPoly(c, [100.0, 0.0]), si.PPoly(c, [100.0, 0.0])
    q = np.array([100.0, 99.9, 99.0])
    np.testing.assert_allclose(np.asarray(ours(q)), ref(q), rtol=1e-12, atol=1e-12 * 1e-6)
    close(ours.c, c)
    close(ours.integrate(100.0, 99.9), ref.integrate(100.0, 99.9))
    assert float(ours.antiderivative()(100.0)) == 0.0  # scipy's anchor: x[0]


def test_descending_periodic_integral_equals_the_ascending_one():
    """scipy raises here; compare with the same function on ascending breakpoints."""
    c = np.random.default_rng(8).normal(size=(4, 3))
    xd = np.array([3.0, 2.5, 1.0, 0.0])
    ascending = np.zeros_like(c)
    for i in range(3):  # re-expand interval i about its lower end, x[i + 1]
        shifted = np.poly1d(c[:, i])(np.poly1d([1.0, xd[i + 1] - xd[i]]))
        ascending[:, 2 - i] = np.pad(shifted.coeffs, (4 - len(shifted.coeffs), 0))
    ours = PPoly(c, xd, extrapolate="periodic")
    ref = si.PPoly(ascending, xd[::-1], extrapolate="periodic")
    for a, b in [(-0.3, 7.7), (7.7, -0.3), (-10.0, 10.0), (1.0, 3001.0)]:
        close(ours.integrate(a, b), ref.integrate(a, b), 1e-11)


# ------------------------------------------------------------------------- extend


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


@pytest.mark.parametrize("descending, side, degree", [(True, "left", 2)])
def test_extend_then_methods_match_scipy(descending, side, degree):
    rng = np.random.default_rng(4)
    c, x = rng.normal(size=(3, 2)), np.array([0.0, 1.0, 2.0])
    new_x = np.array([3.0, 4.5]) if side == "right" else np.array([-2.0, -1.0])
    if descending:
        x, new_x = x[::-1].copy(), (2.0 - new_x)
    new_c = rng.normal(size=(degree + 1, 2))
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    ours.extend(new_c, new_x)
    ref.extend(new_c, new_x)
    q = np.linspace(-3.0, 6.0, 19)
    close(ours.x, ref.x)
    close(ours.c, ref.c)
    close(ours(q), ref(q))
    close(ours.derivative()(q), ref.derivative()(q))
    same_roots(ours.roots(), ref.roots())


@jax.jit
def _extended(x_new):
    p = PPoly(np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]]), np.array([0.0, 1.0, 2.0]))
    p.extend(np.ones((3, 2)), x_new)
    return p(np.linspace(-3.0, 6.0, 10))


@pytest.mark.parametrize("new_x", [[4.0, 3.0], [1.5, 3.0], [-1.0, 0.5], [np.nan, 3.0]])
def test_traced_invalid_extend_gives_nan(new_x):
    """Wrong-way, overlapping or NaN traced breakpoints in `extend` make every value
    NaN, never a plausible number (docs/architecture.md §5)."""
    assert np.all(np.isnan(np.asarray(_extended(np.array(new_x)))))


def test_traced_valid_extend_matches_scipy():
    ref = si.PPoly(np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]]), np.array([0.0, 1.0, 2.0]))
    ref.extend(np.ones((3, 2)), np.array([3.0, 4.5]))
    close(_extended(np.array([3.0, 4.5])), ref(np.linspace(-3.0, 6.0, 10)))


@pytest.mark.parametrize("dtype", [np.float64, F32])
def test_extend_from_the_end_breakpoint_is_not_nan(dtype):
    """A first new breakpoint equal to the end one (a zero-width interval, valid in
    scipy; or f64 breakpoints that collide once cast to the PPoly's f32) is dropped,
    as the constructor drops repeated breakpoints: the values past the end are finite."""
    p = PPoly(np.ones((3, 2), dtype), np.array([0.0, 1.0, 2.0], dtype))
    p.extend(np.ones((3, 1)), np.array([2.0 if dtype == np.float64 else 2.00000001]))
    assert np.all(np.isfinite(np.asarray(p(np.array([2.5, 3.0], dtype)))))


def test_descending_extend_from_the_end_breakpoint_keeps_old_values():
    """``x = [x_end]`` extends a descending PPoly on the side it names: the breakpoints
    stay descending and the values inside the old range do not change."""
    c = np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]])
    p = PPoly(c, np.array([2.0, 1.0, 0.0]))
    q = np.array([0.25, 0.75, 1.25, 1.75])
    before = np.asarray(p(q))
    p.extend(np.ones((3, 1)), np.array([0.0]))
    assert np.all(np.diff(np.asarray(p.x)) <= 0), p.x
    close(p(q), before)


def test_extend_with_nothing_is_a_no_op():
    """c of shape (k+1, 0) and x of shape (0,) leave the PPoly as it was."""
    p = PPoly(np.ones((3, 2)), np.array([0.0, 1.0, 2.0]))
    p.extend(np.zeros((3, 0)), np.zeros(0))
    close(p.x, [0.0, 1.0, 2.0])


@pytest.mark.parametrize("new_c, new_x, match", [
    (np.ones((3, 1)), [1.5], "wholly after or before"),
    (np.ones((3, 2)), [4.0, 3.0], "other direction"),
    (np.ones((3, 1, 2)), [3.0], "shape"),
    (np.ones((3, 2)), [3.0], "shape"),
    (np.ones((3, 1)), [np.nan], "finite"),
    (np.ones((3, 1)), [np.inf], "finite"),
])  # fmt: skip
def test_extend_misuse_raises_and_leaves_the_ppoly_alone(new_c, new_x, match):
    p = PPoly(np.ones((3, 2)), np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match=match):
        p.extend(new_c, np.array(new_x))
    close(p.x, [0.0, 1.0, 2.0])


# ------------------------------------------------- construct_fast, repeats, from_spline


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


@pytest.mark.parametrize("k, extrapolate", [(0, True), (3, "periodic")])
def test_from_spline_of_any_degree_and_extrapolate_matches_scipy(k, extrapolate):
    rng = np.random.default_rng(k)
    t = np.concatenate([np.zeros(k), np.linspace(0, 3, 7), np.full(k, 3.0)])
    c = rng.normal(size=len(t) - k - 1)
    spline = si.BSpline(t, c, k, extrapolate=extrapolate)
    ours, ref = PPoly.from_spline(spline), si.PPoly.from_spline(spline)
    assert ours.extrapolate == ref.extrapolate
    q = np.linspace(-1, 4, 23)
    close(ours(q), ref(q), 1e-10)
    close(PPoly.from_spline((t, c, k), extrapolate=False)(q),
          si.PPoly.from_spline((t, c, k), extrapolate=False)(q), 1e-10)  # fmt: skip


def test_from_spline_multidimensional_and_traced_coefficients():
    x = np.linspace(0, 3, 9)
    t, c, k = si.splrep(x, np.sin(x))
    c3 = np.random.default_rng(0).normal(size=(len(c), 2, 3))  # scipy's from_spline: 1-D only
    q = np.linspace(-1, 4, 11)
    close(PPoly.from_spline(si.BSpline(t, c3, k))(q), si.BSpline(t, c3, k)(q), 1e-12)
    close(jax.jit(lambda c: PPoly.from_spline((t, c, k))(q))(c), si.splev(q, (t, c, k)))
    with pytest.raises(TypeError, match="concrete"):
        jax.jit(lambda t: PPoly.from_spline((t, c, k))(0.5))(t)


# -------------------------------------------------------------------- roots at the edges


def test_roots_take_interpax_size_fill_value_and_a_level_per_polynomial():
    """interpax 0.3.16's ``solve(y, discontinuity, extrapolate, size, fill_value)``: ``y``
    one per polynomial, ``size`` by position, ``fill_value`` pads (not the NaN that marks
    a zero interval)."""
    c, x = random_ppoly(columns=(3,), seed=4)
    ours, ref = PPoly(c, x), si.PPoly(c, x)
    levels = np.array([0.3, -0.2, 1.1])
    eager = ours.solve(levels)
    for i, level in enumerate(levels):
        same_roots(eager[i], si.PPoly(ref.c[..., i], ref.x).solve(level))
    padded = jax.jit(lambda p, y: p.solve(y, True, None, 12, -9.0))(ours, levels)
    for i in range(3):
        n = eager[i].size
        np.testing.assert_allclose(padded[i, :n], eager[i], rtol=1e-12)
        np.testing.assert_array_equal(padded[i, n:], -9.0)
    zero = PPoly(np.array([[-1, 0.25], [0, 0], [-1, 0.25]]).T, [0, 0.4, 0.6, 1.0])
    np.testing.assert_array_equal(
        zero.roots(True, None, 6, -1.0), [0.25, 0.4, np.nan, 0.85, -1, -1]
    )
    with pytest.raises(ValueError, match="one value per polynomial"):
        ours.solve(np.ones(2))


@pytest.mark.parametrize("size", [None, 3])
def test_roots_of_zero_columns(size):
    """Roots of y of shape (n, 0) are empty, as scipy's empty object array (with
    ``size=``: shape (0, size))."""
    roots = CubicSpline(X, np.zeros((6, 0))).roots(size=size)
    assert np.shape(roots) == ((0,) if size is None else (0, 3))


def test_descending_roots_near_x_i_keep_scipys_accuracy():
    """Pieces held in z = −x go to the root finder as they are, not re-expanded about
    the other end into ascending x (which cancels): the root is 99.99, to 1e-12."""
    c = np.array([[1.0], [0.0], [0.0], [1e-6]])
    same_roots(PPoly(c, [100.0, 0.0]).roots(), si.PPoly(c, [100.0, 0.0]).roots(), 1e-12)


# q(t) = Σ q_p tᵖ on [0, 1] evaluates to -1.1e-16 at t = 1 by Horner, exactly 0 as the
# reversed polynomial of the extrapolated end: its root t ≈ 1 falls between the two.
# Mirrored (t → −t), the same happens at t = −1 between the near and far ends below.
_LOST = np.array([[-1.6547112295472464], [2.466426403972967], [0.13934134186943303],
                  [-0.9510565162951536]])  # fmt: skip


_MIRRORED = _LOST * [[-1], [1], [-1], [1]]


@pytest.mark.parametrize("case", ["above", "below", "both", "descending", "CubicHermiteSpline"])
def test_root_at_the_outer_breakpoints_is_not_lost_when_extrapolating(case):
    """A piece and its extrapolation share the outer breakpoint and take one value of
    q there, so a root at t = ±1 is found (read apart, Horner's −1.1e-16 and the
    reversed polynomial's 0 would put it between the two problems)."""
    c, x = {
        "above": (_LOST, [0.0, 1.0]),
        "below": (_MIRRORED, [0.0, 1.0]),
        "both": (np.concatenate([_MIRRORED, _LOST], axis=1), [-1.0, 0.0, 1.0]),
        "descending": (_MIRRORED, [1.0, 0.0]),
    }.get(case, (None, None))
    if c is not None:
        ours, ref = PPoly(c, x), si.PPoly(c, x)
    else:
        y = np.sin(2 * np.pi * X)
        y[-1] = 0.0  # the spline is 0 at x = 1
        ours, ref = CubicHermiteSpline(X, y, np.cos(X)), si.CubicHermiteSpline(X, y, np.cos(X))
    same_roots(ours.roots(), ref.roots(), 1e-9)


def test_roots_planted_within_rounding_of_the_outer_breakpoints():
    """Random cubic pieces, either direction, every piece with roots within 1e-15 of
    both outer breakpoints, extrapolated: scipy's roots, none lost or moved."""
    for seed in range(60):
        rng = np.random.default_rng(seed)
        m = int(rng.integers(1, 4))
        x = np.cumsum(np.r_[0, rng.uniform(0.5, 2, m)]) * rng.choice([-1, 1])
        x = np.sort(x)[:: rng.choice([-1, 1])]
        c = np.empty((4, m))
        for i in range(m):
            roots = np.r_[x[[0, -1]] + rng.normal(size=2) * 1e-15, rng.uniform(-3, 3)]
            c[::-1, i] = np.polynomial.polynomial.polyfromroots(roots - x[i])
        same_roots(PPoly(c, x).roots(), si.PPoly(c, x).roots(), 1e-9)


@pytest.mark.parametrize("dtype, scale", [(F32, 1e-34), (np.float64, 1e-300)])
def test_roots_of_tiny_values(dtype, scale):
    """Near-subnormal data: the root finder scales each piece by a power of two first,
    so it never works on subnormals (which XLA:CPU flushes to zero)."""
    x = np.linspace(0, 3, 6).astype(dtype)
    y = (np.cos(2 * x.astype(float)) * scale).astype(dtype)
    tol = 1e-5 if dtype == F32 else 1e-12
    ref = si.CubicSpline(x.astype(float), y.astype(float)).roots()
    np.testing.assert_allclose(CubicSpline(x, y).roots(), ref, rtol=0, atol=tol)


def test_non_finite_solve_level_and_coefficients_give_nan_roots():
    assert np.all(np.isnan(CubicSpline(X, Y).solve(np.nan)))  # scipy raises
    assert np.all(np.isnan(CubicSpline(X, Y).solve(np.inf)))
    c = np.ones((4, 5))
    c[0, 2] = np.nan  # scipy skips the piece; we make the column NaN (documented)
    assert np.all(np.isnan(PPoly(c, X).roots()))


# ------------------------------------------------------------------------- bad input


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


@pytest.mark.parametrize("method", ["derivative", "antiderivative"])
def test_bool_order_rejected_like_call(method):
    """``derivative(True)`` and ``antiderivative(True)`` raise, as a call with
    ``nu=True`` does: a bool is not an order."""
    p = PPoly(np.ones((4, 2)), np.array([0.0, 1.0, 2.0]))
    for call in (lambda: p(0.5, True), lambda: getattr(p, method)(True)):
        with pytest.raises(TypeError, match="nu"):
            call()


def test_numpy_constants_inside_jit_are_checked():
    c = np.ones((4, 3))
    with pytest.raises(ValueError, match="strictly increasing or decreasing"):
        jax.jit(lambda q: PPoly(c, np.array([0.0, 2.0, 1.0, 3.0]))(q))(0.5)
    descending = np.array([3.0, 2.5, 1.0, 0.0])  # concrete: stays descending under jit
    close(jax.jit(lambda q: PPoly(c * 0.5, descending)(q))(0.7),
          si.PPoly(c * 0.5, descending)(0.7))  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_breakpoints_whose_step_overflows_raise_eagerly_and_are_nan_traced(dtype):
    # Pieces are stored over their width: an infinite width would make every
    # local coordinate 0 (a plausible wrong number), as for interp1d's knots.
    big = np.finfo(dtype).max / 2 * 1.5
    x, c = np.array([-big, big], dtype), np.array([[1.0], [0.0]], dtype)
    with pytest.raises(ValueError, match=r"`x\[1\] - x\[0\]` overflows"):
        PPoly(c, x)
    traced = jax.jit(lambda c, x: PPoly(c, x)(jnp.zeros(1, dtype)))
    assert np.isnan(traced(c, x)).all()
