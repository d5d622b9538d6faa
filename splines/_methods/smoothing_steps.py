"""The steps of the smoothing spline's Kalman filter and Rauch–Tung–Striebel smoother
(`smoothing`'s module docstring), elementwise in one knot's means and covariances: the
scans of `smoothing` and the GPU kernel of `smoothing_gpu` run the same steps.

A 2×2 covariance is carried as its three entries (p00, p01, p11); a mean as (f, s),
each of any shape that broadcasts against the covariances (columns, lanes).
"""

import jax.numpy as jnp


def balanced(noise, drift):
    """The noise scales divided by the larger (their ratio λ is what matters), so that
    neither overflows: λ = ∞ (noise = inf) is (1, 0), the least-squares line."""
    infinite = jnp.isinf(noise)
    larger = jnp.maximum(noise, drift)
    larger = jnp.where(infinite | (larger == 0), 1, larger)
    return jnp.where(infinite, 1, noise / larger), jnp.where(infinite, 0, drift / larger)


def start(h, y0, y1, v0, v1, drift):
    """The state at x_1 given y_0, y_1 and a flat prior at x_0: (f, s), (p00, p01, p11)."""
    d1, d0 = v1, v0 + drift * h**3 / 3
    return (y1, (y1 - y0) / h), (d1, d1 / h, (d1 + d0) / (h * h))


def predict(mean, cov, h, drift):
    """``T a`` and ``T P Tᵀ + ρ Q_h``."""
    return predict_mean(mean, h), predict_cov(cov, h, drift)


def predict_mean(mean, h):
    f, s = mean
    return f + h * s, s


def predict_cov(cov, h, drift):
    p00, p01, p11 = cov
    return (
        p00 + 2 * h * p01 + h * h * p11 + drift * h**3 / 3,
        p01 + h * p11 + drift * h * h / 2,
        p11 + drift * h,
    )


def covariance_step(cov, h, v, drift):
    """The filtered covariance at the next knot, its prediction P⁻ and the gains
    K = P⁻ e_0 / (P⁻_00 + v) (v the datum's noise variance)."""
    q00, q01, q11 = predicted = predict_cov(cov, h, drift)
    total = q00 + v  # the innovation's variance
    new = (q00 * v / total, q01 * v / total, q11 - q01 * q01 / total)
    return new, predicted, (q00 / total, q01 / total)


def mean_step(mean, h, y, gains):
    """The filtered mean at the next knot: â = T a + K (y − (T a)_0)."""
    mf, ms = predict_mean(mean, h)
    innovation = y - mf
    return mf + gains[0] * innovation, ms + gains[1] * innovation


def smoother_gains(cov, predicted, h):
    """G = P_i Tᵀ (P⁻_{i+1})⁻¹ from the filtered P_i and the predicted P⁻_{i+1}:
    P Tᵀ = [[c00 + h c01, c01], [c01 + h c11, c11]], (P⁻)⁻¹ = adj(P⁻) / det."""
    (c00, c01, c11), (q00, q01, q11) = cov, predicted
    det = q00 * q11 - q01 * q01
    t00, t01, t10, t11 = c00 + h * c01, c01, c01 + h * c11, c11
    g00, g01 = (t00 * q11 - t01 * q01) / det, (t01 * q00 - t00 * q01) / det
    g10, g11 = (t10 * q11 - t11 * q01) / det, (t11 * q00 - t10 * q01) / det
    return g00, g01, g10, g11


def smoothed_mean(after, filtered, h, gains):
    """a_i = â_i + G (a_{i+1} − T â_i)."""
    (fa, sa), (mf, ms), (g00, g01, g10, g11) = after, filtered, gains
    df, ds = fa - (mf + h * ms), sa - ms
    return mf + g00 * df + g01 * ds, ms + g10 * df + g11 * ds


def smoothed_cov(after, cov, predicted, gains):
    """P_i^s = P_i + G (P^s_{i+1} − P⁻_{i+1}) Gᵀ."""
    (a00, a01, a11), (c00, c01, c11), (q00, q01, q11) = after, cov, predicted
    g00, g01, g10, g11 = gains
    e00, e01, e11 = a00 - q00, a01 - q01, a11 - q11
    r00 = g00 * (g00 * e00 + g01 * e01) + g01 * (g00 * e01 + g01 * e11)
    r01 = g00 * (g10 * e00 + g11 * e01) + g01 * (g10 * e01 + g11 * e11)
    r11 = g10 * (g10 * e00 + g11 * e01) + g11 * (g10 * e01 + g11 * e11)
    return c00 + r00, c01 + r01, c11 + r11


def first_knot(mean, cov, h, y0, v0, drift):
    """a_0 from the smoothed a_1 = ``mean`` and y_0, with a_0 | a_1 ~ N(T⁻¹ a_1,
    ρ [[h³/3, −h²/2], [−h²/2, h]]): f_0, f'_0 and Var f_0 (None without the smoothed
    covariance ``cov`` of a_1, ``()``)."""
    (f1, s1), c00, c01 = mean, drift * h**3 / 3, -drift * h * h / 2
    total = c00 + v0
    prior = f1 - h * s1
    innovation = y0 - prior
    f0, s0 = prior + c00 / total * innovation, s1 + c01 / total * innovation
    if not cov:
        return f0, s0, None
    var1, cov1, var_s1 = cov
    # Var f_0 = c00 v0 / total + (v0 / total)² Var(f_1 − h s_1)
    carried = var1 - 2 * h * cov1 + h * h * var_s1
    return f0, s0, c00 * v0 / total + jnp.square(v0 / total) * carried
