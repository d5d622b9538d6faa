"""A user's script that calls every public name of `splines`, for the type checkers.

`tests/test_typing.py` runs pyright on it in strict mode (`[tool.pyright]` in
pyproject.toml): every call type-checks with jax arrays, numpy arrays, (nested)
lists and Python scalars, options are ``Literal`` names, and the results are
precise types (``jax.Array``, ``list[jax.Array]``, ``numpy.ndarray``, ``PPoly``),
so no ``Unknown`` from `splines` reaches this file.  The test also runs it as
Python (small data, in either precision): every call here is one the runtime
accepts.  Not collected by pytest (no ``test_`` prefix).

The ``pyright: ignore`` comments are about jax's, numpy's and lineax's own
annotations (a parameter of ``jnp.asarray`` is partially unknown to pyright;
lineax ships no ``py.typed``), never about `splines`.
"""

import warnings
from typing import Literal

import jax
import jax.numpy as jnp
import lineax as lx  # pyright: ignore[reportMissingTypeStubs]
import numpy as np

import splines
from splines import (
    AbstractPPoly,
    Akima1DInterpolator,
    BSpline,
    CubicHermiteSpline,
    CubicSmoothingSpline,
    CubicSpline,
    Interpolator1D,
    Interpolator2D,
    Interpolator3D,
    NotRealError,
    PchipInterpolator,
    PPoly,
    RegularGridInterpolator,
    Tridiagonal,
    X64DisabledWarning,
    approx_df,
    cyclic_tridiagonal_solve,
    fft_interp1d,
    fft_interp2d,
    interp1d,
    interp2d,
    interp3d,
    interpn,
    make_interp_spline,
    make_lsq_spline,
    make_smoothing_spline,
    pchip_interpolate,
    solve_banded,
    solveh_banded,
    tridiagonal_solve,
)


def as_jax(values: np.ndarray | list[float] | float) -> jax.Array:
    return jnp.asarray(values)  # pyright: ignore[reportUnknownMemberType]


def check(value: jax.Array | np.ndarray, shape: tuple[int, ...]) -> None:
    """The result has the expected shape and holds numbers (no NaN)."""
    assert value.shape == shape, (value.shape, shape)
    assert bool(np.all(np.isfinite(np.asarray(value)))), value


# float64 numpy data in a scipy-style class warn (once) when x64 is off.
warnings.simplefilter("ignore", X64DisabledWarning)

# The same knots and values in each form the entry points take.
xp_list: list[float] = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
xp_numpy: np.ndarray = np.asarray(xp_list)
xp_jax: jax.Array = as_jax(xp_list)
fp_list: list[float] = [x * x for x in xp_list]
fp_numpy: np.ndarray = np.asarray(fp_list)
fp_jax: jax.Array = as_jax(fp_list)
fp_columns: list[list[float]] = [[v, 2 * v] for v in fp_list]  # (6, 2): two columns
grid_values: np.ndarray = np.outer(fp_numpy, fp_numpy) + 1.0  # (6, 6)

# ------------------------------------------------------------------------ interp1d
y: jax.Array = interp1d(0.5, xp_list, fp_list)  # a Python scalar and lists
check(y, ())
y = interp1d(xp_jax, xp_numpy, fp_columns, "cubic2", (0, 1), (True, 0.0),
             bc_type=((1, 0.0), "natural"), axis=0)  # fmt: skip
check(y, (2, 6, 2))
method: Literal["catmull-rom", "cardinal"] = "cardinal"  # a choice made at run time
y = interp1d([0.1, 0.7], xp_list, fp_jax, method, extrap=[False, 1.0], c=0.5, even_spacing=None)
check(y, (2,))
order = np.int64(1)  # a numpy integer (an index, `np.arange`'s): an order, as an int
y = (
    interp1d(np.float64(0.5), xp_list, fp_list, "cubic2", order)
    + interp1d(0.5, xp_list, fp_list, derivative=[0, order])[1]
)
check(y, ())
try:
    interp1d([0.5 + 1j], xp_list, fp_list)
except NotRealError as error:  # complex queries
    assert str(error)

