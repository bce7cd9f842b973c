"""TAT-QA rewards are the official metric's own figures, on every recorded prediction.

Oracle: tests/data/vectors/tatqa.jsonl.gz, what one official TaTQAEmAndF1() call
added for each (gold, [answer, scale]) pair: the reward's score is that F1 (or EM,
when declared), bit for bit, and it passes exactly when EM is 1.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from finscore.rewards import RewardConfig, score_arrow
from finscore.tatqa.inputs import entry_problem
from support.shared import vector_rows

pytestmark = pytest.mark.essential


def _rows() -> list[dict[str, object]]:
    rows = [row for row in vector_rows("tatqa") if "uid" in row]
    assert len(rows) == 26_648
    return rows


@pytest.mark.parametrize("declared", ["f1", "em"])
def test_every_recorded_prediction(declared: str) -> None:
    rows = _rows()
    usable = [row for row in rows if entry_problem(row["pred"]) is None]
    # the rest hold numbers, nulls or empty lists as answers: finscore tatqa refuses them (their text
    # depends on how a JSON reader spells the value), and so does the reward, as malformed_prediction
    assert len(usable) > 22_000
    table = pa.table({"completion": [json.dumps(row["pred"]) for row in usable],
                      "gold": [json.dumps(row["gold"]) for row in usable],
                      "data_source": ["tatqa"] * len(usable)})
    scored = score_arrow(table, RewardConfig(input="tatqa", tatqa_score=declared))
    expected = [float(row[declared]) for row in usable]  # the recorded repr, read back exactly
    assert [s.hex() for s in scored.column("score").to_pylist()] == [e.hex() for e in expected]
    assert scored.column("passed").to_pylist() == [float(row["em"]) == 1.0 for row in usable]


def test_refused_predictions_get_a_typed_reason() -> None:
    gold = json.dumps({"answer": ["12.6"], "answer_type": "arithmetic", "scale": "million"})
    completions = ["not json", "[12.6, \"million\"]", "[\"a\"]", "{\"answer\": 1}", None]
    scored = score_arrow(pa.table({"completion": completions, "gold": [gold] * 5, "data_source": ["tatqa"] * 5}),
                         RewardConfig(input="tatqa"))
    assert scored.column("reason").to_pylist() == ["malformed_prediction"] * 4 + ["missing_prediction"]
    assert scored.column("score").to_pylist() == [0.0] * 5
