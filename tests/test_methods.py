"""The local cubic methods, tension ``c``, given slopes ``fx``, derivative tuples, `approx_df`.

Methods: ``"cubic"``, ``"catmull-rom"``, ``"cardinal"`` (finite differences),
``"monotonic"``, ``"monotonic-0"`` (PCHIP), ``"akima"``, ``"makima"``, next to
``"cubic2"`` (the C² solve), ``"linear"`` and ``"nearest"``.

References.  scipy where it has the method (``PchipInterpolator``,
``Akima1DInterpolator``, ``CubicHermiteSpline`` for ``fx``); otherwise each
method's defining formula for the knot slopes, and interpax (the library
whose method names and definitions these are).  interpax's periodic
``"cubic2"`` is not the periodic C² spline (it pads one knot each side and
fits not-a-knot ends: 0.3 off here), and its periodic ``"akima"`` wraps one
knot each side (ours two): those two are checked by rotation invariance and
against scipy's periodic ``CubicSpline`` in `tests/test_interp_scipy.py`.

Tolerances.  f64: ``max|ours − ref| ≤ 1e-12 × scale`` with the
scale ``max(max|ref|, max|fp|)`` taken per derivative order.  f32: ``≤ 2e-6
× scale`` against the f64 reference on the f32 inputs.  Every data set here
is generated f32-representable (knots, values, slopes, queries), so one f64
reference serves both precisions.

Data.  Knots are random and uneven; values hold flat runs (equal
neighbours: zero secants, at an end and inside, a run of three), a monotone
column with a flat step, and a column whose secants change sign every cell
— where the data-dependent rules switch branches.

Runtime (~70 s on 2 cores, a third of it in `check_grads`).  Compilation
dominates (≈ 0.1 s per `interp1d` inside a program, 1 s+ per transformed
gradient program), so every group of forward comparisons is one jitted
program computed once (`functools.cache`) whose slices the parametrized
tests read.  `check_grads` runs op by op (`jax.disable_jit`): its ~13
distinct transformed programs per method would cost more to compile than
to dispatch; order 2 for the two branching rules only (see `GRAD_ORDER`).

A defect this file found and pins: periodic Akima took its cutoff's maximum
over the cyclic extension too, so slopes near the cutoff depended on where
the period starts
(`test_periodic_akima_slopes_do_not_depend_on_the_first_knot_near_the_cutoff`).
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compiles import compiles
from _lowered import lowered_text
from jax.test_util import check_grads

from splines import Interpolator1D, approx_df, interp1d
from splines._interpolate.functions import _interpolate as _interp1d

RTOL64, RTOL32 = 1e-12, 2e-6
ORDERS = (0, 1, 2, 3)
METHODS = ("nearest", "linear", "cubic2", "cubic", "catmull-rom", "cardinal", "monotonic",
           "monotonic-0", "akima", "makima")  # fmt: skip
CUBIC = METHODS[2:]
LOCAL = METHODS[3:]  # slopes from neighbouring values, no solve
DATA_DEPENDENT = ("monotonic", "monotonic-0", "akima", "makima")  # branches on the data
TENSION = 0.4  # cardinal's c wherever one c stands for the method
DTYPES = {"f64": np.float64, "f32": np.float32}


def _options(method, c=TENSION):
    return {"c": c} if method == "cardinal" else {}


def _f32(a):
    """``a`` rounded to f32, as f64: the exact inputs both precisions see."""
    return np.asarray(a, np.float32).astype(np.float64)


def _scale(ref, fp):
    return max(float(np.max(np.abs(ref), initial=0.0)), float(np.max(np.abs(fp))))


def _error(ours, ref, fp):
    """``max|ours − ref| / scale`` (0 for empty arrays)."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (ours.shape, ref.shape)
    diff = np.abs(ours.astype(ref.dtype) - ref)
    return float(np.max(diff, initial=0.0)) / _scale(ref, fp)


def _assert_close(ours, ref, fp, rtol, what=""):
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (what, ours.shape, ref.shape)
    assert np.all(np.isfinite(ours)), (what, ours)
    error = _error(ours, ref, fp)
    assert error <= rtol, f"{what}: max error {error:.3g} × scale > {rtol:g}"


def _assert_orders_close(ours, refs, fp, rtol, what=""):
    """``ours``: orders stacked on the leading axis; ``refs``: one array per order."""
    assert np.shape(ours)[0] == len(refs), (what, np.shape(ours))
    for order, (o, r) in enumerate(zip(ours, refs)):
        _assert_close(o, r, fp, rtol, f"{what}, derivative {order}")


# --------------------------------------------------------------------------- data


def _knots(n, rng, start=-1.0, low=0.2, high=2.0):
    """Uneven knots (neighbouring widths differ by up to 10×), f32-representable."""
    return _f32(start + np.concatenate([[0.0], np.cumsum(rng.uniform(low, high, n - 1))]))


def _values(n, rng):
    """``(n, 3)``: flat runs; monotone with a flat step; secants alternating in sign."""
    flat = rng.normal(size=n)
    flat[1] = flat[0]  # a flat first cell (n = 2: the whole column)
    if n >= 8:
        flat[5] = flat[6] = flat[4]  # three equal values: two zero secants in a row
    if n >= 12:
        flat[-1] = flat[-2]  # a flat last cell
    monotone = np.cumsum(rng.uniform(0.2, 1.0, n))
    if n >= 4:
        monotone[2] = monotone[1]
    alternating = (-1.0) ** np.arange(n) * rng.uniform(0.5, 1.5, n) + 0.3
    return _f32(np.stack([flat, monotone, alternating], axis=1))


def _inside(xp, rng, size):
    """The knots, points at 0.1, 0.5, 0.9 of every cell, random ones: ``size`` in all."""
    h = np.diff(xp)
    x = np.concatenate([xp, xp[:-1] + 0.1 * h, xp[:-1] + 0.5 * h, xp[:-1] + 0.9 * h])
    x = np.concatenate([x, rng.uniform(xp[0], xp[-1], size - x.size)])
    return np.clip(_f32(x), xp[0], xp[-1])


