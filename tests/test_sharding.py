"""A batch sharded over 8 (virtual CPU) devices needs no cross-device communication;
every entry point runs inside `shard_map` with its default checks.

jax fixes the device count when it starts, so the cases over 8 devices run in a
subprocess (`_sharded_batch.py`) with ``--xla_force_host_platform_device_count=8``.
"""

import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh
from jax.sharding import PartitionSpec as P

import splines

SCRIPT = Path(__file__).with_name("_sharded_batch.py")


def test_sharded_batches_are_communication_free_and_match_one_device():
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [line.split("|") for line in run.stdout.strip().splitlines()]
    assert len(rows) >= 2, run.stdout
    (control, found, _), rows = rows[-1], rows[:-1]
    assert control.startswith("control"), run.stdout
    assert found, f"{control}: no collective found, so the check below would prove nothing"
    for name, collectives, diff in rows:
        assert collectives == "", f"{name}: the program communicates across devices ({collectives})"
        assert float(diff) <= 1e-12, f"{name}: sharded result differs from one device by {diff}"


XP = np.linspace(0, 2 * np.pi, 12)
X = np.linspace(-1, 7, 9)
ENTRY_POINTS = {
    "cubic2": lambda f: splines.interp1d(X, XP, f, method="cubic2"),
    "periodic": lambda f: splines.interp1d(
        X, XP, f.at[-1].set(f[0]), method="cubic2", period=2 * np.pi
    ),  # fmt: skip
    "akima": lambda f: splines.interp1d(X, XP, f, method="akima", extrap=True),
    "interp2d": lambda f: splines.interp2d(X, X[::-1], XP, XP, jnp.outer(f, f), method="cubic2"),
    "Interpolator1D": lambda f: splines.Interpolator1D(XP, f, method="cubic2")(X),
    "CubicSpline": lambda f: splines.CubicSpline(XP, f, bc_type="not-a-knot")(X, 1),
}


def _values_and_grad(f):
    """``f``'s values and the gradient of their sum of squares."""
    return lambda f_in: (f(f_in), jax.grad(lambda g: (f(g) ** 2).sum())(f_in))


# shard_map's check_vma types each value by the mesh axes it varies over; a loop's
# carry and the solve's output must vary as the data do (a 1-device mesh checks it).
@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_entry_points_run_in_shard_map_with_its_checks(name):
    per_curve = jax.vmap(ENTRY_POINTS[name])
    mesh = Mesh(np.array(jax.devices()[:1]), ("d",))
    sharded = jax.shard_map(per_curve, mesh=mesh, in_specs=P("d"), out_specs=P("d"))
    curves = np.sin(XP) * np.arange(1.0, 7.0)[:, None]
    # The reference in the same program (eager, it compiled op by op: 2/3 of the time)
    both = jax.jit(lambda c: (_values_and_grad(sharded)(c), _values_and_grad(per_curve)(c)))
    (values, grad), (expected_values, expected_grad) = both(curves)
    np.testing.assert_allclose(values, expected_values, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-12, atol=1e-12)
