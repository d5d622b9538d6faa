"""Inputs the suites share, built in numpy and put on the device before timing."""

from __future__ import annotations

import jax
import numpy as np


def spline_data(batch, n: int, q: int, dtype, seed: int = 0):
    """(queries, knots, values): jittered (well-spaced, non-uniform) knots on [0, 1],
    smooth values, uniform random queries; a leading batch of distinct grids if given."""
    rng = np.random.default_rng(seed)
    shape = (n,) if batch is None else (batch, n)
    h = 1.0 / (n - 1)
    x = np.linspace(0.0, 1.0, n) + rng.uniform(-0.3, 0.3, shape) * h
    x[..., 0], x[..., -1] = 0.0, 1.0
    f = np.sin(2 * np.pi * 3 * x) + 0.1 * x
    xq = rng.uniform(0.0, 1.0, shape[:-1] + (q,))
    return tuple(np.asarray(a, dtype) for a in (xq, x, f))


def tridiagonal_system(batch, n: int, dtype, seed: int = 0):
    """(lower (…, n−1), diag, upper (…, n−1), rhs): diagonally dominant, so that
    every solver applies (Thomas included)."""
    rng = np.random.default_rng(seed)
    lead = () if batch is None else (batch,)
    lower = rng.uniform(-1, 1, lead + (n - 1,))
    upper = rng.uniform(-1, 1, lead + (n - 1,))
    diag = 2.5 + rng.uniform(0, 1, lead + (n,))
    rhs = rng.normal(size=lead + (n,))
    return tuple(np.asarray(a, dtype) for a in (lower, diag, upper, rhs))


def on_device(arrays) -> tuple:
    """The arrays as committed jax arrays: no host transfer inside the timing."""
    return tuple(jax.device_put(a) for a in arrays)
