"""NaN and ±inf queries give NaN, or the fill where they are out of range.

Required: a NaN query gives NaN — every method, every derivative order 0..5
(also past the method's degree, where a finite query gives 0), every `extrap`
mode, with and without a `period`, through `interp1d` and `Interpolator1D`, in
f32 and f64.  Under a period ±inf gives NaN (it has no place in the period).
Without a period, ±inf is out of range: NaN with ``extrap=False``, the fill
value with a fill, and with ``extrap=True`` NaN for every method of degree ≥ 1
and every order (an extended polynomial has no value at ±inf; scipy's `PPoly`
also gives NaN); "nearest"'s extended constant keeps its end value there
(derivatives 0), as scipy's `interp1d` and `RegularGridInterpolator` and
interpax give.
Finite queries in the same array as NaNs are unaffected: they equal the same
call on an array whose non-finite entries were replaced by finite ones.

`extrap` together with `period` is an error (test_errors.py), so periodic cases
use the default ``extrap=False`` only.

The scipy-compatible classes (`CubicSpline`): a NaN query gives NaN at every
order and for every ``extrapolate``, so does ±inf where it is outside or
wrapped, also under `jit` and `grad`; a NaN integration bound gives NaN (scipy
raises).

Compilation dominates: the combinations for one dtype are traced into one
jitted program (`PROGRAMS`; all of them in f64, a reduced set in f32), which
takes the mixed queries and their finite replacement in one call; the
hypothesis test reuses it.
"""

import _unit_splines as unit
import hypothesis.strategies as st
import jax
import numpy as np
import pytest
from hypothesis import Phase, given, settings

from splines import CubicSpline, Interpolator1D, interp1d

# akima stands for the local cubic methods: the same pieces, and the same evaluation.
METHODS = ["nearest", "linear", "cubic2", "akima"]
DEGREE = {"nearest": 0, "linear": 1, "cubic2": 3, "akima": 3}
ORDERS = tuple(range(6))
FILL, BELOW, ABOVE = 2.5, -7.0, 9.0
EXTRAPS = {"nan": False, "extend": True, "fill": FILL, "pair": (BELOW, ABOVE)}
PERIOD = 6.0
XP = np.arange(5.0)
FP = np.array([0.0, 1.0, 4.0, 9.0, 16.0])
L = 12  # every query array has this length (one compiled program per dtype)
MIXED = np.array([np.nan, -1.0, 0.5, np.nan, 2.5, np.inf, 3.9, -np.inf, 7.0, np.nan, 1.25, 4.0])
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)  # a trace-time error would re-trace
DTYPES = [pytest.param(np.float32, id="f32"), pytest.param(np.float64, id="f64")]


def _orders(method, full):
    return ORDERS if full else (0, DEGREE[method] + 1)


def _configs(full):
    """(api, method, mode, derivative): mode is an `EXTRAPS` name or "period".

    full (f64): every order 0..5 through `Interpolator1D` with ``extrap=False``
    and with the period, and through `interp1d` with ``extrap=False``; every
    other (api, mode) pair at order 0 and the first order past the degree.
    Reduced (f32): order 0 and the first past the degree, modes nan/pair/period.
    """
    modes = list(EXTRAPS) + ["period"] if full else ["nan", "pair", "period"]
    every = {("Interpolator1D", "nan"), ("Interpolator1D", "period"), ("interp1d", "nan")}
    for method in METHODS:
        for mode in modes:
            for api in ("Interpolator1D", "interp1d"):
                orders = _orders(method, full and (api, mode) in every)
                for k in orders:
                    yield api, method, mode, k


CONFIGS = {True: list(_configs(True)), False: list(_configs(False))}


def _kwargs(mode):
    return {"period": PERIOD} if mode == "period" else {"extrap": EXTRAPS[mode]}


def _program(full):
    """One jitted program: every configuration on the mixed queries, and the
    fitted interpolant on their finite replacement (the neighbour reference)."""

    def run(x_mixed, x_finite, xp, fp):
        fitted, outs = {}, []
        for api, method, mode, k in CONFIGS[full]:
            if (method, mode) not in fitted:
                fitted[method, mode] = Interpolator1D(xp, fp, method, **_kwargs(mode))
            f = fitted[method, mode]
            if api == "interp1d":
                mixed = interp1d(x_mixed, xp, fp, method, derivative=k, **_kwargs(mode))
            else:
                mixed = f(x_mixed, k)
            neighbour = k in _orders(method, full=False)  # reference only where it is cheap
            outs.append((mixed, f(x_finite, k) if neighbour else None))
        return outs

    return jax.jit(run)


PROGRAMS = {np.float64: _program(full=True), np.float32: _program(full=False)}


def _finite_replacement(x):
    return np.where(np.isfinite(x), x, 0.75).astype(x.dtype)


_TRACE_ERRORS = {}  # dtype → what tracing its program raised (do not re-trace per example)


