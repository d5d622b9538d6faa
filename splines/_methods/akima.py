"""Akima slopes, ``"akima"`` and ``"makima"``, as `scipy.interpolate.Akima1DInterpolator`.

At knot i the four secants around it, ``m_{i-2}, m_{i-1}, m_i, m_{i+1}``,
give the slope as a weighted mean of the middle two:

    s_i = m_{i-1} + f_2 / (f_1 + f_2) · (m_i − m_{i-1}),
    akima:   f_1 = |m_{i+1} − m_i|,                     f_2 = |m_{i-1} − m_{i-2}|
    makima:  f_1 = |m_{i+1} − m_i| + |m_{i+1} + m_i|/2,  f_2 = |m_{i-1} − m_{i-2}| + |m_{i-1} + m_{i-2}|/2

(makima's extra terms damp the overshoot of Akima's at flat runs).  Where
``f_1 + f_2 ≤ 10⁻⁹ · max(f_1 + f_2)`` — the maximum over every knot and
column of the fit, as scipy (the kept knots of periodic data, `local`) —
the weights are undefined and
``s_i = (m_{i-2} + m_{i+1}) / 2``.  Two secants are extrapolated linearly
beyond each end, ``m_{-1} = 2 m_0 − m_1``, ``m_{-2} = 2 m_{-1} − m_0`` (and
mirrored).  Two knots: the chord's slope at both.

Each knot's slope comes in its own unit g_i (`units`): its four secants are
taken in that unit, ``m_j g_i = Δ_j · g_i / h_j`` — the extrapolated ones are
value differences in the unit of the end cell, ``E_{-1} = 2 Δ_0 − Δ_1 h_0/h_1``,
``E_{-2} = 2 E_{-1} − Δ_0``, with width h_0 — and the weights are ratios.  The
cutoff compares quantities in x units across knots, ``f_i / g_i`` (in the
knots' units), which can over- or underflow: it finds their largest from
logarithms and compares each row's totals with a threshold of its own
(`_above_cutoff`).
"""

import math

import jax
import jax.numpy as jnp

from .units import knot_units

_LOG2_BREAK = math.log2(1e-9)  # scipy's cutoff for undefined weights, relative to their maximum


def akima_slopes(h, values, keep):
    return _akima(h, values, keep, modified=False, window=_window)


def makima_slopes(h, values, keep):
    return _akima(h, values, keep, modified=True, window=_window)


def akima_grid_slopes(h, values, keep):
    return _akima(h, values, keep, modified=False, window=_stored_window)


def makima_grid_slopes(h, values, keep):
    return _akima(h, values, keep, modified=True, window=_stored_window)


def _akima(h, values, keep, modified: bool, window):
    delta = jnp.diff(values, axis=0)
    if delta.shape[0] == 1:
        return jnp.concatenate([delta, delta])[keep]
    # A quarter of the differences (exact: a power of two): the extension reaches
    # 3 Δ_0 − 2 m_1 h_0 and a weight sum four secant jumps, which would overflow
    # for values within a few times of the largest float; weights are ratios.
    m2, m1, m0, p1 = (q[keep] for q in window(h, delta / 4))  # m_{i-2} … m_{i+1}, in g_i
    f1, f2 = jnp.abs(p1 - m0), jnp.abs(m1 - m2)
    if modified:
        f1, f2 = f1 + jnp.abs(p1 + m0) / 2, f2 + jnp.abs(m1 + m2) / 2
    total = f1 + f2
    defined = _above_cutoff(total, knot_units(h)[keep])
    # defined ⇒ total > 0; elsewhere divide by 1: finite, discarded, with a finite gradient
    weighted = m1 + f2 / jnp.where(defined, total, 1) * (m0 - m1)
    return 4 * jnp.where(defined, weighted, (p1 + m2) / 2)


