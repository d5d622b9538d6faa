"""`BSpline`: scipy's B-spline ``(t, c, k)``, with knots that may be traced.

A spline of degree k on the knots ``t_0 ≤ … ≤ t_{n+k}`` is
``s(x) = Σ_{i<n} c_i B_{i,k}(x)`` on the base interval ``[t_k, t_n]``.  Unlike
`bspline.bspline_pieces` (which converts to our pieces and needs concrete
knots: they set the number of pieces), everything here is jnp arithmetic on
the knots, so `jax.grad` w.r.t. the knot positions, `jax.jit` and `jax.vmap`
over them work, and the shapes depend only on ``len(t)`` and the static k:

- **the interval** of a point, ``t_l ≤ x < t_{l+1}`` with l clamped to
  ``k … n−1`` (scipy's ``find_interval``: the end intervals extend), is the
  package's branch-free search (`_pieces.search.locate`) on ``t[k:n+1]``;
- **the basis** ``B_{l−k..l,k}(x)`` (or its ν-th derivative) is de Boor's
  BSPLVB recursion as scipy's ``_deBoor_D`` runs it, vectorised over the
  points, a Python loop only over the static degree; a zero knot span makes its
  term 0 (scipy's ``if xb == xa``), through `jnp.where` with a safe
  denominator so that gradients stay finite.  A value step multiplies by the
  ratios ``(x − t_a)/(t_b − t_a)``, formed before they meet the basis, so no
  scale of the knots overflows or flushes (docs/architecture.md §4);
- **the value** is ``Σ_j B_j c_{l−k+j}``, elementwise, never a matmul.

Derivatives and antiderivatives are scipy's ``splder``/``splantider`` on the
coefficients (a zero span ``t_{i+k} − t_i`` gives a zero coefficient where
``splder`` raises); `integrate` evaluates the antiderivative.  Concrete knots
are checked eagerly (`ValueError` naming the index); traced ones that are not
non-decreasing and finite with a non-empty base interval make ``t`` and ``c``
NaN, so every value and gradient is NaN (`_utils.validate.poison`).
"""

from typing import Literal

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._interpolate.evaluate import prepare_queries
from .._pieces.search import locate
from .._utils.columns import normalize_axis
from .._utils.dtypes import (
    as_dtype,
    check_real,
    data_dtypes,
    lists_to_arrays,
    warn_if_x64_disabled,
)
from .._utils.methods import plain_method
from .._utils.types import ArrayInput, Extrapolate, Order
from .._utils.validate import check_values_eagerly, is_concrete, poison, static_int
from .checks import check_scalar, parse_extrapolate

PERIODIC = "periodic"


