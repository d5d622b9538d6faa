"""The natural smoothing spline's Kalman smoother as one Pallas kernel: one fit per GPU
thread, the loops over the knots inside.

On a GPU a `lax.scan` is a host-driven loop (~8 µs a step, docs/architecture.md §6):
the scans of `smoothing._smooth` cost ~25 ms a fit at n = 1e3 there.  This kernel runs
the same recursion — the flat prior's start at x_1, the filter, the Rauch–Tung–Striebel
smoother with its variances, the first knot — with the same steps (`smoothing_steps`),
each thread on its own fit: one column of data with its widths, noise variances and
drift.  The filtered means and covariances wait in the outputs
(f, f', and three scratch rows) for the backward sweep, which overwrites f and f' in
place and recomputes each prediction from the filtered covariance instead of storing it.

`natural_fit` is the natural smoother's GPU twin (`smoothing._smooth` through
`per_platform`): complex data as real and imaginary columns, half precision in float32.
Tested on CPU in interpret mode against the scans (tests/test_smoothing_gpu.py), the
CUDA programs of the fits checked to be one Triton call each.
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .._linalg.kernels import _pallas
from . import smoothing_steps as steps


def _smoother(h, y, v, drift, f, s, var, p00, p01, p11):
    """Rows ``(n, W)`` of W fits (``h`` ``(n-1, W)``, ``drift`` ``(1, W)``), n ≥ 3."""
    n = y.shape[0]
    d = drift[0, :]
    cov = (p00, p01, p11)

    def store(i, mean, state_cov):
        f[i, :], s[i, :] = mean
        for ref, c in zip(cov, state_cov):
            ref[i, :] = c

    def load_cov(i):
        return tuple(ref[i, :] for ref in cov)

    start = steps.start(h[0, :], y[0, :], y[1, :], v[0, :], v[1, :], d)
    store(1, *start)

    def forward(i, state):
        mean, state_cov = state
        state_cov, _, gains = steps.covariance_step(state_cov, h[i - 1, :], v[i, :], d)
        mean = steps.mean_step(mean, h[i - 1, :], y[i, :], gains)
        store(i, mean, state_cov)
        return mean, state_cov

    mean, last_cov = lax.fori_loop(2, n, forward, start)
    var[n - 1, :] = last_cov[0]

    def backward(k, after):
        i = n - 2 - k  # n-2 … 1
        filtered_cov = load_cov(i)
        predicted = steps.predict_cov(filtered_cov, h[i, :], d)
        gains = steps.smoother_gains(filtered_cov, predicted, h[i, :])
        mean = steps.smoothed_mean(after[0], (f[i, :], s[i, :]), h[i, :], gains)
        smoothed_cov = steps.smoothed_cov(after[1], filtered_cov, predicted, gains)
        f[i, :], s[i, :] = mean
        var[i, :] = smoothed_cov[0]
        return mean, smoothed_cov

    mean, smoothed_cov = lax.fori_loop(0, n - 2, backward, (mean, last_cov))
    f[0, :], s[0, :], var[0, :] = steps.first_knot(mean, smoothed_cov, h[0, :], y[0, :], v[0, :], d)


@partial(jax.jit, static_argnames="interpret")
def smooth_in_lanes(h, y, v, drift, *, interpret=False):
    """f, f' and Var(f_i | y) ``(B, n)`` of B natural smoothing fits, n ≥ 3: widths ``h``
    ``(B, n-1)``, data ``y`` and noise variances ``v`` ``(B, n)``, drifts ``(B,)``
    (`smoothing._smooth`'s arguments, one column each)."""
    n = y.shape[-1]
    rows = (h.T, y.T, v.T, drift[None, :])
    f, s, var, *_ = _pallas.call_in_lanes(
        _smoother,
        rows,
        fills=(1, 0, 1, 1),  # padding lanes: unit widths, noises and drift, zero data
        outputs=[(n,)] * 6,
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
