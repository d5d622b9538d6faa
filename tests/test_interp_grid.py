"""`interp2d`, `interp3d`, `Interpolator2D`, `Interpolator3D`: values against references.

What is checked, and against what:

1. The methods linear in the data (``"cubic2"`` and its end conditions,
   ``"cubic"``, ``"catmull-rom"``, ``"cardinal"``) are the 1-D method along x,
   then along y (then z) at each point, derivatives included: scipy's
   ``CubicSpline`` for cubic2; for the others the 1-D method's cubic Hermite
   form (scipy's ``CubicHermiteSpline`` with `splines.approx_df`'s slopes,
   which is `interp1d`'s interpolant, see `test_methods.py`).  This checks the
   tensor-product assembly; the 1-D methods are validated elsewhere.
2. ``"linear"``/``"nearest"``: scipy's ``RegularGridInterpolator``, on the
   knots and exactly at midpoints too (the knots are multiples of 1/4, so the
   midpoints are exact ties; both take the lower node).
3. The data-dependent methods: interpax's ``interp2d`` and ``interp3d``
   (interpax 0.3.16 has no makima in 2-D); and, for every method, the
   defining property that on a grid line (y = yp[l] or x = xp[k]) the
   interpolant is the 1-D one along that line.
4. Given derivatives: the tensor cubic Hermite interpolant (``CubicHermiteSpline``
   along each axis); derivatives not given come from the method's 1-D rule
   (`splines.approx_df`); exact ones reproduce a bicubic whatever the method.
5. cubic2 (not-a-knot) reproduces a bicubic, linear a bilinear.
6. Periods: open or closed knots, ``bc_type="periodic"``, far queries wrap.
7. ``extrap``: NaN, extension (scipy extrapolates the same end pieces), fills.
8. Stacked derivatives equal separate calls; the classes equal the functions
   (up to an ulp or two of rounding: not bit for bit, not even eagerly).
9. float32 and complex data.
10. NaN queries give NaN (a NaN in every 2-D query set: the references are NaN
    there), so do ±inf ones on periodic axes.

A defect this file found and pins: a NaN coordinate gave the fill value, not
NaN, where the other coordinate was outside with a fill (the NaN step looked
at the cell index instead of the query;
`test_extrap_nan_query_stays_nan_where_the_other_axis_fills`).

References.  One helper, `along_axes`, builds every tensor-product reference
from a 1-D interpolant: along axis 0 at every point, then along axis 1 at
every point keeping each point's own line (the diagonal), and so on.

Tolerances.  ``max|ours − ref| ≤ rtol × max(max|ref|, max|fp|)`` for each
derivative (values near zero make a purely relative error meaningless), with
rtol = 1e-12 in f64: both sides are short sums of O(1) terms on knots O(1)
apart (measured: ≤ 2e-14; 4e-14 against interpax in 3-D).

Runtime.  Compiling dominates, 1–2 s per grid fit and method.  Each group of comparisons is one jitted program computed once
(`functools.cache`) whose entries the tests read; in a program, calls that
share a fit (other derivatives, other ``extrap``, the `Interpolator` classes)
cost little, XLA merges the identical fits.  Knots are closed over
(concrete, as in eager use: the period's closing is decided on them); values
and queries are arguments.
"""

import functools

import jax
import numpy as np
import pytest
import scipy.interpolate as si
from numpy.polynomial import polynomial as poly

import splines

RTOL = 1e-12
# Two calls of the same computation in one program may still round apart by an
# ulp or two (XLA fuses and contracts them into FMAs differently): ≤ 1e-14.
ROUNDING = 1e-14

# --------------------------------------------------------------------------- references


def along_axes(interp_1d, knots, fp, points, orders):
    """The tensor-product reference: a 1-D interpolant along axis 0, 1, … at each point.

    ``interp_1d(q, xp, f, nu)`` (or a tuple of one per axis) is the ``nu``-th
    derivative at ``q`` of the 1-D interpolant of ``f`` along its axis 0, of
    shape ``q.shape + f.shape[1:]``.  ``points``: one flat array of m
    coordinates per axis; ``orders``: one derivative order per axis.  Along
    axis 0 every line is evaluated at the m points; along each later axis the
    lines are evaluated at all m points and each point keeps its own (the
    diagonal).  Returns ``(m, *columns)``.
    """
    rules = interp_1d if isinstance(interp_1d, tuple) else (interp_1d,) * len(knots)
    g = np.asarray(rules[0](points[0], knots[0], fp, orders[0]))  # (m, n_1, …, *columns)
    for rule, q, xp, nu in zip(rules[1:], points[1:], knots[1:], orders[1:]):
        g = np.asarray(rule(q, xp, g.swapaxes(0, 1), nu))  # (m, m, n_next, …, *columns)
        g = np.moveaxis(g.diagonal(0, 0, 1), -1, 0)
    return g


def reference(interp_1d, knots, fp, queries, derivatives):
    """`along_axes` for each per-axis order in ``derivatives``, stacked, in the queries' shape.

    NaN where a coordinate is not finite (ours: NaN queries give NaN, and ±inf
    ones wrap to NaN).
    """
    shape = np.broadcast_shapes(*(np.shape(q) for q in queries))
    points = [np.ravel(np.broadcast_to(q, shape)) for q in queries]
    finite = np.all(np.isfinite(points), axis=0)
    refs = np.stack([along_axes(interp_1d, knots, fp, [p[finite] for p in points], d)
                     for d in derivatives])  # fmt: skip
    out = np.full((len(derivatives), finite.size) + refs.shape[2:], np.nan)
    out[:, finite] = refs
    return out.reshape((len(derivatives),) + shape + refs.shape[2:])


