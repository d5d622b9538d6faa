"""Least squares with a banded design matrix, by Givens rotations (QR), as FITPACK and
scipy's ``make_lsq_spline(method="qr")`` solve it.

Row i of A holds p values at the columns ``s_i … s_i + p − 1`` (``s`` non-decreasing).
R (upper triangular, bandwidth p) and z = Qᵀ b are built one row at a time: the row's
entries are eliminated left to right by p rotations with R's rows ``s_i … s_i + p − 1``

    [R_j; a] ← [c s; −s c] [R_j; a],   c = R_jj / ρ,  s = a_j / ρ,  ρ = hypot(R_jj, a_j),

which stay inside those p columns: R's rows below ``s_i + p`` are still zero and the
rows above have no entry right of column ``s_i + p − 1`` (no earlier row reaches further).
Then R c = z by back substitution (the banded solve, no pivoting).  The normal equations
(AᵀA) c = Aᵀb square A's condition number: for sites that barely cover a B-spline
(κ(A) ~ 1e10) they lose every digit, where this keeps ~κ ε of the residual's scale.

Derivatives (JVP; reverse mode by its transpose): c = (AᵀA)⁻¹ Aᵀ b moves as

    dc = (RᵀR)⁻¹ (dAᵀ r + Aᵀ (db − dA c)),   r = b − A c,

two banded triangular solves with the same R.  The rotations themselves are a scan over
the rows that is never differentiated (its reverse-mode residuals would be m·n·p).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from .banded import banded_solve, transposed_rows


def banded_lstsq(values, starts, rhs, n: int):
    """``argmin_c ‖A c − rhs‖₂`` with A's row i ``values[i]`` ``(m, p)`` at the columns
    ``starts[i] …`` (non-decreasing ints, at most n − p), ``rhs`` ``(m, k)``: c ``(n, k)``.
    A rank-deficient A gives inf or NaN (a zero on R's diagonal)."""
    return _lstsq(values, starts, rhs, n)


@partial(jax.custom_jvp, nondiff_argnums=(3,))
def _lstsq(values, starts, rhs, n):
    r, z = _triangular(values, starts, rhs, n)
    return _back(r, z)


@_lstsq.defjvp
def _lstsq_jvp(n, primals, tangents):
    values, starts, rhs = primals
    d_values, _, d_rhs = tangents
    r, z = _triangular(values, starts, rhs, n)
    c = _back(r, z)
    columns = starts[:, None] + jnp.arange(values.shape[1])  # (m, p)
    window = c[columns]  # (m, p, k)
    residual = rhs - jnp.einsum("ip,ipk->ik", values, window)
    moved = d_rhs - jnp.einsum("ip,ipk->ik", d_values, window)
    per_site = values[:, :, None] * moved[:, None, :] + d_values[:, :, None] * residual[:, None, :]
    g = jnp.zeros(c.shape, per_site.dtype).at[columns].add(per_site)  # dAᵀ r + Aᵀ (db − dA c)
    band = r.astype(g.dtype)
    u = banded_solve(transposed_rows(band, 0, band.shape[1] - 1)[None], g.T,
                     lower=band.shape[1] - 1, upper=0, pivoting=False)  # fmt: skip
    return c, _back(r, u.T)


def _back(r, z):
    """``R⁻¹ z``: R by its rows ``(n, p)``, ``r[i, m] = R[i, i + m]``."""
    band = r.astype(z.dtype)
    return banded_solve(band[None], z.T, lower=0, upper=band.shape[1] - 1, pivoting=False).T


def _triangular(values, starts, rhs, n):
    """R ``(n, p)`` (its rows, `_back`'s layout) and z = Qᵀ rhs ``(n, k)``."""
    p, k = values.shape[1], rhs.shape[1]

    def add_row(carry, site):
        r, z = carry
        row, start, b = site
        zero_index = jnp.zeros_like(start)
        block = lax.dynamic_slice(r, (start, zero_index), (p, p))  # R's rows start … start + p − 1
        z_block = lax.dynamic_slice(z, (start, zero_index), (p, k))
        # local[a][e] = R[start + a, start + e] for e ≥ a (R's band: block[a, e − a])
        local = [[block[a, e - a] if e >= a else None for e in range(p)] for a in range(p)]
        incoming, incoming_z = [row[e] for e in range(p)], b
        z_rows = [z_block[a] for a in range(p)]
        for a in range(p):
            diagonal, entry = local[a][a], incoming[a]
            rho = jnp.hypot(diagonal, entry)
            safe = jnp.where(rho == 0, 1, rho)
            cos, sin = jnp.where(rho == 0, 1, diagonal / safe), entry / safe
            for e in range(a, p):
                local[a][e], incoming[e] = (cos * local[a][e] + sin * incoming[e],
                                            cos * incoming[e] - sin * local[a][e])  # fmt: skip
            z_rows[a], incoming_z = (
                cos * z_rows[a] + sin * incoming_z,
                cos * incoming_z - sin * z_rows[a],
            )
        block = jnp.stack([jnp.stack([local[a][a + m] if a + m < p else block[a, m]
                                      for m in range(p)]) for a in range(p)])  # fmt: skip
        r = lax.dynamic_update_slice(r, block, (start, zero_index))
        z = lax.dynamic_update_slice(z, jnp.stack(z_rows), (start, zero_index))
        return (r, z), None

    zero = (jnp.zeros((n, p), values.dtype), jnp.zeros((n, k), rhs.dtype))
    (r, z), _ = lax.scan(add_row, zero, (values, starts, rhs))
    return r, z
