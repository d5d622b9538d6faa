"""scipy's power basis ↔ our local pieces: the one conversion, at the class boundary.

scipy's `PPoly` holds ``c`` of shape ``(d+1, m, k)``, highest power first, in
powers of ``s = x − x[i]`` on interval i, with breakpoints ``x`` ascending or
descending:

    P_i(s) = Σ_p a_p s^p,      a_p = c[d − p, i].

We hold ascending ``breaks`` and, on piece j of width ``h_j``, ascending
powers of the local coordinate ``t = (x − breaks[j]) / h_j`` (`_hermite`):
``q(t) = Σ_p q_p t^p``.

Ascending breakpoints: piece j is interval i = j and s = h t, so

    q_p = a_p h^p.

Descending breakpoints: piece j is interval i = m − 1 − j, whose expansion
point x[i] is the piece's *upper* end, s = h (t − 1).  With ``A_p = a_p h^p``
(the polynomial in u = t − 1), q is A shifted by one:

    q(t) = Σ_p A_p (t − 1)^p,      A(u) = q(1 + u)    (`shift`).
"""

from math import comb

import jax.numpy as jnp


def to_local(c, x, descending: bool):
    """scipy's ``(c, x)`` (``c``: ``(d+1, m, k)``) → ``(breaks, coefficients (m, k, d+1))``."""
    breaks = x[::-1] if descending else x
    widths = jnp.diff(breaks)[:, None]
    a = jnp.moveaxis(c[::-1], 0, -1)  # (m, k, d+1), ascending powers of s
    if descending:
        a = a[::-1]
    scaled = a * _powers(widths, a.shape[-1])
    return breaks, shift(scaled, -1) if descending else scaled


def to_scipy(breaks, coefficients, descending: bool):
    """`to_local`'s inverse: ``(c (d+1, m, k), x)``."""
    widths = jnp.diff(breaks)[:, None]
    scaled = shift(coefficients, 1) if descending else coefficients
    a = scaled / _powers(widths, coefficients.shape[-1])
    if descending:
        a, breaks = a[::-1], breaks[::-1]
    return jnp.moveaxis(a, -1, 0)[::-1], breaks


def shift(coefficients, by: int):
    """Coefficients of ``q(t + by)`` for q given in ascending powers (last axis).

    ``Σ_p q_p (t + b)^p = Σ_r t^r Σ_{p≥r} C(p, r) b^{p−r} q_p``; b = ±1, so
    every factor is an exact integer.
    """
    degree = coefficients.shape[-1] - 1
    q = [coefficients[..., p] for p in range(degree + 1)]
    shifted = [
        sum(comb(p, r) * by ** (p - r) * q[p] for p in range(r, degree + 1))
        for r in range(degree + 1)
    ]
    return jnp.stack(shifted, axis=-1)


def _powers(widths, count: int):
    """``h^p`` for p = 0 … count−1 along a new last axis (one product at a time)."""
    powers = [jnp.ones_like(widths)]
    for _ in range(count - 1):
        powers.append(powers[-1] * widths)
    return jnp.stack(powers, axis=-1)
