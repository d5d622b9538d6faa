"""The steps of the smoothing spline's Kalman filter and Rauch–Tung–Striebel smoother
(`smoothing`'s module docstring), elementwise in one knot's means and covariances: the
scans of `smoothing` and the GPU kernel of `smoothing_gpu` run the same steps.

A filtered covariance is carried in the coordinates z = L⁻¹ a, L = [[1, 0], [l, 1]], in
which its two components are independent: (d, l, e) — Var f, the regression of f' on f,
the variance of f' given f (P = L diag(d, e) Lᵀ).  Observing f then changes d alone, and
every step is a sum of terms ≥ 0, so a state nearly unknown in one direction (a datum of
tiny weight at the start) cancels nowhere; no product of two variances is formed (their
ratios are, `_prediction` and `_scaled`), so nothing overflows.

A filtered mean is carried as (f, f', c), c = f' − l f.  f' follows its own update, as
accurate as the data's increments; c never cancels, and takes over where f' is all but
unknown and may be a huge value of tiny weight (the end rows of `smoothing_ends` feed such
data in): the filter re-anchors f' on c where a datum first pins the slope down
(`mean_step`), the smoother takes its mean from c where the filtered one is huge
(`smoothed_mean`).
Smoothed states are carried as (f, f') and the covariance's entries (p00, p01, p11).
Each entry may have any shape that broadcasts against the covariances (columns, lanes).
"""

import jax.numpy as jnp

from .._linalg.kernels.thomas_scan import divider


def balanced(noise, drift):
    """The noise scales divided by the larger (their ratio λ is what matters), so that
    neither overflows: λ = ∞ (noise = inf) is (1, 0), the least-squares line."""
    infinite = jnp.isinf(noise)
    larger = jnp.maximum(noise, drift)
    larger = jnp.where(infinite | (larger == 0), 1, larger)
    return jnp.where(infinite, 1, noise / larger), jnp.where(infinite, 0, drift / larger)


def start(h, y0, y1, v0, v1, drift):
    """The state at x_1 given y_0, y_1 and a flat prior at x_0: f = y_1, f' = (y_1 −
    y_0)/h, l = 1/h and c = −y_0/h.  A variance e past the largest float (y_0 of tiny
    weight) is the largest: the information 1/e it stands for is below rounding."""
    e = (v0 + drift * h**3 / 3) / (h * h)
    return (y1, (y1 - y0) / h, -y0 / h), (v1, 1 / h, jnp.minimum(e, jnp.finfo(e.dtype).max))


def predict(mean, cov, h, drift):
    """The state at the next knot with no datum there."""
    predicted, (keep, mix) = _prediction(cov, h, drift)
    f, s, c = mean
    return (f + h * s, s, keep * c + mix * f), predicted


def predicted_value(mean, h):
    """f at the next knot before its datum: f + h f'."""
    return mean[0] + h * mean[1]


def _prediction(cov, h, drift):
    """``P⁻ = T P Tᵀ + ρ Q_h`` as (q00, q01/q00, det/q00), with u = h l and a = 1 + u:

        q00 = a² d + h² e + ρ h³/3,   q01 = a l d + h e + ρ h²/2,
        det = d e + ρ² h⁴/12 + ρ (d h (1 + u + u²/3) + e h³/3),

    each term ≥ 0 but q01's, and d e formed as d (e/q00): no product of two variances.
    Also c⁻ = f' − l⁻ f⁻ of the predicted mean as (keep, mix), c⁻ = keep c + mix f:
    c (1 − h l⁻) + f (l − a l⁻) multiplied out, (a d − ρ h³/6)/q00 and
    −(h e + ρ h² (1/2 + u/6))/q00.  The loops' one division is `divider`'s."""
    d, l, e = cov
    h2, u = h * h, h * l
    a = 1 + u
    q00 = a * a * d + h2 * e + drift * h2 * h / 3
    over_q00 = divider(q00)
    by_d, by_e, by_drift = over_q00(d), over_q00(e), over_q00(drift * jnp.ones_like(q00))
    l_next = over_q00(a * l * d + h * e + drift * h2 / 2)
    e_next = d * by_e + drift * (h2 * h2 / 12 * by_drift + h * (1 + u + u * u / 3) * by_d
                                 + h2 * h / 3 * by_e)  # fmt: skip
    keep = a * by_d - h2 * h / 6 * by_drift
    mix = -(h * by_e + h2 * (0.5 + u / 6) * by_drift)
    return (q00, l_next, e_next), (keep, mix)


