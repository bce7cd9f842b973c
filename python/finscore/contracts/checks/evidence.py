"""Citations: well-formed, resolvable, permitted and actually supporting the claim.

A citation can be perfectly formatted and still point at something that does
not say what the claim says; that is an evidence failure, reported apart from a
malformed citation (a parser failure). Support is judged on the trusted record
only: the cited result's source, subject, date, unit and value.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from finscore.contracts.checks.claims import ClaimCheck
from finscore.contracts.checks.values import within_tolerance
from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import Answer, Case, ClaimContract, Trace, TraceEntry
from finscore.inputs.fields import is_identifier

_LOCATORS = ("source", "subject", "as_of")


def citation_format_failures(answer: Answer) -> list[Failure]:
    """Citations that are not identifiers, or that cite for a claim the answer does not make."""
    failures = []
    for name, citation in answer.citations.items():
        if not is_identifier(citation) or name not in answer.claims:
            failures.append(
                failure(
                    Code.CITATION_MALFORMED,
                    f"citations.{name}",
                    expected="an entry id for a claim of this answer",
                    actual=citation,
                )
            )
    return failures


def cited_cache_items(case: Case, trace: Trace, answer: Answer) -> list[TraceEntry]:
    """Cached items the answer cites: reusing them is what makes them part of the plan."""
    items = []
    for citation in answer.citations.values():
        if isinstance(citation, str) and trace.entry(citation) is None:
            item = case.cached_evidence.get(citation)
            if item is not None and item not in items:
                items.append(item)
    return items


def _support(entry: TraceEntry, contract: ClaimContract, value: Decimal) -> dict[str, Any] | None:
    """None when the entry supports the claim, else what it actually holds."""
    result: Mapping[str, Any] = entry.result or {}
    fact = result.get("facts", {}).get(contract.evidence_fact)
    holds = {name: result.get(name) for name in _LOCATORS if name in contract.fields}
    holds["fact"] = fact
    holds["outcome"] = entry.outcome
    if entry.outcome != "ok" or any(holds[name] != contract.fields[name] for name in _LOCATORS if name in holds):
        return holds
    if fact is None or fact["unit"] != contract.fields["unit"]:
        return holds
    if not within_tolerance(Decimal(fact["value"]), value, contract.tolerance):
        return holds
    return None


def evidence_failures(case: Case, trace: Trace, answer: Answer, checks: list[ClaimCheck]) -> list[Failure]:
    """For each claim that matched its contract: its citation must resolve and support it."""
    failures = []
    for check in checks:
        if not check.passed or check.value is None:
            continue
        contract = case.claims[check.name]
        part = f"evidence.{check.name}"
        citation = answer.citations.get(check.name)
        if citation is None:
            failures.append(failure(Code.CITATION_MISSING, part, expected="a citation", actual=None))
            continue
        if not is_identifier(citation):
            continue  # already a citation_malformed parser failure
        entry = trace.entry(citation)
        from_cache = entry is None
        if from_cache:
            entry = case.cached_evidence.get(citation)
        if entry is None:
            failures.append(
                failure(Code.CITATION_UNRESOLVED, part, expected="a trace entry or cached item", actual=citation)
            )
        elif from_cache and not case.trace.cached_evidence_permitted:
            failures.append(
                failure(
                    Code.CACHED_EVIDENCE_NOT_PERMITTED,
                    part,
                    expected="a call in this trace",
                    actual=citation,
                    entry_id=citation,
                )
            )
        else:
            holds = _support(entry, contract, check.value)
            if holds is not None:
                expected: dict[str, Any] = {
                    name: contract.fields[name] for name in _LOCATORS if name in contract.fields
                }
                expected["fact"] = {
                    "name": contract.evidence_fact,
                    "value": str(check.value),
                    "unit": contract.fields["unit"],
                }
                failures.append(
                    failure(Code.EVIDENCE_UNSUPPORTED, part, expected=expected, actual=holds, entry_id=entry.id)
                )
    return failures
