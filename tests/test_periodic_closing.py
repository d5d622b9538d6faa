"""The closing knot of a period: its tolerance, and traced knots or periods with it.

Tolerance.  Knots may end at ``xp[0] + period`` (the closing knot)
up to rounding: a last knot a few ulps above *or* below ``xp[0] + period``
(k ≤ 8, symmetric) closes the period; one clearly beyond it (span =
period·(1 + 1e-6)) wraps into the period (see below); one clearly below
(span = period·(1 − 1e-6)) leaves the knots open and the period closes them.
Examples: f32 knots ``linspace(0, 2π, 9)`` with ``period=2*np.pi`` (the f32
end is 1.7e-7 above 2π), and f64 knots ``cumsum([0] + [.001]*1000)`` ending
at 1.0000000000000007 with ``period=1.0``.  The tolerance is the knots' own
precision, not the promoted dtype's (f32 knots with f64 values).  One knot with a
period is a constant, so are two closed knots (one distinct knot), also with a
traced period, for every family of slope rules.

Traced.  Traced knots with the closing knot and a concrete period (and a
traced period with concrete knots, closed or open) give the eager values and
finite gradients that match central differences of the eager loss: for each
interior knot, and for the two ends moved together (how a gradient splits
between xp[0] and the closing knot is the implementation's choice; their sum
is the derivative of the open form — knots without the closing one — w.r.t.
its first knot, also checked).  A closing piece one ulp wide, traced, gives the
eager values (1-D and on grids).

Knots past one period (interpax's data: knots over 3π with period 2π) wrap into
it: moved by whole periods, sorted, and merged where they coincide — their values
must agree (concrete: a ValueError naming both knots; traced values: NaN).
Traced knots wrap with a fixed shape, so coinciding ones give NaN values and
gradients.  The same on every axis of a grid and in `interpn`.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _references import method_options

import splines
from splines import Interpolator1D, interp1d

METHODS = ["nearest", "linear", "cubic2"]
TWO_PI = 2 * np.pi


def _ulps(value, k, dtype):
    """``value`` moved by k representable numbers (k < 0: down)."""
    v = np.asarray(value, dtype)
    for _ in range(abs(k)):
        v = np.nextafter(v, np.asarray(np.inf if k > 0 else -np.inf, dtype))
    return v


def _periodic_reference(xc, fc, x):
    """scipy's periodic spline on closed knots (f64), wrapping queries."""
    return si.CubicSpline(xc, fc, bc_type="periodic")(x)


# ------------------------------------------------------------------------ tolerance, f32


def test_f32_linspace_to_two_pi_closes_the_period():
    xp = jnp.linspace(0, 2 * jnp.pi, 9, dtype=jnp.float32)
    fp = jnp.sin(xp)
    assert float(xp[-1]) > TWO_PI  # the f32 end lies above the f64 period
    x = np.array([1.0, 0.2, 3.3, 5.9, 6.2, -1.0, 7.5], np.float32)
    xc = np.asarray(xp, np.float64)
    fc = np.asarray(fp, np.float64)
    fc[-1] = fc[0]
    ref = _periodic_reference(xc, fc, x.astype(np.float64))
    try:
        scalar = interp1d(1.0, xp, fp, "cubic2", period=2 * np.pi)  # a scalar query
        fitted = Interpolator1D(xp, fp, "cubic2", period=2 * np.pi)(x)
    except ValueError as e:
        pytest.fail(f"CLOSING-TOLERANCE defect (f32): the closing knot was rejected: {e}")
    cases = [("interp1d, scalar", scalar, ref[:1]), ("Interpolator1D, array", fitted, ref)]
    for what, got, want in cases:
        got = np.atleast_1d(np.asarray(got))
        assert got.dtype == np.float32, what
        np.testing.assert_allclose(
            got, want, rtol=0, atol=2e-6, err_msg=f"CLOSING-TOLERANCE defect (f32, {what})"
        )


