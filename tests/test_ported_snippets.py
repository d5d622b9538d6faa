"""Ported snippets of real public code: scipy and interpax code moves to `splines` by
changing one import.

Each snippet is a small function ``snippet(lib, **data)`` written once, modelled on public
code that calls ``scipy.interpolate`` or ``interpax``, and run twice: with the library it
was written for and with `splines` in its place (the one-import port). The data the
snippet differentiates through (values ``y``/``f``, slopes, coefficients) are its keyword
arguments; knots, queries and options are written inside it, as in the original code.
For every port (``check_ports``):

- eagerly, ours equals the original to 1e-12 of the result's scale (the same NaNs);
- ``jax.jit`` of the port, the data as arguments, gives the same numbers (roots and
  solutions under ``jit`` need a static ``size``: NaN-padded, the padding dropped here);
- ``jax.grad`` of a scalar loss of the port w.r.t. the data is finite and equals a
  central finite difference in one random direction.

One test runs a few ports with x64 disabled (float32 against the float64 original,
2e-6 of scale). Snippets that rely on a deliberate difference are ``xfail(strict=True)``.

Sources (each snippet names its own, file and function):

- scipy 1.17's docstring examples (``CubicSpline``, ``Akima1DInterpolator``,
  ``pchip_interpolate``, ``RegularGridInterpolator``, ``interpn``) and its tutorial
  (github.com/scipy/scipy, ``doc/source/tutorial/interpolate/splines_and_polynomials.rst``,
  ``ND_regular_grid.rst``); scipy's own use of ``PPoly`` in
  ``scipy/spatial/transform/_rotation_spline.py`` (``RotationSpline``);
- interpax (github.com/f0uriest/interpax): ``README.rst``, ``tests/test_interpolate.py``,
  ``tests/test_scipy.py``;
- DESC (github.com/PlasmaControl/DESC), the stellarator code built on interpax:
  ``desc/profiles.py`` (``SplineProfile``), ``desc/compute/_curve.py``
  (``SplineXYZCurve``), ``desc/integrals/interp_utils.py`` (``interp1d_vec``,
  ``interp1d_Hermite_vec``), ``desc/integrals/bounce_integral.py`` (``Bounce1D``),
  ``desc/magnetic_fields.py`` (now ``desc/magnetic_fields/_core.py``,
  ``SplineMagneticField``), ``tests/test_integrals.py`` (``TestBouncePoints``);
- github.com/tannerkoza/eleventh-hour, ``eleventh_hour/trajectories.py``
  (``prepare_trajectories``: GNSS receiver trajectories from ``CubicHermiteSpline`` and
  ``CubicSpline``);
- github.com/bulaikexiansheng/bluetoothApp, ``app/src/main/python/dsp.py`` (scipy's
  legacy ``interp1d`` class: not ported, xfail).
"""

import dataclasses
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate
import scipy.spatial.transform

import splines

interpax = pytest.importorskip("interpax")

F64_REL = 1e-12  # agreement in float64, relative to the result's scale
F32_REL = 2e-6  # agreement in float32 against the float64 original
GRAD_REL = 1e-6  # gradient against a central finite difference
FD_STEP = 1e-6  # relative to the data's scale: O(h²) truncation, O(eps/h) rounding


# --------------------------------------------------------------------------------------
# The machinery: one port = one snippet, the library it was written for, its data.
# --------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Port:
    """A snippet, the library it was written for and the data it runs on."""

    snippet: Callable[..., Any]  # snippet(lib, **data, **jit_options) -> pytree of arrays
    original: Any  # the module the snippet was written for
    data: dict  # the arrays the snippet differentiates through (float64 numpy)
    jit_options: dict = dataclasses.field(default_factory=dict)  # static sizes under jit
    tie: Callable[[dict], dict] | None = None  # keeps a perturbation valid (periodic ends)
    grad_data: dict | None = None  # where gradients are checked, when not at `data`

    def run(self, lib, data=None, **options):
        return self.snippet(lib, **(self.data if data is None else data), **options)


def _as_numpy(tree):
    return jax.tree.map(lambda leaf: np.asarray(leaf), tree)


def assert_agree(ours, theirs, rel, what):
    """The same structure, shapes and NaNs; numbers within ``rel`` of each output's scale
    (``atol = rel * max(1, max|theirs|)``)."""
    ours, theirs = _as_numpy(ours), _as_numpy(theirs)
    assert jax.tree.structure(ours) == jax.tree.structure(theirs), what
    for path, mine in jax.tree_util.tree_flatten_with_path(ours)[0]:
        ref = theirs
        for key in path:
            ref = ref[key.key if hasattr(key, "key") else key.idx]
        where = f"{what}{jax.tree_util.keystr(path)}"
        assert mine.shape == ref.shape, f"{where}: shape {mine.shape} != {ref.shape}"
        np.testing.assert_array_equal(np.isnan(mine), np.isnan(ref), err_msg=where)
        finite = np.isfinite(ref)
        scale = max(1.0, float(np.abs(ref[finite]).max(initial=0.0)))
        np.testing.assert_allclose(mine[finite], ref[finite], rtol=0, atol=rel * scale,
                                   err_msg=where)  # fmt: skip


def _drop_padding(padded, compact):
    """Roots and solutions under ``jit`` come NaN-padded to a static size."""
    padded = np.asarray(padded)
    if padded.shape == np.shape(compact):
        return padded
    return padded[~np.isnan(padded)]


def _perturbation(port, rng):
    """A random direction in the data, on the data's scale, kept valid by ``port.tie``."""
    direction = {name: rng.normal(size=np.shape(values)) * max(1.0, np.abs(values).max())
                 for name, values in port.data.items()}  # fmt: skip
    return port.tie(direction) if port.tie else direction


def _shift(datas, directions, step):
    return {name: {key: np.asarray(values) + step * directions[name][key]
                   for key, values in data.items()}
            for name, data in datas.items()}  # fmt: skip


def _weighted_sum(outputs, weights, masks, sum_=jnp.sum, where=jnp.where):
    """A scalar loss: every finite output entry times a fixed random weight."""
    terms = jax.tree.map(lambda out, w, m: sum_(where(m, w * out, 0.0)), outputs, weights,
                         masks)  # fmt: skip
    return sum(jax.tree.leaves(terms))


