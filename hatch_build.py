"""The source distribution's notebooks, without their outputs.

The repository commits each notebook executed (its figures are the README's);
the sdist ships their sources only: the outputs are 3 MB of images and tables
that `python notebooks/run.py` rewrites.
"""

import json
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _without_outputs(notebook: dict) -> dict:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return notebook


class StrippedNotebooks(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "sdist":
            return
        self._folder = tempfile.TemporaryDirectory()
        for source in sorted(Path(self.root, "notebooks").glob("*.ipynb")):
            stripped = Path(self._folder.name, source.name)
            notebook = _without_outputs(json.loads(source.read_text(encoding="utf-8")))
            stripped.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
            build_data["force_include"][str(stripped)] = f"notebooks/{source.name}"

    def finalize(self, version: str, build_data: dict, artifact_path: str) -> None:
        if self.target_name == "sdist":
            self._folder.cleanup()