def _outside(xp):
    h = np.diff(xp)
    return _f32([xp[0] - 1.5 * h[0], xp[0] - 0.25 * h[0], xp[-1] + 0.25 * h[-1],
                 xp[-1] + 1.5 * h[-1]])  # fmt: skip


def _layout(array, layout):
    """``fp`` (or ``fx``) and the axis: ``(n,)``, ``(n, 3)``, or ``(2, n)`` with axis 1."""
    if layout == "1d":
        return array[:, 0], 0
    if layout == "columns":
        return array, 0
    return array[:, 1:].T, 1


def _cast(dtype, *arrays):
    return tuple(None if a is None else np.asarray(a, dtype) for a in arrays)


# --------------------------------------------------------------- 1. against scipy

N_INSIDE = 80  # every query array of the scipy comparison has this length
SCIPY_METHODS = ("monotonic", "akima", "makima")


@functools.cache
def _scipy_data(n):
    rng = np.random.default_rng(100 + n)
    xp = _knots(n, rng)
    values = _values(n, rng)
    slopes = _f32(rng.normal(size=(n, 3)) * 2)
    return xp, values, slopes, _inside(xp, rng, N_INSIDE), _outside(xp)


def _scipy_reference(method, xp, fp, axis, fx=None):
    """scipy's interpolant with ``extrapolate=True`` (queries inside are unaffected)."""
    if fx is not None:
        return si.CubicHermiteSpline(xp, fp, fx, axis=axis, extrapolate=True)
    if method == "monotonic":
        return si.PchipInterpolator(xp, fp, axis=axis, extrapolate=True)
    return si.Akima1DInterpolator(xp, fp, axis=axis, method=method, extrapolate=True)


# (method, given slopes, n, layout, dtype).  Given slopes replace the method's
# own, so every cubic method gets them; the full grid of sizes and layouts
# runs for one of them, the others on one case.  f32 on fewer cases.
SHAPES = [(2, "columns"), (2, "1d"), (3, "columns"), (4, "axis1"), (20, "columns"),
          (20, "axis1"), (20, "1d")]  # fmt: skip
SCIPY_CASES = [
    (m, False, n, layout, dtype)
    for m in SCIPY_METHODS
    for dtype, shapes in (("f64", SHAPES), ("f32", [(4, "columns"), (20, "axis1")]))
    for n, layout in shapes
] + [
    (m, True, n, layout, dtype)
    for m in CUBIC
    for dtype in DTYPES
    for n, layout in (
        SHAPES if m == "cubic" and dtype == "f64"
        else [(20, "axis1")] if dtype == "f64"
        else [(20, "columns")] if m in ("cubic2", "cubic", "akima") else []
    )
]  # fmt: skip


SLOPE_CASES = ((3, "columns"), (20, "axis1"), (4, "columns"))  # where `approx_df` is compared too


def _case_id(case):
    method, given, n, layout, dtype = case
    return f"{method}{'-fx' if given else ''}-n{n}-{layout}-{dtype}"


@functools.cache
def _scipy_results(dtype):
    """Ours for every case of ``dtype`` in one program: values and slopes (`approx_df`)."""
    cases = [c for c in SCIPY_CASES if c[4] == dtype]
    real = DTYPES[dtype]

    @jax.jit
    def run():
        out = {}
        for method, given, n, layout, _ in cases:
            xp, values, slopes, x_in, x_out = _scipy_data(n)
            (fp, axis), fx = _layout(values, layout), _layout(slopes, layout)[0] if given else None
            xp, fp, fx, x_in, x_out = _cast(real, xp, fp, fx, x_in, x_out)
            x = np.concatenate([x_in, x_out])  # inside and beyond both ends
            kw = {"axis": axis, "fx": fx, "extrap": True, **({} if given else _options(method))}
            ours = interp1d(x, xp, fp, method, derivative=ORDERS, **kw)
            compare_slopes = (n, layout) in SLOPE_CASES and not given
            knots = approx_df(xp, fp, method, axis=axis) if compare_slopes else None
            out[method, given, n, layout] = (ours, knots)
        return out

    return run()


def _scipy_expected(method, given, n, layout):
    xp, values, slopes, x_in, x_out = _scipy_data(n)
    fp, axis = _layout(values, layout)
    ref = _scipy_reference(method, xp, fp, axis, _layout(slopes, layout)[0] if given else None)
    x = np.concatenate([x_in, x_out])
    return fp, [ref(x, d) for d in ORDERS], ref(xp, 1)


@pytest.mark.parametrize("case", SCIPY_CASES, ids=_case_id)
def test_against_scipy(case):
    """Values and derivatives 1–3 inside and (extrapolated) outside; slopes at the knots.

    Both sides extrapolate (scipy's Akima does not by default): ``extrap=True``
    extends the end pieces, as ``extrapolate=True`` does; inside the knots it
    changes nothing.
    """
    method, given, n, layout, dtype = case
    ours, knots = _scipy_results(dtype)[method, given, n, layout]
    fp, ref, ref_slopes = _scipy_expected(method, given, n, layout)
    rtol = RTOL64 if dtype == "f64" else RTOL32
    result_dtype = np.dtype(DTYPES[dtype])
    assert ours.dtype == result_dtype
    _assert_orders_close(ours, ref, fp, rtol, _case_id(case))
    if knots is not None:
        assert knots.dtype == result_dtype
        _assert_close(knots, ref_slopes, fp, rtol, _case_id(case) + ", approx_df")


# ------------------------------------------------ 2. defining formulas, interpax

FORMULA_CASES = (
    [("cubic", None), ("catmull-rom", None)]
    + [("cardinal", c) for c in (None, 0.0, 0.25, 0.7, 1.0)]
    + [("monotonic-0", None), ("monotonic", None), ("akima", None), ("makima", None)]
)


@functools.cache
def _formula_data(n):
    rng = np.random.default_rng(200 + n)
    return _knots(n, rng, start=0.5), _values(n, rng)


