"""What every local slope rule shares: secants, periodic wrapping, complex values.

A *local* rule gives the slope at knot i from the secants of a few cells
around it, ``m_j = Δ_j / h_j`` (``Δ_j = y_{j+1} − y_j``), with its own rule at
the two ends.  The rules here take widths ``h (n-1,)``, values ``(n, k)`` (k
columns) and ``keep``, a slice of the knots whose slopes are wanted, and
return those slopes in units of each knot's cell (`units`: ``u_i = s_i g_i``;
``(n, k)`` for ``keep = slice(None)``).  Every rule is homogeneous of degree
one in the secants, so it is applied to the secants in the knot's unit,
``m_j g_i = Δ_j · g_i / h_j``: value differences times ratios of widths,
never a quotient of size Δ/h.

Periodic data (closed knots: the last knot is the first plus the period, with
the same value) have no ends: every knot has neighbours across the period.
`local_rule` extends the closed data by two cells on each side, taken
cyclically — enough for the widest stencil (Akima's two secants per side) —
and keeps the slopes of the original knots.  The rule's end formulas then act
only on the extension and never reach a kept slope; a rule with a global
quantity (Akima's cutoff, relative to a maximum over the knots) takes it over
the kept knots only.  So the slopes do not depend on where the period starts.
In the extension the closing knot is not the last, so its slope comes in the
unit of the cell after it, h_0; it is given in its left cell's, h_{n-2}.

Data-dependent rules (monotonic, Akima) compare signs and magnitudes, which
complex numbers lack: `by_parts` applies them to the real and imaginary parts
separately — the interpolant of a complex function is that of its two parts.
"""

import jax.numpy as jnp

from .ends import PERIODIC

_WRAP = 2  # cells of cyclic extension on each side: the widest stencil's reach


def interior_secants(h, delta):
    """The secants on both sides of knots 1 … n-2 in the knot's unit h_i, ``(n-2, k)`` each:
    ``m_{i-1} h_i = Δ_{i-1} · h_i / h_{i-1}`` and ``m_i h_i = Δ_i``."""
    return delta[:-1] * (h[1:] / h[:-1])[:, None], delta[1:]


def share(h_other, h_own):
    """``h_own / (h_other + h_own)`` as ``1 / (1 + h_other / h_own)``: the sum of two
    widths can overflow where each is representable."""
    return 1 / (1 + h_other / h_own)


def local_rule(rule):
    """A slopes function ``(h, values, ends, **options)`` for ``rule(h, values, **options)``.

    ``ends`` only says whether the data are periodic; local rules have no
    boundary conditions to set.
    """

    def slopes(h, values, ends, **options):
        if ends.kinds[0] != PERIODIC:
            return rule(h, values, slice(None), **options)
        cells = h.shape[0]  # closed knots: n = cells + 1, values[-1] == values[0]
        knots = jnp.arange(-_WRAP, cells + _WRAP + 1) % cells
        u = rule(h[knots[:-1]], values[knots], slice(_WRAP, _WRAP + cells + 1), **options)
        return jnp.concatenate([u[:-1], u[-1:] * (h[-1] / h[0])])  # u_n = s h_{n-2}, not s h_0

    return slopes


def by_parts(rule):
    """``rule`` on real values; complex values as real and imaginary parts apart."""

    def on_parts(h, values, keep, **options):
        if not jnp.iscomplexobj(values):
            return rule(h, values, keep, **options)
        return rule(h, values.real, keep, **options) + 1j * rule(h, values.imag, keep, **options)

    return on_parts
