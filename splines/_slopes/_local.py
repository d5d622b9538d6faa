"""What every local slope rule shares: secants, periodic wrapping, complex values.

A *local* rule gives the slope at knot i from the secants of a few cells
around it, ``m_j = (y_{j+1} − y_j) / h_j``, with its own rule at the two ends.
The rules here take widths ``h (n-1,)``, values ``(n, k)`` (k columns) and
``keep``, a slice of the knots whose slopes are wanted, and return those
slopes in x units (``(n, k)`` for ``keep = slice(None)``).

Periodic data (closed knots: the last knot is the first plus the period, with
the same value) have no ends: every knot has neighbours across the period.
`local_rule` extends the closed data by two cells on each side, taken
cyclically — enough for the widest stencil (Akima's two secants per side) —
and keeps the slopes of the original knots.  The rule's end formulas then act
only on the extension and never reach a kept slope; a rule with a global
quantity (Akima's cutoff, relative to a maximum over the knots) takes it over
the kept knots only.  So the slopes do not depend on where the period starts.

Data-dependent rules (monotonic, Akima) compare signs and magnitudes, which
complex numbers lack: `by_parts` applies them to the real and imaginary parts
separately — the interpolant of a complex function is that of its two parts.
"""

import jax.numpy as jnp

from .._boundary import PERIODIC

_WRAP = 2  # cells of cyclic extension on each side: the widest stencil's reach


def secants(h, values):
    """``m_j = (y_{j+1} − y_j) / h_j``: ``(n-1, k)``."""
    return jnp.diff(values, axis=0) / h[:, None]


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
        return rule(h[knots[:-1]], values[knots], slice(_WRAP, _WRAP + cells + 1), **options)

    return slopes


def by_parts(rule):
    """``rule`` on real values; complex values as real and imaginary parts apart."""

    def on_parts(h, values, keep, **options):
        if not jnp.iscomplexobj(values):
            return rule(h, values, keep, **options)
        return rule(h, values.real, keep, **options) + 1j * rule(h, values.imag, keep, **options)

    return on_parts


def safe_divide(numerator, denominator, where_zero):
    """``numerator / denominator``, or ``where_zero`` where the denominator is 0.

    The division never sees a zero, so its gradient stays finite where the
    other value is chosen (``where(d == 0, z, n / d)`` would give NaN there).
    """
    zero = denominator == 0
    return jnp.where(zero, where_zero, numerator / jnp.where(zero, 1, denominator))
