"""Scale-free fits: the answer must not depend on the units of x.

A cubic spline is invariant under x → S·x: the spline through (S·u_i, f_i)
evaluated at S·u is the spline through (u_i, f_i) evaluated at u, and its k-th
derivative is scaled by S^-k (boundary derivative values scale the same way:
f'(x) = v ⇔ df/du = v·S).  So every reference here is scipy's `CubicSpline`
(or `np.interp`) in f64 *in u = x / S*, on the inputs after rounding to the
test's dtype.  Working in u keeps the reference itself finite: scipy's PPoly
coefficients are in physical units, and at S = 1e-250 they overflow f64.

Targets: values within 2e-6·max|f| (f32) and 1e-12·max|f| (f64)
for S from 1e-30 to 1e30 (f32) and 1e-250 to 1e250 (f64), on plain, offset and
random well-spaced grids.  Derivatives of order k within tol_k·max|f^(k)|:
f32 tol_k = 2e-6·10^k, because forming the k-th derivative divides by h^k and
multiplies by t-powers whose rounding (a few ulps of h and of t per order,
amplified by max|f|/h^k ÷ max|f^(k)| = (14/6)^k for these data) costs roughly
a decimal digit per order; f64 tol_k = 1e-11.  (Measured at spans 1e-6..1e6
(f32) and 1e-50..1e50 (f64): f32 errors 6e-8, 5e-7, 4e-6, 3e-5 for k = 0..3;
f64 1e-15, 5e-15, 2e-14, 9e-14.)  A derivative order is skipped at a span only
when scipy's f64 reference for it is not representable in the dtype's normal range
(with a 64× margin, since a sound implementation may form max|f|/h^k ≈ 13× the
result before the last multiply) — decided from the reference, never hard-coded.

Each test loops over spans inside one compiled program (spans are data, not
shapes) and reports every failing span at once.

Beyond the range of dy/dx: every cubic method with values far smaller or
larger than the knots (dy/dx = 1e∓60 in f32, whose values are fine), extrapolated, and
cubic2's end conditions; few knots whose neighbouring gaps sum past the largest float;
grids whose span overflows.

At extreme spans, derivatives up to 3 wherever they are representable (1/h applied
one factor at a time), and large values on large float32 spans.  The local methods
(values inside the cells and `approx_df`'s knot slopes) at spans and values from
1e-30 to 1e30 (f32) and 1e±250 (f64), and at float32 secants near the top of the
range (PCHIP's harmonic mean, makima's extrapolated secants).
"""

from functools import partial

import hypothesis.strategies as st
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _references import LOCAL_METHODS, method_options, reference_slopes
from hypothesis import assume, given, settings
from jax.test_util import check_grads

import splines

N = 15
FRACS = (0.1, 0.5, 0.9)  # queries strictly inside cells (f''' jumps at knots)
DTYPES = [pytest.param(np.float32, id="f32"), pytest.param(np.float64, id="f64")]
VALUE_TOL = {np.float32: 2e-6, np.float64: 1e-12}
ORDERS = (0, 1, 2, 3)
MARGIN = 64.0
SPANS = {
    np.float32: [1e-30, 1e-20, 1e-13, 1e-11, 1e-6, 1.0, 1e6, 1e11, 1e13, 1e20, 1e30],
    np.float64: [1e-250, 1e-200, 1e-100, 1e-50, 1e-13, 1.0, 1e13, 1e50, 1e100, 1e200, 1e250],
}
LOG_SPAN = {np.float32: 30.0, np.float64: 250.0}
KINDS = ["not-a-knot", "natural", "clamped", "periodic", "mixed", "period"]  # cubic2


def _derivative_tol(dtype, k):
    if dtype is np.float32:
        return VALUE_TOL[np.float32] * 10.0**k  # ~one decimal digit per order, see module doc
    return VALUE_TOL[np.float64] if k == 0 else 1e-11


def _grid(name):
    """Knot positions in units of the span (u = x / S)."""
    u = np.linspace(0.0, 1.0, N)
    if name == "offset":
        return 1.0 + u
    if name == "random":
        gaps = np.random.default_rng(7).uniform(0.5, 1.5, N - 1)  # neighbour ratio ≤ 3
        return np.concatenate([[0.0], np.cumsum(gaps)]) / gaps.sum()
    return u


GRIDS = ["uniform", "offset", "random"]


def _representable(value, dtype):
    with np.errstate(over="ignore", under="ignore"):
        v = abs(float(np.asarray(value, dtype)))
    return float(np.finfo(dtype).tiny) <= v <= float(np.finfo(dtype).max)


