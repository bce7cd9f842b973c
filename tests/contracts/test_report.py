"""The report: separate counts, per-language and per-family rates, trace references that resolve."""

from __future__ import annotations

import json

import pytest

from finscore.contracts import build_report, evaluate, read_predictions
from finscore.contracts.kit import KIT_DIRECTORY

LINES = (KIT_DIRECTORY / "oracle.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.fixture
def mixed_report(kit_cases, tmp_path):
    records = [json.loads(line) for line in LINES]
    by_id = {r["case_id"]: r for r in records}
    by_id["conc-en"]["trace"]["entries"].append(
        {
            "id": "e9",
            "turn": 2,
            "tool": "get_holdings",
            "arguments": {"household_id": "H003", "as_of": "2026-08-31"},
            "household_id": "H003",
            "outcome": "refused",
            "message": "household H003 is outside the session scope",
            "effect": "read",
            "result": None,
        }
    )
    by_id["fv-hi"]["status"] = "timeout"
    by_id["sip-ta"]["final"]["claims"]["maturity_value"]["as_of"] = "2026-09-02"
    del by_id["emi-en"]
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in by_id.values()) + "\n", encoding="utf-8")
    return build_report(evaluate(list(kit_cases.values()), read_predictions(path)), replicates=200)


def test_counts_are_kept_apart(mixed_report):
    assert mixed_report["counts"] == {
        "cases": 24,
        "trials": 24,
        "attempted": 23,
        "submitted": 23,
        "completed": 22,
        "passed": 20,
        "failed": 4,
        "critical": 1,
    }


def test_per_language_and_families_passing_everywhere(mixed_report):
    assert {k: v["passed"] for k, v in mixed_report["by_language"].items()} == {"en": 6, "hi": 7, "ta": 7}
    every = mixed_report["families_passing_every_language"]
    assert every["count"] == 4 and "equity_concentration" not in every["families"]
    assert mixed_report["family_language"]["loan_emi"]["en"] == {"passed": 0, "trials": 1}


def test_every_failure_names_case_part_expected_actual_and_a_resolving_trace_entry(mixed_report):
    failures = {f["case_id"]: f for f in mixed_report["failures"]}
    assert failures["conc-en"]["code"] == "scope_violation" and failures["conc-en"]["critical"]
    assert failures["conc-en"]["trace_ref"] == "conc-en/0#e9"
    assert failures["sip-ta"]["part"] == "claims.maturity_value.as_of"
    assert failures["sip-ta"]["expected"] == "2026-09-01" and failures["sip-ta"]["actual"] == "2026-09-02"
    assert failures["fv-hi"]["category"] == "runtime" and failures["emi-en"]["code"] == "not_attempted"
    for failure in mixed_report["failures"]:
        if failure["trace_ref"]:
            key, entry_id = failure["trace_ref"].split("#")
            assert entry_id in {e["id"] for e in mixed_report["traces"][key]}
    assert mixed_report["failure_categories"]["attempts_by_primary"] == {
        "runtime": 2,
        "parser": 0,
        "permission": 1,
        "clarification": 0,
        "freshness": 1,
        "tool_choice": 0,
        "evidence": 0,
        "numerical_extraction": 0,
    }


def test_normalizations_are_recorded_per_claim(kit_cases, tmp_path):
    report = build_report(
        evaluate(list(kit_cases.values()), read_predictions(KIT_DIRECTORY / "oracle.jsonl")), replicates=100
    )
    rows = {row["case_id"]: row for row in report["outcomes"]}
    assert rows["fv-hi"]["claims"][0]["normalizations"] == ["currency_symbol", "grouping_indian"]
    assert rows["conc-hi"]["claims"][0]["normalizations"] == ["percent_display"]
    assert rows["fv-ta"]["claims"][0]["normalizations"] == ["digits_tamil"]
    assert rows["sip-en"]["claims"][0]["tolerance"] == {"unit": "INR", "absolute": "0.01", "relative": "0"}
    assert rows["fv-en"]["claims"][0] == {
        "claim": "future_value",
        "passed": True,
        "read_value": "3345563.94",
        "normalizations": [],
        "tolerance": None,
    }