@pytest.mark.parametrize("k", [-8, -3, -1, 1, 3, 8])
def test_f32_closing_knot_k_ulps_off(k):
    xp = np.linspace(0.0, 1.0, 9).astype(np.float32)
    xp[-1] = _ulps(1.0, k, np.float32)
    fp = np.cos(2 * np.pi * xp.astype(np.float64)).astype(np.float32)
    fp[-1] = fp[0]
    x = np.array([0.05, 0.3, 0.55, 0.8, 0.97, 1.3], np.float32)
    try:
        closed = np.asarray(interp1d(x, xp, fp, "cubic2", period=1.0))
    except ValueError as e:
        pytest.fail(f"CLOSING-TOLERANCE defect (f32, {k:+d} ulps): rejected: {e}")
    opened = np.asarray(interp1d(x, xp[:-1], fp[:-1], "cubic2", period=1.0))
    # Whether the library keeps the last knot where it is or moves it onto
    # xp[0] + period (and wraps by either), the two splines differ by at most
    # max|f'| · |offset| per period wrapped (queries wrap at most once here).
    slack = 2 * np.pi * abs(float(xp[-1]) - 1.0) * 2
    np.testing.assert_allclose(
        closed, opened, rtol=0, atol=2e-6 + slack,
        err_msg=f"CLOSING-TOLERANCE defect (f32, {k:+d} ulps): not treated as the closing knot",
    )  # fmt: skip


# ------------------------------------------------------------------------ tolerance, f64

CUMSUM = np.cumsum(np.r_[0, np.full(1000, 0.001)])  # ends at 1.0000000000000007
X64 = np.array([0.0123, 0.25, 0.5004, 0.777, 0.9995, 1.3, -0.2])


def _cumsum_data(last, period=1.0):
    xp = CUMSUM * period
    xp[-1] = last
    fp = np.sin(2 * np.pi * xp / period)
    return xp, fp


@pytest.mark.parametrize("period", [1.0, 3e5, 7e-9], ids=lambda p: f"period={p:g}")
def test_f64_cumsum_knots_close_the_period(period):
    """1000 steps of 0.001 overshoot 1 by 3 ulps; then k ulps either side, k ≤ 8."""
    failures = []
    assert CUMSUM[-1] == 1.0000000000000007
    for k in [0, 1, 3, 8, -1, -3, -8]:
        base = CUMSUM[-1] * period if k == 0 else period
        last = float(_ulps(base, k, np.float64))
        xp, fp = _cumsum_data(last, period)
        fp[-1] = fp[0]
        x = X64 * period
        try:
            closed = np.asarray(interp1d(x, xp, fp, "cubic2", period=period))
        except ValueError as e:
            failures.append(f"last knot {last!r} (period {period}): rejected: {e}")
            continue
        ref = _periodic_reference(np.append(xp[:-1], xp[0] + period), fp, x)
        err = float(np.max(np.abs(closed - ref)))
        if not err <= 1e-12:
            failures.append(f"last knot {last!r} (period {period}): off by {err:.3g}")
    assert not failures, "CLOSING-TOLERANCE defect (f64):\n" + "\n".join(failures)


def test_f64_knot_clearly_beyond_the_period_wraps():
    """span = period·(1 + 1e-6): the last knot is a distinct point 1e-6 past xp[0]."""
    xp, fp = _cumsum_data(1.0 + 1e-6)
    wrapped = np.r_[xp[0], xp[-1] - 1.0, xp[1:-1]]
    want = interp1d(X64, wrapped, np.r_[fp[0], fp[-1], fp[1:-1]], "cubic2", period=1.0)
    np.testing.assert_allclose(interp1d(X64, xp, fp, "cubic2", period=1.0), want, rtol=0,
                               atol=1e-12)  # fmt: skip
    fitted = Interpolator1D(xp, fp, "cubic2", period=1.0)
    np.testing.assert_allclose(fitted.breaks[:3], [0.0, 1e-6, 1e-3], rtol=1e-9)
    np.testing.assert_allclose(fitted(X64), want, rtol=0, atol=1e-12)


