"""The README's tour runs as written."""

import pathlib
import re

import jax.numpy as jnp

README = pathlib.Path(__file__).parents[1] / "README.md"


def test_readme_tour_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    namespaces = []
    for block in blocks:
        namespaces.append({})
        exec(compile(block, str(README), "exec"), namespaces[-1])
    tour, scipy_port, lineax_port, sharded = namespaces[:4]
    assert tour["ys"].shape == (2, 500)
    assert tour["d2f"].shape == (500,) and tour["s"].shape == (12,)
    assert tour["fine"].shape == (44,)
    assert tour["z"].shape == (500, 3) and tour["zx"].shape == (500,)
    assert tour["grad_z"].shape == (2,) and bool(jnp.all(jnp.isfinite(tour["grad_z"])))
    assert sharded["ys"].shape == (8, 50) and bool(jnp.all(jnp.isfinite(sharded["ys"])))
    assert scipy_port["c"].shape == (4, 10) and scipy_port["zeros"].shape == (3,)
    assert bool(jnp.all(jnp.isfinite(scipy_port["g"]))) and scipy_port["zeros_jit"].shape == (8,)
    assert bool(jnp.allclose(lineax_port["x"], jnp.linalg.solve(
        lineax_port["op"].as_matrix(), lineax_port["b"])))  # fmt: skip
