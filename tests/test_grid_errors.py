"""Bad input to the grid interpolants (DESIGN.md §5; test_errors.py and
test_validation.py for 1-D).

1. Concrete bad input raises `ValueError` (or `TypeError` for a wrong type)
   whose message names the argument by its public name on the axis concerned:
   ``yp`` and ``fy`` in 2-D, ``zp``, ``fz``, ``fxyz`` in 3-D.  Static options
   (method, ``c``, ``bc_type``, given derivatives, ``derivative``, ``extrap``,
   ``period``), shapes and dtypes, and the data checks (knots finite and
   strictly increasing, values finite, a period the knots fit in, equal ends
   of periodic data).  Each case runs through the function (`interp2d`,
   `interp3d`) and the class (`Interpolator2D`, `Interpolator3D`: its
   constructor, or its call for ``derivative`` and the queries), and is
   matched on the fragment of the message that names the argument.
2. Bad numpy constants closed over by jit / vmap / grad still raise (they are
   concrete while the query is traced).
3. Traced bad data cannot raise: non-increasing or NaN knots, a period the
   knots exceed (or ≤ 0, or that they close with differing ends) and a
   tension outside [0, 1] make every output *and every gradient* NaN (a zero
   gradient would let an optimiser walk on silently); a NaN in ``fp`` makes
   the outputs next to it NaN.  One jitted program per configuration serves
   every case (compilation dominates the runtime: ~1-4 s per program).

Concrete errors raise before anything compiles, except the class's call
cases, which first fit a cheap ``"linear"`` interpolant (one compile, shared).
"""

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from splines import Interpolator2D, Interpolator3D, interp2d, interp3d

XP = np.array([0.0, 0.7, 1.5, 2.4, 3.2, 4.5])  # 6 knots
YP = np.array([0.0, 0.5, 1.3, 2.0, 2.9])  # 5 knots
ZP = np.array([0.0, 0.6, 1.4, 2.0])  # 4 knots
FP = np.random.default_rng(7).normal(size=(6, 5))
FP3 = np.random.default_rng(3).normal(size=(6, 5, 4))
X = np.array([0.3, 1.1, 2.0, 3.9])  # paired with Y: points (X[i], Y[i]), all inside
Y = np.array([0.25, 0.9, 1.65, 2.45])
PX, PY = 5.5, 3.5  # periods the knots fit in without closing them

FP_X_CLOSED = FP.copy()  # periodic along x only (last row = first row)
FP_X_CLOSED[-1] = FP_X_CLOSED[0]
FP_CLOSED = FP_X_CLOSED.copy()  # periodic along both axes
FP_CLOSED[:, -1] = FP_CLOSED[:, 0]
FP3_XY_CLOSED = FP3.copy()  # periodic along x and y, not along z
FP3_XY_CLOSED[-1] = FP3_XY_CLOSED[0]
FP3_XY_CLOSED[:, -1] = FP3_XY_CLOSED[:, 0]


def _with(array, index, value):
    out = np.array(array, dtype=np.result_type(array, value))
    out[index] = value
    return out


# --------------------------------------------------------------------------- the calls


def call_2d(api, x=X, y=Y, xp=XP, yp=YP, fp=FP, method="cubic2", derivative=(0, 0), **options):
    if api == "interp2d":
        return interp2d(x, y, xp, yp, fp, method, derivative=derivative, **options)
    return Interpolator2D(xp, yp, fp, method, **options)(x, y, derivative)


def call_3d(api, x=X, y=Y, z=Y / 2, xp=XP, yp=YP, zp=ZP, fp=FP3, method="cubic2",
            derivative=(0, 0, 0), **options):  # fmt: skip
    if api == "interp3d":
        return interp3d(x, y, z, xp, yp, zp, fp, method, derivative=derivative, **options)
    return Interpolator3D(xp, yp, zp, fp, method, **options)(x, y, z, derivative)


