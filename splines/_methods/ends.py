"""End conditions as the slope rules see them: a static kind per end and its value.

Each end of a cubic2 spline has a *kind* — ``"not-a-knot"``, ``"periodic"``,
or the derivative order ``1``/``2`` — that steers Python-level branches at
trace time, and for derivative kinds a *value* (an array, differentiable,
possibly traced).  Local rules only ask whether the data are periodic.
"""

from typing import NamedTuple

NOT_A_KNOT, PERIODIC = "not-a-knot", "periodic"


class EndConditions(NamedTuple):
    """``kinds``: static pair; ``values``: the two derivative values (0 when unused)."""

    kinds: tuple  # e.g. ("not-a-knot", 2)
    values: tuple  # two arrays (or Python numbers)
