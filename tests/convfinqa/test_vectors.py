"""The convfinqa profile against the recorded outputs of ConvFinQA's own evaluator.

tests/data/vectors/convfinqa.jsonl.gz holds what `eval_program` and `equal_program`
of czyssrs/ConvFinQA (code/utils/general_utils.py) answered on CPython 3.11: every
dev turn's gold program, mutants, number selections, fuzz, and 3,000 equivalence
decisions. Every row must match, through the Python API and through the command
line (`exec-jsonl --profile convfinqa --tables` and `finqa equal-jsonl --profile
convfinqa`). Zero mismatches.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

from support.shared import CONVFINQA, convfinqa_table_of, require, same_outcome, vector_rows

from finscore import execute_many
from finscore.convfinqa.equivalence import ConvFinqaComparer
from finscore.finqa.equivalence import ProgramComparer

EXECUTION_KINDS = {"gold": 1490, "mutant": 4470, "single": 5000, "fuzz": 30000}
REPOSITORY = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=1)
def _rows() -> tuple[dict[str, Any], ...]:
    return tuple(vector_rows("convfinqa"))


def _execution_rows() -> list[dict[str, Any]]:
    return [row for row in _rows() if row["kind"] != "equal"]


def _equal_rows() -> list[dict[str, Any]]:
    return [row for row in _rows() if row["kind"] == "equal"]


def test_the_file_holds_what_its_readme_says() -> None:
    assert Counter(row["kind"] for row in _rows()) == {**EXECUTION_KINDS, "equal": 3000}
    assert all(convfinqa_table_of(row)[0] for row in _execution_rows())  # every table_ref resolves


def _mismatches(rows: list[dict[str, Any]], outcomes: list[tuple[int, Any]]) -> list[str]:
    return [f"{row['id']}: recorded {row['invalid']} {row['result']}, got {invalid} {result!r}"
            for row, (invalid, result) in zip(rows, outcomes, strict=True)
            if not same_outcome(row, invalid, result)]


def test_every_execution_row_through_the_api() -> None:
    rows = _execution_rows()
    outcomes = execute_many([(row["program"], convfinqa_table_of(row)[1]) for row in rows], profile="convfinqa")
    bad = _mismatches(rows, [(o.invalid, o.result) for o in outcomes])
    assert len(rows) == sum(EXECUTION_KINDS.values())
    assert bad == [], f"{len(bad)} mismatches, e.g. {bad[:5]}"


def test_the_profile_matters_on_the_recorded_rows() -> None:
    """FinQA's reading (the official profile) disagrees with ConvFinQA's recordings on the
    number selections, and only there: the convfinqa profile is needed, and it changes
    nothing else."""
    rows = _execution_rows()
    outcomes = execute_many([(row["program"], convfinqa_table_of(row)[1]) for row in rows], profile="official")
    differing = [row for row, o in zip(rows, outcomes) if not same_outcome(row, o.invalid, o.result)]
    assert len(differing) > 1000
    assert all(len(row["program"]) == 2 for row in differing)


def test_gold_turns_give_the_recorded_exe_ans_and_the_dataset_answers() -> None:
    """Each gold row's exe_ans is the dev file's exe_ans_list entry for that turn, and the
    evaluator's result equals it (the vectors README: all 1,490 give exe_ans exactly)."""
    conversations = {c["id"]: c for c in json.loads(require(CONVFINQA / "convfinqa_dev.json").read_text())}
    gold = [row for row in _rows() if row["kind"] == "gold"]
    for row in gold:
        conversation_id, turn = row["id"].rsplit("#t", 1)
        assert int(turn) == row["turn"] and conversation_id == row["table_ref"]
        answers = conversations[conversation_id]["annotation"]["exe_ans_list"]
        recorded = row["exe_ans"]
        assert (float.fromhex(recorded["float"]) if "float" in recorded else recorded["str"]) == answers[row["turn"]]
        assert row["invalid"] == 0 and row["result"] == row["exe_ans"]
    assert sum(len(c["annotation"]["turn_program"]) for c in conversations.values()) == len(gold) == 1490


def test_every_equal_row_through_the_api() -> None:
    comparer = ConvFinqaComparer()
    rows = _equal_rows()
    bad = [row["id"] for row in rows if comparer.equal_program(row["gold"], row["pred"]).equal != row["equal"]]
    assert bad == [], f"{len(bad)} of {len(rows)} decisions differ, e.g. {bad[:5]}"


def test_finqa_equal_program_differs_on_number_selections_only() -> None:
    """ConvFinQA's equal_program is FinQA's plus one rule for a one-token gold program:
    FinQA's decision differs from the recorded one on some of those rows and on no other."""
    finqa = ProgramComparer()
    rows = _equal_rows()
    differing = [row for row in rows if finqa.equal_program(row["gold"], row["pred"]).equal != row["equal"]]
    assert differing
    assert all(len(row["gold"]) == 2 for row in differing)


def _cli(*argv: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPOSITORY / "python"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "finscore", *argv], input=stdin, capture_output=True,
                          text=True, env=env, check=False)


def test_every_execution_row_through_exec_jsonl() -> None:
    rows = _execution_rows()
    stdin = "".join(json.dumps({k: v for k, v in row.items() if k not in ("invalid", "result")}) + "\n"
                    for row in rows)
    done = _cli("exec-jsonl", "--profile", "convfinqa", "--tables", str(require(CONVFINQA / "convfinqa_dev.json")),
                stdin=stdin)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(rows)
    outcomes = []
    for row, line in zip(rows, lines):
        record = json.loads(line)
        assert record["id"] == row["id"]
        result = record["result"]
        outcomes.append((record["invalid"], float.fromhex(result["float"]) if "float" in result else result["str"]))
    bad = _mismatches(rows, outcomes)
    assert bad == [], f"{len(bad)} mismatches, e.g. {bad[:5]}"


def test_every_equal_row_through_equal_jsonl() -> None:
    rows = _equal_rows()
    stdin = "".join(json.dumps({"id": row["id"], "gold": row["gold"], "pred": row["pred"]}) + "\n" for row in rows)
    done = _cli("finqa", "equal-jsonl", "--profile", "convfinqa", stdin=stdin)
    assert done.returncode == 0, done.stderr
    decided = {record["id"]: record["equal"] for record in map(json.loads, done.stdout.splitlines())}
    assert len(decided) == len(rows)
    bad = [row["id"] for row in rows if decided[row["id"]] != row["equal"]]
    assert bad == [], f"{len(bad)} of {len(rows)} decisions differ, e.g. {bad[:5]}"
    official = _cli("finqa", "equal-jsonl", stdin=stdin)  # FinQA's rule, for contrast
    finqa_decided = {record["id"]: record["equal"] for record in map(json.loads, official.stdout.splitlines())}
    assert any(finqa_decided[row["id"]] != row["equal"] for row in rows)
