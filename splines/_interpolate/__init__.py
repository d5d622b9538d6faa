"""The interpolation pipeline: options → prepare → fit → evaluate, for any number of axes,
and the entry points on it.  Imports `_utils`, `_pieces` and `_methods`."""
