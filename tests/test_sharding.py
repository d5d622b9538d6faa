"""A batch sharded over 8 (virtual CPU) devices needs no cross-device communication.

jax fixes the device count when it starts, so the cases run in a subprocess
(`_sharded_batch.py`) with ``--xla_force_host_platform_device_count=8``.
"""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("_sharded_batch.py")


def test_sharded_batches_are_communication_free_and_match_one_device():
    run = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    rows = [line.split("|") for line in run.stdout.strip().splitlines()]
    assert len(rows) >= 2, run.stdout
    (control, found, _), rows = rows[-1], rows[:-1]
    assert control.startswith("control"), run.stdout
    assert found, f"{control}: no collective found, so the check below would prove nothing"
    for name, collectives, diff in rows:
        assert collectives == "", f"{name}: the program communicates across devices ({collectives})"
        assert float(diff) <= 1e-12, f"{name}: sharded result differs from one device by {diff}"
