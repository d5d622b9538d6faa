"""The lineax bridge: lineax's tridiagonal operators onto `tridiagonal_solve`.

Why: `lineax.linear_solve` wraps every solve in its error check
(`eqx.error_if`): a conditional holding two host callbacks, in the forward
solve unless ``throw=False`` and in every tangent and cotangent solve always.
Such a program cannot be exported (`jax.export`) nor lowered for a GPU on a
machine without one; compiled ahead of time (``jax.jit(f).lower(...)
.compile()``) it runs off JAX's C++ dispatch path (measured, jax 0.10: 106
against 17 µs per call; plain `jax.jit` keeps the fast path); and on GPUs
the conditional's predicate is copied to the host on every call.  Our
primitive has none of this.  Two ways across:

- ``tridiagonal_solve(operator, rhs)``: read the three bands off the operator
  and call the primitive directly — no lineax wrapper at all; derivatives and
  vmap are the primitive's own rules.  The way for new code.
- `Tridiagonal`: a lineax solver, for code that must keep ``lx.linear_solve``
  (generic code taking a solver, ``lx.invert``, ...).  The solve is our
  kernel, but lineax's wrapper — its checks, its callbacks, its derivative
  rules (which call `Tridiagonal` again for each tangent/cotangent solve) — stays.

Convention: ``lx.TridiagonalLinearOperator(diagonal, lower_diagonal,
upper_diagonal)`` has ``lower_diagonal[i] = A[i+1, i]`` and
``upper_diagonal[i] = A[i, i+1]`` (lineax's ``as_matrix``): ours exactly; only
the order differs, and ``lx.tridiagonal(op)`` returns ``(diag, lower, upper)``.
Any operator lineax calls tridiagonal (``lx.is_tridiagonal``: tagged
matrices, diagonal operators, sums, scalings, transposes) is read the same
way, as `lx.Tridiagonal` does.

lineax is optional.  Its import is guarded here, once: without it no lineax
operator can exist, so `bands_and_rhs` only ever sees the four-band form, and
`Tridiagonal` is a placeholder that raises `ImportError` naming the fix when it is
constructed — so ``splines.Tridiagonal`` exists in every install and fails at the
point of use, not at ``import splines``.
"""

from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float

try:
    import lineax as lx
except ImportError:  # optional: pip install "splines[lineax]"
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
        missing = [f"`{k}`" for k, a in (("diag", diag), ("upper", upper), ("rhs", rhs))
                   if a is None]  # fmt: skip
        if missing:
            raise TypeError(f"{_FORMS}; got `lower` of type {type(lower).__name__} "
                            f"without {', '.join(missing)}.")  # fmt: skip
        return lower, diag, upper, rhs
    given = [a for a in (diag, upper, rhs) if a is not None]
    if len(given) != 1 or upper is not None:
        raise TypeError(f"{_FORMS}; got a {type(lower).__name__} followed by "
                        f"{len(given)} more arguments.")  # fmt: skip
    (rhs,) = given
    n = bands[1].shape[-1]
    if np.ndim(rhs) < 1 or np.shape(rhs)[-1] != n:
        raise ValueError(f"`rhs` must have last-axis length n = {n}, the size of "
                         f"`operator`; got `rhs.shape`={np.shape(rhs)}.")  # fmt: skip
    return *bands, rhs


def _check_vector_operator(operator):
    """`Tridiagonal` solves operators from and to vectors of shape (n,); lineax allows pytrees."""
    ins, outs = operator.in_structure(), operator.out_structure()
    vectors = all(isinstance(s, jax.ShapeDtypeStruct) and s.ndim == 1 for s in (ins, outs))
    if not vectors or ins.shape != outs.shape:
        raise ValueError(
            "`Tridiagonal` solves operators from and to one vector of shape (n,); got an "
            f"`operator` with in_structure {ins} and out_structure {outs}."
        )


_Bands = tuple[Float[Array, " n-1"], Float[Array, " n"], Float[Array, " n-1"]]

if lx is not None:

    class Tridiagonal(lx.AbstractLinearSolver[_Bands]):
        """A lineax solver for tridiagonal operators on `splines.tridiagonal_solve`.

        ``lx.linear_solve(operator, vector, splines.Tridiagonal())`` solves as
        ``lx.Tridiagonal()`` does (partial pivoting as LAPACK ``gtsv``), on our
        callback-free primitive; ``Tridiagonal(pivoting=False)``: the Thomas
        algorithm, for diagonally dominant operators only (see
        `tridiagonal_solve`).  lineax's own wrapper stays: its error check
        (host callbacks unless ``throw=False``, and always in derivatives)
        and derivative rules.  For none of it, call
        ``splines.tridiagonal_solve(operator, vector)``.

        The operator: anything ``lx.is_tridiagonal`` accepts, from and to one
        vector of shape (n,).  Its state is the bands ``(lower, diag, upper)``.
        """

        pivoting: bool = eqx.field(static=True, default=True)

        def __check_init__(self):
            from ._tridiagonal import _check_pivoting  # not at the top: it imports us

            _check_pivoting(self.pivoting)

        def init(self, operator: "lx.AbstractLinearOperator", options: dict[str, Any]) -> _Bands:
            del options
            _check_vector_operator(operator)
            return lineax_bands(operator)

        def compute(
            self, state: _Bands, vector: Float[Array, " n"], options: dict[str, Any]
        ) -> tuple[Float[Array, " n"], "lx.RESULTS", dict[str, Any]]:
            from ._tridiagonal import tridiagonal_solve  # not at the top: it imports us

            del options
            solution = tridiagonal_solve(*state, vector, pivoting=self.pivoting)
            return solution, lx.RESULTS.successful, {}

        def transpose(self, state: _Bands, options: dict[str, Any]):
            lower, diag, upper = state  # Aᵀ swaps the off-diagonals
            return (upper, diag, lower), options

        def conj(self, state: _Bands, options: dict[str, Any]):
            return tuple(jnp.conj(band) for band in state), options

        def assume_full_rank(self) -> bool:
            return True  # A square, nonsingular: lineax's JVP drops its pseudo-inverse terms

else:

    class Tridiagonal:
        """Placeholder: `Tridiagonal` is a lineax solver and lineax is not installed."""

        def __init__(self, pivoting: bool = True):
            raise ImportError(
                "`splines.Tridiagonal` is a lineax solver and lineax is not installed: "
                '`pip install "splines[lineax]"` (or `pip install lineax`).'
            )
