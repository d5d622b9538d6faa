"""The interpolation methods: whether each solves for slopes, how it builds pieces."""

from typing import Callable, NamedTuple, Optional

from ._hermite import cubic_pieces, linear_pieces, nearest_pieces
from ._slopes import cubic2_slopes


class Method(NamedTuple):
    slopes: Optional[Callable]  # (widths, fp, ends) -> knot slopes dy/dx, or None
    pieces: Callable  # (xp, widths, fp, slopes) -> (breaks, local coefficients)
    right_closed: bool = False  # a point on a break takes the piece on its left


METHODS = {
    # scipy's nearest takes the left value at a midpoint tie.
    "nearest": Method(None, nearest_pieces, right_closed=True),
    "linear": Method(None, linear_pieces),
    "cubic2": Method(cubic2_slopes, cubic_pieces),
}


def get_method(method: str) -> Method:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"`method`={method!r} is not one of {sorted(METHODS)}.")
    return METHODS[method]
