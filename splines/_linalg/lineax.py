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

from typing import TYPE_CHECKING, Any

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Float

from .operators import lineax_bands, lx
from .tridiagonal import check_pivoting, tridiagonal_solve

if TYPE_CHECKING:  # the solver's types (at run time lineax may be absent: `operators`)
    import lineax as lx


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

# Type checkers see the lineax solver, not the placeholder of an install without lineax.
if TYPE_CHECKING or lx is not None:

    class Tridiagonal(lx.AbstractLinearSolver[_Bands]):
        """A lineax solver for tridiagonal operators, on `tridiagonal_solve`.

        ``lineax.linear_solve(operator, vector, splines.Tridiagonal())``
        solves as ``lineax.Tridiagonal()`` does (partial pivoting as LAPACK
        ``gtsv``), on this package's callback-free primitive.  For code that
        must keep lineax's interface (generic code taking a solver,
        ``lineax.invert``, …).  lineax's own wrapper stays: its error check
        (host callbacks unless ``throw=False``, and always in derivatives)
        and its derivative rules, which call this solver again for each
        tangent and cotangent solve.  For none of it, call
        ``splines.tridiagonal_solve(operator, vector)``.

        Needs lineax (``pip install "jax-splines[lineax]"``); without it,
        ``splines.Tridiagonal`` exists and raises `ImportError` when
        constructed.

        Parameters
        ----------
        pivoting : bool, default True
            A Python bool: partial pivoting (any nonsingular operator), or,
            ``False``, the Thomas algorithm, for diagonally dominant
            operators only (see `tridiagonal_solve`).

        Raises
        ------
        TypeError
            ``pivoting`` not a Python bool.

        See Also
        --------
        tridiagonal_solve : The primitive, also for lineax operators.

        Notes
        -----
        The operator: anything ``lineax.is_tridiagonal`` accepts, from and to
        one vector of shape (n,).  The solver's state is its bands
        ``(lower, diag, upper)``.  A singular operator gives inf/NaN, which
        lineax's wrapper reports as its non-finite-output failure (raised
        with ``throw=True``, in ``solution.result`` otherwise).

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import lineax as lx
        >>> import numpy as np
        >>> import splines
        >>> ones = jnp.ones(2)
        >>> op = lx.TridiagonalLinearOperator(jnp.array([2.0, 2.0, 2.0]), ones, ones)
        >>> solution = lx.linear_solve(op, jnp.array([3.0, 4.0, 3.0]), splines.Tridiagonal())
        >>> print(np.round(np.asarray(solution.value), 6))
        [1. 1. 1.]
        """

        pivoting: bool = eqx.field(static=True, default=True)

        def __check_init__(self) -> None:
            check_pivoting(self.pivoting)

        def init(self, operator: "lx.AbstractLinearOperator", options: dict[str, Any]) -> _Bands:
            """Read the operator's bands: the solver's state (lineax's interface).

            Parameters
            ----------
            operator : lineax.AbstractLinearOperator
                A tridiagonal operator (``lineax.is_tridiagonal``) from and to
                one vector of shape (n,).
            options : dict
                lineax's solver options (unused).

            Returns
            -------
            (lower, diag, upper) : tuple of jax.Array
                The bands, of shapes (n - 1,), (n,), (n - 1,).

            Raises
            ------
            ValueError
                An operator that is not tridiagonal or not on vectors.

            Examples
            --------
            >>> import jax.numpy as jnp
            >>> import lineax as lx
            >>> import numpy as np
            >>> import splines
            >>> ones = jnp.ones(2)
            >>> op = lx.TridiagonalLinearOperator(jnp.array([2.0, 2.0, 2.0]), ones, 3 * ones)
            >>> lower, diag, upper = splines.Tridiagonal().init(op, {})
            >>> print(np.asarray(lower), np.asarray(diag), np.asarray(upper))
            [1. 1.] [2. 2. 2.] [3. 3.]
            """
            del options
            _check_vector_operator(operator)
            return lineax_bands(operator)

        def compute(
            self, state: _Bands, vector: Float[Array, " n"], options: dict[str, Any]
        ) -> tuple[Float[Array, " n"], "lx.RESULTS", dict[str, Any]]:
            """Solve with the bands of `init` (lineax's interface).

            Parameters
            ----------
            state : tuple of jax.Array
                ``(lower, diag, upper)``, from `init`.
            vector : jax.Array, shape (n,)
                The right-hand side.
            options : dict
                lineax's solver options (unused).

            Returns
            -------
            solution : jax.Array, shape (n,)
                The solution (inf/NaN for a singular operator).
            result : lineax.RESULTS
                Always ``lineax.RESULTS.successful``; lineax's wrapper checks
                the solution for inf/NaN itself.
            stats : dict
                Empty.

            Examples
            --------
            >>> import jax.numpy as jnp
            >>> import lineax as lx
            >>> import numpy as np
            >>> import splines
            >>> ones = jnp.ones(2)
            >>> op = lx.TridiagonalLinearOperator(jnp.array([2.0, 2.0, 2.0]), ones, 3 * ones)
            >>> solver = splines.Tridiagonal()
            >>> state = solver.init(op, {})
            >>> x, result, stats = solver.compute(state, jnp.array([5.0, 6.0, 3.0]), {})
            >>> print(np.round(np.asarray(x), 6))
            [1. 1. 1.]
            """
            del options
            solution = tridiagonal_solve(*state, vector, pivoting=self.pivoting)
            return solution, lx.RESULTS.successful, {}

        def transpose(
            self, state: _Bands, options: dict[str, Any]
        ) -> tuple[_Bands, dict[str, Any]]:
            """The state of the transposed operator: its bands with ``lower`` and ``upper`` swapped.

            Parameters
            ----------
            state : tuple of jax.Array
                ``(lower, diag, upper)``, from `init`.
            options : dict
                lineax's solver options, returned as they are.

            Returns
            -------
            (state, options) : tuple
                ``((upper, diag, lower), options)``.

            Examples
            --------
            >>> import jax.numpy as jnp
            >>> import lineax as lx
            >>> import numpy as np
            >>> import splines
            >>> ones = jnp.ones(2)
            >>> op = lx.TridiagonalLinearOperator(jnp.array([2.0, 2.0, 2.0]), ones, 3 * ones)
            >>> solver = splines.Tridiagonal()
            >>> (lower, diag, upper), _ = solver.transpose(solver.init(op, {}), {})
            >>> print(np.asarray(lower), np.asarray(upper))
            [3. 3.] [1. 1.]
            """
            lower, diag, upper = state  # Aᵀ swaps the off-diagonals
            return (upper, diag, lower), options

        def conj(self, state: _Bands, options: dict[str, Any]) -> tuple[_Bands, dict[str, Any]]:
            """The state of the complex-conjugated operator: each band conjugated.

            Parameters
            ----------
            state : tuple of jax.Array
                ``(lower, diag, upper)``, from `init`.
            options : dict
                lineax's solver options, returned as they are.

            Returns
            -------
            (state, options) : tuple
                The conjugated bands and ``options``.

            Examples
            --------
            >>> import jax.numpy as jnp
            >>> import lineax as lx
            >>> import numpy as np
            >>> import splines
            >>> ones = jnp.ones(2)
            >>> op = lx.TridiagonalLinearOperator(jnp.array([2.0, 2.0, 2.0]), ones, 3 * ones)
            >>> solver = splines.Tridiagonal()
            >>> (lower, diag, upper), _ = solver.conj(solver.init(op, {}), {})
            >>> print(np.asarray(diag))
            [2. 2. 2.]
            """
            return tuple(jnp.conj(band) for band in state), options

        def assume_full_rank(self) -> bool:
            """Whether lineax may assume a full-rank operator: always True.

            The operator is square and taken to be nonsingular, so lineax's
            derivative rules drop their pseudo-inverse terms.

            Returns
            -------
            bool
                True.

            Examples
            --------
            >>> import splines
            >>> splines.Tridiagonal().assume_full_rank()
            True
            """
            return True  # A square, nonsingular: lineax's JVP drops its pseudo-inverse terms

else:

    class Tridiagonal:
        """Placeholder for the lineax solver `Tridiagonal`: lineax is not installed.

        ``splines.Tridiagonal`` exists in every install and fails at the point
        of use, not at ``import splines``.

        Parameters
        ----------
        pivoting : bool, default True
            As the lineax solver's.

        Raises
        ------
        ImportError
            Always, naming the fix: ``pip install "jax-splines[lineax]"``.

        Examples
        --------
        >>> import splines
        >>> splines.Tridiagonal()  # doctest: +SKIP
        Traceback (most recent call last):
        ImportError: `splines.Tridiagonal` is a lineax solver and lineax is not installed: ...
        """

        def __init__(self, pivoting: bool = True):
            raise ImportError(
                "`splines.Tridiagonal` is a lineax solver and lineax is not installed: "
                '`pip install "jax-splines[lineax]"` (or `pip install lineax`).'
            )
