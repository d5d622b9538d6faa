"""The polynomial tail: monomials of total degree ≤ `degree` in shifted, scaled coordinates.

The coordinates are mapped to [−1, 1] per axis by the sites' extent, as scipy does
(shift = (min + max)/2, scale = (max − min)/2, and 1 where the extent is 0), so the
polynomial block's columns are of comparable size whatever the units.
"""

import itertools
import math

import jax.numpy as jnp


def monomial_powers(ndim: int, degree: int) -> tuple[tuple[int, ...], ...]:
    """The exponents of every monomial of degree ≤ `degree` in `ndim` variables, by
    degree and then in `itertools.combinations_with_replacement`'s order (scipy's)."""
    powers = []
    for total in range(degree + 1):
        for variables in itertools.combinations_with_replacement(range(ndim), total):
            powers.append(tuple(variables.count(k) for k in range(ndim)))
    assert len(powers) == (math.comb(degree + ndim, ndim) if degree >= 0 else 0)
    return tuple(powers)


def domain(y, xnp=jnp):
    """The shift and scale that map the sites' extent to [−1, 1] on every axis."""
    low, high = xnp.min(y, axis=0), xnp.max(y, axis=0)
    scale = (high - low) / 2
    return (high + low) / 2, xnp.where(scale == 0, 1, scale)


def polynomial_matrix(x, shift, scale, powers, xnp=jnp):
    """Every monomial at every point, shape (len(x), len(powers))."""
    unit = (x - shift) / scale
    columns = [
        math.prod(
            (unit[:, k] ** p for k, p in enumerate(power) if p), start=xnp.ones_like(unit[:, 0])
        )
        for power in powers
    ]
    return xnp.stack(columns, axis=1) if columns else xnp.zeros((len(x), 0), x.dtype)