# --------------------------------------------------------------- interp2d / interp3d
y = interp2d(0.3, [0.1, 0.2], xp_list, xp_jax, grid_values, "cubic", [(0, 0), (1, 0)])
check(y, (2, 2))
y = interp2d(xp_jax, 0.5, xp_numpy, xp_list, grid_values.tolist(), "linear", (1, 0), True,
             period=(None, 2.0), even_spacing=(True, None))  # fmt: skip
check(y, (6,))
cube: list[list[list[float]]] = [[[a + b + c for c in xp_list] for b in xp_list] for a in xp_list]
y = interp3d(0.5, xp_jax, [[0.1], [0.9]], xp_list, xp_numpy, xp_jax, cube, "nearest", extrap=True)
check(y, (2, 6))

# --------------------------------------------------------------------------- interpn
points = (xp_list, xp_numpy)
y = interpn(points, grid_values, as_jax(np.asarray([[0.1, 0.2], [0.5, 0.5]])))
check(y, (2,))
y = interpn([xp_jax, xp_list], grid_values, [[0.3, 2.0]], "slinear", False, 0.0,
            derivative=(0, 1))  # fmt: skip
check(y, (1,))

# ------------------------------------------------------------------- interpolators
i1 = Interpolator1D(xp_list, fp_columns, "cubic2", extrap=True, axis=0)
y = i1([0.1, 0.5, 2.0])
check(y, (3, 2))
y = i1(as_jax(0.5), dx=(1, 2))
check(y, (2, 2))
even: bool | None = i1.even_spacing
breaks: jax.Array = i1.breaks
assert i1.method == "cubic2" and even is True and breaks.shape == (6,)

i2 = Interpolator2D(xp_numpy, xp_list, grid_values, "linear", period=(None, 2.0))
y = i2(0.5, [0.1, 0.2], 1, 0)
check(y, (2,))
y = i2(np.asarray(0.5), 0.5, derivative=[(0, 0), (0, 1)])
check(y, (2,))
y = i2(0.5, 0.5, order, order)
check(y, ())
evens: tuple[bool | None, ...] = i2.even_spacing
assert len(evens) == 2

i3 = Interpolator3D(xp_list, xp_list, xp_jax, cube, "linear", extrap=0.0, even_spacing=True)
y = i3(0.5, 0.5, [0.5, 1.5], dz=1)
check(y, (2,))
assert i3.even_spacing == (True, True, True)

rgi = RegularGridInterpolator(points, grid_values, "linear", bounds_error=False)
y = rgi([[0.1, 0.2], [0.3, 0.4]])
check(y, (2,))
y = rgi(np.asarray([[0.1, 0.2]]), nu=(1, 0))
check(y, (1,))
y = rgi(as_jax(np.asarray([0.1, 0.2])), method="nearest")  # refit; one point, as scipy's
check(y, (1,))
rgi.fill_value = as_jax(0.0)  # scipy's idiom: the fill outside, in place
rgi.fill_value = 0.0  # a Python float in (as scipy's), an array out
fill: jax.Array | None = rgi.fill_value
y = rgi([[2.0, 0.5]])
check(y, (1,))
grid: tuple[jax.Array, ...] = rgi.grid
assert len(grid) == 2

# ------------------------------------------------------------------------ approx_df
slopes: jax.Array = approx_df(xp_list, fp_numpy, "cubic2", bc_type="natural")
check(slopes, (6,))
slopes = approx_df(xp_jax, fp_columns, axis=0)
check(slopes, (6, 2))

# ---------------------------------------------------------------------------- fft
samples: list[float] = [float(np.cos(2 * np.pi * k / 8)) for k in range(8)]
y = fft_interp1d(samples, 16)
check(y, (16,))
y = fft_interp1d(np.asarray(samples), 4, sx=[0.0, 0.5], dx=0.125)
check(y, (4, 2))
y = fft_interp2d(as_jax(np.outer(samples, samples)), 4, 6, 0.1, 0.2)
check(y, (4, 6, 1))

