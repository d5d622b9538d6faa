"""The lineax bridge (`splines._linalg.lineax`): lineax's tridiagonal operators on our primitive.

Three paths solve the same system:

    (a) lx.linear_solve(op, b, lx.Tridiagonal())   lineax's solver (LAPACK gtsv)
    (b) lx.linear_solve(op, b, Tridiagonal())           lineax's wrapper, our solve
    (c) tridiagonal_solve(op, b)                   our primitive alone

They must agree (values, derivatives, vmap), and their lowered programs are
inspected for host callbacks: lineax's wrapper checks every solve with
`eqx.error_if`, a conditional holding two callbacks; (c) has none.

lineax is optional: the tests that need it skip without it, the others (the
import of `splines` without lineax, `lineax_bands` of non-operators) still run.
"""

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _compare import close
from _lowered import functions, loops_outside_kernels, lowered_text, needs_cpu_backend
from _systems import dense
from jax.test_util import check_grads

import splines
from splines import cyclic_tridiagonal_solve, tridiagonal_solve
from splines._linalg.lineax import Tridiagonal
from splines._linalg.operators import lineax_bands

try:
    import lineax as lx
except ImportError:  # only the tests that need it skip: the others run without it
    lx = None
needs_lineax = pytest.mark.skipif(lx is None, reason="needs lineax")


def random_system(seed, n, dominant=True, batch=()):
    """(lower, diag, upper, rhs), f64; `dominant`: by rows, else normal entries."""
    rng = np.random.default_rng(seed)
    lower, upper = (rng.uniform(-1, 1, batch + (n - 1,)) for _ in range(2))
    rhs = rng.normal(size=batch + (n,))
    if dominant:
        diag = rng.choice([-1, 1], batch + (n,)) * rng.uniform(2.1, 4, batch + (n,))
    else:
        diag = rng.normal(size=batch + (n,))
        diag[..., 0] = 0.0  # a zero pivot for Thomas, fine with row interchanges
    return lower, diag, upper, rhs


def operator(lower, diag, upper):
    return lx.TridiagonalLinearOperator(diag, lower, upper)  # lineax's order


def solve_a(lower, diag, upper, rhs, throw=True):
    return lx.linear_solve(operator(lower, diag, upper), rhs, lx.Tridiagonal(), throw=throw).value


def solve_b(lower, diag, upper, rhs, throw=True, pivoting=True):
    solver = Tridiagonal(pivoting=pivoting)
    return lx.linear_solve(operator(lower, diag, upper), rhs, solver, throw=throw).value


def solve_c(lower, diag, upper, rhs, throw=None, pivoting=True):
    return tridiagonal_solve(operator(lower, diag, upper), rhs, pivoting=pivoting)


PATHS = {"a": solve_a, "b": solve_b, "c": solve_c}


def assert_close(x, y, a, factor=1e-13):
    """‖x − y‖ ≤ factor·cond(A)·‖y‖: both are backward-stable solves of A."""
    err = np.linalg.norm(np.asarray(x) - np.asarray(y))
    assert err <= factor * np.linalg.cond(a) * np.linalg.norm(y), err


# ------------------------------------------------------------ convention --


@needs_lineax
def test_lineax_convention_is_ours():
    lower, diag, upper, _ = random_system(0, 6)
    op = operator(lower, diag, upper)
    bands = lineax_bands(op)
    fields = (op.lower_diagonal, op.diagonal, op.upper_diagonal)
    assert all(band is field for band, field in zip(bands, fields))
    np.testing.assert_array_equal(op.as_matrix(), dense(lower, diag, upper))


def _tridiagonal_operators(lower, diag, upper):
    op = operator(lower, diag, upper)
    matrix = dense(lower, diag, upper)
    return {
        "tagged matrix": lx.MatrixLinearOperator(jnp.asarray(matrix), lx.tridiagonal_tag),
        "diagonal": lx.DiagonalLinearOperator(jnp.asarray(diag)),
        "transpose": op.T,
        "negated": -op,
        "scaled": 2.0 * op,
        "sum": op + operator(upper, diag, lower),
    }


OPERATOR_NAMES = list(_tridiagonal_operators(*random_system(1, 5)[:3])) if lx else []


