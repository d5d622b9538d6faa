"""The interpolation methods: how each builds its pieces, and whether it solves."""

from typing import Callable, NamedTuple, Optional

from ._hermite import cubic_pieces, linear_pieces, nearest_pieces
from ._slopes import cubic2_slopes


class Method(NamedTuple):
    pieces: Callable  # (t, h, y0, y1, s0, s1) -> polynomial coefficients
    slopes: Optional[Callable]  # (xp, fp, ends) -> knot slopes, or None


METHODS = {
    "nearest": Method(nearest_pieces, None),
    "linear": Method(linear_pieces, None),
    "cubic2": Method(cubic_pieces, cubic2_slopes),
}


def get_method(method: str) -> Method:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"`method`={method!r} is not one of {sorted(METHODS)}.")
    return METHODS[method]