class BSpline(eqx.Module):
    """A univariate spline in the B-spline basis: `scipy.interpolate.BSpline`, in JAX.

    ::

        S(x) = Σ_{j=0}^{n−1} c[j] B_{j,k}(x; t),      n = len(t) − k − 1,

    evaluated on the base interval ``t[k] ≤ x ≤ t[n]`` (beyond it the end
    polynomials extend, or NaN).  An equinox module: `jax.jit`, `jax.vmap`
    and `jax.grad` go through every method, w.r.t. the coefficients ``c``,
    the points, **and the knots** ``t``: nothing depends on the knots'
    values but the arithmetic, so knot positions can be optimised.

    Parameters
    ----------
    t : array_like, shape (n + k + 1,)
        The knots, non-decreasing and finite, with ``t[k] < t[n]``.  May be
        traced.
    c : array_like, shape (>= n, ...)
        The B-spline coefficients along ``axis`` (more than n are kept and
        ignored, as scipy's).  May be complex.
    k : int
        The degree, a Python int ≥ 0 (static).
    extrapolate : bool or "periodic", default True
        Beyond the base interval: extend the end polynomials (``True``),
        NaN (``False``), or wrap into ``[t[k], t[n]]`` (``"periodic"``).
    axis : int, default 0
        The interpolation axis of ``c``.

    Attributes
    ----------
    t : jax.Array
        The knots, in the real dtype of the data.
    c : jax.Array, shape (>= n, ...)
        The coefficients, the interpolation axis first (as scipy stores them).
    k : int
        The degree.
    extrapolate : bool or "periodic"
        The default of every method's ``extrapolate``.
    axis : int
        Where a call puts the points' shape in its result.

    Raises
    ------
    ValueError
        Concrete knots not 1-D, not finite (naming ``t[i]``) or decreasing
        (naming ``t[i]``), fewer than ``2k + 2`` knots, an empty base
        interval, ``len(c) < n``, ``axis`` out of range.  Traced knots that
        are not non-decreasing and finite with ``t[k] < t[n]`` give NaN ``t``
        and ``c``: every value and gradient is NaN.
    TypeError
        ``k`` not an int.
    NotRealError
        Knots not real.

    See Also
    --------
    make_interp_spline, make_lsq_spline : Fit one to data.
    PPoly.from_spline : Convert one (with concrete knots) to a `PPoly`.

    Notes
    -----
    The basis comes from de Boor's recursion as scipy's (*A Practical Guide to
    Splines*, 1978, ch. X), vectorised over the points; the interval of each
    point is found by a branch-free binary search on the knots, so the knots
    are data, not part of the program.  Where ``t[i + k] == t[i]`` (a knot
    repeated more than k times) the derivative's coefficient is 0, where
    scipy's ``derivative`` raises.

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> t = jnp.array([0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 2.0])
    >>> spline = splines.BSpline(t, jnp.array([0.0, 1.0, 3.0, 4.0]), 2)
    >>> print(np.round(np.asarray(spline(jnp.array([0.5, 1.5]))), 6))
    [1. 3.]
    >>> grad = jax.grad(lambda t: splines.BSpline(t, spline.c, 2)(0.5))(t)  # w.r.t. the knots
    >>> print(f"{float(grad[3]):.6f}")  # moving the interior knot t[3] = 1
    -0.750000
    """

    t: Float[Array, " n+k+1"]
    c: Inexact[Array, "n *columns"]
    k: int = eqx.field(static=True)
    extrapolate: bool | Literal["periodic"] = eqx.field(static=True)
    axis: int = eqx.field(static=True)

    def __init__(
        self,
        t: Float[ArrayInput, " n+k+1"],
        c: Inexact[ArrayInput, "n *columns"],
        k: int,
        extrapolate: Extrapolate = True,
        axis: int = 0,
    ):
        t, c = lists_to_arrays(t, c)
        warn_if_x64_disabled(t, c)
        k = check_degree(k)
        t = _check_knot_shape(t, k, "t")
        if np.ndim(c) < 1:
            raise ValueError(f"`c` must be at least 1-D; got shape {np.shape(c)}.")
        axis = normalize_axis(axis, np.ndim(c), "c")
        n = np.shape(t)[0] - k - 1
        if np.shape(c)[axis] < n:
            raise ValueError(
                f"`c` needs at least n = len(t) - k - 1 = {n} coefficients along `axis`="
                f"{axis}; got {np.shape(c)[axis]}."
            )
        real, dtype = data_dtypes(t, c)
        t, c = (
            jnp.asarray(as_dtype(t, real)),
            jnp.moveaxis(jnp.asarray(as_dtype(c, dtype)), axis, 0),
        )
        if is_concrete(t):
            check_knots_eagerly(np.asarray(t), k, "t")
        else:
            factor = poison(knots_valid(t, k))
            t, c = t * factor, c * factor
        self.t, self.c, self.k = t, c, k
        self.extrapolate = parse_extrapolate(extrapolate, True)
        self.axis = axis

    @property
    def tck(self) -> tuple[Array, Array, int]:
        """``(t, c, k)``, as scipy's (read-only).

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> t, c, k = splines.BSpline(jnp.array([0.0, 0.0, 1.0, 1.0]), jnp.ones(2), 1).tck
        >>> print(t.shape, c.shape, k)
        (4,) (2,) 1
        """
        return self.t, self.c, self.k

    def __call__(
        self, x: Float[ArrayInput, "..."], nu: Order = 0, extrapolate: Extrapolate = None
    ) -> Inexact[Array, "..."]:
        """Evaluate the spline, or its ``nu``-th derivative, at ``x``.

        A point on a knot takes the interval that starts there; the last
        interval of the base is closed.

        Parameters
        ----------
        x : array_like, any shape
            Points, real (differentiable); NaN gives NaN.
        nu : int, default 0
            The derivative's order, a Python int ≥ 0 (above k: zero).
        extrapolate : bool or "periodic", optional
            Beyond the base interval ``[t[k], t[n]]``: the end polynomials
            (``True``), NaN (``False``), or the periodic extension
            (``"periodic"``); default: the object's ``extrapolate``.

        Returns
        -------
        y : jax.Array
            Shape ``c.shape[1:]`` with ``x.shape`` inserted at ``axis``.

        Raises
        ------
        ValueError
            A negative ``nu``, an unknown ``extrapolate``.
        TypeError
            ``nu`` not an int.
        NotRealError
            ``x`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> spline = splines.BSpline(jnp.array([0.0, 0.0, 1.0, 1.0]), jnp.array([1.0, 3.0]), 1)
        >>> print(np.asarray(spline(jnp.array([0.25, 2.0]))), float(spline(0.5, nu=1)))
        [1.5 5. ] 2.0
        >>> print(np.asarray(spline(2.0, extrapolate=False)))
        nan
        """
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        nu = static_int(nu, "nu", 0, "a Python int (the derivative's order)")
        (x,) = lists_to_arrays(x)
        x = prepare_queries(x, self.t.dtype)
        return _call(self.t, self.c, x, self.k, nu, mode, self.axis)

    @plain_method
    def derivative(self, nu: Order = 1) -> "BSpline":
        """The B-spline of the ``nu``-th derivative, as scipy's (``splder``).

        Parameters
        ----------
        nu : int, default 1
            The order, a Python int ≤ k; negative: the ``-nu``-th
            antiderivative.

        Returns
        -------
        BSpline
            Of degree ``k − nu`` on the knots ``t[nu:-nu]``, with
            ``len(t) − 2 nu`` coefficients (the last ``nu`` zeros, as
            scipy's), the same ``extrapolate`` and ``axis``.

        Raises
        ------
        ValueError
            ``nu`` above ``k``.
        TypeError
            ``nu`` not an int.

        Notes
        -----
        ``c'_i = k (c_{i+1} − c_i) / (t_{i+k+1} − t_{i+1})``, and 0 where that
        span is 0 (a knot of multiplicity above k: scipy raises there).

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> t = jnp.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
        >>> spline = splines.BSpline(t, jnp.array([0.0, 0.0, 1.0]), 2)  # x**2
        >>> print(float(spline.derivative()(0.5)), spline.derivative(2).k)
        1.0 0
        """
        nu = _signed_order(nu)
        if nu < 0:
            return self.antiderivative(-nu)
        if nu > self.k:
            raise ValueError(
                f"`nu` (the derivative's order) must be ≤ the degree k = {self.k}; got {nu}."
            )
        t, c = _derivative(self.t, self.c, self.k, nu)
        return _new(t, c, self.k - nu, self.extrapolate, self.axis)

    @plain_method
    def antiderivative(self, nu: Order = 1) -> "BSpline":
        """The B-spline of the ``nu``-th antiderivative, as scipy's (``splantider``).

        Zero at ``t[0]``; the knots gain a copy of each end knot per order.

        Parameters
        ----------
        nu : int, default 1
            The order, a Python int; negative: the ``-nu``-th derivative.

        Returns
        -------
        BSpline
            Of degree ``k + nu`` on ``len(t) + 2 nu`` knots.  Periodic
            extrapolation becomes ``False``, as scipy's.

        Raises
        ------
        TypeError
            ``nu`` not an int.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> spline = splines.BSpline(jnp.array([0.0, 0.0, 1.0, 1.0]), jnp.array([0.0, 1.0]), 1)
        >>> print(float(spline.antiderivative()(1.0)))  # ∫_0^1 x dx
        0.5
        """
        nu = _signed_order(nu)
        if nu <= 0:
            return self.derivative(-nu)
        t, c = _antiderivative(self.t, self.c, self.k, nu)
        extrapolate = False if self.extrapolate == PERIODIC else self.extrapolate
        return _new(t, c, self.k + nu, extrapolate, self.axis)

    @plain_method
    def integrate(
        self, a: Float[ArrayLike, ""], b: Float[ArrayLike, ""], extrapolate: Extrapolate = None
    ) -> Inexact[Array, "*columns"]:
        """The definite integral ``∫_a^b S(x) dx``, as scipy's.

        Parameters
        ----------
        a, b : scalar
            The bounds, real scalars (differentiable); ``b < a`` gives
            ``−∫_b^a``.
        extrapolate : bool or "periodic", optional
            ``True``: the extended end polynomials count; ``False``: the
            spline is 0 beyond the base interval; ``"periodic"``: the periodic
            extension.  Default: the object's ``extrapolate``.

        Returns
        -------
        jax.Array
            Shape ``c.shape[1:]``.

        Raises
        ------
        ValueError
            A bound that is not a scalar, an unknown ``extrapolate``.
        NotRealError
            A bound not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> t = jnp.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> spline = splines.BSpline(t, jnp.array([0.0, 1.0, 0.0]), 1)  # a hat on [0, 2]
        >>> print(float(spline.integrate(0.0, 2.0)), float(spline.integrate(-1.0, 1.0, False)))
        1.0 0.5
        """
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        real = self.t.dtype
        a, b = (as_dtype(check_scalar(v, name), real) for v, name in ((a, "a"), (b, "b")))
        return _integrate(self.t, self.c, a, b, self.k, mode)

    @classmethod
    def construct_fast(
        cls,
        t: Float[ArrayInput, " n+k+1"],
        c: Inexact[ArrayInput, "n *columns"],
        k: int,
        extrapolate: Extrapolate = True,
        axis: int = 0,
    ) -> "BSpline":
        """A `BSpline` without checks, as scipy's fast constructor.

        Parameters
        ----------
        t : array_like, shape (n + k + 1,)
            The knots, trusted to be valid.
        c : array_like, shape (>= n, ...)
            The coefficients, the interpolation axis first (not moved).
        k : int
            The degree.
        extrapolate : bool or "periodic", default True
            As `BSpline`'s.
        axis : int, default 0
            Where a call puts the points' shape (``c`` is not moved).

        Returns
        -------
        BSpline

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> fast = splines.BSpline.construct_fast(jnp.array([0.0, 0.0, 1.0, 1.0]), jnp.ones(2), 1)
        >>> print(float(fast(0.5)))
        1.0
        """
        t, c = lists_to_arrays(t, c)
        real, dtype = data_dtypes(t, c)
        t, c = jnp.asarray(as_dtype(t, real)), jnp.asarray(as_dtype(c, dtype))
        return _new(t, c, int(k), parse_extrapolate(extrapolate, True), int(axis))

    @classmethod
    def basis_element(
        cls, t: Float[ArrayInput, " k+2"], extrapolate: Extrapolate = True
    ) -> "BSpline":
        """The B-spline basis element ``B(x | t[0], …, t[k+1])``, as scipy's.

        Parameters
        ----------
        t : array_like, shape (k + 2,)
            Its knots, non-decreasing; the degree is ``len(t) − 2``.  May be
            traced.
        extrapolate : bool or "periodic", default True
            As `BSpline`'s.

        Returns
        -------
        BSpline
            Of degree ``k`` on ``t`` with k knots added at each end
            (``t[0] − 1``, ``t[-1] + 1``), its one coefficient 1.

        Raises
        ------
        ValueError
            Fewer than 2 knots.
        NotRealError
            Knots not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> b = splines.BSpline.basis_element(jnp.array([0.0, 1.0, 2.0]))  # a hat
        >>> print(b.k, float(b(0.5)), float(b(1.0)), float(b(1.5)))
        1 0.5 1.0 0.5
        """
        (t,) = lists_to_arrays(t)
        t = _check_knot_shape(t, 0, "t")
        real, _ = data_dtypes(t)
        t = jnp.asarray(as_dtype(t, real))
        k = t.shape[0] - 2
        if k < 0:
            raise ValueError(f"`t` needs at least 2 knots; got {t.shape[0]}.")
        knots = jnp.concatenate([jnp.full(k, t[0] - 1), t, jnp.full(k, t[-1] + 1)])
        c = jnp.zeros(knots.shape, real).at[k].set(1)
        return _new(knots, c, k, parse_extrapolate(extrapolate, True), 0)

    @classmethod
    def design_matrix(
        cls,
        x: Float[ArrayInput, " m"],
        t: Float[ArrayInput, " n+k+1"],
        k: int,
        extrapolate: Extrapolate = False,
    ) -> Float[Array, "m n"]:
        """The B-spline basis at ``x``: scipy's design matrix, as a dense jax array.

        ``D[i, j] = B_{j,k}(x[i]; t)``.  scipy returns a sparse CSR array of
        these values; this returns them dense, shape ``(m, n)`` (at most
        ``k + 1`` non-zeros per row, in columns ``l − k … l`` of ``x[i]``'s
        interval l): ``jnp.asarray(scipy_matrix.toarray())``.  Differentiable
        w.r.t. ``x`` and ``t``.

        Parameters
        ----------
        x : array_like, shape (m,)
            Points, real.
        t : array_like, shape (n + k + 1,)
            Knots, non-decreasing; may be traced.
        k : int
            The degree.
        extrapolate : bool or "periodic", default False
            ``False``: concrete points outside ``[t[k], t[n]]`` raise (as
            scipy's), traced ones give NaN rows; ``True``: the end intervals'
            basis extends; ``"periodic"``: points wrap into the base interval.

        Returns
        -------
        jax.Array, shape (m, n)
            The dense design matrix.

        Raises
        ------
        ValueError
            Knots not 1-D and non-decreasing or fewer than ``2k + 2``, points
            or knots not finite, concrete points out of bounds (naming
            ``x[i]``).
        TypeError
            ``k`` not an int.
        NotRealError
            ``x`` or ``t`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> t = jnp.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> print(np.asarray(splines.BSpline.design_matrix(jnp.array([0.5, 1.0]), t, 1)))
        [[0.5 0.5 0. ]
         [0.  1.  0. ]]
        """
        k = check_degree(k)
        x, t = lists_to_arrays(x, t)
        check_real(x, "x")
        t = _check_knot_shape(t, k, "t")
        if np.ndim(x) != 1:
            raise ValueError(f"`x` must be 1-D; got shape {np.shape(x)}.")
        mode = parse_extrapolate(extrapolate, False)
        real, _ = data_dtypes(x, t)
        x, t = jnp.asarray(as_dtype(x, real)), jnp.asarray(as_dtype(t, real))
        valid = None
        if is_concrete(t):
            check_knots_eagerly(np.asarray(t), k, "t", base=False)
        else:
            valid = knots_valid(t, k, base=False)
        if is_concrete(x):
            check_values_eagerly(np.asarray(x), "x")
            if mode is False and is_concrete(t):
                check_inside_eagerly(np.asarray(x), np.asarray(t), k, "x")
        return _design(x, t, k, mode, valid)


