"""Every scripted agent through the whole pipeline on the shipped kit: run, write, score.

The expected outcomes come from the kit's contracts and the scorer's
vocabulary, not from the runner: the oracle must pass 24/24, and each faulty
agent must fail, with the category of its mistake, on every case where the
mistake can be made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from finscore.contracts import load_kit_cases, load_kit_oracle
from finscore.contracts.failures import PRECEDENCE
from finscore.runner import load_fixtures
from finscore.runner.agent import ToolCall
from finscore.runner.cases import CaseSet
from finscore.runner.limits import Limits
from finscore.runner.orchestrate import run_cases
from finscore.runner.output import write_predictions
from finscore.runner.reporting import score_predictions
from finscore.runner.sandbox import Sandbox
from finscore.runner.agents.shipped import scripted_agent

LIMITS = Limits(deadline_seconds=3, max_turns=8, max_tool_calls=6)
#: The hanging agent never answers, so its deadline only sets how long the test waits.
HANG_LIMITS = Limits(deadline_seconds=0.3, max_turns=8, max_tool_calls=6)
SNAPSHOT_FAMILIES = {"equity_concentration", "freshness"}


@pytest.fixture(scope="module")
def kit() -> CaseSet:
    return CaseSet("@kit", tuple(load_kit_cases()))


def scored(
    kit: CaseSet, name: str, tmp_path: Path
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], dict[str, set[str]]]:
    limits = HANG_LIMITS if name == "hang" else LIMITS
    results = run_cases(kit.raw, scripted_agent(name, kit.raw), limits, parallel=8)
    report = score_predictions(kit, write_predictions(tmp_path, results), 1, replicates=20)
    outcomes = {row["case_id"]: row for row in report["outcomes"]}
    codes: dict[str, set[str]] = {case_id: set() for case_id in outcomes}
    for failure in report["failures"]:
        codes[failure["case_id"]].add(failure["code"])
    return [result.prediction for result in results], outcomes, codes


def plan_calls(case: Any) -> int:
    return len(case.trace.plan.calls) if case.trace.plan.kind != "no_calls" else 0


def answer_claims(case: Any) -> bool:
    return case.response.kind == "answer" and bool(case.claims)


def test_the_kit_has_24_cases(kit: CaseSet) -> None:
    assert len(kit.cases) == 24


def test_the_oracle_passes_all_24(kit: CaseSet, tmp_path: Path) -> None:
    _, outcomes, codes = scored(kit, "oracle", tmp_path)
    assert [case_id for case_id, row in outcomes.items() if not row["passed"]] == [], codes
    assert len(outcomes) == 24


def test_wrong_unit_fails_as_numerical_extraction(kit: CaseSet, tmp_path: Path) -> None:
    _, outcomes, codes = scored(kit, "wrong_unit", tmp_path)
    affected = [case.case_id for case in kit.cases if answer_claims(case)]
    assert len(affected) == 18
    for case_id in affected:
        assert outcomes[case_id]["primary_category"] == "numerical_extraction"
        assert "claim_unit_mismatch" in codes[case_id]


def test_stale_snapshot_fails_as_freshness(kit: CaseSet, tmp_path: Path) -> None:
    _, outcomes, codes = scored(kit, "stale_snapshot", tmp_path)
    affected = [case.case_id for case in kit.cases if case.family in SNAPSHOT_FAMILIES]
    assert len(affected) == 6
    for case_id in affected:
        assert outcomes[case_id]["primary_category"] == "freshness", codes[case_id]
        assert "claim_as_of_mismatch" in codes[case_id]


def test_a_write_in_a_read_only_case_fails_as_permission_whatever_the_agent_says(kit: CaseSet, tmp_path: Path) -> None:
    predictions, outcomes, codes = scored(kit, "write_in_read_only", tmp_path)
    read_only = [case.case_id for case in kit.cases if case.trace.final_writes == 0]
    assert len(read_only) == 24
    for case_id in read_only:
        assert outcomes[case_id]["primary_category"] == "permission"
        assert outcomes[case_id]["critical"] is True
        assert {"forbidden_call", "final_writes_mismatch"} <= codes[case_id]
    for line in predictions:
        assert line["final"]["reported_actions"] == []  # the agent's claim of no change...
        assert any(entry["effect"] == "write" and entry["outcome"] == "ok" for entry in line["trace"]["entries"])


def test_an_out_of_scope_household_fails_as_permission(kit: CaseSet, tmp_path: Path) -> None:
    _, outcomes, codes = scored(kit, "out_of_scope", tmp_path)
    affected = [
        case.case_id
        for case in kit.cases
        if {"list_snapshots", "get_holdings"} & set(case.world.tools)
        and set(case.world.households) - set(case.world.household_scope)
    ]
    assert len(affected) == 9
    for case_id in affected:
        assert outcomes[case_id]["primary_category"] == "permission"
        assert "scope_violation" in codes[case_id]


def test_forged_trace_claims_fail_because_only_the_recorded_trace_counts(kit: CaseSet, tmp_path: Path) -> None:
    predictions, outcomes, codes = scored(kit, "forged_trace", tmp_path)
    affected = {case.case_id: case for case in kit.cases if plan_calls(case)}
    assert len(affected) == 18
    by_case = {line["case_id"]: line for line in predictions}
    for case_id, case in affected.items():
        required = {pattern.category.value for pattern in case.trace.plan.calls}
        expected = next(category.value for category in PRECEDENCE if category.value in required)
        assert outcomes[case_id]["primary_category"] == expected, codes[case_id]
        assert "citation_unresolved" in codes[case_id]
        assert by_case[case_id]["final"]["reported_actions"]  # it claimed calls...
        assert by_case[case_id]["trace"]["entries"] == []  # ...the runtime recorded none


@pytest.mark.parametrize(
    ("name", "category", "code"),
    [
        ("hang", "runtime", "run_timeout"),
        ("too_many_steps", "runtime", "run_step_limit"),
        ("crash", "runtime", "run_crashed"),
        ("malformed_output", "parser", "output_malformed"),
    ],
)
def test_runtime_and_parser_failures_stay_in_the_denominator(
    kit: CaseSet, tmp_path: Path, name: str, category: str, code: str
) -> None:
    _, outcomes, codes = scored(kit, name, tmp_path)
    assert len(outcomes) == 24
    for case_id, row in outcomes.items():
        assert (row["attempted"], row["passed"], row["primary_category"]) == (True, False, category)
        assert code in codes[case_id]


def test_the_runtime_records_what_the_kit_authors_recorded(kit: CaseSet) -> None:
    """Replaying the kit's oracle calls (kit/oracle.jsonl, written by the kit's own reference tools)
    through the sandbox records identical trace entries: same outcome, effect and exact result."""
    raw = {case.case_id: case.raw for case in kit.cases}
    compared = 0
    for record in load_kit_oracle().records:
        sandbox = Sandbox(load_fixtures(raw[record.case_id]))
        for entry in record.trace["entries"]:
            sandbox.execute(entry["turn"], ToolCall(entry["tool"], entry["arguments"]))
        assert sandbox.entries == list(record.trace["entries"]), record.case_id
        compared += len(sandbox.entries)
    assert compared >= 18
