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
from typing import Any

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
    """A piecewise polynomial with scipy's `PPoly` interface (see `PPoly`).

    Fields are the internal form: ascending ``breaks``, ``coefficients``
    ``(m, k, d+1)`` in ascending powers of each piece's local coordinate, and
    ``end``, the values at the last break (a fit's data there; otherwise the
    last piece's sum: `_interpolate.evaluate.at_last_break`).
    """

    breaks: Float[Array, " m+1"]
    coefficients: Inexact[Array, "m k d+1"]
    end: Inexact[Array, " k"]
    extrapolate: Any = eqx.field(static=True)  # True, False or "periodic"
    axis: int = eqx.field(static=True)
    column_shape: tuple = eqx.field(static=True)  # the values' shape without `axis`
    descending: bool = eqx.field(static=True)  # scipy's breakpoints run downwards

    @property
    def x(self) -> Float[Array, " m+1"]:
        """Breakpoints, in the order given (scipy's ``x``)."""
        return -self.breaks if self.descending else self.breaks

    @property
    def c(self) -> Inexact[Array, "k+1 m *columns"]:
        """scipy's coefficients: ``(k+1, m, ...)``, highest power of ``x − x[i]`` first."""
        c, _ = _to_scipy(self.breaks, self.coefficients, self.descending)
        return jnp.reshape(c, c.shape[:2] + self.column_shape)

    def __call__(
        self, x: Float[ArrayLike, "..."], nu: int | tuple[int, ...] = 0, extrapolate=None
    ) -> Inexact[Array, "..."]:
        """The ``nu``-th derivative at ``x``; the shape of ``x`` replaces the interpolation
        axis.  ``nu`` may also be a tuple of orders (stacked on a new leading axis)."""
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        nu = tuple(nu) if isinstance(nu, list) else nu
        try:
            spec = _call_spec(nu, mode, self.axis, self.column_shape)
        except TypeError:  # an unhashable `nu`: the builder says what is wrong with it
            spec = _build_call_spec(nu, mode, self.axis, self.column_shape)
        (x,) = lists_to_arrays(x)
        return _call(prepare_queries(x, self.breaks.dtype), self.breaks, self.coefficients,
                     self.end, _nan_fill(self.coefficients.dtype), spec, self.descending)  # fmt: skip

    @plain_method
    def derivative(self, nu: int = 1) -> "PPoly":
        """The piecewise polynomial of the ``nu``-th derivative (negative: antiderivative)."""
        nu = _signed_order(nu)
        if nu < 0:
            return self.antiderivative(-nu)
        coefficients = _derivative(self.breaks, self.coefficients, nu)
        return self._with(_reflected(coefficients, nu, self.descending), self.extrapolate)

    @plain_method
    def antiderivative(self, nu: int = 1) -> "PPoly":
        """The ``nu``-th antiderivative, zero with its lower derivatives at ``x[0]``.

        Periodic extrapolation becomes ``False``, as in scipy: the antiderivative
        of a periodic function is periodic only when its integral over a period is 0.
        """
        nu = _signed_order(nu)
        if nu <= 0:
            return self.derivative(-nu)
        coefficients = _reflected(_antiderivative(self.breaks, self.coefficients, nu), nu,
                                  self.descending)  # fmt: skip
        return self._with(coefficients, False if self.extrapolate == PERIODIC else self.extrapolate)

    @plain_method
    def integrate(self, a, b, extrapolate=None) -> Inexact[Array, "*columns"]:
        """``∫_a^b`` of each polynomial; shape: the values' shape without the axis.

        Outside the breakpoints: the end pieces extended, NaN (``extrapolate=False``),
        or the periodic extension (``"periodic"``).
        """
        mode = parse_extrapolate(extrapolate, self.extrapolate)
        real = self.breaks.dtype
        a, b = (_as_bound(v, name, real) for v, name in ((a, "a"), (b, "b")))
        if self.descending:  # ∫_a^b f(x) dx = ∫_{−b}^{−a} f(−z) dz
            a, b = -b, -a
        fill = _nan_fill(self.coefficients.dtype)
        return _integrate(self.breaks, self.coefficients, a, b, fill, mode, self.column_shape)

    @plain_method
    def solve(self, y=0.0, discontinuity: bool = True, extrapolate=None, size=None,
              fill_value=np.nan):  # fmt: skip
        """Roots of ``p(x) = y`` per polynomial, as scipy's ``solve`` (see `roots`); ``y``
        a scalar or, as interpax's, one per polynomial (broadcast to them)."""
        return solve(self, y, discontinuity, extrapolate, size, fill_value)

    @plain_method
    def roots(self, discontinuity: bool = True, extrapolate=None, size=None, fill_value=np.nan):
        """Real roots of each polynomial, as scipy's ``PPoly.roots``.

        Called eagerly without ``size``: scipy's array (an object array of
        arrays for several polynomials).  Under ``jit``, pass a static
        ``size``: each polynomial's roots fill ``size`` slots, padded with
        ``fill_value`` (interpax's keyword), in an array of shape
        ``(..., size)`` (a NaN after the start of an identically zero interval
        is scipy's marker, not padding).  Roots come from sign changes, so
        roots on breaks are exact; a tangency (double root) is listed once
        when the polynomial is exactly 0 at its computed critical point, and
        not at all when rounding leaves it on one side; scipy's eigenvalues
        list it twice (~1e-8 apart), once or not at all (`_pieces.roots`).
        """
        return self.solve(0.0, discontinuity, extrapolate, size, fill_value)

    @plain_method
    def extend(self, c, x) -> None:
        """Add intervals ``c``, ``x`` on the right or the left, in place, as scipy does.

        The first new interval starts at the current end breakpoint; the new
        breakpoints continue in the same direction.  A degree mismatch pads
        the lower-degree coefficients with zeros.
        """
        c, x = check_extension(self, *lists_to_arrays(c, x))
        if c.shape[1] == 0:  # nothing, or only empty intervals
            return
        fields = _extend(self.breaks, self.coefficients, self.end, c, x, self.descending)
        for name, value in zip(("breaks", "coefficients", "end"), fields):
            object.__setattr__(self, name, value)  # scipy mutates; an eager-only idiom

    @classmethod
    def construct_fast(cls, c, x, extrapolate=None, axis: int = 0) -> "PPoly":
        """As `PPoly` (the same checks: they cost microseconds)."""
        return PPoly(c, x, extrapolate, axis)

    @classmethod
    def from_spline(cls, tck, extrapolate=None) -> "PPoly":
        """The B-spline ``tck`` = ``(t, c, k)`` (or a `scipy.interpolate.BSpline`) as a `PPoly`.

        The knots ``t`` must be concrete (they set the number of pieces); ``c``
        may be traced.  Repeated knots give no zero-width pieces.
        """
        if all(hasattr(tck, name) for name in ("t", "c", "k")):
            t, c, k = tck.t, tck.c, tck.k
            extrapolate = getattr(tck, "extrapolate", True) if extrapolate is None else extrapolate
        else:
            t, c, k = tck
        breaks, coefficients, column_shape = bspline_pieces(*lists_to_arrays(t, c), k)
        return _new(PPoly, breaks, coefficients, _last_values(coefficients),
                    parse_extrapolate(extrapolate, True), 0, column_shape, False)  # fmt: skip

    @plain_method
    def _with(self, coefficients, extrapolate) -> "PPoly":
        return _new(PPoly, self.breaks, coefficients, _last_values(coefficients), extrapolate,
                    self.axis, self.column_shape, self.descending)  # fmt: skip


