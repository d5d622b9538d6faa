"""scipy's power basis ↔ our local pieces: the one conversion, at the class boundary.

scipy's `PPoly` holds ``c`` of shape ``(d+1, m, k)``, highest power first, in
powers of ``s = x − x[i]`` on interval i, with breakpoints ``x`` ascending or
descending:

    P_i(s) = Σ_p a_p s^p,      a_p = c[d − p, i].

We hold ascending ``breaks`` and, on piece j of width ``h_j``, ascending
powers of the local coordinate ``t = (z − breaks[j]) / h_j`` (`_pieces.polynomials`):
``q(t) = Σ_p q_p t^p``, in the variable

    z = x  (ascending breakpoints),      z = −x  (descending breakpoints).

Either way piece j is scipy's interval i = j and scipy's expansion point
x[i] is the piece's lower end in z, so ``s = ±h t`` and

    q_p = a_p (±h)^p:

no re-expansion about the other end (which would cancel), and a
descending PPoly is an ascending one in −x: it evaluates at −x, its n-th
derivative takes the sign (−1)^n (`ppoly`).
"""

import jax.numpy as jnp


def to_local(c, x, descending: bool):
    """scipy's ``(c, x)`` (``c``: ``(d+1, m, k)``) → ``(breaks, coefficients (m, k, d+1))``."""
    breaks = -x if descending else x
    a = jnp.moveaxis(c[::-1], 0, -1)  # (m, k, d+1), ascending powers of s
    return breaks, a * _powers(_step(breaks, descending), a.shape[-1])


def to_scipy(breaks, coefficients, descending: bool):
    """`to_local`'s inverse: ``(c (d+1, m, k), x)``."""
    a = coefficients / _powers(_step(breaks, descending), coefficients.shape[-1])
    return jnp.moveaxis(a, -1, 0)[::-1], -breaks if descending else breaks


def _step(breaks, descending: bool):
    """ds/dt on each piece, ``(m, 1)``: the width, negative in −x."""
    widths = jnp.diff(breaks)[:, None]
    return -widths if descending else widths


def _powers(step, count: int):
    """``step^p`` for p = 0 … count−1 along a new last axis (one product at a time)."""
    powers = [jnp.ones_like(step)]
    for _ in range(count - 1):
        powers.append(powers[-1] * step)
    return jnp.stack(powers, axis=-1)
