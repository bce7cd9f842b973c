"""Reward rows built from the official evaluator's recordings, with their oracle decision.

Each row is a FinQA program (gold or mutant) with the table it runs on and the gold
exe_ans of its example; the expected decision is the official execution test applied
to the RECORDED official outcome (valid and `==` the exe_ans), never to finscore's.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, NamedTuple

from support.shared import convfinqa_table_of, table_of, vector_rows


class RewardRow(NamedTuple):
    program: list[str]
    gold: str  # JSON text, as a trainer's dataset carries it
    official_pass: bool


def _value(recorded: dict[str, Any]) -> Any:
    return float.fromhex(recorded["float"]) if "float" in recorded else recorded["str"]


@lru_cache(maxsize=None)
def recorded_reward_rows() -> tuple[RewardRow, ...]:
    """Every gold and mutant row whose table is available (about 18,000)."""
    answers: dict[str, Any] = {}
    rows: list[RewardRow] = []
    for kind in ("gold", "mutants"):
        for row in vector_rows(kind):
            available, table = table_of(row)
            if not available or row["invalid"] is None:
                continue
            if kind == "gold":
                answers[row["id"]] = _value(row["exe_ans"])
            answer = answers.get(row["id"].split("#")[0])
            if answer is None:
                continue
            official = row["invalid"] == 0 and _value(row["result"]) == answer
            gold = json.dumps({"exe_ans": answer, "table": table}, allow_nan=False)
            rows.append(RewardRow(list(row["program"]), gold, official))
    return tuple(rows)


@lru_cache(maxsize=None)
def recorded_convfinqa_reward_rows() -> tuple[RewardRow, ...]:
    """Every ConvFinQA dev turn and its mutants and number selections, with the turn's exe_ans;
    the oracle is the outcome recorded from ConvFinQA's own evaluator."""
    answers: dict[str, Any] = {}
    rows: list[RewardRow] = []
    for row in vector_rows("convfinqa"):
        if row["kind"] not in ("gold", "mutant", "single"):
            continue
        available, table = convfinqa_table_of(row)
        if row["kind"] == "gold":
            answers[row["id"]] = _value(row["exe_ans"])
        turn = re.sub(r"m[0-9]+$", "", row["id"]) if row["kind"] == "mutant" else row["id"]  # "<turn id>m0"
        answer = answers.get(turn) if row["kind"] != "single" else None
        if answer is None or not available:
            continue
        official = row["invalid"] == 0 and _value(row["result"]) == answer
        rows.append(RewardRow(list(row["program"]), json.dumps({"exe_ans": answer, "table": table}), official))
    return tuple(rows)