def test_f64_knot_clearly_below_the_period_is_open():
    """span = period·(1 − 1e-6): the period closes the knots with a 1e-6 cell; the
    last value need not equal the first (sin(2π(1 − 1e-6)) ≠ 0)."""
    xp, fp = _cumsum_data(1.0 - 1e-6)
    try:
        out = np.asarray(interp1d(X64, xp, fp, "cubic2", period=1.0))
    except ValueError as e:
        pytest.fail(f"CLOSING-TOLERANCE defect: open knots taken for closing ones: {e}")
    ref = _periodic_reference(np.append(xp, 1.0), np.append(fp, fp[0]), X64)
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12, err_msg="CLOSING-TOLERANCE defect")


def test_float32_knots_close_the_period_with_float64_values():
    """The closing tolerance is the knots' own precision, not the promoted dtype's."""
    xp = np.linspace(0, 2 * np.pi, 9, dtype=np.float32)
    fp = np.sin(xp.astype(np.float64))
    eager = splines.interp1d(1.0, xp, fp, "cubic2", period=2 * np.pi)
    traced = jax.jit(lambda a: splines.interp1d(1.0, a, fp, "cubic2", period=2 * np.pi))(xp)
    assert np.isfinite(eager) and float(eager) == pytest.approx(float(traced), abs=1e-12)
    assert float(eager) == pytest.approx(np.sin(1.0), abs=2e-3)


def test_periodic_one_knot_and_two_closed_knots():
    """One method per family of slope rules: one knot with a period is the constant
    (d/dx 0); two closed knots (one distinct knot) too, with a traced period.  (The
    cyclic extension is the same for all seven local methods.)"""
    x = np.array([-0.5, 0.25, 1.0, 2.5])

    @jax.jit
    def run(period):
        return {m: (interp1d(x, np.array([0.3]), np.array([2.0]), m, period=1.5,
                             derivative=(0, 1), **method_options(m)),
                    interp1d(x, np.array([0.0, 2.0]), np.array([1.0, 1.0]), m, period=period,
                             **method_options(m)))
                for m in ("cubic", "cardinal", "monotonic-0", "makima")}  # fmt: skip

    for method, (one, closed) in run(2.0).items():
        np.testing.assert_array_equal(one, [[2.0] * 4, [0.0] * 4], err_msg=method)
        np.testing.assert_array_equal(closed, np.ones(4), err_msg=method)


# ---------------------------------------------------------------------------- traced

XP = np.linspace(0.0, TWO_PI, 9)  # includes the closing knot
FP = np.sin(XP)
XQ = np.array([0.3, 1.1, 2.0, 2.9, 4.4, 5.5, 6.1, -0.7, 8.0])  # off knots and midpoints
BATCH = np.stack([XP, XP + 0.25])


def _loss(method, fp):
    return lambda q: interp1d(XQ, q, fp, method, period=TWO_PI).sum()


def _values_and_gradient(method):
    """Values at XQ and the gradient of their sum w.r.t. the knots, from one vjp."""

    def run(q):
        values, pullback = jax.vjp(lambda q: interp1d(XQ, q, FP, method, period=TWO_PI), q)
        return values, pullback(jnp.ones_like(values))[0]

    return run


@jax.jit
def _traced(q, batch, p):
    """One program (cubic2 pieces cost seconds each to compile): for every method,
    values and gradient with the knots traced (one vjp), values vmapped over a
    batch of knot sets, and a traced period with closed and open concrete knots;
    Interpolator1D from traced knots for linear (the closing logic is shared).
    (A vmap of the vjp would be one piece fewer but compiles twice as long.)"""
    out = {}
    for m in METHODS:
        values, grad = _values_and_gradient(m)(q)
        batched = jax.vmap(lambda b, m=m: interp1d(XQ, b, FP, m, period=TWO_PI))(batch)
        out[m] = {"jit knots": values, "grad closed": grad, "vmap knots": batched}
        if m != "nearest":
            out[m]["traced period, closed"] = interp1d(XQ, XP, FP, m, period=p)
            out[m]["traced period, open"] = interp1d(XQ, XP[:-1], FP[:-1], m, period=p)
    out["linear"]["fitted knots"] = Interpolator1D(q, FP, "linear", period=TWO_PI)(XQ)
    return out


@pytest.fixture(scope="module")
def traced():
    try:
        return jax.tree.map(np.asarray, _traced(XP, BATCH, TWO_PI))
    except Exception as e:  # noqa: BLE001
        pytest.fail(f"TRACED-CLOSING defect: tracing raised {type(e).__name__}: {e}")


