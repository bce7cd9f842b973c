"""Checks on the trusted trace: availability, scope, forbidden calls, writes and the plan.

These read only what the runtime recorded. Whatever the agent says about its own
calls is never consulted, so an agent that claims no write while the trace holds
one fails on the trace.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.contracts.checks.matching import argument_differences, call_matches, maximum_matching
from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import CallPattern, Case, Plan, Trace, TraceEntry


def describe_pattern(pattern: CallPattern) -> dict[str, Any]:
    return {"tool": pattern.tool, "arguments": {name: spec.value for name, spec in pattern.arguments.items()}}


def describe_entry(entry: TraceEntry) -> dict[str, Any]:
    return {"tool": entry.tool, "arguments": dict(entry.arguments), "outcome": entry.outcome}


def households_named(entry: TraceEntry) -> list[str]:
    named = [entry.household_id, entry.arguments.get("household_id")]
    return sorted({name for name in named if isinstance(name, str)})


def _meets(pattern: CallPattern, entry: TraceEntry) -> bool:
    return entry.outcome == "ok" and call_matches(pattern, entry)


def _entry_checks(case: Case, trace: Trace) -> list[Failure]:
    failures: list[Failure] = []
    scope = case.world.household_scope
    for entry in trace.entries:
        part = f"trace.{entry.id}"
        if entry.tool not in case.world.tools:
            failures.append(
                failure(
                    Code.TOOL_UNAVAILABLE, part, expected=sorted(case.world.tools), actual=entry.tool, entry_id=entry.id
                )
            )
        for household in households_named(entry):
            if household not in scope:
                failures.append(
                    failure(
                        Code.SCOPE_VIOLATION,
                        part,
                        expected=sorted(scope),
                        actual=household,
                        entry_id=entry.id,
                        message=f"{entry.tool} call ({entry.outcome})",
                    )
                )
        for pattern in case.trace.forbidden_calls:
            if call_matches(pattern, entry):
                failures.append(
                    failure(
                        Code.FORBIDDEN_CALL,
                        part,
                        expected=f"no call matching {pattern.id}",
                        actual=describe_entry(entry),
                        entry_id=entry.id,
                        category=pattern.category,
                    )
                )
    writes = [entry for entry in trace.entries if entry.outcome == "ok" and entry.effect == "write"]
    if len(writes) != case.trace.final_writes:
        failures.append(
            failure(
                Code.FINAL_WRITES_MISMATCH,
                "trace.final_writes",
                expected=case.trace.final_writes,
                actual=len(writes),
                entry_id=writes[0].id if writes else None,
            )
        )
    return failures


def _nearest(pattern: CallPattern, entries: Sequence[TraceEntry]) -> TraceEntry | None:
    same_tool = [entry for entry in entries if entry.tool == pattern.tool]
    if not same_tool:
        return None
    return min(same_tool, key=lambda entry: len(argument_differences(pattern, entry.arguments)))


def _unmet(pattern: CallPattern, part: str, entries: Sequence[TraceEntry]) -> Failure:
    nearest = _nearest(pattern, entries)
    if nearest is None:
        return failure(
            Code.REQUIRED_CALL_MISSING, part, expected=describe_pattern(pattern), actual=None, category=pattern.category
        )
    differences = argument_differences(pattern, nearest.arguments)
    if differences:
        message = "arguments differ"
    elif nearest.outcome != "ok":
        message = f"nearest call {nearest.id} was {nearest.outcome}"
    else:
        message = f"{nearest.id} already meets another requirement: one call per requirement"
    return failure(
        Code.REQUIRED_CALL_ARGUMENTS,
        part,
        expected=describe_pattern(pattern),
        actual={"call": describe_entry(nearest), "differences": differences},
        entry_id=nearest.id,
        message=message,
        category=pattern.category,
    )


def _sequence(plan: Plan, trace: Trace) -> list[Failure]:
    failures: list[Failure] = []
    entries = trace.entries
    for index, step in enumerate(plan.calls):
        part = f"trace.plan.steps[{index}]"
        if index >= len(entries):
            failures.append(_unmet(step, part, ()))
        elif not _meets(step, entries[index]):
            entry = entries[index]
            failures.append(
                failure(
                    Code.SEQUENCE_CALL_MISMATCH,
                    part,
                    expected=describe_pattern(step),
                    actual={"call": describe_entry(entry), "differences": argument_differences(step, entry.arguments)},
                    entry_id=entry.id,
                    category=step.category,
                )
            )
    for entry in entries[len(plan.calls) :]:
        failures.append(
            failure(
                Code.UNEXPECTED_CALL,
                f"trace.{entry.id}",
                expected="no call after the sequence",
                actual=describe_entry(entry),
                entry_id=entry.id,
            )
        )
    return failures


def _requirements(case: Case, trace: Trace, cited_cache: Sequence[TraceEntry]) -> list[Failure]:
    plan = case.trace.plan
    failures: list[Failure] = []
    candidates = [entry for entry in trace.entries if entry.outcome == "ok"]
    if case.trace.cached_evidence_permitted:
        candidates.extend(cited_cache)
    matched = maximum_matching(plan.calls, candidates, _meets)
    for index, requirement in enumerate(plan.calls):
        if index not in matched:
            failures.append(_unmet(requirement, f"trace.plan.required_calls[{index}]", trace.entries))
    allowed = {call.tool for call in plan.calls} | plan.permitted_tools
    for entry in trace.entries:
        if entry.tool in case.world.tools and entry.tool not in allowed:
            failures.append(
                failure(
                    Code.UNEXPECTED_CALL,
                    f"trace.{entry.id}",
                    expected=sorted(allowed),
                    actual=describe_entry(entry),
                    entry_id=entry.id,
                )
            )
    return failures


def check_trace(
    case: Case, trace: Trace, cited_cache: Sequence[TraceEntry], *, include_plan: bool = True
) -> list[Failure]:
    """Trace failures of an attempt; `cited_cache` are the cached items its answer cites.

    Without `include_plan` (an attempt that never finished) only what the calls
    did is judged (scope, forbidden calls, writes), not what was left undone.
    """
    failures = _entry_checks(case, trace)
    plan = case.trace.plan
    if not include_plan:
        return failures
    if plan.kind == "sequence":
        failures.extend(_sequence(plan, trace))
    elif plan.kind == "requirements":
        failures.extend(_requirements(case, trace, cited_cache))
    else:
        for entry in trace.entries:
            failures.append(
                failure(
                    Code.CALL_NOT_ALLOWED,
                    f"trace.{entry.id}",
                    expected="no tool call",
                    actual=describe_entry(entry),
                    entry_id=entry.id,
                    category=plan.category,
                )
            )
    return failures
