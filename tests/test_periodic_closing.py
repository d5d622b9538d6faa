"""The closing knot of a period: its tolerance, and traced knots or periods with it.

Tolerance.  Knots may end at ``xp[0] + period`` (the closing knot)
up to rounding: a last knot a few ulps above *or* below ``xp[0] + period``
(k ≤ 8, symmetric) closes the period; one clearly beyond it (span =
period·(1 + 1e-6)) raises a ValueError naming `period`; one clearly below
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
its first knot, also checked).  Traced knots beyond the period give NaN.  A
closing piece one ulp wide, traced, gives the eager values (1-D and on grids).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si

import splines
from _references import method_options
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
        scalar = interp1d(1.0, xp, fp, period=2 * np.pi)  # a scalar query
        fitted = Interpolator1D(xp, fp, period=2 * np.pi)(x)
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
        closed = np.asarray(interp1d(x, xp, fp, period=1.0))
    except ValueError as e:
        pytest.fail(f"CLOSING-TOLERANCE defect (f32, {k:+d} ulps): rejected: {e}")
    opened = np.asarray(interp1d(x, xp[:-1], fp[:-1], period=1.0))
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
            closed = np.asarray(interp1d(x, xp, fp, period=period))
        except ValueError as e:
            failures.append(f"last knot {last!r} (period {period}): rejected: {e}")
            continue
        ref = _periodic_reference(np.append(xp[:-1], xp[0] + period), fp, x)
        err = float(np.max(np.abs(closed - ref)))
        if not err <= 1e-12:
            failures.append(f"last knot {last!r} (period {period}): off by {err:.3g}")
    assert not failures, "CLOSING-TOLERANCE defect (f64):\n" + "\n".join(failures)


def test_f64_knot_clearly_beyond_the_period_raises():
    xp, fp = _cumsum_data(1.0 + 1e-6)
    with pytest.raises(ValueError, match="`period`"):
        interp1d(X64, xp, fp, period=1.0)
    with pytest.raises(ValueError, match="`period`"):
        Interpolator1D(xp, fp, period=1.0)


def test_f64_knot_clearly_below_the_period_is_open():
    """span = period·(1 − 1e-6): the period closes the knots with a 1e-6 cell; the
    last value need not equal the first (sin(2π(1 − 1e-6)) ≠ 0)."""
    xp, fp = _cumsum_data(1.0 - 1e-6)
    try:
        out = np.asarray(interp1d(X64, xp, fp, period=1.0))
    except ValueError as e:
        pytest.fail(f"CLOSING-TOLERANCE defect: open knots taken for closing ones: {e}")
    ref = _periodic_reference(np.append(xp, 1.0), np.append(fp, fp[0]), X64)
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12, err_msg="CLOSING-TOLERANCE defect")


def test_float32_knots_close_the_period_with_float64_values():
    """The closing tolerance is the knots' own precision, not the promoted dtype's."""
    xp = np.linspace(0, 2 * np.pi, 9, dtype=np.float32)
    fp = np.sin(xp.astype(np.float64))
    eager = splines.interp1d(1.0, xp, fp, period=2 * np.pi)
    traced = jax.jit(lambda a: splines.interp1d(1.0, a, fp, period=2 * np.pi))(xp)
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


def test_traced_knots_beyond_the_period_give_nan(traced):
    bad = XP.copy()
    bad[-1] = TWO_PI * (1 + 1e-3)
    out = jax.tree.map(np.asarray, _traced(bad, np.stack([bad, XP]), TWO_PI))
    for m in METHODS:
        for key in ["jit knots", "fitted knots"]:
            if key not in out[m]:
                continue
            got = out[m][key]
            assert np.all(np.isnan(got)), f"TRACED-CLOSING defect ({m}, {key}): {got}"
        rows = out[m]["vmap knots"]
        assert np.all(np.isnan(rows[0])), f"TRACED-CLOSING defect ({m}, vmap bad row): {rows[0]}"
        np.testing.assert_allclose(rows[1], traced[m]["jit knots"], rtol=0, atol=1e-12)


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
    for k, order in enumerate(orders):
        np.testing.assert_array_equal(traced[k], eager[k], err_msg=f"derivative {order}")


def test_finite_difference_gradient_checks_take_open_knots():
    """With the closing knot left out, its place is ``xp[0] + period``, smooth in both:
    `check_grads` w.r.t. the knots, values and period passes.  A closing
    knot given explicitly is moved past the period by the checks' steps, and the
    error says to leave it out."""
    from jax.test_util import check_grads

    xp = np.linspace(0, 2 * np.pi, 9)[:-1] + 0.1 * np.sin(np.arange(8))
    fp, x = np.cos(xp), np.linspace(-1.0, 7.0, 13)
    f = lambda xp, fp, p: interp1d(x, xp, fp, period=p)  # noqa: E731  (eager, as users call it)
    check_grads(f, (xp, fp, 2 * np.pi), order=1, modes=("rev",))  # order 2: tests/test_grad.py
    closed_xp, closed_fp = np.append(xp, xp[0] + 2 * np.pi), np.append(fp, fp[0])
    with pytest.raises(ValueError, match="may be left out; for gradient checks"):
        interp1d(x, closed_xp + np.eye(9)[-1] * 1e-4, closed_fp, period=2 * np.pi)
