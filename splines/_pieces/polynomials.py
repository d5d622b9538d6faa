"""Piecewise polynomials in local coordinates: every method becomes breaks + coefficients.

On piece j, ``[b_j, b_{j+1}]`` of width ``h_j``, the interpolant is a
polynomial in the local coordinate ``t = (x − b_j) / h_j`` (0 to 1 across the
piece):

    p_j(t) = Σ_k c[j, :, k] tᵏ,      d^k/dxᵏ = (d^k/dtᵏ p_j) / h_jᵏ.

Coefficients are stored in ascending powers of t.  They carry the units of
the values and are O(|f|) whatever the width of the cells, so nothing
overflows or flushes to zero at spans near the ends of a float's range (in x
powers, scipy's ``PPoly`` layout, the cubic term is Δf/h³).  The 1/hᵏ of a
derivative is applied at evaluation, one division at a time, so the result
is representable whenever the true derivative is.

Cubic Hermite data — values y, slopes s = dy/dx, cell width h — give, with
the slopes scaled to the cell ``S_0 = s_j h_j``, ``S_1 = s_{j+1} h_j`` (O(|f|))
and ``Δ = y_{j+1} − y_j``:

    c_0 = y_j,   c_1 = S_0,   c_2 = 3Δ − 2 S_0 − S_1,   c_3 = S_0 + S_1 − 2Δ.

Every slope reaches the pieces in units of a cell, ``u_i = s_i g_i`` with
``g_i = h_i`` and, for the last knot, its left cell ``g_{n-1} = h_{n-2}``
(value-sized: nothing of size Δ/h is formed), so ``S_0 = u_j`` and
``S_1 = u_{j+1} · h_j / h_{j+1}`` (· 1 on the last cell).  The slope rules
give them so (`_methods.units`); given slopes and a grid cell's node data
are put so first.

Evaluation is elementwise Horner, never a matmul (GPU matmuls default to
reduced precision).
"""

from math import comb, factorial

import jax.numpy as jnp


def cubic_pieces(xp, widths, fp, slopes):
    """Cubic Hermite pieces on the knots: ``(n-1, k, 4)`` coefficients.

    ``slopes``: each knot's slope in units of its cell, ``u_i = s_i g_i``
    (module docstring), as the slope rules give them.
    """
    s0, s1 = slopes[:-1], slopes[1:]  # S_0 = u_j, S_1 = u_{j+1} h_j / g_{j+1}
    if widths.shape[0] > 1:  # (one cell: g_1 = h_0, the ratio is 1)
        s1 = s1 * (widths / jnp.concatenate([widths[1:], widths[-1:]]))[:, None]
    delta = jnp.diff(fp, axis=0)
    c2 = 3 * delta - 2 * s0 - s1
    c3 = s0 + s1 - 2 * delta
    return xp, jnp.stack([fp[:-1], s0, c2, c3], axis=-1)


def linear_pieces(xp, widths, fp, slopes=None):
    """Chords between the knots: ``(n-1, k, 2)`` coefficients."""
    return xp, jnp.stack([fp[:-1], jnp.diff(fp, axis=0)], axis=-1)


def nearest_pieces(xp, widths, fp, slopes=None):
    """Constants between midpoints: breaks ``x_0, (x_0+x_1)/2, …, x_{n-1}``."""
    midpoints = xp[:-1] + jnp.diff(xp) / 2  # no overflow at the ends of the range
    breaks = jnp.concatenate([xp[:1], midpoints, xp[-1:]])
    return breaks, fp[..., None]


def horner(coefficients, t, derivative: int):
    """``d^k/dtᵏ Σ_j c[..., j] tʲ`` for a static k ≥ 0 (zero past the degree)."""
    degree = coefficients.shape[-1] - 1
    if derivative > degree:  # zero, but NaN coefficients (invalid data) stay NaN
        return 0 * coefficients[..., 0]
    scale = [factorial(j) // factorial(j - derivative) for j in range(derivative, degree + 1)]
    result = scale[-1] * coefficients[..., degree]
    for j in range(degree - 1, derivative - 1, -1):
        result = scale[j - derivative] * coefficients[..., j] + t * result
    return result


def split_last_piece(breaks, coefficients):
    """The same piecewise polynomial with its last piece cut in two at the midpoint.

    With p(t) on the last piece, the halves are p(τ/2) and p(1/2 + τ/2), τ in
    [0, 1]:  c_k / 2ᵏ  and  Σ_{j≥k} C(j, k) c_j / 2ʲ  (powers of two: exact).

    A piece one ulp wide has no point strictly inside (the midpoint rounds onto
    an end, and a query on that end would meet a piece of zero width: 0/0).
    Then the cut goes at its start, where no query lands in the empty left
    piece (a query on a break takes the piece on its right, or with
    right-closed pieces the one before), and the right piece keeps p whole.
    """
    b0, b1 = breaks[-2], breaks[-1]
    middle = b0 + (b1 - b0) / 2
    inside = (b0 < middle) & (middle < b1)
    breaks = jnp.concatenate([breaks[:-1], jnp.where(inside, middle, b0)[None], breaks[-1:]])
    last = coefficients[-1]
    degree = last.shape[-1] - 1
    left = [last[..., k] / 2**k for k in range(degree + 1)]
    right = [
        jnp.where(
            inside,
            sum(comb(j, k) * last[..., j] / 2**j for j in range(k, degree + 1)),
            last[..., k],
        )
        for k in range(degree + 1)
    ]
    halves = jnp.stack([jnp.stack(left, axis=-1), jnp.stack(right, axis=-1)])
    return breaks, jnp.concatenate([coefficients[:-1], halves])
