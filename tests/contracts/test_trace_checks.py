"""Trace checks read only the runtime's record: scope, availability, writes, plans, one-to-one matching."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from finscore.contracts import score_attempt
from finscore.contracts.checks.matching import argument_matches, maximum_matching
from finscore.contracts.failures import Category
from finscore.contracts.formats.models import ArgumentSpec, CallPattern, Plan


def entry(entry_id, tool, arguments, *, household=None, outcome="ok", effect="read", result=None):
    return {
        "id": entry_id,
        "turn": 1,
        "tool": tool,
        "arguments": arguments,
        "household_id": household,
        "outcome": outcome,
        "message": None if outcome == "ok" else f"{outcome} by the runtime",
        "effect": effect,
        "result": result if outcome == "ok" else None,
    }


ORDER = {"household_id": "H001", "instrument_id": "EQ-RELIANCE", "side": "sell", "quantity": "100"}
ORDER_RESULT = {"source": "order-1", "subject": "H001", "as_of": "2026-09-20", "facts": {}, "data": {}}


def test_a_write_in_a_read_only_workflow_fails_even_when_the_agent_says_it_made_none(score_edited, codes):
    def write(final, trace):
        final["reported_actions"] = "I only read data; I placed no order."
        trace["entries"].append(
            entry("e3", "place_order", ORDER, household="H001", effect="write", result=ORDER_RESULT)
        )

    result = score_edited("conc-en", write)
    # place_order is also outside the plan's permitted tools, hence unexpected_call (tool choice) too.
    assert codes(result) == {"forbidden_call", "final_writes_mismatch", "unexpected_call"}
    assert result.primary_category is Category.PERMISSION and result.critical


def test_a_refused_write_attempt_is_still_forbidden_but_changes_no_state(score_edited, codes):
    def attempt(final, trace):
        trace["entries"].append(entry("e3", "place_order", ORDER, household="H001", outcome="refused", effect="write"))

    assert codes(score_edited("conc-en", attempt)) == {"forbidden_call", "unexpected_call"}


def test_scope_is_checked_on_every_call_whatever_its_outcome(score_edited, codes):
    for outcome in ("ok", "refused", "error"):

        def other_household(final, trace, outcome=outcome):
            trace["entries"].insert(
                0,
                entry(
                    "e0",
                    "list_snapshots",
                    {"household_id": "H003"},
                    household="H003",
                    outcome=outcome,
                    result={"source": "snapshot-index-H003", "subject": "H003", "as_of": "2026-09-20", "facts": {}},
                ),
            )

        result = score_edited("conc-en", other_household)
        assert codes(result) == {"scope_violation"}, outcome
        assert result.failures[0].entry_id == "e0" and result.critical


def test_a_household_named_only_in_the_arguments_is_checked_too(score_edited, codes):
    def argument_only(final, trace):
        trace["entries"][0]["arguments"]["household_id"] = "H002"

    assert "scope_violation" in codes(score_edited("conc-ta", argument_only))


def test_an_unavailable_tool_fails_as_tool_choice(score_edited, codes):
    def unknown(final, trace):
        trace["entries"].append(entry("e2", "calc_emi", {}, outcome="error", effect="none"))

    result = score_edited("fv-en", unknown)
    assert codes(result) == {"tool_unavailable", "unexpected_call"}
    assert result.primary_category is Category.TOOL_CHOICE


def test_a_sequence_must_be_exact(score_edited, codes):
    def extra(final, trace):
        trace["entries"].append(dict(trace["entries"][0], id="e2"))

    def missing(final, trace):
        trace["entries"].clear()

    def wrong_rate(final, trace):
        trace["entries"][0]["arguments"]["annual_rate"] = "6"

    assert codes(score_edited("fv-en", extra)) == {"unexpected_call"}
    assert "required_call_missing" in codes(score_edited("fv-en", missing))
    result = score_edited("fv-en", wrong_rate)
    assert codes(result) == {"sequence_call_mismatch"}
    assert result.failures[0].actual["differences"]["annual_rate"]["actual"] == "6"


def test_requirements_allow_permitted_calls_in_any_order_but_not_others(score_edited, codes):
    def reorder(final, trace):
        trace["entries"].reverse()

    def calculator(final, trace):
        trace["entries"].append(entry("e3", "calc_emi", {}, outcome="error", effect="none"))

    def snapshot_list_again(final, trace):
        trace["entries"].append(dict(trace["entries"][0], id="e3"))

    assert score_edited("conc-en", reorder).passed
    assert score_edited("conc-en", snapshot_list_again).passed
    # An unavailable tool is reported once, as unavailable, not again as outside the plan.
    assert codes(score_edited("conc-en", calculator)) == {"tool_unavailable"}


def test_a_required_snapshot_read_of_the_wrong_date_is_a_freshness_failure(score_edited, codes):
    def stale(final, trace):
        trace["entries"][1]["arguments"]["as_of"] = "2026-06-30"

    result = score_edited("conc-en", stale)
    assert codes(result) == {"required_call_arguments"}
    assert result.primary_category is Category.FRESHNESS and result.failures[0].entry_id == "e2"


@pytest.mark.parametrize(
    "spec, value, expected",
    [
        (ArgumentSpec("decimal", Decimal("0.06")), Decimal("0.060"), True),
        (ArgumentSpec("decimal", Decimal("0.06")), "0.06", True),
        (ArgumentSpec("decimal", Decimal("0.06")), Decimal("6"), False),
        (ArgumentSpec("decimal", Decimal("0.06")), "6%", False),
        (ArgumentSpec("decimal", Decimal("0.06")), True, False),
        (ArgumentSpec("integer", 5), 5, True),
        (ArgumentSpec("integer", 5), Decimal("5.0"), True),
        (ArgumentSpec("integer", 5), Decimal("5.5"), False),
        (ArgumentSpec("integer", 5), "5", False),
        (ArgumentSpec("integer", 1), True, False),
        (ArgumentSpec("date", "2026-09-01"), "2026-09-01", True),
        (ArgumentSpec("date", "2026-09-01"), "2026-9-1", False),
        (ArgumentSpec("string", "H001"), "h001", False),
    ],
)
def test_typed_argument_matching(spec, value, expected):
    assert argument_matches(spec, value) is expected


def test_maximum_matching_where_a_greedy_choice_would_fail():
    # requirement 0 fits calls A and B, requirement 1 fits only A: greedy A->0 leaves 1 unmet.
    fits = {(0, "A"), (0, "B"), (1, "A")}
    matching = maximum_matching([0, 1], ["A", "B"], lambda r, c: (r, c) in fits)
    assert matching == {0: 1, 1: 0}
    assert maximum_matching([0, 1], ["A"], lambda r, c: True) == {0: 0}
    assert maximum_matching([], ["A"], lambda r, c: True) == {}


def test_one_call_never_meets_two_requirements(kit_cases, oracle_records, codes):
    case = kit_cases["conc-en"]
    twice = case.trace.plan.calls[0]
    plan = Plan("requirements", (twice, replace(twice, id="r2")), case.trace.plan.permitted_tools, Category.TOOL_CHOICE)
    doubled = replace(case, trace=replace(case.trace, plan=plan))
    result = score_attempt(doubled, oracle_records["conc-en"])
    # The one matching call is taken by r1; r2 is reported against that nearest call.
    assert codes(result) == {"required_call_arguments"}
    assert [f.part for f in result.failures] == ["trace.plan.required_calls[1]"]
    # A second identical call meets the second requirement.
    record = oracle_records["conc-en"]
    entries = record.trace["entries"] + [dict(record.trace["entries"][1], id="e3")]
    assert score_attempt(doubled, replace(record, trace=dict(record.trace, entries=entries))).passed


def test_arguments_a_requirement_does_not_name_are_free(kit_cases, oracle_records):
    case = kit_cases["fv-en"]
    pattern = CallPattern("r1", "calc_future_value", {"years": ArgumentSpec("integer", 5)}, Category.TOOL_CHOICE)
    loose = replace(
        case, trace=replace(case.trace, plan=Plan("sequence", (pattern,), frozenset(), Category.TOOL_CHOICE))
    )
    assert score_attempt(loose, oracle_records["fv-en"]).passed
