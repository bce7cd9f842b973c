"""Joining: a fixed denominator, typed runtime and parser failures, named unknown and duplicate ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.contracts import JoinError, evaluate, read_predictions
from finscore.contracts.failures import Category
from finscore.contracts.kit import KIT_DIRECTORY
from finscore.contracts.reports.contracts_report import counts

ORACLE_LINES = (KIT_DIRECTORY / "oracle.jsonl").read_text(encoding="utf-8").splitlines()


def write_lines(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "predictions.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def edited(index: int, **changes) -> str:
    record = json.loads(ORACLE_LINES[index])
    record.update(changes)
    return json.dumps(record, ensure_ascii=False)


def results_by_case(evaluation):
    return {result.case_id: result for result in evaluation.results}


def test_missing_predictions_stay_in_the_denominator(kit_cases, tmp_path):
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, ORACLE_LINES[:20])))
    assert len(evaluation.results) == 24
    missing = [r for r in evaluation.results if not r.attempted]
    assert len(missing) == 4 and all(r.failures[0].code.value == "not_attempted" for r in missing)
    assert counts(evaluation.results) == {
        "trials": 24,
        "attempted": 20,
        "submitted": 20,
        "completed": 20,
        "passed": 20,
        "failed": 4,
        "critical": 0,
    }


def test_unknown_and_duplicate_ids_are_rejected_by_name(kit_cases, tmp_path):
    lines = ORACLE_LINES + [edited(0, case_id="fv-xx"), ORACLE_LINES[3], edited(5, attempt=0)]
    with pytest.raises(JoinError) as raised:
        evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    message = str(raised.value)
    assert "fv-xx" in message and raised.value.unknown == ["fv-xx"]
    first_id, sixth_id = json.loads(ORACLE_LINES[3])["case_id"], json.loads(ORACLE_LINES[5])["case_id"]
    assert raised.value.duplicates == sorted([f"{first_id}/0", f"{sixth_id}/0"])


@pytest.mark.parametrize(
    "status, code, category",
    [
        ("crashed", "run_crashed", Category.RUNTIME),
        ("timeout", "run_timeout", Category.RUNTIME),
        ("step_limit", "run_step_limit", Category.RUNTIME),
        ("incomplete", "run_incomplete", Category.RUNTIME),
        ("malformed_output", "output_malformed", Category.PARSER),
        ("finished", "record_malformed", Category.PARSER),
    ],
)
def test_a_run_that_did_not_complete_fails_even_with_the_right_answer_inside(
    kit_cases, tmp_path, status, code, category
):
    lines = [edited(0, status=status, status_detail="agent raised ValueError")] + ORACLE_LINES[1:]
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    result = evaluation.results[[r.case_id for r in evaluation.results].index(json.loads(lines[0])["case_id"])]
    assert not result.passed and result.attempted and result.submitted and not result.completed
    assert [f.code.value for f in result.failures] == [code]
    assert result.primary_category is category
    assert sum(r.passed for r in evaluation.results) == 23


def test_unreadable_lines_are_kept_as_rejected_and_the_case_still_counts(kit_cases, tmp_path):
    lines = ["{not json", json.dumps({"attempt": 0}), ORACLE_LINES[1], json.dumps([1, 2])] + ORACLE_LINES[2:]
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    assert [r.line for r in evaluation.rejected_lines] == [1, 2, 4]
    assert len(evaluation.results) == 24 and sum(r.passed for r in evaluation.results) == 23


def test_a_malformed_final_or_trace_fails_only_that_attempt(kit_cases, tmp_path, codes):
    lines = [
        edited(0, final={"kind": "answer"}),
        edited(1, trace={"entries": [{"id": "e1"}]}),
        edited(2, extra_field=1),
    ] + ORACLE_LINES[3:]
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    first = evaluation.results[:3]
    by_id = results_by_case(evaluation)
    ids = [json.loads(line)["case_id"] for line in lines[:3]]
    assert codes(by_id[ids[0]]) == {"final_malformed"}
    assert codes(by_id[ids[1]]) == {"trace_malformed"}
    assert codes(by_id[ids[2]]) == {"record_malformed"}
    assert len(first) == 3 and sum(r.passed for r in evaluation.results) == 21


def rerun(index: int, attempt: int) -> str:
    record = json.loads(ORACLE_LINES[index])
    record["attempt"] = record["trace"]["attempt"] = attempt
    return json.dumps(record, ensure_ascii=False)


def test_a_trace_of_another_attempt_is_malformed(kit_cases, tmp_path, codes):
    lines = ORACLE_LINES + [edited(0, attempt=1)]
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    second = [r for r in evaluation.results if r.attempt == 1 and r.attempted]
    assert len(second) == 1 and codes(second[0]) == {"trace_malformed"}


def test_attempts_fix_the_denominator(kit_cases, tmp_path):
    lines = ORACLE_LINES + [rerun(0, 1), rerun(1, 2)]
    evaluation = evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)))
    assert evaluation.attempts == 3 and len(evaluation.results) == 72
    assert sum(r.passed for r in evaluation.results) == 26
    with pytest.raises(JoinError, match="beyond 2 attempts"):
        evaluate(list(kit_cases.values()), read_predictions(write_lines(tmp_path, lines)), attempts=2)