def _secants(xp, values):
    return np.diff(values, axis=0) / np.diff(xp)[:, None]


def _expected_slopes(method, c, xp, values):
    """Each method's definition, written out (monotonic-0: PCHIP inside, 0 at the ends)."""
    m = _secants(xp, values)
    if method == "cubic":
        return np.concatenate([m[:1], (m[:-1] + m[1:]) / 2, m[-1:]])
    if method in ("catmull-rom", "cardinal"):
        c = 0.0 if c is None else c
        centred = (values[2:] - values[:-2]) / (xp[2:] - xp[:-2])[:, None]
        return (1 - c) * np.concatenate([m[:1], centred, m[-1:]])
    if method == "monotonic-0":
        slopes = si.PchipInterpolator(xp, values)(xp, 1)
        slopes[[0, -1]] = 0.0
        return slopes
    return _scipy_reference(method, xp, values, 0)(xp, 1)


@functools.cache
def _formula_results():
    """Per (method, c, n): approx_df, and values and slopes of the interpolant at the knots."""

    @jax.jit
    def run():
        out = {}
        for n in (2, 3, 20):
            xp, values = _formula_data(n)
            for method, c in FORMULA_CASES:
                kw = {} if c is None else {"c": c}
                slopes = approx_df(xp, values, method, axis=0, **kw)
                out[repr((method, c, n))] = (
                    slopes,
                    approx_df(xp, values.T, method, **kw).T if n == 20 else slopes,  # axis=-1
                    interp1d(xp, xp, values, method, derivative=(0, 1), **kw),
                )
        return out

    return run()


@pytest.mark.parametrize("n", [2, 3, 20])
@pytest.mark.parametrize("method, c", FORMULA_CASES, ids=[f"{m}-c{c}" for m, c in FORMULA_CASES])
def test_knot_slopes_follow_the_definition(method, c, n):
    """approx_df and d/dx of the interpolant at the knots are the method's slopes."""
    xp, values = _formula_data(n)
    expected = _expected_slopes(method, c, xp, values)
    slopes, slopes_t, at_knots = _formula_results()[repr((method, c, n))]
    what = f"{method} c={c} n={n}"
    _assert_close(slopes, expected, values, RTOL64, what + ", approx_df")
    np.testing.assert_array_equal(np.asarray(slopes_t), np.asarray(slopes))
    _assert_close(at_knots[0], values, values, 1e-14, what + ", values at the knots")
    _assert_close(at_knots[1], expected, values, RTOL64, what + ", derivative at the knots")
    if c == 1.0:
        assert np.all(np.asarray(slopes) == 0), slopes
    if method == "monotonic-0":
        assert np.all(np.asarray(slopes)[[0, -1]] == 0)


def test_catmull_rom_is_cardinal_without_tension():
    results = _formula_results()
    for n in (2, 3, 20):
        reference = np.asarray(results[repr(("catmull-rom", None, n))][2])
        for c in (None, 0.0):
            cardinal = results[repr(("cardinal", c, n))][2]
            np.testing.assert_array_equal(np.asarray(cardinal), reference)


C1_N = 12


@functools.cache
def _continuity_results():
    """d/dx just left and right of every interior knot, every cubic method."""
    xp, values = _formula_data(20)
    xp, values = xp[:C1_N], values[:C1_N]
    delta = 1e-10
    x = np.concatenate([xp[1:-1] - delta, xp[1:-1] + delta])

    @jax.jit
    def run():
        return {m: interp1d(x, xp, values, m, derivative=1, **_options(m)) for m in CUBIC}

    return values, run()


@pytest.mark.parametrize("method", CUBIC)
def test_first_derivative_is_continuous_at_the_knots(method):
    """C¹: left and right derivative agree at interior knots (2·10⁻¹⁰ apart)."""
    values, results = _continuity_results()
    left, right = np.split(np.asarray(results[method]), 2)
    _assert_close(left, right, values, 1e-7, method)


@functools.cache
def _monotone_results():
    rng = np.random.default_rng(3)
    xp = _knots(15, rng, low=0.05, high=3.0)
    rising = np.cumsum(rng.uniform(0, 2, 15) * (rng.uniform(size=15) > 0.3))  # flat steps
    falling = -np.cumsum(np.exp(rng.normal(size=15) * 2))  # widely varying secants
    values = _f32(np.stack([rising, falling], axis=1))
    x = np.linspace(xp[0], xp[-1], 801)
    run = jax.jit(lambda: {m: interp1d(x, xp, values, m) for m in ("monotonic", "monotonic-0")})
    return xp, values, x, run()


@pytest.mark.parametrize("method", ["monotonic", "monotonic-0"])
def test_monotone_data_give_a_monotone_interpolant(method):
    xp, values, x, results = _monotone_results()
    out = np.asarray(results[method])
    tol = 1e-13 * np.max(np.abs(values))
    assert np.all(np.diff(out[:, 0]) >= -tol)
    assert np.all(np.diff(out[:, 1]) <= tol)
    # between equal neighbours the interpolant is flat, and never leaves the data's range
    cell = np.clip(np.searchsorted(xp, x, side="right") - 1, 0, len(xp) - 2)
    low = np.minimum(values[cell], values[cell + 1])
    high = np.maximum(values[cell], values[cell + 1])
    assert np.all((out >= low - tol) & (out <= high + tol))


INTERPAX_CASES = [("cubic", None), ("catmull-rom", None), ("cardinal", 0.25), ("cardinal", 0.8),
                  ("monotonic", None), ("monotonic-0", None), ("akima", None)]  # fmt: skip
# With `period`: every method of interpax's but "akima" (interpax wraps one
# knot each side, we two) and "cubic2" (interpax's is not the periodic spline).
INTERPAX_PERIODIC_CASES = [("nearest", None), ("linear", None), ("cubic", None),
                           ("catmull-rom", None), ("cardinal", 0.6), ("monotonic", None),
                           ("monotonic-0", None)]  # fmt: skip
INTERPAX_ORDERS = (0,)  # ≥ 5 points a cell fix each cubic; approx_df: the slopes
PERIOD = 17.0


