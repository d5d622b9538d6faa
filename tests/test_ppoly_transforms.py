"""The scipy-compatible classes (`PPoly`, `CubicSpline`, `CubicHermiteSpline`,
`PchipInterpolator`, `Akima1DInterpolator`) under `jit`, `vmap` and `grad`.

What holds here:

1. gradients (`check_grads`, f64) with respect to every data argument —
   knots, values, slopes, end values, queries, coefficients, breakpoints,
   integration bounds — through evaluation, `derivative`, `antiderivative`,
   `integrate` and the ``c`` attribute;
2. `jit`: built inside a jitted function, or passed into one (an instance is
   a pytree), the same values as eager; new data values, and the type of a
   scalar (boundary value, integration bound), compile nothing new; jitted roots
   (a static ``size``) and their tangents for new values: one program;
3. `vmap`: over values, over knot grids, and of the methods, as a loop; over a
   batch of splines built under `vmap`, roots included;
4. the lowered programs (CPU and CUDA, forward and gradient) have no host
   callback, no conditional and no loop outside the tridiagonal solve kernels;
5. bad traced breakpoints give NaN values *and* NaN gradients, and NaN roots; a
   traced non-finite knot poisons the gradients w.r.t. values and slopes too
   (docs/architecture.md §5);
6. the equinox structure: two array leaves, the static fields in the treedef.

Finite differences are valid only where everything is smooth, so queries and
integration bounds stay ≥ 0.3 from every break (derivatives jump there), also
after periodic wrapping.

Orders of the gradient checks: XLA:CPU compiles at roughly 1 ms per HLO
instruction on our 2-core machines, and `check_grads(order=2, modes=("fwd",
"rev"))` compiles about twelve programs per checked function (measured: 8 s
for `PPoly` evaluation alone, 15 s for one `CubicSpline`, 30-45 s for the
calculus methods).  So by default every function is checked in reverse mode
to order 1 (the dot-product test of the VJP against finite differences: the
JVP rules and their transposes), `PPoly` evaluation also in forward mode to
order 2, and the natural and clamped ends in forward mode.  The fits' own
rules are checked to order 2 in `test_grad.py` and `test_tridiagonal.py`;
the classes add plain `jnp` code around them.  ``SPLINES_FULL_GRADS=1`` runs
every check to order 2 in both modes (a few minutes).
"""

import os

import _unit_splines as unit
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compare import close, padded
from _compiles import compiles
from _lowered import custom_calls, loops_outside_kernels
from jax.test_util import check_grads

from splines import (
    Akima1DInterpolator,
    CubicHermiteSpline,
    CubicSpline,
    PchipInterpolator,
    PPoly,
)
from splines._interpolate import fit as _interpolator
from splines._scipy import ppoly as _ppoly

X = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])  # uneven, well separated
Y = np.sin(X) + 0.3 * X
DYDX = np.cos(X) + 0.3
Q = np.array([0.3, 1.1, 2.0, 3.9])  # inside, ≥ 0.3 from every knot
Q_OUT = np.array([-0.6, 1.1, 2.0, 5.2])  # two outside, extrapolated
C = np.random.default_rng(0).normal(size=(4, 5))  # a (discontinuous) cubic PPoly on X
X_DESC = X[::-1].copy()
C_DESC = np.random.default_rng(1).normal(size=(4, 5))
A, B = -0.6, 5.2  # integration bounds outside the breaks
FAR = (-7.3, 5.8)  # periodic bounds A - 7.3, B + 5.8 wrap (period 4.5) to 1.1, 2.0

_FULL = os.environ.get("SPLINES_FULL_GRADS") == "1"
TOL = dict(eps=1e-6, atol=1e-6, rtol=1e-6)  # central differences: error ~1e-10
FULL = dict(order=2, modes=("fwd", "rev"), **TOL)
FWD1 = FULL if _FULL else dict(order=1, modes=("fwd",), **TOL)
FWD2 = FULL if _FULL else dict(order=2, modes=("fwd",), **TOL)
REV1 = FULL if _FULL else dict(order=1, modes=("rev",), **TOL)