@pytest.fixture(scope="module")
def eager():
    """The eager answers: concrete knots with the closing knot, per method."""
    return {
        m: (
            np.asarray(interp1d(XQ, XP, FP, m, period=TWO_PI)),
            np.asarray(interp1d(XQ, XP + 0.25, FP, m, period=TWO_PI)),
        )
        for m in METHODS
    }


@pytest.mark.parametrize("method", METHODS)
def test_traced_closing_knot_values_equal_eager(method, traced, eager):
    want, shifted = eager[method]
    assert np.all(np.isfinite(want))
    failures = []
    for key in ["jit knots", "fitted knots", "traced period, closed", "traced period, open"]:
        if key not in traced[method]:
            continue
        got = traced[method][key]
        if not np.allclose(got, want, rtol=0, atol=1e-12):
            failures.append(f"{key}: {got} vs eager {want}")
    got = traced[method]["vmap knots"]
    close = [np.allclose(row, ref, rtol=0, atol=1e-12) for row, ref in zip(got, (want, shifted))]
    if not all(close):
        failures.append(f"vmap knots: {got} vs eager {want}, {shifted}")
    assert not failures, f"TRACED-CLOSING defect ({method}):\n" + "\n".join(failures)


def _eager_loss(method, q, fp=FP):
    return float(np.sum(np.asarray(interp1d(XQ, q, fp, method, period=TWO_PI))))


@pytest.mark.parametrize("method", METHODS)
def test_traced_closing_knot_gradient_matches_finite_differences(method, traced, eager):
    """Central differences of the eager loss (concrete knots; the program the
    `eager` fixture compiled) along directions that keep the knots closed: each
    interior knot, and both ends together — whose derivative is also that of the
    first knot of the open form (knots without the closing one)."""
    g = traced[method]["grad closed"]
    assert np.all(np.isfinite(g)), f"TRACED-CLOSING defect ({method}): gradient {g}"
    eps = 1e-6
    ends = np.eye(9)[0] + np.eye(9)[-1]
    directions = [(f"xp[{j}]", np.eye(9)[j], g[j]) for j in range(1, 8)]
    directions.append(("xp[0] and xp[-1] together", ends, g[0] + g[-1]))
    failures = []
    for name, direction, want in directions:
        fd = _eager_loss(method, XP + eps * direction) - _eager_loss(method, XP - eps * direction)
        fd /= 2 * eps
        if not abs(fd - want) <= 1e-5 * max(abs(fd), 1.0):
            failures.append(f"d/d{name} = {want}, finite difference {fd}")
    # The open form moves xp[0] and the closing point together: the same derivative.
    q_open, e0 = XP[:-1], np.eye(8)[0]
    fd_open = _eager_loss(method, q_open + eps * e0, FP[:-1])
    fd_open = (fd_open - _eager_loss(method, q_open - eps * e0, FP[:-1])) / (2 * eps)
    if not abs(fd_open - (g[0] + g[-1])) <= 1e-5 * max(abs(fd_open), 1.0):
        failures.append(f"d/dxp[0] of the open form {fd_open} vs g[0] + g[-1] = {g[0] + g[-1]}")
    assert not failures, f"TRACED-CLOSING defect ({method}):\n" + "\n".join(failures)


def test_plain_grad_with_closing_knot_is_finite(traced):
    """The spec's literal form: jax.grad (no jit) w.r.t. knots holding the closing
    knot (linear: the closing logic is the same for every method, and it compiles fast)."""
    g = np.asarray(jax.grad(_loss("linear", FP))(XP))
    assert np.all(np.isfinite(g)), f"TRACED-CLOSING defect (plain grad): {g}"
    np.testing.assert_allclose(g, traced["linear"]["grad closed"], rtol=0, atol=1e-12)