@functools.cache
def _interpax_data():
    rng = np.random.default_rng(4)
    xp = _knots(15, rng, start=0.25, low=0.3, high=1.5)
    assert xp[-1] < 0.25 + PERIOD
    values = _values(15, rng)
    x = np.concatenate([_inside(xp, rng, 60), _outside(xp)])
    x_periodic = _f32(np.concatenate([rng.uniform(-PERIOD, 2 * PERIOD, 40), xp + PERIOD]))
    return xp, values, x, x_periodic


@functools.cache
def _interpax_results():
    interpax = pytest.importorskip("interpax")
    xp, values, x, x_periodic = _interpax_data()

    def kwargs(c):
        return {} if c is None else {"c": c}

    @jax.jit
    def run():
        out = {}
        for method, c in INTERPAX_CASES:
            theirs = [interpax.interp1d(x, xp, values, method, derivative=d, extrap=True,
                                        **kwargs(c)) for d in INTERPAX_ORDERS]  # fmt: skip
            ours = {
                dtype: interp1d(*_cast(real, x, xp, values), method, derivative=INTERPAX_ORDERS,
                                extrap=True, **kwargs(c))
                for dtype, real in DTYPES.items()
            }  # fmt: skip
            slopes = (approx_df(xp, values, method, axis=0, **kwargs(c)),
                      interpax.approx_df(xp, values, method, axis=0, **kwargs(c)))  # fmt: skip
            out[repr(("plain", method, c))] = (ours, theirs, slopes)
        for method, c in INTERPAX_PERIODIC_CASES:
            theirs = [
                interpax.interp1d(
                    x_periodic, xp, values, method, derivative=d, period=PERIOD, **kwargs(c)
                )
                for d in INTERPAX_ORDERS
            ]
            ours = {
                dtype: interp1d(*_cast(real, x_periodic, xp, values), method, period=PERIOD,
                                derivative=INTERPAX_ORDERS, **kwargs(c))
                for dtype, real in DTYPES.items()
            }  # fmt: skip
            out[repr(("periodic", method, c))] = (ours, theirs, None)
        return out

    return run()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "kind, method, c",
    [("plain", m, c) for m, c in INTERPAX_CASES]
    + [("periodic", m, c) for m, c in INTERPAX_PERIODIC_CASES],
    ids=lambda v: str(v),
)
def test_against_interpax(kind, method, c, dtype):
    """Values (also extrapolated outside) as interpax's; its slopes."""
    ours, theirs, slopes = _interpax_results()[repr((kind, method, c))]
    values = _interpax_data()[1]
    rtol = RTOL64 if dtype == "f64" else RTOL32
    degree = {"nearest": 0, "linear": 1}.get(method, 3)
    # interpax gives NaN or garbage past the method's degree (nearest's 2nd derivative)
    orders = [d for d in INTERPAX_ORDERS if d <= degree]
    _assert_orders_close(ours[dtype][: len(orders)], theirs[: len(orders)], values, rtol,
                         f"{kind} {method} c={c} {dtype}")  # fmt: skip
    if slopes is not None and dtype == "f64":
        _assert_close(slopes[0], slopes[1], values, RTOL64, f"{method} c={c}: approx_df")


# ------------------------------------------------------------------ 3. periodic data

ROTATE = 3  # start the period at this knot instead


@functools.cache
def _periodic_data():
    rng = np.random.default_rng(5)
    xp = _knots(7, rng, start=0.5, low=0.5, high=1.5)
    period = float(np.ceil(xp[-1] - xp[0] + 1.0))
    values = _values(7, rng)[:, 1:]  # the monotone column still wraps around: a jump
    x = _f32(np.concatenate([rng.uniform(-period, 2 * period, 36), xp, xp - period]))
    eps = 1e-9
    boundary = np.array([xp[0] - eps, xp[0] + eps, xp[0] + period - eps, xp[0] + period + eps])
    return xp, values, period, x, boundary


@functools.cache
def _periodic_results():
    """Per cubic method: open knots, rotated, closed, and (some) a traced period."""
    xp, values, period, x, boundary = _periodic_data()
    x = np.concatenate([x, boundary])
    rotated = np.concatenate([xp[ROTATE:], xp[:ROTATE] + period])
    closed = np.append(xp, xp[0] + period)

    @jax.jit
    def run(traced_period):
        out = {}
        for m in CUBIC:
            kw = {"derivative": ORDERS, "period": period, **_options(m)}
            out[m] = [
                interp1d(x, xp, values, m, **kw),
                interp1d(x, rotated, np.roll(values, -ROTATE, axis=0), m, **kw),
            ]
            if m in CLOSED:
                out[m].append(interp1d(x, closed, np.vstack([values, values[:1]]), m, **kw))
            if m in TRACED_PERIOD:  # the program decides whether the knots close
                out[m] += [
                    interp1d(x, xp, values, m, **{**kw, "period": traced_period}),
                    interp1d(
                        x,
                        closed,
                        np.vstack([values, values[:1]]),
                        m,
                        **{**kw, "period": traced_period},
                    ),  # fmt: skip
                ]
        return out

    return run(np.float64(period))


# Closing the knots is the same code for every method (`_periodic`): closed
# knots for four, a traced period (both readings in one program) for two.
CLOSED = ("cubic2", "cubic", "monotonic", "akima")
TRACED_PERIOD = ("monotonic", "akima")


@pytest.mark.parametrize("method", CUBIC)
def test_periodic_start_and_closing_do_not_matter(method):
    """Rotated knots, closed knots, and a traced period give the same interpolant."""
    values = _periodic_data()[1]
    plain, *others = _periodic_results()[method]
    names = ["rotated"] + ["closed"] * (method in CLOSED)
    names += ["traced period", "traced period, closed"] * (method in TRACED_PERIOD)
    assert len(names) == len(others)
    assert np.all(np.isfinite(plain))
    for name, other in zip(names, others):
        _assert_orders_close(other, list(plain), values, RTOL64, f"{method}: {name}")


