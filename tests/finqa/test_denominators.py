"""`finscore finqa` with fewer predictions than gold examples: the two denominators differ.

Four gold examples, three predictions (D has none). A and B are the gold programs;
C's program `add(100, 0)` is not C's gold program `table_max(revenue, none)` but
executes to the same answer, 100. By hand:
  executed correctly: A, B, C = 3;  programs equivalent: A, B = 2
  official (per prediction, as evaluate.py divides):  execution 3/3, program 2/3
  honest (per gold example, D counts as a failure):  execution 3/4, program 2/4
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main

from .fixtures import example, gold_file, prediction

PREDICTIONS = [
    prediction("A", "subtract(", "100", "80", ")"),
    prediction("B", "divide(", "30", "50", ")"),
    prediction("C", "add(", "100", "0", ")"),
]
GOLD = [*gold_file(), example("D", "add(1, 2)", 3.0)]


def _figure(correct: int, total: int) -> dict[str, Any]:
    return {"correct": correct, "total": total, "value": float(correct) / total}


@pytest.fixture
def scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any]]:
    predictions, gold, report = tmp_path / "pred.json", tmp_path / "gold.json", tmp_path / "report.json"
    predictions.write_text(json.dumps(PREDICTIONS), encoding="utf-8")
    gold.write_text(json.dumps(GOLD), encoding="utf-8")
    assert main(["finqa", str(predictions), str(gold), "--json", str(report), "--quiet"]) == 0
    return capsys.readouterr().out, json.loads(report.read_text(encoding="utf-8"))


def test_the_official_lines_divide_by_the_predictions(scored: tuple[str, dict[str, Any]]) -> None:
    out, _ = scored
    # evaluate.py prints len(predictions), then float(correct) / len(predictions)
    assert f"All:  3\nExe acc:  {3 / 3}\nProg acc:  {2 / 3}\n" in out


def test_the_honest_figures_divide_by_the_gold_examples(scored: tuple[str, dict[str, Any]]) -> None:
    out, report = scored
    assert f"execution accuracy  {3 / 4}  (3/4)" in out
    assert f"program accuracy    {2 / 4}  (2/4)" in out
    for profile in ("official", "strict"):  # no quirk here: both profiles read every program alike
        assert report["figures"][profile] == {
            "per_prediction": {"execution_accuracy": _figure(3, 3), "program_accuracy": _figure(2, 3)},
            "per_gold_example": {"execution_accuracy": _figure(3, 4), "program_accuracy": _figure(2, 4)},
        }
    assert report["missing_ids"] == ["D"]
