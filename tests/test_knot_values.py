"""An interpolant returns the data at the data: the value at every knot, the last
included, equals ``fp`` exactly — every method, dtype, entry point and class,
in 1-D and on grids — and so the roots and solves there are found.

The last knot ends a piece instead of starting one, and there the sum of the
last piece's coefficients rounds away from the data (hundreds of ulps when the
slopes are large against the values); these cases put exact zeros at random
knots, which is where that showed (a zero read as 2e-16 loses its root).

Compilation dominates the runtime: the f32 and f64 cases of a test share one jitted
program, with the values and queries as its arguments (so the fits are compiled, as
in eager use) and the knots and periods closed over (concrete, as in eager use).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

import splines
from splines import (
    Akima1DInterpolator,
    CubicHermiteSpline,
    CubicSpline,
    Interpolator1D,
    Interpolator2D,
    PchipInterpolator,
    interp1d,
    interp2d,
    interp3d,
)

METHODS = ["nearest", "linear", "cubic2", "cubic", "catmull-rom", "cardinal", "monotonic",
           "monotonic-0", "akima", "makima"]  # fmt: skip
GRID_METHODS = ["nearest", "linear", "cubic2", "monotonic", "akima"]
DTYPES = [np.float32, np.float64]
TRIALS = 12


def _data(dtype, trials=TRIALS, n=7, seed=0):
    """Random knots; values with exact zeros at random knots (the last always among
    them in half the trials), as columns: ``(n, trials)``."""
    rng = np.random.default_rng(seed)
    xp = np.sort(rng.uniform(-3.0, 5.0, n)).astype(dtype)
    fp = rng.normal(size=(n, trials)) * 10.0 ** rng.integers(-3, 3, trials)
    fp[rng.random((n, trials)) < 0.35] = 0.0
    fp[-1, ::2] = 0.0
    return xp, fp.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_interp1d_and_interpolator1d_return_fp_at_every_knot(dtype):
    xp, fp = _data(dtype)

    @jax.jit
    def at_knots(xp, fp):
        return {m: (interp1d(xp, xp, fp, m), Interpolator1D(xp, fp, m)(xp)) for m in METHODS}

    for method, outs in at_knots(xp, fp).items():
        for api, out in zip(["interp1d", "Interpolator1D"], outs):
            bad = np.argwhere(np.asarray(out) != fp)
            assert bad.size == 0, f"{api}, {method}: knot, column {bad[:3].tolist()}"


def test_every_bc_type_and_period_returns_fp_at_every_knot():
    """f32 and f64 in one program: the queries, values and slopes are its arguments, the
    knots and periods closed over (concrete, as in eager use: the closing is decided on
    them)."""
    knots, arrays = {}, {}
    for dtype in DTYPES:
        xp, fp = _data(dtype)
        closed = np.concatenate([fp, fp[:1]])
        period = dtype(xp[-1] - xp[0] + 0.75)
        closed_xp = np.append(xp, xp[0] + period).astype(dtype)
        knots[np.dtype(dtype).name] = xp, closed_xp, period
        arrays[np.dtype(dtype).name] = {"open": (xp, fp), "closed": (closed_xp, closed),
                                        "fx": np.cos(fp)}  # fmt: skip

    def outputs(arrays, xp, closed_xp, period):
        (x, fp), (closed_x, closed) = arrays["open"], arrays["closed"]
        outs = {
            "natural": interp1d(x, xp, fp, "cubic2", bc_type="natural"),
            "clamped": interp1d(x, xp, fp, "cubic2", bc_type="clamped"),
            "mixed": interp1d(x, xp, fp, "cubic2", bc_type=((1, 2.0), (2, -1.0))),
            "fx": interp1d(x, xp, fp, "cubic2", fx=arrays["fx"]),
        }
        for method in ["cubic2", "akima", "linear"]:  # open and closed knots, closing included
            outs[method, "open"] = interp1d(x, xp, fp, method, period=period)
            outs[method, "closed"] = interp1d(closed_x, closed_xp, closed, method, period=period)
        outs["CubicSpline periodic", "closed"] = CubicSpline(closed_xp, closed, bc_type="periodic")(
            closed_x
        )
        return [(name, out) for name, out in outs.items()]  # static names, array outputs

    names = {}

    @jax.jit
    def run(arrays):
        results = {}
        for dtype in arrays:
            named = outputs(arrays[dtype], *knots[dtype])
            names[dtype] = [name for name, _ in named]
            results[dtype] = [out for _, out in named]
        return results

    for dtype, outs in run(arrays).items():
        for name, out in zip(names[dtype], outs):
            want = arrays[dtype]["closed" if name[-1] == "closed" else "open"][1]
            assert np.array_equal(out, want), (dtype, name)


def test_scipy_classes_return_y_at_every_knot():
    """Eagerly, under jit and with stacked orders (those two in one program for f32 and
    f64), every class."""
    classes = {}
    for dtype in DTYPES:
        xp, fp = _data(dtype)
        classes[np.dtype(dtype).name] = (
            xp,
            fp,
            {
                "CubicSpline": CubicSpline(xp, fp),
                "CubicSpline natural": CubicSpline(xp, fp, bc_type="natural"),
                "CubicHermiteSpline": CubicHermiteSpline(xp, fp, np.sin(fp)),
                "PchipInterpolator": PchipInterpolator(xp, fp),
                "Akima1DInterpolator": Akima1DInterpolator(xp, fp),
                "makima": Akima1DInterpolator(xp, fp, method="makima"),
            },
        )
    for dtype, (xp, fp, splines_of) in classes.items():
        for name, spline in splines_of.items():
            assert np.array_equal(spline(xp), fp), f"{dtype} {name}"

    @jax.jit
    def in_jit(classes):
        return {dtype: {name: (s(xp), s(xp, nu=(0, 1))) for name, s in splines_of.items()}
                for dtype, (xp, _, splines_of) in classes.items()}  # fmt: skip

    for dtype, outs in in_jit(classes).items():
        fp = classes[dtype][1]
        for name, (values, stacked) in outs.items():
            assert np.array_equal(values, fp), f"{dtype} {name} (jit)"
            assert np.array_equal(stacked[0], fp), f"{dtype} {name} (stacked orders)"


def test_the_last_knot_is_exact_and_the_gradients_are_the_pieces():
    """The value there is the data's; its derivatives, in x and in the data, are those
    of the last piece (the one-sided limit), as just inside the range."""
    xp = np.array([0.0, 1.0, 2.0, 3.0])
    fp = np.array([1.0, 0.0, -1.0, 0.0])
    assert CubicSpline(xp, fp)(3.0) == 0.0
    fp = np.array([1.0, 0.2, -1.0, 0.0])  # no equal secants: akima is smooth in the data
    methods = ["cubic2", "akima", "linear"]

    @jax.jit
    def values(f, x):
        return jnp.stack([interp1d(x, xp, f, m, extrap=True) for m in methods])

    @jax.jit
    def derivatives(f, x, inside):  # one program: the slopes, d/dx, and d/df on both sides
        slopes = jnp.stack([interp1d(x, xp, f, m, derivative=1) for m in methods])
        return slopes, jax.jacfwd(values, 1)(f, x), jax.jacrev(values)(f, x), jax.jacrev(
            values)(f, inside)  # fmt: skip

    slopes, d_dx, d_df, d_df_inside = derivatives(fp, 3.0, 3.0 - 1e-9)
    np.testing.assert_allclose(d_dx, slopes, rtol=1e-14)
    np.testing.assert_allclose(d_df, d_df_inside, atol=1e-8)
    check_grads(values, (fp, 3.0), order=1, modes=("fwd", "rev"))
    check_grads(values, (fp, 3.0), order=2, modes=("fwd",))


def test_ppoly_operations_keep_the_value_at_the_last_break():
    """A PPoly's own value there is its last piece's sum; derivatives, antiderivatives
    and extensions carry their own; a fitted spline's is its data."""
    xp, fp = np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 0.0, -1.0, 0.0])
    spline = CubicSpline(xp, fp)
    pp = splines.PPoly(spline.c, spline.x)
    np.testing.assert_allclose(pp(3.0), 0.0, atol=1e-15)
    np.testing.assert_allclose(spline.derivative()(3.0), spline(3.0, 1), rtol=1e-15)
    np.testing.assert_allclose(spline.antiderivative()(3.0), spline.integrate(0, 3), rtol=1e-14)
    spline.extend(np.array([[1.0], [0.0]]), np.array([4.0]))  # x − 3 on [3, 4]
    assert spline(4.0) == 1.0 and spline(3.0) == 0.0