@pytest.mark.parametrize("method", CUBIC)
def test_periodic_derivative_is_continuous_across_the_period(method):
    """d/dx on both sides of xp[0] and of xp[0] + period (2·10⁻⁹ apart) agree."""
    values = _periodic_data()[1]
    first, second = np.asarray(_periodic_results()[method][0])[1:3, -4:]
    _assert_close(first[0::2], first[1::2], values, 1e-7, f"{method}: d/dx")
    if method == "cubic2":  # C²
        _assert_close(second[0::2], second[1::2], values, 1e-7, f"{method}: d²/dx²")


def test_periodic_cubic2_is_scipys_periodic_spline():
    """(interpax's periodic "cubic2" is not: 0.7 off scipy on the interpax data.)"""
    xp, values, period, x, boundary = _periodic_data()
    closed = np.append(xp, xp[0] + period)
    spline = si.CubicSpline(closed, np.vstack([values, values[:1]]), bc_type="periodic",
                            extrapolate="periodic")  # fmt: skip
    x = np.concatenate([x, boundary])
    ref = [spline(x, d) for d in ORDERS]
    _assert_orders_close(_periodic_results()["cubic2"][0], ref, values, RTOL64, "cubic2 periodic")


def _akima_sharp_corner(delta_scale):
    """Periodic data with one knot whose Akima weights sum to ~1.6e-9 of the largest sum.

    Secants m = (0, δ₁, 1, 1 + δ₂, 2, −1, −1.5, −1.5) on unit cells; at knot 2
    the weights are |m_3 − m_2| = δ₂ and |m_1 − m_0| = δ₁: tiny, while the
    two secants they weigh differ by 1.  The largest sum over the period's
    knots is 3 (knots 4 and 6); scipy's cutoff is 10⁻⁹ of it.
    """
    delta = np.array([0.8, 0.2]) * delta_scale * 1e-9 * 3.0
    m = np.array([0.0, delta[0], 1.0, 1.0 + delta[1], 2.0, -1.0, -1.5, 0.0])
    m[-1] = -np.sum(m[:-1])  # the values return after one period
    return np.arange(8.0), np.concatenate([[0.0], np.cumsum(m)[:-1]]), 8.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_akima_cutoff_is_exact_for_quotients_past_the_float_range(dtype):
    """The cutoff ``total_i / g_i > 10⁻⁹ max_j total_j / g_j`` on weight sums and
    widths spread over the whole normal range, where the quotients over- or
    underflow: the same decisions as exact rational arithmetic, except within
    10⁻⁴ of the threshold (the reduction keeps the largest quotient to 2⁻¹⁵)."""
    from fractions import Fraction

    from splines._methods.akima import _above_cutoff

    rng = np.random.default_rng(7)
    decades = 36 if dtype == np.float32 else 300
    n, k = 9, 3  # one program per dtype
    for trial in range(40):
        g = (10.0 ** rng.uniform(-decades, decades, n)).astype(dtype)
        total = (10.0 ** rng.uniform(-decades, decades, (n, k))).astype(dtype)
        if trial % 2:  # clustered around the cutoff of the largest quotient
            total = (10.0 ** rng.uniform(-10.5, 0, (n, k)) * g[:, None] / g.max()).astype(dtype)
        total[(rng.random((n, k)) < 0.2) | (total < np.finfo(dtype).tiny)] = (
            0  # XLA flushes subnormals
        )
        got = np.asarray(_above_cutoff(jnp.asarray(total), jnp.asarray(g)))
        exact = [[Fraction(float(t)) / Fraction(float(w)) for t in row] for row, w in zip(total, g)]
        cutoff = Fraction(1, 10**9) * max(q for row in exact for q in row)
        for i, row in enumerate(exact):
            for j, q in enumerate(row):
                if cutoff and abs(q / cutoff - 1) < Fraction(1, 10**4):
                    continue
                assert got[i, j] == (q > cutoff), (trial, i, j, float(q), float(cutoff))


def test_periodic_akima_slopes_do_not_depend_on_the_first_knot_near_the_cutoff():
    """Knot 2's weights sum to 1.6e-9 × 3 (the largest sum over the period), above
    scipy's cutoff 1e-9 × 3: the weighted slope 0.8, whichever knot starts the period.

    The cutoff's maximum runs over the kept knots only: the four knots of the
    cyclic extension, whose outer secants are Akima's linear extrapolation
    (knot −2 sees twice the largest secant jump), would double it for the
    rotations that put the sharp corner next to the start, and knot 2 would
    fall back to (m_0 + m_3)/2 = 0.5 there.
    """
    xp, values, period = _akima_sharp_corner(1.6)
    slopes = []
    for r in range(len(xp)):
        rotated = np.concatenate([xp[r:], xp[:r] + period])
        slopes.append(interp1d(xp[2], rotated, np.roll(values, -r), "akima", period=period,
                               derivative=1))  # fmt: skip
    slopes = np.asarray(slopes)
    why = "slope at knot 2 per rotation of the period's start"
    np.testing.assert_allclose(slopes, slopes[0], rtol=1e-6, err_msg=why)
    np.testing.assert_allclose(slopes, 0.8, rtol=1e-6)


# ----------------------------------------------------------------- 4. complex values


COMPLEX_EXTRAS = ("cubic2", "akima")  # periodic and approx_df too
COMPLEX_F32 = ("nearest", "linear", "cubic2", "monotonic", "akima")


@functools.cache
def _complex_data(dtype):
    rng = np.random.default_rng(6)
    real, cplx = DTYPES[dtype], {"f64": np.complex128, "f32": np.complex64}[dtype]
    xp = _knots(9, rng).astype(real)
    re, im = _values(9, rng)[:, :2].astype(real), _values(9, rng)[:, [2, 0]].astype(real)
    return _inside(xp, rng, 40).astype(real), xp, re, im, (re + 1j * im).astype(cplx)