def test_traced_knots_beyond_the_period_wrap_as_eager_ones(traced):
    """The last knot 2π·1e-3 past the period is a distinct knot after wrapping, traced
    (jit, vmap) as eager; a knot a whole period past another gives NaN."""
    past = XP.copy()
    past[-1] = TWO_PI * (1 + 1e-3)
    on_first = XP.copy()
    on_first[-1] = 2 * TWO_PI  # wraps onto xp[0]: coinciding traced knots
    out = jax.tree.map(np.asarray, _traced(past, np.stack([past, on_first]), TWO_PI))
    for m in METHODS:
        want = np.asarray(interp1d(XQ, past, FP, m, period=TWO_PI))
        assert np.all(np.isfinite(want)), m
        for key in ["jit knots", "fitted knots"]:
            if key in out[m]:
                np.testing.assert_allclose(out[m][key], want, rtol=0, atol=1e-12, err_msg=m)
        rows = out[m]["vmap knots"]
        np.testing.assert_allclose(rows[0], want, rtol=0, atol=1e-12, err_msg=m)
        assert np.all(np.isnan(rows[1])), f"{m}: coinciding traced knots gave {rows[1]}"


# A closing piece one ulp wide has its midpoint at its end: a traced fit cuts it without a
# zero-width piece, so a query that wraps onto the end is finite (no t = 0/0), 1-D and on grids.
@pytest.mark.parametrize("grid", [False, True])
def test_periodic_traced_knots_with_a_one_ulp_closing_piece(grid):
    last = np.nextafter(3.0, 0)
    xp, fp = np.array([0.0, 0.9, 1.8, last, 3.0]), np.array([1.0, 2.0, 0.5, 1.5, 1.0])
    x = np.array([-1e-300, 0.5])  # -1e-300 wraps to exactly 3.0
    if grid:
        f = jax.jit(lambda x, xp, fp: splines.interp2d(x, x[::-1], xp, xp, fp, method="linear",
                                                       period=(3.0, 3.0)))  # fmt: skip
        fp = np.outer(fp, fp)
    else:
        f = jax.jit(lambda x, xp, fp: splines.interp1d(x, xp, fp, method="linear", period=3.0))
    eager = f.__wrapped__(x, xp, fp)  # concrete knots: the closing is decided in numpy
    assert np.isfinite(eager).all()
    np.testing.assert_allclose(f(x, xp, fp), eager)


@pytest.mark.parametrize("method", ["linear", "cubic2", "akima"])
def test_a_closing_piece_one_ulp_wide_traced(method):
    """Traced knots fit both readings; the closed one cuts its last piece in two.
    A piece one ulp wide has no midpoint: the cut must not leave a zero-width
    piece where a query lands (0/0), nor halve a derivative.  Derivatives 0-2 in
    one call each way (stacked orders: the same evaluation per order, one compile)."""
    xp = np.array([0.0, 0.9, 1.8, np.nextafter(3.0, 0.0), 3.0])
    fp = np.array([1.0, 2.0, 0.5, 1.5, 1.0])
    x = np.array([-1e-300, 0.0, 0.5, 2.9, np.nextafter(3.0, 0.0), 3.0])
    orders = (0, 1, 2)

    def f(x, xp, fp):
        return interp1d(x, xp, fp, method=method, period=3.0, derivative=orders)

    traced, eager = jax.jit(f)(x, xp, fp), f(x, xp, fp)
    eps = np.finfo(np.float64).eps
    for k, order in enumerate(orders):  # two programs: equal but for XLA's contractions,
        scale = np.abs(fp).max() / 0.9**order  # on the scale of a derivative of the wide cells
        np.testing.assert_allclose(traced[k], eager[k], rtol=4 * eps, atol=8 * eps * scale,
                                   err_msg=f"derivative {order}")  # fmt: skip