def scipy_cubic(bc_type="not-a-knot"):
    """scipy's C² spline (extrapolating the end pieces; a periodic one wraps)."""
    return lambda q, xp, f, nu: si.CubicSpline(xp, f, bc_type=bc_type)(q, nu)


def scipy_periodic_cubic(period):
    """scipy's periodic C² spline on open knots (the closing knot and value appended)."""

    def interp_1d(q, xp, f, nu):
        xp, f = np.append(xp, xp[0] + period), np.concatenate([f, f[:1]])
        return si.CubicSpline(xp, f, bc_type="periodic")(q, nu)

    return interp_1d


def hermite_1d(method, **options):
    """A 1-D cubic method: the cubic Hermite spline on the method's slopes (`approx_df`)."""

    def interp_1d(q, xp, f, nu):
        slopes = np.asarray(splines.approx_df(xp, f, method, axis=0, **options))
        return si.CubicHermiteSpline(xp, f, slopes)(q, nu)

    return interp_1d


def scipy_linear(q, xp, f, nu):
    return si.make_interp_spline(xp, f, k=1)(q, nu)


def scipy_nearest(q, xp, f, nu):
    """Rounds half down, as ours; its derivatives are zero."""
    return si.interp1d(xp, f, "nearest", axis=0)(q) * (nu == 0)


def hermite(q, xp, f, nu):
    """Cubic Hermite along axis 0 of ``f[..., 0]`` with slopes ``f[..., 1]`` (`node_array`)."""
    return si.CubicHermiteSpline(xp, f[..., 0], f[..., 1])(q, nu)


def node_array(node):
    """``node[mask]`` (the derivative along the axes in mask's bits) as one array for `hermite`.

    Shape ``grid + columns + (2,) * d``, the last index the derivative along
    axis 0, the one before along axis 1, …: `hermite` along axis 0 takes the
    last index, which leaves axis 1's last, and so on.
    """
    d = len(node).bit_length() - 1
    return np.stack(node, -1).reshape(np.shape(node[0]) + (2,) * d)


def assert_close(ours, ref, fp, rtol=RTOL, what=""):
    """``|ours − ref| ≤ rtol × max(max|ref|, max|fp|)`` per derivative (the leading axis)."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (what, ours.shape, ref.shape)
    for k, (o, r) in enumerate(zip(ours, ref)):
        scale = max(float(np.nanmax(np.abs(r), initial=0.0)), float(np.max(np.abs(fp))))
        print(f"{what} [{k}]: {np.nanmax(np.abs(o - r), initial=0.0) / scale:.1e}")
        np.testing.assert_allclose(o, r, rtol=0, atol=rtol * scale, err_msg=f"{what} [{k}]")


def run(compute, *args):
    """``jax.jit(compute)(*args)``: one program per group of comparisons."""
    return jax.jit(compute)(*args)


# --------------------------------------------------------------------------- 2-D data

RNG = np.random.default_rng(20240601)


def _knots(n, start):
    """Uneven knots, multiples of 1/4 (widths 0.5 … 1.5): midpoints are exact."""
    widths = RNG.choice([0.5, 0.75, 1.0, 1.25, 1.5], n - 1)
    return start + np.concatenate([[0.0], np.cumsum(widths)])


def _queries(xp, n_random):
    """Every knot, every midpoint, random points inside, and NaN."""
    inside = RNG.uniform(xp[0], xp[-1], n_random)
    return np.concatenate([xp, (xp[:-1] + xp[1:]) / 2, inside, [np.nan]])


def _polynomial(coefficients, x, y, dx=0, dy=0):
    """``Σ c_ij x^i y^j`` differentiated dx times along x and dy times along y."""
    c = poly.polyder(poly.polyder(coefficients, dx, axis=0), dy, axis=1)
    return poly.polyval2d(x, y, c)


XP, YP = _knots(7, -2.0), _knots(6, -1.0)
GRID = np.meshgrid(XP, YP, indexing="ij")
BICUBIC = RNG.normal(size=(4, 4)) / 4.0 ** np.add.outer(np.arange(4), np.arange(4))
BILINEAR = RNG.normal(size=(2, 2))
# Columns: two random, a bicubic (column 2), a bilinear (column 3).
FP2 = np.stack([*RNG.normal(size=(2, 7, 6)), _polynomial(BICUBIC, *GRID),
                _polynomial(BILINEAR, *GRID)], axis=-1)  # fmt: skip
X2, Y2 = _queries(XP, 2)[:, None], _queries(YP, 2)[None, :]  # (16, 1) and (1, 14)
D2 = ((0, 0), (1, 0), (0, 2), (1, 1), (2, 1))

METHODS_2D = {  # key: (method, options, 1-D reference)
    "cubic2": ("cubic2", {}, scipy_cubic()),
    "cubic2 natural": ("cubic2", {"bc_type": "natural"}, scipy_cubic("natural")),
    "cubic2 clamped": ("cubic2", {"bc_type": "clamped"}, scipy_cubic("clamped")),
    "cubic": ("cubic", {}, hermite_1d("cubic")),
    "catmull-rom": ("catmull-rom", {}, hermite_1d("catmull-rom")),
    "cardinal": ("cardinal", {"c": 0.3}, hermite_1d("cardinal", c=0.3)),
    "linear": ("linear", {}, scipy_linear),
    "nearest": ("nearest", {}, scipy_nearest),
    "monotonic": ("monotonic", {}, lambda q, xp, f, nu: si.PchipInterpolator(xp, f)(q, nu)),
    "monotonic-0": ("monotonic-0", {}, hermite_1d("monotonic-0")),
    "akima": ("akima", {},
              lambda q, xp, f, nu: si.Akima1DInterpolator(xp, f, method="akima")(q, nu)),
    "makima": ("makima", {},
               lambda q, xp, f, nu: si.Akima1DInterpolator(xp, f, method="makima")(q, nu)),
}  # fmt: skip
LINEAR_IN_DATA = ("cubic2", "cubic2 natural", "cubic2 clamped", "cubic", "catmull-rom",
                  "cardinal")  # fmt: skip

# `extrap` queries: inside, outside along either axis or both, NaN in either
# coordinate (with the other one inside, below or above).
XE = RNG.uniform(XP[0] - 1.5, XP[-1] + 1.5, 30)
YE = RNG.uniform(YP[0] - 1.5, YP[-1] + 1.5, 30)
XE[:4] = [np.nan, 1.0, XP[-1] + 1.0, XP[0] - 1.0]
YE[:4] = [YP[0] - 1.0, np.nan, np.nan, YP[-1] + 1.0]
FILLS = ((-5.0, 5.0), (1.0, 2.0))  # (below, above) along x, along y
EXTRAPS = {"True": True, "False": False, "x extends": (True, FILLS[1]), "fills": FILLS,
           "fills array": np.array(FILLS)}  # fmt: skip
DE = ((0, 0), (1, 1))
SEPARATE = ((0, 0), (2, 1))  # derivatives also asked for one at a time


@functools.cache
def _grid_2d():
    """Every method on `FP2` at ``(X2, Y2)``; other calls sharing cubic2's fit alongside."""

    def compute(fp, x, y, xe, ye):
        out = {key: splines.interp2d(x, y, XP, YP, fp, m, derivative=D2, **o)
               for key, (m, o, _) in METHODS_2D.items()}  # fmt: skip
        out["separate"] = [
            splines.interp2d(x, y, XP, YP, fp, "cubic2", derivative=d) for d in SEPARATE
        ]
        out["Interpolator2D"] = splines.Interpolator2D(XP, YP, fp, "cubic2")(x, y, D2)
        for key, extrap in EXTRAPS.items():
            out[key] = splines.interp2d(xe, ye, XP, YP, fp, "cubic2", derivative=DE, extrap=extrap)
        return out

    return run(compute, FP2, X2, Y2, XE, YE)


