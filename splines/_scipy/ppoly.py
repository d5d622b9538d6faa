"""`PPoly`: scipy's piecewise polynomial in the power basis, as an equinox module.

Every scipy-compatible class (`PPoly`, `CubicSpline`, …) holds what
`Interpolator1D` holds — ascending ``breaks`` and coefficients in each
piece's local coordinate (`_pieces.polynomials`) — and evaluates with the same
`evaluate`.  scipy's layout (``c`` of shape ``(k+1, m, ...)``, highest power
first, in powers of ``x − x[i]``; breakpoints ascending or descending) exists
only at the boundary: `PPoly(c, x)` converts once, and the ``c`` and ``x``
attributes convert back when read (`power_basis`).

Descending breakpoints are held as the ascending ``z = −x`` with a static
flag (`power_basis`): scipy's interval i, ``(x[i+1], x[i]]``, is our piece
i, ``[z_i, z_{i+1})``, with the same expansion point; a call evaluates at
``−x`` and its n-th derivative takes the sign ``(−1)^n``, and so do the
pieces of `derivative` and `antiderivative`.
"""

import functools
import math
from typing import Literal, overload

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, ArrayLike, Float, Inexact

from .._interpolate.evaluate import (
    EvalSpec,
    check_order,
    evaluate,
    last_values,
    orders_along_one_axis,
    prepare_queries,
)
from .._pieces.calculus import antiderivative_pieces, derivative_pieces, integral
from .._utils.columns import normalize_axis
from .._utils.dtypes import as_dtype, constant, data_dtypes, lists_to_arrays, warn_if_x64_disabled
from .._utils.methods import plain_method
from .._utils.types import ArrayInput, BSplineLike, Extrapolate, Order, Orders
from .._utils.validate import is_concrete, knots_are_valid, poison
from .bspline import bspline_pieces
from .checks import (
    check_breakpoints,
    check_extension,
    check_scalar,
    descends_eagerly,
    parse_extrapolate,
    without_empty_intervals,
)
from .power_basis import to_local, to_scipy
from .solve import solve

PERIODIC = "periodic"


