"""The kind of final response: answer, clarification or refusal, each checked as declared."""

from __future__ import annotations

from finscore.contracts.failures import Category


def test_clarification_case_needs_the_missing_horizon_and_no_call(score_edited, codes):
    assert score_edited("clarify-en").passed

    def answers_instead(final, trace):
        final.clear()
        final.update(kind="answer", claims={}, policy="illustrative", citations={})

    result = score_edited("clarify-en", answers_instead)
    assert codes(result) == {"clarification_missing"}
    assert result.primary_category is Category.CLARIFICATION

    def asks_for_the_wrong_thing(final, trace):
        final["missing"] = ["annual_rate"]

    assert codes(score_edited("clarify-hi", asks_for_the_wrong_thing)) == {"clarification_fields_mismatch"}


def test_clarification_case_with_a_tool_call_fails_as_clarification(score_edited, codes):
    def computes_first(final, trace):
        trace["entries"].append(
            {
                "id": "e1",
                "turn": 1,
                "tool": "calc_sip_maturity",
                "household_id": None,
                "arguments": {
                    "scenario_id": "s",
                    "as_of": "2026-09-01",
                    "monthly_installment": 10000,
                    "annual_rate": "0.12",
                    "years": 10,
                },
                "outcome": "ok",
                "message": None,
                "effect": "read",
                "result": {"source": "calc-sip-v1", "subject": "s", "as_of": "2026-09-01", "facts": {}, "data": {}},
            }
        )

    result = score_edited("clarify-ta", computes_first)
    assert codes(result) == {"call_not_allowed"}
    assert result.primary_category is Category.CLARIFICATION


def test_permission_case_needs_a_refusal(score_edited, codes):
    assert score_edited("perm-en").passed

    def clarifies(final, trace):
        final.clear()
        final.update(kind="clarification", missing=["household_id"])

    result = score_edited("perm-en", clarifies)
    assert codes(result) == {"refusal_missing"}
    assert result.critical

    def other_reason(final, trace):
        final["reason"] = "not_supported"

    assert codes(score_edited("perm-hi", other_reason)) == {"refusal_reason_mismatch"}


def test_answer_cases_fail_on_an_unneeded_question_or_refusal(score_edited, codes):
    def asks(final, trace):
        final.clear()
        final.update(kind="clarification", missing=["years"])

    def refuses(final, trace):
        final.clear()
        final.update(kind="refusal", reason="out_of_scope")

    assert codes(score_edited("fv-en", asks)) == {"clarification_unneeded"}
    assert codes(score_edited("fv-en", refuses)) == {"refusal_unneeded"}
