"""The command-line entry raises the collector's thresholds for its own process; the library never does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1] / "python"

PROBE = """
import contextlib, gc, io, json
default = gc.get_threshold()
import finscore, finscore.engine, finscore.registry
after_import = gc.get_threshold()
from finscore.cli import CLI_GC_THRESHOLDS, main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["exec", "add(1, 2)"])
print(json.dumps({"status": status, "default": default, "after_import": after_import,
                  "after_main": gc.get_threshold(), "declared": CLI_GC_THRESHOLDS}))
"""


def test_the_cli_sets_its_thresholds_and_the_library_leaves_them() -> None:
    environment = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    completed = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                               env=environment)
    seen = json.loads(completed.stdout)
    assert seen["status"] == 0
    assert seen["default"] == [700, 10, 10]  # CPython's documented default thresholds
    assert seen["after_import"] == seen["default"]
    assert seen["after_main"] == list(seen["declared"])
    assert seen["after_main"][0] > seen["default"][0]