def _scaled(cov, h, drift):
    """With F = d + ρ h³ and S = e + ρ h (the scales of f's and f''s variances over the
    cell): the four ratios (d/F, e/S, ρ h³/F, ρ h/S), each in [0, 1], and det P⁻ / (F S)
    from them, in [1/12, 1 + u + u²/3]: no product of two variances is formed, so
    nothing overflows or underflows however far apart they are (a datum of tiny weight)."""
    d, l, e = cov
    u, h3 = h * l, h * h * h
    f_scale, s_scale = d + drift * h3, e + drift * h
    d_, e_, rf, rs = d / f_scale, e / s_scale, drift * h3 / f_scale, drift * h / s_scale
    det = d_ * e_ + rf * rs / 12 + d_ * rs * (1 + u + u * u / 3) + rf * e_ / 3
    return (d_, e_, rf, rs), det


def covariance_step(cov, h, v, drift):
    """The filtered covariance at the next knot, the predicted Var f there (q00) and the
    mean step's coefficients (`mean_step`), given a datum of noise variance v there.
    Observing f leaves the regression of f' on f and its residual variance as they were:
    only d changes (`_observed`).  ``anchored``: the datum shrinks the variance of f',
    e + l² d, more than `ANCHOR`-fold (`mean_step`)."""
    (q00, l, e), (keep, mix) = _prediction(cov, h, drift)
    prior, datum, d = _observed(q00, v)
    anchored = e + l * l * q00 > ANCHOR * (e + l * l * d)
    return (d, l, e), q00, (keep, mix, l, prior, datum, anchored)


def _observed(prior_variance, noise):
    """A value of variance ``prior_variance`` observed with noise of variance ``noise``:
    the weights of the prior and of the datum in the posterior mean, noise / total and
    prior_variance / total, and the posterior variance prior_variance noise / total,
    formed as min · (max / total) so that it neither overflows nor flushes."""
    over_total = divider(prior_variance + noise)
    prior, datum = over_total(noise), over_total(prior_variance)
    return prior, datum, jnp.minimum(prior_variance, noise) * jnp.maximum(prior, datum)


ANCHOR = 16  # past this shrink the update's own terms outgrow f' by ~4x: c is the better


def mean_step(mean, h, y, coefficients):
    """The filtered mean (f, f', c) at the next knot: f the convex combination of the
    prediction f + h f' and the datum y, with weights v and q00 (the Kalman update); c
    the prediction's (`_prediction`; observing f leaves it); f' = f'⁻ + K₁ (y − f⁻),
    or c + l f where the datum anchors f' (`covariance_step`): the slope was all but
    unknown, and f'⁻ may be a huge value of tiny weight that the update would cancel."""
    keep, mix, l, prior, datum, anchored = coefficients
    f, s, c = mean
    predicted = f + h * s
    new_f, new_c = prior * predicted + datum * y, keep * c + mix * f
    new_s = jnp.where(anchored, new_c + l * new_f, s + l * datum * (y - predicted))
    return new_f, new_s, new_c


def covariance(cov):
    """(d, l, e) as the covariance's entries (p00, p01, p11)."""
    d, l, e = cov
    return d, l * d, e + l * l * d


