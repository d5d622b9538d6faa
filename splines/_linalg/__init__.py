"""Linear algebra: the tridiagonal primitive, its per-platform kernels, the cyclic solve,
the lineax bridge.  Imports `_utils` only."""