def check_ports(ports, seed=0):
    """Eager agreement, ``jit`` agreement and gradients for a group of ports: one jitted
    program for all their outputs and one for all their gradients (compiles dominate)."""
    theirs = {name: port.run(port.original) for name, port in ports.items()}
    for name, port in ports.items():
        assert_agree(port.run(splines), theirs[name], F64_REL, f"{name} (eager)")

    @jax.jit
    def jitted(datas):
        return {name: port.run(splines, datas[name], **port.jit_options)
                for name, port in ports.items()}  # fmt: skip

    datas = {name: port.data for name, port in ports.items()}
    outputs = _as_numpy(jitted(datas))
    for name in ports:
        unpadded = jax.tree.map(_drop_padding, outputs[name], _as_numpy(theirs[name]))
        assert_agree(unpadded, theirs[name], F64_REL, f"{name} (jit)")

    rng = np.random.default_rng(seed)
    at = {name: port.grad_data or port.data for name, port in ports.items()}
    base = _as_numpy(jitted(at))
    masks = jax.tree.map(np.isfinite, base)  # NaN padding and NaN outside stay out
    weights = jax.tree.map(lambda out: rng.normal(size=out.shape), base)

    def loss(datas):
        return _weighted_sum(jitted(datas), weights, masks)

    grads = _as_numpy(jax.jit(jax.grad(loss))(at))
    directions = {name: _perturbation(port, rng) for name, port in ports.items()}
    plus = _as_numpy(jitted(_shift(at, directions, FD_STEP)))
    minus = _as_numpy(jitted(_shift(at, directions, -FD_STEP)))
    for name in ports:
        terms = [g * directions[name][key] for key, g in grads[name].items()]
        assert all(np.isfinite(t).all() for t in terms), f"{name}: gradient not finite"
        along = sum(float(t.sum()) for t in terms)
        scale = sum(float(np.abs(t).sum()) for t in terms)
        loss_of = partial(_weighted_sum, weights=weights[name], masks=masks[name],
                          sum_=np.sum, where=np.where)  # fmt: skip
        difference = (loss_of(plus[name]) - loss_of(minus[name])) / (2 * FD_STEP)
        assert scale > 0, f"{name}: the loss does not depend on the data"
        assert abs(difference - along) <= GRAD_REL * scale, (
            f"{name}: grad·v = {along!r}, finite difference = {difference!r}"
        )


def _keep_periodic_ends(*names):
    """A perturbation of periodic data moves the closing value with the first one."""

    def tie(direction):
        for name in names:
            direction[name][-1] = direction[name][0]
        return direction

    return tie


def _jitter(data, rng, size=1e-3):
    """The data moved off ties (equal slopes, flat runs) where Akima's and PCHIP's
    slopes have kinks, so that a finite difference sees a derivative."""
    return {name: values + size * rng.normal(size=np.shape(values))
            for name, values in data.items()}  # fmt: skip


# --------------------------------------------------------------------------------------
# scipy: CubicSpline's docstring examples (scipy 1.17, scipy.interpolate.CubicSpline).
# --------------------------------------------------------------------------------------


def scipy_cubicspline_sine(lib, y):
    # CubicSpline docstring, first example: a sampled sinusoid and three derivatives.
    x = np.arange(10)
    cs = lib.CubicSpline(x, y)
    xs = np.arange(-0.5, 9.6, 0.1)
    return {"S": cs(xs), "S'": cs(xs, 1), "S''": cs(xs, 2), "S'''": cs(xs, 3)}


def scipy_cubicspline_periodic_circle(lib, y):
    # CubicSpline docstring, second example: the unit circle, periodic, 2-D values.
    theta = 2 * np.pi * np.linspace(0, 1, 5)
    cs = lib.CubicSpline(theta, y, bc_type="periodic")
    xs = 2 * np.pi * np.linspace(0, 1, 100)
    return {"ds/dx, ds/dy at 0": cs(0, 1), "spline": cs(xs)}


def scipy_cubicspline_clamped_cube(lib, y):
    # CubicSpline docstring, third example: y = x**3 exactly, from end slopes 0 and 3.
    cs = lib.CubicSpline([0, 1], y, bc_type=((1, 0), (1, 3)))
    x = np.linspace(0, 1)
    return {"cs(x)": cs(x)}


