"""The natural smoothing spline's Kalman smoother as one Pallas kernel: one fit per GPU
thread, the loops over the knots inside.

On a GPU a `lax.scan` is a host-driven loop (~8 µs a step, docs/architecture.md §6):
the three scans of `smoothing._smooth` would take ~25 ms a fit at n = 1e3 there, and
GCV's search runs them ~30 times.  This kernel runs the same recursion — the flat
prior's start at x_1, the filter, the Rauch–Tung–Striebel smoother with its variances,
the first knot — with the same steps (`smoothing_steps`), each thread on its own fit:
one column of data with its widths, noise variances and drift.  The filtered means and
covariances wait in the outputs (f, f', and four scratch rows) for the backward sweep,
which overwrites f and f' in place (its gains need only the filtered covariance).

`natural_fit` is the natural smoother's GPU twin (`smoothing._smooth` through
`per_platform`): complex data as real and imaginary columns, half precision in float32.
Tested on CPU in interpret mode against the scans (tests/test_smoothing_gpu.py), the
CUDA programs of the fits checked to be one Triton call each.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .._utils import minimize
from .._utils.dtypes import unit_of
from . import smoothing_steps as steps


def _sweeps(h, y, v_at, d, means, cov, visit, acc):
    """The filter forward and the smoother backward over rows ``(n, W)`` of W fits, n ≥ 3:
    ``visit(i, f_i, f'_i, Var f_i, acc)`` at knots i = n-1 … 0 with the smoothed values
    returns the next ``acc``; the last is returned.  ``v_at(i)``: the data's noise
    variances at knot i; ``d`` the drifts ``(W,)``; ``means``, ``cov`` (three refs each):
    rows that hold the filtered means (f, f', c) and covariances between the sweeps."""
    n = y.shape[0]

    def store(i, mean, state_cov):
        for ref, a in zip(means + cov, mean + state_cov):
            ref[i, :] = a

    start = steps.start(h[0, :], y[0, :], y[1, :], v_at(0), v_at(1), d)
    store(1, *start)

    def forward(i, state):
        mean, state_cov = state
        state_cov, _, coefficients = steps.covariance_step(state_cov, h[i - 1, :], v_at(i), d)
        mean = steps.mean_step(mean, h[i - 1, :], y[i, :], coefficients)
        store(i, mean, state_cov)
        return mean, state_cov

    after = lax.fori_loop(2, n, forward, start)
    after = after[0][:2], steps.covariance(after[1])
    acc = visit(n - 1, *after[0], after[1][0], acc)

    def backward(k, carry):
        i = n - 2 - k  # n-2 … 1
        (after_mean, after_cov), acc = carry
        filtered_cov = tuple(ref[i, :] for ref in cov)
        gains, carried, conditional = steps.smoother_gains(filtered_cov, h[i, :], d)
        filtered = tuple(ref[i, :] for ref in means)
        base = steps.smoother_base(filtered, carried)
        mean = steps.smoothed_mean(after_mean, filtered[:2], h[i, :], gains, base)
        smoothed_cov = steps.smoothed_cov(after_cov, conditional, gains)
        return (mean, smoothed_cov), visit(i, *mean, smoothed_cov[0], acc)

    (mean, smoothed_cov), acc = lax.fori_loop(0, n - 2, backward, (after, acc))
    first = steps.first_knot(mean, smoothed_cov, h[0, :], y[0, :], v_at(0), d)
    return visit(0, *first, acc)


def _smoother(h, y, v, drift, f, s, var, c, d, l, e):
    """f, f' and Var f of W fits into ``f``, ``s``, ``var`` (`_sweeps`'s rows)."""

    def visit(i, f_i, s_i, var_i, acc):
        f[i, :], s[i, :], var[i, :] = f_i, s_i, var_i
        return acc

    _sweeps(h, y, lambda i: v[i, :], drift[0, :], (f, s, c), (d, l, e), visit, ())


def _gcv_search(h, y, w, unit, scale, lam, f, s, c, d, l, e):
    """scipy's λ by GCV (`smoothing.gcv_lambda`) of W fits into ``lam`` ``(1, W)``: the
    Brent search of `_utils.minimize` on every lane at once, each evaluation of the
    criterion one run of `_sweeps`; lanes whose search has stopped keep their state."""
    n = y.shape[0]
    unit, scale = unit[0, :], scale[0, :]
    zero = jnp.zeros_like(unit)

    def criterion(lam):
        noise, drift = steps.balanced(lam / unit / unit / unit / scale, 1.0)

        def v_at(i):
            return noise / w[i, :]

        def visit(i, f_i, s_i, var_i, acc):
            residual, influence = acc
            return residual + jnp.square(y[i, :] - f_i), influence + var_i / v_at(i)

        rows = (f, s, c), (d, l, e)
        residual, influence = _sweeps(h, y, v_at, drift, *rows, visit, (zero, zero))
        return (residual / n) / jnp.square(1 - influence / n)

    def body(carry):
        state, steps_taken = carry
        going = minimize.searching(state, steps_taken, minimize.XATOL, minimize.MAX_STEPS)
        moved = minimize.step(criterion, state, minimize.XATOL)
        state = {key: jnp.where(going, moved[key], state[key]) for key in state}
        return state, steps_taken + 1

    def cond(carry):  # any lane searching (Triton lowers no reduce_or)
        return (
            jnp.max(
                minimize.searching(*carry, minimize.XATOL, minimize.MAX_STEPS).astype(jnp.int32)
            )
            > 0
        )

    state, _ = lax.while_loop(cond, body, (minimize.start(criterion, zero, zero + n), 1))
    lam[0, :] = state["xf"]


@partial(jax.jit, static_argnames="interpret")
def smooth_in_lanes(h, y, v, drift, *, interpret=False):
    """f, f' and Var(f_i | y) ``(B, n)`` of B natural smoothing fits, n ≥ 3: widths ``h``
    ``(B, n-1)``, data ``y`` and noise variances ``v`` ``(B, n)``, drifts ``(B,)``
    (`smoothing._smooth`'s arguments, one column each)."""
    from .._linalg.kernels import _pallas  # when lowered: not by `import splines` (as gpu.py)

    n = y.shape[-1]
    rows = (h.T, y.T, v.T, drift[None, :])
    f, s, var, *_ = _pallas.call_in_lanes(
        _smoother,
        rows,
        fills=(1, 0, 1, 1),  # padding lanes: unit widths, noises and drift, zero data
        outputs=[(n,)] * 7,
        dtype=y.dtype,
        interpret=interpret,
        name="splines_pallas_smoother",
    )
    return f.T, s.T, var.T


def natural_fit(batch_ndim, h, y, v, drift, *, variances, interpret=False):
    """`smoothing._smooth` with natural ends, n ≥ 3, for arguments with one leading batch
    shape of ``batch_ndim`` axes: f, f' ``(*batch, n, k)`` and, with ``variances``,
    Var(f_i | y) ``(*batch, n)``.  One lane per column of each fit."""
    batch, (n, k) = y.shape[:batch_ndim], y.shape[batch_ndim:]
    out_dtype = y.dtype
    if k == 0:  # the variances need a lane: one of zeros, its f and f' dropped
        f, s, *var = natural_fit(batch_ndim, h, jnp.zeros(y.shape[:-1] + (1,), y.dtype), v,
                                 drift, variances=variances, interpret=interpret)  # fmt: skip
        return (f[..., :0], s[..., :0], *var)
    complex_data = jnp.issubdtype(out_dtype, jnp.complexfloating)
    if complex_data:  # the smoother is linear in the data, its gains real
        y = jnp.concatenate([jnp.real(y), jnp.imag(y)], axis=-1)
    dtype = jnp.promote_types(y.dtype, jnp.float32)  # Triton computes in 32 bits or more
    columns = y.shape[-1]

    def per_column(a, core):
        return jnp.broadcast_to(a[..., None, :], batch + (columns, core)).reshape(-1, core)

    lanes = (
        per_column(h.astype(dtype), n - 1),
        jnp.moveaxis(y.astype(dtype), -1, -2).reshape(-1, n),
        per_column(v.astype(dtype), n),
        jnp.broadcast_to(drift.astype(dtype)[..., None], batch + (columns,)).reshape(-1),
    )
    f, s, var = smooth_in_lanes(*lanes, interpret=interpret)
    f, s = (jnp.moveaxis(a.reshape(batch + (columns, n)), -2, -1) for a in (f, s))
    if complex_data:
        f, s = (a[..., :k] + 1j * a[..., k:] for a in (f, s))
    out = (f.astype(out_dtype), s.astype(out_dtype))
    if variances:
        out += (var.reshape(batch + (columns, n))[..., 0, :].astype(v.dtype),)
    return out


@partial(jax.jit, static_argnames="interpret")
def gcv_search_in_lanes(h, y, w, unit, scale, *, interpret=False):
    """λ ``(B,)`` by GCV of B fits, n ≥ 3: widths ``h`` ``(B, n-1)``, data ``y`` (scaled
    as `smoothing._criterion` scales it) and weights ``w`` ``(B, n)``, the fits' units
    ``unit``, ``scale`` ``(B,)`` (`smoothing.gcv_lambda`'s arguments, one column each)."""
    from .._linalg.kernels import _pallas  # when lowered: not by `import splines` (as gpu.py)

    n = y.shape[-1]
    rows = (h.T, y.T, w.T, unit[None, :], scale[None, :])
    lam, *_ = _pallas.call_in_lanes(
        _gcv_search,
        rows,
        fills=(1, 0, 1, 1, 1),
        outputs=[(1,)] + [(n,)] * 6,
        dtype=y.dtype,
        interpret=interpret,
        name="splines_pallas_gcv_search",
    )
    return lam[0]


def gcv_search(batch_ndim, widths, column, w, unit, scale, *, interpret=False):
    """`smoothing._search` for real columns, n ≥ 3, with one leading batch shape of
    ``batch_ndim`` axes: λ ``(*batch,)``, one lane per search."""
    batch = column.shape[:batch_ndim]
    dtype = jnp.promote_types(column.dtype, jnp.float32)  # Triton computes in 32 bits or more
    column = column / unit_of(jnp.max(jnp.abs(column), axis=-1, keepdims=True))
    lanes = [a.astype(dtype).reshape((-1,) + a.shape[batch_ndim:])
             for a in (widths, column, w, unit, scale)]  # fmt: skip
    lam = gcv_search_in_lanes(*lanes, interpret=interpret)
    return lam.reshape(batch).astype(widths.dtype)
