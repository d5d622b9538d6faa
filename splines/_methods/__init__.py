"""Knot slopes, one file per family; `splines._methods` registers them.

- `cubic2`:            the C² spline's tridiagonal system (boundary conditions);
- `finite_difference`: "cubic", "cardinal", "catmull-rom" (neighbouring secants);
- `pchip`:             "monotonic", "monotonic-0" (shape-preserving);
- `akima`:             "akima", "makima";
- `_local`:            what the local rules share (secants, periodic wrap, complex parts);
- `_units`:            the unit of each knot's slope.

Every rule returns the slopes ``(n, k)`` at the knots in units of a cell
width per knot, ``u_i = s_i g_i`` (``g_i = h_i``, the last knot ``h_{n-2}``;
`_units`), from cell widths ``h (n-1,)`` — only their ratios enter, except
through cubic2's boundary derivative values, which are in h's unit — and
values ``(n, k)`` (the local rules also take the slice of knots to keep, see
`_local`); `_hermite.cubic_pieces` turns them into pieces and
`_units.as_dydx` into dy/dx.
"""

from ._local import by_parts, local_rule
from .akima import akima_slopes, makima_slopes
from .cubic2 import cubic2_slopes
from .finite_difference import cardinal_slopes, catmull_rom_slopes, cubic_slopes
from .pchip import monotonic_slopes, monotonic_zero_end_slopes

__all__ = [
    "akima_slopes", "by_parts", "cardinal_slopes", "catmull_rom_slopes", "cubic2_slopes",
    "cubic_slopes", "local_rule", "makima_slopes", "monotonic_slopes",
    "monotonic_zero_end_slopes",
]  # fmt: skip