def _closed(y):
    """Values with the last one set to the first: periodic data, structurally."""
    return jnp.concatenate([y[:-1], y[:1]])


# ------------------------------------------------------------- gradients --
# The checked functions are module-level, so the NaN tests below reuse their
# compiled derivative programs.


@jax.jit
def _ppoly_everything_differentiable(c, x, c_desc, q, a, b):
    p = PPoly(c, x)
    periodic = PPoly(c, x, extrapolate="periodic")
    return jnp.concatenate([
        p(q, (0, 1, 2)).ravel(),
        PPoly(c_desc, X_DESC)(q, (0, 1, 2)).ravel(),  # descending; x concrete (see the NaN test)
        p.derivative(1)(q),
        p.antiderivative(2)(q),
        jnp.stack([p.integrate(a, b), periodic.integrate(a + FAR[0], b + FAR[1])]),
    ])  # fmt: skip


PPOLY_ARGS = (C, X, C_DESC, Q_OUT, A, B)


def test_ppoly_gradients():
    # w.r.t. c, x, q and the bounds: values and derivatives nu = 0, 1, 2 (one
    # search) inside and outside, both directions; `derivative`,
    # `antiderivative(2)`; integrals outside the breaks (extended ends) and
    # several periods apart.
    check_grads(_ppoly_everything_differentiable, PPOLY_ARGS, **REV1)


def _ppoly_values(c, x, q):
    return PPoly(c, x)(q, (0, 1, 2))


def test_ppoly_second_order_forward_gradients():
    check_grads(_ppoly_values, (C, X, Q_OUT), **FWD2)


def test_derivative_wrt_descending_breakpoints_is_nan_not_wrong():
    """Documented limit: differentiating traces x, and a traced x must ascend (its
    direction would choose the program), so d/dx of descending breakpoints is NaN —
    never a plausible number.  Derivatives w.r.t. c and q are fine (x concrete)."""
    t = np.random.default_rng(2).normal(size=X_DESC.shape)
    zeros = (np.zeros_like(C_DESC), np.zeros_like(Q_OUT))
    _, jvp = jax.jvp(_ppoly_values, (C_DESC, X_DESC, Q_OUT), (zeros[0], t, zeros[1]))
    assert bool(jnp.all(jnp.isnan(jvp)))
    grad = jax.grad(lambda c: jnp.sum(_ppoly_values(c, X_DESC, Q_OUT)))(C_DESC)
    assert bool(jnp.all(jnp.isfinite(grad)))


@jax.jit
def _cubic_splines(x, y, q, v0, v1):
    s = CubicSpline(x, y)  # not-a-knot
    return jnp.concatenate([
        s(q),
        s.c.ravel(),
        CubicSpline(x, y, bc_type=((1, v0), (2, v1)))(q),
        # "periodic" closes the values inside: perturbations keep y[0] == y[-1].
        CubicSpline(x, _closed(y), bc_type="periodic")(q),
    ])  # fmt: skip


def test_cubic_spline_gradients():
    # Knots, values, queries, the traced end values of both kinds, and the
    # ``c`` attribute; not-a-knot, derivative ends, periodic.
    check_grads(_cubic_splines, (X, Y, Q, 0.5, -1.0), **REV1)


def test_natural_and_clamped_gradients():
    def f(x, y, q):
        return jnp.concatenate([
            CubicSpline(x, y, bc_type="natural")(q),
            CubicSpline(x, y, bc_type="clamped")(q),
        ])  # fmt: skip

    check_grads(jax.jit(f), (X, Y, Q), **FWD1)


def test_local_cubics_gradients():
    def f(x, y, dydx, q):
        return jnp.concatenate([
            CubicHermiteSpline(x, y, dydx)(q),
            PchipInterpolator(x, y)(q),
            Akima1DInterpolator(x, y)(q),
            Akima1DInterpolator(x, y, method="makima")(q),
        ])  # fmt: skip

    check_grads(jax.jit(f), (X, Y, DYDX, Q), **REV1)


# ------------------------------------------------------------------- jit --


def _coefficients(y):
    """A cubic's scipy coefficients (4, len(y) - 1), smooth in ``y``."""
    return jnp.stack([y[1:], -y[:-1], y[1:] * y[:-1], jnp.cos(y[1:])])


