"""Tridiagonal lineax operators read as three bands, and `tridiagonal_solve`'s two call forms.

lineax is optional and its import is guarded here, once: without it no
lineax operator can exist, so `bands_and_rhs` only ever sees the four-band
form.  Convention: ``lx.TridiagonalLinearOperator(diagonal, lower_diagonal,
upper_diagonal)`` has ``lower_diagonal[i] = A[i+1, i]`` and
``upper_diagonal[i] = A[i, i+1]`` (lineax's ``as_matrix``): ours exactly; only
the order differs, and ``lx.tridiagonal(op)`` returns ``(diag, lower, upper)``.
Any operator lineax calls tridiagonal (``lx.is_tridiagonal``: tagged
matrices, diagonal operators, sums, scalings, transposes) is read the same
way, as `lx.Tridiagonal` does.
"""

from typing import Any

import numpy as np
from jaxtyping import Array

try:
    import lineax as lx
except ImportError:  # optional: pip install "jax-splines[lineax]"
    lx = None

_FORMS = (
    "`tridiagonal_solve` takes `(lower, diag, upper, rhs)` or `(operator, rhs)` with "
    "`operator` a tridiagonal lineax operator"
)


def lineax_bands(operator: Any) -> tuple[Array, Array, Array] | None:
    """``(lower, diag, upper)`` of a tridiagonal lineax operator; None for anything else.

    A lineax operator that is not tridiagonal raises `ValueError`.
    """
    if lx is None or not isinstance(operator, lx.AbstractLinearOperator):
        return None
    if not lx.is_tridiagonal(operator):
        raise ValueError(
            "`operator` must be tridiagonal (`lineax.is_tridiagonal(operator)`; tag a "
            f"matrix with `lineax.tridiagonal_tag`); got a {type(operator).__name__}."
        )
    diag, lower, upper = lx.tridiagonal(operator)  # lineax's order
    return lower, diag, upper


def bands_and_rhs(lower, diag, upper, rhs):
    """The four arrays of `tridiagonal_solve` from either of its two call forms.

    ``(operator, rhs)`` arrives as ``lower=operator`` with ``rhs`` in ``diag``
    (positional) or in ``rhs`` (keyword).
    """
    bands = lineax_bands(lower)
    if bands is None:
        missing = [
            f"`{k}`" for k, a in (("diag", diag), ("upper", upper), ("rhs", rhs)) if a is None
        ]
        if missing:
            raise TypeError(
                f"{_FORMS}; got `lower` of type {type(lower).__name__} "
                f"without {', '.join(missing)}."
            )
        return lower, diag, upper, rhs
    given = [a for a in (diag, upper, rhs) if a is not None]
    if len(given) != 1 or upper is not None:
        raise TypeError(
            f"{_FORMS}; got a {type(lower).__name__} followed by {len(given)} more arguments."
        )
    (rhs,) = given
    n = bands[1].shape[-1]
    if np.ndim(rhs) < 1 or np.shape(rhs)[-1] != n:
        raise ValueError(
            f"`rhs` must have last-axis length n = {n}, the size of "
            f"`operator`; got `rhs.shape`={np.shape(rhs)}."
        )
    return *bands, rhs