def test_scipy_cubicspline_docstring_example_ports():
    theta = 2 * np.pi * np.linspace(0, 1, 5)
    check_ports({
        "sine": Port(scipy_cubicspline_sine, scipy.interpolate, {"y": np.sin(np.arange(10))}),
        "circle": Port(scipy_cubicspline_periodic_circle, scipy.interpolate,
                       {"y": np.c_[np.cos(theta), np.sin(theta)]},
                       tie=_keep_periodic_ends("y")),
        "cube": Port(scipy_cubicspline_clamped_cube, scipy.interpolate,
                     {"y": np.array([0.0, 1.0])}),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# scipy's tutorial, "Piecewise polynomials and splines", section "Manipulating PPoly
# objects" (doc/source/tutorial/interpolate/splines_and_polynomials.rst).
# --------------------------------------------------------------------------------------

TUTORIAL_X = np.linspace(0, 10, 41)  # the tutorial tabulates 71 points; 41 keep it small
ELLIPK_X = np.linspace(0, np.pi / 2, 40)  # the tutorial: 70 points
ELLIPK_M = np.linspace(0.1, 0.9, 11)  # the tutorial starts at m = 0: a constant row


def scipy_tutorial_sine_derivative_roots(lib, y, size=None):
    # Differentiate a tabulated sine, find the zeros of its derivative, solve for 0.5.
    spl = lib.CubicSpline(TUTORIAL_X, y)
    dspl = spl.derivative()
    static = {} if size is None else {"size": size}  # under jit: a static size, NaN-padded
    return {
        "dspl(1.1)": dspl(1.1),
        "spl(1.1, nu=1)": spl(1.1, nu=1),
        "roots": dspl.roots(**static),
        "roots inside": dspl.roots(extrapolate=False, **static),
        "solve(0.5)": dspl.solve(0.5, extrapolate=False, **static),
    }


def scipy_tutorial_ellipk_pchip(lib, y):
    # The complete elliptic integral K(1/2) from a PCHIP interpolant of its integrand.
    spl = lib.PchipInterpolator(ELLIPK_X, y)
    return {"K(0.5)": spl.integrate(0, np.pi / 2)}


def scipy_tutorial_ellipk_pchip_axis(lib, y):
    # The same for a range of m, the values stacked along axis 1.
    spl = lib.PchipInterpolator(ELLIPK_X, y, axis=1)
    return {"K(m)": spl.integrate(0, np.pi / 2)}


def test_scipy_ppoly_tutorial_ports():
    integrand = (1 - 0.5 * np.sin(ELLIPK_X) ** 2) ** (-1 / 2)
    integrands = 1 / np.sqrt(1 - ELLIPK_M[:, None] * np.sin(ELLIPK_X) ** 2)
    rng = np.random.default_rng(8)
    # The integrand is flat at both ends, where PCHIP's end slopes (set to 0 when the
    # three-point estimate changes sign) have a kink: gradients are checked off it.
    check_ports({
        "sine roots": Port(scipy_tutorial_sine_derivative_roots, scipy.interpolate,
                           {"y": np.sin(TUTORIAL_X)}, jit_options={"size": 8}),
        "ellipk": Port(scipy_tutorial_ellipk_pchip, scipy.interpolate, {"y": integrand},
                       grad_data=_jitter({"y": integrand}, rng)),
        "ellipk axis=1": Port(scipy_tutorial_ellipk_pchip_axis, scipy.interpolate,
                              {"y": integrands}, grad_data=_jitter({"y": integrands}, rng)),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# scipy: the local interpolators' docstring examples.
# --------------------------------------------------------------------------------------


def scipy_akima_vs_makima(lib, y):
    # Akima1DInterpolator docstring: "akima" overshoots a step, "makima" does not.
    x = np.linspace(1, 7, 7)
    xs = np.linspace(min(x), max(x), num=100)
    return {"akima": lib.Akima1DInterpolator(x, y, method="akima")(xs),
            "makima": lib.Akima1DInterpolator(x, y, method="makima")(xs)}  # fmt: skip


def scipy_pchip_interpolate_observed(lib, y_observed):
    # pchip_interpolate docstring: observed samples of a sine; also its `der` argument.
    x_observed = np.linspace(0.0, 10.0, 11)
    x = np.linspace(min(x_observed), max(x_observed), num=100)
    return {"y": lib.pchip_interpolate(x_observed, y_observed, x),
            "y, y'": lib.pchip_interpolate(x_observed, y_observed, x, der=[0, 1])}  # fmt: skip


def test_scipy_local_interpolator_docstring_ports():
    step = np.array([-1.0, -1, -1, 0, 1, 1, 1])
    rng = np.random.default_rng(1)
    check_ports({
        # The step's flat runs tie Akima's weights (|0|): gradients off the ties.
        "akima/makima": Port(scipy_akima_vs_makima, scipy.interpolate, {"y": step},
                             grad_data=_jitter({"y": step}, rng)),
        "pchip_interpolate": Port(scipy_pchip_interpolate_observed, scipy.interpolate,
                                  {"y_observed": np.sin(np.linspace(0.0, 10.0, 11))}),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# scipy: grids. RegularGridInterpolator's and interpn's docstrings, and the tutorial
# "Multivariate data interpolation on a regular grid" (ND_regular_grid.rst).
# --------------------------------------------------------------------------------------

RGI_3D_AXES = (np.linspace(1, 4, 11), np.linspace(4, 7, 22), np.linspace(7, 9, 33))
TUTORIAL_GRID = [np.linspace(0, 3, 8), np.linspace(0, 3, 11)]


def _tutorial_F(u, v):
    return u * np.cos(u * v) + v * np.sin(u * v)


def _tutorial_test_points():
    # The tutorial evaluates on an 80 x 80 mesh; 20 x 20 keep it small.
    ut, vt = np.meshgrid(np.linspace(0, 3, 20), np.linspace(0, 3, 20), indexing="ij")
    return np.array([ut.ravel(), vt.ravel()]).T


def scipy_rgi_3d(lib, data):
    # RegularGridInterpolator docstring, first example: a 3-D grid, linear.
    interp = lib.RegularGridInterpolator(RGI_3D_AXES, data)
    pts = np.array([[2.1, 6.2, 8.3], [3.3, 5.2, 7.1]])
    return {"interp(pts)": interp(pts)}


def scipy_rgi_2d_extrapolate(lib, data):
    # RegularGridInterpolator docstring, second example: extrapolation (fill_value=None),
    # queried with a tuple of mesh arrays.
    x, y = np.array([-2, 0, 4]), np.array([-2, 0, 2, 5])
    interp = lib.RegularGridInterpolator((x, y), data, bounds_error=False, fill_value=None)
    xx = np.linspace(-4, 9, 31)
    yy = np.linspace(-4, 9, 31)
    X, Y = np.meshgrid(xx, yy, indexing="ij")
    return {"interp((X, Y))": interp((X, Y))}


def scipy_interpn_3d(lib, values):
    # interpn docstring: a linear function, so linear interpolation is exact.
    points = (np.linspace(0, 4, 5), np.linspace(0, 5, 6), np.linspace(0, 6, 7))
    point = np.array([2.21, 3.12, 1.15])
    return {"interpn(point)": lib.interpn(points, values, point)}


def scipy_rgi_tutorial_methods(lib, values, methods=("linear", "nearest", "slinear")):
    # The tutorial's comparison of methods, chosen per call, and interpn's equivalence.
    test_points = _tutorial_test_points()
    interp = lib.RegularGridInterpolator(TUTORIAL_GRID, values)
    out = {method: interp(test_points, method=method) for method in methods}
    out["interpn"] = lib.interpn(TUTORIAL_GRID, values, test_points)
    return out


def test_scipy_grid_interpolator_docstring_ports():
    mesh_3d = np.meshgrid(*RGI_3D_AXES, indexing="ij", sparse=True)
    x, y = np.meshgrid(np.array([-2, 0, 4]), np.array([-2, 0, 2, 5]), indexing="ij")
    points = (np.linspace(0, 4, 5), np.linspace(0, 5, 6), np.linspace(0, 6, 7))
    u, v, w = np.meshgrid(*points, indexing="ij")
    check_ports({
        "rgi 3-D": Port(scipy_rgi_3d, scipy.interpolate,
                        {"data": 2 * mesh_3d[0] ** 3 + 3 * mesh_3d[1] ** 2 - mesh_3d[2]}),
        "rgi extrapolate": Port(scipy_rgi_2d_extrapolate, scipy.interpolate,
                                {"data": (x**2 + y**2).astype(float)}),
        "interpn": Port(scipy_interpn_3d, scipy.interpolate, {"values": 2 * u + 3 * v - w}),
        "tutorial methods": Port(scipy_rgi_tutorial_methods, scipy.interpolate,
                                 {"values": _tutorial_F(*np.meshgrid(*TUTORIAL_GRID,
                                                                     indexing="ij"))}),
    })  # fmt: skip


def _cubic_spline_per_axis(grid, values, test_points):
    """The exact tensor-product not-a-knot spline: scipy's CubicSpline along each axis in
    turn (the splines are linear in the values, so the order does not matter)."""
    along_u = scipy.interpolate.CubicSpline(grid[0], values, axis=0)(test_points[:, 0])
    return np.array([scipy.interpolate.CubicSpline(grid[1], row)(v)
                     for row, v in zip(along_u, test_points[:, 1])])  # fmt: skip


def test_scipy_rgi_tutorial_cubic_port():
    """The tutorial's ``method="cubic"``: ours is the exact tensor-product spline, equal to
    CubicSpline per axis; scipy's own solves iteratively (1.2e-5 of scale off it here,
    up to ~1e-3 in general)."""
    values = _tutorial_F(*np.meshgrid(*TUTORIAL_GRID, indexing="ij"))
    test_points = _tutorial_test_points()
    ours = scipy_rgi_tutorial_methods(splines, values, methods=("cubic",))["cubic"]
    exact = _cubic_spline_per_axis(TUTORIAL_GRID, values, test_points)
    assert_agree({"cubic": ours}, {"cubic": exact}, F64_REL, "cubic vs CubicSpline per axis")
    theirs = scipy_rgi_tutorial_methods(scipy.interpolate, values, methods=("cubic",))
    assert_agree({"cubic": ours}, {"cubic": theirs["cubic"]}, 1e-3, "cubic vs scipy's cubic")
    # jit and gradient of the same port, "cubic" chosen per call as in the tutorial.
    check_ports({"tutorial cubic": Port(
        partial(scipy_rgi_tutorial_methods, methods=("cubic",)), _ExactCubicScipy,
        {"values": values})})  # fmt: skip


class _ExactCubicScipy:
    """scipy with its iterative cubic replaced by CubicSpline per axis: the reference
    ``check_ports`` compares the tutorial's cubic port against."""

    @staticmethod
    def RegularGridInterpolator(grid, values):
        def interp(points, method):
            assert method == "cubic"
            return _cubic_spline_per_axis(grid, values, points)

        return interp

    interpn = staticmethod(scipy.interpolate.interpn)


def scipy_rgi_tutorial_length_one_axis(lib, data):
    # The tutorial: data on a 2-D grid whose second axis has one point; fill_value=None
    # extrapolates along it, then a fill value is set on the interpolator.
    x = np.array([0, 5, 10])
    y = np.array([0])
    rgi = lib.RegularGridInterpolator((x, y), data, bounds_error=False, fill_value=None)
    extrapolated = rgi([(2, 0), (2, 1), (2, -1)])
    rgi.fill_value = -101
    return {"fill_value=None": extrapolated, "fill_value=-101": rgi([(2, 0), (2, 1), (2, -1)])}


def scipy_rgi_set_fill_value(lib, data):
    # The same tutorial lines on a grid of 3 x 2 points: `rgi.fill_value = -101`.
    x = np.array([0, 5, 10])
    y = np.array([0, 1])
    rgi = lib.RegularGridInterpolator((x, y), data, bounds_error=False, fill_value=None)
    extrapolated = rgi([(2, 0), (2, 1.5), (2, -1)])
    rgi.fill_value = -101
    return {"fill_value=None": extrapolated, "fill_value=-101": rgi([(2, 0), (2, 1.5), (2, -1)])}


def test_scipy_rgi_tutorial_length_one_axis_port():
    """The tutorial's grid with a length-1 axis (eager: the snippet mutates the
    interpolator)."""
    data = np.array([[0.0], [5], [10]])
    theirs = scipy_rgi_tutorial_length_one_axis(scipy.interpolate, data)
    assert_agree(scipy_rgi_tutorial_length_one_axis(splines, data), theirs, F64_REL,
                 "length-1 axis")  # fmt: skip


def test_scipy_rgi_tutorial_fill_value_assignment_port():
    """The tutorial's reassignment of ``fill_value`` on an interpolator (eager)."""
    data = np.array([[0.0, 1], [5, 6], [10, 11]])
    theirs = scipy_rgi_set_fill_value(scipy.interpolate, data)
    assert_agree(scipy_rgi_set_fill_value(splines, data), theirs, F64_REL, "fill_value = -101")


# --------------------------------------------------------------------------------------
# scipy's own PPoly use: scipy.spatial.transform.RotationSpline builds the rotation
# vectors' cubic pieces and evaluates them with orders 0, 1, 2
# (scipy/spatial/transform/_rotation_spline.py, RotationSpline.__init__ / __call__).
# --------------------------------------------------------------------------------------

ROTATION_TIMES = np.array([0.0, 0.7, 1.5, 2.1, 3.0, 4.2, 5.0])


def scipy_rotation_spline_ppoly(lib, coeff):
    interpolator = lib.PPoly(coeff, ROTATION_TIMES)
    times = np.linspace(0.0, 5.0, 23)
    return {"rotvecs": interpolator(times), "rotvecs_dot": interpolator(times, 1),
            "rotvecs_dot_dot": interpolator(times, 2),
            "derivative()": interpolator.derivative()(times)}  # fmt: skip


def _rotation_spline_coefficients():
    """The coefficients scipy's RotationSpline computes (its `interpolator.c`)."""
    angles = np.random.default_rng(2).uniform(-1, 1, (len(ROTATION_TIMES), 3))
    rotations = scipy.spatial.transform.Rotation.from_euler("xyz", angles)
    return scipy.spatial.transform.RotationSpline(ROTATION_TIMES, rotations).interpolator.c


def test_scipy_rotation_spline_ppoly_port():
    coeff = _rotation_spline_coefficients()
    check_ports({"RotationSpline's PPoly": Port(scipy_rotation_spline_ppoly, scipy.interpolate,
                                                {"coeff": coeff})})  # fmt: skip


# --------------------------------------------------------------------------------------
# A GNSS receiver's trajectory (github.com/tannerkoza/eleventh-hour,
# eleventh_hour/trajectories.py, prepare_trajectories): ECEF positions sampled in a file,
# resampled at the simulation rate with CubicHermiteSpline (another revision of the file
# uses CubicSpline).
# --------------------------------------------------------------------------------------

FILE_T = 0.5  # s between the file's samples
FILE_TIME = np.arange(12) * FILE_T
SIM_T = 1 / 10.0  # fsim = 10 Hz


def _lla2ecef(lat, lon, alt):
    """WGS84 geodetic to ECEF (navtools.conversions.lla2ecef in the original)."""
    a, e2 = 6378137.0, 6.69437999014e-3
    lat, lon = np.radians(lat), np.radians(lon)
    n = a / np.sqrt(1 - e2 * np.sin(lat) ** 2)
    return ((n + alt) * np.cos(lat) * np.cos(lon), (n + alt) * np.cos(lat) * np.sin(lon),
            (n * (1 - e2) + alt) * np.sin(lat))  # fmt: skip


def _receiver_positions():
    rng = np.random.default_rng(3)
    lat = 32.6 + 1e-4 * np.cumsum(rng.uniform(0.5, 1.5, FILE_TIME.size))
    lon = -85.5 + 1e-4 * np.cumsum(rng.uniform(0.5, 1.5, FILE_TIME.size))
    alt = 200 + np.cumsum(rng.normal(size=FILE_TIME.size))
    return np.array(_lla2ecef(lat=lat, lon=lon, alt=alt)).T


def trajectory_hermite(lib, ecef_pos, ecef_vel):
    sim_time = np.arange(0, FILE_TIME[-1] + SIM_T, SIM_T)
    chs = lib.CubicHermiteSpline(x=FILE_TIME, y=ecef_pos, dydx=ecef_vel)
    return {"rx_pos": chs(sim_time), "rx_vel": chs(sim_time, 1)}


def trajectory_cubic_spline(lib, ecef_pos):
    sim_time = np.arange(0, FILE_TIME[-1] + SIM_T, SIM_T)
    cs = lib.CubicSpline(x=FILE_TIME, y=ecef_pos)
    return {"rx_pos": cs(sim_time), "rx_vel": cs(sim_time, 1)}


def _trajectory_ports():
    ecef_pos = _receiver_positions()
    # The original differences the positions itself; here the velocities are data too.
    ecef_vel = np.diff(ecef_pos, axis=0, append=ecef_pos[-1].reshape(1, -1)) / FILE_T
    return {
        "CubicHermiteSpline": Port(trajectory_hermite, scipy.interpolate,
                                   {"ecef_pos": ecef_pos, "ecef_vel": ecef_vel}),
        "CubicSpline": Port(trajectory_cubic_spline, scipy.interpolate, {"ecef_pos": ecef_pos}),
    }  # fmt: skip


def test_trajectory_resampling_ports():
    check_ports(_trajectory_ports())


# --------------------------------------------------------------------------------------
# DESC (github.com/PlasmaControl/DESC): bounce points and bounce integrals.
# --------------------------------------------------------------------------------------

BOUNCE_KNOTS = np.linspace(np.pi / 3, 6 * np.pi, 5)


def desc_bounce_points_z1_first(lib, B_values, B_slopes, size=None):
    # tests/test_integrals.py, TestBouncePoints.test_z1_first (scipy): |B| = cos along a
    # field line from its values and slopes at 5 knots, its intersections with 1/λ = 0.5,
    # and the coefficient layout DESC's bounce_points consumes (B.c.T, B.derivative().c.T).
    B = lib.CubicHermiteSpline(BOUNCE_KNOTS, B_values, B_slopes)
    static = {} if size is None else {"size": size}
    intersect = B.solve(0.5, extrapolate=False, **static)
    return {"intersect": intersect, "B.c.T": B.c.T, "B.derivative().c.T": B.derivative().c.T}


BOUNCE1D_ZETA = np.linspace(0, 4 * np.pi, 17)


def desc_bounce1d_spline(lib, B, B_z):
    # desc/integrals/bounce_integral.py, Bounce1D.__init__ (interpax): |B| on (ρ, α, ζ)
    # field lines, splined along ζ (axis=-1, check=False), coefficients moved to the end;
    # Bounce1D.plot rebuilds one field line's spline as PPoly(B.T, knots).
    c = lib.CubicHermiteSpline(x=BOUNCE1D_ZETA, y=B, dydx=B_z, axis=-1, check=False).c
    B_pieces = jnp.moveaxis(c, (0, 1), (-1, -2))
    line = lib.PPoly(B_pieces[1, 0].T, BOUNCE1D_ZETA)
    zeta = np.linspace(0, 4 * np.pi, 45)
    return {"B pieces": B_pieces, "line(ζ)": line(zeta), "line'(ζ)": line(zeta, 1)}


def _field_strength():
    rho = np.array([0.3, 0.7])[:, None, None]
    alpha = np.array([0.0, 1.0, 2.0])[None, :, None]
    zeta = BOUNCE1D_ZETA[None, None, :]
    B = 1 + rho * np.cos(zeta + alpha) / 4
    return B, -rho * np.sin(zeta + alpha) / 4


def test_desc_bounce_ports():
    B, B_z = _field_strength()
    cosine = {"B_values": np.cos(BOUNCE_KNOTS), "B_slopes": -np.sin(BOUNCE_KNOTS)}
    check_ports({
        # cos(π/3) = 0.5: the first intersection is on the first knot ("z1 first") and
        # leaves the domain under a perturbation: gradients are checked off the knot.
        "TestBouncePoints.test_z1_first": Port(
            desc_bounce_points_z1_first, scipy.interpolate, cosine, jit_options={"size": 8},
            grad_data=_jitter(cosine, np.random.default_rng(9))),
        "Bounce1D": Port(desc_bounce1d_spline, interpax, {"B": B, "B_z": B_z}),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# DESC: interpax.interp1d in profiles, curves and vectorized field-line interpolation.
# --------------------------------------------------------------------------------------

PROFILE_KNOTS = np.linspace(0, 1, 11)  # SplineProfile's default: linspace(0, 1, values.size)
CURVE_KNOTS = np.linspace(0, 2 * np.pi, 16, endpoint=False)  # one period, no closing knot
LINE_KNOTS = np.linspace(0, 6 * np.pi, 24)


def desc_spline_profile(lib, params):
    # desc/profiles.py, SplineProfile.compute: method "cubic2" (its default), the
    # derivative order dr, extrap=True (a few queries past the edge).
    xq = np.linspace(-0.05, 1.05, 30)
    return {f"dr={dr}": lib.interp1d(xq, PROFILE_KNOTS, params, method="cubic2",
                                     derivative=dr, extrap=True)
            for dr in (0, 1, 2)}  # fmt: skip


def desc_spline_xyz_curve(lib, X, Y, Z, method):
    # desc/compute/_curve.py, _x_SplineXYZCurve ... _x_sss_SplineXYZCurve: a closed
    # curve's coordinates and three derivatives, period 2π, queries over two turns.
    xq = np.linspace(-np.pi, 3 * np.pi, 37)
    out = {}
    for derivative, name in enumerate(["x", "x_s", "x_ss", "x_sss"]):
        coords = [lib.interp1d(xq, CURVE_KNOTS, values, method=method, derivative=derivative,
                               period=2 * jnp.pi) for values in (X, Y, Z)]  # fmt: skip
        out[name] = jnp.stack(coords, axis=1)
    return out


def desc_vectorized_field_lines(lib, f, fx):
    # desc/integrals/interp_utils.py: interp1d vectorized over field lines with
    # jnp.vectorize ("method must be specified as keyword argument"), and the Hermite
    # version with given slopes, as _interpolate_and_integrate calls them.
    interp1d_vec = jnp.vectorize(lib.interp1d, signature="(m),(n),(n)->(m)",
                                 excluded={"method"})  # fmt: skip

    @partial(jnp.vectorize, signature="(m),(n),(n),(n)->(m)")
    def interp1d_Hermite_vec(xq, x, f, fx, /):
        return lib.interp1d(xq, x, f, method="cubic", fx=fx)

    xq = np.random.default_rng(4).uniform(0, 6 * np.pi, (2, 3, 17))
    return {"cubic": interp1d_vec(xq, LINE_KNOTS, f, method="cubic"),
            "akima": interp1d_vec(xq, LINE_KNOTS, f, method="akima"),
            "Hermite": interp1d_Hermite_vec(xq, LINE_KNOTS, f, fx)}  # fmt: skip


def test_desc_style_interp1d_ports():
    rng = np.random.default_rng(5)
    s = CURVE_KNOTS
    line = LINE_KNOTS + rng.uniform(0, 1, (2, 3, 1))
    curve = {"X": 10 + 2 * np.cos(s), "Y": 2 * np.sin(s) + 0.3 * np.sin(3 * s),
             "Z": np.sin(2 * s)}  # fmt: skip
    check_ports({
        "SplineProfile": Port(desc_spline_profile, interpax,
                              {"params": 1e5 * (1 - PROFILE_KNOTS**2) ** 2}),
        "SplineXYZCurve": Port(partial(desc_spline_xyz_curve, method="cubic"), interpax,
                               curve),  # its default method
        "interp1d_vec": Port(desc_vectorized_field_lines, interpax,
                             {"f": np.cos(line), "fx": -np.sin(line)}),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# DESC: desc/magnetic_fields.py (now desc/magnetic_fields/_core.py), SplineMagneticField:
# knot slopes from approx_df along each axis (positional method and axis), then interp3d
# with all of them given, periodic in the toroidal angle (compute_magnetic_field's 3-D
# branch).
# --------------------------------------------------------------------------------------

NFP, KP = 5, 8
FIELD_R = np.linspace(5.0, 7.0, 6)
FIELD_PHI = 2.0 * np.pi / (NFP * KP) * np.arange(KP)  # from_mgrid's pgrid
FIELD_Z = np.linspace(-1.0, 1.0, 5)


def desc_spline_magnetic_field(lib, BR, method="cubic"):
    R, phi, Z = FIELD_R, FIELD_PHI, FIELD_Z
    derivs = {"fx": lib.approx_df(R, BR, method, 0), "fz": lib.approx_df(Z, BR, method, 2)}
    derivs["fxz"] = lib.approx_df(Z, derivs["fx"], method, 2)
    derivs["fy"] = lib.approx_df(phi, BR, method, 1)
    derivs["fxy"] = lib.approx_df(phi, derivs["fx"], method, 1)
    derivs["fyz"] = lib.approx_df(Z, derivs["fy"], method, 2)
    derivs["fxyz"] = lib.approx_df(Z, derivs["fxy"], method, 2)
    rng = np.random.default_rng(6)
    Rq, phiq, Zq = rng.uniform(5, 7, 25), rng.uniform(0, 2 * np.pi, 25), rng.uniform(-1, 1, 25)
    BRq = lib.interp3d(Rq, phiq, Zq, R, phi, Z, BR, method, (0, 0, 0), False,
                       (None, 2 * np.pi / NFP, None), **derivs)  # fmt: skip
    return {"BRq": BRq, **derivs}


def test_desc_spline_magnetic_field_port():
    R, phi, Z = np.meshgrid(FIELD_R, FIELD_PHI, FIELD_Z, indexing="ij")
    BR = Z / R * (1 + 0.1 * np.cos(NFP * phi)) + 0.05 * np.sin(NFP * phi) * R
    check_ports({"SplineMagneticField": Port(desc_spline_magnetic_field, interpax, {"BR": BR})})


# --------------------------------------------------------------------------------------
# interpax's README and its own tests (github.com/f0uriest/interpax).
# --------------------------------------------------------------------------------------


def interpax_readme_usage(lib, fp):
    # README.rst, "Usage": interp1d(xq, xp, fp, method="cubic") (100 knots there).
    xp = jnp.linspace(0, 2 * np.pi, 50)
    xq = jnp.linspace(0, 2 * np.pi, 500)
    return {"fq": lib.interp1d(xq, xp, fp, method="cubic")}


def interpax_interp1d_monotonic(lib, f):
    # tests/test_interpolate.py, TestInterp1D.test_interp1d_monotonic: slopes of a step
    # plus a line, "cubic" (the default) undershoots, "monotonic" does not.
    x = np.linspace(-4, 5, 10)
    xq = np.linspace(-4, 5, 1000)
    return {"cubic": lib.interp1d(xq, x, f, derivative=1, method="cubic"),
            "default": lib.interp1d(xq, x, f, derivative=1),
            "monotonic": lib.interp1d(xq, x, f, derivative=1, method="monotonic"),
            "monotonic-0": lib.interp1d(xq, x, f, derivative=1, method="monotonic-0")}  # fmt: skip


def interpax_interp1d_extrap_periodic(lib, fp):
    # tests/test_interpolate.py, TestInterp1D.test_interp1d_extrap_periodic (200 knots
    # and 10000 queries there). The period is given to the knots without the closing one:
    # interpax wraps a closing knot onto the first (test_interpax_interp2d_closing_knot_port).
    xp = np.linspace(0, 2 * np.pi, 40)
    x = np.linspace(-1, 2 * np.pi + 1, 300)
    period = 2 * np.pi
    return {"extrap=False": lib.interp1d(x, xp, fp, method="cubic", extrap=False),
            "extrap=True": lib.interp1d(x, xp, fp, method="cubic", extrap=True),
            "period": lib.interp1d(x, xp[:-1], fp[:-1], method="cubic", period=period)}  # fmt: skip


def interpax_akima_eval(lib, y):
    # tests/test_scipy.py, TestAkima1DInterpolator.test_eval (from scipy's test suite).
    x = np.arange(0.0, 11.0)
    xi = np.array([0.0, 0.5, 1.0, 1.5, 2.5, 3.5, 4.5, 5.1, 6.5, 7.2, 8.6, 9.9, 10.0])
    return {"ak(xi)": lib.Akima1DInterpolator(x, y)(xi)}


def test_interpax_readme_and_test_suite_ports():
    x = np.linspace(-4, 5, 10)
    akima_y = np.array([0.0, 2.0, 1.0, 3.0, 2.0, 6.0, 5.5, 5.5, 2.7, 5.1, 3.0])
    check_ports({
        "README": Port(interpax_readme_usage, interpax,
                       {"fp": np.sin(np.linspace(0, 2 * np.pi, 50))}),
        "test_interp1d_monotonic": Port(interpax_interp1d_monotonic, interpax,
                                        {"f": np.heaviside(x - 1.5, 0) + 0.1 * x}),
        "test_interp1d_extrap_periodic": Port(interpax_interp1d_extrap_periodic, interpax,
                                              {"fp": np.sin(np.linspace(0, 2 * np.pi, 40))}),
        # 5.5, 5.5 is a flat run: Akima's weights tie there, so gradients off the tie.
        "TestAkima1DInterpolator.test_eval": Port(
            interpax_akima_eval, interpax, {"y": akima_y},
            grad_data=_jitter({"y": akima_y}, np.random.default_rng(7))),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# interpax's 2-D test with knots past one period (tests/test_interpolate.py,
# TestInterp2D.test_interp2d: x-knots over 3π, period 2π), and Interpolator2D's
# positional derivative orders ``itp(xq, yq, dx, dy)``.
# --------------------------------------------------------------------------------------

WRAP_XP = np.linspace(0, 3 * np.pi, 20)  # past one period: they wrap and interleave
OPEN_YP = np.linspace(0, 2 * np.pi, 16, endpoint=False)
# Local methods only: interpax's periodic "cubic2" and "akima" pad the data by one knot
# each side, an approximation of the periodic spline (~1e-4 and ~3e-3 off ours, exact).
# (Three of them, to keep the compiles few.)
LOCAL_METHODS = ["linear", "cubic", "monotonic"]


def interpax_interp2d_wrapped_knots(lib, fp):
    x = np.linspace(0, 3 * np.pi, 30)
    y = np.linspace(0, 2 * np.pi, 30)
    return {method: lib.interp2d(x, y, WRAP_XP, OPEN_YP, fp, method=method,
                                 period=(2 * np.pi, 2 * np.pi))
            for method in LOCAL_METHODS}  # fmt: skip


def interpax_interpolator2d_positional_derivatives(lib, fp):
    itp = lib.Interpolator2D(WRAP_XP, OPEN_YP, fp, method="cubic", period=(2 * np.pi, None))
    x = np.linspace(0, 3 * np.pi, 30)
    y = np.linspace(0, 2 * np.pi * 15 / 16, 30)
    return {"f": itp(x, y), "f_x": itp(x, y, 1), "f_y": itp(x, y, 0, 1), "f_xy": itp(x, y, 1, 1)}


def test_interpax_periodic_grid_ports():
    fp = np.sin(WRAP_XP)[:, None] * np.cos(OPEN_YP)[None, :]
    check_ports({
        # The row sin(0) = 0 ties the monotonic slopes: gradients are checked off the tie.
        "test_interp2d, knots over 3π": Port(
            interpax_interp2d_wrapped_knots, interpax, {"fp": fp},
            grad_data=_jitter({"fp": fp}, np.random.default_rng(10))),
        "Interpolator2D(xq, yq, dx, dy)": Port(
            interpax_interpolator2d_positional_derivatives, interpax, {"fp": fp}),
    })  # fmt: skip


# --------------------------------------------------------------------------------------
# Snippets that rely on deliberate differences: they fail with ours, by design.
# --------------------------------------------------------------------------------------


def interpax_interp2d_as_written(lib, fp):
    # tests/test_interpolate.py, TestInterp2D.test_interp2d as written: the y-knots end
    # with the closing knot 2π (linspace(0, 2π, 40) there), and global "cubic2".
    closed_yp = np.linspace(0, 2 * np.pi, 16)
    x = np.linspace(0, 3 * np.pi, 30)
    y = np.linspace(0, 2 * np.pi, 30)
    return {method: lib.interp2d(x, y, WRAP_XP, closed_yp, fp, method=method,
                                 period=(2 * np.pi, 2 * np.pi))
            for method in ("cubic", "cubic2")}  # fmt: skip


@pytest.mark.xfail(
    strict=True,
    reason="deliberate: interpax wraps a closing knot onto the "
    "first one (a zero-width cell that changes its finite-difference slopes, "
    "1.7e-3 here) and pads periodic cubic2 by one knot each side (1.7e-4); ours "
    "drops the closing knot (README: 'The closing knot is optional') and "
    "solves the periodic spline exactly",
)
def test_interpax_interp2d_closing_knot_port():
    closed_yp = np.linspace(0, 2 * np.pi, 16)
    fp = np.sin(WRAP_XP)[:, None] * np.cos(closed_yp)[None, :]
    theirs = interpax_interp2d_as_written(interpax, fp)
    assert_agree(interpax_interp2d_as_written(splines, fp), theirs, F64_REL, "as written")


def interpax_akima_extend_raises(lib, y):
    # interpax tests/test_scipy.py, TestAkima1DInterpolator.test_extend: scipy's and
    # interpax's Akima1DInterpolator.extend raise NotImplementedError.
    ak = lib.Akima1DInterpolator(np.arange(0.0, 11.0), y)
    with pytest.raises(NotImplementedError):
        ak.extend(None, None)


@pytest.mark.xfail(
    strict=True,
    reason="deliberate: our Akima1DInterpolator.extend is "
    "implemented (PPoly's), so extend(None, None) is a ValueError about the "
    "arguments, not NotImplementedError",
)
def test_interpax_akima_extend_port():
    y = np.array([0.0, 2.0, 1.0, 3.0, 2.0, 6.0, 5.5, 5.5, 2.7, 5.1, 3.0])
    interpax_akima_extend_raises(interpax, y)  # the original passes
    interpax_akima_extend_raises(splines, y)


def bluetooth_app_interp(lib, y, length):
    # github.com/bulaikexiansheng/bluetoothApp, app/src/main/python/dsp.py, interp():
    # scipy's legacy interp1d class with kind='cubic', called on the new grid.
    x_old = np.linspace(0, len(y) - 1, num=len(y))
    x_new = np.linspace(0, len(y) - 1, num=length)
    f = lib.interp1d(x_old, y, kind="cubic")
    return f(x_new)


@pytest.mark.xfail(
    strict=True,
    raises=TypeError,
    reason="deliberate: scipy's legacy "
    "interp1d class is not ported; splines.interp1d is numpy's/interpax's "
    "function (x, xp, fp) and takes no `kind`",
)
def test_scipy_legacy_interp1d_class_port():
    y = np.sin(np.linspace(0, 3, 12))
    theirs = bluetooth_app_interp(scipy.interpolate, y, 40)
    assert_agree(bluetooth_app_interp(splines, y, 40), theirs, F64_REL, "legacy interp1d")


# --------------------------------------------------------------------------------------
# x64 disabled: the ports compute in float32 and stay within 2e-6 of the float64 original.
# --------------------------------------------------------------------------------------


def _without(snippet, *names):
    """The snippet with the outputs ``names`` left out."""

    def fewer(lib, **data):
        return {key: out for key, out in snippet(lib, **data).items() if key not in names}

    return fewer


def test_ports_with_x64_disabled():
    """Without ``jax_enable_x64`` the same ports run in float32 (float64 numpy data are
    converted; the classes may warn once with ``splines.X64DisabledWarning``)."""
    positions = _trajectory_ports()["CubicHermiteSpline"]
    ports = {
        # S''' steps at the knots, and the docstring's queries 2.0, 3.0, ... are a rounding
        # off them: in float32 they round onto the knot and take the next piece's S'''
        # (README: "a query that rounds onto a knot then lands in the next piece").
        "CubicSpline docstring": Port(_without(scipy_cubicspline_sine, "S'''"),
                                      scipy.interpolate, {"y": np.sin(np.arange(10))}),
        "tutorial roots": Port(scipy_tutorial_sine_derivative_roots, scipy.interpolate,
                               {"y": np.sin(TUTORIAL_X)}),
        # Positions only: ECEF coordinates (~6.4e6 m) are stored to ~0.5 m in float32, so
        # velocities of ~20 m/s from them lose ~1 m/s whatever the spline does.
        "trajectory": dataclasses.replace(positions,
                                          snippet=_without(trajectory_hermite, "rx_vel")),
        # Value and slope: a second derivative on knots 0.1 apart carries float32's
        # rounding of the values times ~1/h² (4e-6 of its scale here; interpax's: 7e-6).
        "SplineProfile": Port(_without(desc_spline_profile, "dr=2"), interpax,
                              {"params": 1e5 * (1 - PROFILE_KNOTS**2) ** 2}),
        "interpax README": Port(interpax_readme_usage, interpax,
                                {"fp": np.sin(np.linspace(0, 2 * np.pi, 50))}),
    }  # fmt: skip
    for name, port in ports.items():
        theirs = port.run(port.original)  # float64, x64 on
        with jax.enable_x64(False), warnings.catch_warnings():
            warnings.simplefilter("ignore", splines.X64DisabledWarning)
            ours = _as_numpy(port.run(splines))
        for leaf in jax.tree.leaves(ours):
            assert leaf.dtype == np.float32, f"{name}: {leaf.dtype}"
        assert_agree(ours, theirs, F32_REL, f"{name} (float32)")
