"""Transform safety of the grid interpolants: `interp2d`, `interp3d`, `Interpolator2D`.

The 1-D suites (test_lowering, test_jit, test_grad, test_vmap,
test_constants_in_transforms) for the tensor-product code:

1. Lowered for CUDA (no GPU needed): no host callbacks, no ``case``/``if``,
   and loops and custom calls only inside the tridiagonal solve kernels.
2. One compile per shape: `_interp_grid` (the jitted core of interp2d) runs
   one program whatever the Python/numpy/jax *type* of ``period``, ``c`` and
   the fills, and for new values of the same shapes (new fills and periods
   too); a fitted `Interpolator2D` evaluates new queries without compiling.
3. Gradients (`jax.test_util` on jitted functions) w.r.t. every
   differentiable argument; queries stay ≥ 0.25 from every knot along every
   axis, so that finite differences (steps ~1e-4) never cross a piece boundary;
   d/dperiod through a traced periodic closing against a central difference.
4. `jax.vmap` over values, grids, queries, periods, and of the `Interpolator2D`
   constructor and then its call, equal to per-item calls.
5. numpy knots and values closed over inside jit / vmap / grad give the
   eager answer (scipy's tensor-product CubicSpline).
6. `Interpolator2D` is a pytree: `eqx.filter_jit` and `eqx.filter_grad`.

Traced invalid data (→ NaN outputs and NaN gradients) are tested in
test_invalid_grid_data.py with the other data checks, as test_invalid_data.py does in 1-D.

Runtime (the file's budget is 30 s on 2 cores).  XLA:CPU compiles a cubic2
grid fit in 1-2 s and every differentiated program holds the fit:
`check_grads` of the whole cubic2 fit costs ~7 s at order 1 in both modes
(4 programs) and 40-90 s at order 2 (~13 programs, measured).  So:

- order 2 (forward over forward) for the representative cubic2 interpolant's
  *evaluation*: queries and node data of a fitted `Interpolator2D` (the
  fit is linear in fp; its solve's second-order rules are test_tridiagonal's);
- order 1 in reverse mode for the whole cubic2 fit w.r.t. queries, knots and
  values: reverse mode linearizes with every JVP rule (the solve's included)
  and then transposes, so it checks both rule sets;
- order 1 in forward mode for given derivatives, a traced period, the tension,
  akima and monotonic, each differentiated in its own arguments only: plain
  jnp code, whose reverse mode jax derives by transposing the same
  linearization (`check_jvp` on one compiled program, see `check_forward`).

All tests share one grid shape (6 × 5 knots, 4 queries), so that references
reuse compiled programs.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.interpolate as si
from _compiles import compiles
from _lowered import custom_calls, functions, kernel_functions, loops_outside_kernels, lowered_text
from _random_grids import F2, K2, RNG
from jax.test_util import check_grads, check_jvp

import splines
from splines import Interpolator2D, interp2d, interp3d
from splines._interpolate.evaluate import jit_evaluate as _evaluate
from splines._interpolate.functions import _interpolate as _interp_grid

XP = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])  # uneven, 6 knots
YP = np.array([0.0, 0.5, 1.3, 2.0, 2.9])  # uneven, 5 knots
# Generic values: along every grid line no secant is within 0.03 of zero and no
# two neighbouring secants are within 0.04 of each other, so the finite
# differences' steps (~1e-4) stay on one branch of akima's and monotonic's rules.
FP = np.random.default_rng(7).normal(size=(6, 5))
X = np.array([0.3, 1.1, 2.0, 3.9])  # ≥ 0.3 from every x knot
Y = np.array([0.25, 0.9, 1.65, 2.45])  # ≥ 0.25 from every y knot
PERIOD = 5.5  # along x: the knots span 4.5, so the period is not closed by them
X_WRAP = np.array([0.3, 5.1, 6.6, -2.0])  # wrap to 0.3, 5.1, 1.1, 3.5: ≥ 0.3 from knots and 5.5
C = 0.3  # cardinal's tension


def tensor_cubic(x, y, xp, yp, fp, bc=("not-a-knot", "not-a-knot"), nu=(0, 0)):
    """scipy's CubicSpline along x at each point, then along y: the tensor-product reference."""
    along_x = si.CubicSpline(xp, fp, axis=0, bc_type=bc[0])(x, nu[0])  # (m, ny)
    y = np.broadcast_to(y, np.shape(x))
    return np.array([si.CubicSpline(yp, row, bc_type=bc[1])(q, nu[1])
                     for row, q in zip(along_x, y)])  # fmt: skip