BUILDERS = {
    "CubicSpline": lambda x, y: CubicSpline(x, y),
    "CubicSpline bc values": lambda x, y: CubicSpline(x, y, bc_type=((1, y[1]), (2, -1.0))),
    "CubicSpline periodic": lambda x, y: CubicSpline(x, _closed(y), bc_type="periodic"),
    "CubicHermiteSpline": lambda x, y: CubicHermiteSpline(x, y, jnp.cos(x)),
    "PchipInterpolator": lambda x, y: PchipInterpolator(x, y),
    "Akima1DInterpolator": lambda x, y: Akima1DInterpolator(x, y),
    "makima": lambda x, y: Akima1DInterpolator(x, y, method="makima", extrapolate=True),
    "PPoly": lambda x, y: PPoly(_coefficients(y), x),
}


def _outputs(s):
    """Values and derivatives: inside, outside and on the breaks."""
    return (s(jnp.concatenate([Q_OUT, jnp.asarray(X)]), (0, 1, 2)),)


# One program per class, built and evaluated: shared by the jit and NaN tests.
JITTED = {
    name: jax.jit(lambda x, y, build=build: _outputs(build(x, y)))
    for name, build in BUILDERS.items()
}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_built_inside_jit_equals_eager(name):
    eager = _outputs(BUILDERS[name](X, Y))
    for got, want in zip(JITTED[name](X, Y), eager):
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-14)


def test_concrete_descending_breakpoints_inside_jit_stay_descending():
    eager = _outputs(PPoly(C_DESC, X_DESC))
    jitted = jax.jit(lambda c: _outputs(PPoly(c, X_DESC)))(C_DESC)  # x closed over: concrete
    for got, want in zip(jitted, eager):
        np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-14)


def test_instances_are_pytree_arguments_of_jit():
    instances = (CubicSpline(X, Y), PPoly(C_DESC, X_DESC), Akima1DInterpolator(X, Y))

    @jax.jit
    def methods(instances, q, a, b):
        return [(s(q, (0, 1)), s.integrate(a, b)) for s in instances]

    for s, (values, integral) in zip(instances, methods(instances, Q_OUT, A, B)):
        np.testing.assert_allclose(values, s(Q_OUT, (0, 1)), rtol=1e-14, atol=1e-14)
        np.testing.assert_allclose(integral, s.integrate(A, B), rtol=1e-14, atol=1e-14)


def test_new_queries_and_values_do_not_recompile():
    @jax.jit
    def spline_at(y, q, v0):
        return CubicSpline(X, y, bc_type=((1, v0), "not-a-knot"))(q)

    q = np.linspace(-1.0, 5.0, 11)  # a shape of this test's own
    # np.float64, a 0-d numpy array and an f64 jax array are one abstract value.
    # (A Python float, or `jnp.array(3.0)`, is weakly typed: JAX itself compiles
    # that separately; eagerly the classes do not, see the next test.)
    calls = [(Y, q, np.float64(0.5)), (2 * Y, q + 0.1, np.array(-1.0)),
             (Y**2, -q, jnp.array(3.0, jnp.float64))]  # fmt: skip
    with compiles(spline_at) as counter:
        for y, queries, v0 in calls:
            np.testing.assert_allclose(
                spline_at(y, queries, v0),
                CubicSpline(X, y, bc_type=((1, v0), "not-a-knot"))(queries),
                rtol=1e-13,
                atol=1e-13,
            )
    assert counter.count == 1

    @jax.jit
    def evaluate_instance(s, q):
        return s(q)

    with compiles(evaluate_instance) as counter:
        for y, queries, _ in calls:
            s = PchipInterpolator(X, y)
            np.testing.assert_allclose(evaluate_instance(s, queries), s(queries), rtol=1e-14)
    assert counter.count == 1


def _scalar_variants(v):
    """One number as every scalar type a user may pass (all exact in f32)."""
    return [float(v), int(v), np.float32(v), np.float64(v), np.array(v), jnp.array(float(v)),
            jnp.array(v, jnp.float32)]  # fmt: skip


