"""`finscore convfinqa` on the recorded literal cases prints what the authors' evaluate_result printed.

The files and the official output come from tools/differential/record_literals.py (ConvFinQA's
own evaluate_result run on the same content, in the forms it reads); no case may end the run.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from support.cli import run_command, write_json
from support.literals import figure_lines, literal_files

_run = partial(run_command, "convfinqa")


def test_the_official_figures_on_every_literal_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = literal_files()
    predictions = write_json(tmp_path / "pred.json", files["convfinqa"]["predictions"])
    gold = write_json(tmp_path / "gold.json", files["convfinqa"]["gold"])
    expected = figure_lines(files["official_printed"]["convfinqa"])
    assert expected.startswith("All:  1166\n")
    status, out, _ = _run(capsys, predictions, gold, "--quiet")
    assert status == 0
    assert expected in out