@functools.cache
def _reference_2d(key):
    """`reference` of `METHODS_2D[key]`'s 1-D method on `FP2` at ``(X2, Y2)``."""
    return reference(METHODS_2D[key][2], (XP, YP), FP2, (X2, Y2), D2)


# ------------------------------------------------------------ 1. methods linear in the data


@pytest.mark.parametrize("key", LINEAR_IN_DATA)
def test_2d_linear_in_data_is_the_1d_method_along_each_axis(key):
    ours = _grid_2d()[key]
    assert ours.shape == (len(D2), 16, 14, 4)
    assert_close(ours, _reference_2d(key), FP2, what=key)


# ------------------------------------------------------------ 2. linear and nearest


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_2d_linear_and_nearest_are_scipy_regular_grid(method):
    """On knots, exact midpoints (ties: both take the lower node), random points, NaN."""
    ours = _grid_2d()[method][0]
    grid = si.RegularGridInterpolator((XP, YP), FP2, method=method, bounds_error=False)
    ref = grid(np.broadcast_arrays(X2, Y2))
    # linear: a few roundings of O(1) terms; nearest copies a value.
    atol = 0.0 if method == "nearest" else 4e-16 * np.abs(FP2).max()
    print(f"{method}: {np.abs(ours - ref).max():.1e}")
    np.testing.assert_allclose(ours, ref, rtol=0, atol=atol)


# ------------------------------------------------------------ 3. data-dependent, grid lines


@pytest.mark.parametrize("key", METHODS_2D)
def test_2d_on_grid_lines_is_the_1d_method(key):
    """On y = yp[l] (x = xp[k]) the interpolant and its x- (y-) derivatives are 1-D ones.

    There `along_axes` of the 1-D method is that 1-D interpolant, for every
    method (the other axis' interpolant is read at a knot); off the lines it
    is the reference for the methods linear in the data only (above).
    """
    ours, ref = np.asarray(_grid_2d()[key]), _reference_2d(key)
    on_x_line, on_y_line = np.isin(X2, XP), np.isin(Y2, YP)
    for k, (dx, dy) in enumerate(D2):
        on_line = (on_x_line & (dx == 0)) | (on_y_line & (dy == 0))
        if on_line.any():
            assert_close(ours[k][on_line][None], ref[k][on_line][None], FP2,
                         what=f"{key} on grid lines, derivative {D2[k]}")  # fmt: skip


INTERPAX_METHODS = ("monotonic", "akima")  # monotonic-0: in 3-D below


