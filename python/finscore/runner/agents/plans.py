"""What a case's contract asks of a scripted agent: the calls its plan names and the final
response its gold describes, with citations to the recorded entries that support each claim.

The oracle follows this exactly; each faulty agent follows it but for its one mistake.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Mapping, Sequence

from finscore.runner.agent import CaseView, Observation, ToolCall, TurnRecord

_FINAL_TEXT = {
    "answer": "Computed with the session's tools; see the cited results.",
    "clarification": "I need this before I can compute anything.",
    "refusal": "I cannot act on that request in this session.",
}


def contract(case: Mapping[str, Any]) -> Mapping[str, Any]:
    found: Mapping[str, Any] = case.get("contract", {})
    return found


def planned_requirements(case: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The calls a case's plan asks for, in order: sequence steps or required calls."""
    plan = contract(case).get("trace", {}).get("plan", {})
    if plan.get("kind") == "sequence":
        return list(plan.get("steps", []))
    if plan.get("kind") == "requirements":
        return list(plan.get("required_calls", []))
    return []


def typed_argument(spec: Mapping[str, Any]) -> Any:
    """A requirement's typed value as an agent would send it (decimals as canonical strings)."""
    if spec.get("type") == "integer":
        return int(spec["value"])
    return spec["value"]


def planned_calls(case: Mapping[str, Any]) -> list[ToolCall]:
    return [
        ToolCall(
            name=requirement["tool"],
            arguments={name: typed_argument(spec) for name, spec in requirement.get("arguments", {}).items()},
        )
        for requirement in planned_requirements(case)
    ]


def observations_of(history: Sequence[TurnRecord]) -> list[Observation]:
    return [observation for turn in history for observation in turn.observations]


def _same_number(left: Any, right: Any) -> bool:
    try:
        return Decimal(str(left)) == Decimal(str(right))
    except (InvalidOperation, ValueError):
        return False


def supports(result: Mapping[str, Any] | None, fact_name: str, fields: Mapping[str, Any]) -> bool:
    """Does this result carry the claim's fact with the claim's source, subject, date, unit and value?"""
    if not result:
        return False
    fact = result.get("facts", {}).get(fact_name)
    return (
        isinstance(fact, Mapping)
        and all(result.get(key) == fields.get(key) for key in ("source", "subject", "as_of") if key in fields)
        and fact.get("unit") == fields.get("unit")
        and _same_number(fact.get("value"), fields.get("value"))
    )


def supporting_id(
    fields: Mapping[str, Any],
    fact_name: str,
    observations: Iterable[Observation],
    cached: Iterable[Mapping[str, Any]],
    cached_ok: bool,
) -> str | None:
    """The recorded entry (or, when the contract permits, cached item) that supports the claim."""
    for observation in observations:
        if observation.outcome == "ok" and supports(observation.result, fact_name, fields):
            return observation.entry_id
    if cached_ok:
        for item in cached:
            if supports(item.get("result"), fact_name, fields):
                return str(item.get("id"))
    return None


def claim_fact(name: str, claim: Mapping[str, Any]) -> str:
    fact = claim.get("evidence", {}).get("fact")
    return fact if isinstance(fact, str) else name


def gold_final(case: Mapping[str, Any], view: CaseView, observations: Sequence[Observation]) -> dict[str, Any]:
    """The case's expected response, with citations to the entries that support each claim."""
    terms = contract(case)
    response = terms.get("response", {})
    kind = response.get("kind")
    if kind == "clarification":
        return {"kind": "clarification", "missing": list(response.get("missing", [])), "text": _FINAL_TEXT[kind]}
    if kind == "refusal":
        return {"kind": "refusal", "reason": response.get("reason"), "text": _FINAL_TEXT[kind]}
    cached_ok = terms.get("trace", {}).get("cached_evidence") == "permitted"
    claims: dict[str, Any] = {}
    citations: dict[str, str] = {}
    for name, claim in terms.get("claims", {}).items():
        claims[name] = dict(claim.get("fields", {}))
        cited = supporting_id(claims[name], claim_fact(name, claim), observations, view.cached_evidence, cached_ok)
        if cited is not None:
            citations[name] = cited
    policy = (terms.get("policy") or {}).get("label")
    return {"kind": "answer", "claims": claims, "policy": policy, "citations": citations, "text": _FINAL_TEXT["answer"]}