def _run(x, dtype):
    x = np.asarray(x, dtype)
    if dtype in _TRACE_ERRORS:
        raise AssertionError(f"tracing failed before: {_TRACE_ERRORS[dtype]!r}")
    try:
        outs = PROGRAMS[dtype](x, _finite_replacement(x), XP.astype(dtype), FP.astype(dtype))
    except Exception as e:
        _TRACE_ERRORS[dtype] = e
        raise
    configs = CONFIGS[dtype is np.float64]
    return x, {
        c: (np.asarray(a), None if b is None else np.asarray(b)) for c, (a, b) in zip(configs, outs)
    }


def _label(c, dtype):
    api, method, mode, k = c
    where = f"period={PERIOD}" if mode == "period" else f"extrap={EXTRAPS[mode]!r}"
    return f"{api}, {method}, derivative {k}, {where}, {np.dtype(dtype).name}"


def _expected_nonfinite(x, c):
    """What a non-finite query must give: NaN, the fill, or nearest's end value."""
    _, method, mode, k = c
    expected = np.full(x.shape, np.nan)
    inf = np.isinf(x)
    if mode == "extend" and method == "nearest":
        expected[x == -np.inf] = FP[0] if k == 0 else 0.0
        expected[x == np.inf] = FP[-1] if k == 0 else 0.0
    if mode == "fill":
        expected[inf] = FILL
    if mode == "pair":
        expected[x == -np.inf] = BELOW
        expected[x == np.inf] = ABOVE
    return expected.astype(object)


def _same(mixed, reference, c, dtype):
    """Interpolator1D: the same fitted object, so bitwise equal.  interp1d is
    compared with the fitted interpolant of the same options (one fit fewer to
    compile), to rounding: 1e-12 (f64) / 2e-6 (f32) of the output scale."""
    if c[0] == "Interpolator1D":
        return np.array_equal(mixed, reference, equal_nan=True)
    rtol = 1e-12 if dtype is np.float64 else 2e-6
    scale = max(float(np.max(np.abs(np.nan_to_num(reference)), initial=0.0)), 1.0)
    return np.allclose(mixed, reference, rtol=0, atol=rtol * scale, equal_nan=True)


def _failures(x, outs, dtype):
    failures = []
    finite = np.isfinite(x)
    for c, (mixed, reference) in outs.items():
        label = _label(c, dtype)
        if mixed.shape != x.shape or mixed.dtype != dtype:
            failures.append(f"{label}: shape/dtype {mixed.shape}/{mixed.dtype}")
            continue
        expected = _expected_nonfinite(x, c)
        for i in np.flatnonzero(~finite):
            want, got = expected[i], mixed[i]
            if want is None:
                continue
            defect = "NaN-QUERY" if np.isnan(x[i]) else "INF-QUERY"
            if np.isnan(want) and not np.isnan(got):
                failures.append(f"{defect} defect ({label}): x={x[i]} gave {got}, expected NaN")
            elif not np.isnan(want) and got != want:
                failures.append(f"{defect} defect ({label}): x={x[i]} gave {got}, expected {want}")
        if reference is not None and not _same(mixed[finite], reference[finite], c, dtype):
            failures.append(
                f"NEIGHBOUR defect ({label}): finite queries next to NaN/inf changed: "
                f"{mixed[finite]} vs {reference[finite]} from the finite-only call"
            )
    return failures


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_and_inf_queries_every_configuration(dtype):
    x, outs = _run(MIXED, dtype)
    assert len(outs) == len(CONFIGS[dtype is np.float64])
    failures = _failures(x, outs, dtype)
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)


@pytest.mark.parametrize("dtype", DTYPES)
def test_finite_reference_is_sane(dtype):
    """Control: the finite queries give numbers (inside, or filled/extended/wrapped),
    and past the degree the derivative of a finite query is 0."""
    x, outs = _run(MIXED, dtype)
    finite = np.isfinite(x)
    inside = finite & (x >= XP[0]) & (x <= XP[-1])
    for c, (_, reference) in outs.items():
        api, method, mode, k = c
        if reference is None:
            continue
        must_be_finite = finite if mode != "nan" else inside
        assert np.all(np.isfinite(reference[must_be_finite])), _label(c, dtype)
        if k > DEGREE[method]:
            assert np.all(reference[inside] == 0), _label(c, dtype)


EAGER_CASES = [  # (method, derivative, options): two, each its own compiled programs
    ("cubic2", 4, {"period": PERIOD}),
    ("linear", 2, {"extrap": (BELOW, ABOVE)}),
]