class Case:
    """One fit at span S: physical inputs in `dtype` and scipy's spline in u."""

    def __init__(self, kind, u, span, dtype):
        self.kind, self.span, self.dtype = kind, span, dtype
        xp = np.asarray(span * u, dtype)
        ur = xp.astype(np.float64) / span  # the rounded knots, in u
        periodic = kind in ("periodic", "period")
        fp = np.sin((2 * np.pi if periodic else 6.0) * ur).astype(dtype)
        self.kwargs, bc, self.ok = {}, "not-a-knot", True
        if kind == "periodic":
            fp[-1] = fp[0]
            bc = self.kwargs["bc_type"] = "periodic"
        elif kind in ("natural", "clamped"):
            bc = self.kwargs["bc_type"] = kind
        elif kind == "mixed":  # f'(x0) = 0.3/S, f''(xn) = -2/S², given in physical units
            with np.errstate(over="ignore", under="ignore", divide="ignore"):
                v1, v2 = 0.3 / span, -2.0 / span / span
            self.ok = _representable(v1, dtype) and _representable(v2, dtype)
            self.kwargs["bc_type"] = ((1, float(v1)), (2, float(v2)))
            if self.ok:
                v1r, v2r = float(np.asarray(v1, dtype)), float(np.asarray(v2, dtype))
                bc = ((1, v1r * span), (2, v2r * span * span))
        elif kind == "period":
            closing = float(np.asarray(xp[0], dtype) + np.asarray(span, dtype))
            ur = np.append(ur[:-1], closing / span)
            xp, fp = xp[:-1], fp[:-1]
            self.kwargs["period"] = span
            bc = "periodic"
        fp64 = fp.astype(np.float64)
        self.xp, self.fp = xp, fp
        self.ur = ur  # knots of the reference, in u (closed for "period")
        ref_fp = np.append(fp64, fp64[0]) if kind == "period" else fp64
        if kind == "linear":
            self.spline = None
            self.ref_fp = ref_fp
        elif self.ok:
            self.spline = si.CubicSpline(ur, ref_fp, bc_type=bc)
        self.scale = float(np.max(np.abs(fp64)))

    def queries(self, for_values):
        """Physical queries in `dtype`, and the same points in u (f64).

        Values: every knot and points inside every cell.  Derivatives: points
        inside every cell and the end knots (f''' jumps at interior knots, where
        rounding x/S could pick the other side; at an end there is one side).
        """
        ur = self.ur
        inner = [ur[:-1] + f * np.diff(ur) for f in FRACS]
        knots = ur[:-1] if self.kind == "period" else ur  # not the closing point: it wraps
        ends = knots[[0]] if self.kind == "period" else knots[[0, -1]]
        u = np.concatenate(([knots] if for_values else [ends]) + inner)
        x = np.asarray(u * self.span, self.dtype)
        return x, x.astype(np.float64) / self.span

    def reference(self, uq, k=0):
        """scipy's k-th derivative in physical units (f64; may be inf/0 if not representable)."""
        if self.kind == "linear":
            return np.interp(uq, self.ur, self.ref_fp)
        ref = self.spline(uq, k)
        with np.errstate(over="ignore", under="ignore"):
            for _ in range(k):
                ref = ref / self.span
        return ref


def _what(case, api, k=0):
    return (
        f"SCALE defect ({api}, {case.kind}, {np.dtype(case.dtype).name}, span={case.span:g}, "
        f"derivative {k})"
    )


def _check(failures, what, ours, ref, scale, tol, dtype):
    ours = np.asarray(ours)
    if ours.dtype != dtype:
        failures.append(f"{what}: output dtype {ours.dtype}, expected {np.dtype(dtype).name}")
        return
    err = float(np.max(np.abs(ours.astype(np.float64) - ref))) / scale
    if not err <= tol:  # NaN-safe
        failures.append(f"{what}: max error {err:.3g} × max|ref| exceeds {tol:.1g}")


def _derivative_in_range(ref, dtype):
    tiny, largest = float(np.finfo(dtype).tiny), float(np.finfo(dtype).max)
    m = float(np.max(np.abs(ref)))
    return np.isfinite(m) and MARGIN * tiny <= m <= largest / MARGIN


def _values_failures(kind, u, span, dtype):
    case = Case(kind, u, span, dtype)
    if not case.ok:
        return None
    x, uq = case.queries(for_values=True)
    method = "linear" if kind == "linear" else "cubic2"
    failures = []
    try:
        ours = splines.interp1d(x, case.xp, case.fp, method, **case.kwargs)
    except Exception as e:  # noqa: BLE001 - report, do not stop the sweep
        return [f"{_what(case, 'interp1d')}: raised {type(e).__name__}: {e}"]
    ref = case.reference(uq)
    _check(failures, _what(case, "interp1d"), ours, ref, case.scale, VALUE_TOL[dtype], dtype)
    return failures