def test_finite_difference_gradient_checks_take_open_knots():
    """With the closing knot left out, its place is ``xp[0] + period``, smooth in both:
    `check_grads` w.r.t. the knots, values and period passes.  A closing
    knot given explicitly is moved past the period by the checks' steps, where it
    wraps to a knot of its own just after xp[0] (so the checks must leave it out)."""
    from jax.test_util import check_grads

    xp = np.linspace(0, 2 * np.pi, 9)[:-1] + 0.1 * np.sin(np.arange(8))
    fp, x = np.cos(xp), np.linspace(-1.0, 7.0, 13)
    f = lambda xp, fp, p: interp1d(x, xp, fp, "cubic2", period=p)  # noqa: E731  (eager, as users call it)
    check_grads(f, (xp, fp, 2 * np.pi), order=1, modes=("rev",))  # order 2: tests/test_grad.py
    closed_xp, closed_fp = np.append(xp, xp[0] + 2 * np.pi), np.append(fp, fp[0])
    stepped = interp1d(x, closed_xp + np.eye(9)[-1] * 1e-4, closed_fp, "cubic2", period=2 * np.pi)
    wrapped = interp1d(x, np.r_[xp[0], xp[0] + 1e-4, xp[1:]], np.r_[fp[0], fp], "cubic2",
                       period=2 * np.pi)  # fmt: skip
    np.testing.assert_allclose(stepped, wrapped, rtol=0, atol=1e-12)


# ------------------------------------------------------------- knots past one period

X3PI = np.linspace(0.0, 3 * np.pi, 12)  # interpax's data: 3π of knots, period 2π (none on 2π)
WRAP_METHODS = ["nearest", "linear", "cubic", "cubic2", "catmull-rom", "monotonic", "akima"]


def _wrapped_by_hand(xp, fp, period):
    """The knots moved into [xp[0], xp[0] + period) and sorted, with their values."""
    offset = np.mod(xp - xp[0], period)
    order = np.argsort(offset)
    return xp[0] + offset[order], fp[order]


def test_knots_past_one_period_wrap_into_it():
    """Every method fits the wrapped, sorted knots: the same numbers as fitting those
    (and scipy's periodic spline for cubic2, interpax for the local methods)."""
    fp = np.cos(X3PI) + 0.3 * np.sin(2 * X3PI)
    xq = np.linspace(-7.0, 13.0, 41)
    xw, fw = _wrapped_by_hand(X3PI, fp, TWO_PI)
    interpax = pytest.importorskip("interpax")
    for m in WRAP_METHODS:
        got = np.asarray(interp1d(xq, X3PI, fp, m, period=TWO_PI))
        want = np.asarray(interp1d(xq, xw, fw, m, period=TWO_PI))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=m)
        fitted = Interpolator1D(X3PI, fp, m, period=TWO_PI)
        np.testing.assert_allclose(fitted(xq), want, rtol=0, atol=1e-13, err_msg=m)
        if m in ("linear", "cubic", "catmull-rom", "monotonic", "nearest"):
            theirs = np.asarray(interpax.interp1d(xq, X3PI, fp, m, period=TWO_PI))
            np.testing.assert_allclose(got, theirs, rtol=0, atol=1e-13, err_msg=f"{m} interpax")
    ref = _periodic_reference(np.r_[xw, TWO_PI], np.r_[fw, fw[0]], xq)
    np.testing.assert_allclose(interp1d(xq, X3PI, fp, "cubic2", period=TWO_PI), ref, rtol=0,
                               atol=1e-13)  # fmt: skip


def test_knots_that_coincide_after_wrapping_merge():
    """Knots over 4π hit every point twice: the fit is that of one period; values that
    disagree there raise naming both knots."""
    xp = np.linspace(0.0, 4 * np.pi, 17)  # xp[k + 8] = xp[k] + 2π
    fp = np.sin(xp)
    xq = np.linspace(-1.0, 7.0, 9)
    for m in ("linear", "cubic2", "akima"):
        got = interp1d(xq, xp, fp, m, period=TWO_PI)
        np.testing.assert_allclose(got, interp1d(xq, xp[:8], fp[:8], m, period=TWO_PI), rtol=0,
                                   atol=1e-13, err_msg=m)  # fmt: skip
    bad = fp.copy()
    bad[11] += 0.5  # xp[11] = xp[3] + 2π
    with pytest.raises(
        ValueError,
        match=r"`xp\[3\]` and `xp\[11\]` wrap onto the same point "
        r"of `period` = 6\.28",
    ):
        interp1d(xq, xp, bad, "cubic2", period=TWO_PI)
    given = np.cos(xp)
    given[12] = 2.0
    with pytest.raises(ValueError, match=r"`fx` has .* and 2\.0"):
        interp1d(xq, xp, fp, "cubic", period=TWO_PI, fx=given)