class AbstractPPoly(eqx.Module):
    """A piecewise polynomial with scipy's `PPoly` interface: the base of the scipy classes.

    `PPoly`, `CubicSpline`, `CubicHermiteSpline`, `PchipInterpolator` and
    `Akima1DInterpolator` are all instances, with its methods: evaluation
    and derivatives (``__call__``), `derivative`, `antiderivative`,
    `integrate`, `solve`, `roots`, `extend`, and scipy's attributes ``x`` and
    ``c``.  Use it for ``isinstance`` checks and type annotations; build
    instances with those classes.  An equinox module: `jax.jit`, `jax.vmap`
    and `jax.grad` go through it.

    Parameters
    ----------
    breaks : jax.Array, shape (m + 1,)
        The breakpoints, strictly ascending (descending ones held as ``−x``).
    coefficients : jax.Array, shape (m, k, d + 1)
        Per piece and column (k columns), the degree-d polynomial in
        ascending powers of the piece's local coordinate
        ``t = (x − breaks[i]) / (breaks[i+1] − breaks[i])``.
    end : jax.Array, shape (k,)
        The values at the last break (a fit's data there, else the last
        piece's sum at ``t = 1``).
    extrapolate : bool or "periodic"
        The default of every method's ``extrapolate``.
    axis : int
        The interpolation axis of scipy's ``c`` and of the values.
    column_shape : tuple of int
        The values' shape without ``axis``.
    descending : bool
        scipy's breakpoints ``x`` descend (``breaks`` is then ``−x``).

    See Also
    --------
    PPoly : Build one from scipy's coefficients ``c`` and breakpoints ``x``.

    Notes
    -----
    The fields are the internal form, the one every fit and evaluation of the
    package shares: coefficients in local coordinates stay the size of the
    values whatever the breakpoints' scale.  scipy's layout, ``c`` of shape
    ``(k+1, m, ...)`` with the highest power of ``x − x[i]`` first, is made
    when ``c`` is read.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 4)
    >>> isinstance(splines.CubicSpline(x, x**2), splines.AbstractPPoly)
    True
    """

    breaks: Float[Array, " m+1"]
    coefficients: Inexact[Array, "m k d+1"]
    end: Inexact[Array, " k"]
    extrapolate: bool | Literal["periodic"] = eqx.field(static=True)
    axis: int = eqx.field(static=True)
    column_shape: tuple[int, ...] = eqx.field(static=True)  # the values' shape without `axis`
    descending: bool = eqx.field(static=True)  # scipy's breakpoints run downwards

    @property
    def x(self) -> Float[Array, " m+1"]:
        """The breakpoints, in the order given: scipy's ``x``, shape (m + 1,).

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> p = splines.PPoly(jnp.ones((1, 2)), jnp.array([2.0, 1.0, 0.0]))
        >>> print(np.asarray(p.x))
        [2. 1. 0.]
        """
        return -self.breaks if self.descending else self.breaks

    @property
    def c(self) -> Inexact[Array, "k+1 m *columns"]:
        """scipy's coefficients, shape (k + 1, m, ...): the highest power of ``x − x[i]`` first.

        ``c[p, i, ...]`` multiplies ``(x − x[i])^(k−p)`` on interval i; the
        trailing axes are the values' shape without ``axis``.  Converted from
        the internal form on each read (differentiable).

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> x = jnp.linspace(0.0, 3.0, 4)
        >>> spline = splines.CubicSpline(x, x**2)
        >>> print(np.round(np.asarray(spline.c[:, 1]), 6) + 0.0)
        [0. 1. 2. 1.]
        """
        c, _ = _to_scipy(self.breaks, self.coefficients, self.descending)
        return jnp.reshape(c, c.shape[:2] + self.column_shape)

    def __call__(
        self, x: Float[ArrayInput, "..."], nu: Orders = 0, extrapolate: Extrapolate = None
    ) -> Inexact[Array, "..."]:
        """Evaluate the polynomials, or their ``nu``-th derivatives, at ``x``.

        A point on a breakpoint takes the interval that starts there (for
        descending breakpoints, the one that ends there); the last interval
        is closed.

        Parameters
        ----------
        x : array_like, any shape
            Points, real; NaN gives NaN.
        nu : int or tuple of int, default 0
            The derivative's order, static (``>= 0``), or a tuple of orders,
            whose results are stacked on a new leading axis (one search for
            all).
        extrapolate : bool or "periodic", optional
            Outside the breakpoints: extend the end intervals (``True``), NaN
            (``False``), or wrap into the period ``x[-1] − x[0]``
            (``"periodic"``); default: the object's ``extrapolate``.

        Returns
        -------
        y : jax.Array
            Shape ``values.shape[:axis] + x.shape + values.shape[axis+1:]``
            (the shape of ``x`` replaces the interpolation axis), with a
            leading axis of orders when ``nu`` is a tuple.

        Raises
        ------
        ValueError
            A negative ``nu``, an ``extrapolate`` string other than
            ``"periodic"``.
        TypeError
            A ``nu`` that is not an int or a tuple of ints.
        NotRealError
            ``x`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> print(np.round(np.asarray(p(jnp.array([0.5, 1.5]), nu=(0, 1))), 6))
        [[0.25 2.25]
         [1.   3.  ]]
        >>> print(np.asarray(p(3.0, extrapolate=False)))
        nan
        """
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        nu = tuple(nu) if isinstance(nu, list) else nu
        try:
            spec = _call_spec(nu, mode, self.axis, self.column_shape)
        except TypeError:  # an unhashable `nu`: the builder says what is wrong with it
            spec = _build_call_spec(nu, mode, self.axis, self.column_shape)
        (x,) = lists_to_arrays(x)
        return _call(
            prepare_queries(x, self.breaks.dtype),
            self.breaks,
            self.coefficients,
            self.end,
            _nan_fill(self.coefficients.dtype),
            spec,
            self.descending,
        )

    @plain_method
    def derivative(self, nu: Order = 1) -> "PPoly":
        """The piecewise polynomial of the ``nu``-th derivative.

        Parameters
        ----------
        nu : int, default 1
            The order, a Python int; negative: the ``-nu``-th antiderivative.
            Past the degree, a zero polynomial of degree 0 (as scipy's).

        Returns
        -------
        PPoly
            Of degree ``max(d − nu, 0)``, with the same breakpoints and
            ``extrapolate``; a `PPoly` whatever the class of ``self``.

        Raises
        ------
        TypeError
            ``nu`` not an int (bools are not orders).

        See Also
        --------
        antiderivative, integrate

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> print(f"{float(p.derivative()(1.5)):.6f}", f"{float(p.derivative(2)(1.5)):.6f}")
        3.000000 2.000000
        """
        nu = _signed_order(nu)
        if nu < 0:
            return self.antiderivative(-nu)
        coefficients = _derivative(self.breaks, self.coefficients, nu)
        return self._with(_reflected(coefficients, nu, self.descending), self.extrapolate)

    @plain_method
    def antiderivative(self, nu: Order = 1) -> "PPoly":
        """The piecewise polynomial of the ``nu``-th antiderivative.

        The antiderivative and its first ``nu − 1`` derivatives are zero at
        the first breakpoint ``x[0]`` (as scipy's, also for descending
        breakpoints) and continuous across the breakpoints.

        Parameters
        ----------
        nu : int, default 1
            The order, a Python int; negative: the ``-nu``-th derivative.

        Returns
        -------
        PPoly
            Of degree ``d + nu``, with the same breakpoints.  Periodic
            extrapolation becomes ``False``, as in scipy: the antiderivative
            of a periodic function is periodic only when its integral over a
            period is 0.

        Raises
        ------
        TypeError
            ``nu`` not an int.

        See Also
        --------
        derivative, integrate

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> print(f"{float(p.antiderivative()(2.0)):.6f}")  # 2**3 / 3
        2.666667
        """
        nu = _signed_order(nu)
        if nu <= 0:
            return self.derivative(-nu)
        coefficients = _reflected(
            _antiderivative(self.breaks, self.coefficients, nu), nu, self.descending
        )
        return self._with(coefficients, False if self.extrapolate == PERIODIC else self.extrapolate)

    @plain_method
    def integrate(
        self, a: Float[ArrayLike, ""], b: Float[ArrayLike, ""], extrapolate: Extrapolate = None
    ) -> Inexact[Array, "*columns"]:
        """The definite integral ``∫_a^b p(x) dx`` of each polynomial.

        From the antiderivative's values at ``a`` and ``b``, so ``b < a``
        gives the negative of ``∫_b^a``.

        Parameters
        ----------
        a, b : scalar
            The bounds, real scalars (differentiable).
        extrapolate : bool or "periodic", optional
            Outside the breakpoints: the end intervals extended (``True``),
            NaN (``False``), or the periodic extension (``"periodic"``: whole
            periods count their integral); default: the object's
            ``extrapolate``.

        Returns
        -------
        jax.Array
            Shape ``values.shape`` without ``axis`` (a scalar for one
            polynomial).

        Raises
        ------
        ValueError
            A bound that is not a scalar, an unknown ``extrapolate``.
        NotRealError
            A bound not real.

        See Also
        --------
        antiderivative

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> print(f"{float(p.integrate(0.0, 2.0)):.6f}", f"{float(p.integrate(0.0, 3.0)):.6f}")
        2.666667 9.000000
        """
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        real = self.breaks.dtype
        a, b = (_as_bound(v, name, real) for v, name in ((a, "a"), (b, "b")))
        if self.descending:  # ∫_a^b f(x) dx = ∫_{−b}^{−a} f(−z) dz
            a, b = -b, -a
        fill = _nan_fill(self.coefficients.dtype)
        return _integrate(self.breaks, self.coefficients, a, b, fill, mode, self.column_shape)

    @overload
    def solve(
        self,
        y: Float[ArrayInput, "*columns"] = 0.0,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        size: None = None,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> np.ndarray: ...

    @overload
    def solve(
        self,
        y: Float[ArrayInput, "*columns"],
        discontinuity: bool,
        extrapolate: Extrapolate,
        size: int,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> Float[Array, "*columns size"]: ...

    @overload
    def solve(
        self,
        y: Float[ArrayInput, "*columns"] = 0.0,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        *,
        size: int,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> Float[Array, "*columns size"]: ...

    @plain_method
    def solve(
        self,
        y: Float[ArrayInput, "*columns"] = 0.0,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        size: int | None = None,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> np.ndarray | Float[Array, "*columns size"]:
        """The real solutions of ``p(x) = y``, per polynomial, as scipy's ``PPoly.solve``.

        Parameters
        ----------
        y : scalar or array_like, default 0.0
            The right-hand side: a real scalar or, as interpax's, one per
            polynomial (broadcast to ``values.shape`` without ``axis``).
        discontinuity : bool, default True
            Also report a breakpoint where ``p − y`` jumps across 0 with a
            strict sign change.
        extrapolate : bool or "periodic", optional
            Also search the end intervals extended past the breakpoints
            (``"periodic"`` counts as ``True``, as scipy's); default: the
            object's ``extrapolate``.
        size : int, optional
            A static number of slots per polynomial, needed under `jax.jit`,
            `jax.vmap` and `jax.grad`.
        fill_value : scalar, default nan
            What fills the unused slots when ``size`` is given (interpax's
            keyword).

        Returns
        -------
        numpy.ndarray or jax.Array
            Without ``size``: scipy's result, a numpy array of the solutions
            in order (an object array of them, one per polynomial, for
            several).  With ``size``: an array of shape
            ``values.shape[without axis] + (size,)``, the solutions first,
            then ``fill_value``.  An interval where ``p`` is identically
            ``y`` gives its start followed by NaN, as scipy's marker.

        Raises
        ------
        ValueError
            Complex coefficients; a ``y`` that does not broadcast; a
            negative ``size``.
        TypeError
            Traced data without ``size``; a ``size`` that is not an int.
        NotRealError
            ``y`` or ``fill_value`` not real.

        See Also
        --------
        roots : ``solve(0.0)``; the algorithm and its differences from scipy's.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> print(np.round(p.solve(2.25), 6), np.round(p.solve(2.25, extrapolate=False), 6))
        [-1.5  1.5] [1.5]

        Under `jax.jit`, with a static ``size``: see `roots`.
        """
        return solve(self, y, discontinuity, extrapolate, size, fill_value)

    @overload
    def roots(
        self,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        size: None = None,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> np.ndarray: ...

    @overload
    def roots(
        self,
        discontinuity: bool,
        extrapolate: Extrapolate,
        size: int,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> Float[Array, "*columns size"]: ...

    @overload
    def roots(
        self,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        *,
        size: int,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> Float[Array, "*columns size"]: ...

    @plain_method
    def roots(
        self,
        discontinuity: bool = True,
        extrapolate: Extrapolate = None,
        size: int | None = None,
        fill_value: Float[ArrayLike, ""] = np.nan,
    ) -> np.ndarray | Float[Array, "*columns size"]:
        """The real roots of each polynomial, as scipy's ``PPoly.roots``.

        Parameters
        ----------
        discontinuity : bool, default True
            Also report a breakpoint where ``p`` jumps across 0 with a strict
            sign change.
        extrapolate : bool or "periodic", optional
            Also search the end intervals extended past the breakpoints
            (``"periodic"`` counts as ``True``, as scipy's); default: the
            object's ``extrapolate``.
        size : int, optional
            A static number of slots per polynomial, needed under `jax.jit`,
            `jax.vmap` and `jax.grad`.
        fill_value : scalar, default nan
            What fills the unused slots when ``size`` is given (interpax's
            keyword).

        Returns
        -------
        numpy.ndarray or jax.Array
            Called eagerly without ``size``: scipy's result, a numpy array of
            the roots (an object array of such arrays, one per polynomial,
            for several).  With ``size``: an array of shape
            ``values.shape[without axis] + (size,)``, each polynomial's roots
            first, then ``fill_value``.  An identically zero interval gives
            its start followed by NaN: scipy's marker, not padding.

        Raises
        ------
        ValueError
            Complex coefficients; a negative ``size``.
        TypeError
            Traced data without ``size``; a ``size`` that is not an int.

        See Also
        --------
        solve : The solutions of ``p(x) = y``.

        Notes
        -----
        The roots come from sign changes, not eigenvalues: on each interval
        the polynomial's range is split at the roots of its derivative (in
        closed form up to degree 2, recursively above), and each segment
        whose ends have strictly opposite signs holds one root, found by
        bisection to adjacent floats.  So roots on breakpoints are exact, a
        root shared by two intervals is reported once, and a tangency (a
        double root) is listed once when the polynomial is exactly 0 at its
        computed critical point, and not at all when rounding leaves it on
        one side; scipy's companion-matrix eigenvalues list it twice (~1e-8
        apart), once or not at all.  No loop, conditional or callback: the
        program runs on GPUs.  The roots are differentiable (implicit
        function theorem: ``dx = −dp(x) / p'(x)``; 0 where ``p'(x) = 0``).
        Non-finite coefficients give a polynomial's slots all NaN.

        Examples
        --------
        >>> import jax
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> x = jnp.linspace(0.0, 3.0, 4)
        >>> spline = splines.CubicSpline(x, x**2 - 2.25)
        >>> print(np.round(spline.roots(extrapolate=False), 6))
        [1.5]
        >>> roots = jax.jit(lambda s: s.roots(size=3))(spline)
        >>> print(np.round(np.asarray(roots), 6))
        [-1.5  1.5  nan]
        """
        return self.solve(0.0, discontinuity, extrapolate, size, fill_value)

    @plain_method
    def extend(self, c: Inexact[ArrayInput, "k+1 m *columns"], x: Float[ArrayInput, " m"]) -> None:
        """Add intervals after the last breakpoint or before the first, in place, as scipy's.

        Appending, the first new interval runs from the current last
        breakpoint to ``x[0]``; prepending, the last new one runs from
        ``x[-1]`` to the current first breakpoint.  The new breakpoints
        continue in the breakpoints' direction.  A degree mismatch pads the
        lower degree's coefficients with zeros; zero-width new intervals are
        dropped (concrete ``x``).  An eager idiom: it mutates the object (a
        jitted function should build a new `PPoly`).

        Parameters
        ----------
        c : array_like, shape (k' + 1, m', ...)
            The new intervals' coefficients in scipy's layout, the trailing
            axes the values' shape without ``axis``.
        x : array_like, shape (m',)
            The new breakpoints, wholly after or wholly before the current
            ones.

        Raises
        ------
        ValueError
            Shapes that do not match, concrete ``x`` not monotone, in the
            other direction than the breakpoints, or overlapping them.
            Traced ``x`` that does not continue the breakpoints strictly
            makes every value NaN.
        NotRealError
            ``x`` not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> import splines
        >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
        >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
        >>> p.extend(jnp.array([[4.0]]), jnp.array([3.0]))  # the constant 4 on [2, 3]
        >>> print(np.asarray(p.x), f"{float(p(2.5)):.6f}")
        [0. 1. 2. 3.] 4.000000
        """
        c, x = check_extension(self, *lists_to_arrays(c, x))
        if c.shape[1] == 0:  # nothing, or only empty intervals
            return
        fields = _extend(self.breaks, self.coefficients, self.end, c, x, self.descending)
        for name, value in zip(("breaks", "coefficients", "end"), fields):
            object.__setattr__(self, name, value)  # scipy mutates; an eager-only idiom

    @classmethod
    def construct_fast(
        cls,
        c: Inexact[ArrayInput, "k+1 m *columns"],
        x: Float[ArrayInput, " m+1"],
        extrapolate: Extrapolate = None,
        axis: int = 0,
    ) -> "PPoly":
        """Build a `PPoly` from scipy's ``c`` and ``x``, as scipy's fast constructor.

        The same as ``PPoly(c, x, extrapolate, axis)``, checks included: here
        they cost microseconds, so there is no unchecked path.

        Parameters
        ----------
        c : array_like, shape (k + 1, m, ...)
            scipy's coefficients, as `PPoly`'s.
        x : array_like, shape (m + 1,)
            The breakpoints, as `PPoly`'s.
        extrapolate : bool or "periodic", optional
            As `PPoly`'s.
        axis : int, default 0
            As `PPoly`'s.

        Returns
        -------
        PPoly

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> p = splines.PPoly.construct_fast(jnp.array([[1.0], [0.0]]), jnp.array([0.0, 2.0]))
        >>> print(f"{float(p(1.5)):.6f}")
        1.500000
        """
        return PPoly(c, x, extrapolate, axis)

    @classmethod
    def from_spline(
        cls, tck: tuple[ArrayInput, ArrayInput, int] | BSplineLike, extrapolate: Extrapolate = None
    ) -> "PPoly":
        """Convert a B-spline to a `PPoly`, as scipy's ``PPoly.from_spline``.

        The breakpoints are the distinct knots; on each interval the
        polynomial comes from de Boor's derivative and Cox–de Boor
        recursions (de Boor, *A Practical Guide to Splines*, 1978, ch. X).
        Beyond the base interval ``[t[k], t[n]]`` the end polynomials extend,
        as scipy's ``splev`` does.

        Parameters
        ----------
        tck : (t, c, k) tuple or BSpline-like
            The knots ``t`` (1-D, non-decreasing, finite, concrete: they set
            the number of pieces), the coefficients ``c`` of shape
            ``(n, ...)`` with ``n = len(t) − k − 1`` (more rows are ignored,
            as scipy's ``splrep`` pads them; may be traced), and the degree
            ``k``; or an object with attributes ``t``, ``c``, ``k`` (and
            ``extrapolate``), such as `scipy.interpolate.BSpline`.
        extrapolate : bool or "periodic", optional
            The result's default; otherwise the BSpline's ``extrapolate``, or
            ``True`` for a tuple.

        Returns
        -------
        PPoly
            Of degree ``k``, ascending, with ``axis=0``; repeated knots give
            no zero-width intervals.

        Raises
        ------
        ValueError
            Knots not 1-D, non-decreasing and finite, too few knots for
            ``k``, an empty base interval, too few coefficients, a negative
            ``k``.
        TypeError
            Traced knots (under `jax.jit` or `jax.vmap`: close over them
            instead); ``k`` not an int.
        NotRealError
            Knots not real.

        Examples
        --------
        >>> import jax.numpy as jnp
        >>> import splines
        >>> t, c, k = jnp.array([0.0, 0.0, 1.0, 1.0]), jnp.array([0.0, 1.0]), 1
        >>> p = splines.PPoly.from_spline((t, c, k))
        >>> print(f"{float(p(0.25)):.6f}")
        0.250000
        """
        if all(hasattr(tck, name) for name in ("t", "c", "k")):
            t, c, k = tck.t, tck.c, tck.k
            extrapolate = getattr(tck, "extrapolate", True) if extrapolate is None else extrapolate
        else:
            t, c, k = tck
        breaks, coefficients, column_shape = bspline_pieces(*lists_to_arrays(t, c), k)
        return _new(
            PPoly,
            breaks,
            coefficients,
            _last_values(coefficients),
            parse_extrapolate(extrapolate, True),
            0,
            column_shape,
            False,
        )

    @plain_method
    def _with(self, coefficients: Array, extrapolate: bool | Literal["periodic"]) -> "PPoly":
        return _new(
            PPoly,
            self.breaks,
            coefficients,
            _last_values(coefficients),
            extrapolate,
            self.axis,
            self.column_shape,
            self.descending,
        )


class PPoly(AbstractPPoly):
    """Piecewise polynomial in the power basis: `scipy.interpolate.PPoly`, in JAX.

    On interval i, between ``x[i]`` and ``x[i+1]``,
    ::

        p(x) = Σ_{j=0}^{k} c[j, i] (x − x[i])^(k−j),

    any degree k, real or complex.  A point on a breakpoint takes the
    interval that starts there (for descending breakpoints, the one that
    ends there); the last interval is closed.  An equinox module: `jax.jit`,
    `jax.vmap` and `jax.grad` (w.r.t. ``c``, ``x`` and the points) go through
    every method; `roots` and `solve` need a static ``size`` there.

    Parameters
    ----------
    c : array_like, shape (k + 1, m, ...)
        The coefficients, highest power first; the two polynomial axes are
        at ``axis`` and ``axis + 1``, the others are the values' (one
        polynomial per entry).
    x : array_like, shape (m + 1,)
        The breakpoints, real, finite, and ascending or descending; repeated
        breakpoints (zero-width intervals, which scipy allows) are dropped.
    extrapolate : bool or "periodic", optional
        Outside the breakpoints: extend the end intervals (``True``, the
        default), NaN (``False``), or wrap into the period ``x[-1] − x[0]``
        (``"periodic"``).  Every method's default.
    axis : int, default 0
        The interpolation axis: where the shape of the points goes in a
        call's result.
    check : bool, default True
        ``False`` (interpax's keyword) reads concrete ``x`` as traced: no
        eager checks, ascending only, repeated breakpoints not dropped.

    Attributes
    ----------
    x : jax.Array, shape (m + 1,)
        The breakpoints, as given.
    c : jax.Array, shape (k + 1, m, ...)
        The coefficients in scipy's layout.

    Raises
    ------
    ValueError
        ``c`` of fewer than 2 dimensions, shapes that do not match, fewer
        than 2 breakpoints, concrete breakpoints not finite and monotone,
        or whose differences overflow or are subnormal.  Traced breakpoints
        (under `jax.jit`, `jax.vmap`, or differentiated) must be strictly
        ascending: others, descending ones included, make every value NaN.
    NotRealError
        ``x`` not real.

    Warns
    -----
    X64DisabledWarning
        Once per process, for float64 numpy data while ``jax_enable_x64`` is
        off: computed in float32.

    See Also
    --------
    AbstractPPoly : The methods, shared with the fitting classes.
    CubicSpline, PchipInterpolator, Akima1DInterpolator, CubicHermiteSpline

    Notes
    -----
    The polynomials are held in local coordinates (ascending powers of
    ``t = (x − x[i]) / (x[i+1] − x[i])``), which keeps the coefficients the
    size of the values whatever the breakpoints' scale; scipy's ``c`` is made
    when read.  Descending breakpoints are held as the ascending ``−x``, and
    their direction chooses the program, so it must be known eagerly.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> c = jnp.array([[1.0, 1.0], [0.0, 2.0], [0.0, 1.0]])  # x**2 on [0, 1], [1, 2]
    >>> p = splines.PPoly(c, jnp.array([0.0, 1.0, 2.0]))
    >>> print(np.round(np.asarray(p(jnp.array([0.5, 1.5, 3.0]))), 6))
    [0.25 2.25 9.  ]
    >>> print(f"{float(p.integrate(0.0, 2.0)):.6f}", np.round(p.solve(1.0, extrapolate=False), 6))
    2.666667 [1.]
    """

    def __init__(
        self,
        c: Inexact[ArrayInput, "k+1 m *columns"],
        x: Float[ArrayInput, " m+1"],
        extrapolate: Extrapolate = None,
        axis: int = 0,
        check: bool = True,
    ):
        c, x = lists_to_arrays(c, x)
        warn_if_x64_disabled(c, x)
        if np.ndim(c) < 2:
            raise ValueError(f"`c` must have at least 2 dimensions; got shape {np.shape(c)}.")
        axis = normalize_axis(axis, np.ndim(c) - 1, "c (without its power axis)")
        c = jnp.moveaxis(jnp.moveaxis(c, axis + 1, 0), axis + 1, 0)
        check_breakpoints(x, c.shape)
        real, dtype = data_dtypes(x, c)
        x, c = as_dtype(x, real), as_dtype(c, dtype)
        descending = False  # traced breakpoints must ascend (the direction picks the program)
        if check and is_concrete(x):
            descending = descends_eagerly(np.asarray(x))
            x, c = without_empty_intervals(np.asarray(x), c)
        column_shape = c.shape[2:]
        c = jnp.reshape(c, c.shape[:2] + (math.prod(column_shape),))
        breaks, coefficients, end = _to_local(x, c, descending)
        set_fields(
            self,
            breaks,
            coefficients,
            end,
            parse_extrapolate(extrapolate, True),
            axis,
            column_shape,
            descending,
        )


def set_fields(
    self: AbstractPPoly,
    breaks: Array,
    coefficients: Array,
    end: Array,
    extrapolate: bool | Literal["periodic"],
    axis: int,
    column_shape: tuple[int, ...],
    descending: bool,
) -> None:
    """Set the fields of ``self`` in its ``__init__``: `PPoly`'s and every fitted class'
    (a function, not a method: a subclass then declares no fields of its own, to a type
    checker)."""
    self.breaks, self.coefficients, self.end = breaks, coefficients, end
    self.extrapolate = extrapolate
    self.axis, self.column_shape, self.descending = axis, column_shape, descending


def _as_bound(value, name: str, real):
    """An integration bound as an array of the breaks' dtype (a Python float needs no
    checks: it is a real scalar)."""
    if type(value) is float:
        return np.asarray(value, real)
    return as_dtype(check_scalar(value, name), real)


def _build_call_spec(nu, mode, axis: int, column_shape: tuple) -> EvalSpec:
    """The `EvalSpec` of a call (`_call_spec` keeps it per options: building it is a
    third of an eager scalar call's Python)."""
    return EvalSpec(
        *orders_along_one_axis(nu, "nu"),
        ((mode is True,) * 2,),
        (mode == PERIODIC,),
        axis,
        column_shape,
    )


_call_spec = functools.lru_cache(maxsize=256, typed=True)(_build_call_spec)  # nu=True ≠ 1


@functools.lru_cache(maxsize=8)
def _nan_fill(dtype):
    """(below, above) = NaN: outside the breaks without extrapolation; jax constants made
    once (`constant`: a numpy fill would be copied to the device on every call)."""
    nan = constant(np.nan, dtype)
    return (nan, nan)


def _new(cls, breaks, coefficients, end, extrapolate, axis, column_shape, descending):
    """An instance from its fields (no conversion, no checks): results of methods."""
    self = object.__new__(cls)
    fields = dict(
        breaks=breaks,
        coefficients=coefficients,
        end=end,
        extrapolate=extrapolate,
        axis=axis,
        column_shape=column_shape,
        descending=descending,
    )
    for name, value in fields.items():
        object.__setattr__(self, name, value)
    return self


def _signed_order(nu) -> int:
    """An int order, negative allowed (derivative ↔ antiderivative); bools are not orders."""
    if isinstance(nu, bool) or not isinstance(nu, (int, np.integer)):
        check_order(nu, nu, "nu")  # raises TypeError, as a call with this `nu` does
    return int(nu)


def _reflected(coefficients, order: int, descending: bool):
    """Pieces in z = −x of an order-th derivative (antiderivative: −order) of f(x): (−1)^order."""
    return -coefficients if descending and order % 2 else coefficients


def _call_impl(x, breaks, coefficients, end, fill, spec: EvalSpec, descending: bool):
    """`evaluate`, at −x for descending breakpoints with the n-th derivative times (−1)^n."""
    if not descending:
        return evaluate((x,), (breaks,), coefficients, (fill,), spec, end)
    out = evaluate((-x,), (breaks,), coefficients, (fill,), spec, end)
    signs = np.array([(-1) ** order for (order,) in spec.derivative])
    signs = signs.reshape((-1,) + (1,) * (out.ndim - 1))
    return out * (signs if spec.stacked else signs[0])


def _to_local_impl(x, c, descending: bool):
    """Convert, and poison (NaN) traced breakpoints that are not strictly monotone."""
    breaks, coefficients = to_local(c, x, descending)
    factor = poison(knots_are_valid(breaks))
    return breaks * factor, coefficients * factor, last_values(coefficients) * factor


def _integrate_impl(breaks, coefficients, a, b, fill, mode, column_shape):
    antiderivative = antiderivative_pieces(breaks, coefficients, 1)
    extend = ((mode is True,) * 2,)
    spec = EvalSpec(((0,),), False, extend, (False,), 0, (coefficients.shape[1],))

    def evaluate_at(points):
        return evaluate((points,), (breaks,), antiderivative, (fill,), spec)

    out = integral(evaluate_at, a, b, breaks, mode == PERIODIC)
    return jnp.reshape(out, column_shape)


def _extend_impl(breaks, coefficients, end, c, x, descending: bool):
    """Our pieces with scipy's new intervals ``(c, x)`` added after or before them.

    scipy's new intervals run from its last breakpoint through ``x`` when
    appending, and through ``x`` to its first breakpoint when prepending; in
    z (ascending) they go above or below ours.  Which one is data (``x`` may
    be traced), so both are built and one kept; new breakpoints that do not
    continue ours strictly make everything NaN.
    """
    given = -breaks if descending else breaks  # scipy's x
    above = _join(
        breaks, coefficients, *to_local(c, jnp.concatenate([given[-1:], x]), descending), above=True
    )
    below = _join(
        breaks, coefficients, *to_local(c, jnp.concatenate([x, given[:1]]), descending), above=False
    )
    append = (-x[0] if descending else x[0]) >= breaks[-1]
    breaks, coefficients = (jnp.where(append, a, b) for a, b in zip(above, below))
    end = jnp.where(append, last_values(above[1]), end)  # the last break is new, or ours
    factor = poison(knots_are_valid(breaks))
    return breaks * factor, coefficients * factor, end * factor


def _join(breaks, coefficients, new_breaks, new, above: bool):
    """Old and new pieces in ascending order; the lower degree padded with zeros."""
    degree = max(coefficients.shape[-1], new.shape[-1])
    old, new = _pad_degree(coefficients, degree), _pad_degree(new, degree)
    if above:
        return jnp.concatenate([breaks, new_breaks[1:]]), jnp.concatenate([old, new])
    return jnp.concatenate([new_breaks[:-1], breaks]), jnp.concatenate([new, old])


def _pad_degree(coefficients, count: int):
    missing = count - coefficients.shape[-1]
    return jnp.pad(coefficients, [(0, 0)] * (coefficients.ndim - 1) + [(0, missing)])


_call = jax.jit(_call_impl, static_argnums=(5, 6))
_to_local = jax.jit(_to_local_impl, static_argnums=2)
_to_scipy = jax.jit(to_scipy, static_argnums=2)
_derivative = jax.jit(derivative_pieces, static_argnums=2)
_antiderivative = jax.jit(antiderivative_pieces, static_argnums=2)
_integrate = jax.jit(_integrate_impl, static_argnums=(5, 6))
_extend = jax.jit(_extend_impl, static_argnums=5)
_last_values = jax.jit(last_values)
