"""Cubic smoothing splines as a Kalman filter and smoother (two scans, a 2×2 state).

Among all C² functions, the minimiser of

    Σ_i w_i (y_i − f(x_i))² + λ ∫ f''(x)² dx

is the natural cubic spline with knots x (Reinsch 1967).  It is also the
posterior mean of f when f'' is white noise of intensity 1/λ, the value and
slope at x_0 are unknown (a flat prior) and y_i = f(x_i) + e_i with
Var e_i = 1/w_i (Wahba 1978; Wecker & Ansley 1983).  Then the state
a_i = (f(x_i), f'(x_i)) is a Markov chain,

    a_{i+1} = T a_i + η_i,   T = [[1, h], [0, 1]],   Cov η_i = (1/λ) [[h³/3, h²/2], [h²/2, h]],

and a Kalman filter followed by the Rauch–Tung–Striebel smoother gives the
posterior means, f and f' at every knot — the smoothing spline's cubic Hermite
data — in O(n).  Only the ratio of the two noises matters: with the observation
noise ν/w_i and the process noise δ [[h³/3, …]], λ = ν/δ; a pair (ν, δ) rather
than λ keeps both limits finite and exact, δ = 0 the weighted least-squares line
and ν = 0 interpolation.  The flat prior is exact: the first two data determine a_1,

    f_1 = y_1,  f'_1 = (y_1 − y_0)/h_0,  Cov = B⁻¹ diag(ν/w_1, ν/w_0 + δ h_0³/3) B⁻ᵀ,

(B the map from a_1 to (y_1, y_0 − noise)), the filter runs from there, and the
smoother ends by conditioning a_0 on the smoothed a_1 and y_0.

Why not Reinsch's pentadiagonal system (or scipy's banded B-spline one): they
form second differences of the data divided by h and solve a system whose
condition grows like λ/h⁴; against a 50-digit solve they lose 1e-8 … 1e-2 at
n = 300 … 3000 in float64 and break down in float32, where this recursion stays
within ~1e-15 and ~1e-6 (benchmarks/results/smoothing_accuracy.md).

The influence matrix H (f = H y) has diagonal H_ii = Var(f_i | y) w_i / ν,
from the smoothed variances, so generalised cross-validation needs one more sweep of
the same recursion (`gcv`).

Scale.  Everything is computed in units where the span is about 1 and the
largest weight 1 (powers of two, exact): x̂ = x / S, ŵ = w / ω, so λ̂ = λ /
(S³ ω).  The pieces take slopes in units of their cell (s_i h_i).

Platforms.  The steps are `smoothing_steps`'; here they run as scans, and on GPUs the
natural fit and GCV's search run them in one Pallas kernel each (`smoothing_gpu`,
chosen by `per_platform` when the program is lowered).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .._linalg.kernels.per_platform import per_platform
from .._utils.dtypes import unit_of
from .._utils.minimize import bounded_minimum
from . import smoothing_gpu
from . import smoothing_steps as steps


def smoothing_at_knots(widths, y, w, noise, drift, slopes=(None, None)):
    """Values f and slopes in cell units of the smoothing spline: natural ends, or a
    given slope at either end.

    ``widths`` ``(n-1,)`` (any unit), ``y`` ``(n, k)``, ``w`` ``(n,)`` positive (any
    unit); ``noise`` and ``drift`` ≥ 0, not both 0, in the ratio λ : 1 *in those
    units* (the scales of the observation and process noise; module docstring);
    ``slopes``: per end, None (natural) or f' there ``(k,)`` in the widths' unit.
    Returns ``f`` and f' ``(n, k)``, f' in the widths' unit (`_methods.units.knot_units`
    turns it into the form `_pieces.polynomials.cubic_pieces` takes).

    A given slope is an exact observation of the state's f' (module docstring): at
    x_0 the filter starts from (y_0, f'_0) with Var f_0 = 1/w_0; at x_{n-1} its last
    state is conditioned on f'.  Conditioning on f' at an end knot is the smoothing
    problem over C² splines with that end condition.  The drift is then kept above
    ε² (λ̂ below 1/ε²): at λ = ∞ the given slopes leave no line to fit, and the
    limit, f'' linear between the slopes, is the spline at λ̂ = 1/ε² to rounding.
    """
    noise, drift = steps.balanced(noise, drift)
    if any(slope is not None for slope in slopes):
        drift = _at_least_eps_squared(drift)
    f, s, _ = _smooth(widths, y, noise / w, drift, slopes)
    return f, s


def periodic_smoothing(widths, y, w, noise, drift):
    """`smoothing_at_knots` for the periodic spline of period x_{n-1} − x_0: f and f'
    equal at both ends, y_0 and y_{n-1} both data of f(x_0), taken as one datum, their
    weighted mean.

    The state is a line through a_0 = (f_0, f'_0), unknown, plus an integrated Wiener
    process δ that starts at 0: a_i = T(x_i − x_0) a_0 + δ_i, and periodicity is
    δ_{n-1} = (−L f'_0, 0), L the period.  The filter is linear in the data, so it runs
    once on y and on the line's two basis functions (1 and x − x_0) as extra columns
    sharing its gains; its innovations ν(y) − N a_0, variances F, give a_0 by weighted
    least squares, Σ Nᵀ N / F a_0 = Σ Nᵀ ν(y) / F (the profile likelihood; de Jong
    1991), the two end conditions entering as exact observations.  No variance of
    a difference is formed, so λ = ∞ (the weighted mean) stays exact; λ̂ is kept in
    [ε², 1/ε²], both limits to rounding.
    """
    noise, drift = map(_at_least_eps_squared, steps.balanced(noise, drift))
    k = y.shape[1]
    t = jnp.concatenate([jnp.zeros_like(widths[:1]), jnp.cumsum(widths)])  # x − x_0
    basis = jnp.stack([jnp.ones_like(t), t], axis=1).astype(y.dtype)
    columns = jnp.concatenate([y, basis], axis=1)
    first = (w[0] * columns[0] + w[-1] * columns[-1].at[k + 1].set(0)) / (w[0] + w[-1])
    v = jnp.concatenate([(noise / (w[0] + w[-1]))[None], noise / w[1:-1]])
    zero = jnp.zeros_like(v[0])
    start = ((jnp.zeros_like(first),) * 3, (zero, zero, zero))  # δ_0 = 0 exactly
    filtered, (mf, q00) = _filter(start, widths[:-1], columns[1:-1], v[1:], drift)
    last = steps.predict(*jax.tree.map(lambda a: a[-1], filtered), widths[-1], drift)  # no datum
    filtered = jax.tree.map(lambda a, b: jnp.concatenate([a, b[None]]), filtered, last)
    innovations = [first[None], columns[1:-1] - mf]  # ν_0: δ_0 is known
    variances = [v[:1], q00 + v[1:]]
    value = jnp.zeros_like(first).at[k + 1].set(t[-1])  # δ_f = −L f'_0: L in the t column
    filtered, ends = _with_last_state(filtered, value)
    innovations = jnp.concatenate(innovations + [ends[0]])
    a0 = _least_squares(
        innovations[:, k:], innovations[:, :k], jnp.concatenate(variances + [ends[1]])
    )
    f, s, *_ = _smoother(filtered, widths, drift)
    f = basis @ a0 + f[:, :k] - f[:, k:] @ a0
    s = a0[1] + s[:, :k] - s[:, k:] @ a0
    return f, s


def _with_last_state(filtered, value):
    """The filtered states with the last one observed exactly: δ_f = ``value`` (per
    column), then δ_s = 0.  Also their innovations ``(2, columns)`` and variances ``(2,)``."""
    (f, s, c), (d, l, e) = filtered
    f_innovation = value - f[-1]
    slope = c[-1] + l[-1] * value  # f' given f = value, with variance e
    zero = jnp.zeros_like(d[-1])
    mean = tuple(a.at[-1].set(b) for a, b in zip((f, s, c), (value, zero, zero)))
    cov = tuple(c.at[-1].set(zero) for c in (d, l, e))
    return (mean, cov), (jnp.stack([f_innovation, -slope]), jnp.stack([d[-1], e[-1]]))


def _least_squares(design, data, variances):
    """``argmin_a Σ_t |data_t − design_t a|² / F_t`` for a ``(2, k)``: the 2×2 normal
    equations, solved by Cramer's rule."""
    scaled = design / variances[:, None]
    g = scaled.T @ design  # (2, 2)
    r = scaled.T @ data  # (2, k)
    det = g[0, 0] * g[1, 1] - g[0, 1] * g[1, 0]
    return jnp.stack([g[1, 1] * r[0] - g[0, 1] * r[1], g[0, 0] * r[1] - g[1, 0] * r[0]]) / det


def gcv(widths, y, w, noise, drift):
    """scipy's generalised cross-validation criterion, per column of ``y`` ``(n, k)``:

        GCV = (Σ_i (y_i − f_i)² / n) / (1 − tr(H)/n)²,

    f = H y; tr(H) = Σ_i Var(f_i | y) / Var(e_i) from the smoother's variances.
    A smooth function of λ and of the data.
    """
    n = y.shape[0]
    noise, drift = steps.balanced(noise, drift)
    v = noise / w
    f, _, variance = _smooth(widths, y, v, drift, variances=True)
    residual = jnp.mean(jnp.square(jnp.abs(y - f)), axis=0)
    influence = jnp.sum(variance / v)
    return residual / jnp.square(1 - influence / n)


def gcv_lambda(widths, y, w, unit, scale):
    """scipy's λ by GCV, per column of ``y`` ``(n, k)``: Brent's bounded search of
    `gcv` over λ in [0, n] in the data's units, as scipy's ``make_smoothing_spline``
    searches (`_utils.minimize`: the same steps).

    ``widths`` and ``w`` are in the fit's units, ``unit`` = S and ``scale`` = ω
    (module docstring): λ̂ = λ / (S³ ω).  Differentiable: the minimum moves with the
    data as ``dλ = −(∂²G/∂λ∂θ dθ) / (∂²G/∂λ²)`` (the implicit function theorem; 0 at
    the ends of the interval).
    """
    return jax.vmap(_column_lambda, in_axes=(None, 1, None, None, None))(widths, y, w, unit, scale)


def _criterion(lam, widths, column, w, unit, scale):
    """GCV of one column at λ in the data's units.  The column is divided by a power
    of two near its largest |value| first (GCV's minimum does not depend on the data's
    scale, its squared residuals would overflow or vanish)."""
    column = column / unit_of(jnp.max(jnp.abs(column)))
    return gcv(widths, column[:, None], w, lam / unit / unit / unit / scale, 1.0)[0]


@jax.custom_jvp
def _column_lambda(widths, column, w, unit, scale):
    widths, column, w, unit, scale = jax.lax.stop_gradient((widths, column, w, unit, scale))
    unit, scale = (jnp.asarray(a, widths.dtype) for a in (unit, scale))
    return _SEARCH(widths, column, w, unit, scale)[0]


def _search(widths, column, w, unit, scale):
    n = jnp.asarray(column.shape[0], widths.dtype)
    criterion = partial(_criterion, widths=widths, column=column, w=w, unit=unit, scale=scale)
    return (bounded_minimum(criterion, jnp.zeros_like(n), n),)


def _search_on_gpu(batch_ndim, widths, column, *rest):
    """One kernel for every search (`smoothing_gpu`); complex data and n < 3 by the
    scans (the kernel smooths real data, n ≥ 3)."""
    if column.shape[-1] < 3 or jnp.iscomplexobj(column):
        search = _search
        for _ in range(batch_ndim):
            search = jax.vmap(search)
        return search(widths, column, *rest)
    return (smoothing_gpu.gcv_search(batch_ndim, widths, column, *rest),)


_SEARCH = per_platform(_search, _search_on_gpu, name="splines_gcv_search")


@_column_lambda.defjvp
def _column_lambda_jvp(primals, tangents):
    lam = _column_lambda(*primals)
    slope = jax.grad(_criterion)  # ∂G/∂λ, 0 at an interior minimum
    curvature = jax.grad(slope)(lam, *primals)
    _, moved = jax.jvp(lambda *data: slope(lam, *data), primals, tangents)
    n = primals[1].shape[0]
    interior = (lam > _EDGE * n) & (lam < (1 - _EDGE) * n)
    return lam, jnp.where(interior, -moved / curvature, 0.0)


_EDGE = 1e-6  # a minimum this close to an end of [0, n] is the end's: it does not move


# ------------------------------------------------------------- the recursion --
# A filtered covariance is carried as (d, l, e) (`smoothing_steps`), a smoothed one as
# its entries (p00, p01, p11); filtered means as (f, f', c), smoothed ones as (f, f'),
# each (k,) over the columns, which share the covariances.


def _at_least_eps_squared(scale):
    """A noise scale kept ≥ ε² (of the larger 1, `smoothing_steps.balanced`): λ̂ within
    [ε², 1/ε²], where the spline is its limit to rounding."""
    return jnp.maximum(scale, jnp.square(jnp.finfo(jnp.result_type(scale)).eps))


def _smooth(h, y, noise, drift, slopes=(None, None), variances=False):
    """Smoothed f ``(n, k)``, f' ``(n, k)`` and, with ``variances``, Var(f_i | y) ``(n,)``
    (else None), with observation noise variances ``noise`` ``(n,)``, the process noise
    scale ``drift`` and the given end slopes (`smoothing_at_knots`).  With natural ends
    a GPU runs it as one kernel (`smoothing_gpu`), elsewhere as scans."""
    left, right = slopes
    if y.shape[0] == 2 and left is None and right is None:  # the line through both: H = I
        s = jnp.broadcast_to((y[1] - y[0]) / h[0], y[0].shape)
        return y, jnp.stack([s, s]), noise if variances else None
    if left is None and right is None:
        f, s, *var = _NATURAL[variances](h, y, noise, jnp.asarray(drift, noise.dtype))
        return f, s, var[0] if variances else None
    return _scans(h, y, noise, drift, slopes, variances)


def _scans(h, y, noise, drift, slopes, variances):
    left, right = slopes
    if left is None:  # a flat prior: the state at x_1 from y_0 and y_1
        first, start = 1, steps.start(h[0], y[0], y[1], noise[0], noise[1], drift)
    else:  # f_0 from y_0 alone, f'_0 given
        zero = jnp.zeros_like(noise[0])
        slope = jnp.broadcast_to(left, y[0].shape)  # l = 0: c = f'
        first, start = 0, ((y[0], slope, slope), (noise[0], zero, zero))
    filtered, _ = _filter(start, h[first:], y[first + 1 :], noise[first + 1 :], drift)
    if right is not None:
        filtered = _with_last_slope(filtered, right)
    f, s, *smoothed = _smoother(filtered, h[first:], drift, variances)
    var = smoothed[0] if variances else None
    if left is not None:
        return f, s, var
    at_one = (f[0], s[0]), tuple(c[0] for c in smoothed)
    f0, s0, var0 = steps.first_knot(*at_one, h[0], y[0], noise[0], drift)
    f, s = (jnp.concatenate([a[None], b]) for a, b in ((f0, f), (s0, s)))
    return f, s, jnp.concatenate([var0[None], var]) if variances else None


def _natural(variances):
    def scans(h, y, noise, drift):
        return _scans(h, y, noise, drift, (None, None), variances)[: 2 + variances]

    gpu = partial(smoothing_gpu.natural_fit, variances=variances)
    return per_platform(scans, gpu, name="splines_natural_smoother")


_NATURAL = {variances: _natural(variances) for variances in (False, True)}


def _with_last_slope(filtered, slope):
    """The filtered states with the last one conditioned on f' = ``slope`` (exactly):
    Var f' = e + l² d, and f given f' has variance d e / (e + l² d)."""
    (f, s, c), (d, l, e) = filtered
    var_s = e[-1] + l[-1] * l[-1] * d[-1]
    last_f = f[-1] + l[-1] * d[-1] / var_s * (slope - s[-1])
    zero = jnp.zeros_like(d[-1])  # then l = 0: c = f'
    slope = jnp.broadcast_to(slope, s[-1].shape)
    mean = tuple(a.at[-1].set(b) for a, b in zip((f, s, c), (last_f, slope, slope)))
    cov = (d.at[-1].set(d[-1] * e[-1] / var_s), l.at[-1].set(zero), e.at[-1].set(zero))
    return mean, cov


# The covariances and gains do not depend on the data: with more than one column, one
# scan of scalars finds them and the means, linear in the data, follow in a scan whose
# steps are a few products per column.  XLA:CPU runs such scans as one native loop,
# where one scan carrying both runs step by step (~50x slower at n = 1e4); one column
# rides in the covariances' scan (one native loop instead of two: 20% of a fit).


def _filter(start, h, y, v, drift):
    """Filtered states at knots 1 … n-1 (means (f, f', c), `smoothing_steps`) and the
    predicted f and Var f at knots 2 … n-1."""
    start_mean, start_cov = start
    if y.shape[1] == 1:

        def step(state, xs):
            h, y, v = xs
            cov, q00, coefficients = steps.covariance_step(state[1], h, v, drift)
            new = (steps.mean_step(state[0], h, y, coefficients), cov)
            return new, (new, q00)

        _, ((mean, cov), q00) = lax.scan(step, start, (h, y, v))
    else:

        def data_free_step(cov, xs):
            cov, q00, coefficients = steps.covariance_step(cov, *xs, drift)
            return cov, (cov, q00, coefficients)

        def data_step(mean, xs):
            mean = steps.mean_step(mean, xs[0], xs[-1], xs[1:-1])
            return mean, mean

        _, (cov, q00, coefficients) = lax.scan(data_free_step, start_cov, (h, v))
        mean = _in_column_groups(data_step, start_mean, (h,) + coefficients, (y,))
    mean, cov = _prepend(start_mean, mean), _prepend(start_cov, cov)
    predicted_f = steps.predicted_value(jax.tree.map(lambda a: a[:-1], mean), h[:, None])
    return (mean, cov), (predicted_f, q00)


def _in_column_groups(step, init, shared, columns, reverse=False):
    """``lax.scan(step, init, shared + columns)``'s outputs, the scan run on the columns in
    groups of four: each group one native loop, where XLA:CPU runs a loop whose iteration
    touches ≥ 1 KiB step by step (docs/architecture.md: ~0.5 µs a step).  ``init``: arrays
    ``(k,)``; ``shared``: ``(n,)``; ``columns`` and the outputs: ``(n, k)``."""
    k = init[0].shape[0]
    if k <= 4:
        return lax.scan(step, init, shared + columns, reverse=reverse)[1]
    groups = -(-k // 4)

    def grouped(a):  # (..., k) → (groups, ..., 4), padded with zeros
        a = jnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, 4 * groups - k)])
        return jnp.moveaxis(a.reshape(a.shape[:-1] + (groups, 4)), -2, 0)

    def run(group):
        first, data = group
        return lax.scan(step, first, shared + data, reverse=reverse)[1]

    out = lax.map(run, (tuple(map(grouped, init)), tuple(map(grouped, columns))))
    return tuple(jnp.moveaxis(a, 0, -2).reshape(a.shape[1], -1)[:, :k] for a in out)


def _prepend(first, rest):
    return jax.tree.map(lambda a, b: jnp.concatenate([a[None], b]), first, rest)


def _smoother(filtered, h, drift, variances=False):
    """Rauch–Tung–Striebel from the last knot back to knot 1: f, f' and, with
    ``variances``, the smoothed covariance (p00, p01, p11) at knots 1 … n-1."""
    (f, s, c), cov = filtered
    inner = tuple(p[:-1] for p in cov)  # P_i for the steps i = n-2 … 1
    gains, carried, conditional = steps.smoother_gains(inner, h, drift)

    def mean_step(after, xs):  # xs: h_i, G_i's four entries, then f_i, f'_i, B (f, c)_i
        new = steps.smoothed_mean(after, xs[5:7], xs[0], xs[1:5], xs[7:])
        return new, new

    base = steps.smoother_base((f[:-1], s[:-1], c[:-1]), tuple(b[:, None] for b in carried))
    last = (f[-1], s[-1])
    rest = _in_column_groups(mean_step, last, (h,) + gains, (f[:-1], s[:-1]) + base, reverse=True)
    means = tuple(jnp.concatenate([r, a[None]]) for r, a in zip(rest, last))
    if not variances:
        return means

    def covariance_step(after, xs):
        new = steps.smoothed_cov(after, xs[:3], xs[3:])
        return new, new

    last = steps.covariance(tuple(p[-1] for p in cov))
    _, rest = lax.scan(covariance_step, last, conditional + gains, reverse=True)
    return means + tuple(jnp.concatenate([r, a[None]]) for r, a in zip(rest, last))
