"""Run as a script (a subprocess of `test_sharding.py`): jax must start with 8 host devices.

A batch sharded over the devices — distinct grids under `vmap`, or many curves
on one grid as columns — must compile to a program with no cross-device
communication and give the single-device numbers and gradients.  Queries split
by `shard_map` over replicated data must give the data's gradient summed over
the devices.  Prints one line per case: name, the collectives found (not looked
for under `shard_map`), the largest difference.
"""

import os
import sys
from functools import partial

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import splines  # noqa: E402

jax.config.update("jax_enable_x64", True)
COLLECTIVES = ("all-gather", "all-reduce", "collective-permute", "all-to-all", "reduce-scatter")


def _sum_interp(x, xp, fp, **kwargs):
    return splines.interp1d(x, xp, fp, "cubic2", **kwargs).sum()


def _cases(rng):
    batch, n, m = 64, 33, 17
    xp = np.sort(rng.uniform(0, 1, (batch, n)), axis=1)
    x, fp = rng.uniform(0, 1, (batch, m)), np.sin(6 * xp)
    grids = (x, xp, fp), (P("batch"),) * 3
    grid = np.linspace(0, 1, n)
    curves = (x[0], grid, np.cos(np.outer(grid, np.arange(batch)))), (P(), P(), P(None, "batch"))
    # A minor batch axis sharded: two grids, each with 64 curves split over the devices;
    # two column axes, the first one split; 2 × 64 systems split along the 64.
    grids_columns = ((x[:2], xp[:2], np.cos(xp[:2, :, None] * np.arange(batch))),
                     (P(), P(), P(None, None, "batch")))  # fmt: skip
    two_column_axes = ((x[0], grid, np.cos(np.outer(grid, np.arange(2 * batch))).reshape(
        n, batch, 2)), (P(), P(), P(None, "batch")))  # fmt: skip
    bands = (
        rng.uniform(-1, 1, (2, batch, n - 1)),
        4 + rng.uniform(0, 1, (2, batch, n)),
        rng.uniform(-1, 1, (2, batch, n - 1)),
        rng.normal(size=(2, batch, n)),
    )
    systems = bands, (P(None, "batch"),) * 4
    return {
        "distinct grids": (
            jax.vmap(lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2")),
            *grids,
        ),
        "distinct grids, natural, derivative 1": (
            jax.vmap(
                lambda x, xp, fp: splines.interp1d(
                    x, xp, fp, "cubic2", bc_type="natural", derivative=1
                )
            ),
            *grids,
        ),  # fmt: skip
        "distinct grids, periodic": (
            jax.vmap(lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2", period=2.0)),
            *grids,
        ),
        "distinct grids, grad": (jax.vmap(jax.grad(_sum_interp, argnums=(0, 1, 2))), *grids),
        "distinct grids, Interpolator1D": (
            jax.vmap(lambda x, xp, fp: splines.Interpolator1D(xp, fp, "cubic2")(x)),
            *grids,
        ),
        "curves on one grid": (lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2"), *curves),
        "curves on one grid, grad": (
            lambda x, xp, fp: jax.grad(lambda f: (splines.interp1d(x, xp, f, "cubic2") ** 2).sum())(
                fp
            ),
            *curves,
        ),  # fmt: skip
        "grids x columns, columns split": (
            jax.vmap(lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2")),
            *grids_columns,
        ),
        "two column axes, the first split": (
            lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2", extrap=True),
            *two_column_axes,
        ),
        "solve, batch (2, 64) split along 64": (
            lambda *a: splines.tridiagonal_solve(*a, pivoting=False),
            *systems,
        ),
        "solve with pivoting, batch (2, 64) split along 64": (splines.tridiagonal_solve, *systems),
        # Control: a sum over the sharded batch must show up as a collective.
        "control: sum over the batch": (
            lambda x, xp, fp: jax.vmap(partial(splines.interp1d, method="cubic2"))(x, xp, fp).sum(),
            *grids,
        ),
    }


def _shard_map_cases(rng):
    """Queries split over the devices by `shard_map`, the data replicated: the gradient
    w.r.t. the data sums every device's share (its transpose is a sum over the mesh,
    which only a gather at a varying index gets).  Name → (function of (x, xp, fp), x)."""
    xp = np.sort(rng.uniform(0, 6, 12))
    xp[0], xp[-1] = 0.0, 6.0
    even = np.linspace(0.0, 6.0, 12)
    interps = {
        "linear": lambda x, xp, fp: splines.interp1d(x, xp, fp, "linear"),
        "linear, even spacing": lambda x, xp, fp: splines.interp1d(x, even, fp, "linear",
                                                                   even_spacing=True),
        "cubic2": lambda x, xp, fp: splines.interp1d(x, xp, fp, "cubic2"),
        "akima": lambda x, xp, fp: splines.interp1d(x, xp, fp, "akima"),
        "Interpolator1D": lambda x, xp, fp: splines.Interpolator1D(xp, fp, "cubic2")(x),
        "CubicSpline": lambda x, xp, fp: splines.CubicSpline(xp, fp)(x),
        "interp2d": lambda x, xp, fp: splines.interp2d(x, 6 - x, xp, xp, jnp.outer(fp, fp),
                                                       "cubic2"),
    }  # fmt: skip
    x = rng.uniform(0.1, 5.9, 64)
    return {name: (f, x, xp, np.sin(xp)) for name, f in interps.items()}


def _shard_map_differences(mesh, rng):
    """Per case: the largest difference of a loss and its gradients w.r.t. (xp, fp),
    sharded against one device (one program for every sharded case, one for every
    unsharded one)."""
    cases = _shard_map_cases(rng)

    def on_mesh(f):
        return jax.shard_map(f, mesh=mesh, in_specs=(P("batch"), P(), P()), out_specs=P("batch"))

    def every_case(wrap):
        def loss(f, x):
            return lambda knots, values: (wrap(f)(x, knots, values) ** 2).sum()

        def run(data):
            return {name: jax.value_and_grad(loss(f, x), argnums=(0, 1))(*data[name])
                    for name, (f, x, _, _) in cases.items()}  # fmt: skip

        return jax.jit(run)

    data = {name: (xp, fp) for name, (_, _, xp, fp) in cases.items()}
    got, want = every_case(on_mesh)(data), every_case(lambda f: f)(data)
    return {name: max(jax.tree.leaves(jax.tree.map(_difference, got[name], want[name])))
            for name in cases}  # fmt: skip


def _difference(a, b):
    """Largest |a - b|; NaN (queries outside the knots) must sit in the same places."""
    a, b = np.asarray(a), np.asarray(b)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return float("inf")
    return float(np.max(np.abs(np.where(np.isnan(a), 0, a - b)), initial=0.0))


def _collectives(f, args):
    """The compiled program of ``f`` at these (sharded) arguments, and its collectives."""
    compiled = jax.jit(f).lower(*args).compile()  # run the program inspected
    return compiled, [c for c in COLLECTIVES if c in compiled.as_text()]


def main():
    assert len(jax.devices()) == 8, jax.devices()
    mesh = Mesh(np.array(jax.devices()), ("batch",))
    cases = _cases(np.random.default_rng(0))
    control = {k: v for k, v in cases.items() if k.startswith("control")}
    cases = {k: v for k, v in cases.items() if k not in control}
    # Every case in one program (one compile, not one per case), each on its own
    # device copies of its arguments: no input is shared, so no computation is shared
    # either, and sharding propagates through each case as it would alone.  A
    # collective found there is then traced to its cases, compiled one by one.
    sharded = [[jax.device_put(a, NamedSharding(mesh, s)) for a, s in zip(args, specs)]
               for _, args, specs in cases.values()]  # fmt: skip
    functions = [f for f, _, _ in cases.values()]

    def every_case(args):
        return [f(*a) for f, a in zip(functions, args)]

    compiled, found = _collectives(lambda *args: every_case(args), sharded)
    per_case = {name: found and _collectives(f, args)[1]
                for (name, (f, _, _)), args in zip(cases.items(), sharded)}  # fmt: skip
    one_device = jax.jit(every_case)([list(args) for _, args, _ in cases.values()])
    for name, got, want in zip(cases, compiled(*sharded), one_device):
        diffs = jax.tree.map(_difference, got, want)
        print(f"{name}|{','.join(per_case[name] or [])}|{max(jax.tree.leaves(diffs))}")
    # shard_map: a sum over the mesh is the point there (no collective check).
    for name, diff in _shard_map_differences(mesh, np.random.default_rng(1)).items():
        print(f"shard_map, queries split, {name}: loss and gradient||{diff}")
    for name, (f, args, specs) in control.items():
        args_on_mesh = [jax.device_put(a, NamedSharding(mesh, s)) for a, s in zip(args, specs)]
        compiled, found = _collectives(f, args_on_mesh)
        diffs = jax.tree.map(_difference, compiled(*args_on_mesh), jax.jit(f)(*args))
        print(f"{name}|{','.join(found)}|{max(jax.tree.leaves(diffs))}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
