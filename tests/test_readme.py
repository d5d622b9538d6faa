"""The README's tour runs as written."""

import pathlib
import re

README = pathlib.Path(__file__).parents[1] / "README.md"


def test_readme_tour_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks
    for block in blocks:
        namespace = {}
        exec(compile(block, str(README), "exec"), namespace)
    assert namespace["ys"].shape == (2, 500)