# ------------------------------------------------------------------------------------ lowering

CUBIC2 = lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "cubic2")  # noqa: E731
ITP = Interpolator2D(
    XP, YP, FP, "cubic2"
)  # its fit (cubic2, these shapes) is shared by several tests
ZP = np.array([0.0, 0.6, 1.4, 2.0])
FP3 = np.random.default_rng(3).normal(size=(6, 5, 4))

LOWERED = {
    "cubic2 not-a-knot": (CUBIC2, (X, Y, XP, YP, FP)),
    "cubic2 traced period and knots": (
        lambda x, y, xp, yp, fp, p: interp2d(x, y, xp, yp, fp, "cubic2", period=(p, None)),
        (X_WRAP, Y, XP, YP, FP, np.float64(PERIOD))),
    "cubic2 bc_type periodic, traced": (
        lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "cubic2", bc_type="periodic"),
        (X, Y, XP, YP, FP)),
    "cubic2 given fx, fxy, natural/clamped, extrap": (
        lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "cubic2", fx=2 * fp, fxy=fp,
                                          bc_type=("natural", "clamped"),
                                          extrap=(True, (0.0, 1.0))),
        (X, Y, XP, YP, FP)),
    "cardinal traced c": (
        lambda x, y, xp, yp, fp, c: interp2d(x, y, xp, yp, fp, "cardinal", c=c),
        (X, Y, XP, YP, FP, np.float64(C))),
    "akima": (lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "akima"), (X, Y, XP, YP, FP)),
    "monotonic": (
        lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "monotonic"), (X, Y, XP, YP, FP)),
    "linear": (lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "linear"), (X, Y, XP, YP, FP)),
    "nearest": (
        lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "nearest"), (X, Y, XP, YP, FP)),
    "interp3d cubic2": (
        lambda x, y, z, xp, yp, zp, fp: interp3d(x, y, z, xp, yp, zp, fp, "cubic2"),
        (X, Y, Y, XP, YP, ZP, FP3)),
    "Interpolator2D call": (lambda itp, x, y: itp(x, y, derivative=((0, 0), (1, 2))), (ITP, X, Y)),
    "grad cubic2 w.r.t. knots, values, queries": (
        jax.grad(lambda *a: jnp.sum(CUBIC2(*a) ** 2), argnums=(0, 1, 2, 3, 4)),
        (X, Y, XP, YP, FP)),
    "vmap over grids": (
        jax.vmap(CUBIC2, in_axes=(None, None, 0, None, 0)),
        (X, Y, np.stack([XP, 0.9 * XP]), YP, np.stack([FP, -FP]))),
}  # fmt: skip
# No global solve: local slope rules, no slopes, or evaluation only.
NO_SOLVE = {"cardinal traced c", "akima", "monotonic", "linear", "nearest", "Interpolator2D call"}


@pytest.mark.parametrize("name", list(LOWERED))
def test_cuda_lowering_has_no_callbacks_conditionals_or_loops_outside_the_solve(name):
    fun, args = LOWERED[name]
    text = lowered_text(fun, *args, platform="cuda")
    funcs = functions(text)
    kernels = kernel_functions(funcs)
    assert "callback" not in text
    assert "stablehlo.case" not in text
    assert "stablehlo.if" not in text
    assert loops_outside_kernels(text) == []
    outside = {f: custom_calls(body) for f, body in funcs.items() if f not in kernels}
    assert all(not calls for calls in outside.values()), outside
    # Guard the guard: the programs with a global solve do reach a solve kernel
    # (so "outside the kernels" is not vacuously everything); the others have none.
    assert bool(kernels) == (name not in NO_SOLVE), sorted(kernels)


# ----------------------------------------------------------------------------------- recompile