# ------------------------------------------------------------------ tridiagonal
lower, diag, upper = [1.0, 1.0], [4.0, 4.0, 4.0], np.ones(2)
solution: jax.Array = tridiagonal_solve(lower, diag, upper, as_jax([1.0, 2.0, 3.0]))
check(solution, (3,))
solution = tridiagonal_solve(lower, diag, upper, [[1.0, 2.0, 3.0]], pivoting=False)
check(solution, (1, 3))
operator = lx.TridiagonalLinearOperator(as_jax(diag), as_jax(lower), as_jax(lower))
solution = tridiagonal_solve(operator, [1.0, 2.0, 3.0])
check(solution, (3,))
solver: Tridiagonal = Tridiagonal(pivoting=True)
result = lx.linear_solve(operator, as_jax(diag), solver)  # pyright: ignore[reportUnknownMemberType]
assert result.value.shape == (3,)  # pyright: ignore[reportUnknownMemberType]
smooth = CubicSmoothingSpline([0.0, 1.0, 2.0, 3.0], as_jax([0.0, 1.0, 0.5, 2.0]), p=0.5)
check(smooth(as_jax([0.5, 1.5])), (2,))
smooth = CubicSmoothingSpline(np.arange(4.0), np.ones((4, 2)), w=[1.0, 2.0, 1.0, 1.0], axis=0)
check(smooth(1.5, 1), (2,))
fitted: BSpline = make_smoothing_spline(np.arange(6.0), [0.0, 1.0, 0.5, 2.0, 1.5, 3.0], lam=0.1)
check(fitted(as_jax([0.5, 1.5])), (2,))
fitted = make_smoothing_spline(as_jax(np.arange(6.0)), np.ones((6, 2)), w=np.ones(6))
check(fitted(2.5), (2,))
solution = cyclic_tridiagonal_solve([1.0, 1.0, 1.0], diag, np.ones(3), as_jax(diag))
check(solution, (3,))
bands = [[0.0, 1.0, 1.0], [4.0, 4.0, 4.0], [1.0, 1.0, 0.0]]
solution = solve_banded((1, 1), bands, as_jax([1.0, 2.0, 3.0]))
check(solution, (3,))
solution = solve_banded((1, 1), np.asarray(bands), np.ones((3, 2)), check_finite=False)
check(solution, (3, 2))
solution = solveh_banded(bands[:2], [1.0, 2.0, 3.0])
check(solution, (3,))
solution = solveh_banded(as_jax(np.asarray(bands[1:])), np.ones((3, 2)), lower=True)
check(solution, (3, 2))


# ----------------------------------------------------------- piecewise polynomials
def area(spline: AbstractPPoly) -> jax.Array:
    """Any scipy-style spline: they share `AbstractPPoly`'s methods."""
    return spline.integrate(0.0, 1.0)


# p(x) = x² − 1/4 on [0, 1], (x − 1)² + (x − 1) on [1, 2]; c: (k+1, m), highest power first.
ppoly = PPoly([[1.0, 1.0], [0.0, 1.0], [-0.25, 0.0]], [0.0, 1.0, 2.0])
y = ppoly([0.5, 1.5])
check(y, (2,))
y = ppoly(as_jax(0.5), nu=(0, 1), extrapolate="periodic")
check(y, (2,))
derivative: PPoly = ppoly.derivative()
check(ppoly.derivative(order)(0.5) - derivative(0.5), ())
antiderivative: PPoly = ppoly.antiderivative(2)
check(derivative(0.5) - antiderivative.derivative(3)(0.5), ())
integral: jax.Array = ppoly.integrate(0, 2.0, extrapolate=False)
check(integral, ())
roots: np.ndarray = ppoly.roots()  # eagerly: scipy's array (−0.5 is extrapolated)
padded: jax.Array = ppoly.solve(0.5, True, None, 4)  # a static size: jax's, also under jit
assert roots.shape == (3,) and padded.shape == (4,)
breakpoints: jax.Array = ppoly.x
coefficients: jax.Array = ppoly.c
assert breakpoints.shape == (3,) and coefficients.shape == (3, 2)
ppoly.extend([[0.0], [0.0], [1.0]], [3.0])  # in place, as scipy's
assert ppoly.x.shape == (4,)
fast: PPoly = PPoly.construct_fast(np.ones((2, 1)), [0.0, 1.0], extrapolate=True)
from_tck: PPoly = PPoly.from_spline(([0.0, 0.0, 1.0, 1.0], [1.0, 2.0, 0.0, 0.0], 1))
check(fast(0.5) + from_tck(0.5), ())

