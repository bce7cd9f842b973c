"""A FinQA gold file and a prediction file given in the wrong order are named as such.

The shipped examples are one file of each kind (examples/finqa: gold.json as released,
predictions.json in the official format); the messages are `finscore finqa`'s at fef6600.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.finqa.file_order import swapped_files_message

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "finqa"
GOLD = json.loads((EXAMPLES / "gold.json").read_text(encoding="utf-8"))
PREDICTIONS = json.loads((EXAMPLES / "predictions.json").read_text(encoding="utf-8"))


def test_files_in_the_right_order_pass() -> None:
    assert swapped_files_message(PREDICTIONS, GOLD) is None
    assert swapped_files_message([], []) is None and swapped_files_message({}, "text") is None


def test_each_wrong_order_is_named() -> None:
    assert swapped_files_message(GOLD, PREDICTIONS) == (
        "the two files look swapped: PREDICTIONS is a FinQA gold file and GOLD a prediction file; "
        "give the prediction file first, then the gold file")
    assert swapped_files_message(PREDICTIONS, PREDICTIONS) == (
        "GOLD looks like a prediction file ({\"id\", \"predicted\"} entries), not a FinQA gold file")
    assert swapped_files_message(GOLD, GOLD) == (
        "PREDICTIONS looks like a FinQA gold file ({\"id\", \"table\", \"qa\"} entries), not a prediction file")


def test_the_command_stops_on_swapped_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["finqa", str(EXAMPLES / "gold.json"), str(EXAMPLES / "predictions.json"), "--quiet"]) == 2
    assert capsys.readouterr().err.startswith("finscore finqa: the two files look swapped: ")