def test_value_types_and_new_values_share_one_program():
    """period, c and the fills as Python floats, numpy scalars/arrays, jax arrays (f64 and
    f32: the values are exact in f32), and new knots, values and queries of the same
    shapes: one compiled `_interp_grid`.  Queries of length 9: no other test uses them."""
    x, y = np.linspace(-1.0, 6.0, 9), np.linspace(-0.5, 3.5, 9)
    types = {
        "python float": float,
        "np.float64": np.float64,
        "np.float32": np.float32,
        "np.array": lambda v: np.array(float(v)),
        "jnp.array": lambda v: jnp.array(float(v)),
        "jnp f32 array": lambda v: jnp.array(v, jnp.float32),
    }

    def call(t, xp=XP, yp=YP, fp=FP, x=x, y=y):
        return interp2d(x, y, xp, yp, fp, "cardinal", period=(t(PERIOD), None), c=t(0.25),
                        extrap=(False, (t(-1.0), t(2.0))))  # fmt: skip

    calls = {name: (lambda t=t: call(t)) for name, t in types.items()}
    calls |= {
        "new fp": lambda: call(float, fp=2 * FP + 1),
        "new knots": lambda: call(float, xp=XP + 0.25, yp=1.1 * YP),
        "new queries": lambda: call(float, x=x + 0.1, y=y[::-1]),
    }
    outs, compiled = {}, []
    with compiles(_interp_grid) as counter:
        for name, run in calls.items():
            before = counter.count
            outs[name] = np.asarray(run())
            if counter.count > before:
                compiled.append(name)
    assert len(compiled) <= 1, f"RECOMPILE defect: {compiled} compiled (of {list(calls)})"
    for name in types:  # the same numbers, so the same result, bit for bit
        np.testing.assert_array_equal(outs[name], outs["python float"], err_msg=name)
    # The fill reached the program as data: y outside [0, 2.9] takes (-1, 2).
    out = outs["python float"]
    assert np.all(out[y < 0] == -1.0) and np.all(out[y > 2.9] == 2.0)


def test_the_compile_counter_sees_grid_compiles():
    """Control: a new static option (the derivative orders) compiles `_interp_grid` again."""
    x = np.linspace(0.1, 4.4, 13)  # a length no other test uses
    calls = {d: (lambda d=d: interp2d(x, x / 2, XP, YP, FP, "linear", derivative=d))
             for d in [(0, 0), (1, 0)]}  # fmt: skip
    compiled = []
    with compiles(_interp_grid) as counter:
        for d, run in calls.items():
            before = counter.count
            run()
            compiled += [d] * (counter.count - before)
    assert compiled == [(0, 0), (1, 0)]


def test_grid_no_recompiles():
    xp, yp = K2
    with compiles(_interp_grid) as counter:
        for k in range(3):
            splines.interp2d(np.array([1.0 + k]), np.array([1.5]), xp, yp, F2 + k, "cubic2",
                             extrap=float(k))  # fmt: skip
        for p in (9.0, 10.0):
            splines.interp2d(
                np.array([1.0]), np.array([1.5]), xp, yp, F2, "cubic2", period=(p, None)
            )
    assert counter.count <= 2  # one for the fills, one for the periodic fit
    spline = splines.Interpolator2D(xp, yp, F2, "cubic2")
    spline(1.0, 2.0)
    with compiles(_evaluate) as counter:
        spline(1.5, 2.5)
        spline(jnp.asarray(1.2), 2.0)
    assert counter.count == 0


# ---------------------------------------------------------------------------------- check_grads
# Default f64 tolerances of check_grads (1e-5 relative) hold throughout: with
# eps = 1e-4 the central differences' truncation error is ~eps² × |f⁽³⁾| ≈ 1e-8
# on these smooth pieces, and rounding ~1e-16 / 1e-4 = 1e-12.

# The values and the (1, 1) mixed derivative: the check_grads tests' function (reverse mode in
# one, forward mode in the other) and, its values, the per-item reference of the vmap test:
# one primal program.
CUBIC2_MIXED = jax.jit(lambda x, y, xp, yp, fp: interp2d(x, y, xp, yp, fp, "cubic2",
                                                         derivative=((0, 0), (1, 1))))  # fmt: skip


