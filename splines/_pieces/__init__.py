"""Piecewise polynomials in local coordinates: the pieces of each kind, Horner, the cell
search, closing a period, calculus and real roots.  Imports `_utils` only."""
