"""Rewards decide as the official evaluator did, on every recorded gold and mutant program.

The oracle is the recorded official outcome (tests/data/vectors), compared with the
example's exe_ans by the official test; and, on the shipped example, `finscore finqa`'s
own per-example decisions (the reward must never drift from the evaluator).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyarrow as pa
import pytest

from finscore.finqa.scoring import score_predictions
from finscore.rewards import RewardConfig, decide_rows, score_arrow
from support.reward_rows import recorded_convfinqa_reward_rows, recorded_reward_rows

REPOSITORY = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.essential


def test_every_recorded_row_gets_the_official_decision() -> None:
    rows = recorded_reward_rows()
    assert len(rows) > 17_000
    table = pa.table({"completion": [r.program for r in rows], "gold": [r.gold for r in rows]})
    scored = score_arrow(table)
    passed = scored.column("passed").to_pylist()
    mismatches = [i for i, (row, p) in enumerate(zip(rows, passed)) if row.official_pass != p]
    assert mismatches == []
    assert scored.column("score").to_pylist() == [1.0 if r.official_pass else 0.0 for r in rows]
    assert set(scored.column("protocol").to_pylist()) == {RewardConfig().stamp("finqa")}


def test_convfinqa_rows_get_the_decision_of_convfinqas_own_evaluator() -> None:
    rows = recorded_convfinqa_reward_rows()
    assert len(rows) > 5_000 and 0 < sum(r.official_pass for r in rows) < len(rows)
    table = pa.table({"completion": [r.program for r in rows], "gold": [r.gold for r in rows],
                      "data_source": ["convfinqa"] * len(rows)})
    scored = score_arrow(table)
    assert scored.column("passed").to_pylist() == [r.official_pass for r in rows]
    assert set(scored.column("protocol").to_pylist()) == {RewardConfig().stamp("convfinqa")}


def test_program_text_and_tokens_are_decided_alike() -> None:
    """A gold program string tokenizes as the evaluator tokenizes gold programs."""
    programs = ["subtract(5, 3), divide(#0, 3)", "add(1, 2)", "divide(100, const_100)", "greater(3, 2)"]
    gold = [json.dumps({"exe_ans": answer, "table": None}) for answer in (0.66667, 3.0, 1.0, "yes")]
    scored = score_arrow(pa.table({"completion": programs, "gold": gold}))
    assert scored.column("passed").to_pylist() == [True, True, True, True]


def test_same_decisions_as_finscore_finqa_on_the_shipped_example() -> None:
    predictions = json.loads((REPOSITORY / "examples/finqa/predictions.json").read_text(encoding="utf-8"))
    gold = json.loads((REPOSITORY / "examples/finqa/gold.json").read_text(encoding="utf-8"))
    report = score_predictions(predictions, gold)
    by_id = {example["id"]: example for example in gold}
    scored_rows = [row for row in report.examples if row.predicted_tokens is not None]
    golds = [json.dumps({"exe_ans": by_id[row.id]["qa"]["exe_ans"], "table": by_id[row.id]["table"],
                         "program": by_id[row.id]["qa"]["program"]}) for row in scored_rows]
    completions = [list(row.predicted_tokens) for row in scored_rows]
    execution = score_arrow(pa.table({"completion": completions, "gold": golds}))
    assert execution.column("passed").to_pylist() == [row.execution_correct for row in scored_rows]
    assert execution.column("reason").to_pylist() == [row.category for row in scored_rows]
    program = score_arrow(pa.table({"completion": completions, "gold": golds}), RewardConfig(match="program"))
    assert program.column("passed").to_pylist() == [
        row.execution_correct and row.equivalence.equal for row in scored_rows]


def test_repeated_rows_in_one_batch_keep_the_official_decision() -> None:
    """Rows with the same program and gold are decided once per batch (a GRPO group often repeats
    a program): 4,000 recorded rows and every row whose program is recorded against other golds too
    (some of them pass with one gold and fail with another), each given three times in a shuffled
    order (as a list or a tuple of tokens), still get the official decision, and each row its own
    detail object."""
    recorded = recorded_reward_rows()
    golds_of: dict[tuple[str, ...], set[str]] = {}
    for row in recorded:
        golds_of.setdefault(tuple(row.program), set()).add(row.gold)
    shared = [row for row in recorded if len(golds_of[tuple(row.program)]) > 1]
    assert len({(tuple(r.program), r.official_pass) for r in shared}) > len({tuple(r.program) for r in shared})
    rows = [*recorded[:4000], *shared]
    order = [i for i in range(len(rows)) for _ in range(3)]
    random.Random(1201).shuffle(order)
    completions = [list(rows[i].program) if n % 2 else tuple(rows[i].program) for n, i in enumerate(order)]
    golds = [rows[i].gold for i in order]
    decided = decide_rows(completions, golds, [None] * len(order), RewardConfig())
    assert [d.passed for d, _ in decided] == [rows[i].official_pass for i in order]
    assert len({id(d.detail) for d, _ in decided}) == len(order)
    assert len({(tuple(c), g) for c, g in zip(completions, golds)}) <= len(rows)  # so the memo was reached