@partial(jax.jit, static_argnames="orders")
def _derivatives(interpolator, x, orders=ORDERS):
    """All orders of one fitted interpolant in one compiled program."""
    return [interpolator(x, d) for d in orders]


def _bc_value_failures(case, outs, scales):
    """f'(xp[0]) = 0.3/S and f''(xp[-1]) = -2/S², in physical units (queries 0 and 1),
    to the derivative tolerance relative to max|f^(k)| (``scales[k]``)."""
    failures = []
    (_, v1), (_, v2) = case.kwargs["bc_type"]
    for k, got, want in [(1, outs[1][0], v1), (2, outs[2][1], v2)]:
        if k not in scales:
            continue  # f^(k) not representable at this span
        want = float(np.asarray(want, case.dtype))
        got = float(got)
        if not abs(got - want) <= _derivative_tol(case.dtype, k) * scales[k]:
            failures.append(
                f"{_what(case, 'bc values in physical units', k)}: f^({k}) at the end is "
                f"{got:.6g}, the boundary value is {want:.6g}"
            )
    return failures


def _report(failures, tested, what):
    assert tested, f"test setup: no span was representable for {what}"
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("grid", GRIDS)
@pytest.mark.parametrize("kind", KINDS + ["linear"])
def test_values_are_scale_free(kind, grid, dtype):
    """interp1d at every span matches scipy (np.interp for linear) in u."""
    failures, tested = [], 0
    for span in SPANS[dtype]:
        result = _values_failures(kind, _grid(grid), span, dtype)
        if result is not None:
            tested += 1
            failures += result
    _report(failures, tested, kind)


# --------------------------------------------------------------------------- derivatives


# Derivatives for one end kind of each sort (not-a-knot; order 2; orders 1 and 2
# with values; periodic): every kind costs two more compiled programs.
DERIVATIVE_KINDS = ["not-a-knot", "natural", "mixed", "period"]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("grid", ["uniform", "offset"])
@pytest.mark.parametrize("kind", DERIVATIVE_KINDS)
def test_interpolator_derivatives_are_scale_free(kind, grid, dtype):
    """Interpolator1D, orders 0..3, relative to max|f^(k)| of scipy's derivative."""
    failures, tested, orders_checked = [], 0, set()
    for span in SPANS[dtype]:
        case = Case(kind, _grid(grid), span, dtype)
        if not case.ok:
            continue
        tested += 1
        x, uq = case.queries(for_values=False)
        try:
            outs = _derivatives(
                splines.Interpolator1D(case.xp, case.fp, "cubic2", **case.kwargs), x
            )
        except Exception as e:  # noqa: BLE001
            failures.append(f"{_what(case, 'Interpolator1D')}: raised {type(e).__name__}: {e}")
            continue
        scales = {}
        for k, out in zip(ORDERS, outs):
            ref = case.reference(uq, k)
            if not _derivative_in_range(ref, dtype):
                continue  # f^(k) itself over/underflows the dtype at this span
            orders_checked.add(k)
            scales[k] = float(np.max(np.abs(ref)))
            what = _what(case, "Interpolator1D", k)
            _check(failures, what, out, ref, scales[k], _derivative_tol(dtype, k), dtype)
        if kind == "mixed":
            failures += _bc_value_failures(case, outs, scales)
    assert orders_checked == set(ORDERS), f"test setup: orders checked {orders_checked}"
    _report(failures, tested, kind)


# --------------------------------------------------------------------------- property


def _property(dtype, log_span, offset, kind):
    span = 10.0**log_span
    result = _values_failures(kind, offset + _grid("uniform"), span, dtype)
    assume(result is not None)
    assert not result, "\n".join(result)


KINDS_ALL = st.sampled_from(KINDS + ["linear"])


@settings(max_examples=30, deadline=None, database=None)
@given(
    log_span=st.floats(-LOG_SPAN[np.float32], LOG_SPAN[np.float32]),
    offset=st.floats(-2.0, 2.0),
    kind=KINDS_ALL,
)
def test_property_scale_free_f32(log_span, offset, kind):
    _property(np.float32, log_span, offset, kind)


@settings(max_examples=30, deadline=None, database=None)
@given(
    log_span=st.floats(-LOG_SPAN[np.float64], LOG_SPAN[np.float64]),
    offset=st.floats(-2.0, 2.0),
    kind=KINDS_ALL,
)
def test_property_scale_free_f64(log_span, offset, kind):
    _property(np.float64, log_span, offset, kind)


