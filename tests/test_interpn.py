"""`interpn` and `RegularGridInterpolator`: scipy's regular-grid API on any number of axes.

What is pinned, and against what:

1. ``"linear"``, ``"slinear"``, ``"nearest"`` for d = 1 … 6 are scipy's
   ``RegularGridInterpolator``'s (inside, on knots, on the last knot, with a
   numeric fill, with ``fill_value=None``'s extrapolation; columns too).
2. ``"cubic"``, ``"cubic_legacy"``, ``"cubic2"`` for d = 1 … 5 are the
   not-a-knot ``CubicSpline`` applied along each axis in turn at the point
   (`along_axes`); so scipy's ``"cubic_legacy"`` and scipy's ``"cubic"`` with
   a direct solver agree to rounding, scipy's default (iterative) ``"cubic"``
   only loosely.
3. The other methods linear in the data (``"catmull-rom"``, ``"cardinal"``)
   at d = 4 are `splines.interp1d` along each axis in turn.
4. The data-dependent methods equal `interp2d`/`interp3d` (one pipeline), and
   at d = 4 data constant along the last axis give the d = 3 result.
5. Derivatives (``derivative`` of `interpn`, ``nu`` of the class): against
   `interp3d`, scipy's ``nu``, stacked orders, linear's cell slopes.
6. ``bounds_error``: scipy's message naming the axis; NaN points give NaN
   (scipy raises for them: ours does not, by design); traced points outside
   give NaN; periodic axes never raise.
7. Periodic axes wrap, as `interp2d`'s.
8. The forms of ``xi`` (scipy's readings, shapes included), lists.
9. Descending concrete points; 10. complex, integer and float32 data;
11. jit, grad, ``check_grads``, vmap, ``eqx.filter_jit``;
12. the node data's size (2^d slots per knot, not 4^d per cell);
13. a call with another method refits; the attributes;
14. errors; 15. no host callbacks or branches in the lowered program.

Tolerances.  Against references built from the same 1-D interpolants (scipy's
or ours): ``max|ours − ref| ≤ 1e-12 × max(max|ref|, max|values|)`` (short sums
of O(1) terms on knots O(1) apart; measured ≤ 1e-14).  Against
`interp2d`/`interp3d` and between our own calls (the same pipeline): 1e-14 of
that scale (XLA may fuse and round the same sums differently).

Runtime.  Compiling dominates (seconds per fit and method, more with d).
Grids for d ≥ 4 have 4–6 knots per axis; where a test compares several calls
they run in one jitted program (`run`: knots closed over, concrete as in eager
use; values and points as arguments), in which calls sharing a fit cost
little (XLA merges the identical fits).  What only an eager call does
(raising out of bounds, reversing descending points, reading the forms of
``xi``) is checked eagerly.
"""

import functools
import math

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
import scipy.sparse.linalg as ssl
from _lowered import loops_outside_kernels, lowered_text
from jax.test_util import check_grads

import splines

RTOL = 1e-12
ROUNDING = 1e-14

# --------------------------------------------------------------------------- helpers


def make_grid(rng, sizes):
    """Non-uniform ascending knots per axis: widths 0.4 … 1.6 (a 4:1 spread), random start."""
    return tuple(rng.uniform(-1.0, 1.0) + np.cumsum(rng.uniform(0.4, 1.6, n)) for n in sizes)


def inside_points(rng, points, m):
    """m random points inside the grid, shape (m, d)."""
    return np.stack([rng.uniform(p[0], p[-1], m) for p in points], axis=-1)


def around_points(rng, points, m):
    """m random points in the grid widened by 30 % of each span (many outside)."""
    return np.stack([rng.uniform(p[0] - 0.3 * (p[-1] - p[0]), p[-1] + 0.3 * (p[-1] - p[0]), m)
                     for p in points], axis=-1)  # fmt: skip


def knot_points(rng, points, m):
    """m points with every coordinate on a knot; the first is the last knot of every axis,
    the second the first knot."""
    out = np.stack([p[rng.integers(0, len(p), m)] for p in points], axis=-1)
    out[0] = [p[-1] for p in points]
    out[1] = [p[0] for p in points]
    return out


def cell_points(rng, points, m):
    """m points in random cells, 10–90 % across each (never near a knot)."""
    cells = [rng.integers(0, len(p) - 1, m) for p in points]
    t = rng.uniform(0.1, 0.9, (m, len(points)))
    return np.stack([p[c] + t[:, a] * (p[c + 1] - p[c])
                     for a, (p, c) in enumerate(zip(points, cells))], -1)  # fmt: skip


def outside_somewhere(points, xi):
    """Whether some point of ``xi`` is outside the grid along some axis."""
    lo, hi = np.array([p[0] for p in points]), np.array([p[-1] for p in points])
    return bool(np.any((xi < lo) | (xi > hi)))


def along_axes(interp_1d, knots, fp, xi, orders=None, xnp=np):
    """The tensor-product reference: a 1-D interpolant along axis 0, 1, … at each point.

    ``interp_1d(q, xp, f, nu)`` is the ``nu``-th derivative at ``q`` (shape (m,))
    of the 1-D interpolant of ``f`` along its axis 0, shape ``(m,) + f.shape[1:]``.
    Along axis 0 every line is evaluated at the m points; along each later axis
    all lines are evaluated at all m points and each point keeps its own (the
    diagonal).  Returns ``(m, *columns)``.  ``xnp=jnp`` for a traced reference.
    """
    orders = (0,) * len(knots) if orders is None else orders
    g = xnp.asarray(interp_1d(xi[:, 0], knots[0], fp, orders[0]))  # (m, n_1, …, *columns)
    for a in range(1, len(knots)):
        g = xnp.asarray(interp_1d(xi[:, a], knots[a], g.swapaxes(0, 1), orders[a]))
        g = xnp.moveaxis(g.diagonal(0, 0, 1), -1, 0)  # (m, n_{a+1}, …, *columns)
    return g


def not_a_knot(q, xp, f, nu):
    """scipy's not-a-knot C² spline along axis 0 (extrapolating its end pieces)."""
    return si.CubicSpline(xp, f, axis=0)(q, nu)


