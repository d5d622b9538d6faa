"""The interpolation methods: how each finds its knot slopes, how it builds pieces.

A method is a registry entry: a slopes rule (or none), a pieces rule, and
what it accepts.  Adding a method means a slope rule in this package and a line here;
fitting and evaluation do not change.
"""

from collections.abc import Callable
from typing import NamedTuple

from .._pieces.polynomials import cubic_pieces, linear_pieces, nearest_pieces
from .akima import akima_grid_slopes, akima_slopes, makima_grid_slopes, makima_slopes
from .cubic2 import cubic2_slopes
from .finite_difference import cardinal_slopes, catmull_rom_slopes, cubic_slopes
from .local import by_parts, local_rule
from .pchip import monotonic_slopes, monotonic_zero_end_slopes


class Method(NamedTuple):
    slopes: Callable | None  # (widths, values, ends, **options) -> knot slopes dy/dx
    pieces: Callable  # (xp, widths, values, slopes) -> (breaks, local coefficients)
    right_closed: bool = False  # a point on a break takes the piece on its left
    takes_bc_type: bool = False  # boundary conditions set its slopes (a solve)
    takes_tension: bool = False  # the cardinal tension `c`
    grid_slopes: Callable | None = None  # `slopes` on a grid's lines, where it differs
    all_lines_at_once: bool = False  # its rule takes a maximum over every line (Akima's cutoff)
    breaks_at_knots: bool = True  # even knots give even breaks (`even_spacing` may apply)


def _local(rule, **kwargs) -> Method:
    return Method(local_rule(rule), cubic_pieces, **kwargs)


METHODS = {
    # scipy's nearest takes the left value at a midpoint tie.
    # Its breaks are the midpoints between knots, half a cell in from the ends: not even.
    "nearest": Method(None, nearest_pieces, right_closed=True, breaks_at_knots=False),
    "linear": Method(None, linear_pieces),
    "cubic2": Method(cubic2_slopes, cubic_pieces, takes_bc_type=True),
    "cubic": _local(cubic_slopes),
    "catmull-rom": _local(catmull_rom_slopes),
    "cardinal": _local(cardinal_slopes, takes_tension=True),
    "monotonic": _local(by_parts(monotonic_slopes)),
    "monotonic-0": _local(by_parts(monotonic_zero_end_slopes)),
    "akima": _local(
        by_parts(akima_slopes),
        grid_slopes=local_rule(by_parts(akima_grid_slopes)),
        all_lines_at_once=True,
    ),
    "makima": _local(
        by_parts(makima_slopes),
        grid_slopes=local_rule(by_parts(makima_grid_slopes)),
        all_lines_at_once=True,
    ),
}

CUBIC_METHODS = tuple(name for name, m in METHODS.items() if m.pieces is cubic_pieces)


def get_method(method: str) -> Method:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"`method`={method!r} is not one of {sorted(METHODS)}.")
    return METHODS[method]