def test_check_grads_order_2_evaluation_of_cubic2():
    """Order 2 (forward over forward): queries and node data of the representative fit.

    The values and the (1, 1) mixed derivative, so the cell's pieces built
    from its corners and the derivative rule of Horner's scheme along each
    axis are differentiated too.
    """

    @jax.jit
    def f(nodes, x, y):
        itp = eqx.tree_at(lambda i: i.spline.nodes, ITP, nodes)
        return itp(x, y, derivative=((0, 0), (1, 1)))

    check_grads(f, (ITP.spline.nodes, X, Y), order=2, modes=("fwd",))


def check_forward(f, args):
    """`check_jvp` (check_grads' forward mode, order 1) on one compiled program: its
    finite differences evaluate the primal output of the jitted JVP itself, so the
    function need not compile on its own."""
    jvp = jax.jit(lambda primals, tangents: jax.jvp(f, primals, tangents))
    zeros = tuple(np.zeros_like(a) for a in args)
    check_jvp(lambda *a: jvp(a, zeros)[0], jvp, args)


def test_check_grads_cubic2_fit_all_arguments():
    """Reverse mode, order 1: queries, both knot vectors and the values at once, of the
    values and the (1, 1) mixed derivative.

    Reverse mode linearizes (every JVP rule, the solve's included) and then
    transposes (the solve's transpose rule on the grid's lanes), so it checks
    both rule sets; forward mode on the same function and arguments:
    `test_grid_grads_wrt_values_knots_queries_and_period`.
    """
    check_grads(CUBIC2_MIXED, (X, Y, XP, YP, FP), order=1, modes=("rev",))


def _options(fx, fy, fxy, period, c, fp_local):
    """Each configuration depends on its own differentiated arguments only; knots and
    queries are numpy constants (XLA folds what depends on them alone)."""
    return jnp.concatenate([
        interp2d(X, Y, XP, YP, FP, "cubic2", fx=fx, fy=fy, fxy=fxy),  # the tensor cubic Hermite
        # A traced period: the periodic machinery (wrap, close both ways, split the last
        # piece) on the cheapest pieces; the periodic solve's rules are test_grad's.
        interp2d(X_WRAP, Y, XP, YP, FP, "linear", period=(period, None)),
        interp2d(X, Y, XP, YP, FP, "cardinal", c=c),
        interp2d(X, Y, XP, YP, fp_local, "akima"),
        interp2d(X, Y, XP, YP, fp_local, "monotonic"),
    ])  # fmt: skip


def test_check_grads_given_derivatives_period_tension_akima_monotonic():
    """Forward mode, order 1 (plain jnp code: jax's transposes give reverse mode)."""
    rng = np.random.default_rng(1)
    given = tuple(rng.normal(size=FP.shape) for _ in range(3))
    check_forward(_options, (*given, np.float64(PERIOD), np.float64(C), FP))


def test_grid_grads_wrt_values_knots_queries_and_period():
    """check_grads for cubic2 values and mixed derivatives w.r.t. queries, knots and values
    (forward mode, order 1; reverse mode on the same function and arguments:
    `test_check_grads_cubic2_fit_all_arguments`, order 2 w.r.t. the node data:
    `test_check_grads_order_2_evaluation_of_cubic2`); d/dperiod through a traced periodic
    closing."""
    check_grads(CUBIC2_MIXED, (X, Y, XP, YP, FP), order=1, modes=("fwd",))
    # d/dperiod through the traced closing against a central difference (open knots here).
    xp, yp = np.array([0.0, 0.7, 1.5, 2.4]), np.array([0.0, 0.6, 1.7])
    f = RNG.normal(size=(4, 3))
    q0, q1 = np.array([0.3, 1.1, 2.0]), np.array([0.2, 1.0, 1.5])

    def value(p):
        return jnp.sum(splines.interp2d(q0, q1, xp, yp, f, "cubic2", period=(p, None)))

    p, eps = 3.1, 1e-6
    # One program: the gradient at p and the values at p ± eps.
    grad, above, below = jax.jit(lambda *p: (jax.grad(value)(p[0]), value(p[1]), value(p[2])))(
        p, p + eps, p - eps)  # fmt: skip
    np.testing.assert_allclose(grad, (above - below) / (2 * eps), rtol=1e-6)