def test_roots_at_every_zero_knot():
    """Exact zeros at random knots of cubic2, pchip and akima fits are all roots, the
    last one included (except where a zero piece ends: scipy lists such a piece
    by its start only); and a solve for the last value finds the last knot."""
    xp, fp = _data(np.float64, trials=40, seed=1)
    for cls in [CubicSpline, PchipInterpolator, Akima1DInterpolator]:
        for j in range(fp.shape[1]):
            spline = cls(xp, fp[:, j])
            found = spline.roots(extrapolate=False)
            zero_piece = np.concatenate([[False], np.all(np.asarray(spline.c) == 0, axis=0)])
            for knot in xp[(fp[:, j] == 0) & ~zero_piece]:
                assert np.any(found == knot), (cls.__name__, j, knot, found)
            if not zero_piece[-1]:
                at_end = cls(xp, fp[:, j] + 0.5).solve(fp[-1, j] + 0.5, extrapolate=False)
                assert np.any(at_end == xp[-1]), (cls.__name__, j, at_end)
    spline = CubicSpline([0.0, 1, 2, 3], [1.0, 0, -1, 0])
    np.testing.assert_array_equal(spline.roots(extrapolate=False), [1.0, 3.0])
    np.testing.assert_array_equal(jax.jit(lambda s: s.roots(extrapolate=False, size=3))(spline),
                                  [1.0, 3.0, np.nan])  # fmt: skip
    np.testing.assert_allclose(CubicSpline([0.0, 1, 2, 3], [1.0, 0, -1, 0.5]).solve(
        0.5, extrapolate=False), [0.6324555320336759, 3.0], rtol=1e-15)  # fmt: skip


