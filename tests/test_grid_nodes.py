"""Grid interpolants keep node data, and build each query's cell polynomial at evaluation.

1. Size: a 3-D fit stores ``n_0 n_1 n_2 × columns × 2^3`` node data for the
   Hermite methods (values and mixed derivatives at the knots), one slot for
   "linear" (values at the knots) and "nearest" (one value per piece), not a
   table of ``(n − 1)^3 × 4^3`` coefficients per column.
2. Evaluation from the stored node data: the tensor cubic Hermite (or
   multilinear) form written with each axis' basis functions h00, h01, h10,
   h11 (or 1 − t, t), a formula independent of the power coefficients that
   evaluation builds with the pieces rule.  f64 sums of O(1) terms: 1e-12
   (as test_interp_grid.py).
3. A periodic closing decided by traced data inserts a node in the middle of
   the last cell (`_fit_grid._split_along`): the same interpolant as the
   concrete fit, which has no such node, up to rounding.  The bound: the new
   node's value and slope are sums of four O(|f|) terms of the cell's
   coefficients (`split_last_piece`'s), the halves' widths round apart from
   half the cell's, and XLA fuses the two programs differently (FMAs):
   measured ≤ 2.5 ulps of ``max(|ref|, |fp|)`` per derivative here, bound at
   32 ulps (on random 3-D grids, against the former per-cell table with its
   own split, ≤ 36 ulps of the output's maximum were seen).  A last cell one
   ulp wide is cut at its start instead: a duplicate of the start node, the
   right cell keeps the whole polynomial.
4. The node data against an independent reference: each axis' 1-D slopes
   (scipy's where scipy has the method, else the method's formula), then the
   tensor cubic Hermite form (scipy's ``CubicHermiteSpline`` along each axis in
   turn), for `interp2d` and `interp3d` — every cubic method with stacked
   derivative orders, cubic2's end conditions (and ``RectBivariateSpline``),
   "linear"/"nearest" against ``RegularGridInterpolator`` with exact midpoint
   ties, periods (open or closed knots, concrete or traced), every `extrap`
   option with NaN and ±inf queries, a last cell one ulp wide and two-knot axes,
   float32 values of 1e±30, complex columns and mixed dtypes.  float32 values
   near the top of the range still overflow the cell polynomials: a strict xfail.

Compilation dominates the runtime (1-5 s per grid program): each group of checks is
one jitted program (`_fits_3d`, `_periodic_closing`, and one per test below), whose
results come back as numpy (`jax.device_get`: indexing a jax array compiles a
program).  Data closed over are numpy constants, as in eager use (knots and periods
concrete; XLA folds what depends on them alone, as the concrete references); what a
check is about (queries, traced periods) is an argument, so it is compiled.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _random_grids import F2, F3, K2, K3, Q2, Q3
from _random_grids import RNG as GRID_RNG
from numpy.polynomial import polynomial as poly
from scipy.interpolate import (
    Akima1DInterpolator,
    CubicHermiteSpline,
    CubicSpline,
    PchipInterpolator,
    RectBivariateSpline,
    RegularGridInterpolator,
)

import splines
from splines import Interpolator2D, Interpolator3D, interp2d

F32 = np.float32

RNG = np.random.default_rng(7)
N = (5, 6, 4)
KNOTS = tuple(np.sort(RNG.uniform(0.0, 2.0, n)) for n in N)
FP = RNG.normal(size=N + (2,))


SLOTS = {"cubic2": 8, "akima": 8, "linear": 1, "nearest": 1}


def test_3d_stores_node_data_not_every_cells_coefficients():
    for method, slots in SLOTS.items():
        spline = _fits_3d()[0][method].spline
        assert spline.nodes.shape == N + (2, slots), method
        assert spline.nodes.size == np.prod(N) * 2 * slots, method  # not ∏(n − 1) × 2 × 4^3


def _hermite_basis(t, corner: int, slope: bool):
    """h00, h01 (values at t = 0, 1) or h10, h11 (slopes), ascending powers of t."""
    table = {(0, False): [1, 0, -3, 2], (1, False): [0, 0, 3, -2],
             (0, True): [0, 1, -2, 1], (1, True): [0, 0, -1, 1]}  # fmt: skip
    return np.asarray(table[corner, slope], float)


def _linear_basis(t, corner: int, slope: bool):
    return np.asarray([[1.0, -1.0], [0.0, 1.0]][corner])


def node_form(spline, basis, queries, orders):
    """Σ_corners Σ_S D̃_S(corner) ∏_a B_a: B_a = h0c(t_a), or w_a h1c(t_a) where a ∈ S.

    ``w_a = h_a / P_a`` (the node data are in units of P_a, the power of two
    just above the axis' span, `_fit_grid`); d/dx_a = (d/dt_a) / h_a.
    """
    d = len(queries)
    cells, ts, widths, spans = [], [], [], []
    for x, b in zip(queries, spline.breaks):
        b = np.asarray(b)
        j = np.clip(np.searchsorted(b, x, side="right") - 1, 0, len(b) - 2)
        h = b[j + 1] - b[j]
        unit = 2.0 ** (np.frexp(b[-1] / 2 - b[0] / 2)[1] + 1)
        cells.append(j), ts.append((x - b[j]) / h), widths.append(h), spans.append(unit)
    nodes = np.asarray(spline.nodes)
    total = 0.0
    for corner in np.ndindex(*(2,) * d):
        data = nodes[tuple(j + c for j, c in zip(cells, corner))]  # (q, k, slots)
        for mask in range(nodes.shape[-1]):
            term = data[..., mask]
            for a in range(d):
                slope = bool(mask >> a & 1)
                c = poly.polyder(basis(ts[a], corner[a], slope), orders[a])
                factor = poly.polyval(ts[a], c) / widths[a] ** orders[a]
                if slope:
                    factor = factor * widths[a] / spans[a]
                term = term * factor[:, None]
            total = total + term
    return total


NODE_FORM = {"cubic2": _hermite_basis, "monotonic": _hermite_basis, "linear": _linear_basis}
QUERIES_3D = tuple(RNG.uniform(k[0], k[-1], 40) for k in KNOTS)
ORDERS_3D = [(0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 1), (2, 0, 1)]


@functools.cache
def _fits_3d():
    """One program: the 3-D fits of every method above (`Interpolator3D`, its data
    closed over as in eager use), and the node-form methods' evaluations at
    `QUERIES_3D` (an argument: evaluation is compiled)."""

    @jax.jit
    def run(queries):
        fits = {m: Interpolator3D(*KNOTS, FP, m) for m in {**SLOTS, **NODE_FORM}}
        return fits, {m: fits[m](*queries, derivative=ORDERS_3D) for m in NODE_FORM}

    return jax.device_get(run(QUERIES_3D))


def test_3d_evaluation_is_the_node_form_of_the_stored_data():
    """cubic2 and monotonic (tensor cubic Hermite), linear (multilinear)."""
    fits, evaluations = _fits_3d()
    for method, basis in NODE_FORM.items():
        for ours, order in zip(evaluations[method], ORDERS_3D):
            ref = node_form(fits[method].spline, basis, QUERIES_3D, order)
            scale = max(np.max(np.abs(ref)), np.max(np.abs(FP)))
            np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12 * scale,
                                       err_msg=f"{method} {order}")  # fmt: skip


PERIOD = 2.0
ORDERS = [(0, 0), (1, 0), (0, 1), (2, 1)]


def _closed(dtype, one_ulp: bool):
    """Closed knots along x (the last is x_0 + period), values repeating along x."""
    xp = np.asarray([0.0, 0.3, 0.8, 1.1, 1.5, PERIOD], dtype)
    if one_ulp:
        xp[-2] = np.nextafter(xp[-1], dtype(0))
    yp = np.asarray([0.0, 0.5, 1.25, 2.0], dtype)
    fp = np.random.default_rng(3).normal(size=(6, 4)).astype(dtype)
    fp[-1] = fp[0]
    x = np.concatenate([np.linspace(-0.5, 2.5, 31), np.linspace(xp[-2], xp[-1], 9)])
    y = np.resize(np.asarray([0.1, 0.7, 1.9, 1.3], dtype), x.shape)
    return xp, yp, fp, x.astype(dtype), y


# (method, dtype, one ulp): a one-ulp cell makes cubic2's solve ill-conditioned, not a
# rounding test, so cubic2 has the regular last cell only.
CLOSING_CASES = [(m, dtype, one_ulp) for dtype in (np.float64, np.float32)
                 for m in ("cubic2", "akima", "linear", "nearest") for one_ulp in (False, True)
                 if not (one_ulp and m == "cubic2")]  # fmt: skip
COUNTED = ("cubic2", "linear", "nearest")  # node count and midpoint (f64, regular last cell)


def _case(method, dtype, one_ulp):
    return f"{method} {np.dtype(dtype).name}{' one-ulp last cell' if one_ulp else ''}"


@functools.cache
def _periodic_closing():
    """One program for the periodic-closing tests: the period traced (the closing decided
    by traced data: a node inserted) and concrete (closed over: no node), data closed over.

    Returns ``(pairs, counted, grads)``: per `CLOSING_CASES` entry the concrete and the
    traced `interp2d` at `ORDERS`; per `COUNTED` method the traced-period and the concrete
    `Interpolator2D` splines and the concrete one at the last cell's midpoint; the
    gradients of a "linear" loss w.r.t. fp and the period on the one-ulp cell.
    """

    def run(p64, p32):
        pairs = {}
        for method, dtype, one_ulp in CLOSING_CASES:
            xp, yp, fp, x, y = _closed(dtype, one_ulp)
            traced = p64 if dtype == np.float64 else p32
            pairs[_case(method, dtype, one_ulp)] = tuple(
                interp2d(x, y, xp, yp, fp, method, derivative=ORDERS, period=(period, None))
                for period in (dtype(PERIOD), traced))  # fmt: skip
        xp, yp, fp, _, _ = _closed(np.float64, False)
        middle = np.full(yp.shape, xp[-2] + (xp[-1] - xp[-2]) / 2)
        counted = {}
        for method in COUNTED:
            eager = Interpolator2D(xp, yp, fp, method, period=(PERIOD, None))
            traced = Interpolator2D(xp, yp, fp, method, period=(p64, None))
            counted[method] = traced.spline, eager.spline, eager(middle, yp)
        xp, yp, fp, x, y = _closed(np.float64, True)

        def loss(fp, p):
            out = interp2d(x, y, xp, yp, fp, "linear", derivative=(1, 0), period=(p, None))
            return jnp.sum(out**2)

        return pairs, counted, jax.grad(loss, argnums=(0, 1))(fp, p64)

    return jax.device_get(jax.jit(run)(jnp.asarray(PERIOD), jnp.asarray(PERIOD, np.float32)))


def test_traced_periodic_closing_inserts_a_node_with_the_same_polynomial():
    """Every method, f64 and f32, a regular last cell and one a ulp wide."""
    failures = []
    for method, dtype, one_ulp in CLOSING_CASES:
        case = _case(method, dtype, one_ulp)
        eager, traced = (np.asarray(a) for a in _periodic_closing()[0][case])
        assert eager.dtype == traced.dtype == dtype, case
        fp = _closed(dtype, one_ulp)[2]
        assert np.all(np.isfinite(eager)), f"{case}: a test point on a NaN"
        for want, got, order in zip(eager, traced, ORDERS):
            scale = max(np.max(np.abs(want)), np.max(np.abs(fp)))
            try:
                np.testing.assert_allclose(got, want, rtol=0,
                                           atol=32 * np.finfo(dtype).eps * scale,
                                           err_msg=f"{case} {order}")  # fmt: skip
            except AssertionError as error:
                failures.append(str(error))
    assert not failures, "\n".join(failures)


def test_traced_periodic_closing_node_count_and_midpoint():
    """One node (or piece) more along x; its value is the interpolant at the midpoint
    (cubic2, linear, nearest)."""
    xp = _closed(np.float64, False)[0]
    middle = xp[-2] + (xp[-1] - xp[-2]) / 2
    for method, (spline, eager, want) in _periodic_closing()[1].items():
        assert spline.nodes.shape[0] == eager.nodes.shape[0] + 1, method
        assert np.asarray(spline.breaks[0])[-2] == middle or method == "nearest", method
        if method != "nearest":
            np.testing.assert_allclose(spline.nodes[-2, :, 0, 0], want, rtol=0, atol=1e-14,
                                       err_msg=method)  # fmt: skip


def test_traced_periodic_closing_one_ulp_cell_has_finite_gradients():
    grads = _periodic_closing()[2]
    assert all(np.all(np.isfinite(g)) for g in grads)


# ------------------------------------------ the node data against an independent reference


def slopes_1d(method, x, y, bc="not-a-knot", c=0.0):
    """The 1-D method's knot slopes along axis 0 of y (scipy where scipy has the method)."""
    if method == "cubic2":
        return CubicSpline(x, y, bc_type=bc, axis=0)(x, 1)
    if method == "monotonic":
        return PchipInterpolator(x, y, axis=0)(x, 1)
    if method in ("akima", "makima"):
        return Akima1DInterpolator(x, y, axis=0, method=method)(x, 1)
    shape = (-1,) + (1,) * (y.ndim - 1)
    m = np.diff(y, axis=0) / np.diff(x).reshape(shape)
    if method == "cubic":
        return np.concatenate([m[:1], (m[:-1] + m[1:]) / 2, m[-1:]])
    centred = (y[2:] - y[:-2]) / (x[2:] - x[:-2]).reshape(shape)
    return (1 - c) * np.concatenate([m[:1], centred, m[-1:]])  # cardinal / catmull-rom


def node_data(method, knots, f, bc="not-a-knot", c=0.0):
    """Node data D_S: slopes along the last axis of S of D_{S without it}."""
    node = {0: f}
    for mask in range(1, 2 ** len(knots)):
        a = mask.bit_length() - 1
        src = np.moveaxis(node[mask ^ (1 << a)], a, 0)
        node[mask] = np.moveaxis(slopes_1d(method, knots[a], src, bc, c), 0, a)
    return node


def tensor_hermite(knots, node, points, orders):
    """The tensor cubic Hermite interpolant of node data, point by point (extrapolating)."""
    out = []
    for p in zip(*points):
        cur = dict(node)
        for a in range(len(knots)):
            cur = {mask: CubicHermiteSpline(knots[a], cur[mask], cur[mask | 1 << a], axis=0)(
                p[a], orders[a]) for mask in cur if not mask & (1 << a)}  # fmt: skip
        out.append(cur[0])
    return np.array(out)


CUBIC = ["cubic2", "cubic", "catmull-rom", "cardinal", "monotonic", "akima", "makima"]


ORDERS2 = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (3, 0), (4, 2)]


