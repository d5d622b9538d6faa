"""Invalid data on grids (docs/architecture.md §5; 1-D: test_invalid_data.py):
concrete data raise, traced data give NaN values and NaN gradients.

1. Concrete bad data raise `ValueError` naming the argument by its public name on
   the axis concerned (``yp``, ``zp``, ``fxy``, ``fxyz`` …): knots not finite and
   strictly increasing, non-finite values and given derivatives, a period ≤ 0,
   knots that wrap onto others with different values or are too large to wrap,
   periodic data whose ends differ (the message names the line by its index in
   ``fp``), a tension outside [0, 1].  Each case runs
   through the function (`interp2d`, `interp3d`) and the class (`Interpolator2D`,
   `Interpolator3D`) and is matched on the fragment of the message that names
   the argument.
2. Bad numpy constants closed over by jit / vmap / grad still raise (they are
   concrete while the query is traced).
3. Traced bad data cannot raise: non-increasing or NaN knots, a period that
   wraps a knot onto another (or is ≤ 0, or that they close with differing ends)
   and a tension outside [0, 1] make every output *and every gradient* NaN (a zero
   gradient would let an optimiser walk on silently), the breaks too; a NaN in
   ``fp`` makes the outputs next to it NaN.  One jitted program per
   configuration serves every case (compilation dominates the runtime: ~1-4 s
   per program).
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from _grid_inputs import (
    FP,
    FP3,
    FP3_XY_CLOSED,
    FP_CLOSED,
    FP_X_CLOSED,
    PX,
    XP,
    YP,
    ZP,
    X,
    Y,
    call_2d,
    call_3d,
    with_entry,
)
from _random_grids import RNG

import splines
from splines import Interpolator2D, interp2d, interp3d

# --------------------------------------------------------------------------- concrete


IN_0_1 = r"`c` \(tension\) must be in \[0, 1\]"

# name → (keyword arguments of `grid.call_2d`, exception, pattern the message must match)
DATA_CASES_2D = {
    # the tension
    "c above 1": ({"method": "cardinal", "c": 1.5}, ValueError, IN_0_1),
    "c below 0": ({"method": "cardinal", "c": -0.1}, ValueError, IN_0_1),
    # period
    "period: zero": ({"period": 0.0}, ValueError, r"`period` must be finite and positive"),
    "period: negative, y only": ({"period": (None, -2.0)}, ValueError,
                                 r"`period` must be finite and positive"),
    "period: NaN": ({"period": (np.nan, None)}, ValueError,
                    r"`period` must be finite and positive"),
    # knots
    "yp not increasing": ({"yp": YP[[0, 2, 1, 3, 4]]}, ValueError,
                          r"`yp` must be strictly increasing.*`yp\[1\]` = 1\.3 but `yp\[2\]`"),
    "yp with a repeated knot": ({"yp": with_entry(YP, 2, 0.5)}, ValueError,
                                r"`yp` must be strictly increasing.*`yp\[2\]`"),
    "yp with a NaN": ({"yp": with_entry(YP, 2, np.nan)}, ValueError,
                      r"`yp` must be finite; `yp\[2\]`"),
    "yp with inf": ({"yp": with_entry(YP, 4, np.inf)}, ValueError,
                    r"`yp` must be finite; `yp\[4\]`"),
    "xp not increasing": ({"xp": XP[::-1]}, ValueError, r"`xp` must be strictly increasing"),
    # values and given derivatives
    "fp with a NaN": ({"fp": with_entry(FP, (1, 3), np.nan)}, ValueError,
                      r"`fp` must be finite; `fp\[1, 3\]`"),
    "fxy with a NaN": ({"fxy": with_entry(FP, (2, 1), np.nan)}, ValueError,
                       r"`fxy` must be finite; `fxy\[2, 1\]`"),
    "fx with inf": ({"fx": with_entry(FP, (0, 4), -np.inf)}, ValueError,
                    r"`fx` must be finite; `fx\[0, 4\]`"),
    # periodic data whose ends differ
    "bc_type periodic, fp ends differ along y": (
        {"fp": FP_X_CLOSED, "bc_type": "periodic"}, ValueError,
        r"periodic data along axis 1 \(`yp`\) needs the first and last values of each line "
        r"of `fp`"),
    "bc_type periodic, fp ends differ along x": (
        {"fp": FP, "bc_type": "periodic"}, ValueError,
        r"along axis 0 \(`xp`\) needs .* of `fp`"),
    "bc_type periodic, fx ends differ": (
        {"fp": FP_CLOSED, "fx": FP, "bc_type": "periodic"}, ValueError,
        r"along axis 0 \(`xp`\) needs .* of `fx`"),
    "closing period on y, fp ends differ": (
        {"fp": FP, "period": (None, YP[-1] - YP[0])}, ValueError,
        r"along axis 1 \(`yp`\) needs .* of `fp`"),
}  # fmt: skip


@pytest.mark.parametrize("api", ["interp2d", "Interpolator2D"])
@pytest.mark.parametrize("case", list(DATA_CASES_2D))
def test_2d_bad_data_raise_naming_the_argument(case, api):
    kwargs, exception, pattern = DATA_CASES_2D[case]
    with pytest.raises(exception, match=pattern):
        call_2d(api, **kwargs)


DATA_CASES_3D = {
    "zp not increasing": ({"zp": ZP[[0, 2, 1, 3]]}, ValueError,
                          r"`zp` must be strictly increasing.*`zp\[1\]` = 1\.4 but `zp\[2\]`"),
    "zp with a NaN": ({"zp": with_entry(ZP, 3, np.nan)}, ValueError,
                      r"`zp` must be finite; `zp\[3\]`"),
    "fxyz with a NaN": ({"fxyz": with_entry(FP3, (1, 2, 3), np.nan)}, ValueError,
                        r"`fxyz` must be finite; `fxyz\[1, 2, 3\]`"),
    "bc_type periodic, fp ends differ along z": (
        {"fp": FP3_XY_CLOSED, "bc_type": "periodic"}, ValueError,
        r"along axis 2 \(`zp`\) needs .* of `fp`"),
}  # fmt: skip


@pytest.mark.parametrize("api", ["interp3d", "Interpolator3D"])
@pytest.mark.parametrize("case", list(DATA_CASES_3D))
def test_3d_bad_data_raise_naming_the_argument(case, api):
    kwargs, exception, pattern = DATA_CASES_3D[case]
    with pytest.raises(exception, match=pattern):
        call_3d(api, **kwargs)


def test_periodic_ends_message_names_the_line_whose_ends_differ():
    """The line is named by its index in ``fp`` (not as a "column k" of flattened
    lines, columns ``fp`` does not have)."""
    fp = np.stack([FP_CLOSED, 2 * FP_CLOSED], axis=-1)  # (6, 5) grid, 2 columns
    fp[2, -1, 1] += 1.0  # the ends along y differ on line x = 2, column 1
    with pytest.raises(ValueError, match=re.escape("`fp[2, :, 1]` starts at")):
        interp2d(X, Y, XP, YP, fp, "cubic2", bc_type="periodic")
    fp3 = FP3.copy()
    fp3[:, :, -1] = fp3[:, :, 0]
    fp3[1, 2, -1] += 1.0  # no columns: one value per node
    with pytest.raises(ValueError, match=re.escape("axis 2 (`zp`)") + ".*" +
                       re.escape("`fp[1, 2, :]` starts at")):  # fmt: skip
        interp3d(X, Y, Y / 2, XP, YP, ZP, fp3, "cubic2", period=(None, None, 2.0))


BAD_CONSTANTS = {  # name → (function of the query with bad numpy constants, message pattern)
    "yp not increasing": (lambda q: interp2d(q, q, XP, YP[::-1], FP, "cubic2"), r"`yp` must be strictly"),
    "fp ends differ along y": (
        lambda q: Interpolator2D(XP, YP, FP_X_CLOSED, "cubic2", bc_type="periodic")(q, q),
        r"along axis 1 \(`yp`\) needs .* of `fp`"),
    "NaN in fxy": (lambda q: interp2d(q, q, XP, YP, FP, "cubic2", fxy=with_entry(FP, (0, 0), np.nan)),
                   r"`fxy` must be finite"),
}  # fmt: skip


TRANSFORMS = {
    "jit": lambda f: jax.jit(f)(X),
    "vmap": lambda f: jax.vmap(f)(X),
    "grad": lambda f: jax.grad(f)(0.5),
}


@pytest.mark.parametrize("transform", list(TRANSFORMS))
@pytest.mark.parametrize("case", list(BAD_CONSTANTS))
def test_bad_numpy_constants_raise_inside_transformations(case, transform):
    """Concrete data, so the eager checks run while tracing: ValueError, not a tracer error."""
    f, pattern = BAD_CONSTANTS[case]
    with pytest.raises(ValueError, match=pattern):
        TRANSFORMS[transform](f)


# ----------------------------------------------------------------------------- traced


X_WRAP = np.array([0.3, 5.1, 6.6, -2.0])  # wrap (period PX) to 0.3, 5.1, 1.1, 3.5


ARGS = ("xp", "yp", "fp", "period", "c", "x")


# name → (the interpolant of the traced arguments, the arguments it depends on)
TRACED = {
    "interp2d cubic2": (lambda xp, yp, fp, period, c, x: interp2d(x, Y, xp, yp, fp, "cubic2"),
                        ("xp", "yp", "fp", "x")),
    "Interpolator2D linear, traced period": (  # x + X_WRAP - X: queries that wrap
        lambda xp, yp, fp, period, c, x: Interpolator2D(xp, yp, fp, "linear",
                                                        period=(period, None))(x + X_WRAP - X, Y),
        ("xp", "yp", "fp", "period", "x")),
    "interp2d cardinal, traced tension": (
        lambda xp, yp, fp, period, c, x: interp2d(x, Y, xp, yp, fp, "cardinal", c=c),
        ("xp", "yp", "fp", "c", "x")),
}  # fmt: skip


def _value_and_grads(interpolant, depends):
    """jit of: the outputs, and the value and gradients of their sum (one program per
    configuration: smaller programs compile faster than one that holds them all)."""
    argnums = tuple(ARGS.index(a) for a in depends)

    def loss(*args):
        out = interpolant(*args)
        return jnp.sum(out), out

    @jax.jit
    def run(*args):
        (value, out), grads = jax.value_and_grad(loss, argnums, has_aux=True)(*args)
        return out, value, dict(zip(depends, grads))

    return run


_PROGRAMS = {name: _value_and_grads(*config) for name, config in TRACED.items()}


GOOD = {"xp": XP, "yp": YP, "fp": FP, "period": np.float64(PX), "c": np.float64(0.3), "x": X}


PERIODIC = {"Interpolator2D linear, traced period"}


BAD = [  # (the bad arguments, the configurations they poison)
    pytest.param({"xp": XP[[0, 2, 1, 3, 4, 5]]}, set(TRACED), id="xp not increasing"),
    pytest.param({"yp": with_entry(YP, 2, 0.5)}, set(TRACED), id="yp with a repeated knot"),
    pytest.param({"yp": with_entry(YP, 3, np.nan)}, set(TRACED), id="yp with a NaN"),
    # 3.8: xp[5] = 4.5 wraps onto xp[1] = 0.7 (a traced grid cannot merge them).
    pytest.param({"period": np.float64(3.8)}, PERIODIC, id="period wraps a knot onto another"),
    pytest.param({"period": np.float64(-5.5)}, PERIODIC, id="period negative"),
    # A traced period the knots close (4.5 = xp[-1] - xp[0]): then fp's ends must match.
    pytest.param({"period": np.float64(4.5)}, PERIODIC, id="closed period, fp ends differ"),
    pytest.param({"c": np.float64(1.5)}, {"interp2d cardinal, traced tension"}, id="c above 1"),
    pytest.param({"c": np.float64(-0.5)}, {"interp2d cardinal, traced tension"}, id="c below 0"),
]


def _run_traced(**bad):
    args = [{**GOOD, **bad}[a] for a in ARGS]
    return {name: run(*args) for name, run in _PROGRAMS.items()}


@pytest.mark.parametrize("bad, poisoned", BAD)
def test_traced_bad_data_gives_nan_outputs_and_nan_gradients(bad, poisoned):
    failures = []
    for name, (out, value, grads) in _run_traced(**bad).items():
        if name not in poisoned:  # untouched by this argument: numbers
            if not (np.all(np.isfinite(out)) and np.isfinite(value)):
                failures.append(f"{name}: {out} (expected finite)")
            continue
        if not np.all(np.isnan(out)):
            failures.append(f"{name}: outputs {out} (expected all NaN)")
        for arg, g in grads.items():
            if not np.all(np.isnan(g)):
                failures.append(f"{name}: d/d{arg} = {g} (expected all NaN, not zeros)")
    assert not failures, f"bad {list(bad)}:\n" + "\n".join(failures)


def test_traced_good_data_gives_finite_values_and_gradients():
    """Control: the same program on good data gives numbers everywhere."""
    for name, (out, value, grads) in _run_traced().items():
        assert np.all(np.isfinite(out)) and np.isfinite(value), name
        for arg, g in grads.items():
            assert np.all(np.isfinite(g)), (name, arg)
            assert np.any(np.asarray(g) != 0), (name, arg)  # every listed argument does matter


def test_traced_nan_in_fp_gives_nan_next_to_it():
    """fp[2, 2] (the node (1.5, 1.3)) is a corner of the cells of the points 1 and 2:
    NaN there, for the global and the local methods alike; no error."""
    results = _run_traced(fp=with_entry(FP, (2, 2), np.nan))
    for name, (out, value, _) in results.items():
        # The periodic configuration's queries wrap: its point 1 is (5.1, 0.9), in the
        # closing cell, away from the node; its point 2 wraps onto (1.1, 1.65).
        near = [2] if "period" in name else [1, 2]
        assert np.all(np.isnan(np.asarray(out)[near])), (name, out)
        assert np.isnan(value), name


@jax.jit
def _nearest_fit_and_grads(xp, fp, x, period):
    """The breaks of a traced-period "nearest" fit, and the gradients of a loss through it
    (one program for every period below)."""
    itp = Interpolator2D(xp, YP, fp, "nearest", period=(period, None))
    loss = lambda xp, x, period: jnp.sum(  # noqa: E731
        interp2d(x, Y, xp, YP, fp, "nearest", period=(period, None))
    )
    return itp.spline.breaks[0], jax.grad(loss, argnums=(0, 1, 2))(xp, x, period)


@pytest.mark.parametrize(
    "period", [3.8, -5.5, 4.5], ids=["wraps a knot onto another", "negative", "closed, ends differ"]
)
def test_traced_bad_period_poisons_the_breaks(period):
    """As in 1-D, invalid data make the breaks NaN too, so every gradient is NaN
    ('nearest', whose values are the coefficients, would otherwise have zero
    gradients w.r.t. xp, x and the period)."""
    breaks, grads = _nearest_fit_and_grads(XP, FP, X, np.float64(period))  # the knots span 4.5
    failures = [] if np.all(np.isnan(breaks)) else [f"breaks along x: {breaks}"]
    failures += [f"d/d{name} = {g}" for name, g in zip(("xp", "x", "period"), grads)
                 if not np.all(np.isnan(g))]  # fmt: skip
    assert not failures, "\n".join(failures)


def test_grid_bad_input_raises_and_bad_traced_knots_or_period_give_nan():
    xp, yp = np.array([0.0, 1, 2, 3]), np.array([0.0, 1, 3])
    f = RNG.normal(size=(4, 3))
    with pytest.raises(ValueError, match="`xp` must be strictly increasing"):
        splines.interp2d(1.5, 0.5, [0.0, 1, 1, 3], yp, f, "cubic2")
    with pytest.raises(ValueError, match="`derivative`"):
        splines.interp2d(1.5, 0.5, xp, yp, f, "cubic2", derivative=(1, 0, 0))
    with pytest.raises(TypeError, match="`x` must be real"):
        splines.interp2d(1.5j, 0.5, xp, yp, f, "cubic2")
    with pytest.raises(ValueError, match="`period` must be finite and positive"):
        splines.interp2d(1.5, 0.5, xp, yp, f, "cubic2", period=(0.0, None))
    with pytest.raises(TypeError, match="`extrap`"):
        splines.interp2d(-1.0, 0.5, xp, yp, f, "cubic2", extrap=1j)
    traced = jax.jit(
        lambda xp, p: splines.interp2d(1.5, 0.5, xp, yp, f, "cubic2", period=(p, None))
    )
    assert np.isnan(traced(jnp.asarray([0.0, 1, 1, 3]), 4.0))  # bad knots: NaN
    assert np.isnan(traced(jnp.asarray(xp), 2.0))  # 2 and 3 wrap onto 0 and 1: NaN


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [0, 123_456, -1])
def test_one_bad_value_anywhere_in_a_large_grid_makes_every_output_nan(bad, where):
    """A 64³ table: XLA:CPU reduces large arrays with vectorised kernels whose
    max/min drop NaN, so the column test must see a NaN at any entry of a table
    of that size too (values and gradients NaN, as for small grids)."""
    knots = [jnp.linspace(0.0, 1.0, 64)] * 3
    values = np.ones((64, 64, 64), np.float32)
    values.reshape(-1)[where] = bad
    queries = [jnp.asarray(RNG.uniform(0, 1, 50), jnp.float32) for _ in range(3)]

    def total(f):
        return jnp.sum(interp3d(*queries, *knots, f, "linear"))

    value, grad = jax.jit(jax.value_and_grad(total))(jnp.asarray(values))
    assert np.isnan(float(value))
    assert np.all(np.isnan(np.asarray(grad)))
