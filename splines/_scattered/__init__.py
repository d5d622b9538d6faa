"""Scattered data: radial basis function interpolation (`RBFInterpolator`).

Kernels, the polynomial tail, the saddle-point solve, the nearest-neighbour search
and the interpolator module. Imports only `_utils`.
"""
