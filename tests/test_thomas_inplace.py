"""XLA:CPU's kernel for one small system (`thomas_inplace`) is `thomas_scan`, bit for bit.

Same recurrences, same order of operations: the results must be identical,
also where they are not finite (a zero pivot, inf or NaN in the data).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from splines._linalg.kernels import splines_thomas_inplace, splines_thomas_scan, thomas_inplace


def _system(rng, shape, dtype):
    n = shape[-1]
    lower, upper = (rng.uniform(-1, 1, shape[:-1] + (n - 1,)) for _ in range(2))
    diag, rhs = 2.5 + rng.uniform(0, 1, shape), rng.normal(size=shape)
    if np.issubdtype(dtype, np.complexfloating):
        rhs = rhs + 1j * rng.normal(size=shape)
    return [np.asarray(a, dtype) for a in (lower, diag, upper, rhs)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_equals_the_scan_bit_for_bit(dtype):
    shapes = [(1,), (2,), (3,), (17,), (1, 64), (1, 1, 1024)]
    systems = [_system(np.random.default_rng(k), s, dtype) for k, s in enumerate(shapes)]
    broken = _system(np.random.default_rng(9), (8,), dtype)  # zero pivot, inf, NaN
    broken[1][3], broken[3][5], broken[0][6] = 0, np.inf, np.nan
    broken[2][2] = 0  # decouples rows ≤ 2, so the zero pivot's inf/NaN stays below
    systems.append(broken)
    both = jax.jit(lambda ss: [(splines_thomas_inplace(*s), splines_thomas_scan(*s)) for s in ss])
    for system, (inplace, scan) in zip(systems, both(systems)):
        np.testing.assert_array_equal(np.asarray(inplace), np.asarray(scan),
                                      err_msg=f"shape {system[3].shape}")  # fmt: skip


def test_suits_one_system_of_at_most_1024_rows():
    assert thomas_inplace.small_enough((1024,)) and thomas_inplace.small_enough((1, 1, 7))
    assert not thomas_inplace.small_enough((1025,)) and not thomas_inplace.small_enough((2, 8))


def test_the_public_solve_uses_it_for_one_small_system():
    args = [jnp.ones(7), 4 * jnp.ones(8), jnp.ones(7), jnp.arange(8.0)]
    text = jax.jit(lambda *a: __import__("splines").tridiagonal_solve(*a, pivoting=False)).lower(
        *args).as_text()  # fmt: skip
    assert "splines_thomas_inplace" in text and "splines_thomas_scan" not in text