@functools.cache
def _complex_results(dtype):
    x, xp, re, im, fp = _complex_data(dtype)
    methods = METHODS if dtype == "f64" else COMPLEX_F32

    @jax.jit
    def run():
        out = {}
        for m in methods:

            def f(v, m=m, **kw):
                return interp1d(x, xp, v, m, derivative=(0, 1), **_options(m), **kw)

            out[m] = [f(fp), f(re) + 1j * f(im)]
            if m in COMPLEX_EXTRAS and dtype == "f64":
                out[m] += [f(fp, period=20.0), f(re, period=20.0) + 1j * f(im, period=20.0)]
                d = functools.partial(approx_df, xp, method=m, axis=0, **_options(m))
                out[m] += [d(fp)[None], (d(re) + 1j * d(im))[None]]
        return out

    return run()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("method", METHODS)
def test_complex_values_are_interpolated_by_parts(method, dtype):
    """Complex fp: the interpolant of the real part plus 1j times that of the imaginary
    part (the definition for the data-dependent rules, linearity for the others); in
    pairs (complex, by parts): values and d/dx, periodic, `approx_df`."""
    x, xp, _, _, fp = _complex_data(dtype)
    cplx = np.dtype(fp.dtype)
    shape = jax.eval_shape(lambda: interp1d(x, xp, fp, method, **_options(method)))
    assert shape.dtype == cplx  # complex64 for f32 knots and queries
    if dtype == "f32" and method not in COMPLEX_F32:
        return
    results = _complex_results(dtype)[method]
    rtol = 1e-14 if dtype == "f64" else 1e-6
    for name, whole, by_parts in zip(["", "periodic", "approx_df"], results[::2], results[1::2]):
        assert whole.dtype == cplx, (name, whole.dtype)
        _assert_orders_close(whole, list(by_parts), np.abs(fp), rtol, f"{method} {name}")


# ---------------------------------------------------------------- 5. derivative tuples

DT_XP = np.array([0.0, 0.6, 1.5, 2.1, 3.0, 4.2, 5.0])
DT_X = np.linspace(-0.2, 5.1, 20).reshape(4, 5)
DT_METHODS = ("nearest", "linear", "cubic2", "akima")


VMAP_TUPLE = ("cubic2", "akima")


@functools.cache
def _tuple_results():
    rng = np.random.default_rng(7)
    fp = rng.normal(size=(2, 7, 3))  # axis=1: the knots in the middle
    batch = rng.normal(size=(2, 7))

    @jax.jit
    def run():
        out = {}
        for m in DT_METHODS:
            kw = {"axis": 1, "extrap": True, **_options(m)}
            stacked = interp1d(DT_X, DT_XP, fp, m, derivative=(0, 1, 2), **kw)
            apart = [interp1d(DT_X, DT_XP, fp, m, derivative=d, **kw) for d in (0, 1, 2)]
            fitted = Interpolator1D(DT_XP, fp, m, **kw)
            by_call = fitted(DT_X, (0, 1, 2))
            over_queries = jax.vmap(lambda x, fitted=fitted: fitted(x, (2, 0)))(
                DT_X
            )  # (4, 2, 2, 5, 3)
            out[m] = [stacked, apart, by_call, over_queries]
            if m in VMAP_TUPLE:  # vmap over values, orders as a list
                one = functools.partial(interp1d, DT_X[0], DT_XP, method=m, derivative=[1, 0],
                                        extrap=True, **_options(m))  # fmt: skip
                out[m] += [jax.vmap(one)(batch), [one(f) for f in batch]]
        return out

    return fp, run()


@pytest.mark.parametrize("method", DT_METHODS)
def test_derivative_tuple_stacks_the_orders(method):
    """``(0, 1, 2)``: the three orders stacked first, for columns and axis=1; through
    `Interpolator1D.__call__`, under jit and vmap."""
    fp, results = _tuple_results()
    stacked, apart, by_call, over_queries, *vmapped = results[method]
    assert stacked.shape == (3, 2, 4, 5, 3)
    np.testing.assert_allclose(stacked, np.stack(apart), rtol=0, atol=1e-13)
    np.testing.assert_allclose(by_call, stacked, rtol=0, atol=1e-13)
    # vmap over the query rows: each row's (2, 0) orders, stacked after the batch axis
    np.testing.assert_allclose(
        over_queries, np.moveaxis(np.asarray(stacked)[[2, 0]], 2, 0), rtol=0, atol=1e-13
    )
    if vmapped:
        assert vmapped[0].shape == (2, 2, 5)
        np.testing.assert_allclose(vmapped[0], np.stack(vmapped[1]), rtol=0, atol=1e-13)


def test_derivative_tuple_eagerly_and_through_the_interpolator():
    fp = np.sin(DT_XP)
    stacked = interp1d(DT_X, DT_XP, fp, "monotonic", derivative=(0, 3))
    assert stacked.shape == (2, 4, 5)
    fitted = Interpolator1D(DT_XP, fp, "monotonic")
    np.testing.assert_allclose(fitted(DT_X, (0, 3)), stacked, rtol=0, atol=1e-13)
    np.testing.assert_allclose(fitted(DT_X, 3), stacked[1], rtol=0, atol=1e-13)


def test_derivative_tuples_with_repeats_and_orders_past_the_degree():
    """Repeated orders repeat; orders past 3 are exact zeros; a huge order compiles in
    no time; a NaN query stays NaN past the degree."""
    xp = np.array([0.0, 0.5, 1.3, 2.0, 3.1])
    fp, x = np.sin(xp), np.array([0.2, 1.0, 2.5, np.nan])
    out = np.asarray(interp1d(x, xp, fp, "makima", derivative=(1, 4, 1, 10**6, 0)))
    assert out.shape == (5, 4)
    np.testing.assert_array_equal(out[0], out[2])
    assert np.all(out[[1, 3], :3] == 0) and np.all(np.isnan(out[:, 3]))
    single = interp1d(x[:3], xp, fp, "makima", derivative=1)
    np.testing.assert_allclose(out[0, :3], single, rtol=1e-15)


