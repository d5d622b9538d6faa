"""Tests run in double precision; f32 tests ask for float32 arrays explicitly."""

import jax
import pytest

jax.config.update("jax_enable_x64", True)


@pytest.fixture(autouse=True, scope="module")
def _release_compiled_programs():
    """Drop each test module's compiled programs after it.  A worker that keeps every
    executable of the suite holds ~6 memory mappings per executable and reaches Linux's
    default ``vm.max_map_count`` (65 530) after ~10⁴ of them, where XLA's next compile
    aborts (seen as a worker crashing inside ``backend_compile_and_load``)."""
    yield
    jax.clear_caches()
