"""What a suite declares: cases of contenders, and the targets they must meet.

A suite module (``benchmarks/suites/<name>.py``) defines ``cases(mode)``,
returning a list of `Case`; ``mode`` is ``"full"``, ``"quick"`` or ``"smoke"``
(tiny sizes, one repeat: the test suite's check that the plumbing works).
A case builds its contenders only when it runs (`Case.build`), so that
listing the cases costs nothing and a case's data is freed after it.

Each `Contender` is one way to compute the case's answer: ``fn(*args)`` is
what gets timed; ``library`` groups the lines of a plot; ``check`` names the
contender whose result this one must match (``max|Δ|`` in the tables), and
None means nothing to compare.  A `Target` is a bound on a ratio of medians:
``numerator`` over the fastest of ``denominators``, in one timing regime.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence


@dataclasses.dataclass
class Contender:
    name: str
    library: str  # "splines", "interpax", "scipy", "lax", "lineax", "jax", ...
    fn: Callable
    args: tuple
    check: str | None = None  # the contender whose result this one must equal


@dataclasses.dataclass
class Target:
    """``median(numerator) / min(median(d) for d in denominators) ≤ bound``."""

    description: str  # e.g. "≥ 2x faster than interpax's fastest way"
    numerator: str
    denominators: Sequence[str]
    bound: float
    regime: str = "blocked"


@dataclasses.dataclass
class Case:
    suite: str
    name: str  # unique within the suite, e.g. "cubic2 n=64 q=1000"
    params: dict  # sizes and options, recorded in the JSON
    build: Callable[[], list[Contender]]
    dtype: str = "float32"  # "float64" cases run with jax x64 enabled
    sweep: str | tuple[str, ...] | None = None  # cases sharing a sweep form one plot ...
    x: str | tuple[str, ...] | None = None  # ... against params[x] (one x per sweep)
    regimes: tuple[str, ...] = ("blocked",)  # "pipelined" too where latency hides
    targets: list[Target] = dataclasses.field(default_factory=list)
    baseline: str | None = None  # ratios in the table are to this contender (default: first)
