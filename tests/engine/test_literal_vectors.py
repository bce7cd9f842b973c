"""Literals read as the official str_to_num reads them, by the core and the full reader alike.

The official reader removes every comma before it looks at a literal (`co,nst_5` is
`const_5`, `1,0,0` is 100), then tries float(), `%`, and `const_`. The recorded cases
(tests/support/literals.py: the official FinQA and ConvFinQA eval_program on 1,166
adversarial tokens in five places) are run through every entry point; a program the core's
plain reader and the full reader would read differently is its own row's typed status,
never an exception that takes the batch with it (issue #30).
"""

from __future__ import annotations

from typing import Any

import pytest

import finscore.engine.explanation as explanation
from finscore import execute, execute_batch, execute_many
from finscore.engine.reader.program import ReadFailure, ReadProgram
from finscore.engine.status import Status
from support.literals import EVALUATOR_OF, literal_rows
from support.shared import same_outcome

pytestmark = pytest.mark.essential
ISSUE = ["add(", "1", "co,nst_5", ")", "EOF"]


def _pairs() -> list[tuple[list[str], list[list[str]]]]:
    return [(row["program"], row["table"]) for row in literal_rows()]


def test_the_recording_bends_every_place_and_both_outcomes() -> None:
    rows = literal_rows()
    assert len(rows) > 1_000
    assert {row["shape"] for row in rows} == {"first", "second", "later", "cell", "alone"}
    assert {"co,nst_5", "co,nst_m1", "1,0,0", ",5"} <= {row["token"] for row in rows}
    for evaluator in ("finqa", "convfinqa"):
        flags = {row[evaluator]["invalid"] for row in rows}
        assert flags == {0, 1}


@pytest.mark.parametrize("profile", sorted(EVALUATOR_OF))
def test_execute_batch_gives_the_recorded_outcome(profile: str) -> None:
    evaluator = EVALUATOR_OF[profile]
    batch = execute_batch(_pairs(), profile=profile)
    mismatches = [(row["token"], row["shape"], batch.invalid[k], batch.results[k], row[evaluator])
                  for k, row in enumerate(literal_rows())
                  if not same_outcome(row[evaluator], batch.invalid[k], batch.results[k])]
    assert mismatches == []


@pytest.mark.parametrize("profile", sorted(EVALUATOR_OF))
def test_execute_many_gives_the_recorded_outcome_and_the_columns_status(profile: str) -> None:
    evaluator = EVALUATOR_OF[profile]
    pairs = _pairs()
    executions = execute_many(pairs, profile=profile)
    batch = execute_batch(pairs, profile=profile)
    rows = literal_rows()
    assert [k for k, (e, row) in enumerate(zip(executions, rows))
            if not same_outcome(row[evaluator], e.invalid, e.result)] == []
    assert [int(e.status) for e in executions] == batch.statuses
    assert Status.READING_DISAGREEMENT not in {e.status for e in executions}


def test_execute_one_by_one_on_the_comma_cases() -> None:
    rows = [row for row in literal_rows() if "," in row["token"] and row["shape"] in ("second", "alone")]
    assert len(rows) > 200
    for row in rows:
        for profile, evaluator in EVALUATOR_OF.items():
            outcome = execute(row["program"], row["table"], profile=profile)
            assert same_outcome(row[evaluator], outcome.invalid, outcome.result), (row["token"], profile)


def test_the_strict_profile_reads_every_case_and_refuses_what_the_official_refuses() -> None:
    rows = literal_rows()
    strict = execute_many(_pairs(), profile="strict")
    assert all(e.status is not Status.READING_DISAGREEMENT for e in strict)
    assert [row["token"] for row, e in zip(rows, strict)
            if row["shape"] != "alone" and row["finqa"]["invalid"] and not e.invalid] == []


def test_the_issues_program() -> None:
    for profile in ("official", "convfinqa"):
        outcome = execute(ISSUE, [], profile=profile)
        recorded = next(row for row in literal_rows() if row["program"] == ISSUE)[EVALUATOR_OF[profile]]
        assert same_outcome(recorded, outcome.invalid, outcome.result)
        assert (outcome.invalid, outcome.status) == (0, Status.OK)
    strict = execute(ISSUE, [], profile="strict")
    assert (strict.invalid, strict.status) == (1, Status.LOOSE_NUMBER_SYNTAX)


def test_a_disagreement_is_the_rows_own_status_and_the_batch_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced: the full reader reads a program the core refused (bad_number) without a failure."""
    real = explanation.read_program

    def lenient(tokens: Any, table: Any = None, **options: Any) -> ReadProgram:
        reading = real(tokens, table, **options)
        if list(tokens) == ["add(", "1", "x", ")", "EOF"]:
            return reading._replace(failure=None)
        return reading

    monkeypatch.setattr(explanation, "read_program", lenient)
    programs = [(["add(", "1", "2", ")", "EOF"], None), (["add(", "1", "x", ")", "EOF"], None),
                (["add(", "2", "y", ")", "EOF"], None)]
    outcomes = execute_many(programs)
    assert [(e.invalid, e.result) for e in outcomes] == [(0, 3.0), (1, "n/a"), (1, "n/a")]
    assert [e.status for e in outcomes] == [Status.OK, Status.READING_DISAGREEMENT, Status.BAD_NUMBER]
    assert outcomes[1].status_name == "reading_disagreement" and outcomes[1].failed_step is None
    assert outcomes[1].message == ("the core's plain reader says bad_number at step 0 but the full reader "
                                   "reads it without a failure: a finscore defect, please report it")


def test_a_disagreement_on_the_step_is_one_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced: the full reader stops with the core's status, at another step."""
    real = explanation.read_program

    def elsewhere(tokens: Any, table: Any = None, **options: Any) -> ReadProgram:
        reading = real(tokens, table, **options)
        failure = reading.failure
        assert failure is not None
        return reading._replace(failure=ReadFailure(failure.status, 1, failure.message))

    monkeypatch.setattr(explanation, "read_program", elsewhere)
    outcome = execute(["add(", "1", "x", ")", "EOF"])
    assert (outcome.invalid, outcome.status) == (1, Status.READING_DISAGREEMENT)
    assert outcome.message == ("the core's plain reader says bad_number at step 0 but the full reader "
                               "says bad_number at step 1: a finscore defect, please report it")