ORDERS3 = [(0, 0, 0), (1, 1, 1), (0, 2, 1), (3, 0, 2)]


def _cubic_kw(method):
    return {"c": 0.3} if method == "cardinal" else {}


def test_grid_cubic_methods_match_tensor_hermite_reference():
    """Every cubic method, 2-D (6x5) and 3-D (3x2x4 knots), stacked derivative orders."""

    @jax.jit
    def run(q2, q3):
        return ([splines.interp2d(*q2, *K2, F2, m, derivative=ORDERS2, **_cubic_kw(m))
                 for m in CUBIC],
                [splines.interp3d(*q3, *K3, F3, m, derivative=ORDERS3, **_cubic_kw(m))
                 for m in CUBIC])  # fmt: skip

    two, three = jax.device_get(run(Q2, Q3))
    for m, got2, got3 in zip(CUBIC, two, three):
        c = 0.3 if m == "cardinal" else 0.0
        node2, node3 = node_data(m, K2, F2, c=c), node_data(m, K3, F3, c=c)
        for k, order in enumerate(ORDERS2):
            ref = tensor_hermite(K2, node2, Q2, order)
            scale = max(1.0, np.abs(ref).max())
            np.testing.assert_allclose(got2[k], ref, rtol=0, atol=1e-12 * scale,
                                       err_msg=f"{m} {order}")  # fmt: skip
        for k, order in enumerate(ORDERS3):
            ref = tensor_hermite(K3, node3, Q3, order)
            scale = max(1.0, np.abs(ref).max())  # 3rd derivatives: scipy's rounding x 1/h^3
            np.testing.assert_allclose(got3[k], ref, rtol=0, atol=1e-11 * scale,
                                       err_msg=f"{m} {order}")  # fmt: skip