def test_unit_span_control():
    """Control: at S = 1 every kind passes in both dtypes (the harness itself is right)."""
    for dtype in (np.float32, np.float64):
        for kind in KINDS + ["linear"]:
            result = _values_failures(kind, _grid("uniform"), 1.0, dtype)
            assert result == [], result
    assert jnp.zeros(()).dtype == jnp.float64  # conftest turned x64 on


# ---------------------------------------------------------- slopes that dy/dx cannot hold

# The slope rules give each knot's slope in units of its cell (`_slopes._units`), so
# values and derivatives are right when dy/dx itself is not representable (values of
# 1e-30 on knots 1e30 apart: dy/dx = 1e-60 in f32) and when two neighbouring gaps sum
# past the largest float.  Each family holds scales that differ only in data, one
# compiled program per dtype and knot count; a derivative order is checked where
# scipy's reference is representable (as above), and every order 0..2 somewhere.
EXTREME_METHODS = ("cubic2", "monotonic", "akima", "makima", "cubic", "catmull-rom",
                   "cardinal", "monotonic-0")  # fmt: skip
EXTREME_ORDERS = (0, 1, 2)
CUBIC2_ENDS = ("natural", "clamped", "mixed", "periodic")
# (knot scale X, value scale F) per direction; knots X·(u + 1), values F·v.
EXTREME_SCALES = {
    (np.float32, "tiny slopes"): [(1e30, 1e-30), (1e18, 1e-18), (1e9, 1e-17)],
    (np.float32, "huge slopes"): [(1e-30, 1e30), (1e-18, 1e18), (1e-9, 1e17)],
    (np.float64, "tiny slopes"): [(1e300, 1e-300), (1e150, 1e-150), (1e75, 1e-150)],
    (np.float64, "huge slopes"): [(1e-300, 1e300), (1e-150, 1e150), (1e-75, 1e150)],
}
# Few knots whose neighbouring gaps sum past the largest float (every gap is fine).
HUGE_GAPS = {np.float32: 2e38, np.float64: 1e308}
FEW_KNOTS = {3: np.array([-1.0, 0.0, 1.5]), 4: np.array([-1.5, -0.5, 0.4, 1.5])}
EXTREME_U = np.concatenate([[0.0], np.cumsum(np.random.default_rng(3).uniform(0.5, 1.5, 8))])
EXTREME_U = 1.0 + EXTREME_U / EXTREME_U[-1]  # 9 knots in [1, 2], neighbour ratio ≤ 3


def _reference_spline(method, u, v, bc="not-a-knot"):
    if method == "cubic2":
        return si.CubicSpline(u, v, bc_type=bc)
    if method == "monotonic":
        return si.PchipInterpolator(u, v)
    if method in ("akima", "makima"):
        return si.Akima1DInterpolator(u, v, method=method)
    return si.CubicHermiteSpline(u, v, reference_slopes(method, u, v))


def _normal_or_zero(value, dtype):
    """A boundary value in `dtype`, 0 where it is not a normal number there."""
    return float(np.asarray(value, dtype)) if _representable(value, dtype) else 0.0


