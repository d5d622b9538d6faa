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

The bands are read as `operators` reads them.  lineax is optional:
without it `Tridiagonal` is a placeholder that raises `ImportError` naming the fix when it is
constructed — so ``splines.Tridiagonal`` exists in every install and fails at the
point of use, not at ``import splines``.
"""

from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float

from .operators import lineax_bands, lx
from .tridiagonal import check_pivoting, tridiagonal_solve


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
            check_pivoting(self.pivoting)

        def init(self, operator: "lx.AbstractLinearOperator", options: dict[str, Any]) -> _Bands:
            del options
            _check_vector_operator(operator)
            return lineax_bands(operator)

        def compute(
            self, state: _Bands, vector: Float[Array, " n"], options: dict[str, Any]
        ) -> tuple[Float[Array, " n"], "lx.RESULTS", dict[str, Any]]:
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
                '`pip install "jax-splines[lineax]"` (or `pip install lineax`).'
            )