def _window(h, delta):
    """The secants m_{i-2}, m_{i-1}, m_i, m_{i+1} of every knot i in its unit g_i, ``(n, k)`` each.

    ``m_j g_i = Δ_j g_i / h_j``, the ratios from r_j = h_{j+1}/h_j; beyond the ends
    the extrapolated differences, with the end cell's width.
    """
    r = (h[1:] / h[:-1])[:, None]
    low2, low1, high1, high2 = _extrapolated(delta, r)
    n = h.shape[0] + 1
    m0 = jnp.concatenate([delta, high1[None]])
    m1 = jnp.concatenate([low1[None], delta[:-1] * r, delta[-1:]])
    p1 = jnp.concatenate([delta[1:] / r, high1[None], high2[None]])
    # knot 1: E_{-1} h_1/h_0; knots 2 … n-2: h_i/h_{i-2} = r_{i-2} r_{i-1}; the last: g = h_{n-2}
    m2 = jnp.concatenate(
        [
            low2[None],
            low1[None] * r[:1],
            delta[: n - 3] * (r[:-1] * r[1:]),
            delta[n - 3 : n - 2] * r[-1:],
        ]
    )
    return m2, m1, m0, p1


def _stored_window(h, delta):
    """`_window`'s secants from one stored array: the differences extended by two
    extrapolated ones at each end, ``E (n+3, k)``, each in its cell's width (the
    end cell's beyond the ends), then ``m_j g_i = E_j · g_i / h_j``.

    For a grid's lines.  XLA:CPU fuses a concatenation into each of its users,
    and with it the computation of its parts: `_window`'s four windows would
    each recompute the rule's input, which on a grid is itself computed (the
    mixed slopes take the slopes along another axis, Akima's cutoff included).
    A concatenation along the minor axis of at least 2 KiB (64 B along it) it
    never fuses: E, built so, is computed once into its own buffer.  1-D data
    are cheap to re-read, and there the fused `_window` is faster.
    """
    low2, low1, high1, high2 = _extrapolated(delta, (h[1:] / h[:-1])[:, None])
    rows = [low2[None], low1[None], delta, high1[None], high2[None]]
    extended = jnp.concatenate([row.T for row in rows], axis=1).T  # along the minor axis
    widths = jnp.concatenate([h[:1], h[:1], h, h[-1:], h[-1:]])
    g, n = knot_units(h), h.shape[0] + 1
    return tuple(extended[s : s + n] * (g / widths[s : s + n])[:, None] for s in range(4))


def _extrapolated(delta, r):
    """The two extrapolated differences beyond each end, in the end cell's width:
    ``E_{-1} = 2 Δ_0 − Δ_1 h_0/h_1``, ``E_{-2} = 2 E_{-1} − Δ_0``, and mirrored
    (``r_j = h_{j+1}/h_j``)."""
    low1 = 2 * delta[0] - delta[1] / r[0]
    high1 = 2 * delta[-1] - delta[-2] * r[-1]
    return 2 * low1 - delta[0], low1, high1, 2 * high1 - delta[-1]


def _above_cutoff(total, g):
    """``total_i / g_i > 10⁻⁹ · max_j total_j / g_j`` for quotients past the float
    range (x units can over- or underflow).

    The largest quotient from one reduction of ``L_i = log2 total_i − log2 g_i``;
    then each row compares its totals with one threshold,
    ``T_i = 2^{max L + log2 10⁻⁹ + log2 g_i}``, which saturates at 0 or inf
    where every total or none passes: the elementwise test is one comparison,
    exact but for the logarithms' rounding (~10⁻⁵ of T in float32).  The maximum
    runs over the finite, nonzero totals only: a NaN or inf from bad data at
    one knot must not move every knot's cutoff (traced data are not checked
    eagerly; that column is NaN whichever side its infinite total falls).
    """
    total, g = jax.lax.stop_gradient((total, g))  # a comparison: no derivative
    log_g = jnp.log2(g)
    counted = jnp.isfinite(total) & (total > 0)
    largest = jnp.max(
        jnp.where(counted, jnp.log2(total) - log_g[:, None], -jnp.inf), initial=-jnp.inf
    )
    threshold = jnp.exp2(largest + _LOG2_BREAK + log_g)  # 0 when no total counts
    return total > threshold[:, None]