IN_0_1 = r"`c` \(tension\) must be in \[0, 1\]"
# name → (keyword arguments of `call_2d`, exception, pattern the message must match)
CASES_2D = {
    # method and its options
    "unknown method": ({"method": "cubic4"}, ValueError, r"`method`='cubic4' is not one of"),
    "c above 1": ({"method": "cardinal", "c": 1.5}, ValueError, IN_0_1),
    "c below 0": ({"method": "cardinal", "c": -0.1}, ValueError, IN_0_1),
    "c not a scalar": ({"method": "cardinal", "c": np.array([0.5])}, ValueError,
                       r"`c` \(tension\) must be a scalar"),
    "c with cubic2": ({"c": 0.5}, ValueError, r"`c` \(tension\) applies to method 'cardinal' only"),
    "c with every slope given": ({"method": "cardinal", "c": 0.5, "fx": FP, "fy": FP, "fxy": FP},
                                 ValueError, r"`c` \(tension\) has no effect when the slopes"),
    "fx with linear": ({"method": "linear", "fx": FP}, ValueError,
                       r"`fx` \(slopes\) needs a cubic"),
    "fxy with nearest": ({"method": "nearest", "fxy": FP}, ValueError,
                         r"`fxy` \(slopes\) needs a cubic"),
    "bc_type with akima": ({"method": "akima", "bc_type": "natural"}, ValueError,
                           r"`bc_type`='natural' has no effect on method 'akima'"),
    "bc_type with linear": ({"method": "linear", "bc_type": "clamped"}, ValueError,
                            r"`bc_type`='clamped' has no effect on method 'linear'"),
    "bc_type with a non-zero value": ({"bc_type": ((1, 2.0), "natural")}, ValueError,
                                      r"`bc_type`=.*zero values only"),
    "bc_type with a non-zero second end": ({"bc_type": ("clamped", (2, -1.0))}, ValueError,
                                           r"`bc_type`=.*zero values only"),
    "bc_type, every axis periodic": ({"bc_type": "natural", "period": (PX, PY)}, ValueError,
                                     r"`bc_type`='natural' has no effect: every axis has a"),
    "bc_type with every slope given": ({"bc_type": "natural", "fx": FP, "fy": FP, "fxy": FP},
                                       ValueError, r"`bc_type`='natural' has no effect.*given"),
    # derivative (interp2d checks it up front; Interpolator2D at the call)
    "derivative: one order": ({"method": "linear", "derivative": (0,)}, ValueError,
                              r"`derivative`=\(0,\) needs one order per axis \(2\)"),
    "derivative: three orders": ({"method": "linear", "derivative": (0, 0, 0)}, ValueError,
                                 r"`derivative`=\(0, 0, 0\) needs one order per axis \(2\)"),
    "derivative: a short pair in a sequence": (
        {"method": "linear", "derivative": ((0, 0), (1,))}, ValueError,
        r"`derivative`=.* needs one order per axis \(2\)"),
    "derivative: negative": ({"method": "linear", "derivative": (-1, 0)}, ValueError,
                             r"`derivative` orders must be ≥ 0"),
    "derivative: negative int": ({"method": "linear", "derivative": -1}, ValueError,
                                 r"`derivative` orders must be ≥ 0"),
    "derivative: float": ({"method": "linear", "derivative": (0.5, 0)}, TypeError,
                          r"`derivative` must be a Python int"),
    "derivative: float for all": ({"method": "linear", "derivative": 1.0}, TypeError,
                                  r"`derivative` must be a Python int"),
    "derivative: bool": ({"method": "linear", "derivative": (True, 0)}, TypeError,
                         r"`derivative` must be a Python int"),
    "derivative: bool for all": ({"method": "linear", "derivative": True}, TypeError,
                                 r"`derivative` must be a Python int"),
    # extrap
    "extrap: three entries for two axes": ({"extrap": (True, True, True)}, ValueError,
                                           r"`extrap`=.* or 2 options, one per axis"),
    "extrap: one entry for two axes": ({"extrap": (True,)}, ValueError,
                                       r"`extrap`=.* or 2 options, one per axis"),
    "extrap: a string entry": ({"extrap": (True, "a")}, ValueError, r"`extrap\[1\]`='a'"),
    "extrap: a triple entry": ({"extrap": (True, (1.0, 2.0, 3.0))}, ValueError,
                               r"`extrap\[1\]`=\(1\.0, 2\.0, 3\.0\)"),
    "extrap: a None entry": ({"extrap": (True, None)}, ValueError, r"`extrap\[1\]`=None"),
    "extrap: a complex fill": ({"extrap": (1j, True)}, TypeError, r"`extrap`"),
    "extrap on a periodic axis": ({"period": (PX, None), "extrap": ((0.0, 1.0), True)}, ValueError,
                                  r"`extrap\[0\]`=\(0\.0, 1\.0\) has no effect on periodic data"),
    "extrap=True, every axis periodic": ({"period": (PX, PY), "extrap": True}, ValueError,
                                         r"`extrap`=True has no effect on periodic data"),
    "extrap fill, every axis periodic": ({"period": PX, "extrap": 0.0}, ValueError,
                                         r"`extrap`=0\.0 has no effect on periodic data"),
    # period
    "period: one entry for two axes": ({"period": (PX,)}, ValueError,
                                       r"`period`=\(5\.5,\) must be one value for all 2 axes"),
    "period: three entries": ({"period": (PX, None, None)}, ValueError,
                              r"`period`=.* must be one value for all 2 axes or one per axis"),
    "period: zero": ({"period": 0.0}, ValueError, r"`period` must be finite and positive"),
    "period: negative, y only": ({"period": (None, -2.0)}, ValueError,
                                 r"`period` must be finite and positive"),
    "period: NaN": ({"period": (np.nan, None)}, ValueError,
                    r"`period` must be finite and positive"),
    "period: not a scalar": ({"period": np.ones((2, 2))}, ValueError, r"`period` must be a scalar"),
    "period: a string": ({"period": "5"}, TypeError, r"`period` must be a real number"),
    "period: complex": ({"period": (None, 5 + 1j)}, TypeError, r"`period` must be real"),
    "period exceeded by yp": ({"period": (None, 2.0)}, ValueError,
                              r"`yp` must lie within one `period`: `yp\[-1\] - yp\[0\]` = 2\.9"),
    "period exceeded by xp": ({"period": (4.0, PY)}, ValueError,
                              r"`xp` must lie within one `period`"),
    # knots
    "yp not increasing": ({"yp": YP[[0, 2, 1, 3, 4]]}, ValueError,
                          r"`yp` must be strictly increasing.*`yp\[1\]` = 1\.3 but `yp\[2\]`"),
    "yp with a repeated knot": ({"yp": _with(YP, 2, 0.5)}, ValueError,
                                r"`yp` must be strictly increasing.*`yp\[2\]`"),
    "yp with a NaN": ({"yp": _with(YP, 2, np.nan)}, ValueError, r"`yp` must be finite; `yp\[2\]`"),
    "yp with inf": ({"yp": _with(YP, 4, np.inf)}, ValueError, r"`yp` must be finite; `yp\[4\]`"),
    "xp not increasing": ({"xp": XP[::-1]}, ValueError, r"`xp` must be strictly increasing"),
    "yp not one-dimensional": ({"yp": YP[None]}, ValueError, r"`yp` must be one-dimensional"),
    "yp complex": ({"yp": YP + 0j}, TypeError, r"`yp` must be real"),
    "xp complex": ({"xp": XP + 0j}, TypeError, r"`xp` must be real"),
    "one knot in yp": ({"yp": YP[:1], "fp": FP[:, :1]}, ValueError, r"`yp` needs at least 2 knots"),
    # values and given derivatives
    "fp with one dimension": ({"fp": FP[:, 0]}, ValueError,
                              r"`fp` must have at least 2 dimensions, one per axis"),
    "fp a scalar": ({"fp": 1.0}, ValueError, r"`fp` must have at least 2 dimensions"),
    "fp.shape[1] != len(yp)": ({"fp": FP[:, :4]}, ValueError,
                               r"`fp` must have len\(yp\) = 5 entries along axis 1"),
    "fp.shape[0] != len(xp)": ({"fp": FP[:5]}, ValueError,
                               r"`fp` must have len\(xp\) = 6 entries along axis 0"),
    "fp with a NaN": ({"fp": _with(FP, (1, 3), np.nan)}, ValueError,
                      r"`fp` must be finite; `fp\[1, 3\]`"),
    "fy of the wrong shape": ({"fy": FP[:, :4]}, ValueError,
                              r"`fy` \(derivatives at the knots\) must have `fp`'s shape \(6, 5\)"),
    "fxy of the wrong shape": ({"fx": FP, "fxy": FP.T}, ValueError,
                               r"`fxy` \(derivatives at the knots\) must have `fp`'s shape"),
    "fxy with a NaN": ({"fxy": _with(FP, (2, 1), np.nan)}, ValueError,
                       r"`fxy` must be finite; `fxy\[2, 1\]`"),
    "fx with inf": ({"fx": _with(FP, (0, 4), -np.inf)}, ValueError,
                    r"`fx` must be finite; `fx\[0, 4\]`"),
    # queries (Interpolator2D: at the call)
    "y complex": ({"method": "linear", "y": Y + 0j}, TypeError, r"`y` must be real"),
    "x complex scalar": ({"method": "linear", "x": 1.5 + 1j}, TypeError, r"`x` must be real"),
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
@pytest.mark.parametrize("case", list(CASES_2D))
def test_2d_bad_input_raises_naming_the_argument(case, api):
    kwargs, exception, pattern = CASES_2D[case]
    with pytest.raises(exception, match=pattern):
        call_2d(api, **kwargs)


CASES_3D = {
    "zp not increasing": ({"zp": ZP[[0, 2, 1, 3]]}, ValueError,
                          r"`zp` must be strictly increasing.*`zp\[1\]` = 1\.4 but `zp\[2\]`"),
    "zp with a NaN": ({"zp": _with(ZP, 3, np.nan)}, ValueError, r"`zp` must be finite; `zp\[3\]`"),
    "zp complex": ({"zp": ZP + 0j}, TypeError, r"`zp` must be real"),
    "one knot in zp": ({"zp": ZP[:1], "fp": FP3[:, :, :1]}, ValueError,
                       r"`zp` needs at least 2 knots"),
    "fp with two dimensions": ({"fp": FP3[:, :, 0]}, ValueError,
                               r"`fp` must have at least 3 dimensions"),
    "fp.shape[2] != len(zp)": ({"fp": FP3[:, :, :3]}, ValueError,
                               r"`fp` must have len\(zp\) = 4 entries along axis 2"),
    "fz of the wrong shape": ({"fz": FP3[:, :, :3]}, ValueError,
                              r"`fz` \(derivatives at the knots\) must have `fp`'s shape"),
    "fyz of the wrong shape": ({"fyz": FP3[:5]}, ValueError,
                               r"`fyz` \(derivatives at the knots\) must have `fp`'s shape"),
    "fxyz with a NaN": ({"fxyz": _with(FP3, (1, 2, 3), np.nan)}, ValueError,
                        r"`fxyz` must be finite; `fxyz\[1, 2, 3\]`"),
    "fxz with linear": ({"method": "linear", "fxz": FP3}, ValueError,
                        r"`fxz` \(slopes\) needs a cubic method"),
    "period exceeded by zp": ({"period": (None, None, 1.5)}, ValueError,
                              r"`zp` must lie within one `period`"),
    "period: two entries for three axes": ({"period": (PX, None)}, ValueError,
                                           r"`period`=.* must be one value for all 3 axes"),
    "bc_type, every axis periodic": ({"bc_type": "clamped", "period": 6.0}, ValueError,
                                     r"`bc_type`='clamped' has no effect: every axis has a"),
    "extrap, every axis periodic": ({"period": 6.0, "extrap": True}, ValueError,
                                    r"`extrap`=True has no effect on periodic data"),
    "extrap: two entries for three axes": ({"extrap": (True, True)}, ValueError,
                                           r"`extrap`=.* or 3 options, one per axis"),
    "derivative: a pair": ({"method": "linear", "derivative": (1, 0)}, ValueError,
                           r"`derivative`=\(1, 0\) needs one order per axis \(3\)"),
    "z complex": ({"method": "linear", "z": np.array([0.5 + 0j])}, TypeError, r"`z` must be real"),
    "bc_type periodic, fp ends differ along z": (
        {"fp": FP3_XY_CLOSED, "bc_type": "periodic"}, ValueError,
        r"along axis 2 \(`zp`\) needs .* of `fp`"),
}  # fmt: skip


@pytest.mark.parametrize("api", ["interp3d", "Interpolator3D"])
@pytest.mark.parametrize("case", list(CASES_3D))
def test_3d_bad_input_raises_naming_the_argument(case, api):
    kwargs, exception, pattern = CASES_3D[case]
    with pytest.raises(exception, match=pattern):
        call_3d(api, **kwargs)


def test_good_input_of_the_same_kinds_is_accepted():
    """Controls for the cases above: the valid neighbours of the bad inputs pass every
    check.  `jax.eval_shape` runs the checks (the data are concrete numpy constants)
    without compiling."""
    ok = {
        "per-axis extrap": lambda: call_2d("interp2d", extrap=(True, (0.0, 1.0))),
        "extrap=False, every axis periodic": lambda: call_2d("interp2d", period=(PX, PY),
                                                             extrap=False),
        "bc_type periodic on y, a period on x": lambda: call_2d(
            "interp2d", fp=FP_CLOSED, bc_type="periodic", period=(PX, None)),
        "bc_type periodic, every axis with a period": lambda: call_2d(
            "interp2d", bc_type="periodic", period=(PX, PY)),
        "bc_type with zero values": lambda: call_2d("interp2d", bc_type=((1, 0.0), (2, 0))),
        "one knot on a periodic axis": lambda: call_2d("interp2d", yp=YP[:1], fp=FP[:, :1],
                                                       period=(None, PY)),
        "numpy int orders": lambda: call_2d("interp2d", derivative=(np.int64(1), 0)),
        "period as a numpy array": lambda: call_2d("interp2d", period=np.array([PX, PY])),
        "c at the ends of [0, 1]": lambda: call_2d("interp2d", method="cardinal", c=1.0),
        "3-D, a period on z": lambda: call_3d("interp3d", period=(None, None, 2.5)),
    }  # fmt: skip
    for name, call in ok.items():
        assert jax.eval_shape(call).shape == X.shape, name


# ------------------------------------------------------------------------- messages, extrap


def test_extrap_of_the_wrong_length_says_one_per_axis():
    with pytest.raises(ValueError, match=r"`extrap`.*(per axis|2 axes)"):
        interp2d(X, Y, XP, YP, FP, extrap=(True, True, True))


def test_three_scalars_in_3d_are_one_fill_per_axis():
    """Two numbers in 2-D are one (below, above) pair; three in 3-D can only be one
    fill per axis (the break-it review found them rejected)."""
    x, y, z = np.array([9.0, 1.0, 1.0]), np.array([1.0, 9.0, 1.0]), np.array([1.0, 1.0, 9.0])
    out = interp3d(x, y, z, XP, YP, ZP, FP3, "linear", extrap=(0.0, 1.0, 2.0))
    np.testing.assert_array_equal(out, [0.0, 1.0, 2.0])


def test_periodic_ends_message_names_the_line_whose_ends_differ():
    """The line is named by its index in ``fp`` (a defect this file found: the message
    counted flattened lines as "column k", columns ``fp`` does not have)."""
    fp = np.stack([FP_CLOSED, 2 * FP_CLOSED], axis=-1)  # (6, 5) grid, 2 columns
    fp[2, -1, 1] += 1.0  # the ends along y differ on line x = 2, column 1
    with pytest.raises(ValueError, match=re.escape("`fp[2, :, 1]` starts at")):
        interp2d(X, Y, XP, YP, fp, bc_type="periodic")
    fp3 = FP3.copy()
    fp3[:, :, -1] = fp3[:, :, 0]
    fp3[1, 2, -1] += 1.0  # no columns: one value per node
    with pytest.raises(ValueError, match=re.escape("axis 2 (`zp`)") + ".*" +
                       re.escape("`fp[1, 2, :]` starts at")):  # fmt: skip
        interp3d(X, Y, Y / 2, XP, YP, ZP, fp3, period=(None, None, 2.0))


# ------------------------------------------------------ bad numpy constants in transforms

BAD_CONSTANTS = {  # name → (function of the query with bad numpy constants, message pattern)
    "yp not increasing": (lambda q: interp2d(q, q, XP, YP[::-1], FP), r"`yp` must be strictly"),
    "fp ends differ along y": (
        lambda q: Interpolator2D(XP, YP, FP_X_CLOSED, bc_type="periodic")(q, q),
        r"along axis 1 \(`yp`\) needs .* of `fp`"),
    "period exceeded by yp": (lambda q: interp2d(q, q, XP, YP, FP, period=(None, 2.0)),
                              r"`yp` must lie within one `period`"),
    "NaN in fxy": (lambda q: interp2d(q, q, XP, YP, FP, fxy=_with(FP, (0, 0), np.nan)),
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


# ------------------------------------------------------------------- traced bad data → NaN

X_WRAP = np.array([0.3, 5.1, 6.6, -2.0])  # wrap (period PX) to 0.3, 5.1, 1.1, 3.5
ARGS = ("xp", "yp", "fp", "period", "c", "x")
# name → (the interpolant of the traced arguments, the arguments it depends on)
TRACED = {
    "interp2d cubic2": (lambda xp, yp, fp, period, c, x: interp2d(x, Y, xp, yp, fp),
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
    pytest.param({"yp": _with(YP, 2, 0.5)}, set(TRACED), id="yp with a repeated knot"),
    pytest.param({"yp": _with(YP, 3, np.nan)}, set(TRACED), id="yp with a NaN"),
    pytest.param({"period": np.float64(4.0)}, PERIODIC, id="period exceeded by the knots"),
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
    assert not failures, f"TRACED-BAD-DATA defect ({list(bad)}):\n" + "\n".join(failures)


def test_traced_good_data_gives_finite_values_and_gradients():
    """Control: the same program on good data gives numbers everywhere."""
    for name, (out, value, grads) in _run_traced().items():
        assert np.all(np.isfinite(out)) and np.isfinite(value), name
        for arg, g in grads.items():
            assert np.all(np.isfinite(g)), (name, arg)
            assert np.any(g != 0), (name, arg)  # every listed argument does matter


def test_traced_nan_in_fp_gives_nan_next_to_it():
    """fp[2, 2] (the node (1.5, 1.3)) is a corner of the cells of the points 1 and 2:
    NaN there, for the global and the local methods alike; no error."""
    results = _run_traced(fp=_with(FP, (2, 2), np.nan))
    for name, (out, value, _) in results.items():
        # The periodic configuration's queries wrap: its point 1 is (5.1, 0.9), in the
        # closing cell, away from the node; its point 2 wraps onto (1.1, 1.65).
        near = [2] if "period" in name else [1, 2]
        assert np.all(np.isnan(np.asarray(out)[near])), (name, out)
        assert np.isnan(value), name


@pytest.mark.parametrize("period", [4.0, -5.5, 4.5], ids=["exceeded", "negative",
                                                           "closed, ends differ"])
def test_traced_bad_period_poisons_the_breaks(period):
    """As in 1-D, invalid data make the breaks NaN too, so every gradient is NaN (a
    defect this file found: only the coefficients were, and 'nearest' had zero
    gradients w.r.t. xp, x and the period)."""
    @jax.jit
    def fit_and_grads(xp, fp, x, period):
        itp = Interpolator2D(xp, YP, fp, "nearest", period=(period, None))
        loss = lambda xp, x, period: jnp.sum(  # noqa: E731
            interp2d(x, Y, xp, YP, fp, "nearest", period=(period, None)))
        return itp.spline.breaks[0], jax.grad(loss, argnums=(0, 1, 2))(xp, x, period)

    breaks, grads = fit_and_grads(XP, FP, X, np.float64(period))  # the knots span 4.5
    failures = [] if np.all(np.isnan(breaks)) else [f"breaks along x: {breaks}"]
    failures += [f"d/d{name} = {g}" for name, g in zip(("xp", "x", "period"), grads)
                 if not np.all(np.isnan(g))]  # fmt: skip
    assert not failures, "\n".join(failures)