@needs_lineax
@pytest.mark.parametrize("name", OPERATOR_NAMES)
def test_every_operator_lineax_calls_tridiagonal_is_read(name):
    lower, diag, upper, rhs = random_system(1, 5)
    op = _tridiagonal_operators(lower, diag, upper)[name]
    matrix = np.asarray(op.as_matrix())
    np.testing.assert_array_equal(dense(*lineax_bands(op)), matrix)
    expected = np.linalg.solve(matrix, rhs)
    assert_close(tridiagonal_solve(op, rhs), expected, matrix)
    assert_close(lx.linear_solve(op, rhs, Tridiagonal()).value, expected, matrix)


@pytest.mark.parametrize("value", [np.ones(3), jnp.ones(3), [1.0, 2.0], 2.0, None])
def test_anything_but_a_lineax_operator_is_not_one(value):
    assert lineax_bands(value) is None


@needs_lineax
def test_a_non_tridiagonal_operator_is_rejected_naming_it():
    full = lx.MatrixLinearOperator(jnp.ones((3, 3)) + jnp.eye(3))
    with pytest.raises(ValueError, match="`operator` must be tridiagonal.*MatrixLinearOperator"):
        tridiagonal_solve(full, np.ones(3))
    with pytest.raises(ValueError, match="`operator` must be tridiagonal"):
        lx.linear_solve(full, jnp.ones(3), Tridiagonal())


@needs_lineax
def test_thomas_rejects_pytree_operators():
    structure = {"a": jax.ShapeDtypeStruct((3,), jnp.float64)}
    op = lx.FunctionLinearOperator(lambda v: {"a": 2 * v["a"]}, structure, lx.tridiagonal_tag)
    with pytest.raises(ValueError, match="one vector of shape"):
        lx.linear_solve(op, {"a": jnp.ones(3)}, Tridiagonal())


# ---------------------------------------------------------------- values --


@needs_lineax
@pytest.mark.parametrize("dominant", [True, False], ids=["dominant", "non-dominant"])
@pytest.mark.parametrize("n", [2, 3, 8, 100])
def test_all_paths_match_lineax_tridiagonal(n, dominant):
    system = random_system(n, n, dominant)
    matrix = dense(*system[:3])
    # lineax on the CPU: on a GPU it solves without pivoting, and refuses
    # (throws on) the non-dominant systems here.
    with jax.default_device(jax.devices("cpu")[0]):
        expected = solve_a(*system)
    for path in ("b", "c"):
        assert_close(PATHS[path](*system), expected, matrix)
    if dominant:  # without pivoting: for dominant systems only
        for path in ("b", "c"):
            assert_close(PATHS[path](*system, pivoting=False), expected, matrix)
    else:  # ... where diag[0] = 0 is a zero pivot
        assert not np.all(np.isfinite(solve_c(*system, pivoting=False)))


@needs_lineax
@pytest.mark.parametrize("pivoting", [True, False])
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_operator_form_is_the_band_form_exactly(pivoting, jit):
    lower, diag, upper, rhs = random_system(3, 16)
    op = operator(lower, diag, upper)
    solve = functools.partial(tridiagonal_solve, pivoting=pivoting)
    solve = jax.jit(solve) if jit else solve
    np.testing.assert_array_equal(solve(op, rhs), solve(lower, diag, upper, rhs))
    np.testing.assert_array_equal(solve(op, rhs=rhs), solve(lower, diag, upper, rhs=rhs))
    # Several right-hand sides broadcast against the one operator.
    rhs3 = np.stack([rhs, 2 * rhs, -rhs])
    np.testing.assert_array_equal(solve(op, rhs3), solve(lower, diag, upper, rhs3))


@needs_lineax
@pytest.mark.parametrize("pivoting", [True, False])
def test_thomas_is_our_solve(pivoting):
    system = random_system(4, 16)
    expected = tridiagonal_solve(*system, pivoting=pivoting)
    np.testing.assert_allclose(solve_b(*system, pivoting=pivoting), expected, rtol=1e-15)


# ---------------------------------------------------------------- errors --


@needs_lineax
@pytest.mark.parametrize(
    "args, kwargs",
    [
        (("op",), {}),
        (("op", "b", "b"), {}),
        (("op", "b", "b", "b"), {}),
        (("op", "b"), {"rhs": "b"}),
        (("op",), {"upper": "b"}),
        (("l", "d", "l"), {}),
        (("l", "d"), {}),
        (("l",), {"rhs": "b"}),
    ],
    ids=str,
)
def test_wrong_call_forms_name_both_forms(args, kwargs):
    lower, diag, upper, rhs = random_system(5, 4)
    values = {"op": operator(lower, diag, upper), "b": rhs, "l": lower, "d": diag}
    args = [values[a] for a in args]
    kwargs = {k: values[v] for k, v in kwargs.items()}
    with pytest.raises(TypeError, match=r"`\(lower, diag, upper, rhs\)` or `\(operator, rhs\)`"):
        tridiagonal_solve(*args, **kwargs)


