"""The instrument self-check: oracle 24/24, every mutation fails with its category, probes as written."""

from __future__ import annotations

from collections import Counter

import pytest

from finscore.contracts import load_kit_probes, run_self_check


@pytest.fixture(scope="module")
def report():
    return run_self_check(replicates=200)


def test_the_oracle_records_pass_24_of_24(report):
    assert report["self_check"]["oracle"] == {"passed": 24, "of": 24, "ok": True}
    assert report["counts"]["passed"] == 24 and report["failures"] == []


def test_the_report_says_it_is_a_self_check_not_a_model_accuracy(report):
    assert report["kind"] == "instrument_self_check"
    assert "not a model accuracy" in report["statement"]


def test_every_mutation_fails_with_the_category_it_targets(report):
    rows = [r for r in report["self_check"]["mutations"]["rows"] if r["applicable"]]
    expected_categories = {
        "unit": {"numerical_extraction"},
        "date": {"freshness"},
        "source": {"evidence"},
        "tool_arguments": {"tool_choice", "freshness"},
        "household_scope": {"permission"},
    }
    for row in rows:
        assert not row["passed"], row
        assert row["primary_category"] == row["expected_category"], row
        assert row["expected_category"] in expected_categories[row["mutation"]]
    applied = Counter(row["mutation"] for row in rows)
    # Every answer case takes all five mutations; refusals and clarifications only the scope one.
    assert applied == {"unit": 18, "date": 18, "source": 18, "tool_arguments": 18, "household_scope": 24}
    assert report["self_check"]["mutations"]["ok"]


def test_the_tool_argument_mutation_of_a_snapshot_read_is_a_freshness_failure(report):
    rows = {(r["case_id"], r["mutation"]): r for r in report["self_check"]["mutations"]["rows"]}
    assert rows[("fresh-en", "tool_arguments")]["codes"] == ["required_call_arguments"]
    assert rows[("fresh-en", "tool_arguments")]["primary_category"] == "freshness"
    assert rows[("fv-en", "tool_arguments")]["codes"] == ["sequence_call_mismatch"]


def test_the_eleven_probes_get_their_written_verdicts(report):
    rows = report["self_check"]["probes"]["rows"]
    assert len(rows) == 11 and all(row["ok"] for row in rows), [r for r in rows if not r["ok"]]
    passing = [r for r in rows if r["expected"]["passed"]]
    failing = [r for r in rows if not r["expected"]["passed"]]
    assert len(passing) == 5 and len(failing) == 6
    # Six different failures: no two failing probes share their set of codes and the probe they cite...
    assert len({(tuple(r["expected"]["codes"]), r["probe_id"]) for r in failing}) == 6
    # ...and the unsupporting passage is its own probe: a well-formed citation of a document.
    passage = next(r for r in failing if r["probe_id"] == "p11-unsupporting-passage")
    assert passage["actual"] == {"passed": False, "primary_category": "evidence", "codes": ["evidence_unsupported"]}
    assert {r["case_id"] for r in rows} == {"conc-en"}


def test_probes_are_small_enough_to_read():
    for probe in load_kit_probes():
        assert len(probe.record.trace["entries"]) <= 3 and probe.description
