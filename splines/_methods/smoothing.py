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
from jax import lax

from .._linalg.banded import banded_solve, ldl_factorise
from .._utils.dtypes import power_of_two
from .._utils.minimize import bounded_minimum


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
    f, m = _values_and_curvatures(widths, y, w, rho)
    return f, _cell_slopes(widths, f, m)


def _values_and_curvatures(widths, y, w, rho):
    """f ``(n, k)`` and m = f'' at the knots ``(n, k)`` (0 at both ends)."""
    if y.shape[0] == 2:  # no interior knot: the line through both points
        return y, jnp.zeros_like(y)
    rho = jnp.asarray(rho, widths.dtype)
    r, v = 1 / widths, 1 / w  # r_i = 1/h_i, W⁻¹
    m_rows, r_rows = _penalty_rows(widths, r, v)
    rows = rho * m_rows + (1 - rho) * r_rows
    u = banded_solve(rows, _q_transpose(r, y).T, lower=2, upper=0, symmetric=True).T
    f = y - (1 - rho) * v[:, None] * _q(r, u)
    return f, jnp.pad(rho * u, ((1, 1), (0, 0)))


def gcv(widths, y, w, rho):
    """scipy's generalised cross-validation criterion, per column of ``y`` ``(n, k)``:

        GCV = (Σ_i (y_i − f_i)² / n) / (1 − tr(H)/n)²,

    H the influence ("hat") matrix, f = H y.  With K = ρ M + (1 − ρ) R,
    H = I − (1 − ρ) W⁻¹ Q K⁻¹ Qᵀ, so tr(H) = n − (1 − ρ) tr(K⁻¹ R): R is
    pentadiagonal, and only K⁻¹'s five central diagonals are needed, which the
    LDLᵀ factors give in one backward sweep (Hutchinson & de Hoog 1985,
    `_inverse_band`).  A smooth function of ρ (and of the data).
    """
    n = y.shape[0]
    f, _ = _values_and_curvatures(widths, y, w, rho)
    residual = jnp.mean(jnp.square(jnp.abs(y - f)), axis=0)
    if n == 2:
        return residual / jnp.square(1 - 2 / n)  # H = I: 0/0 is what scipy has too
    rho = jnp.asarray(rho, widths.dtype)
    m_rows, r_rows = _penalty_rows(widths, 1 / widths, 1 / w)
    l_rows, d = ldl_factorise(rho * m_rows + (1 - rho) * r_rows, 2)
    inverse = _inverse_band(l_rows, d)
    # tr(K⁻¹ R) = Σ_i Σ_ii R_ii + 2 Σ_{i,i+1} R_{i,i+1} + 2 Σ_{i,i+2} R_{i,i+2}
    upper_r = jnp.stack([r_rows[:, 2], _later(r_rows[:, 1], 1), _later(r_rows[:, 0], 2)], axis=-1)
    trace = jnp.sum(inverse * upper_r * jnp.array([1, 2, 2], widths.dtype))
    influence = n - (1 - rho) * trace
    return residual / jnp.square(1 - influence / n)


def gcv_lambda(widths, y, w, unit, scale):
    """scipy's λ by GCV, per column of ``y`` ``(n, k)``: Brent's bounded search of
    `gcv` over λ in [0, n] in the data's units, as scipy's ``make_smoothing_spline``
    searches (`_utils.minimize`: the same steps).

    ``widths`` and ``w`` are in the fit's units, ``unit`` = S and ``scale`` = ω
    (module docstring): λ̂ = λ / (S³ ω).
    """
    n = y.shape[0]

    def criterion(lam, column):
        rho = 1 / (1 + lam / unit / unit / unit / scale)
        return gcv(widths, column[:, None], w, rho)[0]

    def search(column):
        return bounded_minimum(lambda lam: criterion(lam, column), 0.0, float(n))

    return jax.vmap(search, in_axes=1)(y)


def _later(v, q: int):
    """``out[i] = v[i + q]``, 0 past the end."""
    return jnp.pad(v[q:], (0, min(q, v.shape[0])))


