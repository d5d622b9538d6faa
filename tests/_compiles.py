"""Count the XLA compilations of one jitted function, from jax's compile log."""

import contextlib
import logging

import jax


class CompileCounter(logging.Handler):
    """Counts jax's "Compiling jit(NAME) ..." log records for one function name."""

    def __init__(self, name):
        super().__init__(level=logging.DEBUG)
        self.prefix, self.count = f"Compiling jit({name})", 0

    def emit(self, record):
        self.count += record.getMessage().startswith(self.prefix)


@contextlib.contextmanager
def compiles(jitted):
    """``with compiles(f) as counter:`` — ``counter.count`` compilations of ``f`` inside."""
    counter = CompileCounter(jitted.__name__)
    logger = logging.getLogger("jax")
    logger.addHandler(counter)
    try:
        with jax.log_compiles(True):
            yield counter
    finally:
        logger.removeHandler(counter)
