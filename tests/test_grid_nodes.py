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
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from numpy.polynomial import polynomial as poly

from splines import Interpolator2D, Interpolator3D, interp2d

RNG = np.random.default_rng(7)
N = (5, 6, 4)
KNOTS = tuple(np.sort(RNG.uniform(0.0, 2.0, n)) for n in N)
FP = RNG.normal(size=N + (2,))


@pytest.mark.parametrize("method, slots", [("cubic2", 8), ("akima", 8), ("linear", 1),
                                           ("nearest", 1)])  # fmt: skip
def test_3d_stores_node_data_not_every_cells_coefficients(method, slots):
    spline = Interpolator3D(*KNOTS, FP, method).spline
    assert spline.nodes.shape == N + (2, slots)
    assert spline.nodes.size == np.prod(N) * 2 * slots  # not ∏(n − 1) × 2 × 4^3


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


@pytest.mark.parametrize("method, basis", [("cubic2", _hermite_basis),
                                           ("monotonic", _hermite_basis),
                                           ("linear", _linear_basis)])  # fmt: skip
def test_3d_evaluation_is_the_node_form_of_the_stored_data(method, basis):
    itp = Interpolator3D(*KNOTS, FP, method)
    queries = tuple(RNG.uniform(k[0], k[-1], 40) for k in KNOTS)
    orders = [(0, 0, 0), (1, 0, 0), (0, 1, 1), (1, 1, 1), (2, 0, 1)]
    got = itp(*queries, derivative=orders)
    for ours, order in zip(got, orders):
        ref = node_form(itp.spline, basis, queries, order)
        scale = max(np.max(np.abs(ref)), np.max(np.abs(FP)))
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12 * scale, err_msg=str(order))


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


@functools.cache
def _periodic_pair(method, dtype, one_ulp):
    """Eager (concrete: no node inserted) and traced-period (node inserted) results."""
    xp, yp, fp, x, y = _closed(dtype, one_ulp)

    def call(p):
        return interp2d(x, y, xp, yp, fp, method, derivative=ORDERS, period=(p, None))

    traced = jax.jit(call)(jnp.asarray(PERIOD, dtype))
    return np.asarray(call(dtype(PERIOD))), np.asarray(traced), fp


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("method", ["cubic2", "akima", "linear", "nearest"])
@pytest.mark.parametrize("one_ulp", [False, True])
def test_traced_periodic_closing_inserts_a_node_with_the_same_polynomial(method, dtype,
                                                                         one_ulp):  # fmt: skip
    if one_ulp and method == "cubic2":
        pytest.skip("a one-ulp cell makes cubic2's solve ill-conditioned: not a rounding test")
    eager, traced, fp = _periodic_pair(method, dtype, one_ulp)
    assert np.all(np.isfinite(eager)), "a test point on a NaN"
    for want, got, order in zip(eager, traced, ORDERS):
        scale = max(np.max(np.abs(want)), np.max(np.abs(fp)))
        np.testing.assert_allclose(got, want, rtol=0, atol=32 * np.finfo(dtype).eps * scale,
                                   err_msg=str(order))  # fmt: skip


@pytest.mark.parametrize("method", ["cubic2", "linear", "nearest"])
def test_traced_periodic_closing_node_count_and_midpoint(method):
    """One node (or piece) more along x; its value is the interpolant at the midpoint."""
    xp, yp, fp, _, _ = _closed(np.float64, False)
    fit = jax.jit(lambda p: Interpolator2D(xp, yp, fp, method, period=(p, None)))
    spline = fit(jnp.asarray(PERIOD)).spline
    eager = Interpolator2D(xp, yp, fp, method, period=(PERIOD, None))
    assert spline.nodes.shape[0] == eager.spline.nodes.shape[0] + 1
    middle = xp[-2] + (xp[-1] - xp[-2]) / 2
    assert np.asarray(spline.breaks[0])[-2] == middle or method == "nearest"
    if method != "nearest":
        want = eager(np.full(yp.shape, middle), yp)
        np.testing.assert_allclose(spline.nodes[-2, :, 0, 0], want, rtol=0, atol=1e-14)


def test_traced_periodic_closing_one_ulp_cell_has_finite_gradients():
    xp, yp, fp, x, y = _closed(np.float64, True)

    def loss(fp, p):
        out = interp2d(x, y, xp, yp, fp, "linear", derivative=(1, 0), period=(p, None))
        return jnp.sum(out**2)

    grads = jax.jit(jax.grad(loss, argnums=(0, 1)))(fp, jnp.asarray(PERIOD))
    assert all(np.all(np.isfinite(g)) for g in grads)
