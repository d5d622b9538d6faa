"""scipy's B-spline fits: `make_interp_spline` and `make_lsq_spline`, on the banded solve.

Both build their matrix from the basis values of `bsplines.basis_values` at the
data sites (each site touches the k + 1 coefficients ``l−k … l`` of its
interval l), in the row layout of `_linalg.banded.banded_solve`
(``rows[i, m] = A[i, i − lower + m]``):

- interpolation: the collocation matrix (plus derivative rows at the ends), l
  = u = k as scipy's ``gbsv`` call, solved with partial pivoting; with the
  default not-a-knot knots (n ≥ 2k + 2) its ends are reduced and its inner band
  (l = u = ⌊k/2⌋, no interval search) solved without pivoting, which the matrix
  (totally nonnegative) does not need (`not_a_knot.py`);
- periodic interpolation (``bc_type="periodic"``, `periodic_fits.py`): the n − 1
  coefficients of one period, a cyclic band solved by Woodbury's identity on the
  unpivoted banded solve;
- least squares: the normal equations ``Bᵀ W² B c = Bᵀ W² y`` (scipy's weights
  multiply the residuals), their lower band of width k accumulated by a
  scatter-add of each site's (k+1)² products, solved by LDLᵀ.

Everything is jnp on the sites, values and knots, so the fits are
differentiable w.r.t. all of them and run under `jax.jit` and `jax.vmap`; the
default knots of `make_interp_spline` are copies and averages of the sites.
Concrete data are checked in numpy first (`bspline_checks`: `ValueError` naming the
argument and index); traced data that break a rule make the knots and coefficients NaN
(`_utils.validate.poison`), and a non-finite column of values its own column.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Float, Inexact

from .._linalg.banded import banded_solve
from .._linalg.banded_lstsq import banded_lstsq
from .._utils.dtypes import check_real, data_dtypes, lists_to_arrays, warn_if_x64_disabled
from .._utils.types import ArrayInput, BSplineBcType, LsqMethodName
from .._utils.validate import (
    is_concrete,
    knots_are_valid,
    poison,
    poison_columns,
)
from .bspline_checks import (
    _check_interp_eagerly,
    _check_lsq_eagerly,
    _end,
    _knot_rule,
    _parse_bc_type,
    _sites_and_values,
)
from .bsplines import (
    BSpline,
    _new,
    basis_values,
    check_degree,
    interval,
    knots_valid,
)
from .not_a_knot import not_a_knot_knots, not_a_knot_solve
from .periodic_fits import make_periodic_spline


def make_interp_spline(
    x: Float[ArrayInput, " n"],
    y: Inexact[ArrayInput, "..."],
    k: int = 3,
    t: Float[ArrayInput, " nt+k+1"] | None = None,
    bc_type: BSplineBcType = None,
    axis: int = 0,
    check_finite: bool = True,
) -> BSpline:
    """The interpolating B-spline of degree ``k``, as `scipy.interpolate.make_interp_spline`.

    Differentiable w.r.t. ``x``, ``y``, ``t`` and the end derivatives' values,
    and jittable and vmappable over them: the default knots are copies and
    averages of ``x``, the collocation system a banded solve.

    Parameters
    ----------
    x : array_like, shape (n,)
        The data sites, real, finite and strictly increasing.
    y : array_like, shape (..., n, ...)
        The data values, n along ``axis``; may be complex.
    k : int, default 3
        The degree, a Python int, 0 … (any; scipy's choices of knots are made
        for every k).
    t : array_like, shape (nt + k + 1,), optional
        The knots, non-decreasing; ``nt − n`` must equal the number of end
        derivatives given.  Default: scipy's — for ``bc_type`` None or
        ``"not-a-knot"`` the not-a-knot knots (the sites, without the k − 1
        nearest each end, for odd k; the midpoints between sites, without
        k/2 at each end, for even k), with end derivatives ``x`` with each end
        repeated k + 1 times; k = 0: ``x`` and its last site, k = 1: ``x`` with
        each end doubled; ``"periodic"`` (k ≥ 2): scipy's periodic knots, ``x``
        (odd k) or its cells' midpoints and both ends (even k), continued by k
        knots at each end whose spacings repeat the period's.  Must be None
        with ``"periodic"``.
    bc_type : None, str or (start, end), optional
        The end conditions: None or ``"not-a-knot"`` (default), ``"clamped"``
        (first derivatives 0), ``"natural"`` (second derivatives 0),
        ``"periodic"``, or a pair ``(start, end)`` of ends, each None, one of
        the first three names, or a sequence of ``(order, value)`` pairs of
        derivatives at that end (order 0 … k; values of ``y``'s shape without
        ``axis``).  ``"periodic"``: ``y[0]`` and ``y[-1]`` along ``axis``
        equal (as scipy's ``np.allclose(y[0], y[-1], atol=1e-15)``, or to
        rounding: 64 ulps of the column's largest value), ``y[-1]`` then not
        used (its gradient is 0); the values and derivatives 1 … k − 1 equal
        at both ends, and the result extrapolates periodically.  For k = 0 and
        1, as scipy, the plain spline (``extrapolate=True``).
    axis : int, default 0
        The axis of ``y`` along ``x``.
    check_finite : bool, default True
        Whether concrete inputs holding infs or NaNs raise (naming the first).

    Returns
    -------
    BSpline
        Of degree ``k`` on the knots ``t``, ``axis`` as given; with
        ``bc_type="periodic"`` and k ≥ 2, ``extrapolate="periodic"`` and
        n + k − 1 coefficients of period n − 1.

    Raises
    ------
    ValueError
        ``x`` not 1-D, not strictly increasing (naming ``x[i]``), too few
        sites for ``k`` (periodic: 2, or 1 for k = 0), periodic ``y`` whose
        ends differ (naming the line ``y[:, j]`` and both values), shapes of ``x`` and ``y`` that do not match,
        non-finite concrete data with ``check_finite``, knots not sorted
        (naming ``t[i]``) or of the wrong number, sites outside the knots,
        sites that violate the Schoenberg–Whitney conditions (a singular
        collocation matrix, naming ``x[i]``), an unknown or malformed
        ``bc_type``, end conditions with k = 0 or 1.  Traced data that break
        these rules give NaN knots and coefficients (every value and gradient
        NaN); a non-finite traced column of ``y`` gives its own column NaN.
    NotImplementedError
        ``t`` given with ``bc_type="periodic"`` (k ≥ 1), as in scipy.
    TypeError
        ``k`` not an int.

    See Also
    --------
    BSpline : The result.
    make_lsq_spline : Least-squares fits.
    CubicSpline : The cubic interpolant in the piecewise power basis.

    Notes
    -----
    The collocation matrix (rows: left derivatives, the sites, right
    derivatives) is banded with k sub- and superdiagonals, as in scipy, and
    solved by Gaussian elimination with partial pivoting (LAPACK ``gbsv``'s
    algorithm).  With the default not-a-knot knots and n ≥ 2k + 2 sites, it is
    totally nonnegative (de Boor & Pinkus 1977): Gaussian elimination without
    pivoting is backward stable on it, and is used — its first and last k rows
    reduced, then a band of ⌊k/2⌋ sub- and superdiagonals in one sweep.  A
    matrix singular to rounding (pivots ~0) gives inf/NaN, where scipy raises
    ``LinAlgError``.

    Periodic fits solve for the n − 1 coefficients of one period: a cyclic
    band of ⌊k/2⌋ sub- and superdiagonals, by Woodbury's identity on its band
    without the corners (a section of the totally nonnegative collocation
    matrix of the periodic extension, solved without pivoting) and a
    2⌊k/2⌋ × 2⌊k/2⌋ system with partial pivoting; fewer than 2⌊k/2⌋ + 2 sites
    fold the corners onto the band and solve the small dense system with
    partial pivoting.

    Examples
    --------
    >>> import jax
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 3.0, 7)
    >>> spline = splines.make_interp_spline(x, x**3)
    >>> print(np.round(np.asarray(spline(jnp.array([0.25, 2.5]))), 6))
    [ 0.015625 15.625   ]
    >>> grad = jax.grad(lambda y: splines.make_interp_spline(x, y)(1.2))(x**3)
    >>> print(np.round(float(grad.sum()), 6))  # the weights of the data sum to 1
    1.0
    >>> x = jnp.linspace(0.0, 2 * jnp.pi, 9)
    >>> periodic = splines.make_interp_spline(x, jnp.cos(x), bc_type="periodic")
    >>> print(np.round(np.asarray(periodic(jnp.array([1.0, 1.0 + 2 * jnp.pi]))), 5))
    [0.54013 0.54013]
    >>> print(np.round(np.asarray(periodic(x[jnp.array([0, -1])], nu=2)), 5))  # ends match
    [-1.05239 -1.05239]
    """
    k = check_degree(k)
    ends = _parse_bc_type(bc_type)
    x, y, t = lists_to_arrays(x, y, t)
    warn_if_x64_disabled(x, y, t)
    x, y, columns, axis = _sites_and_values(x, y, axis)
    if ends is None:
        return make_periodic_spline(x, y, k, t, columns, axis, check_finite)
    n = x.shape[0]
    real, dtype = data_dtypes(x, y) if t is None else data_dtypes(x, y, t)
    (left, left_values), (right, right_values) = (
        _end(end, side, k, columns, dtype) for end, side in zip(ends, ("start", "end"))
    )
    if t is not None:
        check_real(t, "t")
        if np.ndim(t) != 1:
            raise ValueError(f"`t` (the knots) must be 1-D; got shape {np.shape(t)}.")
    knots = _knot_rule(k, t, left, right, n)
    x = jnp.asarray(x, real) if isinstance(x, jax.Array) else np.asarray(x, real)
    y = jnp.asarray(y, dtype) if isinstance(y, jax.Array) else np.asarray(y, dtype)
    if t is not None:
        t = jnp.asarray(t, real) if isinstance(t, jax.Array) else np.asarray(t, real)
        nt = t.shape[0] - k - 1
        if nt - n != len(left) + len(right):
            raise ValueError(
                f"`t` has {t.shape[0]} knots: n + k + 1 + (number of end derivatives) = "
                f"{n} + {k} + 1 + {len(left) + len(right)} = {n + k + 1 + len(left) + len(right)} "
                f"are needed for {n} sites."
            )
    if is_concrete(x, y, t, left_values, right_values):
        _check_interp_eagerly(x, y, t, k, left, right, left_values, right_values, check_finite)
    y2 = jnp.reshape(jnp.asarray(y), (n, -1))
    flat = [None if v is None else jnp.reshape(jnp.asarray(v, dtype), (len(o), -1))
            for v, o in ((left_values, left), (right_values, right))]  # fmt: skip
    t, c = _interp_fit(jnp.asarray(x), y2, None if t is None else jnp.asarray(t), *flat,
                       k=k, knots=knots, left=left, right=right)  # fmt: skip
    return _new(t, jnp.reshape(c, (c.shape[0],) + columns), k, True, axis)


def make_lsq_spline(
    x: Float[ArrayInput, " m"],
    y: Inexact[ArrayInput, "..."],
    t: Float[ArrayInput, " n+k+1"],
    k: int = 3,
    w: Float[ArrayInput, " m"] | None = None,
    axis: int = 0,
    check_finite: bool = True,
    *,
    method: LsqMethodName = "qr",
) -> BSpline:
    """The weighted least-squares B-spline on given knots, as
    `scipy.interpolate.make_lsq_spline`.

    The spline ``S = Σ_j c_j B_{j,k}(·; t)`` that minimises
    ``Σ_i (w_i (S(x_i) − y_i))²``.  Differentiable w.r.t. ``x``, ``y``, ``t``
    and ``w``; jittable and vmappable over them.

    Parameters
    ----------
    x : array_like, shape (m,)
        The data sites, real, finite and non-decreasing, inside the base
        interval ``[t[k], t[n]]``.
    y : array_like, shape (..., m, ...)
        The data values, m along ``axis``; may be complex.
    t : array_like, shape (n + k + 1,)
        The knots, non-decreasing, with the sites satisfying the
        Schoenberg–Whitney conditions.
    k : int, default 3
        The degree, a Python int ≥ 0.
    w : array_like, shape (m,), optional
        The weights of the residuals (squared in the sum); default all 1.
    axis : int, default 0
        The axis of ``y`` along ``x``.
    check_finite : bool, default True
        Whether concrete inputs holding infs or NaNs raise (naming the first).
    method : {"qr", "norm-eq"}, default "qr"
        scipy's: Givens rotations of the design matrix (QR), or the normal
        equations (faster; they square the design matrix's condition number).

    Returns
    -------
    BSpline
        Of degree ``k`` on the knots ``t``, ``axis`` as given.

    Raises
    ------
    ValueError
        ``method`` not "qr" or "norm-eq"; fewer than k + 1 sites, ``x`` not
        1-D or decreasing (naming ``x[i]``),
        knots not non-decreasing (naming ``t[i]``) or too few, sites outside
        the base interval (naming ``x[i]``), shapes that do not match,
        non-finite concrete data with ``check_finite``, sites and knots that
        violate the Schoenberg–Whitney conditions (naming the B-spline
        ``j`` that no site can be given to).  Traced data that break these
        rules (but for Schoenberg–Whitney's) give NaN knots and coefficients;
        a non-finite traced column of ``y`` gives its own column NaN.
    TypeError
        ``k`` not an int.

    See Also
    --------
    BSpline : The result.
    make_interp_spline : Interpolation.

    Notes
    -----
    ``method="qr"`` (scipy's default) rotates each site's k + 1 basis values
    into a triangular band R (`_linalg.banded_lstsq`, without forming the
    design matrix) and solves R c = Qᵀ y; ``"norm-eq"`` accumulates the normal
    equations, a symmetric positive definite system of bandwidth k, and solves
    it by LDLᵀ.  The normal equations square the design matrix's condition
    number κ: for sites that fill the knot intervals κ is small and both agree
    to rounding, but sites that barely cover a B-spline (κ ~ 1e10) leave them
    without a correct digit where QR keeps ~κ ε.  Derivatives of either are
    those of the exact least-squares solution.  QR's rotations are a scan over
    the sites, a host-driven loop on GPUs; there ``"norm-eq"`` is one kernel.  Traced sites that violate the
    Schoenberg–Whitney conditions make the system singular: its solution is
    then NaN or inf when a pivot is 0, and may be any number when rounding
    leaves it nonzero.

    Examples
    --------
    >>> import jax.numpy as jnp
    >>> import numpy as np
    >>> import splines
    >>> x = jnp.linspace(0.0, 1.0, 21)
    >>> t = jnp.array([0.0] * 4 + [0.5] + [1.0] * 4)
    >>> spline = splines.make_lsq_spline(x, x**3 - x, t)  # a cubic: fitted exactly
    >>> print(np.round(np.asarray(spline(jnp.array([0.3, 0.9]))), 6))
    [-0.273 -0.171]
    """
    k = check_degree(k)
    if method not in ("qr", "norm-eq"):
        raise ValueError(f"`method` must be 'qr' or 'norm-eq'; got {method!r}.")
    x, y, t, w = lists_to_arrays(x, y, t, w)
    warn_if_x64_disabled(x, y, t, w)
    x, y, columns, axis = _sites_and_values(x, y, axis)
    m = x.shape[0]
    if m < k + 1:
        raise ValueError(f"`x` needs at least k + 1 = {k + 1} sites for degree `k`={k}; got {m}.")
    check_real(t, "t")
    if np.ndim(t) != 1 or np.shape(t)[0] < 2 * k + 2:
        raise ValueError(
            f"`t` (the knots) must be 1-D with at least 2k + 2 = {2 * k + 2} knots; got shape "
            f"{np.shape(t)}."
        )
    if w is not None:
        check_real(w, "w")
        if np.shape(w) != (m,):
            raise ValueError(f"`w` must have the shape of `x`, ({m},); got {np.shape(w)}.")
    real, dtype = data_dtypes(x, y, t) if w is None else data_dtypes(x, y, t, w)
    x, t = (
        jnp.asarray(v, real) if isinstance(v, jax.Array) else np.asarray(v, real) for v in (x, t)
    )
    y = jnp.asarray(y, dtype) if isinstance(y, jax.Array) else np.asarray(y, dtype)
    if w is not None:
        w = jnp.asarray(w, real) if isinstance(w, jax.Array) else np.asarray(w, real)
    if is_concrete(x, y, t, w):
        _check_lsq_eagerly(x, y, t, w, k, check_finite)
    y2 = jnp.reshape(jnp.asarray(y), (m, -1))
    w = None if w is None else jnp.asarray(w)
    t, c = _lsq_fit(jnp.asarray(x), y2, jnp.asarray(t), w, k, method)
    return _new(t, jnp.reshape(c, (c.shape[0],) + columns), k, True, axis)


# ------------------------------------------------------------------------ fits --


def place_in_band(basis, shift, bandwidth: int):
    """Rows of a band (``2·bandwidth + 1`` wide, diagonal in the middle) holding each row's
    k + 1 basis values from band position ``shift`` on; also whether a non-zero value
    falls outside the band."""
    k = basis.shape[-1] - 1
    position = shift[:, None] + jnp.arange(k + 1)  # (rows, k+1)
    slots = jnp.arange(2 * bandwidth + 1)
    rows = jnp.sum(jnp.where(position[..., None] == slots, basis[..., None], 0), axis=1)
    outside = (position < 0) | (position > 2 * bandwidth)
    return rows, jnp.any(outside & (basis != 0))


@partial(jax.jit, static_argnames=("k", "knots", "left", "right"))
def _interp_fit(x, y, t, left_values, right_values, *, k, knots, left, right):
    """Knots and coefficients (nt, ncols) of the interpolant; NaN for invalid traced data."""
    valid = knots_are_valid(x)
    if knots == "k0":
        t, c = jnp.concatenate([x, x[-1:]]), y
    elif knots == "k1":
        t, c = jnp.concatenate([x[:1], x, x[-1:]]), y
    elif knots == "not-a-knot" and x.shape[0] >= 2 * k + 2:
        t = not_a_knot_knots(x, k)
        c = not_a_knot_solve(x, y, t, k)  # valid x make valid knots and sites
    else:
        if knots == "not-a-knot":
            t = not_a_knot_knots(x, k)
        elif knots == "augknt":
            t = jnp.concatenate([jnp.full(k, x[0]), x, jnp.full(k, x[-1])])
        c, fits = _collocation_solve(x, y, t, left_values, right_values, k, left, right)
        valid = valid & fits
    factor = poison(valid)
    return t * factor, c * factor * poison_columns(c, 1)


def _collocation_solve(x, y, t, left_values, right_values, k: int, left: tuple, right: tuple):
    """Any knots and end derivatives: the collocation matrix (l = u = k) by partial
    pivoting; also whether the knots and sites are valid."""
    nt = t.shape[0] - k - 1
    valid = knots_valid(t, k, base=True) & (x[0] >= t[k]) & (x[-1] <= t[-k])
    rows = []
    for orders, site in ((left, x[0]), (right, x[-1])):
        if orders:
            at = jnp.full(len(orders), site)
            l = interval(t, at, k)
            derivatives = [basis_values(t, at[i], l[i], k, nu) for i, nu in enumerate(orders)]
            rows.append((jnp.stack(derivatives), l))
        else:
            rows.append(None)
    l = interval(t, x, k)
    data = (basis_values(t, x, l, k), l)
    blocks = [b for b in (rows[0], data, rows[1]) if b is not None]
    basis = jnp.concatenate([b for b, _ in blocks])
    intervals = jnp.concatenate([i for _, i in blocks])
    band, outside = place_in_band(basis, intervals - jnp.arange(nt), k)
    valid = valid & ~outside
    if not left and not right:  # Schoenberg–Whitney: a non-zero diagonal
        valid = valid & jnp.all(band[:, k] != 0)
    rhs = jnp.concatenate([v for v in (left_values, y, right_values) if v is not None])
    band = band.astype(rhs.dtype)
    return banded_solve(band[None], rhs.T, lower=k, upper=k, symmetric=False).T, valid


@partial(jax.jit, static_argnames=("k", "method"))
def _lsq_fit(x, y, t, w, k: int, method: str):
    """The least-squares coefficients: QR of the weighted design matrix's rows, or the
    normal equations' lower band, accumulated per site, and their LDLᵀ solve."""
    n = t.shape[0] - k - 1
    valid = knots_valid(t, k) & jnp.all(jnp.diff(x) >= 0) & (x[0] >= t[k]) & (x[-1] <= t[n])
    valid = valid & jnp.isfinite(x[0]) & jnp.isfinite(x[-1])
    l = interval(t, x, k)
    basis = basis_values(t, x, l, k)  # (m, k+1)
    if method == "qr":  # scipy's weights multiply the residuals: rows w_i B(x_i), data w_i y_i
        weight = jnp.ones_like(x) if w is None else w
        rows = (weight[:, None] * basis).astype(basis.dtype)
        c = banded_lstsq(rows, l - k, weight[:, None].astype(y.dtype) * y, n)
    else:
        c = _normal_equations(basis, l, y, w, k, n)
    factor = poison(valid)
    return t * factor, c * factor * poison_columns(c, 1)


def _normal_equations(basis, l, y, w, k: int, n: int):
    """``Bᵀ W² B c = Bᵀ W² y``: its lower band accumulated per site, solved by LDLᵀ."""
    weight = jnp.ones_like(basis[:, 0]) if w is None else w * w
    # A[s+a, s+b] += w² B_a B_b for b ≤ a: the band slot m = b − a + k
    a, slot = jnp.arange(k + 1)[:, None], jnp.arange(k + 1)
    b = a - k + slot
    products = jnp.where(b >= 0, basis[:, :, None] * basis[:, jnp.maximum(b, 0)], 0)
    products = products * weight[:, None, None]
    rows = l[:, None] - k + jnp.arange(k + 1)  # (m, k+1): the coefficients of each site
    band = jnp.zeros((n, k + 1), basis.dtype).at[rows].add(products)
    weighted = (weight[:, None] * basis)[..., None].astype(y.dtype) * y[:, None, :]
    rhs = jnp.zeros((n, y.shape[1]), y.dtype).at[rows].add(weighted)
    band = band.astype(rhs.dtype)
    return banded_solve(band[None], rhs.T, lower=k, upper=0, symmetric=True).T