def smoother_gains(cov, h, drift):
    """The smoothed state at knot i from the filtered one, P = (d, l, e) and mean (f, c),
    and the smoothed a_{i+1}: with z = L⁻¹ a_i ~ N((f, c), diag(d, e)) and a_{i+1} =
    T L z + η, Cov η = R = ρ Q_h,

        C = Var(a_i | a_{i+1}) = L (D⁻¹ + (TL)ᵀ R⁻¹ TL)⁻¹ Lᵀ,   G = C Tᵀ R⁻¹,
        a_i = â + G (a_{i+1} − T â) = B (f, c) + G a_{i+1},   B = (I − G T) L = C L⁻ᵀ D⁻¹,
        P_i^s = C + G P^s_{i+1} Gᵀ;

    multiplied out (u = h l, Δ = det P⁻, every term of it ≥ 0),

        Δ G = [[d e + ρ d h (1 + u/2),         −d e h − ρ d h² (1 + u/3)/2],
               [ρ (e h² + d u (2 + u))/2,      d e − ρ (e h³/6 + d h u (1 + u/3)/2)]],
        Δ B = ρ [[ρ h⁴/12 + e h³/3,            −d h² (1 + 2u/3)/2],
                 [ρ l h⁴/12 − e h²/2,          ρ h⁴/12 + d h (1 + u/2)]],
        C = [[d B00, d B10], [d B10, ρ (ρ (e + l² d) h⁴/12 + d e h)/Δ]],

    each term a product of two of `_scaled`'s ratios: a nearly unknown state (a huge d,
    e or f) cancels and overflows nowhere.  ρ = 0 (the least-squares line) gives G = T⁻¹,
    B = C = 0.  Returns G's entries (g00, g01, g10, g11), B's and C's (c00, c01, c11)."""
    d, l, e = cov
    u = h * l
    (d_, e_, rf, rs), det = _scaled(cov, h, drift)
    gains = (
        d_ * (e_ + rs * (1 + u / 2)) / det,
        -h * d_ * (e_ + rs * (1 + u / 3) / 2) / det,
        (rf * e_ + d_ * rs * u * (2 + u)) / (2 * h * det),
        (d_ * e_ - rf * e_ / 6 - d_ * rs * u * (1 + u / 3) / 2) / det,
    )
    b00, b10 = rf * (rs / 12 + e_ / 3) / det, rf * (l * rs / 12 - e_ / (2 * h)) / det
    carried = (
        b00,
        -h * d_ * rs * (1 + 2 * u / 3) / 2 / det,
        b10,
        rs * (rf / 12 + d_ * (1 + u / 2)) / det,
    )
    fh, sh = drift * h * h * h * d_, drift * h * e_  # d ρh³/F = d rf, e ρh/S = e rs
    conditional = (
        fh * (rs / 12 + e_ / 3) / det,
        fh * (l * rs / 12 - e_ / (2 * h)) / det,
        (sh * (rf / 12 + d_) + l * l * fh * rs / 12) / det,
    )
    return gains, carried, conditional


def smoother_base(filtered, carried):
    """B (f, c) (`smoother_gains`) from the filtered mean (f, f', c): the filtered mean's
    part of a_i = B (f, c) + G a_{i+1}, which never cancels (`smoothed_mean`)."""
    f, _, c = filtered
    return tuple(ba * f + bb * c for ba, bb in (carried[:2], carried[2:]))


def smoothed_mean(after, filtered, h, gains, base):
    """a_i = â + G (a_{i+1} − T â), or B (f, c) + G a_{i+1} (``base`` = B (f, c)) where â
    is more than `HUGE` times a_{i+1}: then â is a huge value of tiny weight, which the
    first form would cancel.  Elsewhere the first form is the more accurate: G's
    rounding multiplies the small a_{i+1} − T â, not all of a_{i+1}."""
    (fa, sa), (f, s), (g00, g01, g10, g11), (bf, bs) = after, filtered, gains, base
    df, ds = fa - (f + h * s), sa - s
    huge = jnp.abs(f) + jnp.abs(h * s) > HUGE * (jnp.abs(fa) + jnp.abs(h * sa))
    return (
        jnp.where(huge, bf + g00 * fa + g01 * sa, f + g00 * df + g01 * ds),
        jnp.where(huge, bs + g10 * fa + g11 * sa, s + g10 * df + g11 * ds),
    )


HUGE = 16


def smoothed_cov(after, conditional, gains):
    """P_i^s = C + G P^s_{i+1} Gᵀ (both terms ≥ 0)."""
    (a00, a01, a11), (c00, c01, c11), (g00, g01, g10, g11) = after, conditional, gains
    r00 = g00 * (g00 * a00 + g01 * a01) + g01 * (g00 * a01 + g01 * a11)
    r01 = g00 * (g10 * a00 + g11 * a01) + g01 * (g10 * a01 + g11 * a11)
    r11 = g10 * (g10 * a00 + g11 * a01) + g11 * (g10 * a01 + g11 * a11)
    return c00 + r00, c01 + r01, c11 + r11


def first_knot(mean, cov, h, y0, v0, drift):
    """a_0 from the smoothed a_1 = ``mean`` and y_0, with a_0 | a_1 ~ N(T⁻¹ a_1,
    ρ [[h³/3, −h²/2], [−h²/2, h]]): f_0, f'_0 and Var f_0 (None without the smoothed
    covariance ``cov`` of a_1, ``()``)."""
    (f1, s1), c00, c01 = mean, drift * h**3 / 3, -drift * h * h / 2
    prior = f1 - h * s1
    kept, taken, var0 = _observed(c00, v0)
    f0, s0 = kept * prior + taken * y0, s1 + c01 / (c00 + v0) * (y0 - prior)
    if not cov:
        return f0, s0, None
    var1, cov1, var_s1 = cov
    # Var f_0 = c00 v0 / total + (v0 / total)² Var(f_1 − h s_1)
    carried = var1 - 2 * h * cov1 + h * h * var_s1
    return f0, s0, var0 + jnp.square(kept) * carried
