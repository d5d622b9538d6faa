"""Utilities: dtypes, data validation (NaN poisoning), column layout, the eager-call cache.

Imports only jax and numpy: every other layer may use it.
"""