def test_grid_axes_past_one_period_wrap_and_merge():
    """interpax's 2-D test data: x over 3π, y closing at 2π, both periodic; z of a 3-D
    grid over 4π (merged); a mismatch along a merged axis names that axis' knots."""
    y = np.linspace(0.0, TWO_PI, 7)
    f = np.sin(X3PI)[:, None] * np.cos(y)[None, :]
    q = (np.linspace(-1, 7, 5)[:, None], np.linspace(0, 6, 4)[None, :])
    xw, _ = _wrapped_by_hand(X3PI, X3PI, TWO_PI)
    fw = np.sin(xw)[:, None] * np.cos(y)[None, :]
    for m in ("linear", "akima"):
        got = splines.interp2d(*q, X3PI, y, f, m, period=TWO_PI)
        want = splines.interp2d(*q, xw, y, fw, m, period=TWO_PI)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13, err_msg=m)
    z = np.linspace(0.0, 4 * np.pi, 9)
    f3 = f[:, :, None] * np.cos(z)[None, None, :]
    grid3 = splines.Interpolator3D(X3PI, y, z, f3, "cubic2", period=(TWO_PI, None, TWO_PI))
    one = splines.Interpolator3D(xw, y, z[:4], fw[:, :, None] * np.cos(z[:4]), "cubic2",
                                 period=(TWO_PI, None, TWO_PI))  # fmt: skip
    np.testing.assert_allclose(grid3(*q, 1.0), one(*q, 1.0), rtol=0, atol=1e-13)
    points = (X3PI, y, z)
    xi = np.stack(np.broadcast_arrays(q[0], q[1], 1.0), axis=-1)
    np.testing.assert_allclose(
        splines.interpn(points, f3, xi, "cubic2", period=(TWO_PI, None, TWO_PI)),
        one(*q, 1.0), rtol=0, atol=1e-13,
    )  # fmt: skip
    bad = f3.copy()
    bad[2, 3, 5] += 1.0  # z[5] = z[1] + 2π
    with pytest.raises(ValueError, match=r"`zp\[1\]` and `zp\[5\]` wrap onto the same point"):
        splines.interp3d(*q, 1.0, X3PI, y, z, bad, "linear", period=(None, None, TWO_PI))


def test_a_closing_knot_among_knots_past_one_period_merges_with_the_first():
    """xp[3] = xp[0] + period closes the period and xp[4], xp[5] lie past it: all three
    land on knots of the first period, so the fit is that of xp[:3]."""
    xp = np.arange(6.0)
    fp = np.sin(2 * np.pi * xp / 3)
    xq = np.array([-0.4, 0.5, 1.5, 2.9, 7.7])
    for m in ("cubic2", "linear", "akima"):
        np.testing.assert_allclose(interp1d(xq, xp, fp, m, period=3.0),
                                   interp1d(xq, xp[:3], fp[:3], m, period=3.0), rtol=0,
                                   atol=1e-13, err_msg=m)  # fmt: skip


def test_knots_whose_rounding_is_not_small_against_the_period_raise_or_give_nan():
    """Whether a knot closes the period, or where it wraps to, must not be decided by
    rounding: concrete knots raise naming the largest, traced ones give NaN values and
    gradients.  Knots clearly inside one period are fine at any magnitude."""
    xp = np.array([0.0, 1.0, 2.0, 1e17])
    fp = np.array([0.0, 1.0, 0.5, 0.25])
    with pytest.raises(ValueError, match=r"`xp` cannot be placed in `period` = 3\.0 in "
                                         r"float64: at `xp\[3\]` = 1e\+17"):  # fmt: skip
        interp1d(0.5, xp, fp, "linear", period=3.0)
    with pytest.raises(ValueError, match=r"`yp` cannot be placed in `period`"):
        splines.interp2d(0.5, 0.5, xp[:3], xp, np.ones((3, 4)), "linear", period=(None, 3.0))
    loss = jax.jit(
        jax.value_and_grad(
            lambda xp, fp: interp1d(0.5, xp, fp, "linear", period=3.0), argnums=(0, 1)
        )
    )
    value, grads = loss(xp, fp)
    assert np.isnan(value) and all(np.all(np.isnan(g)) for g in grads), (value, grads)
    # float32 at 1e6: 16 ulps are 1.9, a third of the period 2π, so a last knot at 1e6 + 5
    # would read as closing the period (the fit then wraps queries by 5, not 2π).
    f32 = np.float32(1e6) + np.arange(6, dtype=np.float32)
    with pytest.raises(ValueError, match=r"`xp` cannot be placed in `period`"):
        interp1d(np.float32(1e6 + 0.5), f32, f32 - f32[0], "linear", period=2 * np.pi)
    inside = 1e6 + np.arange(6.0)  # float64: 16 ulps are 2e-9, far below a period of 6.5
    np.testing.assert_allclose(interp1d(1e6 + 0.5, inside, np.arange(6.0), "linear", period=6.5),
                               0.5, rtol=0, atol=1e-9)  # fmt: skip


