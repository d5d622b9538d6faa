"""Smoothing splines whose ends constrain f'' or f''': not-a-knot ends and given second
derivatives, as two rows of a 2×2 system on top of the natural smoother.

Such a condition is not a functional of the smoother's state (f, f'), so it cannot
be observed by the filter (`smoothing`): the problem is the minimum of

    J(s) = Σ_i w_i (y_i − s(x_i))² + λ ∫ s''(x)² dx

over the C² cubic splines s with knots x, subject to one linear condition per end
(interpax's, and Reinsch's, finite-dimensional problem).  That space is N ⊕ Z:
N the natural splines (s'' = 0 at both ends, fixed by their knot values f), Z
the splines that vanish at every knot (fixed by their end second derivatives
M = (M_0, M_{n-1})).  For n ∈ N and z ∈ Z, integrating by parts,

    ∫ n'' z'' = [n'' z']_{x_0}^{x_{n-1}} − Σ_cells n''' (z(x_{i+1}) − z(x_i)) = 0,

so J(n + z) = Σ w (y − f)² + λ fᵀ K f + λ Mᵀ Q M (K: N's roughness, Q: Z's,
2×2).  With the two end conditions as A f + B M = c (rows of `_end_row`), the
stationary point of the Lagrangian is

    f = S y − λ S W⁻¹ Aᵀ ν,      M = −Q⁻¹ Bᵀ ν,
    (λ A S W⁻¹ Aᵀ + B Q⁻¹ Bᵀ) ν = A S y − c,

where S = (W + λ K)⁻¹ W is the natural smoother: it runs once on y and on the two
columns W⁻¹ Aᵀ (linear in the data: shared gains), and ν solves a 2×2 system.  A
and B follow from N's moments, m = T⁻¹ D f (T the spline's tridiagonal moment
matrix, D six times the second divided differences), and Z's, m = −T⁻¹ (h_0 M_0
e_1 + h_{n-2} M_{n-1} e_{n-2}): one tridiagonal solve with four columns.  The
spline is n + z: values f, slopes n' + z'.

In the smoother's noise scales (ν̂, δ̂) = (λ, 1)/max, ν = δ̂ μ keeps both limits
finite: f = S y − ν̂ S W⁻¹ Aᵀ μ and (ν̂ A S W⁻¹ Aᵀ + δ̂ B Q⁻¹ Bᵀ) μ = A S y − c.

A not-a-knot row is a = K e_j (the third derivative's jump at x_j, j = 1 or n-2, is N's
roughness gradient there), which vanishes on lines: at λ̂ ≫ 1 its terms are
O(1/λ̂) differences of the smoother's O(1) outputs, and with c ≠ 0 at the other
end (μ ~ λ̂ c) their rounding grows as ε λ̂.  For λ̂ ≥ 1 they come from
S W⁻¹ K = (I − S)/λ̂ and K S = W (I − S)/λ̂ instead: ν̂ S W⁻¹ a = δ̂ (e_j − S e_j)
(one more smoother column, e_j; its natural spline's moments are 6 T⁻¹ β, the
row's own solve), and the row times λ̂ reads w_j ((ν̂ u − F)_j μ) + ν̂ (B Q⁻¹ Bᵀ μ)
= w_j (y_j − (S y)_j), all O(1).
Each row is scaled by a power of two near its largest entry (A grows like h⁻³),
each data column by one near its largest value.
"""

import jax.numpy as jnp

from .._linalg.tridiagonal import tridiagonal_solve
from .._utils.dtypes import unit_of
from .ends import NOT_A_KNOT
from .smoothing import _at_least_eps_squared, _smooth
from .smoothing_steps import balanced