@pytest.mark.parametrize("method", ["akima", "makima"])
def test_grid_akima_cutoff_is_one_maximum_over_the_whole_grid(method):
    """Akima's cutoff (weights undefined where ``f_1 + f_2 ≤ 10⁻⁹ max``) takes its
    maximum over every line of the grid, as scipy's over every column: a row of
    values 1e-12 smaller than the others falls below it along the second axis.
    The fit maps the rule over blocks of lines (one per first-axis knot); a maximum
    per block would give that row Akima's weights instead."""
    rng = np.random.default_rng(3)
    knots = (np.array([0.0, 0.4, 1.0]), np.sort(rng.uniform(0, 1, 8)))
    f = rng.normal(size=(3, 8)) * np.array([1.0, 1e-12, 1.0])[:, None]
    q = (np.repeat(knots[0], 50), np.tile(np.linspace(knots[1][0], knots[1][-1], 50), 3))
    node = node_data(method, knots, f)
    orders = [(0, 0), (0, 1), (1, 1)]  # stacked: one fit, one program
    got = np.asarray(splines.interp2d(*q, *knots, f, method, derivative=orders))
    for k, order in enumerate(orders):
        ref = tensor_hermite(knots, node, q, order)
        for row in range(3):  # each row on its own scale
            part = slice(50 * row, 50 * (row + 1))
            np.testing.assert_allclose(got[k][part], ref[part], rtol=0,
                                       atol=1e-12 * np.abs(ref[part]).max(),
                                       err_msg=f"{order} row {row}")  # fmt: skip