@jax.jit
def _wrapped_traced(xp, fp, knots_2d, values_2d, merged_values):
    """Values and gradients w.r.t. knots and values of wrapped traced knots (1-D and
    a grid axis), and traced values on concrete knots that merge."""
    loss = lambda xp, fp: interp1d(XQ, xp, fp, "cubic", period=TWO_PI).sum()  # noqa: E731
    grid = lambda xp, fp: splines.interp2d(XQ, 0.5, xp, X3PI[:4], fp, "cubic",  # noqa: E731
                                           period=(TWO_PI, None)).sum()  # fmt: skip
    merged = interp1d(XQ, np.linspace(0.0, 4 * np.pi, 17), merged_values, "linear",
                      period=TWO_PI)  # fmt: skip
    return (loss(xp, fp), jax.grad(loss, (0, 1))(xp, fp), grid(knots_2d, values_2d),
            jax.grad(grid, (0, 1))(knots_2d, values_2d), merged)  # fmt: skip


def test_traced_knots_past_one_period_wrap_and_coinciding_ones_give_nan():
    fp = np.cos(X3PI)
    f2 = np.outer(fp, np.ones(4))
    merged = np.sin(np.linspace(0.0, 4 * np.pi, 17))
    value, (g_xp, g_fp), value_2d, (g2_xp, g2_fp), out = _wrapped_traced(X3PI, fp, X3PI, f2,
                                                                         merged)  # fmt: skip
    assert np.isclose(value, interp1d(XQ, X3PI, fp, "cubic", period=TWO_PI).sum(), atol=1e-12)
    assert np.isclose(value_2d, splines.interp2d(XQ, 0.5, X3PI, X3PI[:4], f2, "cubic",
                                                 period=(TWO_PI, None)).sum(), atol=1e-12)  # fmt: skip
    for g in (g_xp, g_fp, g2_xp, g2_fp):
        assert np.all(np.isfinite(g))
    np.testing.assert_allclose(out, interp1d(XQ, np.linspace(0, TWO_PI, 9)[:-1], merged[:8],
                                             "linear", period=TWO_PI), atol=1e-13)  # fmt: skip
    on_first = X3PI.copy()
    on_first[8] = TWO_PI  # = xp[0] + 2π, not last: coincides with xp[0] after wrapping
    bad_values = merged.copy()
    bad_values[12] += 1.0
    value, grads, value_2d, grads_2d, out = _wrapped_traced(on_first, fp, on_first, f2,
                                                            bad_values)  # fmt: skip
    for what, got in {"1-D": (value, *grads), "2-D": (value_2d, *grads_2d), "values": out}.items():
        assert all(np.all(np.isnan(g)) for g in jax.tree.leaves(got)), what


def test_gradients_through_wrapped_knots_match_finite_differences():
    from jax.test_util import check_grads

    xp = X3PI + 0.05 * np.sin(np.arange(12))  # no knot near a whole period of another
    fp = np.cos(xp)
    f = lambda xp, fp: interp1d(XQ, xp, fp, "catmull-rom", period=TWO_PI)  # noqa: E731
    check_grads(f, (xp, fp), order=1, modes=("fwd", "rev"))