def assert_close(ours, ref, values, rtol=RTOL, what=""):
    """Same shape, NaN where ref is NaN, ``|ours − ref| ≤ rtol × max(max|ref|, max|values|)``."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (what, ours.shape, ref.shape)
    np.testing.assert_array_equal(np.isnan(ours), np.isnan(ref), err_msg=f"{what}: NaN places")
    scale = max(float(np.nanmax(np.abs(ref), initial=0.0)), float(np.max(np.abs(values))))
    error = float(np.nanmax(np.abs(ours - ref), initial=0.0))
    print(f"{what}: {error / scale:.1e}")
    assert error <= rtol * scale, (what, error / scale)


def run(compute, *args):
    """``jax.jit(compute)(*args)``: one program for a group of calls."""
    return jax.jit(compute)(*args)


# --------------------------------------------------------------------------- 1. linear, nearest

# d: (knots per axis, column shape)
LINEAR_CASES = {
    1: ((9,), (3,)),
    2: ((6, 7), ()),
    3: ((5, 6, 4), (2,)),
    4: ((5, 4, 6, 4), ()),
    5: ((4, 5, 4, 4, 5), (2,)),
    6: ((4, 4, 5, 4, 4, 4), ()),
}
FILL = -7.25


@pytest.mark.parametrize("d", sorted(LINEAR_CASES))
def test_linear_slinear_and_nearest_match_scipy_in_any_dimension(d):
    """Inside (random points, on knots, on the last knot), a numeric fill outside, and
    ``fill_value=None`` (linear: scipy's linear extrapolation; nearest: the nearest value),
    with and without columns: `interpn` and the class are scipy's to rounding, and on the
    knots they are the data.  No exact midpoints (random points)."""
    rng = np.random.default_rng(100 + d)
    sizes, columns = LINEAR_CASES[d]
    pts = make_grid(rng, sizes)
    values = rng.normal(size=sizes + columns)
    inside = np.concatenate([inside_points(rng, pts, 30), knot_points(rng, pts, 8)])
    around = around_points(rng, pts, 38)
    assert outside_somewhere(pts, around)
    methods = ("linear", "slinear", "nearest")

    def compute(v, q_in, q_out):
        out = {}
        for m in methods:
            out[m, "inside"] = splines.interpn(pts, v, q_in, m)
            out[m, "fill"] = splines.interpn(pts, v, q_out, m, bounds_error=False,
                                             fill_value=FILL)  # fmt: skip
            out[m, "extrapolate"] = splines.interpn(pts, v, q_out, m, False, None)
            out[m, "class, fill"] = splines.RegularGridInterpolator(
                pts, v, m, bounds_error=False, fill_value=FILL)(q_out)  # fmt: skip
        return out

    ours = run(compute, values, inside, around)
    index = tuple(np.searchsorted(p, inside[30:, a]) for a, p in enumerate(pts))
    for m in methods:
        ref = {
            "inside": si.RegularGridInterpolator(pts, values, m)(inside),
            "fill": si.RegularGridInterpolator(pts, values, m, False, FILL)(around),
            "extrapolate": si.RegularGridInterpolator(pts, values, m, False, None)(around),
        }
        ref["class, fill"] = ref["fill"]
        for what, r in ref.items():
            assert ours[m, what].shape == (38,) + columns
            assert_close(ours[m, what], r, values, 1e-13, f"{m} d={d} {what}")
        np.testing.assert_array_equal(ours[m, "inside"][30:], values[index])


# --------------------------------------------------------------------------- 2. cubic

CUBIC_CASES = {
    1: ((8,), (2,)),
    2: ((6, 5), ()),
    3: ((5, 6, 4), (2,)),
    4: ((5, 4, 5, 4), ()),
    5: ((4, 5, 4, 4, 5), ()),
}
CUBIC_NAMES = ("cubic", "cubic_legacy", "cubic2")


def _cubic_case(d):
    """Knots, values, and 40 points: 16 random inside, 4 on knots, 20 around the grid."""
    rng = np.random.default_rng(200 + d)
    sizes, columns = CUBIC_CASES[d]
    pts = make_grid(rng, sizes)
    values = rng.normal(size=sizes + columns)
    xi = np.concatenate([inside_points(rng, pts, 16), knot_points(rng, pts, 4),
                         around_points(rng, pts, 20)])  # fmt: skip
    return pts, values, xi


@functools.cache
def _cubic_results(d):
    """Each name extrapolating (``fill_value=None``), and for d ≤ 3 the class.

    The three names are one method (`cubic2`): the same call.  For d ≤ 3 one program
    (with the class).  For d ≥ 4 (no class) eager calls: the second and third name
    reuse the first one's compiled program (one program holding the three calls
    compiled ~1.3× as long as one call at d = 4 and 5)."""
    pts, values, xi = _cubic_case(d)
    if d >= 4:
        return {m: splines.interpn(pts, values, xi, m, False, None) for m in CUBIC_NAMES}

    def compute(v, q):
        out = {m: splines.interpn(pts, v, q, m, False, None) for m in CUBIC_NAMES}
        out["class"] = splines.RegularGridInterpolator(pts, v, "cubic", False, None)(q)
        return out

    return run(compute, values, xi)


@pytest.mark.parametrize("d", sorted(CUBIC_CASES))
def test_cubic_methods_are_the_not_a_knot_spline_along_each_axis(d):
    """scipy's ``"cubic"``/``"cubic_legacy"`` and our ``"cubic2"``: the exact tensor-product
    not-a-knot spline (`CubicSpline` along axis 0, then 1, … at the point), inside (knots
    included) and extrapolated (``fill_value=None`` extends the end pieces along each
    axis); the class too."""
    pts, values, xi = _cubic_case(d)
    assert outside_somewhere(pts, xi[20:])
    ours = _cubic_results(d)
    ref = along_axes(not_a_knot, pts, values, xi)
    for what, out in ours.items():
        assert_close(out, ref, values, what=f"{what} d={d}")


@pytest.mark.parametrize("d", [1, 3])
def test_cubic_matches_scipy_exact_solves_and_scipy_iterative_cubic_only_loosely(d):
    """scipy's ``"cubic_legacy"`` and ``"cubic"`` with a direct solver (``spsolve``) are the
    same spline: to rounding.  scipy's default ``"cubic"`` solves iteratively (``gcrotmk``;
    about 5e-5 off here): compared only loosely (1e-2 of the scale)."""
    pts, values, xi = _cubic_case(d)
    inside, ours = xi[:20], _cubic_results(d)["cubic"][:20]
    legacy = si.interpn(pts, values, inside, method="cubic_legacy")
    direct = si.RegularGridInterpolator(pts, values, "cubic", solver=ssl.spsolve)(inside)
    iterative = si.interpn(pts, values, inside, method="cubic")
    assert_close(ours, legacy, values, what="vs scipy cubic_legacy")
    assert_close(ours, direct, values, what="vs scipy cubic, spsolve")
    assert_close(ours, iterative, values, rtol=1e-2, what="vs scipy cubic, gcrotmk")


# --------------------------------------------------------------------------- 3. catmull-rom, cardinal


@pytest.mark.parametrize(("method", "c", "orders"), [("catmull-rom", None, (0, 0, 0, 0)),
                                                     ("cardinal", 0.3, (0, 1, 0, 1))])  # fmt: skip
def test_4d_data_linear_cubics_are_interp1d_along_each_axis(method, c, orders):
    """Methods linear in the data: the tensor product is our own 1-D method along each axis
    in turn at the point (values; a mixed derivative for cardinal), inside and extrapolated
    (``fill_value=None`` ↔ ``extrap=True``)."""
    rng = np.random.default_rng(300)
    sizes = (5, 6, 4, 5)
    pts = make_grid(rng, sizes)
    values = rng.normal(size=sizes + (2,))
    xi = np.concatenate([inside_points(rng, pts, 12), knot_points(rng, pts, 3),
                         around_points(rng, pts, 12)])  # fmt: skip

    def interp_1d(q, xp, f, nu):
        return splines.interp1d(q, xp, f, method, c=c, derivative=nu, extrap=True)

    def compute(v, q):  # ours and the reference, in one program
        return (splines.interpn(pts, v, q, method, False, None, c=c, derivative=orders),
                along_axes(interp_1d, pts, v, q, orders, xnp=jnp))  # fmt: skip

    ours, ref = run(compute, values, xi)
    assert ours.shape == (len(xi), 2)
    assert_close(ours, ref, values, what=f"{method} derivative {orders}")


# --------------------------------------------------------------------------- 4. data-dependent

DATA_DEPENDENT = ("monotonic", "monotonic-0", "akima", "makima")


@pytest.mark.parametrize("method", DATA_DEPENDENT)
def test_data_dependent_methods_equal_interp2d_and_interp3d(method):
    """d = 2 and 3: `interpn` (and the class, d = 2) are `interp2d`/`interp3d` to rounding,
    inside and extended outside (``fill_value=None`` ↔ ``extrap=True``)."""
    rng = np.random.default_rng(400)
    pts2, pts3 = make_grid(rng, (6, 7)), make_grid(rng, (5, 6, 4))
    values2, values3 = rng.normal(size=(6, 7)), rng.normal(size=(5, 6, 4))
    q2 = np.concatenate([inside_points(rng, pts2, 15), around_points(rng, pts2, 15)])
    q3 = np.concatenate([inside_points(rng, pts3, 15), around_points(rng, pts3, 15)])
    assert outside_somewhere(pts2, q2) and outside_somewhere(pts3, q3)

    def compute(v2, v3, q2, q3):
        return {
            "d=2": splines.interpn(pts2, v2, q2, method, False, None),
            "d=2 class": splines.RegularGridInterpolator(pts2, v2, method, False, None)(q2),
            "d=2 ref": splines.interp2d(q2[:, 0], q2[:, 1], *pts2, v2, method, extrap=True),
            "d=3": splines.interpn(pts3, v3, q3, method, False, None),
            "d=3 ref": splines.interp3d(*q3.T, *pts3, v3, method, extrap=True),
        }

    ours = run(compute, values2, values3, q2, q3)
    for what, values in (("d=2", values2), ("d=2 class", values2), ("d=3", values3)):
        assert_close(ours[what], ours[what[:3] + " ref"], values, ROUNDING, f"{method} {what}")


@pytest.mark.parametrize("method", ["akima"])
def test_4d_data_constant_along_the_last_axis_give_the_3d_result(method):
    """d = 4, 3-D values repeated along a 4th axis: the slopes and mixed derivatives along
    that axis are zero (for Akima's rule, whose weights are then 0/0, too), so the
    interpolant is `interp3d`'s whatever the 4th coordinate."""
    rng = np.random.default_rng(410)
    pts = make_grid(rng, (5, 6, 4, 5))
    values3 = rng.normal(size=(5, 6, 4))
    values4 = np.repeat(values3[..., None], 5, axis=-1)
    xi = inside_points(rng, pts, 15)

    def compute(v3, v4, q):
        return (splines.interpn(pts, v4, q, method),
                splines.interp3d(q[:, 0], q[:, 1], q[:, 2], *pts[:3], v3, method))  # fmt: skip

    ours, ref = run(compute, values3, values4, xi)
    assert_close(ours, ref, values3, ROUNDING, method)


# --------------------------------------------------------------------------- 5. derivatives

D_ORDERS = [(1, 0, 2), (3, 0, 1), (1, 1, 1)]


def _derivative_case():
    rng = np.random.default_rng(500)
    pts = make_grid(rng, (5, 6, 5))
    return pts, rng.normal(size=(5, 6, 5, 2)), inside_points(rng, pts, 15)


@functools.cache
def _derivative_results():
    pts, values, xi = _derivative_case()

    def compute(v, q):
        rgi = splines.RegularGridInterpolator(pts, v, "cubic")
        q3 = q.reshape(3, 5, 3)
        return {
            "stacked": splines.interpn(pts, v, q, "cubic2", derivative=D_ORDERS),
            "interp3d": splines.interp3d(*q.T, *pts, v, "cubic2", derivative=D_ORDERS),
            "separate": splines.interpn(pts, v, q, "cubic2", derivative=D_ORDERS[0]),
            "class": rgi(q, nu=D_ORDERS),
            "class (1, 0, 2)": rgi(q, nu=(1, 0, 2)),
            "one int": splines.interpn(pts, v, q, "cubic2", derivative=1),
            "leading dims": splines.interpn(pts, v, q3, "cubic2", derivative=D_ORDERS),
        }

    return run(compute, values, xi)


def test_cubic2_derivatives_equal_interp3d_and_the_class_nu():
    """``derivative`` per axis (stacked) is `interp3d`'s to rounding; the class's ``nu``
    (stacked, or one tuple) the same."""
    _, values, _ = _derivative_case()
    ours = _derivative_results()
    assert ours["stacked"].shape == (len(D_ORDERS), 15, 2)
    assert_close(ours["stacked"], ours["interp3d"], values, ROUNDING, "interpn stacked")
    assert_close(ours["class"], ours["interp3d"], values, ROUNDING, "class nu stacked")
    assert_close(ours["class (1, 0, 2)"], ours["interp3d"][0], values, ROUNDING, "class nu")


def test_cubic_derivatives_match_scipy_nu():
    """scipy's ``nu`` of its (exact, direct-solve) ``"cubic"``: ours to rounding."""
    pts, values, xi = _derivative_case()
    scipy_rgi = si.RegularGridInterpolator(pts, values, "cubic", solver=ssl.spsolve)
    for k, o in enumerate(D_ORDERS):
        assert_close(_derivative_results()["stacked"][k], scipy_rgi(xi, nu=o), values,
                     what=f"vs scipy nu={o}")  # fmt: skip


def test_stacked_derivatives_and_one_order_for_all_axes():
    """A list of per-axis tuples stacks the results on a new leading axis, before the
    points' own leading dims; each is the separate call; one int is that order along every
    axis."""
    _, values, _ = _derivative_case()
    ours = _derivative_results()
    assert_close(ours["stacked"][0], ours["separate"], values, ROUNDING, f"{D_ORDERS[0]}")
    assert_close(ours["one int"], ours["stacked"][2], values, ROUNDING, "derivative=1")
    assert ours["leading dims"].shape == (len(D_ORDERS), 3, 5, 2)
    assert_close(ours["leading dims"], ours["stacked"].reshape(len(D_ORDERS), 3, 5, 2), values,
                 ROUNDING, "leading dims")  # fmt: skip


def test_linear_derivatives_are_the_cell_slopes():
    """Linear's derivatives: scipy's ``"slinear"`` ``nu`` (points off knots; a second
    derivative is zero), and on a 1-D grid the secant of the point's cell."""
    rng = np.random.default_rng(510)
    pts = make_grid(rng, (6, 5))
    values = rng.normal(size=(6, 5))
    xi = cell_points(rng, pts, 20)
    orders = [(1, 0), (0, 1), (1, 1), (2, 0)]
    ours = splines.interpn(pts, values, xi, "linear", derivative=orders)
    scipy_rgi = si.RegularGridInterpolator(pts, values, "slinear")
    for k, o in enumerate(orders):
        assert_close(ours[k], scipy_rgi(xi, nu=o), values, 1e-13, f"linear nu={o}")
    np.testing.assert_array_equal(ours[3], 0.0)
    x = cell_points(rng, pts[:1], 10)
    cell = np.searchsorted(pts[0], x[:, 0]) - 1
    secant = np.diff(values[:, 0]) / np.diff(pts[0])
    assert_close(splines.interpn(pts[:1], values[:, 0], x, derivative=1), secant[cell],
                 values, 1e-13, "1-D secants")  # fmt: skip


# --------------------------------------------------------------------------- 6. bounds_error

B_RNG = np.random.default_rng(600)
B_PTS = make_grid(B_RNG, (5, 6, 4))
B_VALUES = B_RNG.normal(size=(5, 6, 4))
# 6 random points inside, then the first and the last corner of the grid.
B_XI = np.concatenate([inside_points(B_RNG, B_PTS, 6), [[p[0] for p in B_PTS]],
                       [[p[-1] for p in B_PTS]]])  # fmt: skip


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_bounds_error_raises_scipys_message_naming_the_axis(axis):
    """One point just outside on ``axis`` (below, or above): interpn and the class raise
    scipy's ValueError (ours ends with a period), linear and cubic."""
    rgis = [splines.RegularGridInterpolator(B_PTS, B_VALUES, m) for m in ("linear", "cubic")]
    message = f"One of the requested xi is out of bounds in dimension {axis}"
    for outside in (B_PTS[axis][0] - 1e-9, B_PTS[axis][-1] + 1e-9):
        xi = B_XI.copy()
        xi[3, axis] = outside
        with pytest.raises(ValueError, match=message):  # scipy's own
            si.interpn(B_PTS, B_VALUES, xi)
        for rgi in rgis:
            with pytest.raises(ValueError, match=message + r"\.$"):
                splines.interpn(B_PTS, B_VALUES, xi, rgi.method)
            with pytest.raises(ValueError, match=message + r"\.$"):
                rgi(xi)


def test_bounds_error_passes_inside_and_on_the_edges_and_nan_gives_nan():
    """Points inside or exactly on the first/last knots do not raise (there: the corner
    values); a NaN coordinate is not "outside": it gives NaN there (scipy raises for it),
    the other points their values."""
    with_nan = B_XI.copy()
    with_nan[1, 2] = np.nan
    for method in ("linear", "cubic"):
        ref = splines.interpn(B_PTS, B_VALUES, B_XI, method, bounds_error=False)
        assert np.all(np.isfinite(ref))
        np.testing.assert_allclose(ref[-2:], B_VALUES[(0, -1), (0, -1), (0, -1)], rtol=1e-14)
        np.testing.assert_array_equal(splines.interpn(B_PTS, B_VALUES, B_XI, method), ref)
        out = splines.interpn(B_PTS, B_VALUES, with_nan, method)
        assert np.isnan(out[1])
        np.testing.assert_array_equal(np.delete(out, 1), np.delete(ref, 1))
    rgi = splines.RegularGridInterpolator(B_PTS, B_VALUES)
    np.testing.assert_array_equal(rgi(B_XI), splines.interpn(B_PTS, B_VALUES, B_XI))
    np.testing.assert_array_equal(np.isnan(rgi(with_nan)), np.arange(8) == 1)


def test_bounds_error_under_jit_gives_nan_outside_and_a_period_never_raises():
    """Traced points cannot raise: those outside give NaN, the others their values
    (interpn, and the class under `eqx.filter_jit`).  With a period on an axis, points
    outside along it wrap: no raise, the wrapped value (interpn and the class)."""
    xi = B_XI.copy()
    xi[2, 1] = B_PTS[1][-1] + 0.5
    refs = {}
    for method in ("linear", "cubic"):
        out = jax.jit(lambda q, m=method: splines.interpn(B_PTS, B_VALUES, q, m))(xi)
        refs[method] = splines.interpn(B_PTS, B_VALUES, xi, method, bounds_error=False)
        assert np.isnan(refs[method][2]) and np.sum(np.isnan(refs[method])) == 1
        assert_close(out, refs[method], B_VALUES, ROUNDING, f"jit {method}")
    rgi = splines.RegularGridInterpolator(B_PTS, B_VALUES)
    assert_close(eqx.filter_jit(lambda r, q: r(q))(rgi, xi), refs["linear"], B_VALUES,
                 ROUNDING, "filter_jit class")  # fmt: skip
    period = B_PTS[1][-1] - B_PTS[1][0] + 0.7  # open knots: the last cell closes the period
    periods = (None, period, None)
    wrapped = xi.copy()
    wrapped[2, 1] = B_PTS[1][0] + 0.3
    xi[2, 1] = wrapped[2, 1] + 2 * period
    xi[4, 1] = B_XI[4, 1] - period
    with pytest.raises(ValueError, match="out of bounds in dimension 1"):  # without the period
        splines.interpn(B_PTS, B_VALUES, xi)
    ours = splines.interpn(B_PTS, B_VALUES, xi, period=periods)
    ref = splines.interpn(B_PTS, B_VALUES, wrapped, period=periods)
    assert np.all(np.isfinite(ref))
    assert_close(ours, ref, B_VALUES, RTOL, "periodic")
    rgi = splines.RegularGridInterpolator(B_PTS, B_VALUES, period=periods)
    assert_close(rgi(xi), ref, B_VALUES, RTOL, "periodic class")


# --------------------------------------------------------------------------- 7. periodic axes


@pytest.mark.parametrize("method", ["cubic2", "linear", "akima"])
def test_periodic_axis_wraps_as_interp2d(method):
    """``period=(2π, None)`` on a 2π-periodic function sampled on open non-uniform knots:
    queries shifted by ±2π (and ±6π) give the unshifted values; all equal `interp2d` with the
    same period; the class with ``period`` too."""
    rng = np.random.default_rng(700)
    widths = rng.uniform(0.4, 1.6, 9)
    xp = 2 * np.pi * (np.cumsum(widths) - widths[0]) / widths.sum()  # [0, 2π), open
    (yp,) = make_grid(rng, (6,))
    x, y = np.meshgrid(xp, yp, indexing="ij")
    values = np.sin(x) * np.cos(y) + 0.3 * np.cos(2 * x + 0.5)
    q = np.stack([rng.uniform(0.0, 2 * np.pi, 15), rng.uniform(yp[0], yp[-1], 15)], -1)
    period = (2 * np.pi, None)
    shifts = (2 * np.pi, -2 * np.pi, 6 * np.pi, -6 * np.pi)

    def compute(v, q):
        return {
            "base": splines.interpn((xp, yp), v, q, method, period=period),
            "interp2d": splines.interp2d(q[:, 0], q[:, 1], xp, yp, v, method, period=period),
            "shifted": [splines.interpn((xp, yp), v, q + jnp.array([s, 0.0]), method,
                                        period=period) for s in shifts],
            "class": splines.RegularGridInterpolator((xp, yp), v, method, period=period)(
                q - jnp.array([2 * np.pi, 0.0])),
        }  # fmt: skip

    ours = run(compute, values, q)
    assert np.all(np.isfinite(ours["base"]))
    assert_close(ours["base"], ours["interp2d"], values, ROUNDING, f"{method} vs interp2d")
    for s, out in zip(shifts, ours["shifted"]):
        assert_close(out, ours["base"], values, RTOL, f"{method} shifted by {s:.3f}")
    assert_close(ours["class"], ours["base"], values, RTOL, f"{method} class")


# --------------------------------------------------------------------------- 8. forms of xi

_XI_RNG = np.random.default_rng(800)
XI_PTS = make_grid(_XI_RNG, (5, 6, 4))
XI_VALUES = _XI_RNG.normal(size=(5, 6, 4, 2))


def test_xi_forms_follow_scipy():
    """``(..., d)`` with leading dims; a tuple of broadcasting arrays (or a list among
    them); a flat ``(m·d,)`` array read as m points; one point ``(d,)`` → shape
    ``(1, *columns)``; lists (xi, and points and values too).  Shapes are scipy's, values
    the ``(m, d)`` call's, for interpn and the class."""
    pts, values = XI_PTS, XI_VALUES
    rgi = splines.RegularGridInterpolator(pts, values)
    flat = inside_points(np.random.default_rng(810), pts, 24)
    ref = splines.interpn(pts, values, flat)
    assert_close(ref, si.interpn(pts, values, flat), values, 1e-13, "(m, d) vs scipy")

    def check(xi, expected, what):
        ours = splines.interpn(pts, values, xi)
        scipy_shape = np.shape(si.interpn(pts, values, xi))
        assert ours.shape == scipy_shape == np.shape(expected), (what, ours.shape, scipy_shape)
        assert_close(ours, expected, values, ROUNDING, what)
        assert_close(rgi(xi), expected, values, ROUNDING, f"class {what}")

    # (4, 3, 2, d): the shape of the broadcast tuple below, one compiled program for both
    check(flat.reshape(4, 3, 2, 3), ref.reshape(4, 3, 2, 2), "(4, 3, 2, d)")
    check(flat.ravel(), ref, "flat (m·d,)")
    check(flat[5], ref[5:6], "one point (d,)")
    check(flat[5].tolist(), ref[5:6], "one point, a list")
    check(flat.tolist(), ref, "a list of points")
    xs, ys, zs = flat[:4, 0], flat[:3, 1], flat[:2, 2]
    grid = np.stack(np.meshgrid(xs, ys, zs, indexing="ij"), -1)  # (4, 3, 2, 3)
    grid_ref = splines.interpn(pts, values, grid.reshape(-1, 3)).reshape(4, 3, 2, 2)
    check((xs[:, None, None], ys[None, :, None], zs[None, None, :]), grid_ref,
          "tuple of broadcasting arrays")  # fmt: skip
    check((jnp.asarray(xs[:, None, None]), ys[None, :, None], zs.tolist()), grid_ref,
          "tuple of arrays and a list")  # fmt: skip
    as_lists = splines.interpn([p.tolist() for p in pts], values.tolist(), flat.tolist())
    assert_close(as_lists, ref, values, ROUNDING, "points and values as lists")


def test_xi_forms_in_one_dimension():
    """d = 1: ``(m,)`` is m points (scipy's reading), ``(m, 1)`` and a list the same."""
    pts, values = XI_PTS[:1], XI_VALUES[:, 0, 0, 0]
    x = inside_points(np.random.default_rng(820), pts, 7)
    ref = si.interpn(pts, values, x)
    for xi in (x, x[:, 0], x[:, 0].tolist()):
        ours = splines.interpn(pts, values, xi)
        assert ours.shape == np.shape(si.interpn(pts, values, xi)) == (7,)
        assert_close(ours, ref, values, 1e-13, "1-D")


def test_xi_of_the_wrong_dimension_raises():
    """A last axis ≠ d, a tuple of the wrong length, a flat array not a multiple of d, a
    scalar: ValueError (interpn and the class)."""
    pts, values = XI_PTS, XI_VALUES
    xi = inside_points(np.random.default_rng(830), pts, 4)
    rgi = splines.RegularGridInterpolator(pts, values)
    for f in (lambda q: splines.interpn(pts, values, q), rgi):
        with pytest.raises(ValueError, match="dimension 2, but the grid has dimension 3"):
            f(xi[:, :2])
        with pytest.raises(ValueError, match="dimension 4, but the grid has dimension 3"):
            f(np.concatenate([xi, xi[:, :1]], axis=1))
        with pytest.raises(ValueError, match="must hold 3 coordinate arrays"):
            f((xi[:, 0], xi[:, 1]))
        with pytest.raises(ValueError, match="dimension 11"):
            f(xi.ravel()[:-1])
        with pytest.raises(ValueError, match="scalar"):
            f(1.0)


# --------------------------------------------------------------------------- 9. descending points


@pytest.mark.parametrize("method", ["linear", "nearest", "cubic"])
def test_descending_points_are_reversed_with_their_values(method):
    """Concrete descending points on one axis or both: the result of the ascending grid with
    the values flipped along those axes (exactly), and scipy's (which accepts them too);
    the class the same."""
    rng = np.random.default_rng(900)
    pts = make_grid(rng, (5, 6))
    values = rng.normal(size=(5, 6))
    xi = inside_points(rng, pts, 15)
    ours = splines.interpn(pts, values, xi, method)
    scipy_method = {"cubic": "cubic_legacy"}.get(method, method)
    for flip in ((0,), (1,), (0, 1)):
        desc_pts = tuple(p[::-1] if a in flip else p for a, p in enumerate(pts))
        desc_values = np.flip(values, flip)
        out = splines.interpn(desc_pts, desc_values, xi, method)
        np.testing.assert_array_equal(out, ours)
        assert_close(out, si.interpn(desc_pts, desc_values, xi, scipy_method), values,
                     what=f"{method} flipped {flip} vs scipy")  # fmt: skip
        rgi = splines.RegularGridInterpolator(desc_pts, desc_values, method)
        np.testing.assert_array_equal(rgi(xi), ours)


# --------------------------------------------------------------------------- 10. dtypes


@pytest.mark.parametrize("method", ["linear", "nearest", "cubic", "makima"])
def test_complex_values_are_real_and_imaginary_parts(method):
    """Complex values: the interpolant of the real parts plus i × that of the imaginary
    parts (makima's weights too are taken per part), a complex fill outside; linear and
    nearest are scipy's."""
    rng = np.random.default_rng(1000)
    pts = make_grid(rng, (6, 5))
    real, imag = rng.normal(size=(2, 6, 5))
    values = real + 1j * imag
    xi = around_points(rng, pts, 20)
    assert outside_somewhere(pts, xi)
    fill = 1.5 - 2j

    def compute(re, im, q):
        return (splines.interpn(pts, re + 1j * im, q, method, False, fill),
                splines.interpn(pts, re, q, method, False, fill.real),
                splines.interpn(pts, im, q, method, False, fill.imag))  # fmt: skip

    ours, re, im = run(compute, real, imag, xi)
    assert ours.dtype == np.complex128
    assert_close(ours, re + 1j * im, np.abs(values), ROUNDING, f"{method} complex")
    if method in ("linear", "nearest"):
        assert_close(ours, si.interpn(pts, values, xi, method, False, fill), np.abs(values),
                     1e-13, f"{method} vs scipy")  # fmt: skip


def test_integer_values_promote_and_float32_stays_float32():
    """Integer values interpolate as float64 (linear and cubic); float32 points, values and
    xi give float32, close to the float64 result of the same numbers (interpn with cubic,
    the class with linear, its ``grid`` and ``values`` float32 too)."""
    rng = np.random.default_rng(1010)
    pts = make_grid(rng, (6, 5))
    ints = rng.integers(-5, 6, size=(6, 5))
    xi = inside_points(rng, pts, 10)
    for method in ("linear", "cubic"):
        out = splines.interpn(pts, ints, xi, method)
        assert out.dtype == np.float64
        np.testing.assert_array_equal(out, splines.interpn(pts, ints.astype(float), xi, method))
    pts32 = tuple(p.astype(np.float32) for p in pts)
    values32, xi32 = ints.astype(np.float32) / 3, xi.astype(np.float32)
    pts64, values64, xi64 = tuple(p.astype(float) for p in pts32), values32.astype(float), (
        xi32.astype(float))  # fmt: skip
    atol = 1e-5 * np.abs(values32).max()
    out32 = splines.interpn(pts32, values32, xi32, "cubic")
    assert out32.dtype == np.float32
    ref = splines.interpn(pts64, values64, xi64, "cubic")
    np.testing.assert_allclose(out32, ref, rtol=0, atol=atol)
    rgi32 = splines.RegularGridInterpolator(pts32, values32)
    assert rgi32.grid[0].dtype == np.float32 and rgi32.values.dtype == np.float32
    assert rgi32(xi32).dtype == np.float32
    np.testing.assert_allclose(rgi32(xi32), splines.interpn(pts64, values64, xi64), rtol=0,
                               atol=atol)  # fmt: skip


# --------------------------------------------------------------------------- 11. transforms

T_RNG = np.random.default_rng(1100)
T_PTS = make_grid(T_RNG, (5, 6))
T_VALUES = T_RNG.normal(size=(5, 6))
T_XI = cell_points(T_RNG, T_PTS, 6)


def test_jit_with_static_method_equals_eager():
    """`jax.jit` of interpn with ``method`` (and the bounds options) static, points, values
    and xi traced: the eager result."""
    f = jax.jit(splines.interpn, static_argnames=("method", "bounds_error"))
    for method in ("linear", "cubic"):
        out = f(T_PTS, T_VALUES, T_XI, method=method, bounds_error=False)
        ref = splines.interpn(T_PTS, T_VALUES, T_XI, method)
        assert_close(out, ref, T_VALUES, ROUNDING, f"jit {method}")


@pytest.mark.parametrize("method", ["linear", "cubic"])
def test_grad_with_respect_to_values_and_xi(method):
    """The gradient w.r.t. values (data-linear methods), dotted with a direction, is the
    interpolant of that direction; w.r.t. xi it is the first derivatives along each axis."""
    u = np.random.default_rng(1120).normal(size=T_VALUES.shape)

    def total(v, q):
        return splines.interpn(T_PTS, v, q, method, bounds_error=False).sum()

    def compute(v, u, q):  # the gradients and their references, in one program
        return (jax.grad(total, argnums=(0, 1))(v, q),
                splines.interpn(T_PTS, u, q, method).sum(),
                splines.interpn(T_PTS, v, q, method, derivative=[(1, 0), (0, 1)]))  # fmt: skip

    (g_values, g_xi), along_u, slopes = run(compute, T_VALUES, u, T_XI)
    np.testing.assert_allclose(np.vdot(g_values, u), along_u, rtol=1e-12)
    assert_close(g_xi.T, slopes, T_VALUES, ROUNDING, f"{method} d/dxi")


def test_check_grads_in_values_and_xi():
    """cubic2, d = 3, points strictly inside cells, values and xi together: forward mode to
    second order (the mixed values–xi derivatives included), reverse mode to first order
    (reverse to second order as well costs ~100 s of compiling, 4× this test; first-order
    reverse is also pinned exactly by `test_grad_with_respect_to_values_and_xi`)."""
    rng = np.random.default_rng(1110)
    pts = make_grid(rng, (4, 4, 4))
    values, xi = rng.normal(size=(4, 4, 4)), cell_points(rng, pts, 4)

    def f(v, q):
        return splines.interpn(pts, v, q, "cubic2", bounds_error=False)

    check_grads(f, (values, xi), order=2, modes=("fwd",))
    check_grads(f, (values, xi), order=1, modes=("rev",))


def test_vmap_over_values_and_the_class_built_inside_vmap():
    """vmap over a batch of values: interpn vmapped, and the class built and called inside
    vmap, equal the separate calls."""
    batch = np.random.default_rng(1130).normal(size=(3,) + T_VALUES.shape)

    def compute(batch, q):
        return (jax.vmap(lambda v: splines.interpn(T_PTS, v, q, "cubic"))(batch),
                jax.vmap(lambda v: splines.RegularGridInterpolator(T_PTS, v, "cubic")(q))(batch),
                [splines.interpn(T_PTS, v, q, "cubic") for v in batch])  # fmt: skip

    vmapped, vmapped_class, separate = run(compute, batch, T_XI)
    assert vmapped.shape == (3, len(T_XI))
    assert_close(vmapped, np.stack(separate), batch, ROUNDING, "vmap interpn")
    assert_close(vmapped_class, np.stack(separate), batch, ROUNDING, "vmap class")


def test_the_class_is_a_pytree_through_jit_and_grad():
    """`eqx.filter_jit` and `jax.jit` take the class as an argument (interpn's result); in
    them the gradient of a call w.r.t. its xi is the derivative ``nu``; the gradient w.r.t.
    the class reaches its node data."""
    rgi = splines.RegularGridInterpolator(T_PTS, T_VALUES, "cubic", bounds_error=False)
    ref = splines.interpn(T_PTS, T_VALUES, T_XI, "cubic")

    def compute(r, q):
        return r(q), jax.grad(lambda q: r(q).sum())(q), r(q, nu=(0, 1))

    out, g, slope = eqx.filter_jit(compute)(rgi, T_XI)
    assert_close(out, ref, T_VALUES, ROUNDING, "filter_jit")
    assert_close(g[:, 1], slope, T_VALUES, ROUNDING, "grad xi")
    assert_close(jax.jit(lambda r, q: r(q))(rgi, T_XI), ref, T_VALUES, ROUNDING, "jit")
    g_rgi = eqx.filter_jit(eqx.filter_grad(lambda r, q: r(q).sum()))(rgi, T_XI)
    assert g_rgi.spline.nodes.shape == rgi.spline.nodes.shape
    assert np.any(np.asarray(g_rgi.spline.nodes) != 0)


# --------------------------------------------------------------------------- 12. memory


def test_node_data_hold_two_to_the_d_slots_per_knot():
    """d = 5 cubic: ``nodes`` is ``(n_0, …, n_4, k, 2^5)`` — node data, not a per-cell 4^5
    table; linear holds one slot (shapes by `jax.eval_shape`: no compile); d = 2 fitted;
    d = 1 a table of pieces ``(n-1, k, degree+1)``."""
    rng = np.random.default_rng(1200)
    sizes = (4, 5, 4, 6, 4)
    pts = make_grid(rng, sizes)
    values = rng.normal(size=sizes + (2,))

    def fitted(m, pts=pts):
        return lambda v: splines.RegularGridInterpolator(pts, v, m)

    cubic = jax.eval_shape(fitted("cubic"), values)
    assert cubic.spline.nodes.shape == sizes + (2, 2**5)
    assert math.prod(cubic.spline.nodes.shape) == math.prod(sizes) * 2 * 2**5
    assert len(cubic.spline.breaks) == 5
    assert jax.eval_shape(fitted("linear"), values).spline.nodes.shape == sizes + (2, 1)
    two = splines.RegularGridInterpolator(pts[:2], values[:, :, 0, 0, 0, 0], "cubic")
    assert two.spline.nodes.shape == (4, 5, 1, 4) and two.spline.nodes.size == 4 * 5 * 4
    one = splines.RegularGridInterpolator(pts[:1], values[:, 0, 0, 0, 0, 0], "cubic")
    assert one.spline.nodes.shape == (3, 1, 4)
    one = splines.RegularGridInterpolator(pts[:1], values[:, 0, 0, 0, 0], "linear")
    assert one.spline.nodes.shape == (3, 2, 2)


# --------------------------------------------------------------------------- 13. refit, attributes


def test_rgi_call_with_another_method_refits_and_attributes():
    """``rgi(xi, method=...)`` equals a class fitted with that method (and the same
    ``fill_value`` and ``period``); ``.grid`` is ascending for descending input, ``.values``
    flipped with it; the other attributes are those given."""
    rng = np.random.default_rng(1300)
    pts = make_grid(rng, (5, 6))
    values = rng.normal(size=(5, 6))
    xi = around_points(rng, pts, 20)
    assert outside_somewhere(pts[:1], xi[:, :1])
    desc_pts, desc_values = (pts[0][::-1], pts[1]), values[::-1]
    period = pts[1][-1] - pts[1][0] + 0.8  # open knots: the last cell closes the period
    kw = {"bounds_error": False, "fill_value": 2.5, "period": (None, period)}
    cubic = splines.RegularGridInterpolator(desc_pts, desc_values, "cubic", **kw)
    for method in ("linear", "nearest", "cubic2", "cubic"):
        ref = splines.RegularGridInterpolator(pts, values, method, **kw)(xi)
        assert np.any(ref == 2.5) and not np.all(ref == 2.5)
        assert_close(cubic(xi, method=method), ref, values, ROUNDING, method)
    linear = splines.RegularGridInterpolator(pts, values, "linear", **kw)
    assert_close(linear(xi, method="cubic"), cubic(xi), values, ROUNDING, "linear → cubic")
    assert cubic.method == "cubic" and cubic.bounds_error is False and cubic.fill_value == 2.5
    assert isinstance(cubic.grid, tuple) and len(cubic.grid) == 2
    for ours, p in zip(cubic.grid, pts):
        np.testing.assert_array_equal(ours, p)
    np.testing.assert_array_equal(cubic.values, values)


def test_rgi_fill_value_and_bounds_error_are_assignable_as_scipy_s():
    """scipy's tutorial sets ``rgi.fill_value = -101`` on a built interpolator; the fit is
    kept (cubic2 with its bc_type), the other fields stay frozen."""
    x, y = np.array([0.0, 5, 10, 12]), np.array([0.0, 1, 3, 4])
    values = np.array([[0.0, 1, 4, 2], [5, 6, 2, 1], [10, 11, 7, 3], [9, 8, 6, 5]])
    xi = np.array([(2.0, 0.0), (2.0, 1.5), (2.0, -1.0), (13.0, 1.0)])
    for method in ("linear", "cubic"):
        ours = splines.RegularGridInterpolator((x, y), values, method, False, None)
        theirs = si.RegularGridInterpolator((x, y), values, method, False, None,
                                            solver_args={"atol": 1e-14, "rtol": 1e-14} if
                                            method == "cubic" else None)  # fmt: skip
        for fill in (-101.0, None, np.nan):
            ours.fill_value, theirs.fill_value = fill, fill
            assert_close(ours(xi), theirs(xi), values, 1e-8, f"{method}, fill {fill}")
        ours.bounds_error = True
        with pytest.raises(ValueError, match="out of bounds in dimension 1"):
            ours(xi[:3])
    with pytest.raises(AttributeError):  # equinox's frozen fields: a new interpolator
        ours.values = values


def test_an_axis_of_one_point_is_constant_and_in_bounds_only_on_it():
    """scipy's tutorial grid ``(array([0, 5, 10]), array([0]))``: every method constant
    along the one-point axis, points off it outside (fill, extension or the error)."""
    x, y = np.array([0.0, 5, 10]), np.array([0.0])
    values = np.array([[0.0], [5], [10]])
    xi = np.array([(2.0, 0.0), (2.0, 1.0), (2.0, -1.0), (3.0, np.nan)])
    for method in ("linear", "nearest"):  # (scipy's slinear and cubic need more points)
        for fill in (None, np.nan, -7.0):
            theirs = si.RegularGridInterpolator((x, y), values, method, False, fill)(xi)
            ours = splines.RegularGridInterpolator((x, y), values, method, False, fill)
            assert_close(ours(xi), theirs, values, ROUNDING, f"{method}, fill {fill}")
            assert_close(splines.interpn((x, y), values, xi, method, False, fill), theirs,
                         values, ROUNDING, f"interpn {method}")  # fmt: skip
    extended = splines.RegularGridInterpolator((x, y), values, "cubic", False, None)(xi)
    np.testing.assert_allclose(extended[:3], 2.0, rtol=1e-14)
    with pytest.raises(ValueError, match="out of bounds in dimension 1"):
        splines.interpn((x, y), values, xi[:2])
    g = jax.grad(lambda v: splines.interpn((x, y), v, xi[:1]).sum())(values)
    np.testing.assert_allclose(g[:, 0], [0.6, 0.4, 0.0], rtol=1e-14)


def test_rgi_call_with_an_alias_of_the_fitted_method_keeps_its_bc_type():
    """A call's ``method`` naming the fitted method (scipy's ``"cubic"`` ↔ our ``"cubic2"``)
    gives the fitted interpolant, end conditions included."""
    rng = np.random.default_rng(1310)
    pts = make_grid(rng, (5, 6))
    values = rng.normal(size=(5, 6))
    xi = inside_points(rng, pts, 10)
    rgi = splines.RegularGridInterpolator(pts, values, "cubic", bc_type="natural")
    assert_close(rgi(xi, method="cubic2"), rgi(xi), values, ROUNDING, "cubic2 alias")


# --------------------------------------------------------------------------- 14. errors

E_RNG = np.random.default_rng(1400)
E_PTS = make_grid(E_RNG, (5, 6, 4))
E_VALUES = E_RNG.normal(size=(5, 6, 4))
E_XI = inside_points(E_RNG, E_PTS, 3)


@pytest.mark.parametrize("method", ["pchip", "quintic", "quintic_legacy", "spline", "CUBIC"])
def test_unavailable_or_unknown_methods_raise_naming_the_method(method):
    """scipy's ``"pchip"``/``"quintic"``/``"quintic_legacy"`` explain why they are not here;
    an unknown name is listed against the known ones (interpn, the class, a class call)."""
    match = f"`method`='{method}' is not"
    with pytest.raises(ValueError, match=match):
        splines.interpn(E_PTS, E_VALUES, E_XI, method)
    with pytest.raises(ValueError, match=match):
        splines.RegularGridInterpolator(E_PTS, E_VALUES, method)
    with pytest.raises(ValueError, match=match):
        splines.RegularGridInterpolator(E_PTS, E_VALUES)(E_XI, method=method)
    known = "is not available: " if method in ("pchip", "quintic", "quintic_legacy") else (
        r"is not one of \[")  # fmt: skip
    with pytest.raises(ValueError, match=known):
        splines.interpn(E_PTS, E_VALUES, E_XI, method)


def test_bad_arguments_raise():
    """``points`` not a tuple/list (or a 2-D array): TypeError; a complex fill with real values: ValueError
    (scipy's type); a non-numeric fill: ValueError; values not matching the points:
    ValueError naming ``values`` and ``points[i]``; non-monotone concrete points:
    ValueError naming them and the user's indices, also when they start descending
    (interpn and the class).  A complex fill with complex values is fine."""

    def rgi(p, v, q, **kw):
        return splines.RegularGridInterpolator(p, v, **kw)

    for f in (splines.interpn, rgi):
        with pytest.raises(TypeError, match="`points` must be a tuple"):
            f(E_PTS[0], E_VALUES[:, 0, 0], E_XI[:, :1])
        with pytest.raises(ValueError, match="complex but `values` are real"):
            f(E_PTS, E_VALUES, E_XI, bounds_error=False, fill_value=1j)
        with pytest.raises(ValueError, match="`fill_value` must be None or a number"):
            f(E_PTS, E_VALUES, E_XI, bounds_error=False, fill_value="a")
        with pytest.raises(ValueError, match=r"`values` must have len\(points\[1\]\) = 6"):
            f(E_PTS, E_VALUES[:, :5], E_XI)
        with pytest.raises(ValueError, match=r"`values` must have at least 3 dimensions"):
            f(E_PTS, E_VALUES[0], E_XI)
        bad = (E_PTS[0], E_PTS[1], np.array([0.0, 2.0, 1.0, 3.0]))
        with pytest.raises(ValueError, match=r"`points\[2\]` must be strictly increasing"):
            f(bad, E_VALUES, E_XI)
        tie = (E_PTS[0], E_PTS[1][[0, 1, 1, 2, 3, 4]], E_PTS[2])
        with pytest.raises(ValueError, match=r"`points\[1\]` must be strictly increasing"):
            f(tie, E_VALUES, E_XI)
        down = (E_PTS[0], E_PTS[1], np.array([3.0, 1.0, 2.0, 0.0]))
        with pytest.raises(ValueError, match=r"starts descending, but `points\[2\]\[1\]` = 1.0 "
                                             r"and `points\[2\]\[2\]` = 2.0"):  # fmt: skip
            f(down, E_VALUES, E_XI)
        with pytest.raises(ValueError, match=r"`points\[2\]` must be finite; `points\[2\]\[1\]`"):
            f((E_PTS[0], E_PTS[1], np.array([3.0, np.nan, 2.0, 0.0])), E_VALUES, E_XI)
    out = splines.interpn(E_PTS, E_VALUES + 0j, E_XI + 100, bounds_error=False, fill_value=1j)
    np.testing.assert_array_equal(out, np.full(3, 1j))


def test_points_as_a_2d_array_are_one_axis_per_row_as_scipy():
    """scipy iterates ``points``: an (ndim, n) array is a grid of equal-length axes."""
    x = np.linspace(0.0, 2.0, 5)
    values = x[:, None] * x[None, :] ** 2
    xi = np.array([[0.5, 1.5], [1.2, 0.3]])
    want = si.interpn((x, x), values, xi)
    for points in (np.stack([x, x]), jnp.stack([x, x])):
        np.testing.assert_allclose(splines.interpn(points, values, xi), want, rtol=1e-14)
        rgi = splines.RegularGridInterpolator(points, values)
        np.testing.assert_allclose(rgi(xi), want, rtol=1e-14)


# --------------------------------------------------------------------------- 15. lowering


@pytest.mark.parametrize(("method", "period"), [("cubic", None), ("akima", (None, 7.0, None)),
                                                ("linear", None)])  # fmt: skip
def test_lowered_program_has_no_host_callbacks_or_branches(method, period):
    """The jitted interpn (values and xi traced) lowers with no host callback, no
    ``stablehlo.case``/``stablehlo.if``, and no loop outside the solve kernels."""
    text = lowered_text(lambda v, q: splines.interpn(E_PTS, v, q, method=method,
                                                     bounds_error=False, period=period),
                        E_VALUES, E_XI)  # fmt: skip
    assert "func.func" in text
    for forbidden in ("callback", "stablehlo.case", "stablehlo.if"):
        assert forbidden not in text, forbidden
    assert loops_outside_kernels(text) == []


@pytest.mark.parametrize("fill_value", [np.nan, None, 0.0])
def test_every_axis_periodic_accepts_any_fill(fill_value):
    """With a period on every axis no point is outside: ``bounds_error=False`` and any
    ``fill_value`` give the wrapped values, as ``bounds_error=True`` does."""
    x = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    values = np.sin(x)[:, None] * np.cos(x)
    xi = np.array([[0.3, 7.0], [-1.0, 2.5]])
    wrapped = splines.interpn((x, x), values, xi, period=2 * np.pi)
    out = splines.interpn((x, x), values, xi, bounds_error=False, fill_value=fill_value,
                          period=2 * np.pi)  # fmt: skip
    np.testing.assert_allclose(out, wrapped, rtol=1e-14)
    rgi = splines.RegularGridInterpolator((x,), np.sin(x), period=2 * np.pi,
                                          bounds_error=False, fill_value=fill_value)  # fmt: skip
    raising = splines.RegularGridInterpolator((x,), np.sin(x), period=2 * np.pi)
    np.testing.assert_allclose(rgi(np.array([[7.0]])), raising(np.array([[7.0]])), rtol=1e-14)


def test_rgi_fill_value_may_be_traced_and_is_data():
    """``fill_value`` is an array leaf of the class: built under jit from a traced fill it
    fills with that value, and two fills share one program; a call with another method
    keeps it."""
    traces = []

    @jax.jit
    def filled(fill):
        traces.append(1)
        rgi = splines.RegularGridInterpolator(E_PTS, E_VALUES, bounds_error=False,
                                              fill_value=fill)  # fmt: skip
        return rgi(E_XI + 100), rgi(E_XI + 100, "cubic")

    for fill in (3.0, -1.5):
        for out in filled(fill):
            np.testing.assert_array_equal(out, np.full(3, fill))
    assert len(traces) == 1
    rgi = jax.jit(lambda f: splines.RegularGridInterpolator(
        E_PTS, E_VALUES, bounds_error=False, fill_value=f))(2.0)  # fmt: skip
    np.testing.assert_array_equal(rgi(E_XI + 100), np.full(3, 2.0))
    assert float(rgi.fill_value) == 2.0


def test_nearest_extrapolates_infinite_points_to_the_edge_values_as_scipy():
    """With ``fill_value=None`` a constant end piece has a value at ±inf: "nearest" gives
    the edge cells' values there, as scipy (linear gives NaN, as scipy)."""
    pts = (np.linspace(0.0, 1.0, 5), np.array([0.0, 0.5, 1.5, 2.0]))
    values = np.random.default_rng(5).normal(size=(5, 4))
    xi = np.array([[np.inf, 0.6], [-np.inf, 1.9], [0.3, np.inf], [0.2, -np.inf]])
    ours = splines.interpn(pts, values, xi, "nearest", bounds_error=False, fill_value=None)
    ref = si.interpn(pts, values, xi, "nearest", bounds_error=False, fill_value=None)
    np.testing.assert_array_equal(ours, ref)
    linear = splines.interpn(pts, values, xi, "linear", bounds_error=False, fill_value=None)
    assert np.all(np.isnan(linear))


def test_nan_values_give_nan_gradients_in_xi_for_nearest():
    """Traced NaN values: "nearest" is NaN where its cell's value is, and so is its
    gradient w.r.t. the points (not a plausible zero), as for the other methods."""
    values = jnp.asarray(E_VALUES).at[1, 2, 0].set(jnp.nan)
    point = jnp.asarray([[E_PTS[0][1], E_PTS[1][2], E_PTS[2][0]]]) + 1e-3

    @jax.jit
    def value_and_grad(v, xi):
        return jax.value_and_grad(lambda q: splines.interpn(E_PTS, v, q, "nearest").sum())(xi)

    value, grad = value_and_grad(values, point)
    assert np.isnan(value) and np.all(np.isnan(grad))
    value, grad = value_and_grad(jnp.asarray(E_VALUES), point)
    assert np.isfinite(value) and np.all(grad == 0)


def test_bc_type_ends_follow_ascending_points_when_given_descending():
    """A pair ``bc_type`` names the ends in ascending order of the points, also for
    points given descending (they are reversed with the values before the fit)."""
    rng = np.random.default_rng(910)
    pts = make_grid(rng, (6, 5))
    values = rng.normal(size=(6, 5))
    xi = inside_points(rng, pts, 12)
    bc = ("clamped", "natural")
    ours = splines.interpn(pts, values, xi, "cubic2", bc_type=bc)
    flipped = splines.interpn((pts[0][::-1], pts[1]), values[::-1], xi, "cubic2", bc_type=bc)
    np.testing.assert_array_equal(flipped, ours)
    other = splines.interpn(pts, values, xi, "cubic2", bc_type=bc[::-1])
    assert np.max(np.abs(other - ours)) > 1e-6  # the order of the pair matters