@functools.cache
def _interpax_2d():
    interpax = pytest.importorskip("interpax")
    x, y = (np.ravel(q) for q in np.broadcast_arrays(X2, Y2))

    def compute(fp):
        return {m: [interpax.interp2d(x, y, XP, YP, fp, m, derivative=d) for d in D2]
                for m in INTERPAX_METHODS}  # fmt: skip

    return run(compute, FP2)


@pytest.mark.parametrize("method", INTERPAX_METHODS)
def test_2d_data_dependent_methods_match_interpax(method):
    ours = _grid_2d()[method]
    ref = np.reshape(_interpax_2d()[method], ours.shape)
    assert_close(ours, ref, FP2, what=f"{method} vs interpax")


# ------------------------------------------------------------ 4–5. given derivatives, polynomials

# Random derivatives, except the exact ones of the bicubic and bilinear columns.
FX, FY, FXY = (np.concatenate([RNG.normal(size=(7, 6, 2)),
                               np.stack([_polynomial(BICUBIC, *GRID, *d),
                                         _polynomial(BILINEAR, *GRID, *d)], -1)], -1)
               for d in ((1, 0), (0, 1), (1, 1)))  # fmt: skip


def _exact(coefficients):
    """The polynomial's derivatives `D2` at ``(X2, Y2)``."""
    x, y = np.broadcast_arrays(X2, Y2)
    return np.stack([_polynomial(coefficients, x, y, *d) for d in D2])


@functools.cache
def _given_2d():
    def compute(fp, fx, fy, fxy, x, y):
        given = {"fx": fx, "fy": fy, "fxy": fxy}
        return {
            "cubic2": splines.interp2d(x, y, XP, YP, fp, "cubic2", derivative=D2, **given),
            "akima": splines.interp2d(x, y, XP, YP, fp, "akima", derivative=D2, **given),
            "cubic2, fx only": splines.interp2d(x, y, XP, YP, fp, "cubic2", derivative=D2, fx=fx),
        }

    return run(compute, FP2, FX, FY, FXY, X2, Y2)


@pytest.mark.parametrize("method", ["cubic2", "akima"])
def test_2d_all_derivatives_given_is_the_tensor_hermite_interpolant(method):
    """The method no longer matters; exact data reproduce the bicubic."""
    ours = _given_2d()[method]
    ref = reference(hermite, (XP, YP), node_array([FP2, FX, FY, FXY]), (X2, Y2), D2)
    assert_close(ours, ref, FP2, what=f"{method}, all given")
    assert_close(ours[..., 2], _exact(BICUBIC), FP2[..., 2], what=f"{method}, bicubic")


def test_2d_fx_given_takes_fy_and_fxy_from_cubic2_along_y():
    """fy: cubic2's slopes of fp along y; fxy: those of the given fx."""
    ours = _given_2d()["cubic2, fx only"]
    fy, fxy = (np.asarray(splines.approx_df(YP, f, "cubic2", axis=1)) for f in (FP2, FX))
    ref = reference(hermite, (XP, YP), node_array([FP2, FX, fy, fxy]), (X2, Y2), D2)
    assert_close(ours, ref, FP2, what="fx only")
    # cubic2 along y is exact on cubics, so the bicubic stays exact.
    assert_close(ours[..., 2], _exact(BICUBIC), FP2[..., 2], what="fx only, bicubic")


@pytest.mark.parametrize("key, column, coefficients",
                         [("cubic2", 2, BICUBIC), ("linear", 3, BILINEAR)])  # fmt: skip
def test_2d_polynomial_reproduction(key, column, coefficients):
    """Not-a-knot cubic2 is exact on a bicubic, linear on a bilinear (all derivatives)."""
    ours = np.asarray(_grid_2d()[key])[..., column]
    assert_close(ours, _exact(coefficients), FP2[..., column], what=f"{key} polynomial")


# ------------------------------------------------------------ 6. periods, 10. non-finite queries

TAU = 2 * np.pi
XPER = 0.3 + TAU * (np.arange(7) + RNG.uniform(-0.3, 0.3, 7)) / 7  # open: no closing knot
FPER = FP2[..., :2]
# Far queries (they wrap), a knot and a knot two periods away, NaN and ±inf;
# y on its knots (grid lines), random, NaN.
XW = np.concatenate([RNG.uniform(-3 * TAU, 3 * TAU, 8), [XPER[1], XPER[4] - 2 * TAU],
                     [np.nan, np.inf, -np.inf]])[:, None]  # fmt: skip
YW = np.concatenate([YP, RNG.uniform(YP[0], YP[-1], 2), [np.nan]])[None, :]
# bc_type="periodic": both axes close at their last knot, the data with them.
FPC = FP2[..., :2].copy()
FPC[-1], FPC[:, -1] = FPC[0], FPC[:, 0]
SPAN_X, SPAN_Y = XP[-1] - XP[0], YP[-1] - YP[0]
XB = np.append(RNG.uniform(XP[0] - 2 * SPAN_X, XP[-1] + 2 * SPAN_X, 6), np.inf)[:, None]
YB = np.append(RNG.uniform(YP[0] - 2 * SPAN_Y, YP[-1] + 2 * SPAN_Y, 6), -np.inf)[None, :]
DP = ((0, 0), (1, 0), (1, 1))