def smoothing_with_end_rows(widths, y, w, noise, drift, ends):
    """f and f' ``(n, k)`` (f' in the widths' unit) of the smoothing spline with the end
    conditions ``ends``: per end ``(kind, value)``, kind 1 (f' = value), 2 (f'' =
    value; values ``(k,)`` in the widths' unit) or ``NOT_A_KNOT`` (value None).

    ``widths``, ``y``, ``w``, ``noise`` and ``drift`` as `smoothing.smoothing_at_knots`;
    n ≥ 3, and n ≥ 4 with a not-a-knot end.
    """
    n, k = y.shape
    noise, drift = balanced(noise, drift)
    drift = _at_least_eps_squared(drift)  # λ = ∞: the least-curved spline, as given slopes
    h = widths
    alphas, betas, values = zip(*(_end_row(h, end, kind, value, k, y.dtype)
                                  for end, (kind, value) in enumerate(ends)))  # fmt: skip
    # T⁻¹ on both rows' interior moments and on e_1, e_{n-2} (Z's moments).
    interior = jnp.stack([b[1:-1] for b in betas] + [_unit(n - 2, 0, h), _unit(n - 2, n - 3, h)])
    solved = tridiagonal_solve(h[1:-1], 2 * (h[:-1] + h[1:]), h[1:-1], interior, pivoting=False)
    rows_a = [alpha + _second_differences_transposed(t, h) for alpha, t in zip(alphas, solved)]
    rows_b = [jnp.stack([b[0] - h[0] * t[0], b[-1] - h[-1] * t[-1]]) for b, t in zip(betas, solved)]
    a, b, c = jnp.stack(rows_a), jnp.stack(rows_b), jnp.stack(values)
    scale = unit_of(jnp.maximum(jnp.max(jnp.abs(a), axis=1), jnp.max(jnp.abs(b), axis=1)))
    a, b, c = a / scale[:, None], b / scale[:, None], c / scale[:, None]
    # Z's moments per unit M_0 and M_{n-1}, and its roughness Q.
    zero, one = jnp.zeros_like(h[:1]), jnp.ones_like(h[:1])
    z_moments = jnp.stack([jnp.concatenate([one, -h[0] * solved[2], zero]),
                           jnp.concatenate([zero, -h[-1] * solved[3], one])], axis=1)  # fmt: skip
    q = _roughness(z_moments, h)
    # The problem is linear in (y, c): each column in a unit near its largest |value|, so
    # that neither μ nor the products forming it over- or underflow.
    unit = unit_of(jnp.maximum(jnp.max(jnp.abs(y), axis=0), jnp.max(jnp.abs(c), axis=0)))
    y, c = y / unit, c / unit
    u = (a / w).T.astype(y.dtype)  # (n, 2): W⁻¹ Aᵀ
    knots = [1 if end == 0 else n - 2 for end in range(2)]  # a not-a-knot row is K e_j
    spiked = [r for r, (kind, _) in enumerate(ends) if kind == NOT_A_KNOT]
    spikes = {r: _unit(n, knots[r], h).astype(y.dtype) for r in spiked}  # e_j, one column each
    columns = jnp.concatenate([y, u] + [spikes[r][:, None] for r in spiked], axis=1)
    f, s, _ = _smooth(h, columns, noise / w, drift)
    f_y, s_y = f[:, :k], s[:, :k]
    # F_r = ν̂ S W⁻¹ a_rᵀ, f's change per unit μ_r, and its slopes.
    large = drift <= noise  # λ̂ ≥ 1, where ν̂ = 1 (`smoothing_steps.balanced`)
    f_u, s_u = noise * f[:, k : k + 2], noise * s[:, k : k + 2]
    for column, r in enumerate(spiked, start=k + 2):
        # ν̂ S W⁻¹ K e_j = δ̂ (e_j − S e_j): no cancellation at large λ̂
        spike_moments = jnp.concatenate([zero, 6 * solved[r], zero])  # e_j's natural spline
        spike_slopes = _spline_slopes(spikes[r], spike_moments[:, None], h)[:, 0]
        f_alt = drift * (spikes[r] - f[:, column]) / scale[r]
        s_alt = drift * (spike_slopes - s[:, column]) / scale[r]
        f_u = f_u.at[:, r].set(jnp.where(large, f_alt, f_u[:, r]))
        s_u = s_u.at[:, r].set(jnp.where(large, s_alt, s_u[:, r]))
    q_inverse_bt = _solve_2x2(q, b.T)
    rows = list(a @ f_u + drift * (b @ q_inverse_bt))
    targets = list(a @ f_y - c)
    for r in spiked:  # the row times λ̂, by K S = W (I − S) / λ̂: O(1) terms
        j = knots[r]
        weight = w[j] / scale[r]
        row = weight * (noise * u[j] - f_u[j]) + noise * (b @ q_inverse_bt)[r]
        rows[r] = jnp.where(large, row, rows[r])
        targets[r] = jnp.where(large, weight * (y[j] - f_y[j]), targets[r])
    mu = _solve_2x2(jnp.stack(rows), jnp.stack(targets))  # (2, k)
    moments = z_moments @ (-drift * q_inverse_bt @ mu)  # Z's part (n, k)
    f = f_y - f_u @ mu
    s = s_y - s_u @ mu + _spline_slopes(jnp.zeros_like(moments), moments, h)
    return f * unit, s * unit


