"""Program rewards on the recorded literal cases: the official execution test, row by row.

The oracle is the recorded official outcome (tests/support/literals.py): a row passes where
the official evaluator executed the program validly to the gold answer. The gold answer is
the recorded result where it is a finite float (so the official decision is a pass exactly
where the program was valid), else 1.0 (never reached by an invalid program).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pyarrow as pa
import pytest

from finscore.rewards import score_arrow
from support.literals import literal_rows

pytestmark = pytest.mark.essential


def _gold_answer(outcome: dict[str, Any]) -> float:
    result = outcome["result"]
    if outcome["invalid"] == 0 and "float" in result and math.isfinite(float.fromhex(result["float"])):
        return float.fromhex(result["float"])
    return 1.0


def _passes(outcome: dict[str, Any]) -> bool:
    result = outcome["result"]
    return outcome["invalid"] == 0 and "float" in result and float.fromhex(result["float"]) == _gold_answer(outcome)


@pytest.mark.parametrize("source", ["finqa", "convfinqa"])
def test_every_literal_row_gets_the_official_decision(source: str) -> None:
    rows = literal_rows()
    gold = [json.dumps({"exe_ans": _gold_answer(row[source]), "table": row["table"]}) for row in rows]
    table = pa.table({"completion": [row["program"] for row in rows], "gold": gold,
                      "data_source": [source] * len(rows)})
    scored = score_arrow(table)
    expected = [_passes(row[source]) for row in rows]
    assert 0 < sum(expected) < len(rows)
    assert scored.column("passed").to_pylist() == expected
    assert scored.column("score").to_pylist() == [1.0 if p else 0.0 for p in expected]


def test_the_issues_program_is_rewarded() -> None:
    program = ["add(", "1", "co,nst_5", ")", "EOF"]
    recorded = next(row for row in literal_rows() if row["program"] == program)
    for source in ("finqa", "convfinqa"):
        gold = json.dumps({"exe_ans": float.fromhex(recorded[source]["result"]["float"]), "table": None})
        scored = score_arrow(pa.table({"completion": [program], "gold": [gold], "data_source": [source]}))
        assert (scored.column("score").to_pylist(), scored.column("passed").to_pylist()) == ([1.0], [True])