class ExtremeCase:
    """Inputs in `dtype` at knot scale X and value scale F, and scipy's splines in u = x/X."""

    def __init__(self, u, X, F, dtype, period: bool = True):
        self.X, self.F, self.dtype = X, F, dtype
        self.xp = np.asarray(u * X, dtype)
        self.u = self.xp.astype(np.float64) / X
        self.fp = np.asarray(np.sin(3 * self.u) * F, dtype)
        self.v = self.fp.astype(np.float64) / F
        # queries inside the cells, and outside both ends (extrap=True)
        inner = np.concatenate([self.u[:-1] + f * np.diff(self.u) for f in FRACS])
        below, above = (
            self.u[0] - 0.1 * (self.u[1] - self.u[0]),
            self.u[-1] + 0.1 * (self.u[-1] - self.u[-2]),
        )
        self.x, self.uq = self._queries(inner)
        self.x_out, self.uq_out = self._queries(np.array([below, above]))
        with np.errstate(over="ignore", under="ignore"):  # f'(x_0) = 0.3 F/X, f''(x_n) = −2 F/X²
            self.bc = (_normal_or_zero(0.3 * F / X, dtype), _normal_or_zero(-2 * F / X / X, dtype))
        self.period = period
        if period:  # the open knots; the period closes them at X·(u_0 + 1) (rounded)
            closing = float(self.xp[0] + np.asarray(X, dtype))
            self.u_closed = np.append(self.u[:-1], closing / X)
            self.fp_open = np.asarray(np.sin(2 * np.pi * self.u[:-1]) * F, dtype)
            self.v_closed = np.append(self.fp_open, self.fp_open[0]).astype(np.float64) / F
            inner = np.concatenate([self.u_closed[:-1] + f * np.diff(self.u_closed)
                                    for f in FRACS])  # fmt: skip
            self.x_period, self.uq_period = self._queries(inner)

    def _queries(self, u):
        x = np.asarray(u * self.X, self.dtype)
        return x, x.astype(np.float64) / self.X

    def inputs(self):
        c = self
        periodic = ((c.xp[:-1], c.fp_open, np.asarray(c.X, c.dtype), c.x_period) if c.period
                    else (None,) * 4)  # fmt: skip
        return (
            c.x,
            c.x_out,
            c.xp,
            c.fp,
            np.asarray(c.bc[0], c.dtype),
            np.asarray(c.bc[1], c.dtype),
        ) + periodic

    def references(self):
        """{name: (splines in u, queries in u)} for every output of `_extreme_fits`."""
        u, v = self.u, self.v
        refs = {}
        for m in EXTREME_METHODS:
            spline = _reference_spline(m, u, v)
            refs[m], refs[m + " extrap"] = (spline, self.uq), (spline, self.uq_out)
        bc1, bc2 = self.bc[0] * self.X / self.F, self.bc[1] * self.X * self.X / self.F
        for name, bc in [("natural", "natural"), ("clamped", "clamped"),
                         ("mixed", ((1, bc1), (2, bc2)))]:  # fmt: skip
            refs["cubic2 " + name] = (_reference_spline("cubic2", u, v, bc), self.uq)
        if self.period:
            closed = si.CubicSpline(self.u_closed, self.v_closed, bc_type="periodic")
            refs["cubic2 periodic"] = (closed, self.uq_period)
        return refs


@partial(jax.jit, static_argnames="extrap")
def _extreme_fits(x, x_out, xp, fp, bc1, bc2, xp_p, fp_p, period, x_p, extrap=True):
    """Every method (and cubic2 end) at orders 0..2: one program per dtype and shape
    (``period`` None: no periodic fit)."""
    orders = EXTREME_ORDERS
    out = {}
    for m in EXTREME_METHODS:
        options = method_options(m)
        out[m] = splines.interp1d(x, xp, fp, m, derivative=orders, **options)
        if extrap:
            out[m + " extrap"] = splines.interp1d(x_out, xp, fp, m, derivative=orders,
                                                  extrap=True, **options)  # fmt: skip
    for bc in ("natural", "clamped"):
        out["cubic2 " + bc] = splines.interp1d(x, xp, fp, "cubic2", bc_type=bc, derivative=orders)
    out["cubic2 mixed"] = splines.interp1d(x, xp, fp, "cubic2", bc_type=((1, bc1), (2, bc2)),
                                           derivative=orders)  # fmt: skip
    if period is not None:
        out["cubic2 periodic"] = splines.interp1d(x_p, xp_p, fp_p, "cubic2", period=period,
                                                  derivative=orders)  # fmt: skip
    return out


def _extreme_failures(case, checked, extrap=True):
    """Compare every output with scipy (orders where representable); note checked orders."""
    dtype, failures = case.dtype, []
    outs = _extreme_fits(*case.inputs(), extrap=extrap)
    for name, (spline, uq) in case.references().items():
        if name not in outs:
            continue
        for k, ours in zip(EXTREME_ORDERS, outs[name]):
            ref = spline(uq, k) * case.F
            with np.errstate(over="ignore", under="ignore"):
                for _ in range(k):
                    ref = ref / case.X
            if not _derivative_in_range(ref, dtype):
                continue
            checked.add(k)
            what = f"{name}, {np.dtype(dtype).name}, X={case.X:g}, F={case.F:g}, derivative {k}"
            _check(failures, what, ours, ref, float(np.max(np.abs(ref))),
                   _derivative_tol(dtype, k), dtype)  # fmt: skip
    return failures


