"""Cubic smoothing splines (Reinsch's method) on the banded primitive.

Among all C² functions, the minimiser of

    Σ_i w_i (y_i − f(x_i))² + λ ∫ f''(x)² dx

is the natural cubic spline with knots x (Reinsch 1967; de Boor, *A Practical
Guide to Splines*, ch. XIV).  With its values f and second derivatives m at the
knots (m_0 = m_{n-1} = 0), continuity of f' at the interior knots reads
``Qᵀ f = M m`` with

    (Qᵀ f)_i = (f_{i+1} − f_i)/h_i − (f_i − f_{i-1})/h_{i-1},
    M_ii = (h_{i-1} + h_i)/3,   M_{i,i+1} = h_i/6          (i = 1 … n-2),

and ∫ f''² = mᵀ M m.  Writing λ = (1 − ρ)/ρ, the solution is

    (ρ M + (1 − ρ) R) u = Qᵀ y,      R = Qᵀ W⁻¹ Q,
    f = y − (1 − ρ) W⁻¹ Q u,         m = ρ u,

with a pentadiagonal positive definite matrix for every ρ in [0, 1]: ρ = 1 is
interpolation, ρ = 0 the weighted least-squares line (R alone is positive
definite: Q has full column rank).  Q and Qᵀ are applied as differences of
differences before dividing by h, which avoids cancellation.

Scale.  Everything is computed in units where the span is about 1 and the
largest weight 1 (powers of two, exact): x̂ = x / S, ŵ = w / ω, so λ̂ = λ /
(S³ ω).  The spline's pieces hold slopes in units of their cell (s_i h_i), which
no unit changes, so no power of the span is ever formed.
"""

import jax
import jax.numpy as jnp

from .._linalg.banded import banded_solve
from .._utils.dtypes import power_of_two


def unit_of(magnitude):
    """A power of two 2^k with ``magnitude / 2^k`` in [1/2, 1) (k clipped to the normal
    range; exact, and without a derivative: the answer does not depend on it)."""
    info = jnp.finfo(magnitude.dtype)
    _, e = jnp.frexp(jax.lax.stop_gradient(magnitude))
    return power_of_two(jnp.clip(e, info.minexp + 1, info.maxexp - 1), magnitude.dtype)


def natural_smoothing(widths, y, w, rho):
    """Values f and slopes in cell units of the natural smoothing spline.

    ``widths`` ``(n-1,)`` (any unit), ``y`` ``(n, k)``, ``w`` ``(n,)`` positive (any
    unit), ``rho`` the weight ρ of the data term *in those units* (module docstring).
    Returns ``f`` ``(n, k)`` and the slopes ``u_i = s_i g_i`` (g_i the knot's right
    cell, the last knot's left one), the form `_pieces.polynomials.cubic_pieces` takes.
    """
    n = y.shape[0]
    rho = jnp.asarray(rho, widths.dtype)
    if n == 2:  # no interior knot: the line through both points
        m = jnp.zeros_like(y)
        return y, _cell_slopes(widths, y, m)
    r = 1 / widths  # r_i = 1/h_i
    v = 1 / w  # W⁻¹
    rows = _system_rows(widths, r, v, rho)
    u = banded_solve(rows, _q_transpose(r, y).T, lower=2, upper=0, symmetric=True).T
    f = y - (1 - rho) * v[:, None] * _q(r, u)
    m = jnp.pad(rho * u, ((1, 1), (0, 0)))
    return f, _cell_slopes(widths, f, m)


def _q_transpose(r, y):
    """``(Qᵀ y)_i = r_i (y_{i+1} − y_i) − r_{i-1} (y_i − y_{i-1})``, i = 1 … n-2."""
    steps = r[:, None] * jnp.diff(y, axis=0)
    return steps[1:] - steps[:-1]


def _q(r, u):
    """``(Q u)_k = r_k (u_{k+1} − u_k) − r_{k-1} (u_k − u_{k-1})`` with u_0 = u_{n-1} = 0."""
    steps = r[:, None] * jnp.diff(jnp.pad(u, ((1, 1), (0, 0))), axis=0)
    return jnp.pad(steps, ((0, 1), (0, 0))) - jnp.pad(steps, ((1, 0), (0, 0)))


def _system_rows(h, r, v, rho):
    """Lower rows of ``ρ M + (1 − ρ) R`` over the interior knots i = 1 … n-2:
    ``[A_{i,i-2}, A_{i,i-1}, A_{i,i}]``, 0 outside the matrix.

        M_ii = (h_{i-1} + h_i)/3,  M_{i,i-1} = h_{i-1}/6,
        R_ii = r_{i-1}² v_{i-1} + (r_{i-1} + r_i)² v_i + r_i² v_{i+1},
        R_{i,i-1} = −r_{i-1} ((r_{i-2} + r_{i-1}) v_{i-1} + (r_{i-1} + r_i) v_i),
        R_{i,i-2} = r_{i-2} r_{i-1} v_{i-1}.
    """
    left, right = r[:-1], r[1:]  # r_{i-1}, r_i at interior knot i
    diag_m = (h[:-1] + h[1:]) / 3
    diag_r = left**2 * v[:-2] + (left + right) ** 2 * v[1:-1] + right**2 * v[2:]
    # Couplings of interior knots i-1 and i (i = 2 … n-2), then of i-2 and i (i = 3 … n-2).
    sub_m = h[1:-1] / 6
    both = left + right
    sub_r = -r[1:-1] * (both[:-1] * v[1:-2] + both[1:] * v[2:-1])
    subsub_r = r[1:-2] * r[2:-1] * v[2:-2]
    diag = rho * diag_m + (1 - rho) * diag_r
    sub = rho * sub_m + (1 - rho) * sub_r
    subsub = (1 - rho) * subsub_r
    zero = jnp.zeros(1, h.dtype)
    return jnp.stack(
        [
            jnp.concatenate([zero, zero, subsub])[: diag.shape[0]],
            jnp.concatenate([zero, sub]),
            diag,
        ],
        axis=-1,
    )


def _cell_slopes(h, f, m):
    """``s_i h_i = Δf_i − h_i² (2 m_i + m_{i+1})/6``; the last knot's on its left cell,
    ``s_{n-1} h_{n-2} = Δf_{n-2} + h_{n-2}² (m_{n-2} + 2 m_{n-1})/6``."""
    delta = jnp.diff(f, axis=0)
    h2 = (h * h)[:, None]
    starts = delta - h2 * (2 * m[:-1] + m[1:]) / 6
    last = delta[-1:] + h2[-1:] * (m[-2:-1] + 2 * m[-1:]) / 6
    return jnp.concatenate([starts, last])