def test_grid_cubic2_bcs_rbs_and_linear_nearest_vs_scipy():
    """cubic2 end conditions, RectBivariateSpline derivatives, RGI linear/nearest with ties."""
    k = (np.array([0.0, 0.25, 1.0, 1.5]), np.array([0.0, 0.5, 0.75, 2.0, 2.25]))
    f = GRID_RNG.normal(size=(4, 5))
    mids = [np.concatenate([a, (a[:-1] + a[1:]) / 2]) for a in k]  # exact midpoint ties
    grid = [g.ravel() for g in np.meshgrid(*mids, indexing="ij")]
    bcs = ["not-a-knot", "natural", "clamped"]

    @jax.jit
    def run(q, grid):
        cub = [splines.interp2d(*q, *K2, F2, method="cubic2", bc_type=bc, derivative=[(0, 0), (1, 2)])
               for bc in bcs]  # fmt: skip
        lin = [splines.interp2d(*grid, *k, f, m) for m in ("linear", "nearest")]
        lin3 = [splines.interp3d(*Q3, *K3, F3, m) for m in ("linear", "nearest")]
        rbs = splines.interp2d(*q, *K2, F2, method="cubic2", derivative=[(0, 0), (1, 1), (2, 2)])
        return cub, lin, lin3, rbs

    cub, lin, lin3, got_rbs = jax.device_get(run(Q2, grid))
    for bc, got in zip(bcs, cub):
        node = node_data("cubic2", K2, F2, bc=bc)
        for j, order in enumerate([(0, 0), (1, 2)]):
            ref = tensor_hermite(K2, node, Q2, order)
            np.testing.assert_allclose(got[j], ref, rtol=0, atol=1e-12 * np.abs(ref).max())
    rbs = RectBivariateSpline(*K2, F2)
    for j, (dx, dy) in enumerate([(0, 0), (1, 1), (2, 2)]):
        ref = rbs.ev(*Q2, dx=dx, dy=dy)
        np.testing.assert_allclose(got_rbs[j], ref, rtol=0, atol=1e-11 * np.abs(ref).max())
    for m, got in zip(("linear", "nearest"), lin):
        ref = RegularGridInterpolator(k, f, method=m)(np.stack(grid, -1))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15, err_msg=m)
    for m, got in zip(("linear", "nearest"), lin3):
        ref = RegularGridInterpolator(K3, F3, method=m)(np.stack(Q3, -1))
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-15, err_msg=m)