# -------------------------------------------------------------------- numerics --


def interval(t, x, k: int):
    """l with ``t_l ≤ x < t_{l+1}``, clamped to ``k … n−1`` (scipy's ``find_interval``)."""
    n = t.shape[0] - k - 1
    return k + locate(x, t[k : n + 1])


def basis_values(t, x, l, k: int, nu: int = 0):
    """``d^ν/dx^ν B_{l−k+j,k}(x)`` for j = 0 … k: shape ``x.shape + (k+1,)``.

    BSPLVB as scipy's ``_deBoor_D``: k − ν value steps, then ν derivative
    steps; a zero knot span contributes nothing (a safe denominator keeps the
    gradients finite).  Value steps multiply by ratios of knot differences.
    """
    if nu > k:
        return jnp.zeros(x.shape + (k + 1,), x.dtype) * x[..., None]  # NaN stays NaN
    # t_{l+o} for o = −k+1 … k
    knots = t[l[..., None] + jnp.arange(-k + 1, k + 1)]

    def knot(o):
        return knots[..., o + k - 1]

    h = [jnp.ones_like(x)]
    for j in range(1, k + 1):
        new = [jnp.zeros_like(x)] * (j + 1)
        derivative = j > k - nu
        for m in range(1, j + 1):
            right, left = knot(m), knot(m - j)
            span = right - left
            nonzero = span != 0
            safe = jnp.where(nonzero, span, 1)
            if derivative:
                w = jnp.where(nonzero, (j * h[m - 1]) / safe, 0)
                new[m - 1] = new[m - 1] - w
                new[m] = w
            else:
                falling = jnp.where(nonzero, (right - x) / safe, 0)
                rising = jnp.where(nonzero, (x - left) / safe, 0)
                new[m - 1] = new[m - 1] + h[m - 1] * falling
                new[m] = h[m - 1] * rising
        h = new
    return jnp.stack(h, axis=-1)