class PPoly(AbstractPPoly):
    """Piecewise polynomial in the power basis: `scipy.interpolate.PPoly`, in JAX.

    On interval i, between ``x[i]`` and ``x[i+1]``,
    ``p(x) = Σ_m c[m, i] (x − x[i])^(k−m)``.  ``c``: ``(k+1, m, ...)`` (the
    polynomial axes at ``axis``, ``axis+1``), any degree, real or complex;
    ``x``: ``(m+1,)`` breakpoints, strictly ascending or descending.
    ``extrapolate``: True (extend the end pieces), False (NaN outside) or
    ``"periodic"``.  A point on a break takes the interval starting there
    (for descending breakpoints, the one ending there); the last interval is
    closed.  A pytree: `jit`, `vmap` and `grad` (w.r.t. ``c``, ``x`` and the
    queries) go through every method but `roots`/`solve`, which need a
    static ``size`` under `jit`.  Descending breakpoints must be concrete:
    their direction chooses the program, so a traced ``x`` (under `jit`,
    `vmap`, or differentiated) must ascend, and a descending one gives NaN.
    ``check=False`` (interpax's keyword) reads concrete ``x`` as traced: no
    eager checks, ascending only, repeated breakpoints not dropped.
    """

    def __init__(
        self,
        c: Inexact[ArrayLike, "k+1 m *columns"],
        x: Float[ArrayLike, " m+1"],
        extrapolate: bool | str | None = None,
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
        self.breaks, self.coefficients, self.end = _to_local(x, c, descending)
        self.extrapolate = parse_extrapolate(extrapolate, True)
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
    return EvalSpec(*orders_along_one_axis(nu, "nu"), ((mode is True,) * 2,), (mode == PERIODIC,),
                    axis, column_shape)  # fmt: skip


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
    fields = dict(breaks=breaks, coefficients=coefficients, end=end, extrapolate=extrapolate,
                  axis=axis, column_shape=column_shape, descending=descending)  # fmt: skip
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
    above = _join(breaks, coefficients, *to_local(c, jnp.concatenate([given[-1:], x]),
                                                  descending), above=True)  # fmt: skip
    below = _join(breaks, coefficients, *to_local(c, jnp.concatenate([x, given[:1]]),
                                                  descending), above=False)  # fmt: skip
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