def test_grid_periodic_concrete_traced_open_closed_vs_scipy():
    """x periodic (open knots, closed knots; period concrete or traced), y not-a-knot."""
    xp, yp = K2[0][:4], K2[1][:4]
    period = xp[-1] - xp[0] + 0.7
    f = GRID_RNG.normal(size=(4, 4))
    xc, fc = np.append(xp, xp[0] + period), np.concatenate([f, f[:1]])
    q = [GRID_RNG.uniform(xp[0] - 3 * period, xp[0] + 3 * period, 30),
         GRID_RNG.uniform(yp[0], yp[-1], 30)]  # fmt: skip
    q[0][:3] = [xp[0], xp[0] + period, xp[-1]]
    orders = [(0, 0), (1, 0), (2, 1)]

    def call(knots, values, p, method="cubic2"):
        return splines.interp2d(*q, knots, yp, values, method, period=(p, None),
                                derivative=orders)  # fmt: skip

    # Every method: traced period == concrete period, 3-D, two periodic axes.
    fz = GRID_RNG.normal(size=(4, 2, 3))
    fz[-1] = fz[0]
    px, pz = K3[0][-1] - K3[0][0], 2.5
    kx = np.array([0.0, 0.3, 1.1, K3[0][-1]])
    qz = [GRID_RNG.uniform(-5, 5, 20), GRID_RNG.uniform(-1, 1, 20), GRID_RNG.uniform(-5, 5, 20)]
    methods = ["cubic2", "nearest"]

    def all3(px, pz):
        return [splines.interp3d(*qz, kx, K3[1], K3[2][:3], fz, m, period=(px, None, pz))
                for m in methods]  # fmt: skip

    @jax.jit
    def run(p, xp_traced, xc_traced, px_traced, pz_traced):
        """Periods (and 2-D knots) closed over are concrete; the arguments are traced."""
        concrete = [call(xp, f, period), call(xc, fc, period)]
        traced = [call(xp_traced, f, p), call(xc_traced, fc, p)]
        return concrete, traced, all3(px, pz), all3(px_traced, pz_traced)

    results, traced, concrete3, traced3 = jax.device_get(run(period, xp, xc, px, pz))
    node = {0: fc, 1: CubicSpline(xc, fc, bc_type="periodic", axis=0)(xc, 1)}
    node[2], node[3] = (CubicSpline(yp, v, axis=1)(yp, 1) for v in (node[0], node[1]))
    wrapped = xc[0] + np.mod(q[0] - xc[0], period)
    for j, order in enumerate(orders):
        ref = tensor_hermite((xc, yp), node, (wrapped, q[1]), order)
        for got in results + list(traced):
            np.testing.assert_allclose(got[j], ref, rtol=0, atol=1e-13 * np.abs(ref).max())
    for m, a, b in zip(methods, concrete3, traced3):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * np.abs(a).max(), err_msg=m)


def test_grid_extrap_fills_nan_and_inf_queries():
    xp, yp = np.array([0.0, 1.0, 2.5, 3.0]), np.array([-1.0, 0.0, 2.0])
    f = GRID_RNG.normal(size=(4, 3))
    qx = np.array([-1.0, 0.0, 3.0, 4.0, np.nan, 1.5, -np.inf, 1.0, 1.0])
    qy = np.array([0.5, -2.0, 3.0, 1.0, 0.5, np.nan, 0.5, -np.inf, 2.0])
    options = [
        False,
        True,
        7.0,
        (1.0, 2.0),
        ((True, True), 9.0),
        ((1.0, 2.0), (3.0, 4.0)),
        (True, 9.0),
    ]  # the last: below extend, above 9, along both axes (interpax's)
    got = [np.asarray(g) for g in jax.jit(lambda qx, qy: [
        splines.interp2d(qx, qy, xp, yp, f, "cubic2", extrap=e) for e in options])(qx, qy)]  # fmt: skip
    nan = np.nan
    np.testing.assert_array_equal(np.isnan(got[0]), np.arange(9) < 8)  # (1, 2) is inside
    v = f[1, 2]  # (1, 2) is a knot pair, inside
    np.testing.assert_array_equal(got[2][:8], [7, 7, 7, 7, nan, nan, 7, 7])
    np.testing.assert_array_equal(got[3][:8], [1, 1, 2, 2, nan, nan, 1, 1])
    np.testing.assert_array_equal(got[5][:8], [1, 3, 4, 2, nan, nan, 1, 3])
    for k in (0, 1, 2, 3, 5):  # on the last y knot: the data, exactly
        assert got[k][8] == v
    node = node_data("cubic2", (xp, yp), f)
    finite = [0, 1, 2, 3, 8]
    ref = tensor_hermite((xp, yp), node, (qx[finite], qy[finite]), (0, 0))
    np.testing.assert_allclose(got[1][finite], ref, rtol=1e-13)
    assert np.isnan(got[1][[4, 5, 6]]).all()  # an extended cubic has no value at -inf
    np.testing.assert_allclose(got[4][[0, 3, 8]], ref[[0, 3, 4]], rtol=1e-13)  # x extends
    np.testing.assert_array_equal(got[4][[1, 2, 7]], 9.0)  # y fills
    np.testing.assert_allclose(got[6][[0, 1, 8]], ref[[0, 1, 4]], rtol=1e-13)  # below: extends
    np.testing.assert_array_equal(got[6][[2, 3]], 9.0)  # above x or y: the fill
    assert np.isnan(got[6][[4, 5, 6, 7]]).all()  # NaN queries; -inf on an extended side