def test_type_of_boundary_values_and_bounds_does_not_recompile():
    """Eagerly, each class converts scalars to one array type before its jitted
    fit or integral: any scalar type runs one program.  (Counted on the
    library's own jitted functions, with a knot count of this test's own: 0
    compilations if another test compiled that very program first.)"""
    x = np.arange(11.0)
    y = np.cos(x)
    with compiles(_interpolator.jit_fit) as fits, compiles(_ppoly._integrate) as integrals:
        splines_ = [CubicSpline(x, y, bc_type=((1, v), (2, 1))) for v in _scalar_variants(2.0)]
        ints = [splines_[0].integrate(a, b)
                for a, b in zip(_scalar_variants(1.0), _scalar_variants(3.0)[::-1])]  # fmt: skip
    assert fits.count <= 1 and integrals.count <= 1
    for s in splines_:
        np.testing.assert_array_equal(s.coefficients, splines_[0].coefficients)
    np.testing.assert_array_equal(ints, ints[0])


def test_jitted_roots_and_their_derivatives_for_new_values():
    """One program for any y; roots as scipy's, NaN-padded; d(roots)/dy along a random
    direction as scipy's finite differences."""

    @jax.jit
    def roots_and_tangents(y, dy):
        return jax.jvp(lambda y: CubicSpline(unit.X, y).roots(size=8), (y,), (dy,))

    rng = np.random.default_rng(6)
    eps = 1e-6
    for _ in range(3):
        y, dy = rng.normal(size=6), rng.normal(size=6)
        roots, tangents = roots_and_tangents(y, dy)
        ref = si.CubicSpline(unit.X, y).roots()
        close(roots, padded(ref, 8), 1e-9)
        fd = (
            si.CubicSpline(unit.X, y + eps * dy).roots()
            - si.CubicSpline(unit.X, y - eps * dy).roots()
        )
        np.testing.assert_allclose(tangents[: len(ref)], fd / (2 * eps), rtol=1e-5, atol=1e-7)
    assert roots_and_tangents._cache_size() == 1


# ------------------------------------------------------------------ vmap --

YS = np.stack([Y, np.cos(X), X**2 / 4])
QS = np.stack([Q, Q[::-1], Q_OUT])
XS = np.stack([X, 2 * X, X - 1.0])  # three knot grids
AS, BS = np.array([-0.6, 0.3, 1.1]), np.array([5.2, 2.0, 3.9])


def test_vmap_over_values_gives_a_batched_module():
    batch = jax.vmap(lambda y: CubicSpline(X, y))(YS)
    assert isinstance(batch, CubicSpline)
    assert batch.breaks.shape == (3, 6) and batch.coefficients.shape == (3, 5, 1, 4)
    static = (batch.extrapolate, batch.axis, batch.column_shape, batch.descending)
    assert static == (True, 0, (), False)
    got = jax.vmap(lambda s, q: (s(q, 1), s.integrate(q[0], q[-1])))(batch, QS)
    for i in range(3):
        s = CubicSpline(X, YS[i])
        want = (s(QS[i], 1), s.integrate(QS[i, 0], QS[i, -1]))
        for g, w in zip(got, want):
            np.testing.assert_allclose(g[i], w, rtol=1e-13, atol=1e-13)


def test_vmap_over_knot_grids_matches_a_loop():
    def f(x, y, q, a, b):
        s = CubicSpline(x, y, bc_type=((1, y[0]), "natural"))
        return s(q, (0, 1)), s.integrate(a, b)

    got = jax.vmap(f)(XS, YS, QS, AS, BS)
    for i in range(3):
        for g, w in zip(got, f(XS[i], YS[i], QS[i], AS[i], BS[i])):
            np.testing.assert_allclose(g[i], w, rtol=1e-13, atol=1e-13)


