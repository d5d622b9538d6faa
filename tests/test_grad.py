"""Gradients through `interp1d` and `Interpolator1D`.

Finite differences are only valid where the interpolant is smooth in every
differentiated argument, so every query stays ≥ 0.3 away from every knot
(check_grads perturbs by eps = 1e-4 times a standard-normal direction, twice
for order 2).  Each differentiated function is wrapped in `jax.jit` as a
whole: then finite differences and the transformed programs see traced knots
alike, and each check compiles a handful of programs instead of one per
operation.

Where finite differences do not apply (queries on knots, flat and straight runs,
a traced period), the gradients are finite: periodic Akima, whose weights vanish
there.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from scipy.interpolate import CubicSpline

from splines import Interpolator1D, interp1d

XP = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])  # uneven spacing, n = 6
FP = np.sin(XP) + 0.3 * XP
X = np.array([0.3, 1.1, 2.0, 3.9])  # inside, ≥ 0.3 from every knot
X_OUT = np.array([-0.6, 0.3, 2.0, 5.2])  # two queries outside, for extrap=True

PERIOD = 5.5  # the knots XP cover [0, 4.5]; the period closes at 5.5
X_WRAP = np.array([0.3, 5.1, 6.6, -2.0])  # wrap to 0.3, 5.1, 1.1, 3.5

# Order 2 in both modes compiles ~13 programs (~1 s each on 2 cores), so it
# runs on one representative configuration: derivative-order ends with
# differentiated per-column values, every argument at once.  The other end
# conditions check forward mode to order 2 (jvp of jvp: one more program) and
# reverse mode to order 1, several configurations per check (one output each,
# concatenated) to share the compiles.  The primitive's own rules are checked
# to order 2 in both modes in test_tridiagonal.py; the rest is plain jnp code.
FULL = {"order": 2, "modes": ("fwd", "rev")}


def check_grads_lite(f, args):
    """Forward mode to order 2 and reverse mode to order 1."""
    check_grads(f, args, order=2, modes=("fwd",))
    check_grads(f, args, order=1, modes=("rev",))


# ---------------------------------------------------------- check_grads --
# Default f64 tolerances (1e-5) hold throughout: with eps = 1e-4 the finite
# differences' truncation error is ~1e-8 on these smooth pieces.


def test_check_grads_mixed_ends_all_arguments():
    # x, xp, fp (two columns) and both ends' values (one per column) at once:
    # the random tangent moves them all, so a wrong rule for any of them shows.
    def f(x, xp, fp, v0, v1):
        return interp1d(x, xp, fp, method="cubic2", bc_type=((1, v0), (2, v1)))

    fp = np.stack([FP, np.cos(XP)], axis=1)
    check_grads(jax.jit(f), (X, XP, fp, np.array([0.8, 0.0]), np.array([-0.5, 2.0])), **FULL)


def test_check_grads_end_conditions():
    # x, xp, fp and the end values for: natural and clamped (these end kinds
    # at value 0, values differentiated), not-a-knot at one end, and
    # not-a-knot at both (the default) with queries outside, extrapolated.
    def f(x, x_out, xp, fp, v0, v1):
        return jnp.concatenate([
            interp1d(x, xp, fp, "cubic2", bc_type=((2, v0), (2, v1))),
            interp1d(x, xp, fp, "cubic2", bc_type=((1, v0), (1, v1)), derivative=1),
            interp1d(x, xp, fp, "cubic2", bc_type=("not-a-knot", (1, v1 + 0.4)), derivative=2),
            interp1d(x_out, xp, fp, "cubic2", bc_type="not-a-knot", extrap=True),
        ])  # fmt: skip

    check_grads_lite(jax.jit(f), (X, X_OUT, XP, FP, np.float64(0.0), np.float64(0.0)))


def test_check_grads_periodic_and_period():
    # bc_type="periodic" needs fp[-1] == fp[0]: close the distinct values
    # inside, so perturbations keep it periodic (fp[-1] has no effect there).
    # A traced period takes the knots without the closing one; the queries
    # wrap (none lands near a knot or a period boundary after wrapping).
    def f(x, x_wrap, xp, fp, period):
        closed = jnp.concatenate([fp[:-1], fp[:1]])
        return jnp.concatenate([
            interp1d(x, xp, closed, "cubic2", bc_type="periodic"),
            interp1d(x_wrap, xp, fp, "cubic2", period=period),
        ])  # fmt: skip

    check_grads_lite(jax.jit(f), (X, X_WRAP, XP, FP, np.float64(PERIOD)))


def test_check_grads_linear():
    def f(x, fp):
        return interp1d(x, XP, fp, method="linear")

    check_grads(jax.jit(f), (X, FP), **FULL)  # a small program: full order 2


# ------------------------------------------------------------- analytic --


def _identity_spline(bc_type, derivative=0):
    """∂ spline(x) / ∂ fp: the spline of each unit vector (scipy), shape (len(X), n)."""
    if bc_type == "periodic":  # distinct values g → fp = (g, g[0])
        eye = np.eye(len(XP) - 1)
        return CubicSpline(XP, np.vstack([eye, eye[:1]]), bc_type="periodic")(X, derivative)
    return CubicSpline(XP, np.eye(len(XP)), bc_type=bc_type)(X, derivative)


@pytest.mark.parametrize("bc_type", ["natural", "not-a-knot", "clamped", "periodic"])
def test_jacobian_wrt_fp_is_spline_of_unit_vectors(bc_type):
    # With fixed knots (and homogeneous end conditions) the spline is linear
    # in fp, so its Jacobian is the spline of the identity's columns; also for
    # its derivatives.
    def f(values, derivative):
        if bc_type == "periodic":  # differentiate the distinct values
            values = jnp.concatenate([values, values[:1]])
        return interp1d(X, XP, values, "cubic2", bc_type=bc_type, derivative=derivative)

    @jax.jit
    def jacobians(values):
        return [(jax.jacfwd(f)(values, d), jax.jacrev(f)(values, d)) for d in (0, 2)]

    fp = FP[:-1] if bc_type == "periodic" else FP
    for d, (jac_fwd, jac_rev) in zip((0, 2), jacobians(fp)):
        expected = _identity_spline(bc_type, d)
        np.testing.assert_allclose(jac_fwd, expected, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(jac_rev, expected, rtol=1e-12, atol=1e-12)


def test_jacobian_wrt_boundary_values_is_spline_of_zero_data():
    # The spline is affine in (fp, v0, v1): ∂/∂v0 is the spline of zero data
    # with end values (1, 0), and likewise for v1.
    def f(v):
        return interp1d(X, XP, FP, "cubic2", bc_type=((1, v[0]), (2, v[1])))

    jac = jax.jit(jax.jacfwd(f))(np.array([0.8, -0.5]))
    zero = np.zeros_like(XP)
    d_v0 = CubicSpline(XP, zero, bc_type=((1, 1.0), (2, 0.0)))(X)
    d_v1 = CubicSpline(XP, zero, bc_type=((1, 0.0), (2, 1.0)))(X)
    np.testing.assert_allclose(jac, np.stack([d_v0, d_v1], axis=1), rtol=1e-12, atol=1e-13)


def test_nearest_gradient_selects_the_nearest_value():
    w = np.array([1.0, -2.0, 3.0, 0.5])
    x = X + 0.05  # X[1] is a cell midpoint (a tie); move every query off it
    grad = jax.grad(lambda fp: jnp.vdot(w, interp1d(x, XP, fp, method="nearest")))(FP)
    nearest = np.argmin(np.abs(x[:, None] - XP[None, :]), axis=1)
    np.testing.assert_array_equal(grad, np.bincount(nearest, weights=w, minlength=len(XP)))


# ----------------------------------------- Interpolator1D, jit, losses --


def test_grad_through_interpolator_construction():
    w = np.array([1.0, -2.0, 3.0, 0.5])

    def loss(fp):
        return jnp.vdot(w, Interpolator1D(XP, fp, "cubic2")(X))

    grad = jax.grad(loss)(FP)
    # loss is linear in fp: its gradient is wᵀ J with J the unit-vector splines.
    np.testing.assert_allclose(grad, w @ _identity_spline("not-a-knot"), rtol=1e-12, atol=1e-13)

    def loss2(fp):  # a nonlinear loss, values and derivatives, one fit
        itp = Interpolator1D(XP, fp, "cubic2")
        return jnp.sum(itp(X) ** 2) + jnp.sum(itp(X, derivative=1) ** 3)

    j0, j1 = _identity_spline("not-a-knot", 0), _identity_spline("not-a-knot", 1)
    expected = 2 * (j0 @ FP) @ j0 + 3 * (j1 @ FP) ** 2 @ j1
    np.testing.assert_allclose(jax.grad(loss2)(FP), expected, rtol=1e-12, atol=1e-12)


def _scipy_loss(x, xp, fp, target):
    return np.sum((CubicSpline(xp, fp)(x) - target) ** 2)


def test_jitted_grad_of_loss_matches_scipy_finite_differences():
    target = np.cos(X)

    def loss(x, xp, fp):
        return jnp.sum((interp1d(x, xp, fp, "cubic2") - target) ** 2)

    grads = jax.jit(jax.grad(loss, argnums=(0, 1, 2)))(X, XP, FP)
    # Central differences of scipy's spline, h = 1e-6: truncation ~1e-12,
    # rounding ~1e-16/1e-6 = 1e-10 relative; 1e-7 leaves a wide margin.
    h = 1e-6
    args = [X, XP, FP]
    for k, g in enumerate(grads):
        fd = np.empty_like(args[k])
        for i in range(args[k].size):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[k][i] += h
            minus[k][i] -= h
            fd[i] = (_scipy_loss(*plus, target) - _scipy_loss(*minus, target)) / (2 * h)
        np.testing.assert_allclose(g, fd, rtol=1e-7, atol=1e-8)


def test_periodic_flat_data_gradients_are_finite():
    """Finite gradients w.r.t. queries, knots, values and the period, of d/dx (its
    pieces hold every coefficient), for Akima on periodic data with a flat run and
    a straight run (zero secants; at knot 2 both weights vanish and the fallback
    slope is taken), queries on knots, the period traced (both closings in the
    program)."""
    xp = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5, 5.0])
    fp = np.array([0.0, 0.0, 0.0, 0.9, 1.7, 3.0, 0.5])  # secants 0, 0, 1, 1, 1, −5, −0.5
    x = np.array([0.0, 0.35, 1.5, 2.0, 4.9, 5.8])

    def loss(x, xp, fp, period):
        return jnp.sum(interp1d(x, xp, fp, "akima", period=period, derivative=1) ** 2)

    grads = jax.jit(jax.grad(loss, argnums=(0, 1, 2, 3)))(x, xp, fp, 6.0)
    for name, g in zip(("x", "xp", "fp", "period"), grads):
        assert np.all(np.isfinite(g)), (name, g)
