"""Shared fixtures: the shipped kit, its oracle records, and a way to score edited copies."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Callable

import pytest

from finscore.contracts import load_kit_cases, load_kit_oracle, score_attempt
from finscore.contracts.checks.attempt import AttemptResult
from finscore.contracts.formats.models import Case, PredictionRecord


@pytest.fixture(scope="session")
def kit_cases() -> dict[str, Case]:
    return {case.case_id: case for case in load_kit_cases()}


@pytest.fixture(scope="session")
def oracle_records() -> dict[str, PredictionRecord]:
    return {record.case_id: record for record in load_kit_oracle().records}


Editor = Callable[[dict[str, Any], dict[str, Any]], None]


@pytest.fixture
def score_edited(kit_cases, oracle_records) -> Callable[..., AttemptResult]:
    """Score a deep copy of a case's oracle record after `edit(final, trace)` changed it."""

    def run(case_id: str, edit: Editor | None = None, **record_changes: Any) -> AttemptResult:
        record = oracle_records[case_id]
        final, trace = copy.deepcopy(record.final), copy.deepcopy(record.trace)
        if edit is not None:
            edit(final, trace)
        return score_attempt(kit_cases[case_id], replace(record, final=final, trace=trace, **record_changes))

    return run


def failure_codes(result: AttemptResult) -> set[str]:
    return {item.code.value for item in result.failures}


@pytest.fixture(scope="session")
def codes() -> Callable[[AttemptResult], set[str]]:
    """The set of failure codes of a result (a fixture: test modules cannot import conftest)."""
    return failure_codes


@pytest.fixture(autouse=True)
def private_config_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default trace key goes to a test folder, never to the user's real config folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.getbasetemp() / "config"))
