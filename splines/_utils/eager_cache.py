"""Eager calls: static work once per call signature, data checks once per jax array.

An eager call spends most of its time in Python around the jitted program:
parsing options, promoting dtypes, checking shapes, the data checks
(docs/architecture.md §5); and Python work just before a jitted call slows
that call by about as much again (2-core CPU; `benchmarks/suites/dispatch.py`
measures it).  None of it needs redoing when the same kind of call comes again:

- `memoized`: a result that depends only on the options' values and on the
  type, shape and dtype of the array arguments (a *plan*) is kept per such
  signature.  An option that cannot be keyed by value (an array inside
  ``bc_type``, say) makes the call skip the memo, never guess.
- `check_once`: a jax array is immutable, so a data check it passed once it
  passes again; the verdict is kept while the array lives (a weak reference).
  numpy arrays are mutable and are checked on every call.

Both keep the errors exactly as they were: a call that raises stores nothing.
"""

import weakref

import jax
import numpy as np

_PLAN_LIMIT = 512  # distinct call signatures kept; past it the memo starts over
_PLANS: dict = {}
_PASSED: dict = {}  # (check, id(array)) → weak reference to the array


def memoized(plan, arrays: tuple, options: tuple, internal: tuple = ()):
    """``plan(*arrays, *options, *internal)``, kept per call signature.

    ``plan`` may look at the arrays' types, shapes and dtypes, not their values;
    ``options`` are the user's, keyed exactly (`option_key`); ``internal`` are
    the library's own hashable values (names, specs), keyed as they are.
    """
    x64 = jax.config.jax_enable_x64  # decides every promotion (also as a context manager)
    key = (plan, x64, *map(array_key, arrays), *map(option_key, options), *internal)
    if _UNKEYABLE in key:
        return plan(*arrays, *options, *internal)
    try:
        return _PLANS[key]
    except KeyError:
        pass
    result = plan(*arrays, *options, *internal)
    if len(_PLANS) >= _PLAN_LIMIT:
        _PLANS.clear()
    _PLANS[key] = result
    return result


_UNKEYABLE = object()


def array_key(value):
    """What a static check can see of an array argument: type, shape, dtype, weak type.

    Python scalars are keyed by their type alone (their value is data); a tuple
    (one array per axis) by its entries.
    """
    kind = type(value)
    if kind in _ARRAY_TYPES:  # the usual argument first
        return kind, value.shape, value.dtype, value.weak_type
    if kind is tuple:
        keys = tuple(map(array_key, value))
        return _UNKEYABLE if _UNKEYABLE in keys else keys
    if value is None or isinstance(value, (bool, int, float, complex)):
        return kind
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return _UNKEYABLE  # not an array: the plan's checks say what it is
    if isinstance(value, jax.core.Tracer):
        return kind, value.shape, dtype, value.aval.weak_type
    if isinstance(value, jax.Array):
        _ARRAY_TYPES.add(kind)
    return kind, value.shape, dtype, getattr(value, "weak_type", None)


_ARRAY_TYPES: set = set()  # the concrete jax array types met so far


def option_key(value):
    """An option by value and type (``1``, ``1.0`` and ``True`` differ; so do 0.0 and -0.0).

    Names, numbers, numpy scalars and (nested) tuples and lists of them; anything
    else — an array — is unkeyable.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return type(value), value
    if isinstance(value, float):
        return float, value.hex()  # NaN equals itself; -0.0 differs from 0.0
    if isinstance(value, np.generic):
        return type(value), value.tobytes()
    if isinstance(value, (tuple, list)):
        keys = tuple(option_key(v) for v in value)
        return _UNKEYABLE if _UNKEYABLE in keys else (type(value), keys)
    return _UNKEYABLE


def check_once(check, array, *args) -> None:
    """``check(np.asarray(array), *args)``, skipped for a jax array that passed it before
    and for a tracer (its values are not known: the program decides).

    ``args`` (hashable) are part of the verdict's key.
    """
    if not isinstance(array, jax.Array):
        check(np.asarray(array), *args)
        return
    if isinstance(array, jax.core.Tracer):
        return
    key = (check, id(array), args)
    ref = _PASSED.get(key)
    if ref is not None and ref() is array:
        return
    check(np.asarray(array), *args)
    _PASSED[key] = weakref.ref(array, lambda _, key=key: _PASSED.pop(key, None))