def test_grids_return_fp_at_every_node():
    """interp2d (one method per pieces rule and per nonlinear slope rule), Interpolator2D and
    interp3d, f32 and f64: one program, the values and queries its arguments."""
    cases = {}
    for dtype in DTYPES:
        rng = np.random.default_rng(2)
        xp, yp = (np.sort(rng.uniform(0, 3, n)).astype(dtype) for n in (6, 5))
        fp = (rng.normal(size=(6, 5)) * (rng.random((6, 5)) > 0.3)).astype(dtype)
        fp[-1, :], fp[:, -1] = 0.0, 0.0
        zp = np.sort(rng.uniform(0, 3, 4)).astype(dtype)
        f3 = rng.normal(size=(6, 5, 4)).astype(dtype)
        cases[np.dtype(dtype).name] = xp, yp, zp, fp, f3

    @jax.jit
    def at_nodes(arrays):
        outs = {}
        for name, (fp, f3) in arrays.items():
            xp, yp, zp = cases[name][:3]
            X, Y = np.meshgrid(xp, yp, indexing="ij")
            out = {m: interp2d(X, Y, xp, yp, fp, m) for m in GRID_METHODS}
            out["Interpolator2D akima"] = Interpolator2D(xp, yp, fp, "akima")(X, Y)
            out["interp3d"] = interp3d(
                *np.meshgrid(xp, yp, zp, indexing="ij"), xp, yp, zp, f3, method="cubic2"
            )
            outs[name] = out
        return outs

    for dtype, outs in at_nodes({name: c[3:] for name, c in cases.items()}).items():
        fp, f3 = cases[dtype][3:]
        for method, out in outs.items():
            assert out.dtype == fp.dtype, (dtype, method)
            assert np.array_equal(out, f3 if method == "interp3d" else fp), (dtype, method)


def test_grid_derivatives_at_the_last_node_are_the_cells():
    """On the last break a cell is read from its far end: the same polynomial, so
    derivatives of every order (and gradients in x) match the cell's just inside."""
    rng = np.random.default_rng(3)
    xp, yp = np.sort(rng.uniform(0, 3, 7)), np.sort(rng.uniform(0, 3, 6))
    fp = rng.normal(size=(7, 6))
    q = np.array([[xp[-1], yp[2]], [xp[-1], yp[-1]], [xp[3], yp[-1]], [xp[-1], 1.3]])
    methods, orders = ["cubic2", "akima", "linear"], [(o, p) for o in range(4) for p in range(3)]
    near = q - 1e-10 * (q == np.array([xp[-1], yp[-1]]))

    @jax.jit
    def derivatives(q):
        return [interp2d(q[:, 0], q[:, 1], xp, yp, fp, m, derivative=orders) for m in methods]

    @jax.jit
    def gradients(x):  # ∂/∂x at (xp[-1], yp[-1]), every method: one program
        return [jax.grad(lambda x, m=m: interp2d(x, yp[-1], xp, yp, fp, m))(x) for m in methods]

    grads = gradients(xp[-1])
    for method, at, inside, gx in zip(methods, derivatives(q), derivatives(near), grads):
        np.testing.assert_allclose(at, inside, rtol=1e-6, atol=1e-6, err_msg=method)
        assert gx == pytest.approx(float(at[3, 1])), method  # ∂/∂x at (xp[-1], yp[-1])