# --------------------------------------------------------------------------------------- vmap

B = 3
FPS = np.stack([FP, np.cos(FP), FP**2 - 1])  # (B, 6, 5): different values, same grid
XPS = XP * np.array([[1.0], [1.1], [0.9]])  # (B, 6): different x knots; X stays inside each
XS = np.stack([X, X[::-1], X + 0.2])  # (B, 4)
YS = np.stack([Y, Y[::-1], Y - 0.1])
STACKED = ((0, 0), (1, 0))  # the interpolators' call: values and d/dx


@jax.jit
def _batched(fps, xps, xs, ys):
    interpolators = jax.vmap(lambda fp: Interpolator2D(XP, YP, fp, "cubic2"))(fps)
    return {
        "values": jax.vmap(lambda fp: CUBIC2(X, Y, XP, YP, fp))(fps),
        "grids": jax.vmap(lambda xp: CUBIC2(X, Y, xp, YP, FP))(xps),
        "queries": jax.vmap(lambda x, y: CUBIC2(x, y, XP, YP, FP))(xs, ys),
        "Interpolator2D": jax.vmap(lambda itp, x, y: itp(x, y, STACKED))(interpolators, xs, ys),
    }, interpolators


def test_vmap_over_values_grids_queries_and_interpolators_equals_per_item_calls():
    out, interpolators = _batched(FPS, XPS, XS, YS)
    leaves = jax.tree_util.tree_leaves(interpolators)
    assert leaves and all(leaf.shape[0] == B for leaf in leaves)  # every array is batched
    per_item = {  # the jitted calls share one program (same shapes) with check_grads
        "values": [CUBIC2_MIXED(X, Y, XP, YP, FPS[b])[0] for b in range(B)],
        "grids": [CUBIC2_MIXED(X, Y, XPS[b], YP, FP)[0] for b in range(B)],
        "queries": [CUBIC2_MIXED(XS[b], YS[b], XP, YP, FP)[0] for b in range(B)],
        "Interpolator2D": [Interpolator2D(XP, YP, FPS[b], "cubic2")(XS[b], YS[b], STACKED)
                           for b in range(B)],
    }  # fmt: skip
    for name, items in per_item.items():
        # The same operations in batched lanes; XLA may fuse or order a few sums
        # differently: a few ulps of O(1) values (measured ≤ 3e-15), so 1e-13.
        np.testing.assert_allclose(out[name], np.stack(items), rtol=1e-13, atol=1e-13,
                                   err_msg=name)  # fmt: skip
        assert len({np.asarray(item).tobytes() for item in items}) == B, name  # all differ


def test_grid_vmap_over_grids_and_periods():
    """vmap over traced periods (open and closing) and over the values of the `Interpolator2D`
    constructor, equal to per-item calls with concrete periods.  One program: the batched
    calls take the periods, values and queries as arguments; the per-item references
    close over them (numpy constants, as in eager use: XLA folds what depends on them)."""
    xp, yp = K2[0][:4], K2[1][:4]
    fs = RNG.normal(size=(3, 4, 4))
    fs[2, -1] = fs[2, 0]
    q = [RNG.uniform(xp[0], xp[-1], 9), RNG.uniform(yp[0], yp[-1], 9)]
    periods = np.array([xp[-1] - xp[0] + 0.5, xp[-1] - xp[0] + 1.5, xp[-1] - xp[0]])

    @jax.jit
    def run(traced_periods, traced_fs, traced_q):
        batched = jax.vmap(lambda p, f: splines.interp2d(*traced_q, xp, yp, f, method="cubic2", period=(p, None)))(
            traced_periods, traced_fs)  # fmt: skip
        classes = jax.vmap(lambda f: splines.Interpolator2D(xp, yp, f, "akima")(*traced_q))(
            traced_fs)  # fmt: skip
        # Per item: the periods concrete (the last closes the period: its own fit).
        ones = [
            splines.interp2d(*q, xp, yp, fs[k], method="cubic2", period=(periods[k], None))
            for k in range(3)
        ]
        akima = [splines.interp2d(*q, xp, yp, fs[k], "akima") for k in range(3)]
        return batched, classes, ones, akima

    batched, classes, ones, akima = run(periods, fs, q)
    for k in range(3):
        np.testing.assert_allclose(batched[k], ones[k], rtol=0, atol=1e-13)
        np.testing.assert_allclose(classes[k], akima[k], rtol=0, atol=1e-14)


