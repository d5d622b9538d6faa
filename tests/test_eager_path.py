"""The eager call's fast paths keep its answers and its errors.

An eager `interp1d` runs its checks in numpy and passes its constant scalars
(scipy's default boundary values, the NaN fills) as cached jax arrays: the
checks take one vector test in the common case, the search for the first bad
entry only when it fails, and the constants are made once, outside any trace.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import splines
from splines._utils.dtypes import constant
from splines._utils.validate import check_knots_eagerly, check_values_eagerly

X = np.linspace(0.0, 1.0, 8)
Y = np.sin(3 * X)
Q = np.linspace(-0.1, 1.1, 9)


def test_constants_are_concrete_even_when_first_made_in_a_trace():
    value = 0.123456789

    @jax.jit
    def traced():
        made = constant(value, jnp.float32)
        assert not isinstance(made, jax.core.Tracer)
        return made * 2

    assert float(traced()) == np.float32(value) * 2
    cached = constant(value, jnp.float32)  # the same object, usable eagerly
    assert cached is constant(value, jnp.float32) and not isinstance(cached, jax.core.Tracer)
    assert cached.dtype == jnp.float32 and not cached.weak_type


@pytest.mark.parametrize(
    "bc_type, extrap",
    [(None, False), ("natural", True), ("clamped", 0.25), (((1, 0.5), (2, -1.0)), False)],
)
def test_eager_equals_jitted_in_any_order(bc_type, extrap):
    def call(q, x, y):
        return splines.interp1d(q, x, y, bc_type=bc_type, extrap=extrap)

    jitted = jax.jit(call)
    first = np.asarray(jitted(Q, X, Y))  # constants first made while tracing
    eager = np.asarray(call(Q, X, Y))
    np.testing.assert_array_equal(eager, first)
    np.testing.assert_array_equal(np.asarray(jitted(Q, X, 2 * Y)), np.asarray(call(Q, X, 2 * Y)))


@pytest.mark.parametrize(
    "knots, message",
    [
        ([0.0, 1.0, np.nan, 3.0], r"`xp` must be finite; `xp\[2\]` = nan"),
        ([0.0, np.inf, np.inf, 3.0], r"`xp` must be finite; `xp\[1\]` = inf"),
        ([0.0, 2.0, 1.0, 3.0], r"strictly increasing .* `xp\[1\]` = 2.0 but `xp\[2\]` = 1.0"),
        ([0.0, 1.0, 1.0, 3.0], r"strictly increasing"),
        ([0.0, 1e-320, 1.0, 3.0], r"below the smallest normal"),
    ],
)
def test_bad_knots_still_name_the_first_bad_entry(knots, message):
    with pytest.raises(ValueError, match=message):
        check_knots_eagerly(np.asarray(knots), "xp")
    with pytest.raises(ValueError, match=message), np.errstate(all="raise"):
        splines.interp1d(0.5, np.asarray(knots), np.zeros(4))  # and no numpy warning


def test_valid_knots_pass_at_every_size():
    for n in (1, 2, 3, 64):
        check_knots_eagerly(np.arange(float(n)), "xp")
    check_knots_eagerly(np.array([0.0, np.finfo(float).tiny]), "xp")  # exactly tiny apart


def test_bad_values_still_name_the_first_bad_entry():
    values = np.zeros((4, 3))
    values[2, 1], values[3, 0] = np.inf, np.nan
    with pytest.raises(ValueError, match=r"`fp\[2, 1\]` = inf"):
        check_values_eagerly(values, "fp")
    check_values_eagerly(np.zeros((4, 3)), "fp")