@functools.cache
def _periodic():
    closed_x = np.append(XPER, XPER[0] + TAU)

    def compute(fp, closed, fpc, x, y, xb, yb):
        period = {"derivative": DP, "period": (TAU, None)}
        return {
            "open": splines.interp2d(x, y, XPER, YP, fp, "cubic2", **period),
            "closed": splines.interp2d(x, y, closed_x, YP, closed, "cubic2", **period),
            "akima": splines.interp2d(x, y, XPER, YP, fp, "akima", **period),
            "bc_type": splines.interp2d(
                xb, yb, XP, YP, fpc, "cubic2", derivative=DP, bc_type="periodic"
            ),
        }

    return run(compute, FPER, np.concatenate([FPER, FPER[:1]]), FPC, XW, YW, XB, YB)


@pytest.mark.parametrize("knots", ["open", "closed"])
def test_2d_period_along_x_is_scipy_periodic_then_not_a_knot(knots):
    ours = np.asarray(_periodic()[knots])
    ref = reference((scipy_periodic_cubic(TAU), scipy_cubic()), (XPER, YP), FPER, (XW, YW), DP)
    assert_close(ours, ref, FPER, what=f"period, {knots} knots")
    # Non-finite queries give NaN, whatever the other coordinate.
    assert np.isnan(ours[:, ~np.isfinite(XW[:, 0])]).all()
    assert np.isnan(ours[:, :, np.isnan(YW[0])]).all()


def test_2d_open_and_closed_periodic_knots_agree():
    assert_close(_periodic()["closed"], _periodic()["open"], FPER, what="closed vs open")


def test_2d_bc_type_periodic_closes_both_axes():
    ours = np.asarray(_periodic()["bc_type"])
    ref = reference(scipy_cubic("periodic"), (XP, YP), FPC, (XB, YB), DP)
    assert_close(ours, ref, FPC, what="bc_type periodic")
    assert np.isnan(ours[:, -1]).all() and np.isnan(ours[:, :, -1]).all()  # ±inf


def test_2d_periodic_akima_on_grid_lines_is_the_periodic_1d_akima():
    """On y = yp[l]: the 1-D periodic akima along x (far queries wrap)."""

    def periodic_akima(q, xp, f, nu):
        return splines.interp1d(q, xp, f, "akima", period=TAU, derivative=(0, 1))[nu]

    ours = np.asarray(_periodic()["akima"])[:2]  # DP[:2]: no derivative along y
    ref = reference((periodic_akima, METHODS_2D["akima"][2]), (XPER, YP), FPER, (XW, YW), DP[:2])
    on_line = np.isin(YW[0], YP)
    assert_close(ours[:, :, on_line], ref[:, :, on_line], FPER, what="periodic akima")


# ------------------------------------------------------------ 7. extrap (cubic2 at XE, YE)

NAN_Q = np.isnan(XE) | np.isnan(YE)
BELOW_X, ABOVE_X = XE < XP[0], XE > XP[-1]
BELOW_Y, ABOVE_Y = YE < YP[0], YE > YP[-1]
OUT_X, OUT_Y = BELOW_X | ABOVE_X, BELOW_Y | ABOVE_Y
INSIDE = ~(OUT_X | OUT_Y | NAN_Q)


def test_extrap_true_extends_the_end_pieces_along_each_axis():
    """scipy's CubicSpline extrapolates the same end pieces; NaN queries give NaN."""
    assert (OUT_X & ~OUT_Y).any() and (OUT_Y & ~OUT_X).any() and (OUT_X & OUT_Y).any()
    ours = np.asarray(_grid_2d()["True"])
    ref = reference(scipy_cubic(), (XP, YP), FP2, (XE, YE), DE)
    assert_close(ours, ref, FP2, what="extrap=True")
    assert np.isnan(ours[:, NAN_Q]).all()


def test_extrap_false_is_nan_outside_any_axis():
    ours, extended = np.asarray(_grid_2d()["False"]), np.asarray(_grid_2d()["True"])
    assert np.isnan(ours[:, ~INSIDE]).all()
    assert_close(ours[:, INSIDE], extended[:, INSIDE], FP2, ROUNDING, "extrap=False inside")


def test_extrap_per_axis_extends_x_and_fills_y():
    """``(True, (1.0, 2.0))``: x extends; below y 1.0, above y 2.0, derivatives too."""
    ours, extended = np.asarray(_grid_2d()["x extends"]), np.asarray(_grid_2d()["True"])
    np.testing.assert_array_equal(ours[:, BELOW_Y & ~NAN_Q], 1.0)
    np.testing.assert_array_equal(ours[:, ABOVE_Y & ~NAN_Q], 2.0)
    y_inside = ~OUT_Y & ~NAN_Q
    assert_close(ours[:, y_inside], extended[:, y_inside], FP2, ROUNDING, "x extends")


@pytest.mark.parametrize("key", ["fills", "fills array"])
def test_extrap_fills_per_axis_and_y_fill_wins_outside_both(key):
    """`FILLS` as pairs or as a (2, 2) array: x's fill, y's wherever y is outside."""
    ours, extended = np.asarray(_grid_2d()[key]), np.asarray(_grid_2d()["True"])
    finite = ~NAN_Q
    assert (OUT_X & BELOW_Y & finite).any() and (OUT_X & ABOVE_Y & finite).any()
    np.testing.assert_array_equal(ours[:, BELOW_X & ~OUT_Y & finite], FILLS[0][0])
    np.testing.assert_array_equal(ours[:, ABOVE_X & ~OUT_Y & finite], FILLS[0][1])
    np.testing.assert_array_equal(ours[:, BELOW_Y & finite], FILLS[1][0])
    np.testing.assert_array_equal(ours[:, ABOVE_Y & finite], FILLS[1][1])
    assert_close(ours[:, INSIDE], extended[:, INSIDE], FP2, ROUNDING, f"{key} inside")