@needs_lineax
def test_rhs_of_the_wrong_length_names_rhs():
    lower, diag, upper, _ = random_system(6, 4)
    with pytest.raises(ValueError, match=r"`rhs`.*n = 4.*\(5,\)"):
        tridiagonal_solve(operator(lower, diag, upper), np.ones(5))


@needs_lineax
def test_thomas_pivoting_must_be_a_python_bool():
    with pytest.raises(TypeError, match="`pivoting`"):
        Tridiagonal(pivoting=1)


@needs_lineax
def test_cyclic_solve_takes_bands_only():
    """lineax has no cyclic operator: a tridiagonal one has no corners to give."""
    lower, diag, upper, rhs = random_system(7, 4)
    with pytest.raises(TypeError):
        cyclic_tridiagonal_solve(operator(lower, diag, upper), rhs)


def test_splines_imports_and_solves_without_lineax():
    code = (
        "import sys; sys.modules['lineax'] = None  # `import lineax` now fails\n"
        "import numpy as np, splines\n"
        "from splines._linalg.lineax import Tridiagonal\n"
        "x = splines.tridiagonal_solve(np.ones(2), np.full(3, 4.0), np.ones(2), np.ones(3))\n"
        "assert np.isfinite(x).all()\n"
        "try:\n"
        "    Tridiagonal()\n"
        "except ImportError as e:\n"
        "    assert 'lineax' in str(e)\n"
        "else:\n"
        "    raise AssertionError('Tridiagonal() without lineax')\n"
    )
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1],
                   env=env)  # fmt: skip


def _system(seed=7, n=6, complex_=False):
    """A diagonally dominant system: (diag, lower, upper) in lineax's order, rhs, dense."""
    rng = np.random.default_rng(seed)
    diag, lower, upper, rhs = (rng.normal(size=n) + 4, rng.normal(size=n - 1),
                               rng.normal(size=n - 1), rng.normal(size=n))  # fmt: skip
    if complex_:
        diag, rhs = diag + 1j * rng.normal(size=n), rhs + 1j * rng.normal(size=n)
        lower, upper = lower + 0j, upper + 0j
    dense = np.diag(diag) + np.diag(lower, -1) + np.diag(upper, 1)
    return diag, lower, upper, rhs, dense


@needs_lineax
def test_lineax_operators_of_every_form_and_bad_calls():
    diag, lower, upper, rhs, dense = _system()
    op = lx.TridiagonalLinearOperator(diag, lower, upper)
    tagged = lx.MatrixLinearOperator(jnp.asarray(dense), lx.tridiagonal_tag)
    for operator, matrix in [(op.T, dense.T), (2.0 * op + op, 3 * dense), (tagged, dense)]:
        close(splines.tridiagonal_solve(operator, rhs), np.linalg.solve(matrix, rhs))
    inverse = lx.invert(op, splines.Tridiagonal())  # lineax's wrapper around our solves
    close(inverse.mv(jnp.asarray(rhs)), np.linalg.solve(dense, rhs))
    close(inverse.T.mv(jnp.asarray(rhs)), np.linalg.solve(dense.T, rhs))

    full = lx.MatrixLinearOperator(jnp.asarray(dense + np.diag(np.ones(4), 2)))
    with pytest.raises(ValueError, match="must be tridiagonal"):
        splines.tridiagonal_solve(full, rhs)
    with pytest.raises(ValueError, match="must be tridiagonal"):
        lx.linear_solve(full, rhs, splines.Tridiagonal())
    for bad in (rhs[:-1], 1.0):
        with pytest.raises(ValueError, match="`rhs` must have last-axis length n = 6"):
            splines.tridiagonal_solve(op, bad)
    for pivoting in ("yes", 1):
        with pytest.raises(TypeError, match="`pivoting` must be a Python bool"):
            splines.Tridiagonal(pivoting=pivoting)
    diag, lower, upper, rhs, dense = _system(complex_=True)
    op = lx.TridiagonalLinearOperator(diag, lower, upper)
    close(splines.tridiagonal_solve(op, rhs), np.linalg.solve(dense, rhs))
    singular = lx.TridiagonalLinearOperator(np.zeros(3), np.zeros(2), np.zeros(2))
    assert np.all(np.isnan(splines.tridiagonal_solve(singular, np.ones(3))))