def _inverse_band(l_rows, d):
    """``Σ_{i,i}, Σ_{i,i+1}, Σ_{i,i+2}`` of Σ = (L D Lᵀ)⁻¹ for L of bandwidth 2, ``(N, 3)``.

    From Σ = D⁻¹ L⁻¹ + (I − Lᵀ) Σ, row by row from the last:
        Σ_{i,i+2} = −(L_{i+1,i} Σ_{i+1,i+2} + L_{i+2,i} Σ_{i+2,i+2}),
        Σ_{i,i+1} = −(L_{i+1,i} Σ_{i+1,i+1} + L_{i+2,i} Σ_{i+1,i+2}),
        Σ_{i,i}   = 1/d_i − (L_{i+1,i} Σ_{i,i+1} + L_{i+2,i} Σ_{i,i+2}).
    """
    below = jnp.stack([_later(l_rows[:, 1], 1), _later(l_rows[:, 0], 2)], axis=-1)

    def step(carry, xs):
        s11, s12, s22 = carry  # Σ_{i+1,i+1}, Σ_{i+1,i+2}, Σ_{i+2,i+2}
        (a, b), d = xs  # L_{i+1,i}, L_{i+2,i}; d_i
        s02 = -(a * s12 + b * s22)
        s01 = -(a * s11 + b * s12)
        s00 = 1 / d - (a * s01 + b * s02)
        return (s00, s01, s11), jnp.stack([s00, s01, s02])

    zero = jnp.zeros((), d.dtype)
    _, band = lax.scan(step, (zero, zero, zero), (below, d), reverse=True)
    return band


def _q_transpose(r, y):
    """``(Qᵀ y)_i = r_i (y_{i+1} − y_i) − r_{i-1} (y_i − y_{i-1})``, i = 1 … n-2."""
    steps = r[:, None] * jnp.diff(y, axis=0)
    return steps[1:] - steps[:-1]


def _q(r, u):
    """``(Q u)_k = r_k (u_{k+1} − u_k) − r_{k-1} (u_k − u_{k-1})`` with u_0 = u_{n-1} = 0."""
    steps = r[:, None] * jnp.diff(jnp.pad(u, ((1, 1), (0, 0))), axis=0)
    return jnp.pad(steps, ((0, 1), (0, 0))) - jnp.pad(steps, ((1, 0), (0, 0)))


def _penalty_rows(h, r, v):
    """Lower rows of M and of R = Qᵀ W⁻¹ Q over the interior knots i = 1 … n-2:
    ``[A_{i,i-2}, A_{i,i-1}, A_{i,i}]``, 0 outside the matrix.

        M_ii = (h_{i-1} + h_i)/3,  M_{i,i-1} = h_{i-1}/6,
        R_ii = r_{i-1}² v_{i-1} + (r_{i-1} + r_i)² v_i + r_i² v_{i+1},
        R_{i,i-1} = −r_{i-1} ((r_{i-2} + r_{i-1}) v_{i-1} + (r_{i-1} + r_i) v_i),
        R_{i,i-2} = r_{i-2} r_{i-1} v_{i-1}.
    """
    left, right = r[:-1], r[1:]  # r_{i-1}, r_i at interior knot i
    both = left + right
    diag_m = (h[:-1] + h[1:]) / 3
    diag_r = left**2 * v[:-2] + both**2 * v[1:-1] + right**2 * v[2:]
    # Couplings of interior knots i-1 and i (i = 2 … n-2), then of i-2 and i (i = 3 … n-2).
    sub_m = h[1:-1] / 6
    sub_r = -r[1:-1] * (both[:-1] * v[1:-2] + both[1:] * v[2:-1])
    subsub_r = r[1:-2] * r[2:-1] * v[2:-2]
    zero = jnp.zeros(1, h.dtype)
    size = diag_m.shape[0]
    m_rows = jnp.stack([jnp.zeros_like(diag_m), jnp.concatenate([zero, sub_m]), diag_m], axis=-1)
    r_rows = jnp.stack(
        [jnp.concatenate([zero, zero, subsub_r])[:size], jnp.concatenate([zero, sub_r]), diag_r],
        axis=-1,
    )
    return m_rows, r_rows


def _cell_slopes(h, f, m):
    """``s_i h_i = Δf_i − h_i² (2 m_i + m_{i+1})/6``; the last knot's on its left cell,
    ``s_{n-1} h_{n-2} = Δf_{n-2} + h_{n-2}² (m_{n-2} + 2 m_{n-1})/6``."""
    delta = jnp.diff(f, axis=0)
    h2 = (h * h)[:, None]
    starts = delta - h2 * (2 * m[:-1] + m[1:]) / 6
    last = delta[-1:] + h2[-1:] * (m[-2:-1] + 2 * m[-1:]) / 6
    return jnp.concatenate([starts, last])
