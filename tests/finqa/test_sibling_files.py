"""A FinQA gold file given to `finscore convfinqa`, or a ConvFinQA one to `finscore finqa`, is named
as such in one line (issue #35: it listed twenty entries each lacking "annotation")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_a_finqa_file_given_to_convfinqa_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    gold = json.loads((EXAMPLES / "finqa" / "gold.json").read_text(encoding="utf-8"))
    error = _error(capsys, "convfinqa", str(EXAMPLES / "finqa" / "predictions.json"), str(EXAMPLES / "finqa" / "gold.json"))
    assert error == (f"finscore convfinqa: the gold file is a FinQA file, not ConvFinQA: each of its {len(gold)} "
                     'entries has a "qa" with a "program" and no "annotation"; score it with `finscore finqa`\n')
    # with ConvFinQA's own predictions too: the gold file is what is wrong
    error = _error(capsys, "convfinqa", str(EXAMPLES / "convfinqa" / "predictions.json"),
                   str(EXAMPLES / "finqa" / "gold.json"))
    assert "is a FinQA file" in error and error.count("\n") == 1


def test_a_convfinqa_file_given_to_finqa_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    gold = json.loads((EXAMPLES / "convfinqa" / "gold.json").read_text(encoding="utf-8"))
    error = _error(capsys, "finqa", str(EXAMPLES / "finqa" / "predictions.json"), str(EXAMPLES / "convfinqa" / "gold.json"))
    assert error == (f"finscore finqa: the gold file is a ConvFinQA file, not FinQA: each of its {len(gold)} "
                     'entries has an "annotation" object; score it with `finscore convfinqa`\n')


def test_a_file_that_is_neither_still_lists_its_entries(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = json.loads((EXAMPLES / "finqa" / "gold.json").read_text(encoding="utf-8"))
    mixed = gold[:3] + [{"id": "x", "table": []}]  # one entry neither FinQA nor ConvFinQA
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(mixed), encoding="utf-8")
    error = _error(capsys, "convfinqa", str(EXAMPLES / "convfinqa" / "predictions.json"), str(path))
    assert "the gold file is not ConvFinQA (4 of 4 entries): entry 0 has no \"annotation\" object" in error
