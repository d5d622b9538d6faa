"""`RBFInterpolator`: scipy's and interpax's radial basis function interpolator, in JAX.

The arguments are checked here, once; the fit and the evaluation are
`interpolant.py` (all sites) and `neighbors.py` (each query's nearest sites).
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._utils.dtypes import (
    check_real,
    compute_dtype,
    lists_to_arrays,
    result_type,
    warn_if_x64_disabled,
)
from .._utils.validate import check_values_eagerly, is_concrete, static_int
from .interpolant import evaluate, fit, held_fit
from .kernels import KERNELS, MIN_DEGREE, SCALE_FREE
from .neighbors import local_values
from .polynomial import domain, monomial_powers, polynomial_matrix


class RBFInterpolator(eqx.Module):
    r"""Radial basis function interpolation of scattered data in any number of dimensions.

    scipy's ``scipy.interpolate.RBFInterpolator`` (and interpax's), differentiable with
    respect to the sites, the values, the queries, ``epsilon`` and ``smoothing``; an
    equinox module, so it can be built and called inside `jax.jit`, `jax.vmap` and
    `jax.grad`.

    .. math::

        f(x) = \sum_j c_j\, \phi(\varepsilon \lVert x - y_j \rVert) + \sum_k b_k\, p_k(x),
        \qquad (K + \operatorname{diag}(s))\, c + P b = d, \quad P^T c = 0.

    Parameters
    ----------
    y : (P, N) array_like
        The data sites.
    d : (P, ...) array_like
        The data values, real or complex, of any trailing shape.
    neighbors : int, optional
        Each query uses only its ``neighbors`` nearest sites (its own interpolant). All
        sites by default. Static: it selects the program.
    smoothing : float or (P,) array_like, optional
        Added to the kernel matrix's diagonal: 0 (the default) interpolates; larger
        values approach the least-squares polynomial of ``degree``. Must be ≥ 0.
    kernel : str, optional
        ``"thin_plate_spline"`` (default, r² log r), ``"linear"`` (−r), ``"cubic"`` (r³),
        ``"quintic"`` (−r⁵), ``"multiquadric"`` (−√(1 + r²)), ``"inverse_multiquadric"``
        (1/√(1 + r²)), ``"inverse_quadratic"`` (1/(1 + r²)) or ``"gaussian"`` (e^{−r²}),
        with r = ε‖x − y‖.
    epsilon : float, optional
        The shape parameter ε > 0. Defaults to 1 for the kernels it only rescales
        (linear, thin plate spline, cubic, quintic); required for the others.
    degree : int, optional
        Degree of the polynomial tail, −1 for none. At least the kernel's minimum —
        0 for linear and multiquadric, 1 for thin plate spline and cubic, 2 for quintic —
        which is also the default (0 for the kernels without a minimum). Below it the
        system need not be solvable: a `ValueError`, where scipy only warns.

    Attributes
    ----------
    y, d, smoothing, epsilon, kernel, neighbors, powers, d_shape, d_dtype
        As scipy's: ``d`` is (P, S) with complex values as pairs of real columns,
        ``powers`` the (R, N) exponents of the tail's monomials.

    Notes
    -----
    **The solve.** The system is symmetric and indefinite; it is solved as scipy solves
    it, by LU with partial pivoting (`splines._scattered.solve`), in O(P³). The
    coefficients' relative error grows as the system's condition number times the
    machine epsilon: large for flat kernels (the Gaussian and the (inverse)
    multiquadrics at ε below about one per site spacing) and for many close sites
    without smoothing. The values suffer far less, because the solve is backward stable:
    40 sites in [0, 1], Gaussian ε = 2 (condition number ~6e15) are 4e-9 from a 60-digit
    solve, as scipy's are. Where rounding makes the system singular, the coefficients
    are NaN — a `ValueError` for concrete arguments — rather than a plausible wrong
    number; a larger ``epsilon``, some ``smoothing`` or float64 restore it.

    **Derivatives** with respect to ``y``, ``d``, ``smoothing`` and ``epsilon`` reuse the
    LU factors (one more pair of triangular solves). A fitted module holds its
    coefficients without derivatives and a call takes them from the data, so the
    gradient of a call with respect to the module (``equinox.filter_grad``) is right,
    at the cost of one more fit in the derivative's program. The kernels r, r³, r⁵ and
    r² log r are not smooth at r = 0: at a data site the gradient is their (sub)gradient,
    and the second derivatives of r and r² log r there are finite though the true ones
    diverge.

    **Invalid data.** Concrete arguments are checked eagerly: non-finite sites or values,
    negative smoothing, ε ≤ 0, too few sites for the polynomial, a polynomial block of
    deficient rank, and coincident sites without smoothing (named by their indices)
    raise `ValueError`, as does an eager call whose query has a singular neighbourhood.
    Under a trace the same cases give NaN values and gradients, everywhere (with
    ``neighbors`` too).

    **Neighbours.** The k nearest sites are found by brute force in batches of queries
    (memory ∝ batch × P, time ∝ queries × P), without host callbacks, float32 distances
    choosing k + 8 candidates (so more than 8 sites tied with the k-th to float32
    rounding may give another valid-looking choice); each query then solves its own
    (k + R)-sized system. Unlike scipy, queries with the same
    neighbourhood are not grouped; with ``neighbors ≥ P`` the global fit is used (the
    same interpolant).

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> import splines
    >>> y = jax.random.uniform(jax.random.key(0), (50, 2))
    >>> d = jnp.sin(3 * y[:, 0]) * y[:, 1]
    >>> f = splines.RBFInterpolator(y, d)
    >>> bool(jnp.allclose(f(y), d, atol=1e-4))
    True
    >>> jax.grad(lambda x: f(x[None])[0])(jnp.array([0.5, 0.5])).shape
    (2,)
    """

    y: Float[Array, "P N"]
    d: Float[Array, "P S"]
    smoothing: Float[Array, " P"]
    epsilon: Float[Array, ""]
    _shift: Float[Array, " N"] | None
    _scale: Float[Array, " N"] | None
    _coefficients: Float[Array, "P+R S"] | None
    kernel: str = eqx.field(static=True)
    neighbors: int | None = eqx.field(static=True)
    _powers: tuple[tuple[int, ...], ...] = eqx.field(static=True)
    d_shape: tuple[int, ...] = eqx.field(static=True)
    d_dtype: np.dtype = eqx.field(static=True)

    def __init__(
        self,
        y: Float[ArrayLike, "P N"],
        d: Inexact[ArrayLike, "P ..."],
        neighbors: int | None = None,
        smoothing: float | Float[ArrayLike, " P"] = 0.0,
        kernel: str = "thin_plate_spline",
        epsilon: float | Float[ArrayLike, ""] | None = None,
        degree: int | None = None,
    ):
        kernel = _kernel_name(kernel)
        given = lists_to_arrays(y, d, smoothing, _epsilon(epsilon, kernel))
        y, d, smoothing, epsilon = _as_arrays(*given)
        n, ndim = y.shape
        degree = _degree(degree, kernel)
        powers = monomial_powers(ndim, degree)
        if neighbors is not None:
            neighbors = min(static_int(neighbors, "neighbors", minimum=1), n)
        sites_used = n if neighbors is None else neighbors
        if len(powers) > sites_used:
            raise ValueError(
                f"At least {len(powers)} data points are required when `degree` is "
                f"{degree} and the number of dimensions is {ndim}; got {sites_used}"
                + (" (`neighbors`)." if neighbors is not None else ".")
            )
        if is_concrete(*given):  # numpy constants inside `jit` too
            arrays = (y, d, smoothing, epsilon)
            given = (
                np.broadcast_to(np.asarray(g, a.dtype), a.shape) for g, a in zip(given, arrays)
            )
            _check_eagerly(*given, powers)

        self.d_shape, self.d_dtype = tuple(d.shape[1:]), np.dtype(d.dtype)
        self.y, self.d, self.smoothing, self.epsilon = y, _real_columns(d), smoothing, epsilon
        self.kernel, self.neighbors, self._powers = kernel, neighbors, powers
        self._shift = self._scale = self._coefficients = None
        if neighbors is None or neighbors == n:  # one interpolant for every query
            # Held without derivatives: a call takes them from the data (`held_fit`).
            fitted = _fit(y, self.d, smoothing, epsilon, kernel, powers)
            self._shift, self._scale, self._coefficients = jax.lax.stop_gradient(fitted)
            if is_concrete(self._coefficients):
                _check_solved(self)

    @property
    def powers(self) -> np.ndarray:
        """The exponents of the polynomial tail's monomials, (R, N), as scipy's.

        Examples
        --------
        >>> import numpy as np
        >>> import splines
        >>> y = np.random.default_rng(0).random((10, 2))
        >>> splines.RBFInterpolator(y, y[:, 0]).powers.tolist()
        [[0, 0], [1, 0], [0, 1]]
        """
        return np.array(self._powers, dtype=np.int64).reshape(-1, self.y.shape[1])

    def __call__(self, x: Float[ArrayLike, "Q N"]) -> Inexact[Array, "Q ..."]:
        """The interpolant at the points ``x``.

        Parameters
        ----------
        x : (Q, N) array_like
            The query points, in the sites' N coordinates.

        Returns
        -------
        (Q, ...) jax.Array
            The values, with the trailing shape of ``d``.

        Examples
        --------
        >>> import numpy as np
        >>> import splines
        >>> y = np.random.default_rng(0).random((30, 3))
        >>> f = splines.RBFInterpolator(y, np.stack([y.sum(1), y.prod(1)], axis=1))
        >>> f(np.full((4, 3), 0.5)).shape
        (4, 2)
        """
        (x,) = lists_to_arrays(x)
        check_real(x, "x")
        x = jnp.asarray(x, self.y.dtype)
        if x.ndim != 2 or x.shape[1] != self.y.shape[1]:
            raise ValueError(
                f"`x` must have shape (Q, {self.y.shape[1]}), as the sites `y`; got "
                f"shape {x.shape}."
            )
        data = (self.y, self.d, self.smoothing, self.epsilon)
        if self._coefficients is not None:
            fitted = (self._shift, self._scale, self._coefficients)
            out = _evaluate(x, fitted, *data, self.kernel, self._powers)
        else:
            out = _local_values(x, *data, self.kernel, self._powers, self.neighbors)
            if is_concrete(out, x):
                _check_neighbourhoods(out, x, self)
        if jnp.issubdtype(self.d_dtype, jnp.complexfloating):
            out = jax.lax.complex(out[:, 0::2], out[:, 1::2])
        return out.reshape(len(x), *self.d_shape)


def _evaluate_held(x, fitted, y, d, smoothing, epsilon, kernel: str, powers: tuple):
    shift, scale, coefficients = held_fit(fitted, y, d, smoothing, epsilon, kernel, powers)
    return evaluate(x, y, shift, scale, coefficients, epsilon, kernel, powers)


_fit = jax.jit(fit, static_argnames=("kernel", "powers"))
_evaluate = jax.jit(_evaluate_held, static_argnames=("kernel", "powers"))
_local_values = jax.jit(local_values, static_argnames=("kernel", "powers", "k"))


def _as_arrays(y, d, smoothing, epsilon):
    """The arrays in the fit's dtypes (sites, smoothing and ε real; values real or
    complex), with their shapes checked; ``smoothing`` as one number per site."""
    for value, name in ((y, "y"), (smoothing, "smoothing"), (epsilon, "epsilon")):
        check_real(value, name)
    warn_if_x64_disabled(y, d)
    value_dtype = compute_dtype(result_type(y, d))
    real = jnp.finfo(value_dtype).dtype
    y, d = jnp.asarray(y, real), jnp.asarray(d, value_dtype)
    if y.ndim != 2:
        raise ValueError(
            f"`y` must be 2-D (sites × coordinates); got shape {y.shape}"
            + ("; for 1-D sites pass `y[:, None]`." if y.ndim == 1 else ".")
        )
    n = len(y)
    if y.shape[1] == 0:
        raise ValueError(f"`y` must have at least one coordinate; got shape {y.shape}.")
    if d.ndim == 0 or d.shape[0] != n:
        raise ValueError(f"`d` must have {n} rows, one per site in `y`; got shape {d.shape}.")
    smoothing = jnp.asarray(smoothing, real)
    if smoothing.ndim == 0:
        smoothing = jnp.broadcast_to(smoothing, (n,))
    if smoothing.shape != (n,):
        raise ValueError(
            f"`smoothing` must be a scalar or have shape ({n},); got shape {smoothing.shape}."
        )
    return y, d, smoothing, jnp.asarray(epsilon, real)


def _kernel_name(kernel) -> str:
    if not isinstance(kernel, str) or kernel.lower() not in KERNELS:
        raise ValueError(f"`kernel` must be one of {sorted(KERNELS)}; got {kernel!r}.")
    return kernel.lower()


def _epsilon(epsilon, kernel: str):
    if epsilon is not None:
        if np.ndim(epsilon) != 0:
            raise ValueError(f"`epsilon` must be a scalar; got shape {np.shape(epsilon)}.")
        return epsilon
    if kernel in SCALE_FREE:
        return 1.0
    raise ValueError(
        f"`epsilon` must be given for kernel {kernel!r}: only {sorted(SCALE_FREE)} "
        "are unchanged by it (up to a factor)."
    )


def _degree(degree, kernel: str) -> int:
    least = MIN_DEGREE[kernel]
    if degree is None:
        return max(least, 0)
    degree = static_int(degree, "degree", minimum=-1)
    if degree < least:
        raise ValueError(
            f"`degree` must be at least {least} for kernel {kernel!r} (the system may "
            f"have no unique solution below it); got {degree}."
        )
    return degree


def _real_columns(d):
    """(P, ...) values as (P, S) real columns: a complex value is two columns (re, im)."""
    d = d.reshape(len(d), -1)
    if jnp.iscomplexobj(d):
        d = jnp.stack([d.real, d.imag], axis=-1).reshape(len(d), -1)
    return d


def _check_eagerly(y, d, smoothing, epsilon, powers: tuple) -> None:
    """The invalid data that make the fit NaN under a trace, as `ValueError`s (numpy
    arrays in the fit's dtypes)."""
    check_values_eagerly(y, "y")
    check_values_eagerly(d, "d")
    check_values_eagerly(smoothing, "smoothing")
    if (smoothing < 0).any():
        i = int(np.argmax(smoothing < 0))
        raise ValueError(f"`smoothing` must be ≥ 0; `smoothing[{i}]` = {smoothing[i]}.")
    if not (np.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"`epsilon` must be finite and positive; got {epsilon}.")
    _check_distinct(y, smoothing)
    rank = np.linalg.matrix_rank(polynomial_matrix(y, *domain(y, np), powers, np)) if powers else 0
    if rank < len(powers):
        raise ValueError(
            "The matrix of monomials at the sites `y` does not have full column rank "
            f"({rank}/{len(powers)}): the sites lie on a curve or "
            f"surface of degree ≤ {max(map(sum, powers))} (e.g. on a line); lower "
            "`degree` or add sites off it."
        )


def _check_distinct(y, smoothing) -> None:
    """No two sites coincide unless one of them is smoothed (else K is singular).
    Equal sites sort unsmoothed first, so a smoothed one cannot part two that clash."""
    order = np.lexsort((smoothing != 0, *y.T[::-1]))
    same = np.all(y[order[1:]] == y[order[:-1]], axis=1)
    for i, j in zip(order[:-1][same], order[1:][same]):
        if smoothing[i] == 0 and smoothing[j] == 0:
            i, j = sorted((int(i), int(j)))
            raise ValueError(
                f"`y[{i}]` and `y[{j}]` are the same site {y[i].tolist()} and neither is "
                "smoothed: the system is singular. Merge them, or pass `smoothing` > 0."
            )


def _check_solved(interpolator: RBFInterpolator) -> None:
    """A concrete fit that rounding made singular (its coefficients are not finite),
    as a `ValueError`."""
    if bool(jnp.all(jnp.isfinite(interpolator._coefficients))):
        return
    dtype = interpolator.y.dtype
    raise ValueError(
        f"The RBF system is numerically singular (kernel {interpolator.kernel!r}, "
        f"`epsilon` = {float(interpolator.epsilon)}): its matrix is too flat, or its "
        f"entries overflow, in {dtype.name} at these sites. Change `epsilon` or add "
        "`smoothing`" + (", or use float64." if dtype.itemsize < 8 else ".")
    )


def _check_neighbourhoods(out, x, interpolator: RBFInterpolator) -> None:
    """An eager local call whose value is NaN at a finite query: that query's nearest
    sites give a singular system, as a `ValueError` (scipy raises too)."""
    out, x = np.asarray(out), np.asarray(x)
    singular = np.isnan(out).any(axis=1) & np.isfinite(x).all(axis=1)
    if singular.any():
        i = int(np.argmax(singular))
        raise ValueError(
            f"The {interpolator.neighbors} sites nearest to `x[{i}]` = {x[i].tolist()} give a "
            "singular system: they lie on a curve or surface of the polynomial's degree "
            f"(degree {max(map(sum, interpolator._powers), default=-1)}), or the kernel is "
            "too flat there. Raise `neighbors`, lower `degree` or add `smoothing`."
        )