def evaluate_flat(t, c, x, k: int, nu: int, mode):
    """The spline at flat points ``x`` (m,): ``c`` (≥ n, ncols) → (m, ncols)."""
    n = t.shape[0] - k - 1
    if mode == PERIODIC:
        x = t[k] + jnp.mod(x - t[k], t[n] - t[k])
    l = interval(t, x, k)
    basis = basis_values(t, x, l, k, nu)
    window = c[l[:, None] + jnp.arange(-k, 1)]  # c_{l−k..l}: (m, k+1, ncols)
    out = jnp.sum(basis[..., None].astype(c.dtype) * window, axis=1)
    if mode is False:
        outside = (x < t[k]) | (x > t[n])
        out = jnp.where(outside[:, None], jnp.nan, out)
    return out


def _call_impl(t, c, x, k: int, nu: int, mode, axis: int):
    real = jnp.result_type(t, x)
    t, x = t.astype(real), x.astype(real)
    columns = c.shape[1:]
    flat = jnp.reshape(c, (c.shape[0], -1)).astype(jnp.result_type(c, real))
    out = evaluate_flat(t, flat, jnp.ravel(x), k, nu, mode)
    out = jnp.reshape(out, x.shape + columns)
    if axis:
        order = list(range(out.ndim))
        rank = x.ndim
        out = jnp.transpose(out, order[rank : rank + axis] + order[:rank] + order[rank + axis :])
    return out