@pytest.mark.parametrize(
    "derivative, error",
    [
        ((), ValueError),
        ((0, -1), ValueError),
        ((0, 1.5), TypeError),
        ((True,), TypeError),
        ((0, np.float64(1)), TypeError),
        ([], ValueError),
    ],  # fmt: skip
    ids=str,
)
def test_bad_derivative_tuples_raise(derivative, error):
    with pytest.raises(error, match="`derivative`"):
        interp1d(DT_X, DT_XP, np.sin(DT_XP), "akima", derivative=derivative)
    with pytest.raises(error, match="`derivative`"):
        _fitted_akima()(DT_X, derivative)


@functools.cache
def _fitted_akima():
    return Interpolator1D(DT_XP, np.sin(DT_XP), "akima")


# ------------------------------------------------------------------ 6. c, fx errors

E_XP = np.array([0.0, 1.0, 2.5, 3.0, 4.5])
E_FP = np.array([0.0, 1.0, -1.0, 0.5, 2.0])

BAD_OPTIONS = [
    ("c for cubic", dict(method="cubic", c=0.5), ValueError, "`c`"),
    ("c for cubic2", dict(method="cubic2", c=0.0), ValueError, "`c`"),
    ("c for catmull-rom", dict(method="catmull-rom", c=0.0), ValueError, "`c`"),
    ("c for linear", dict(method="linear", c=0.5), ValueError, "`c`"),
    ("c below 0", dict(method="cardinal", c=-0.1), ValueError, "`c`"),
    ("c above 1", dict(method="cardinal", c=1.5), ValueError, "`c`"),
    ("c nan", dict(method="cardinal", c=np.nan), ValueError, "`c`"),
    ("c of shape (2,)", dict(method="cardinal", c=np.array([0.1, 0.2])), ValueError, "`c`"),
    ("complex c", dict(method="cardinal", c=0.5 + 0.1j), TypeError, "`c`"),
    ("fx for linear", dict(method="linear", fx=E_FP), ValueError, "`fx`"),
    ("fx for nearest", dict(method="nearest", fx=E_FP), ValueError, "`fx`"),
    ("fx of wrong shape", dict(method="cubic", fx=E_FP[:-1]), ValueError, "`fx`"),
    ("fx with columns", dict(method="akima", fx=np.ones((5, 2))), ValueError, "`fx`"),
    ("fx and bc_type", dict(method="cubic2", fx=E_FP, bc_type="natural"), ValueError, "`bc_type`"),
    ("fx not finite", dict(method="cubic", fx=np.array([0.0, 1.0, np.nan, 0.5, 2.0])), ValueError,
     r"`fx\[2\]` = nan"),
] + [
    (f"bc_type for {m}", dict(method=m, bc_type="natural"), ValueError, "`bc_type`")
    for m in LOCAL
]  # fmt: skip


@pytest.mark.parametrize("kwargs, error, name", [c[1:] for c in BAD_OPTIONS],
                         ids=[c[0] for c in BAD_OPTIONS])  # fmt: skip
def test_bad_c_fx_and_bc_type_raise(kwargs, error, name):
    kwargs = dict(kwargs)
    method = kwargs.pop("method")
    with pytest.raises(error, match=name):
        interp1d(E_XP, E_XP, E_FP, method, **kwargs)
    with pytest.raises(error, match=name):
        Interpolator1D(E_XP, E_FP, method, **kwargs)
    if "fx" not in kwargs and method != "linear":
        with pytest.raises(error, match=name):
            approx_df(E_XP, E_FP, method, **kwargs)


@pytest.mark.parametrize("method", ["linear", "nearest", "spline"])
def test_approx_df_needs_a_cubic_method(method):
    with pytest.raises(ValueError, match="`method`"):
        approx_df(E_XP, E_FP, method)


@functools.cache
def _traced_tension():
    interp = jax.jit(lambda c: interp1d(np.linspace(-1, 5, 7), E_XP, E_FP, "cardinal", c=c,
                                        extrap=True))  # fmt: skip
    slopes = jax.jit(lambda c: approx_df(E_XP, E_FP, "cardinal", c=c))
    return interp, slopes


@pytest.mark.parametrize("c", [-0.5, 1.5, np.nan, np.inf])
def test_traced_tension_outside_its_range_gives_nan(c):
    interp, slopes = _traced_tension()
    assert np.all(np.isnan(interp(c))), interp(c)
    assert np.all(np.isnan(slopes(c))), slopes(c)


@pytest.mark.parametrize("c", [0.0, 0.3, 1.0])
def test_traced_tension_inside_its_range_matches_eager(c):
    interp, slopes = _traced_tension()
    eager = interp1d(np.linspace(-1, 5, 7), E_XP, E_FP, "cardinal", c=c, extrap=True)
    np.testing.assert_allclose(interp(c), eager, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(slopes(c), approx_df(E_XP, E_FP, "cardinal", c=c), rtol=1e-14)


def test_periodic_fx_needs_matching_end_slopes():
    closed = np.append(E_XP, 6.0)
    fp = np.append(E_FP, E_FP[0])
    fx = np.array([1.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="`fx`"):
        interp1d(E_XP, closed, fp, "cubic", period=6.0, fx=fx)


# ------------------------------------------------------------------------ 7. gradients

G_XP = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])
# Generic for every rule: secants 1.14, 0.5, −1.22, −1.25, 0.92 (no zero, no two
# equal, no two summing to zero; a sign change at knots 2 and 4, so PCHIP's
# zero slopes stay zero); PCHIP's end estimates 1.44 and 2.27 are clear of 0
# and of 3|m_end|.  Queries ≥ 0.3 from every knot.
G_FP = np.array([0.1, 0.9, 1.3, 0.2, -0.8, 0.4])
G_X = np.array([0.3, 1.1, 2.0, 3.9])


# Order 2 in both modes for the two branching rules (PCHIP, Akima: divisions
# by secants and weights under `where`), ~8 s each op by op; order 1 for the
# rest, whose code they share (monotonic-0 is monotonic's interior, makima
# Akima with two more terms) or which are sums and quotients of secants and
# width ratios (cubic, catmull-rom, cardinal — linear in the values and in c).
# The order-2 checks of all seven would take ~45 s.  (cubic2: test_grad.py.)
GRAD_ORDER = {"cubic": 1, "catmull-rom": 1, "cardinal": 1, "monotonic": 2, "monotonic-0": 1,
              "akima": 2, "makima": 1}  # fmt: skip