@pytest.mark.parametrize("key", ["x extends", "fills"])
def test_extrap_nan_query_stays_nan_where_the_other_axis_fills(key):
    """x = NaN with y below (y's fill), y = NaN with x above (x's fill): NaN, not the fill."""
    ours = np.asarray(_grid_2d()[key])
    assert np.isnan(ours[:, NAN_Q]).all(), ours[:, NAN_Q, 0]


# ------------------------------------------------------------ 3-D (1–4, 8)

XP3, YP3, ZP3 = _knots(5, -1.0), _knots(6, 0.0), _knots(4, -0.5)
KNOTS3 = (XP3, YP3, ZP3)


def _few_queries(xp):
    """The end knots, a middle knot, a midpoint, a random point."""
    return np.array([xp[0], xp[-1], xp[2], (xp[0] + xp[1]) / 2, RNG.uniform(xp[0], xp[-1])])


QUERIES3 = tuple(_few_queries(xp).reshape(shape) for xp, shape in
                 zip(KNOTS3, [(5, 1, 1), (1, 5, 1), (1, 1, 5)]))  # fmt: skip
FP3 = RNG.normal(size=(5, 6, 4, 2))
GIVEN3 = dict(zip(["fx", "fy", "fxy", "fz", "fxz", "fyz", "fxyz"],  # masks 1 … 7
                  RNG.normal(size=(7,) + FP3.shape)))  # fmt: skip
D3 = ((0, 0, 0), (1, 1, 1), (2, 0, 1))
# monotonic-0: the data-dependent method cheapest to compile (interpax's too).
METHODS_3D = ("cubic2", "linear", "nearest", "monotonic-0")


@functools.cache
def _grid_3d():
    def compute(fp, given, queries):
        out = {m: splines.interp3d(*queries, *KNOTS3, fp, m, derivative=D3) for m in METHODS_3D}
        out["given"] = splines.interp3d(
            *queries, *KNOTS3, fp, method="cubic2", derivative=D3, **given
        )
        out["Interpolator3D"] = splines.Interpolator3D(*KNOTS3, fp, method="cubic2", **given)(
            *queries, D3
        )
        return out

    return run(compute, FP3, GIVEN3, QUERIES3)


def test_3d_cubic2_is_scipy_along_each_axis():
    ours = _grid_3d()["cubic2"]
    assert ours.shape == (len(D3), 5, 5, 5, 2)
    assert_close(ours, reference(scipy_cubic(), KNOTS3, FP3, QUERIES3, D3), FP3, what="3-D cubic2")


@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_3d_linear_and_nearest_are_scipy_regular_grid(method):
    ours = _grid_3d()[method][0]
    ref = si.RegularGridInterpolator(KNOTS3, FP3, method=method)(np.broadcast_arrays(*QUERIES3))
    # As in 2-D: a few roundings for linear, copies for nearest.
    atol = 0.0 if method == "nearest" else 4e-16 * np.abs(FP3).max()
    print(f"3-D {method}: {np.abs(ours - ref).max():.1e}")
    np.testing.assert_allclose(ours, ref, rtol=0, atol=atol)


def test_3d_data_dependent_method_matches_interpax():
    """Mixed derivatives from the 1-D rule along ascending axes (fxz from fx, not from fz)."""
    interpax = pytest.importorskip("interpax")
    points = [np.ravel(q) for q in np.broadcast_arrays(*QUERIES3)]
    ref = run(lambda fp: [interpax.interp3d(*points, *KNOTS3, fp, "monotonic-0", derivative=d)
                          for d in D3], FP3)  # fmt: skip
    ours = _grid_3d()["monotonic-0"]
    assert_close(ours, np.reshape(ref, ours.shape), FP3, what="3-D monotonic-0 vs interpax")


def test_3d_given_derivatives_are_the_tensor_hermite_interpolant():
    ours = _grid_3d()["given"]
    node = node_array([FP3, *GIVEN3.values()])  # masks 0 … 7 in order
    assert_close(ours, reference(hermite, KNOTS3, node, QUERIES3, D3), FP3, what="3-D given")


# ------------------------------------------------------------ 8. stacked derivatives, classes


def test_stacked_derivatives_equal_separate_calls():
    """The same fit and evaluation: equal up to `ROUNDING` (not bit for bit, eagerly either)."""
    stacked = np.asarray(_grid_2d()["cubic2"])
    separate = np.stack(_grid_2d()["separate"])
    assert_close(separate, stacked[[D2.index(d) for d in SEPARATE]], FP2, ROUNDING, "separate")


@pytest.mark.parametrize("program, key, cls", [(_grid_2d, "cubic2", "Interpolator2D"),
                                               (_grid_3d, "given", "Interpolator3D")])  # fmt: skip
def test_interpolator_classes_equal_the_functions(program, key, cls):
    """Up to `ROUNDING`; Interpolator3D with every derivative given, by name."""
    fp = FP2 if cls == "Interpolator2D" else FP3
    assert_close(program()[cls], program()[key], fp, ROUNDING, cls)


# ------------------------------------------------------------ 9. dtypes