# ------------------------------------------------------------------- numpy constants in jit


Q = np.array([0.3, 1.1, 2.45, 0.9])  # the query (q, q): inside both axes' ranges
FP_CLOSED = FP.copy()  # periodic along both axes: last row and column = first
FP_CLOSED[-1], FP_CLOSED[:, -1] = FP_CLOSED[0], FP_CLOSED[:, 0]

CONSTANT_CONFIGS = {  # name → (function of the query, scipy reference of (q, nu))
    "Interpolator2D, bc_type periodic": (  # the ends must match: checked on numpy values
        lambda q: Interpolator2D(XP, YP, FP_CLOSED, "cubic2", bc_type="periodic")(q, q),
        lambda q, nu: tensor_cubic(q, q, XP, YP, FP_CLOSED, ("periodic",) * 2, nu)),
    "period, open knots": (  # whether the knots close the period: decided on numpy knots
        lambda q: interp2d(q, q, XP, YP, FP, "cubic2", period=(PERIOD, None)),
        lambda q, nu: tensor_cubic(q, q, np.append(XP, PERIOD), YP, np.vstack([FP, FP[:1]]),
                                   ("periodic", "not-a-knot"), nu)),
}  # fmt: skip


@jax.jit
def _with_constants(q):
    """jit of vmap of value_and_grad: the query is a batched JVP tracer inside a jit,
    while the numpy knots and values stay constants (one program per configuration
    would cost a compile each; one compile holds them all)."""
    return {name: jax.vmap(jax.value_and_grad(f))(q) for name, (f, _) in CONSTANT_CONFIGS.items()}


def test_numpy_constants_under_jit_vmap_grad():
    failures = []
    for name, (value, slope) in _with_constants(Q).items():
        ref = CONSTANT_CONFIGS[name][1]
        for what, got, want in [
            ("value", value, ref(Q, (0, 0))),
            ("d/dq = f_x + f_y", slope, ref(Q, (1, 0)) + ref(Q, (0, 1))),
        ]:
            # f64 sums of O(1) terms on O(1) knot spacings: measured ≲ 1e-14; 1e-12 margin.
            if not np.allclose(got, want, rtol=0, atol=1e-12 * max(1.0, np.max(np.abs(want)))):
                failures.append(f"{name}, {what}: {np.asarray(got)} != {want}")
    assert not failures, "\n".join(failures)


# ---------------------------------------------------------------------------------- pytree


def test_interpolator_through_filter_jit_and_filter_grad():
    call = eqx.filter_jit(lambda itp, x, y: itp(x, y))
    values = call(ITP, X, Y)
    # Against scipy, f64 sums of O(1) terms: 1e-12 (as above).
    np.testing.assert_allclose(values, tensor_cubic(X, Y, XP, YP, FP), rtol=0, atol=1e-12)
    other = Interpolator2D(
        XP, YP, 2 * FP, "cubic2"
    )  # new arrays, same structure (linear in fp: × 2)
    np.testing.assert_allclose(call(other, X, Y), 2 * values, rtol=1e-13, atol=1e-13)

    w = np.array([1.0, -2.0, 3.0, 0.5])
    grads = eqx.filter_jit(eqx.filter_grad(lambda itp: jnp.vdot(w, itp(X, Y))))(ITP)
    assert isinstance(grads, Interpolator2D)
    g = grads.spline
    # The loss is linear (degree 1) in the node data (each cell's coefficients
    # are linear in its corners'): Euler's identity <∂loss/∂D, D> = loss,
    # exact up to rounding of ~100 O(1) products.
    np.testing.assert_allclose(np.vdot(g.nodes, ITP.spline.nodes),
                               np.vdot(w, values), rtol=1e-12)  # fmt: skip
    # Every query is inside: the fills do not matter; the breaks do (the local
    # coordinates depend on them).
    np.testing.assert_array_equal(g.fill, 0.0)
    assert all(np.all(np.isfinite(b)) and np.any(b != 0) for b in g.breaks)