# ----------------------------------------------------------- derivatives --

# lineax's `linear_solve` is already an `eqx.filter_jit`; jitting the whole
# keeps check_grads to a few compilations.
JITTED = {path: jax.jit(fun) for path, fun in PATHS.items()}


# Order 2 through lineax's rules (its JVP of a JVP calls `Tridiagonal` again); our
# primitive's own rules are checked to order 2 in test_tridiagonal.py.
@needs_lineax
@pytest.mark.parametrize("path, order", [("b", 2), ("c", 1)])
def test_check_grads_all_arguments(path, order):
    system = random_system(8, 4, dominant=False)
    check_grads(JITTED[path], system, order=order, modes=("fwd", "rev"))


@needs_lineax
def test_derivatives_agree_with_lineax_tridiagonal():
    system = random_system(9, 8, dominant=False)
    w = np.random.default_rng(10).normal(size=8)
    grads = {p: jax.grad(lambda *a, f=f: jnp.vdot(w, f(*a)), argnums=(0, 1, 2, 3))(*system)
             for p, f in JITTED.items()}  # fmt: skip
    tangents = random_system(11, 8)
    jvps = {p: jax.jvp(f, system, tangents)[1] for p, f in JITTED.items()}
    for path in ("b", "c"):
        for g, g_a in zip(grads[path], grads["a"]):
            np.testing.assert_allclose(g, g_a, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(jvps[path], jvps["a"], rtol=1e-12, atol=1e-12)


@needs_lineax
def test_thomas_state_keeps_lineax_contract():
    """transpose(init(A)) = init(Aᵀ) and conj(init(A)) = init(conj(A)) (lineax's docs)."""
    rng = np.random.default_rng(17)
    lower, diag, upper = (rng.normal(size=m) + 1j * rng.normal(size=m) for m in (4, 5, 4))
    op, solver = operator(lower, diag, upper), Tridiagonal()
    state = solver.init(op, {})
    for (got, _), want in [(solver.transpose(state, {}), solver.init(op.T, {})),
                           (solver.conj(state, {}), solver.init(lx.conj(op), {}))]:  # fmt: skip
        for a, b in zip(got, want):
            np.testing.assert_array_equal(a, b)


@needs_lineax
def test_complex_systems_match_lineax_tridiagonal():
    rng = np.random.default_rng(18)
    system = [rng.normal(size=m) + 1j * rng.normal(size=m) for m in (5, 6, 5, 6)]
    matrix = dense(*system[:3])
    expected = solve_a(*system)
    for path in ("b", "c"):
        assert_close(JITTED[path](*system), expected, matrix)
    tangents = [np.conj(a) for a in system]
    jvps = {p: jax.jvp(JITTED[p], system, tangents)[1] for p in PATHS}
    for path in ("b", "c"):
        np.testing.assert_allclose(jvps[path], jvps["a"], rtol=1e-12)


# ------------------------------------------------------------------- vmap --


@needs_lineax
@pytest.mark.parametrize("path", ["a", "b", "c"])
def test_vmap_over_operators_and_vectors_equals_loop(path):
    system = random_system(12, 6, batch=(5,))
    batched = jax.jit(jax.vmap(PATHS[path]))(*system)
    loop = [tridiagonal_solve(*(a[k] for a in system)) for k in range(5)]
    np.testing.assert_allclose(batched, np.stack(loop), rtol=1e-13)


@needs_lineax
def test_vmap_over_a_stacked_operator_and_a_shared_vector():
    """An operator pytree with a batch of bands (built under vmap) and one rhs."""
    lower, diag, upper, rhs = random_system(13, 6, batch=(5,))
    ops = jax.vmap(operator)(lower, diag, upper)
    expected = tridiagonal_solve(lower, diag, upper, rhs[0])
    for solve in (lambda op: tridiagonal_solve(op, rhs[0]),
                  lambda op: lx.linear_solve(op, rhs[0], Tridiagonal()).value):  # fmt: skip
        np.testing.assert_allclose(jax.vmap(solve)(ops), expected, rtol=1e-13)
    # Outside vmap too: the bands' leading axis is a batch of our broadcast rules.
    np.testing.assert_array_equal(tridiagonal_solve(ops, rhs[0]), expected)


@needs_lineax
@needs_cpu_backend  # lineax lowers its callbacks for the default backend only
@pytest.mark.parametrize("path", ["b", "c"])
def test_vmapped_program_does_not_loop_over_systems(path):
    text = lowered_text(jax.vmap(PATHS[path]), *random_system(14, 64, batch=(8,)))
    assert loops_outside_kernels(text) == []


# -------------------------------------------------------------- callbacks --

_CALL = re.compile(r"(?<![\w.])(?:func\.)?call @([\w$.-]+)")  # not custom_call
_CALLBACK = re.compile(r"custom_call @(\w*callback\w*)")
_CASE = re.compile(r"stablehlo\.case")


def occurrences(text, pattern):
    """How often `pattern` occurs in the program as called from main.

    A function's matches count once per call of it: jax lowers one function
    for identical calls (both error checks of a gradient call one
    ``branched_error_if_impl``), so a plain text count is too low.
    """
    funcs = functions(text)

    @functools.cache
    def count(name):
        body = funcs[name]
        return len(pattern.findall(body)) + sum(count(c) for c in _CALL.findall(body))

    return count("main")


def _programs(path, throw):
    """forward, gradient (w.r.t. all four) and JVP of one path."""
    fwd = functools.partial(PATHS[path], throw=throw)
    grad = jax.grad(lambda *a: jnp.sum(fwd(*a) ** 2), argnums=(0, 1, 2, 3))
    return {"forward": fwd, "grad": grad, "jvp": lambda *a: jax.jvp(fwd, a, a)}


# Host callbacks per call as measured (lineax 0.1.1, equinox 0.13.8): every
# lineax error check is one `case` holding two callbacks.  The forward solve
# is checked when throw=True; the tangent/cotangent solve of a derivative is
# always checked (lineax passes throw=True to it: "nowhere to pipe the error").
CALLBACKS = {
    ("forward", True): 2, ("grad", True): 4, ("jvp", True): 4,
    ("forward", False): 0, ("grad", False): 2, ("jvp", False): 2,
}  # fmt: skip


@needs_lineax
@needs_cpu_backend
@pytest.mark.parametrize("throw", [True, False], ids=["throw", "no-throw"])
@pytest.mark.parametrize("mode", ["forward", "grad", "jvp"])
@pytest.mark.parametrize("path", ["a", "b", "c"])
def test_host_callbacks_on_cpu(path, mode, throw):
    text = lowered_text(_programs(path, throw)[mode], *random_system(15, 8))
    expected = 0 if path == "c" else CALLBACKS[mode, throw]
    assert occurrences(text, _CALLBACK) == expected
    assert occurrences(text, _CASE) == expected // 2  # one conditional per check
    assert set(_CALLBACK.findall(text)) <= {"xla_ffi_python_cpu_callback"}


@needs_lineax
@pytest.mark.parametrize("mode", ["forward", "grad", "jvp"])
def test_our_path_lowers_for_cuda_without_callbacks_or_conditionals(mode):
    text = lowered_text(_programs("c", None)[mode], *random_system(15, 8), platform="cuda")
    for forbidden in ("callback", "stablehlo.case", "stablehlo.if"):
        assert forbidden not in text


@needs_lineax
@needs_cpu_backend
@pytest.mark.parametrize("path", ["a", "b"])
def test_lineax_callbacks_do_not_lower_for_cuda_on_a_cpu_jaxlib(path):
    """A host callback lowers only for the backend at hand (jax 0.10)."""
    with pytest.raises(ValueError, match="lowering platform cuda"):
        lowered_text(_programs(path, True)["forward"], *random_system(15, 8), platform="cuda")


@needs_lineax
@pytest.mark.parametrize("platform", ["cpu", "cuda"])
def test_our_path_exports_lineax_does_not(platform):
    system = random_system(16, 8)
    # On a GPU the pivoting solve is a Pallas (Triton) kernel, which jax exports only
    # when told that its custom call has no compatibility guarantee.
    triton = jax.export.DisabledSafetyCheck.custom_call("__gpu$xla.gpu.triton")
    disabled = [triton] if platform == "cuda" else []
    exported = jax.export.export(jax.jit(solve_c), platforms=(platform,),
                                 disabled_checks=disabled)(*system)  # fmt: skip
    assert exported.platforms == (platform,)
    plain = jax.export.export(jax.jit(functools.partial(solve_c, pivoting=False)),
                              platforms=(platform,))(*system)  # fmt: skip
    assert plain.platforms == (platform,)
    with pytest.raises((NotImplementedError, ValueError)):  # callbacks: not serialisable
        jax.export.export(jax.jit(solve_a), platforms=(platform,))(*system)