@functools.cache
def _dtypes():
    def compute(f32, complex_fp):
        x, y, xp, yp, fp = f32
        return {
            "f32": splines.interp2d(x, y, xp, yp, fp, "cubic2", derivative=D2),
            "f32 data, f64 queries": splines.interp2d(X2, Y2, xp, yp, fp, "cubic2", derivative=D2),
            "complex cubic2": splines.interp2d(X2, Y2, XP, YP, complex_fp, "cubic2", derivative=D2),
            "complex akima": splines.interp2d(
                X2, Y2, XP, YP, complex_fp, "akima", derivative=D2
            ),  # fmt: skip
        }

    f32 = [a.astype(np.float32) for a in (X2, Y2, XP, YP, FP2)]
    return run(compute, f32, FP2[..., 0] + 1j * FP2[..., 1])


@pytest.mark.parametrize("key, dtype", [("f32", np.float32),
                                        ("f32 data, f64 queries", np.float64)])  # fmt: skip
def test_float32_data_compute_in_float32(key, dtype):
    """dtype ``result_type(queries, knots, fp)``; f32 rounding ≲ 1e-6 of the scale."""
    ours = _dtypes()[key]
    assert ours.dtype == dtype
    assert_close(ours, _grid_2d()["cubic2"], FP2, rtol=1e-5, what=key)


@pytest.mark.parametrize("method", ["cubic2", "akima"])
def test_complex_data_are_real_and_imaginary_parts_apart(method):
    ours = _dtypes()[f"complex {method}"]
    assert ours.dtype == np.complex128
    real = np.asarray(_grid_2d()[method])
    assert_close(ours, real[..., 0] + 1j * real[..., 1], FP2, what=f"complex {method}")


# ------------------------------------------------------------ scale-free in float32

SCALE_XP = np.array([0.0, 1.1, 2.0, 3.2, 4.0, 5.1])
SCALE_FP = np.random.default_rng(5).normal(size=(6, 6, 6))
SCALE_Q = np.array([0.3, 1.5, 2.6, 4.9])


def _scaled_compute(knots, q, fp):
    """2-D cubic2 (values and d/dx) and 3-D cubic2 on one knot vector for every axis."""
    return (
        splines.interp2d(
            q, q[::-1], knots, knots, fp[..., 0], "cubic2", derivative=((0, 0), (1, 0))
        ),
        splines.interp3d(q, q[::-1], q, knots, knots, knots, fp, "cubic2"),
    )


def _scaled(scale, dtype):
    """`_scaled_compute` with knots and queries multiplied by ``scale`` and rounded to
    f32, computed in ``dtype`` (one program per dtype: the shapes do not change)."""
    knots, q = ((a * scale).astype(np.float32).astype(dtype) for a in (SCALE_XP, SCALE_Q))
    fp = SCALE_FP.astype(np.float32).astype(dtype)
    return [np.asarray(out, np.float64) for out in run(_scaled_compute, knots, q, fp)]


@pytest.mark.parametrize("scale", [1e-20, 1e-13, 1e13, 1e20])
def test_float32_fits_are_scale_free(scale):
    """Knot spans of 1e±20 in f32: within f32 rounding (2e-6 of the scale,
    docs/architecture.md §4) of f64 on the same inputs.  The mixed derivatives are
    kept in each axis' unit: in x·y units they would over- or underflow (f_xy of
    O(1) data on spans of 1e-20 is 1e40) while each slope alone is fine."""
    for ours, reference in zip(_scaled(scale, np.float32), _scaled(scale, np.float64)):
        for o, r in zip(ours.reshape(-1, ours.shape[-1]), reference.reshape(-1, ours.shape[-1])):
            np.testing.assert_allclose(o, r, rtol=0, atol=2e-6 * np.abs(r).max())


# --- grid evaluation: every derivative order, knots and corners, invalid data, constants, offsets

_CELL_XP = np.array([0.0, 0.4, 1.1, 1.5, 2.3, 3.0])
_CELL_YP = np.array([-1.0, -0.3, 0.2, 0.6, 1.0])


def _knot_queries(rng, n=64):
    """Random points, then every knot pair, the last knots and the four corners."""
    kx, ky = np.meshgrid(_CELL_XP, _CELL_YP, indexing="ij")
    x = np.concatenate([rng.uniform(0, 3, n), kx.ravel(), [3.0, 3.0, 0.0, 3.0, 0.0]])
    y = np.concatenate([rng.uniform(-1, 1, n), ky.ravel(), [0.1, 1.0, -1.0, -1.0, 1.0]])
    return x, y


def test_grid_derivatives_of_every_order_match_scipy_on_and_between_knots():
    """cubic2 (not-a-knot, scipy's ``CubicSpline``) and linear (``make_interp_spline``,
    k=1) along each axis in turn, every order 0–4 per axis (zero past the degree), at
    random points, on every knot, on the last knots and the corners."""
    rng = np.random.default_rng(20)
    fp = rng.normal(size=(6, 5)) * 3
    x, y = _knot_queries(rng)
    orders = [(i, j) for i in range(5) for j in range(5)]
    knots = (_CELL_XP, _CELL_YP)
    for method, rule, degree in [("cubic2", scipy_cubic(), 3), ("linear", scipy_linear, 1)]:
        ours = np.asarray(splines.interp2d(x, y, *knots, fp, method, derivative=orders))
        inside = [o for o in orders if max(o) <= degree]
        refs = dict(zip(inside, reference(rule, knots, fp, (x, y), inside)))
        for out, order in zip(ours, orders):
            ref = refs.get(order, np.zeros_like(x))
            scale = max(np.abs(ref).max(), np.abs(fp).max())
            np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12 * scale,
                                       err_msg=f"{method} {order}")  # fmt: skip