def _padded_coefficients(c, size: int):
    """c with zero rows appended (or rows dropped) to ``size``, as scipy pads to len(t)."""
    if c.shape[0] >= size:
        return c[:size]
    return jnp.concatenate([c, jnp.zeros((size - c.shape[0],) + c.shape[1:], c.dtype)])


def _along(v, c):
    """A knot vector as a column against c's trailing axes."""
    return jnp.reshape(v, v.shape + (1,) * (c.ndim - 1))


def _derivative_impl(t, c, k: int, nu: int):
    """scipy's ``splder``, with a zero coefficient where the knot span is 0."""
    c = _padded_coefficients(c, t.shape[0])
    for _ in range(nu):
        span = t[k + 1 : -1] - t[1 : -k - 1]
        nonzero = span != 0
        safe = jnp.where(nonzero, span, 1)
        difference = (c[1 : -1 - k] - c[: -2 - k]) * k
        c = jnp.where(_along(nonzero, c), difference / _along(safe, c), 0).astype(c.dtype)
        c = jnp.concatenate([c, jnp.zeros((k,) + c.shape[1:], c.dtype)])
        t, k = t[1:-1], k - 1
    return t, c


def _antiderivative_impl(t, c, k: int, nu: int):
    """scipy's ``splantider``."""
    c = _padded_coefficients(c, t.shape[0])
    for _ in range(nu):
        span = t[k + 1 :] - t[: -k - 1]
        c = jnp.cumsum(c[: -k - 1] * _along(span, c), axis=0) / (k + 1)
        ends = (jnp.zeros((1,) + c.shape[1:], c.dtype), c, jnp.repeat(c[-1:], k + 2, axis=0))
        c = jnp.concatenate(ends)
        t = jnp.concatenate([t[:1], t, t[-1:]])
        k += 1
    return t, c