def test_grid_one_ulp_last_cell_and_two_knot_axes():
    """f32 and f64 (one program): every kind of pieces on a last cell one ulp wide along x
    and two knots along y; a traced period equals the concrete one there."""
    cases = {}
    for dtype in (np.float32, np.float64):
        xp = np.array([0.0, 1.0, 2.0], dtype)
        xp = np.append(xp, np.nextafter(xp[-1], dtype(9))).astype(dtype)
        yp = np.array([0.0, 1.0], dtype)  # two knots along y
        f = GRID_RNG.normal(size=(4, 2)).astype(dtype)
        fc = f.copy()
        fc[-1] = fc[0]
        qx = np.array([xp[-1], xp[-2], xp[0], xp[1]], dtype)
        qy = np.array([1.0, 0.0, 0.0, 1.0], dtype)
        cases[dtype] = xp, yp, f, fc, qx, qy, xp[-1] - xp[0]
    methods = ("cubic2", "linear", "nearest", "monotonic")

    @jax.jit
    def run(args):
        out = {}
        for dtype, (qx, qy, p) in zip(cases, args):
            xp, yp, f, fc, _, _, period = cases[dtype]
            out[np.dtype(dtype).name] = (
                [splines.interp2d(qx, qy, xp, yp, f, m) for m in methods],
                splines.interp2d(qx, qy, xp, yp, fc, "cubic2", period=(p, None)),  # traced period
                splines.interp2d(
                    *cases[dtype][4:6], xp, yp, fc, method="cubic2", period=(period, None)
                ),
            )
        return out

    out = jax.device_get(run([(c[4], c[5], c[6]) for c in cases.values()]))
    for dtype, (_, _, f, fc, _, _, _) in cases.items():
        got, traced, concrete = out[np.dtype(dtype).name]
        for m, g in zip(methods, got):
            np.testing.assert_allclose(g, [f[-1, 1], f[-2, 0], f[0, 0], f[1, 1]],
                                       rtol=32 * np.finfo(dtype).eps, err_msg=m)  # fmt: skip
        np.testing.assert_allclose(traced, concrete, rtol=32 * np.finfo(dtype).eps)
        np.testing.assert_allclose(traced[0], fc[0, 1], rtol=32 * np.finfo(dtype).eps)


def test_grid_f32_tiny_and_huge_values():
    xp = np.array([0.0, 1.0, 2.5, 3.0, 4.2], F32)
    yp = np.array([-1.0, 0.0, 2.0, 2.5], F32)
    f0 = np.clip(GRID_RNG.normal(size=(5, 4)), -1.5, 1.5)
    q = [GRID_RNG.uniform(0, 4.2, 30).astype(F32), GRID_RNG.uniform(-1, 2.5, 30).astype(F32)]
    k64, q64 = [k.astype(float) for k in (xp, yp)], [v.astype(float) for v in q]
    methods = ["cubic2", "monotonic", "akima", "catmull-rom"]
    run = jax.jit(
        lambda q, f: [
            splines.interp2d(*q, xp, yp, f, m, derivative=[(0, 0), (1, 1)]) for m in methods
        ]
    )  # fmt: skip  (one program for both scales)
    for scale in (1e30, 1e-30):
        f = (f0 * scale).astype(F32)
        got = jax.device_get(run(q, f))
        for m, g in zip(methods, got):
            assert g.dtype == F32
            node = node_data(m, k64, f.astype(float))
            for j, order in enumerate([(0, 0), (1, 1)]):
                ref = tensor_hermite(k64, node, q64, order)
                np.testing.assert_allclose(g[j], ref, rtol=0, atol=4e-6 * np.abs(ref).max(),
                                           err_msg=f"{m} {scale}")  # fmt: skip


def test_grid_complex_columns_dtype_mixes_and_constants_in_jit():
    xp, yp = K2
    f = GRID_RNG.normal(size=(6, 5, 2, 3)) + 1j * GRID_RNG.normal(size=(6, 5, 2, 3))
    qx, qy = GRID_RNG.uniform(xp[0], xp[-1], (7, 2)), GRID_RNG.uniform(yp[0], yp[-1], (1, 2))
    orders = [(0, 0), (1, 1)]
    methods = ["cubic2", "linear", "nearest"]

    def periodic_constants(x):  # a numpy-scalar period and numpy constants
        return splines.interp2d(
            x,
            2.0,
            np.array([0.0, 1, 2]),
            [0, 1, 2, 3],
            np.arange(12.0).reshape(3, 4),
            "cubic2",
            period=(np.float64(3.0), None),
        )

    @jax.jit
    def run(qx, qy, outside, q32, x):
        complexes = [[splines.interp2d(qx, qy, xp, yp, v, m, derivative=orders)
                      for v in (f, f.real, f.imag)] for m in methods]  # fmt: skip
        fill = splines.interp2d(*outside, xp, yp, f[..., 0, 0], method="cubic2", extrap=1 + 2j)
        # f32 knots, f64 values: f64 result; f32 queries too.
        mixed = splines.interp2d(*q32, xp.astype(F32), yp.astype(F32), F2, method="cubic2")
        return complexes, fill, mixed, periodic_constants(x)

    outside = (np.array([-1.0]), np.array([7.0]))
    q32 = [q.astype(F32) for q in Q2]
    complexes, fill, mixed, periodic = jax.device_get(run(qx, qy, outside, q32, 1.5))
    for m, (c, re, im) in zip(methods, complexes):
        assert c.shape == (2, 7, 2, 2, 3) and c.dtype == np.complex128
        np.testing.assert_allclose(c.real, re, rtol=0, atol=1e-13 * np.abs(re).max(), err_msg=m)
        np.testing.assert_allclose(c.imag, im, rtol=0, atol=1e-13 * np.abs(im).max(), err_msg=m)
    np.testing.assert_array_equal(fill, [1 + 2j])
    assert mixed.dtype == np.float64
    np.testing.assert_allclose(periodic, 9.5, rtol=1e-15)
    assert splines.interp2d(1.0, 2.0, [0, 1, 2], [0, 1, 2, 3],
                            np.arange(12).reshape(3, 4), "cubic2") == 6.0  # fmt: skip