@pytest.mark.parametrize("method", LOCAL)
def test_check_grads_x_xp_fp(method):
    """Forward and reverse w.r.t. queries, knots and values (cardinal: and c).

    Op by op (`jax.disable_jit`): see the module docstring.
    """
    if method == "cardinal":

        def f(x, xp, fp, c):
            return interp1d(x, xp, fp, method, c=c)

        args = (G_X, G_XP, G_FP, np.float64(TENSION))
    else:

        def f(x, xp, fp):
            return interp1d(x, xp, fp, method)

        args = (G_X, G_XP, G_FP)
    with jax.disable_jit():
        check_grads(f, args, order=GRAD_ORDER[method], modes=("fwd", "rev"))


def test_check_grads_given_slopes():
    def f(x, xp, fp, fx):
        return interp1d(x, xp, fp, "akima", fx=fx, derivative=1)

    with jax.disable_jit():
        check_grads(f, (G_X, G_XP, G_FP, np.cos(G_XP)), order=1, modes=("fwd", "rev"))


# A flat first cell, a sign change, three equal values at the end (two zero
# secants in a row: Akima's weights both vanish, PCHIP's end estimate is 0);
# queries on knots too.  The shapes of G_*: the op-by-op programs are cached.
ROUGH_FP = np.array([1.0, 1.0, 2.0, -1.0, -1.0, -1.0])
ROUGH_X = np.array([0.0, 0.7, 2.0, 4.5])


def _rough_gradients(method):
    """Gradients where the rules meet zero secants, sign changes and zero weights."""

    def loss(x, xp, fp):
        return jnp.sum(interp1d(x, xp, fp, method) ** 2)

    with jax.disable_jit():
        return jax.grad(loss, argnums=(0, 1, 2))(ROUGH_X, G_XP, ROUGH_FP)


@pytest.mark.parametrize("method", DATA_DEPENDENT)
def test_gradients_are_finite_at_flat_runs_and_sign_changes(method):
    names = ("x", "xp", "fp")
    for name, g in zip(names, _rough_gradients(method)):
        assert np.all(np.isfinite(g)), (method, name, g)


# ---------------------------------------------------------------------- 8. transforms


def _count_compiles(jitted, call):
    with compiles(jitted) as counter:
        jax.block_until_ready(call())
    return counter.count


RC_QUERIES = 13  # a query length no other test uses


@pytest.mark.parametrize("method", LOCAL + ("cubic-fx",))  # the others: test_jit.py
def test_new_data_of_the_same_shape_does_not_recompile(method):
    rng = np.random.default_rng(8)

    def call():
        xp = np.cumsum(rng.uniform(0.3, 1.0, 6))
        x, fp = rng.uniform(xp[0], xp[-1], RC_QUERIES), rng.normal(size=(6, 2))
        if method == "cubic-fx":
            return interp1d(x, xp, fp, "cubic", fx=rng.normal(size=(6, 2)))
        c = {"c": rng.uniform()} if method == "cardinal" else {}
        return interp1d(x, xp, fp, method, **c)

    assert _count_compiles(_interp1d, call) <= 1
    assert _count_compiles(_interp1d, call) == 0, f"{method}: new data recompiled"


@functools.cache
def _vmap_results():
    rng = np.random.default_rng(9)
    grids = np.cumsum(rng.uniform(0.2, 1.5, (3, 8)), axis=1) - 1.0  # distinct grids
    values = rng.normal(size=(3, 8, 2))
    tension = np.array([0.0, 0.5, 0.9])
    x = np.linspace(-1.0, 8.0, 10)

    def f(xp, fp, c, m):
        kw = {"c": c} if m == "cardinal" else {}
        return interp1d(x, xp, fp, m, derivative=(0, 1), extrap=True, **kw)

    @jax.jit
    def run():
        return {
            m: (jax.vmap(functools.partial(f, m=m))(grids, values, tension),
                [f(*args, m=m) for args in zip(grids, values, tension)])
            for m in METHODS
        }  # fmt: skip

    return run()


@pytest.mark.parametrize("method", METHODS)
def test_vmap_over_grids_equals_a_loop(method):
    vmapped, looped = _vmap_results()[method]
    assert vmapped.shape == (3, 2, 10, 2)
    np.testing.assert_allclose(vmapped, np.stack(looped), rtol=0, atol=1e-13)


L_XP = np.linspace(0.0, 2.0, 40) ** 1.5
L_FP = np.sin(3 * L_XP)
L_X = np.linspace(0.1, 2.5, 16)


PERIODIC_LOWERING = ("cubic2", "akima")  # the periodic fit is the same code for every rule


@pytest.mark.parametrize("method", METHODS)
def test_cuda_program_has_no_loop_conditional_or_callback(method):
    """Forward and reverse (w.r.t. x, xp, fp, c, fx) programs; periodic with a traced
    period (both closings, selected per element) for two methods."""
    cubic = method in CUBIC

    def program(x, xp, fp, c, fx, period):
        def loss(x, xp, fp, c, fx):
            out = interp1d(x, xp, fp, method, extrap=True, derivative=(0, 1),
                           **_options(method, c))  # fmt: skip
            if cubic:
                out = out + interp1d(x, xp, fp, method, fx=fx, extrap=True)
            return jnp.sum(out**2)

        periodic = None
        if method in PERIODIC_LOWERING:
            periodic = interp1d(x, xp, fp, method, period=period)
        return jax.value_and_grad(loss, argnums=(0, 1, 2, 3, 4))(x, xp, fp, c, fx), periodic

    text = lowered_text(program, L_X, L_XP, L_FP, 0.3, np.cos(L_XP), 4.0, platform="cuda")
    for forbidden in ("stablehlo.while", "stablehlo.case", "stablehlo.if", "callback"):
        assert forbidden not in text, (method, forbidden)