def _integrate_impl(t, c, a, b, k: int, mode):
    """scipy's ``BSpline.integrate``: the antiderivative's difference (in one program)."""
    real = jnp.result_type(t, a, b)
    t, a, b = t.astype(real), a.astype(real), b.astype(real)
    n = t.shape[0] - k - 1
    columns = c.shape[1:]
    ta, ca = _antiderivative_impl(t, jnp.reshape(c, (c.shape[0], -1)), k, 1)
    sign = jnp.where(b < a, -1, 1).astype(real)
    a, b = jnp.minimum(a, b), jnp.maximum(a, b)
    start, end = t[k], t[n]

    def antiderivative(points, extend=True):
        return evaluate_flat(ta, ca, jnp.stack(points), k + 1, 0, extend)

    if mode == PERIODIC:
        period = end - start
        periods = jnp.floor((b - a) / period)
        left = (b - a) - periods * period
        whole = antiderivative([start, end])
        total = periods * (whole[1] - whole[0])
        a = start + jnp.mod(a - start, period)
        b = a + left
        inside = b <= end
        first = antiderivative([a, jnp.where(inside, b, end)])
        wrapped = antiderivative([start, start + b - end])
        total = total + (first[1] - first[0]) + jnp.where(inside, 0, wrapped[1] - wrapped[0])
    else:
        if mode is False:
            a, b = jnp.clip(a, start, end), jnp.clip(b, start, end)
        values = antiderivative([a, b])
        total = values[1] - values[0]
    return jnp.reshape(total * sign, columns)