cubic = CubicSpline(xp_jax, fp_columns, 0, ((2, [0.0, 0.0]), (1, [1.0, 2.0])), "periodic")
check(cubic(as_jax(np.asarray([0.5]))), (1, 2))
hermite = CubicHermiteSpline(xp_numpy, fp_list, [2 * x for x in xp_list], extrapolate=False)
check(hermite(0.5, 1), ())
pchip = PchipInterpolator(xp_list, fp_jax, extrapolate=True, check=False)
check(area(pchip), ())
akima = Akima1DInterpolator(xp_list, fp_list)
makima = Akima1DInterpolator(xp_numpy, fp_numpy, method="makima", extrapolate=True)
check(akima(0.5) - makima(0.5), ())
y = pchip_interpolate(xp_list, fp_numpy, [0.1, 0.2])
check(y, (2,))
ys: list[jax.Array] = pchip_interpolate(xp_jax, fp_list, 0.5, der=[0, 1, -1])
assert len(ys) == 3
y = pchip_interpolate(xp_jax, fp_list, 0.5, der=order)
check(y, ())


# ------------------------------------------------------------------------ B-splines
bspline: BSpline = make_interp_spline(xp_list, fp_jax)  # not-a-knot, k = 3
check(bspline(as_jax([0.1, 0.5])), (2,))
check(bspline(0.5, nu=order, extrapolate="periodic"), ())
bspline = make_interp_spline(xp_numpy, fp_columns, k=3, bc_type=([(1, [0.0, 0.0])], "natural"))
check(bspline(0.5), (2,))
bspline = make_interp_spline(xp_jax, fp_list, 5, bc_type=None, axis=0, check_finite=False)
bspline = make_interp_spline(xp_list, fp_list, k=3, bc_type="clamped")
knots: list[float] = [0.0, 0.0, 0.0, 0.0, 0.5, 1.0, 1.0, 1.0, 1.0]
lsq: BSpline = make_lsq_spline(xp_list, fp_numpy, knots, k=3, w=[1.0] * 6)
check(lsq(as_jax(0.5)), ())
lsq = make_lsq_spline(xp_jax, fp_columns, as_jax(knots), 3, None, 0, True)
check(lsq.integrate(0.0, 1.0, extrapolate=False), (2,))
derived: BSpline = bspline.derivative(2).antiderivative()
check(derived(0.5), ())
made = BSpline(knots, [1.0, 2.0, 0.0, 1.0, 2.0], 3, extrapolate=False, axis=0)
basis: jax.Array = BSpline.design_matrix(xp_list, made.t, made.k)
check(basis, (6, 5))
element = BSpline.basis_element([0.0, 1.0, 2.0], extrapolate=True)
fast_bspline = BSpline.construct_fast(made.t, made.c, 3)
check(element(0.5) + fast_bspline(0.5) + made.tck[1][0], ())
check(PPoly.from_spline(made)(0.5), ())


# ------------------------------------------------------------ what the types reject
def rejected() -> None:
    """Calls the runtime rejects: each is an error to pyright, so each ignore is needed
    (``reportUnnecessaryTypeIgnoreComment``, pyproject.toml).  Never called."""
    interp1d(0.5, xp_list, fp_list, "cubic3")  # pyright: ignore[reportArgumentType]
    interp1d("0.5", xp_list, fp_list)  # pyright: ignore[reportArgumentType]
    interpn(points, grid_values, [0.5, 0.5], "pchip")  # pyright: ignore[reportArgumentType]
    approx_df(xp_list, fp_list, "linear")  # pyright: ignore[reportArgumentType]
    CubicSpline(xp_list, fp_list, bc_type="natural2")  # pyright: ignore[reportArgumentType]
    Akima1DInterpolator(xp_list, fp_list, method="pchip")  # pyright: ignore[reportArgumentType]
    PPoly([[1.0]], [0.0, 1.0], extrapolate="clamped")  # pyright: ignore[reportArgumentType]
    make_interp_spline(xp_list, fp_list, bc_type="natural2")  # pyright: ignore[reportArgumentType]


version: str = splines.__version__
print(f"splines {version}: every public name called")
