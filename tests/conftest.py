"""Tests run in double precision; f32 tests ask for float32 arrays explicitly."""

import jax

jax.config.update("jax_enable_x64", True)
