"""A killed run leaves its marker and its own files only, and the scorer refuses the folder (issue #31).

The audit killed `finscore run` (SIGKILL) during a rerun into an existing output folder: it left
the previous run's complete files with no in-progress marker, or the new predictions.jsonl beside
the old report.json. Here a real `finscore run` process reruns into a folder a finished run wrote
and is killed, with its agent's process, while its agent hangs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.contracts.formats.predictions import INCOMPLETE_MARKER

RUN_FILES = {"predictions.jsonl", "run.json", "report.json", "report.html"}


def finscore(*argv: str) -> list[str]:
    return [sys.executable, "-m", "finscore", *argv]


def test_a_run_killed_during_a_rerun_leaves_no_mixed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, key = tmp_path / "out", tmp_path / "trace.key"
    common = ("--quiet", "--bootstrap", "20", "--only", "fv-en", "--out", str(out), "--key-file", str(key))
    assert main(["run", "--agent", "oracle", *common]) == 0
    assert {path.name for path in out.iterdir()} == RUN_FILES
    finished = (out / "predictions.jsonl").read_text(encoding="utf-8")
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    process = subprocess.Popen(
        finscore("run", "--agent", "hang", "--deadline", "120", *common),
        env=environment,
        start_new_session=True,  # its own process group: the kill reaches the agent's process too
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        give_up = time.monotonic() + 120
        while not (out / INCOMPLETE_MARKER).exists() or (out / "report.json").exists():
            assert process.poll() is None and time.monotonic() < give_up, "the rerun never started"
            time.sleep(0.05)
        time.sleep(1.0)  # the agent is hanging by now
        os.killpg(process.pid, signal.SIGKILL)
        assert process.wait(timeout=30) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
    left = {path.name for path in out.iterdir()}
    assert INCOMPLETE_MARKER in left and not left & RUN_FILES  # the old run's files went first
    # Had it died after writing predictions.jsonl, the scorer would refuse them by the marker, even
    # complete and sealed ones:
    (out / "predictions.jsonl").write_text(finished, encoding="utf-8")
    capsys.readouterr()
    assert main(["contracts", "@kit", str(out / "predictions.jsonl"), "--key-file", str(key)]) == 2
    error = capsys.readouterr().err
    assert INCOMPLETE_MARKER in error and "interrupted" in error


def test_a_finished_run_leaves_no_marker_and_a_rerun_replaces_every_file(tmp_path: Path) -> None:
    out, key = tmp_path / "out", tmp_path / "trace.key"
    common = ("--quiet", "--bootstrap", "20", "--only", "fv-en", "--out", str(out), "--key-file", str(key))
    assert main(["run", "--agent", "oracle", *common]) == 0
    first = json.loads((out / "run.json").read_text(encoding="utf-8"))["run_id"]
    assert main(["run", "--agent", "oracle", *common, "--no-score"]) == 0
    assert {path.name for path in out.iterdir()} == {"predictions.jsonl", "run.json"}  # no stale report
    assert json.loads((out / "run.json").read_text(encoding="utf-8"))["run_id"] != first
