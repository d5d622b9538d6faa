"""Smoothing splines: interpax's (csaps') `CubicSmoothingSpline` and scipy's
`make_smoothing_spline` (a `BSpline`).

The fit is `_methods.smoothing` (a Kalman filter and smoother over the knots);
the arguments are checked as `CubicSpline` checks them, the weights and the
smoothing parameter as scipy and interpax check theirs.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Float, Inexact

from .._interpolate.prepare import ArgumentNames, prepare_fit
from .._methods.ends import NOT_A_KNOT, PERIODIC
from .._methods.smoothing import gcv_lambda, periodic_smoothing, smoothing_at_knots
from .._methods.smoothing_ends import smoothing_with_end_rows
from .._methods.units import knot_units
from .._pieces.polynomials import cubic_pieces
from .._utils.columns import column_values, to_columns
from .._utils.dtypes import (
    check_real,
    lists_to_arrays,
    power_of_two,
    span_units,
    unit_of,
    warn_if_x64_disabled,
)
from .._utils.types import ArrayInput, BcType, Extrapolate
from .._utils.validate import is_concrete, knots_are_valid, poison, poison_columns
from .bsplines import BSpline
from .checks import parse_extrapolate
from .ppoly import AbstractPPoly, set_fields

_NAMES = ArgumentNames(knots=("x",), queries=("x",), values="y")


class CubicSmoothingSpline(AbstractPPoly):
    """A cubic smoothing spline of noisy data: interpax's (and csaps')
    ``CubicSmoothingSpline``.

    The cubic spline ``f`` with knots ``x`` and the end conditions ``bc_type``
    (natural by default) that minimises
    ``p̂ Σ_i w_i (y_i − f(x_i))² + (1 − p̂) ∫ f''(x)² dx``, where p̂ is ``p`` normalised as csaps does, so that one ``p`` smooths data
    of any span and number of points alike.  An `AbstractPPoly`: it evaluates,
    differentiates, integrates and finds roots as `PPoly`, and `jax.jit`,
    `jax.vmap` and `jax.grad` (w.r.t. ``x``, ``y``, ``w``, ``p`` and the
    points) go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        The data sites, real, finite and strictly increasing; n ≥ 2.
    y : array_like, shape (..., n, ...)
        The data values, n along ``axis``; finite.
    p : float, optional
        The smoothing parameter in [0, 1]; default 0.5 (interpax's).  ``p = 1``
        is the interpolating natural spline, ``p = 0`` the weighted
        least-squares straight line.  May be traced (a value outside [0, 1] then
        gives NaN).
    w : array_like, shape (n,), optional
        Positive weights of the data; default all 1.
    axis : int, default 0
        The axis of ``y`` along ``x``.
    bc_type : str or 2-tuple, default "natural"
        The end conditions, interpax's: ``"natural"`` (f'' = 0, the smoothing
        problem's own), ``"clamped"`` (f' = 0), ``"periodic"`` (period
        ``x[-1] - x[0]``; ``y[0]`` and ``y[-1]`` are both data of the value at
        ``x[0]``, which need not be equal), ``"not-a-knot"`` (one cubic over
        the first two cells and one over the last two; n ≥ 4), or a pair, one
        per end, of ``"natural"``/``"clamped"``/``"not-a-knot"`` or ``(order,
        value)``: ``(1, value)`` a given slope, ``(2, value)`` a given second
        derivative (n ≥ 3; values broadcast to the columns of ``y``, may be
        traced).
    extrapolate : bool or "periodic", optional
        Whether to extend the end pieces beyond ``x`` (default; ``"periodic"``
        with ``bc_type="periodic"``), give NaN, or wrap into the period.
    check : bool, default True
        ``False`` (interpax's keyword) skips the eager data checks: bad
        concrete data then give NaN, as traced data do.

    Attributes
    ----------
    breaks, coefficients, end, extrapolate, axis
        As `PPoly`'s: the breaks are ``x``.

    Raises
    ------
    ValueError
        ``p`` outside [0, 1], weights not positive and finite, ``w`` not of
        shape (n,); and as `CubicSpline`: knots not finite and increasing,
        values not finite, shapes that do not fit.

    See Also
    --------
    CubicSpline : The interpolating spline (``p = 1``).

    Notes
    -----
    With ``λ = (1 − p̂)/p̂`` the problem is ``Σ w_i (y_i − f(x_i))² + λ ∫ f''²``;
    its solution is the posterior mean of f when f'' is white noise of
    intensity 1/λ and ``y_i`` are f's values with noise of variance ``1/w_i``:
    a Kalman filter and smoother over the knots with the state (f, f') give f
    and f' at every knot in O(n) (Wecker & Ansley 1983), accurate to ~1e-15 in
    float64 and ~1e-6 in float32 where Reinsch's pentadiagonal system (interpax's,
    csaps') and scipy's banded one lose digits as λ/h⁴ grows.
    csaps' normalisation is ``p̂ = p / (p + (1 − p) k)`` with ``k = 80 S³ / (n²
    √(1 + S²/Σh_i²) √((Σw)²/Σw²))``, S the span of ``x`` and h_i its spacings.
    The fit is computed in units where the span and the largest weight are
    about 1 (powers of two: exact), so no power of the span is formed.
    A given end slope is an exact observation of the state f' there; a periodic
    spline is a line through the unknown (f, f') at ``x[0]`` plus the process
    from zero, the period's two conditions exact observations at ``x[-1]``
    (`_methods.smoothing.periodic_smoothing`); two points then give their
    weighted mean (interpax fits the line through them, not periodic).
    Not-a-knot ends and given second derivatives constrain the spline's second
    and third derivatives, which the state does not carry: the spline is then
    the natural smoother's, run on the data and on two more columns, plus a
    spline that vanishes at every knot, joined by a 2×2 system (the two
    spaces are orthogonal in ∫ f''²; `_methods.smoothing_ends`).

    References
    ----------
    C. H. Reinsch, "Smoothing by spline functions", Numerische Mathematik 10,
    177–183 (1967).  W. E. Wecker and C. F. Ansley, "The signal extraction
    approach to nonlinear regression and spline smoothing", JASA 78, 81–89
    (1983).  E. Prilepin, csaps (https://github.com/espdev/csaps).

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 1.0, 6)
    >>> y = x**2 + jnp.array([0.01, -0.02, 0.02, -0.01, 0.0, 0.01])
    >>> line = splines.CubicSmoothingSpline(x, y, p=0.0)
    >>> print(bool(jnp.max(jnp.abs(line(x, 2))) < 1e-6))  # a straight line
    True
    >>> through = splines.CubicSmoothingSpline(x, y, p=1.0)
    >>> print(bool(jnp.allclose(through(x), y)))
    True
    """

    def __init__(
        self,
        x: Float[ArrayInput, " n"],
        y: Inexact[ArrayInput, "..."],
        p: float | Float[ArrayInput, ""] | None = None,
        w: Float[ArrayInput, " n"] | None = None,
        axis: int = 0,
        bc_type: BcType = "natural",
        extrapolate: Extrapolate = None,
        check: bool = True,
    ) -> None:
        x, y, w = lists_to_arrays(x, y, w)
        warn_if_x64_disabled(x, y, w)
        periodic = isinstance(bc_type, str) and bc_type == "periodic"
        spec, args = prepare_fit(  # the data need not repeat: y_0 and y_{n-1} are both f(x_0)'s
            (x,),
            y,
            "cubic2",
            "natural" if periodic else bc_type,
            (None,),
            axis,
            None,
            None,
            _NAMES,
            bool(check),
        )
        (x,) = args.knots
        p = 0.5 if p is None else p
        p = _parameter(p, x.dtype, bool(check))
        w = _weights(w, x, bool(check))
        kinds, values = (
            ((PERIODIC, PERIODIC), (None, None))
            if periodic
            else _end_conditions(spec.bc_kinds[0], args.bc_values, bc_type, x.shape[0])
        )
        breaks, coefficients, end = _fit(
            x, args.fp, w, p, values, spec.axis, spec.column_shape, kinds
        )
        set_fields(
            self,
            breaks,
            coefficients,
            end,
            parse_extrapolate(extrapolate, "periodic" if periodic else True),
            spec.axis,
            spec.column_shape,
            False,
        )


def _parameter(p, real, check: bool, name: str = "p"):
    """``p`` as a scalar of the knots' dtype; a concrete one checked to be in [0, 1]."""
    check_real(p, name)
    p = jnp.asarray(p, real) if not isinstance(p, jax.core.Tracer) else p.astype(real)
    if p.ndim != 0:
        raise ValueError(f"`{name}` must be a scalar; got shape {p.shape}.")
    if check and is_concrete(p) and not 0 <= float(p) <= 1:
        raise ValueError(f"`{name}` must be in [0, 1]; got {float(p)!r}.")
    return p


def _weights(w, x, check: bool, name: str = "w", sites: str = "x"):
    """``w`` of the knots' dtype and shape (default ones); concrete ones positive, finite."""
    if w is None:
        return jnp.ones_like(x)
    check_real(w, name)
    w = jnp.asarray(w, x.dtype) if not isinstance(w, jax.core.Tracer) else w.astype(x.dtype)
    if w.shape != x.shape:
        raise ValueError(f"`{name}` must have the shape of `{sites}`, {x.shape}; got {w.shape}.")
    if check and is_concrete(w):
        values = np.asarray(w)
        bad = np.flatnonzero(~(np.isfinite(values) & (values > 0)))
        if bad.size:
            i = bad[0]
            raise ValueError(
                f"`{name}` must be positive and finite; `{name}[{i}]` = {float(values[i])!r}."
            )
    return w


def _end_conditions(kinds: tuple, values: tuple, bc_type, n: int) -> tuple:
    """Per end, a static kind — None (natural: f'' = 0), 1 (a given f'), 2 (a given
    f'') or not-a-knot — and its value (`prepare`'s; a clamped end's None is 0)."""
    ends = []
    for kind, value in zip(kinds, values):
        zero = value is None or (is_concrete(value) and not np.any(np.asarray(value)))
        if kind == 2 and zero:
            ends.append((None, None))
        else:
            ends.append((kind, 0.0 if value is None and kind == 1 else value))
    kinds, values = zip(*ends)
    fewest = 4 if NOT_A_KNOT in kinds else 3 if 2 in kinds else 2
    if n < fewest:
        raise ValueError(
            f"`bc_type`={bc_type!r} takes at least {fewest} data sites (a not-a-knot end "
            f"joins two cells, a given f'' needs an interior knot); got {n}."
        )
    return kinds, values


@partial(jax.jit, static_argnums=(5, 6, 7))
def _fit(x, fp, w, p, values, axis: int, column_shape: tuple, kinds: tuple):
    """Breaks, coefficients and end values of the smoothing spline (NaN for invalid data)
    with the end conditions ``kinds`` and ``values`` (`_end_conditions`), or periodic."""
    y, _ = to_columns(fp, axis)
    span, widths, scale = _fit_units(x, w)
    noise, drift = _csaps_noises(p, widths, x[-1] / span - x[0] / span, w / scale, scale)
    if kinds[0] == PERIODIC:
        f, s = periodic_smoothing(widths, y, w / scale, noise, drift)
    else:
        values = tuple(  # in the fit's unit, d^k y / d(x/S)^k (S^k may overflow: k products)
            None
            if kind in (None, NOT_A_KNOT)
            else _times_power(column_values(v, column_shape, y.dtype), span, kind)
            for kind, v in zip(kinds, values)
        )
        if set(kinds) <= {None, 1}:  # conditions on the state: observed by the filter
            f, s = smoothing_at_knots(widths, y, w / scale, noise, drift, values)
        else:
            ends = tuple(
                (2, jnp.zeros(y.shape[1], y.dtype)) if kind is None else (kind, v)
                for kind, v in zip(kinds, values)
            )
            f, s = smoothing_with_end_rows(widths, y, w / scale, noise, drift, ends)
    breaks, coefficients = cubic_pieces(x, widths, f, s * knot_units(widths)[:, None])
    valid = knots_are_valid(x) & jnp.all((w > 0) & jnp.isfinite(w)) & (p >= 0) & (p <= 1)
    columns = poison(valid) * poison_columns(coefficients, axis=-2)
    return breaks * poison(valid), coefficients * columns[:, None], f[-1] * columns


def _times_power(value, unit, k: int):
    """``value · unit^k`` as k products (a power of two: exact unless the result is out
    of range, where unit^k alone may be)."""
    for _ in range(k):
        value = value * unit
    return value


def _fit_units(x, w):
    """The fit's units (`_methods.smoothing`'s Scale): S, a power of two above the span,
    the widths in it, and ω, a power of two near the largest weight."""
    inverse, span = span_units(x)
    return span, jnp.diff(x) * inverse, unit_of(jnp.max(w))


def _csaps_noises(p, widths, span, w, scale):
    """csaps' ``p̂ = p / (p + (1 − p) k)`` as the pair of noise scales ``((1 − p) k, p)``,
    whose ratio is ``λ = (1 − p̂)/p̂ = (1 − p) k / p``, in the fit's units (span ~1, weights
    / ``scale``): k's S³ and the weights' unit divide out of λ."""
    n = widths.shape[0] + 1
    eff_x = 1 + span**2 / jnp.sum(widths**2)
    eff_w = jnp.sum(w) ** 2 / jnp.sum(w**2)
    k = 80 * span**3 / (n**2 * jnp.sqrt(eff_x) * jnp.sqrt(eff_w)) / scale
    return (1 - p) * k, p


def make_smoothing_spline(
    x: Float[ArrayInput, " n"],
    y: Inexact[ArrayInput, "..."],
    w: Float[ArrayInput, " n"] | None = None,
    lam: float | Float[ArrayInput, ""] | None = None,
    *,
    axis: int = 0,
) -> BSpline:
    """The cubic smoothing spline, λ given or chosen by GCV: scipy's
    ``make_smoothing_spline``.

    The natural cubic spline ``f`` with knots ``x`` that minimises
    ``Σ_i w_i (y_i − f(x_i))² + λ ∫ f''(x)² dx``; with ``lam=None``, λ
    minimises scipy's generalised cross-validation criterion, found by the
    same bounded Brent search as scipy's (over [0, n], the same steps, in a
    fixed number of them: it traces).  `jax.jit`, `jax.vmap` and `jax.grad`
    (w.r.t. ``x``, ``y``, ``w``, ``lam``) go through it.

    Parameters
    ----------
    x : array_like, shape (n,)
        The data sites, real, finite and strictly increasing; n ≥ 5 (scipy's
        minimum).
    y : array_like, shape (..., n, ...)
        The data values, n along ``axis``; finite.  Each other index is a
        separate fit (with its own λ when chosen by GCV).
    w : array_like, shape (n,), optional
        Positive weights (not squared, unlike ``splrep``'s); default all 1.
    lam : float, optional
        λ ≥ 0, in the data's units (it scales as ``x``'s units cubed); None
        (default): chosen by GCV.  May be traced (a negative one then gives NaN).
    axis : int, default 0
        The axis of ``y`` along ``x``.

    Returns
    -------
    BSpline
        Degree 3 on the knots ``x`` with triple end knots (scipy's), its
        coefficients in ``y``'s dtype, the points' axis at ``axis``.

    Raises
    ------
    ValueError
        Fewer than 5 points, ``lam < 0``, weights not positive and finite;
        and as `CubicSpline`: knots not finite and increasing, values not
        finite, shapes that do not fit.

    See Also
    --------
    CubicSmoothingSpline : The same spline with csaps' normalised ``p``.

    Notes
    -----
    The spline's values and slopes at the knots come from a Kalman filter and
    smoother over the knots (`CubicSmoothingSpline`'s Notes): ~1e-15 … 1e-13 of
    a 50-digit solve in float64, where scipy's banded system loses up to 1e-2 at
    n = 3000 (benchmarks/results/smoothing_accuracy.md).  Its B-spline
    coefficients follow from de Boor and Fix's dual functionals at a knot τ in
    each support, ``c_i = f(τ) + (a + b)/3 f'(τ) + a b/6 f''(τ)`` with ``a =
    t_{i+1} − τ``, ``b = t_{i+3} − τ``.  GCV's trace is the sum of the smoothed
    variances (Wecker & Ansley 1983).  With ``lam=None`` the gradient treats λ
    as GCV's exact minimiser (the implicit function theorem at the λ where the
    search stops, within scipy's tolerance of it: ~1% on the derivative); complex
    ``y`` has its real and imaginary parts searched apart.  Weights spanning many
    orders of magnitude cost accuracy (~1e-9 at a ratio of 1e8 in float64): the
    filter's variances then differ as much.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 1.0, 8)
    >>> y = jnp.sin(3 * x) + jnp.array([0.02, -0.01, 0.0, 0.03, -0.02, 0.01, 0.0, -0.01])
    >>> spline = splines.make_smoothing_spline(x, y, lam=1e-4)
    >>> print(spline.t.shape, spline.c.shape)
    (14,) (10,)
    >>> chosen = splines.make_smoothing_spline(x, y)  # λ by GCV
    >>> print(bool(jnp.all(jnp.isfinite(chosen(x)))))
    True
    """
    x, y, w = lists_to_arrays(x, y, w)
    warn_if_x64_disabled(x, y, w)
    spec, args = prepare_fit((x,), y, "cubic2", "natural", (None,), axis, None, None, _NAMES)
    (x,) = args.knots
    if x.shape[0] < 5:
        raise ValueError(f"`x` and `y` need at least 5 points; got {x.shape[0]}.")
    w = _weights(w, x, True)
    if lam is not None:
        check_real(lam, "lam")
        lam = jnp.asarray(lam, x.dtype) if not isinstance(lam, jax.core.Tracer) else lam
        if lam.ndim != 0:
            raise ValueError(f"`lam` must be a scalar; got shape {lam.shape}.")
        if is_concrete(lam) and not float(lam) >= 0:
            raise ValueError(f"`lam` must be ≥ 0; got {float(lam)!r}.")
        lam = _mantissa_and_exponent(lam, x.dtype)
    t, c = _smoothing_bspline(x, args.fp, w, lam, spec.axis)
    return BSpline.construct_fast(t, c, 3, axis=spec.axis)


@partial(jax.jit, static_argnums=4)
def _smoothing_bspline(x, fp, w, lam, axis: int):
    """Knots and B-spline coefficients ``(n+2, *columns)`` of scipy's smoothing spline."""
    y, rest = to_columns(fp, axis)
    span, widths, scale = _fit_units(x, w)
    if lam is None:  # scipy's GCV search, per real column; λ̂ = λ / (S³ ω)
        k, complex_data = y.shape[1], jnp.iscomplexobj(y)
        parts = jnp.concatenate([y.real, y.imag], axis=1) if complex_data else y
        noises = gcv_lambda(widths, parts, w / scale, span, scale) / span / span / span / scale

        def fit(column, noise):
            f, s = smoothing_at_knots(widths, column[:, None], w / scale, noise, 1.0)
            return f[:, 0], s[:, 0]

        f, s = jax.vmap(fit, in_axes=(1, 0), out_axes=1)(parts, noises)
        if complex_data:  # the real and imaginary parts' fits, each at its own λ
            f, s = (a[:, :k] + 1j * a[:, k:] for a in (f, s))
        valid = jnp.bool_(True)
    else:
        f, s = smoothing_at_knots(widths, y, w / scale, _in_fit_units(*lam, span, scale), 1.0)
        valid = lam[0] >= 0
    c = _bspline_coefficients(widths, f, s)
    valid = valid & knots_are_valid(x) & jnp.all((w > 0) & jnp.isfinite(w))
    c = c * (poison(valid) * poison_columns(c[None], axis=-1))
    t = jnp.concatenate([jnp.repeat(x[:1], 3), x, jnp.repeat(x[-1:], 3)])
    return t * poison(valid), jnp.reshape(c, (c.shape[0],) + rest)


def _mantissa_and_exponent(lam, real):
    """λ = m 2^e: a concrete λ split on the host, exactly; a traced one as (λ, 0).  λ in
    the data's units is subnormal in float32 for spans below ~1e-12, and XLA:CPU flushes
    subnormals to zero (which would interpolate); λ̂ in the fit's units is not."""
    if isinstance(lam, jax.core.Tracer):
        return lam.astype(real), jnp.zeros((), jnp.int32)
    mantissa, exponent = np.frexp(np.float64(lam))
    return jnp.asarray(mantissa, real), jnp.asarray(exponent, jnp.int32)


def _in_fit_units(mantissa, exponent, span, scale):
    """λ̂ = λ / (S³ ω) = m 2^(e − 3 log₂ S − log₂ ω), S and ω powers of two; the exponent
    clipped to the normal range (beyond it λ̂ is 0 or ∞ to the fit: interpolation, or
    the least-squares line)."""
    info = jnp.finfo(mantissa.dtype)
    k = exponent - 3 * (jnp.frexp(span)[1] - 1) - (jnp.frexp(scale)[1] - 1)
    return mantissa * power_of_two(jnp.clip(k, info.minexp, info.maxexp - 1), mantissa.dtype)


def _bspline_coefficients(h, f, s):
    """``c`` on the knots ``[x_0]·3 + x + [x_{n-1}]·3`` from the knots' values f and
    slopes s (de Boor–Fix, `make_smoothing_spline`'s Notes), in the units of ``h``.

    With τ = x_j, a = −h_{j-1}, b = h_j: c_j = f_j + (a + b)/3 f'_j + a b/6 f''_j, the
    first and last c f_0 and f_{n-1} (a or b is 0 there).  a b f'' comes from the wider of
    the two cells, h² f'' = 6 Δ − (4 s_j + 2 s_{j+1}) h from the right one or −6 Δ +
    (2 s_{j-1} + 4 s_j) h from the left, times the narrower width over the wider: from
    a narrow cell the rounding of h² f'' would grow by the ratio of the widths.
    """
    rise, cells = jnp.diff(f, axis=0), h[:, None]
    from_right = 6 * rise[1:] - (4 * s[1:-1] + 2 * s[2:]) * cells[1:]  # h_j² f''_j
    from_left = -6 * rise[:-1] + (2 * s[:-2] + 4 * s[1:-1]) * cells[:-1]  # h_{j-1}² f''_j
    left, right = cells[:-1], cells[1:]
    bend = jnp.where(right >= left, left / right * from_right, right / left * from_left) / 6
    middle = f[1:-1] + (right - left) / 3 * s[1:-1] - bend
    first = f[:1] + cells[0] / 3 * s[:1]  # τ = x_0: a = 0
    last = f[-1:] - cells[-1] / 3 * s[-1:]  # τ = x_{n-1}: b = 0
    return jnp.concatenate([f[:1], first, middle, last, f[-1:]])