def _end_row(h, end, kind, value, k, dtype):
    """One condition ``αᵀ f + βᵀ m = value`` on the values f and second derivatives m
    (``(n,)`` each) of s: f' (kind 1), f'' (kind 2), or the jump of f''' at x_1 or
    x_{n-2} (not-a-knot), at the first (``end`` 0) or last knot."""
    n = h.shape[0] + 1
    alpha, beta = jnp.zeros(n, h.dtype), jnp.zeros(n, h.dtype)
    first, second = (0, 1) if end == 0 else (n - 1, n - 2)
    width = h[0] if end == 0 else h[-1]
    if kind == 1:  # f'_0 = (f_1 − f_0)/h_0 − h_0 (2 m_0 + m_1)/6, its mirror at the end
        sign = -1 if end == 0 else 1
        alpha = alpha.at[first].set(sign / width).at[second].set(-sign / width)
        beta = beta.at[first].set(sign * width / 3).at[second].set(sign * width / 6)
    elif kind == 2:
        beta = beta.at[first].set(1)
    else:  # (m_2 − m_1)/h_1 − (m_1 − m_0)/h_0 = 0, its mirror at the end
        near, far = (h[0], h[1]) if end == 0 else (h[-1], h[-2])
        third = 2 if end == 0 else n - 3
        beta = beta.at[first].set(1 / near).at[second].set(-1 / near - 1 / far)
        beta = beta.at[third].set(1 / far)
    target = jnp.zeros(k, dtype) if kind == NOT_A_KNOT else jnp.broadcast_to(value, (k,))
    return alpha, beta, target.astype(dtype)


def _unit(size, at, like):
    return jnp.zeros(size, like.dtype).at[at].set(1)


def _second_differences_transposed(t, h):
    """``Dᵀ t`` for ``(D f)_i = 6 ((f_{i+1} − f_i)/h_i − (f_i − f_{i-1})/h_{i-1})``,
    i = 1 … n-2: with t padded by zeros, d_i = (t_i − t_{i+1}) / h_i over the cells and
    ``(Dᵀ t)_j = 6 (d_{j-1} − d_j)``."""
    padded = jnp.pad(t, (1, 1))
    d = (padded[:-1] - padded[1:]) / h
    return 6 * (jnp.pad(d, (1, 0)) - jnp.pad(d, (0, 1)))


def _roughness(moments, h):
    """``Q_ab = ∫ z_a'' z_b''`` for splines with second derivatives ``moments (n, 2)`` at
    the knots (linear between): Σ_i h_i (m_i m_i' + (m_i m_{i+1}' + m_{i+1} m_i')/2 +
    m_{i+1} m_{i+1}')/3."""
    left, right = moments[:-1], moments[1:]
    weighted = (h / 3)[:, None]

    def inner(u, v):
        return u.T @ (weighted * v)

    return inner(left, left) + (inner(left, right) + inner(right, left)) / 2 + inner(right, right)


def _spline_slopes(values, moments, h):
    """f' at the knots of the cubic spline with ``values`` and second derivatives
    ``moments`` ``(n, k)`` there: Δf_i/h_i − h_i (2 m_i + m_{i+1})/6 from each cell's
    left, and Δf/h + h (m_{n-2} + 2 m_{n-1})/6 at the last knot."""
    cells = h[:, None]
    if values.ndim == 1:
        values = values[:, None]
    rise = (values[1:] - values[:-1]) / cells
    left = rise - cells * (2 * moments[:-1] + moments[1:]) / 6
    last = rise[-1] + cells[-1] * (moments[-2] + 2 * moments[-1]) / 6
    return jnp.concatenate([left, last[None]])


def _solve_2x2(matrix, rhs):
    """``matrix⁻¹ rhs`` for a 2×2 matrix, by Cramer's rule."""
    det = matrix[0, 0] * matrix[1, 1] - matrix[0, 1] * matrix[1, 0]
    adjugate = jnp.stack([jnp.stack([matrix[1, 1], -matrix[0, 1]]),
                          jnp.stack([-matrix[1, 0], matrix[0, 0]])])  # fmt: skip
    return adjugate @ rhs / det