@pytest.mark.parametrize("dtype", DTYPES)
def test_slopes_beyond_the_range_of_dy_dx(dtype):
    """Values 1e∓30 on knots 1e±30 apart (f32; 1e∓300 on 1e±300, f64) and two milder
    scales each way: every cubic method, extrapolated too, and cubic2's ends, match
    scipy.  (Both directions in one test: one compiled program.)"""
    failures = []
    for direction in ("tiny slopes", "huge slopes"):
        checked = set()
        for X, F in EXTREME_SCALES[dtype, direction]:
            failures += _extreme_failures(ExtremeCase(EXTREME_U, X, F, dtype), checked)
        assert checked == set(EXTREME_ORDERS), f"test setup: {direction}: orders {checked}"
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("n", sorted(FEW_KNOTS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_neighbouring_gaps_summing_past_the_largest_float(dtype, n):
    """Knots ±2e38 (f32) / ±1e308 (f64) apart: each gap is representable, the sum of two
    is not (as the span): values and derivatives match scipy, no NaN.  (No periodic
    fit: its period, the span, is not representable; extrapolation is tested above.)"""
    case = ExtremeCase(FEW_KNOTS[n], HUGE_GAPS[dtype], 1.0, dtype, period=False)
    with np.errstate(over="ignore"):
        assert np.isinf(case.xp[-1] - case.xp[0])  # test setup: the span overflows
    failures = _extreme_failures(case, set(), extrap=False)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("dtype, spacing, atol", [(np.float32, 1e36, 2e-6),
                                                  (np.float64, 1e306, 1e-12)])  # fmt: skip
def test_1d_cubic2_huge_knot_spacing(dtype, spacing, atol):
    """Natural cubic2 on knots 1e36 apart (f32): dy/dx of O(1) data is ~1e-36."""
    xp = (np.arange(6) * dtype(spacing)).astype(dtype)
    fp = np.array([0, 1, 0, -1, 0, 1], dtype)
    x = np.linspace(0, xp[-1], 11).astype(dtype)
    ours = np.asarray(splines.interp1d(x, xp, fp, "cubic2", bc_type="natural"))
    ref = si.CubicSpline(np.arange(6.0), fp.astype(float), bc_type="natural")(x / float(spacing))
    np.testing.assert_allclose(ours, ref, rtol=0, atol=atol)


# ------------------------------------------------ derivative orders at extreme spans


U = np.array([0.0, 0.2, 0.5, 0.7, 1.0])  # uneven unit knots


V = np.array([1.0, -1.0, 0.5, 0.3, -0.2])


UQ = np.array([0.1, 0.6])


@pytest.mark.parametrize(
    "dtype, span, scale",
    [(np.float32, 1e20, 1e30), (np.float32, 1e-20, 1e-30), (np.float32, 1e13, 1.0),
     (np.float64, 1e250, 1e250), (np.float64, 1e-250, 1e-250)],
)  # fmt: skip
def test_higher_derivatives_at_extreme_spans(dtype, span, scale):
    """Derivatives 2 and 3 are right wherever they are representable: 1/h is applied
    one factor at a time (XLA folds (a / h) / h into a / h², which over- or
    underflows; docs/architecture.md §4)."""
    xp, fp, x = (span * U).astype(dtype), (scale * V).astype(dtype), (span * UQ).astype(dtype)
    reference = si.CubicSpline(U, V)  # the same spline in the unit coordinate
    tol = 2e-5 if dtype == np.float32 else 1e-12
    orders = (0, 1, 2, 3)  # one call (one compiled program): the orders stacked first
    out = np.asarray(splines.interp1d(x, xp, fp, "cubic2", derivative=orders), np.float64)
    for d in orders:
        expected = reference(UQ, d) * scale
        with np.errstate(over="ignore"):
            for _ in range(d):
                expected = expected / span  # in f64, one factor at a time
        info = np.finfo(dtype)
        if not np.all((np.abs(expected) > info.tiny * 1e3) & (np.abs(expected) < info.max)):
            continue  # not representable to relative accuracy in this dtype
        np.testing.assert_allclose(out[d], expected, rtol=tol * 10**d, err_msg=f"order {d}")


def test_large_values_on_large_spans_stay_finite():
    """Values 1e30 on float32 knots 1e20 apart: the not-a-knot rows never form h · Δy
    (1e50, past float32)."""
    xp, fp = (1e20 * U).astype(np.float32), (1e30 * V).astype(np.float32)
    got = np.asarray(splines.interp1d((1e20 * UQ).astype(np.float32), xp, fp, "cubic2"), np.float64)
    np.testing.assert_allclose(got, si.CubicSpline(U, V)(UQ) * 1e30, rtol=2e-6)


# ----------------------------------- the local methods' slopes: large secants in float32


# f32 knots 1e-7 apart and values of a few 1e30: secants ~5e37, ~7× below the
# largest float32; every slope and value of the answer is representable, and
# cubic2 / akima / cubic are accurate there.
BIG_XP = (np.arange(6.0) * 1e-7).astype(np.float32)


BIG_V = np.array([0.0, 1.0, 2.5, 3.0, 4.2, 5.0])


BIG_SCALE = 3e30


def _big_case(values, scale):
    fp = (values * scale).astype(np.float32)
    u = np.arange(len(values), dtype=np.float64)  # the unit coordinate x / 1e-7
    return BIG_XP[: len(values)], fp, u, fp.astype(np.float64) / scale


@pytest.mark.parametrize("method", ["monotonic", "monotonic-0"])
def test_pchip_slopes_with_large_secants_f32(method):
    """PCHIP's interior slopes at secants ~5e37: its harmonic mean
    ``1 / (a/m_0 + b/m_1)`` must not form ``a/m`` ≈ 1e-38, below float32's smallest
    normal, which XLA:CPU flushes to zero (the slopes would be 67 % off at secants
    4.5e37, and exactly 0 — a flat monotone spline — from ~8e37)."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    expected = reference_slopes(method, u, v) * BIG_SCALE / 1e-7
    slopes = np.asarray(splines.approx_df(xp, fp, method), np.float64)
    error = np.max(np.abs(slopes - expected)) / np.max(np.abs(expected))
    assert error < 2e-6, f"{method}: slopes {slopes} vs {expected}: {error:.2g}"


def test_pchip_values_with_large_secants_f32():
    """The monotone interpolant's values on the same data, to 2e-6 of max|f|."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    x = (xp[:-1] + np.float32(0.5e-7)).astype(np.float32)
    expected = si.PchipInterpolator(u, v)(x.astype(np.float64) / 1e-7)
    out = np.asarray(splines.interp1d(x, xp, fp, "monotonic"), np.float64) / BIG_SCALE
    error = np.max(np.abs(out - expected)) / np.max(np.abs(v))
    assert error < 2e-6, f"max error {error:.2g} × max|f|"


@pytest.mark.parametrize("method", ["cubic2", "cubic", "akima"])
def test_other_methods_with_large_secants_f32(method):
    """The same data for the methods without reciprocals: accurate slopes."""
    xp, fp, u, v = _big_case(BIG_V, BIG_SCALE)
    if method == "cubic2":
        expected = si.CubicSpline(u, v)(u, 1)
    else:
        expected = reference_slopes(method, u, v)
    slopes = np.asarray(splines.approx_df(xp, fp, method), np.float64) * 1e-7 / BIG_SCALE
    assert np.max(np.abs(slopes - expected)) / np.max(np.abs(expected)) < 2e-6


def test_makima_slopes_with_large_secants_f32():
    """Akima and makima at secants 5e37 (7× below the largest float32): makima's
    ``|m_{i+1} + m_i|`` of the two secants extrapolated beyond the first knot
    (``3 m_0 − 2 m_1`` and ``2 m_0 − m_1``, 5× and 3× the data's secants when those
    change sign) must not overflow, or the inf weight sum would make Akima's cutoff
    inf and every slope the fallback (140 % off)."""
    values = np.array([0.0, 1.0, 0.0, 0.5, 1.5, 1.0])
    xp, fp, u, v = _big_case(values, 5e30)
    for method in ("akima", "makima"):
        expected = reference_slopes(method, u, v) * 5e30 / 1e-7
        slopes = np.asarray(splines.approx_df(xp, fp, method), np.float64)
        error = np.max(np.abs(slopes - expected)) / np.max(np.abs(expected))
        assert error < 2e-6, f"{method}: {error:.2g}"


# -------------------------------------------- the local methods at extreme scales


SCALE_CASES = [  # (dtype, knot span, value scale): slopes max|Δf|/h representable
    (np.float32, 1e-30, 1.0), (np.float32, 1e30, 1.0), (np.float32, 1.0, 1e30),
    (np.float32, 1.0, 1e-30), (np.float32, 1e30, 1e30), (np.float32, 1e-30, 1e-30),
    (np.float64, 1e-250, 1.0), (np.float64, 1e250, 1e250), (np.float64, 1.0, 1e-250),
    (np.float64, 1e-250, 1e-250),
]  # fmt: skip


SC_U = np.concatenate([[0.0], np.cumsum(np.random.default_rng(0).uniform(0.5, 1.5, 11))])


SC_V = np.random.default_rng(1).normal(size=12)


@jax.jit
def _all_local(x, xp, fp):
    """Values and knot slopes of every local method: one program per dtype."""
    return {m: (splines.interp1d(x, xp, fp, m, **method_options(m)),
                splines.approx_df(xp, fp, m, **method_options(m)))
            for m in LOCAL_METHODS}  # fmt: skip


@pytest.mark.parametrize("dtype, span, scale", SCALE_CASES, ids=str)
def test_local_methods_are_scale_free(dtype, span, scale):
    """Values (inside the cells) and knot slopes of every local method at
    spans and values from 1e-30 to 1e30 (f32) and 1e±250 (f64), against the
    reference in the unit coordinate on the rounded inputs."""
    xp, fp = (SC_U * span).astype(dtype), (SC_V * scale).astype(dtype)
    u, v = xp.astype(np.float64) / span, fp.astype(np.float64) / scale
    x = ((u[:-1] + 0.37 * np.diff(u)) * span).astype(dtype)
    q = x.astype(np.float64) / span
    tol = 2e-6 if dtype == np.float32 else 1e-12
    for method, (out, slopes) in _all_local(x, xp, fp).items():
        expected_slopes = reference_slopes(method, u, v)
        expected = si.CubicHermiteSpline(u, v, expected_slopes)(q)
        out = np.asarray(out, np.float64) / scale
        slopes = np.asarray(slopes, np.float64) * span / scale
        value_error = np.max(np.abs(out - expected)) / np.max(np.abs(v))
        slope_error = np.max(np.abs(slopes - expected_slopes)) / np.max(np.abs(expected_slopes))
        assert value_error <= tol and slope_error <= 10 * tol, (method, value_error, slope_error)


# ---------------------------------------------------------- grids at the range's ends


def test_grid_f32_knot_extent_1e38():
    """A grid axis whose span is above 8.5e37 (1/span is subnormal in f32)."""
    xp, yp = np.array([0, 5e37, 1e38], np.float32), np.array([0, 1], np.float32)
    f = np.array([[0, 1], [2, 3], [4, 5]], np.float32)  # f = 2x/5e37 + y: bilinear
    got = splines.interp2d(np.float32(2.5e37), np.float32(0.5), xp, yp, f, "cubic2")
    np.testing.assert_allclose(got, 1.5, rtol=1e-6)


GRID_EXTENTS = {np.float32: 3e38, np.float64: 1e308}
GRID_U = np.array([-1.0, -0.6, -0.1, 0.3, 0.7, 1.0])
GRID_V = np.array([0.0, 0.3, 0.5, 1.0])
GRID_DERIVATIVES = ((0, 0), (1, 0), (0, 1), (1, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_grid_knots_at_the_ends_of_the_range(dtype):
    """Grid knots at ±3e38 (f32) / ±1e308 (f64) along x (the span overflows) and in
    [0, 1] along y: scipy's not-a-knot bicubic (`RectBivariateSpline`) in u = x/X, its
    x-derivatives divided by X where representable."""
    X = GRID_EXTENTS[dtype]
    xp, yp = np.asarray(GRID_U * X, dtype), GRID_V.astype(dtype)
    u, v = xp.astype(np.float64) / X, yp.astype(np.float64)
    fp = np.asarray(np.sin(2 * u)[:, None] * np.cos(3 * v)[None, :] + u[:, None] ** 2, dtype)
    rng = np.random.default_rng(5)
    qx, qy = (
        np.asarray(rng.uniform(-0.95, 0.95, 12) * X, dtype),
        rng.uniform(0, 1, 12).astype(dtype),
    )
    ours = splines.interp2d(qx, qy, xp, yp, fp, "cubic2", derivative=GRID_DERIVATIVES)
    spline = si.RectBivariateSpline(u, v, fp.astype(np.float64), s=0)
    checked = 0
    for (kx, ky), got in zip(GRID_DERIVATIVES, ours):
        want = spline(qx.astype(np.float64) / X, qy.astype(np.float64), dx=kx, dy=ky, grid=False)
        if not _derivative_in_range(want / X**kx, dtype):
            continue  # f_x ~ 1/X is subnormal at these extents
        checked += 1
        got = np.asarray(got, np.float64) * X**kx  # compare in the unit coordinate
        atol = _derivative_tol(dtype, kx + ky) * np.max(np.abs(want))
        np.testing.assert_allclose(got, want, rtol=0, atol=atol, err_msg=f"derivative {(kx, ky)}")
    assert checked >= 2, "test setup: f and f_y at least"


def test_gradients_beyond_the_range_of_dy_dx():
    """d/d(xp, fp, bc value) of cubic2 at knots 1e150 apart and values 1e-150 (f64), in
    unit coordinates (X·u, F·v in, f/F out): the scaled slopes differentiate as the plain
    ones (the other methods' rules at unit scale: test_methods.py)."""
    X, F = 1e150, 1e-150
    u = 8 * EXTREME_U[:6]  # gaps ~1: check_grads' finite differences (eps 1e-4) stay accurate
    v, q = np.sin(u), u[:-1] + 0.4 * np.diff(u)

    def f(u, v, v0):
        ends = ((1, v0 * (F / X)), (2, 0.0))
        return splines.interp1d(X * q, X * u, F * v, "cubic2", bc_type=ends) / F

    check_grads(jax.jit(f), (u, v, np.float64(0.5)), order=1, modes=("fwd", "rev"))