def _f32_sign_grid(case):
    """(interpolated, the f64 answer, scale) inside a cell of a ±scale sign pattern."""
    sign = np.array([1, -1, 1], F32)
    if case == "2d linear 2e38":
        k, f = np.array([0, 1], F32), F32(2e38) * np.outer(sign[:2], sign[:2])
        got = splines.interp2d(F32(0.5), F32(0.25), k, k, f.astype(F32), "linear")
        return got, RegularGridInterpolator((k, k), f)([[0.5, 0.25]])[0], 2e38  # want 0
    n, scale, method = (2, 5e37, "linear") if "linear" in case else (3, 1e36, "monotonic")
    k, s = np.arange(n, dtype=F32), sign[:n]
    f = (F32(scale) * s[:, None, None] * s[None, :, None] * s[None, None, :]).astype(F32)
    got = splines.interp3d(F32(0.5), F32(0.5), F32(0.5), k, k, k, f, method)
    small = splines.interp3d(0.5, 0.5, 0.5, k.astype(float), k.astype(float),
                             k.astype(float), f.astype(float) / scale, method)  # fmt: skip
    return got, float(small) * scale, scale  # |want| <= |f|


def _assert_f32_sign_grid(case):
    got, want, scale = _f32_sign_grid(case)
    assert np.isfinite(got)
    np.testing.assert_allclose(float(got), want, rtol=1e-5, atol=1e-6 * scale)


def test_grid_f32_large_values_evaluate_one_axis_at_a_time():
    """A cell is summed one axis at a time, each intermediate an interpolated value of
    the data: float32 values of 5e37 on a 3-D linear grid stay finite (coefficients
    of the whole cell's polynomial would grow 2^d x |f| and overflow)."""
    _assert_f32_sign_grid("3d linear 5e37")


# Known limits, pinned as strict xfails: float32 values near the top of the range.
@pytest.mark.xfail(
    strict=True,
    reason="2-D linear: the chord f1 - f0 = 4e38 overflows float32; 3-D monotonic: "
    "the fit's cross slopes (node data) overflow",
)
@pytest.mark.parametrize("case", ["2d linear 2e38", "3d monotonic 1e36"])
def test_grid_f32_large_values_overflow(case):
    _assert_f32_sign_grid(case)


# ------------------------------------- Akima's grid-wide cutoff under the mapped slope rule


def _per_part(got, ref, parts, err_msg):
    """``got`` against ``ref``, each part (a slice of the queries or an index of the
    columns) on its own scale."""
    for part in parts:
        scale = np.abs(ref[part]).max()
        np.testing.assert_allclose(got[part], ref[part], rtol=0, atol=1e-12 * scale,
                                   err_msg=f"{err_msg} {part}")  # fmt: skip


@pytest.mark.parametrize("method", ["akima", "makima"])
def test_grid_akima_cutoff_is_one_maximum_in_3d_and_over_the_columns(method):
    """3-D: a plane (first axis) and a column of values 1e-12 smaller than the rest fall
    below the cutoff, whose maximum runs over every block of lines the rule is mapped
    over (the second axis' lines come in n_0 blocks, the third's in n_0 n_1) and over
    every column, as scipy's over every column of its data."""
    rng = np.random.default_rng(11)
    knots = (np.array([0.0, 0.5, 1.25]), np.sort(rng.uniform(0, 1, 5)),
             np.sort(rng.uniform(0, 1, 6)))  # fmt: skip
    f = rng.normal(size=(3, 5, 6, 2)) * np.array([1.0, 1e-12, 1.0])[:, None, None, None]
    f[..., 1] *= 1e-12
    m = 20
    q = (np.repeat(knots[0], m), np.tile(rng.uniform(knots[1][0], knots[1][-1], m), 3),
         np.tile(rng.uniform(knots[2][0], knots[2][-1], m), 3))  # fmt: skip
    orders = [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 1)]
    got = jax.device_get(
        jax.jit(lambda *q: splines.interp3d(*q, *knots, f, method, derivative=orders))(*q)
    )
    node = node_data(method, knots, f)
    parts = [(slice(m * p, m * (p + 1)), c) for p in range(3) for c in range(2)]
    for k, order in enumerate(orders):
        _per_part(np.asarray(got[k]), tensor_hermite(knots, node, q, order), parts,
                  f"{method} {order}")  # fmt: skip


