"""Read lowered StableHLO text: which functions exist, what they call, what they hold."""

import re

import jax
import pytest

_FUNC = re.compile(r"^\s*func\.func (?:public |private )?@([\w$.-]+)\(", re.M)
_CALL = re.compile(r"(?<![\w.])(?:func\.)?call @([\w$.-]+)")  # jax prints both forms
# The solve kernels of `splines._linalg.kernels`: no pivoting (on CPU, one small system
# in place or a Thomas scan; one cuSPARSE call on GPUs), partial pivoting (on CPU the
# gtsv scan, on GPUs the Pallas gtsv), and the Pallas Thomas candidate.
KERNEL_PREFIXES = ("splines_thomas_inplace", "splines_thomas_scan", "splines_gtsv_scan",
                   "splines_cusparse_gtsv", "splines_pallas_thomas",
                   "splines_pallas_gtsv")  # fmt: skip
# The one other kernel with a loop: XLA:CPU's cell search for long searches
# (`splines._pieces.search`; never lowered for GPUs).
ROLLED_SEARCH = "splines_locate_rolled"
_CUSTOM_CALL = re.compile(r"custom_call @([\w$.-]+)")


# Tests of what XLA:CPU runs (which CPU kernel, lineax's CPU callbacks): on a machine
# whose default backend is a GPU, a program without committed arguments runs there.
needs_cpu_backend = pytest.mark.skipif(
    jax.default_backend() != "cpu",
    reason="a test of the CPU program: the default backend is not the CPU",
)


def custom_calls(text):
    """Targets of the custom calls in a lowered program (sorted, with repeats)."""
    return sorted(_CUSTOM_CALL.findall(text))


def lowered_text(fun, *args, platform="cpu"):
    return jax.jit(fun).trace(*args).lower(lowering_platforms=(platform,)).as_text()


def functions(text):
    """Map each function name to its body text."""
    starts = [(m.group(1), m.start()) for m in _FUNC.finditer(text)]
    ends = [s for _, s in starts[1:]] + [len(text)]
    return {name: text[start:end] for (name, start), end in zip(starts, ends)}


def kernel_functions(funcs, prefixes=KERNEL_PREFIXES):
    """The solve kernels (or those named by ``prefixes``) and every function they reach."""
    seen = {name for name in funcs if name.startswith(prefixes)}
    todo = list(seen)
    while todo:
        for callee in _CALL.findall(funcs[todo.pop()]):
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return seen


def loops_outside_kernels(text):
    """Names of functions outside the kernels (and the rolled search) that contain a `while`."""
    funcs = functions(text)
    inside = kernel_functions(funcs, (*KERNEL_PREFIXES, ROLLED_SEARCH))
    return sorted(n for n, body in funcs.items() if "stablehlo.while" in body and n not in inside)