def _design_impl(x, t, k: int, mode, valid):
    n = t.shape[0] - k - 1
    if mode == PERIODIC:
        x = t[k] + jnp.mod(x - t[k], t[n] - t[k])
    l = interval(t, x, k)
    basis = basis_values(t, x, l, k)
    rows = jnp.arange(x.shape[0])[:, None]
    matrix = jnp.zeros((x.shape[0], n), basis.dtype).at[rows, l[:, None] - k + jnp.arange(k + 1)]
    matrix = matrix.set(basis)
    if mode is False:
        outside = (x < t[k]) | (x > t[n])
        matrix = jnp.where(outside[:, None], jnp.nan, matrix)
    if valid is not None:
        matrix = matrix * poison(valid)
    return matrix


_call = jax.jit(_call_impl, static_argnums=(3, 4, 5, 6))
_derivative = jax.jit(_derivative_impl, static_argnums=(2, 3))
_antiderivative = jax.jit(_antiderivative_impl, static_argnums=(2, 3))
_integrate = jax.jit(_integrate_impl, static_argnums=(4, 5))
_design = jax.jit(_design_impl, static_argnums=(2, 3))


# ----------------------------------------------------------------------- checks --


def check_degree(k) -> int:
    return static_int(k, "k", 0, "a Python or numpy int (the degree)")


def _check_knot_shape(t, k: int, name: str):
    """Knots real, 1-D, at least 2k + 2 of them."""
    check_real(t, name)
    if np.ndim(t) != 1:
        raise ValueError(f"`{name}` (the knots) must be 1-D; got shape {np.shape(t)}.")
    if np.shape(t)[0] < 2 * k + 2:
        raise ValueError(
            f"`{name}` needs at least 2k + 2 = {2 * k + 2} knots for degree `k`={k}; "
            f"got {np.shape(t)[0]}."
        )
    return t


def knots_valid(t, k: int, base: bool = True):
    """Traced knots non-decreasing and finite (and, with ``base``, ``t_k < t_n``)."""
    valid = jnp.all(jnp.diff(t) >= 0) & jnp.isfinite(t[0]) & jnp.isfinite(t[-1])
    if base:
        valid = valid & (t[k] < t[t.shape[0] - k - 1])
    return valid


def check_knots_eagerly(t, k: int, name: str = "t", base: bool = True) -> None:
    """Concrete knots: finite, non-decreasing, and a non-empty base interval."""
    check_values_eagerly(t, name)
    down = np.flatnonzero(np.diff(t) < 0)
    if down.size:
        i = down[0] + 1
        raise ValueError(
            f"`{name}` (the knots) must be non-decreasing; `{name}[{i}]` = {t[i]} < "
            f"`{name}[{i - 1}]` = {t[i - 1]}."
        )
    n = t.shape[0] - k - 1
    if base and not t[k] < t[n]:
        raise ValueError(
            f"the base interval [`{name}[{k}]`, `{name}[{n}]`] (`[t[k], t[n]]`) is empty "
            f"(both {t[k]}); it needs two distinct knots."
        )


def check_inside_eagerly(x, t, k: int, name: str = "x") -> None:
    """Concrete points inside the base interval ``[t[k], t[n]]``."""
    n = t.shape[0] - k - 1
    bad = np.flatnonzero((x < t[k]) | (x > t[n]))
    if bad.size:
        i = bad[0]
        raise ValueError(
            f"`{name}[{i}]` = {x[i]} is outside the base interval [t[{k}], t[{n}]] = "
            f"[{t[k]}, {t[n]}]."
        )


def _signed_order(nu) -> int:
    if isinstance(nu, (bool, np.bool_)) or not isinstance(nu, (int, np.integer)):
        raise TypeError(f"`nu` must be a Python int (the order); got {nu!r}.")
    return int(nu)


def _new(t, c, k: int, extrapolate, axis: int) -> BSpline:
    """An instance from its fields (no conversion, no checks)."""
    self = object.__new__(BSpline)
    for name, value in dict(t=t, c=c, k=k, extrapolate=extrapolate, axis=axis).items():
        object.__setattr__(self, name, value)
    return self