@pytest.mark.parametrize("method", ["akima", "makima"])
def test_grid_akima_under_vmap_each_member_keeps_its_own_cutoff(method):
    """An outer `vmap` over values (or knots) batches the fit: each member's cutoff is
    its own maximum, not one over the batch — a member 1e-12 smaller than the other
    gives its own unbatched result."""
    rng = np.random.default_rng(12)
    knots = (np.cumsum(rng.uniform(0.3, 1.2, 4)), np.cumsum(rng.uniform(0.3, 1.2, 6)))
    q = [rng.uniform(k[0], k[-1], 25) for k in knots]
    fs = np.stack([rng.normal(size=(4, 6)), 1e-12 * rng.normal(size=(4, 6))])
    ks = np.stack([knots[1], 1e-3 * knots[1]])
    orders = [(0, 0), (1, 1), (0, 1)]

    def one(f, ky):
        return splines.interp2d(q[0], q[1] * ky[-1] / knots[1][-1], knots[0], ky, f, method,
                                derivative=orders)  # fmt: skip

    batched = jax.device_get(jax.jit(jax.vmap(one))(fs, ks))
    for i in range(2):
        alone = np.asarray(one(fs[i], ks[i]))
        np.testing.assert_allclose(batched[i], alone, rtol=0, atol=1e-14 * np.abs(alone).max(),
                                   err_msg=f"member {i}")  # fmt: skip


@functools.cache
def _akima_columns_3d():
    """3-D data with three columns and one program of both Akima rules at stacked orders,
    the data traced (one compile for the NaN and the inf case)."""
    rng = np.random.default_rng(13)
    knots = (np.cumsum(rng.uniform(0.3, 1.2, 5)), np.cumsum(rng.uniform(0.3, 1.2, 4)),
             np.cumsum(rng.uniform(0.3, 1.2, 6)))  # fmt: skip
    q = [rng.uniform(k[0], k[-1], 15) for k in knots]
    f = rng.normal(size=(5, 4, 6, 3))
    orders = [(0, 0, 0), (1, 1, 1)]
    run = jax.jit(lambda f: [splines.interp3d(*q, *knots, f, m, derivative=orders)
                             for m in ("akima", "makima")])  # fmt: skip
    return f, run


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_grid_akima_nonfinite_value_stays_in_its_column(bad):
    """Traced data with one NaN or inf: its column is NaN, the others are the clean fit
    (the cutoff's maximum skips the non-finite totals, across every block of lines)."""
    f, run = _akima_columns_3d()
    dirty = f.copy()
    dirty[3, 1, 2, 1] = bad
    for clean, got in zip(*jax.device_get((run(f), run(dirty)))):
        assert np.isnan(got[..., 1]).all()
        np.testing.assert_allclose(got[..., ::2], clean[..., ::2], rtol=0,
                                   atol=1e-15 * np.abs(clean).max())  # fmt: skip


def test_grid_akima_runs_in_shard_map_with_its_checks():
    """Akima's grid rule takes every line at once (its cutoff is one maximum): no
    collective over a named map, which `shard_map`'s checks reject."""
    from jax.sharding import Mesh
    from jax.sharding import PartitionSpec as P

    xp, yp = np.arange(4.0), np.arange(5.0)
    f = np.random.default_rng(14).normal(size=(2, 4, 5))
    per_grid = jax.vmap(lambda v: splines.interp2d(1.5, 2.5, xp, yp, v, "akima"))
    mesh = Mesh(np.array(jax.devices()[:1]), ("d",))
    sharded = jax.jit(jax.shard_map(per_grid, mesh=mesh, in_specs=P("d"), out_specs=P("d")))
    np.testing.assert_allclose(sharded(f), per_grid(f), rtol=1e-14)


def test_grid_akima_exports_with_a_symbolic_batch():
    """A batch of Akima grids exports with a symbolic batch size."""
    xp, yp = np.arange(4.0), np.arange(5.0)
    batch = jax.jit(jax.vmap(lambda v: splines.interp2d(1.5, 2.5, xp, yp, v, "akima")))
    (b,) = jax.export.symbolic_shape("b")
    exported = jax.export.export(batch)(jax.ShapeDtypeStruct((b, 4, 5), np.float64))
    f = np.random.default_rng(15).normal(size=(3, 4, 5))
    np.testing.assert_allclose(exported.call(f), batch(f), rtol=1e-14)


@pytest.mark.parametrize("method", ["akima", "makima"])
def test_grid_akima_cutoff_of_the_values_does_not_depend_on_other_slots(method):
    """Each node datum D_S takes Akima's cutoff over its own lines: on knots from 1e-3
    to 1e7, D̃_x (in the axis' unit, ~1e10 |f|) must not push the totals of the values'
    lines along y under 1e-9 of a shared maximum (they would take the fallback slope)."""
    rng = np.random.default_rng(1)
    knots = (np.logspace(-3, 7, 11), np.sort(rng.uniform(0, 1, 6)))
    f = rng.normal(size=(11, 6))
    q = (rng.uniform(knots[0][0], knots[0][-1], 40), rng.uniform(knots[1][0], knots[1][-1], 40))
    node = node_data(method, knots, f)
    orders = [(0, 0), (0, 1)]
    got = splines.interp2d(*q, *knots, f, method, derivative=orders)
    for k, order in enumerate(orders):
        ref = tensor_hermite(knots, node, q, order)
        np.testing.assert_allclose(got[k], ref, rtol=0, atol=1e-12 * np.abs(ref).max(),
                                   err_msg=f"{method} {order}")  # fmt: skip