def test_vmap_of_ppoly_methods_matches_a_loop():
    cs = np.stack([C, 2 * C, C[::-1]])

    def f(c, x, q, a, b):
        p = PPoly(c, x, extrapolate="periodic")
        return p.derivative(2)(q), p.antiderivative()(q), p.integrate(a - 9.0, b)

    got = jax.vmap(f)(cs, XS, QS, AS, BS)
    for i in range(3):
        for g, w in zip(got, f(cs[i], XS[i], QS[i], AS[i], BS[i])):
            np.testing.assert_allclose(g[i], w, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("name", ["Akima1DInterpolator"])
def test_vmap_over_a_batch_of_splines_and_their_methods(name):
    ours_cls, ref_cls = unit.CLASSES[name]
    rng = np.random.default_rng(5)
    ys = rng.normal(size=(4, 7))
    xs = np.sort(rng.uniform(0, 2, size=(4, 7)), axis=1)
    xs[:, 0], xs[:, -1] = 0.0, 2.0
    refs = [ref_cls(xs[i], ys[i]) for i in range(4)]
    batch = jax.vmap(ours_cls)(xs, ys)

    def methods(s):
        return s(np.array([0.3, 1.7])), s.c, s.x, s.integrate(0.1, 1.9), s.roots(size=12)

    got = jax.vmap(methods)(batch)
    expected = [[r(np.array([0.3, 1.7])), r.c, r.x, r.integrate(0.1, 1.9), padded(r.roots(), 12)]
                for r in refs]  # fmt: skip
    for i, ours in enumerate(got):
        close(ours, np.stack([e[i] for e in expected]), 1e-10)
    with pytest.raises(TypeError, match="static `size=`"):
        jax.vmap(lambda s: s.roots())(batch)


# -------------------------------------------------------------- lowering --
# 64 knots: enough that the CPU solve's scan stays a loop (inside its kernel).

XL = np.linspace(0.0, 2.0, 64) ** 1.5
YL = np.sin(3 * XL)
CL = np.stack([YL[1:], -YL[:-1], YL[1:] * YL[:-1], np.cos(YL[1:])])  # `_coefficients`
XL_Q = XL[:-1] + 0.01
XL_DESC = XL[::-1].copy()


def _loss(f):
    """A scalar loss of ``f``'s output, for `jax.grad`."""
    return lambda *args: jnp.sum(f(*args) ** 2)


PROGRAMS = {
    "PPoly()": (lambda c, x, q: PPoly(c, x)(q, (0, 1, 2)), (CL, XL, XL_Q)),
    # An instance argument, as shapes (nothing compiled at import).
    "instance()": (lambda s, q: s(q), (jax.eval_shape(CubicSpline, XL, YL), XL_Q)),
    "derivative": (lambda c, x, q: PPoly(c, x).derivative()(q), (CL, XL, XL_Q)),
    "antiderivative": (lambda c, x, q: PPoly(c, x).antiderivative(2)(q), (CL, XL, XL_Q)),
    "integrate": (lambda c, x, a, b: PPoly(c, x).integrate(a, b), (CL, XL, A, B)),
    "integrate, no extrapolation": (
        lambda c, x, a, b: PPoly(c, x, extrapolate=False).integrate(a, b), (CL, XL, A, B)),
    "integrate, periodic": (
        lambda c, x, a, b: PPoly(c, x, extrapolate="periodic").integrate(a, b), (CL, XL, A, B)),
    ".c": (lambda y: CubicSpline(XL, y).c, (YL,)),
    **{f"build {name}": (build, (XL, YL)) for name, build in BUILDERS.items()},
    "build PPoly, descending": (lambda c: PPoly(c, XL_DESC), (CL,)),
    "grad PPoly()": (
        jax.grad(_loss(lambda c, x, q: PPoly(c, x)(q, (0, 1))), argnums=(0, 1, 2)),
        (CL, XL, XL_Q)),
    "grad integrate, periodic": (
        jax.grad(_loss(lambda c, x, a, b: PPoly(c, x, extrapolate="periodic").integrate(a, b)),
                 argnums=(0, 1, 2, 3)),
        (CL, XL, A, B)),
    "grad CubicSpline": (
        jax.grad(_loss(lambda x, y, q, v: CubicSpline(x, y, bc_type=((1, v), (2, v)))(q)),
                 argnums=(0, 1, 2, 3)),
        (XL, YL, XL_Q, 0.5)),
    "grad CubicSpline periodic": (
        jax.grad(_loss(lambda x, y: CubicSpline(x, _closed(y), bc_type="periodic")(XL_Q)),
                 argnums=(0, 1)),
        (XL, YL)),
    "grad local cubics": (
        jax.grad(_loss(lambda x, y, q: jnp.stack([
            CubicHermiteSpline(x, y, y)(q), PchipInterpolator(x, y)(q),
            Akima1DInterpolator(x, y)(q), Akima1DInterpolator(x, y, method="makima")(q)])),
            argnums=(0, 1, 2)),
        (XL, YL, XL_Q)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_lowered_programs_have_no_callback_conditional_or_stray_loop(name):
    fun, args = PROGRAMS[name]
    traced = jax.jit(fun).trace(*args)
    for platform in ("cpu", "cuda"):
        text = traced.lower(lowering_platforms=(platform,)).as_text()
        assert not [t for t in custom_calls(text) if "callback" in t], platform
        assert "stablehlo.case" not in text and "stablehlo.if" not in text, platform
        assert loops_outside_kernels(text) == [], platform


def test_the_loop_check_sees_the_cpu_solve_loop():
    """The check above is not vacuous: a CPU fit has `while` loops, all in its kernel."""
    text = jax.jit(BUILDERS["CubicSpline"]).trace(XL, YL).lower().as_text()
    assert "stablehlo.while" in text
    assert loops_outside_kernels(text) == []


# ------------------------------------------------------- bad traced data --

BAD_BREAKS = {
    "swapped": np.array([0.0, 1.5, 0.7, 2.4, 3.2, 4.5]),
    "repeated": np.array([0.0, 0.7, 0.7, 2.4, 3.2, 4.5]),
    "descending": X_DESC,
    "infinite": np.array([0.0, 0.7, 1.5, 2.4, 3.2, np.inf]),
    "nan": np.array([0.0, 0.7, np.nan, 2.4, 3.2, 4.5]),
}


@jax.jit
def _ppoly_everything(c, x):
    p = PPoly(c, x)
    return [
        p(Q_OUT, (0, 1, 2)), p(Q, extrapolate="periodic"), p.derivative()(Q),
        p.antiderivative(2)(Q), p.integrate(A, B), p.integrate(0.3, 3.9, extrapolate=False),
        p.integrate(A + FAR[0], B + FAR[1], extrapolate="periodic"), p.c, p.x,
    ]  # fmt: skip


@pytest.mark.parametrize("bad", list(BAD_BREAKS))
def test_traced_bad_breakpoints_make_every_ppoly_output_and_gradient_nan(bad):
    """Traced breakpoints are taken as ascending (nothing can look at them), so
    traced *descending* ones are bad data too: NaN, never a plausible number.
    (Concrete descending breakpoints work, also inside `jit`: see above.)"""
    for out in _ppoly_everything(C, BAD_BREAKS[bad]):
        assert np.isnan(out).all()
    for out in _ppoly_everything(C, X):  # the same program on good breakpoints
        assert np.isfinite(out).all()
    args = (C, BAD_BREAKS[bad]) + PPOLY_ARGS[2:]
    out, vjp = jax.vjp(_ppoly_everything_differentiable, *args)
    c, x, _, q, a, b = vjp(jnp.ones_like(out))  # the descending part has good breakpoints
    for grad in (c, x, q, a, b):
        assert np.isnan(grad).all()


@pytest.mark.parametrize("name", [n for n in BUILDERS if n != "PPoly"])
def test_traced_bad_knots_make_every_class_nan(name):
    for bad in BAD_BREAKS:
        for out in JITTED[name](BAD_BREAKS[bad], Y):
            assert np.isnan(out).all(), bad


@pytest.mark.parametrize("bad", ["swapped", "repeated", "descending"])
def test_traced_non_increasing_knots_make_cubic_spline_gradients_nan(bad):
    out, vjp = jax.vjp(_cubic_splines, BAD_BREAKS[bad], Y, Q, 0.5, -1.0)
    assert np.isnan(out).all()
    for grad in vjp(jnp.ones_like(out)):
        assert np.isnan(grad).all()


def test_traced_non_finite_knots_give_nan_values_and_gradients():
    """A NaN or inf traced knot: NaN value and NaN gradients w.r.t. the knots, the
    values and the slopes."""

    @jax.jit
    def values_and_gradients(x, y, dydx):
        def value(x, y, dydx):
            return CubicHermiteSpline(x, y, dydx)(0.5)

        return value(x, y, dydx), jax.grad(value, argnums=(0, 1, 2))(x, y, dydx)

    for x in unit.BAD_X.values():
        value, grads = values_and_gradients(x, unit.Y, unit.DYDX)
        assert np.isnan(value) and all(np.all(np.isnan(np.asarray(g))) for g in grads)


def test_traced_bad_breakpoints_make_roots_nan():
    """Swapped, repeated, descending or NaN traced breakpoints make every root slot NaN;
    the same program finds the roots of good ones."""
    c = np.random.default_rng(0).normal(size=(4, 3))
    roots = jax.jit(lambda x: PPoly(c, x).roots(size=4))
    for x in (
        [0.0, 2.0, 1.0, 3.0],
        [0.0, 1.0, 1.0, 3.0],
        [3.0, 2.0, 1.0, 0.0],
        [0.0, np.nan, 2.0, 3.0],
    ):
        assert np.all(np.isnan(roots(np.array(x))))
    assert np.isfinite(roots(np.array([0.0, 1.0, 2.0, 3.0]))[0])


# -------------------------------------------------------------- equinox --

INSTANCES = {  # built when a test asks (nothing compiled at import)
    "PPoly": lambda: PPoly(C, X),
    "PPoly, descending": lambda: PPoly(C_DESC, X_DESC),
    "CubicSpline": lambda: CubicSpline(X, Y),
    "CubicHermiteSpline": lambda: CubicHermiteSpline(X, Y, DYDX),
    "PchipInterpolator": lambda: PchipInterpolator(X, Y),
    "Akima1DInterpolator": lambda: Akima1DInterpolator(X, Y),
}


@pytest.mark.parametrize("name", list(INSTANCES))
def test_leaves_are_the_breaks_coefficients_and_end_values(name):
    s = INSTANCES[name]()
    leaves = jax.tree_util.tree_leaves(s)
    assert len(leaves) == 3
    assert leaves[0] is s.breaks and leaves[1] is s.coefficients and leaves[2] is s.end


def test_filter_jit_evaluates_and_builds():
    s = INSTANCES["PPoly, descending"]()
    np.testing.assert_allclose(eqx.filter_jit(lambda s, q: s(q, 1))(s, Q_OUT), s(Q_OUT, 1),
                               rtol=1e-14, atol=1e-14)  # fmt: skip
    built = eqx.filter_jit(lambda c, x: PPoly(c, x, extrapolate=False))(C, X)
    assert isinstance(built, PPoly) and built.extrapolate is False
    np.testing.assert_allclose(built(Q_OUT), PPoly(C, X, extrapolate=False)(Q_OUT),
                               rtol=1e-14, atol=1e-14)  # fmt: skip


STATIC = ("extrapolate", "axis", "column_shape", "descending")


def test_static_fields_are_in_the_treedef():
    c3 = np.stack([C, -C], axis=-1)  # two polynomials
    variants = [
        PPoly(C, X),
        PPoly(C, X, extrapolate=False),  # extrapolate
        PPoly(C, X, extrapolate="periodic"),
        PPoly(np.moveaxis(c3, -1, 0), X, axis=1),  # axis (the same column_shape)
        PPoly(c3, X),  # column_shape (2,)
        PPoly(c3[..., None, :], X),  # column_shape (1, 2): the same leaf shapes
        PPoly(C, X_DESC),  # descending
    ]
    treedefs = [jax.tree_util.tree_structure(v) for v in variants]
    assert len(set(treedefs)) == len(variants)
    for v, treedef in zip(variants, treedefs):
        back = jax.tree_util.tree_unflatten(treedef, jax.tree_util.tree_leaves(v))
        assert [getattr(back, f) for f in STATIC] == [getattr(v, f) for f in STATIC]
