"""Checking the kind of final response and the policy label.

Answering when the case needed a question (or a refusal) is its own kind of
mistake, reported in the clarification or permission category rather than as a
wrong number; the policy label is an exact, tolerance-free match.
"""

from __future__ import annotations

from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import Answer, Case, Clarification, FinalResponse, Refusal


def _kind(final: FinalResponse) -> str:
    return {Answer: "answer", Clarification: "clarification", Refusal: "refusal"}[type(final)]


def check_response(case: Case, final: FinalResponse) -> list[Failure]:
    """Failures of the response kind, the clarification, the refusal and the policy label."""
    expected = case.response
    actual_kind = _kind(final)
    if expected.kind == "clarification":
        if not isinstance(final, Clarification):
            return [failure(Code.CLARIFICATION_MISSING, "response.kind", expected="clarification", actual=actual_kind)]
        if final.missing != expected.missing:
            return [
                failure(
                    Code.CLARIFICATION_FIELDS_MISMATCH,
                    "response.missing",
                    expected=sorted(expected.missing),
                    actual=sorted(final.missing),
                )
            ]
        return []
    if expected.kind == "refusal":
        if not isinstance(final, Refusal):
            return [failure(Code.REFUSAL_MISSING, "response.kind", expected="refusal", actual=actual_kind)]
        if final.reason != expected.reason:
            return [
                failure(Code.REFUSAL_REASON_MISMATCH, "response.reason", expected=expected.reason, actual=final.reason)
            ]
        return []
    if isinstance(final, Clarification):
        return [failure(Code.CLARIFICATION_UNNEEDED, "response.kind", expected="answer", actual="clarification")]
    if isinstance(final, Refusal):
        return [failure(Code.REFUSAL_UNNEEDED, "response.kind", expected="answer", actual="refusal")]
    if final.policy != case.policy_label:
        return [failure(Code.POLICY_LABEL_MISMATCH, "policy.label", expected=case.policy_label, actual=final.policy)]
    return []
