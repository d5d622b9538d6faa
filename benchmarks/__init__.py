"""Speed of `splines` against its peers: ``python -m benchmarks`` (see `run.py`)."""
