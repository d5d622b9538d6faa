"""Knot slopes, one file per family; `splines._methods` registers them.

- `cubic2`:            the C² spline's tridiagonal system (boundary conditions);
- `finite_difference`: "cubic", "cardinal", "catmull-rom" (neighbouring secants);
- `pchip`:             "monotonic", "monotonic-0" (shape-preserving);
- `akima`:             "akima", "makima";
- `_local`:            what the local rules share (secants, periodic wrap, complex parts).

Every rule returns slopes dy/dx ``(n, k)`` at the knots from cell widths
``h (n-1,)`` and values ``(n, k)`` (the local rules also take the slice of
knots to keep, see `_local`); `_hermite.cubic_pieces` turns them into pieces.
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