@pytest.mark.parametrize("method, k, kwargs", EAGER_CASES, ids=repr)
def test_eager_calls_outside_any_jit(method, k, kwargs):
    """The same rules when the public functions are called directly (f64)."""
    x = MIXED
    nan, inf = np.isnan(x), np.isinf(x)
    outs = {
        "interp1d": interp1d(x, XP, FP, method, derivative=k, **kwargs),
        "Interpolator1D": Interpolator1D(XP, FP, method, **kwargs)(x, k),
    }
    for api, out in outs.items():
        out = np.asarray(out)
        what = f"(eager {api}, {method}, derivative {k}, {kwargs})"
        assert np.all(np.isnan(out[nan])), f"NaN-QUERY defect {what}: {out[nan]}"
        if "period" in kwargs:
            assert np.all(np.isnan(out[inf])), f"INF-QUERY defect {what}: {out[inf]}"
        elif kwargs["extrap"] is True:  # (no "nearest" case here)
            assert np.all(np.isnan(out[inf])), f"INF-QUERY defect {what}: {out[inf]}"
        else:
            fill = kwargs["extrap"]
            below, above = (np.nan, np.nan) if fill is False else np.broadcast_to(fill, 2)
            want = np.where(x[inf] < 0, below, above)
            np.testing.assert_array_equal(out[inf], want, err_msg=f"INF-QUERY defect {what}")


@settings(max_examples=30, deadline=None, database=None, phases=NO_SHRINK)
@given(
    values=st.lists(st.floats(-10.0, 10.0), min_size=L, max_size=L),
    nan_mask=st.lists(st.booleans(), min_size=L, max_size=L),
    f32=st.booleans(),
)
def test_property_nan_exactly_where_the_query_is_nan(values, nan_mask, f32):
    dtype = np.float32 if f32 else np.float64
    x = np.where(nan_mask, np.nan, values)
    x, outs = _run(x, dtype)
    nan = np.isnan(x)
    for c, (mixed, reference) in outs.items():
        if c[2] == "nan":
            continue  # finite queries out of range are NaN there too
        label = _label(c, dtype)
        np.testing.assert_array_equal(
            np.isnan(mixed), nan, err_msg=f"NaN-QUERY defect ({label}): NaN pattern differs"
        )
        if reference is not None:
            assert _same(mixed[~nan], reference[~nan], c, dtype), f"NEIGHBOUR defect ({label})"


def test_grid_infinite_queries_follow_the_1d_rule():
    """On a grid, per axis: NaN on an extended axis (nearest: its end value), the fill
    on a filled one, NaN under a period; NaN queries NaN on any axis."""
    from splines import interp2d

    xp, yp = np.arange(5.0), np.arange(4.0)
    fp = np.outer(FP, yp + 1)
    x = np.array([np.inf, -np.inf, 1.5, np.nan])
    methods = ["nearest", "linear", "cubic2", "akima"]
    options = [{"extrap": True}, {"extrap": ((FILL, FILL), False)}, {"period": (PERIOD, None)}]
    outs = jax.jit(lambda x: [[interp2d(x, 1.5, xp, yp, fp, m, **o) for o in options]
                              for m in methods])(x)  # fmt: skip
    for method, (extended, filled, wrapped) in zip(methods, outs):
        extended, filled, wrapped = (np.asarray(a) for a in (extended, filled, wrapped))
        if method == "nearest":
            ends = interp2d(xp[[-1, 0]], 1.5, xp, yp, fp, method)  # the edge cells' values
            np.testing.assert_array_equal(extended[[0, 1]], ends)
            assert np.isnan(extended[3]) and np.isfinite(extended[2])
        else:
            assert np.all(np.isnan(extended[[0, 1, 3]])) and np.isfinite(extended[2]), method
        np.testing.assert_array_equal(filled[[0, 1]], FILL, err_msg=method)
        assert np.all(np.isnan(wrapped[[0, 1, 3]])), method


# ------------------------------------------------------------ the scipy-compatible classes


def test_cubic_spline_nan_and_infinite_queries():
    spline = CubicSpline(unit.X, unit.Y)
    for extrapolate in (True, False, "periodic"):
        out = np.asarray(spline(np.array([np.nan, np.inf, -np.inf]), (0, 1, 3, 4), extrapolate))
        assert np.all(np.isnan(out[:, 0]))
        if extrapolate is not True:  # ±inf is outside: NaN; wrapped: NaN
            assert np.all(np.isnan(out))
    assert np.isnan(jax.jit(lambda q: spline(q))(np.nan))
    assert np.isnan(jax.grad(lambda q: spline(q, extrapolate="periodic"))(np.inf))


def test_cubic_spline_nan_integration_bounds_give_nan():
    spline = CubicSpline(unit.X, unit.Y)
    for extrapolate in (True, False, "periodic"):
        for a, b in [(np.nan, 1.0), (0.0, np.nan)]:
            assert np.isnan(spline.integrate(a, b, extrapolate))  # scipy raises
    assert np.isnan(jax.jit(lambda a, b: spline.integrate(a, b))(np.nan, 1.0))
    assert np.isnan(jax.grad(lambda a: spline.integrate(a, 0.5, "periodic"))(np.nan))