def test_grid_3d_linear_and_nearest_on_knots_last_knots_and_corners_match_scipy():
    rng = np.random.default_rng(21)
    zp = np.array([0.0, 0.5, 2.0])
    fp = rng.normal(size=(6, 5, 3))
    x, y = _knot_queries(rng)
    z = np.resize(np.concatenate([zp, [2.0, 2.0], rng.uniform(0, 2, 7)]), x.shape)
    for method in ["linear", "nearest"]:
        ours = splines.interp3d(x, y, z, _CELL_XP, _CELL_YP, zp, fp, method)
        ref = si.RegularGridInterpolator((_CELL_XP, _CELL_YP, zp), fp, method=method)(
            np.stack([x, y, z], -1))  # fmt: skip
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-14 * np.abs(fp).max())
        beyond = (0, 0, 1) if method == "nearest" else (0, 3, 0)
        past = splines.interp3d(x, y, z, _CELL_XP, _CELL_YP, zp, fp, method,
                                derivative=[(2, 0, 0), beyond])  # fmt: skip
        np.testing.assert_array_equal(past, 0.0)


def test_grid_derivative_past_degree_keeps_nan_of_invalid_data():
    """Traced invalid data: every output of the column and every gradient NaN, also where
    one axis' order is past the degree (the weights there are exact zeros)."""
    fp = np.random.default_rng(22).normal(size=(6, 5, 2))
    fp[2, 1, 0] = np.nan
    x, y = np.array([0.1, 1.5, 3.0]), np.array([0.0, 1.0, -1.0])
    for method, order in [("cubic2", (4, 0)), ("linear", (0, 2)), ("nearest", (1, 1))]:

        def f(fp, x, y, m=method, o=order):
            return splines.interp2d(x, y, _CELL_XP, _CELL_YP, fp, m, derivative=o)

        both = jax.jit(lambda *a, f=f: (f(*a), jax.grad(lambda *b: f(*b)[:, 0].sum(),
                                                       argnums=(0, 1, 2))(*a)))  # fmt: skip
        out, grads = both(fp, x, y)
        out = np.asarray(out)
        assert np.isnan(out[:, 0]).all() and np.isfinite(out[:, 1]).all(), (method, order)
        assert np.isnan(grads[0][..., 0]).all(), (method, order)
        assert all(np.isnan(g).all() for g in grads[1:]), (method, order)


def test_grid_constant_data_is_reproduced_in_and_beyond_the_grid():
    """A constant exactly, inside and extrapolated 20 cells out (t ≈ −20), and a zero
    slope exactly: the cell's values enter its sums as differences from its first
    corner value (all zero here), whereas weights of the data themselves sum to 1 only
    to rounding and each grows as 2|t|³ (1.7e-4 relative at t ≈ −20 in float32)."""
    c = np.float32(0.7)
    fp = np.full((6, 5), c)
    xp, yp = _CELL_XP.astype(np.float32), _CELL_YP.astype(np.float32)
    x = np.linspace(-8.0, 11.0, 200, dtype=np.float32)
    y = np.linspace(-1.0, 1.0, 200, dtype=np.float32)
    for method in ["cubic2", "akima", "cubic", "linear"]:
        out = np.asarray(splines.interp2d(x, y, xp, yp, fp, method, derivative=[(0, 0), (1, 0)],
                                          extrap=True))  # fmt: skip
        np.testing.assert_array_equal(out[0], c, err_msg=method)
        np.testing.assert_array_equal(out[1], 0, err_msg=method)


def test_grid_derivative_of_offset_data_keeps_its_precision():
    """Data 1e4 + O(1) in float32: d/dx as precise (to its own size) as without the offset.

    The derivative does not depend on the offset; the reference is scipy in f64 on the
    f32-rounded data minus the offset (exact).  Had the sums along the last axis run on
    the data themselves, each intermediate value would be rounded to an ulp of 1e4
    (1e-3 in f32) before the x derivative differenced them: 4e-3 off (cubic2)."""
    rng = np.random.default_rng(23)
    g = np.sin(_CELL_XP)[:, None] * np.cos(_CELL_YP) * 2
    fp = (g + 1e4).astype(np.float32)
    exact = fp.astype(np.float64) - 1e4
    x, y = rng.uniform(0, 3, 200), rng.uniform(-1, 1, 200)
    xp, yp = _CELL_XP.astype(np.float32), _CELL_YP.astype(np.float32)
    x32, y32 = x.astype(np.float32), y.astype(np.float32)
    refs = {"cubic2": si.RectBivariateSpline(_CELL_XP, _CELL_YP, exact, s=0)(
                x32, y32, dx=1, grid=False),
            "linear": si.RegularGridInterpolator((_CELL_XP, _CELL_YP), exact, "slinear")(
                np.stack([x32, y32], -1).astype(np.float64), nu=(1, 0))}  # fmt: skip
    for method, ref in refs.items():
        ours = np.asarray(splines.interp2d(x32, y32, xp, yp, fp, method, derivative=(1, 0)))
        assert ours.dtype == np.float32
        err = np.abs(ours - ref).max() / np.abs(ref).max()
        assert err < 1e-5, f"{method}: d/dx off by {err:.2g} of its size"
