"""Scoring one attempt of one case: every check, in one place, with typed failures.

Nothing here raises on model or runtime output: a malformed record, answer or
trace becomes a failure of that attempt, which stays in the denominator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from finscore.contracts.checks.claims import ClaimCheck, compare_claims
from finscore.contracts.checks.evidence import (
    citation_format_failures,
    cited_cache_items,
    cited_passages,
    evidence_failures,
    passage,
)
from finscore.contracts.checks.response_kind import check_response
from finscore.contracts.checks.trace import check_trace
from finscore.contracts.errors import InputFormatError
from finscore.contracts.failures import Category, Code, Failure, failure, primary_category
from finscore.contracts.formats.final_response import parse_final
from finscore.contracts.formats.models import STATUSES, Answer, Case, FinalResponse, PredictionRecord, Trace, TraceEntry
from finscore.contracts.formats.traces import parse_trace
from finscore.world import Passage

_STATUS_CODES: dict[str, Code] = {
    "crashed": Code.RUN_CRASHED,
    "timeout": Code.RUN_TIMEOUT,
    "step_limit": Code.RUN_STEP_LIMIT,
    "incomplete": Code.RUN_INCOMPLETE,
    "malformed_output": Code.OUTPUT_MALFORMED,
}


@dataclass(frozen=True)
class AttemptResult:
    case_id: str
    family: str
    language: str
    attempt: int
    attempted: bool
    submitted: bool
    completed: bool
    failures: tuple[Failure, ...]
    claim_checks: tuple[ClaimCheck, ...]
    trace: Trace | None
    #: Cached items and document passages the answer cites: the report keeps them beside the trace.
    cited_cache: tuple[TraceEntry, ...] = ()
    cited_passages: tuple[Passage, ...] = ()

    @property
    def passed(self) -> bool:
        return self.completed and not self.failures

    @property
    def primary_category(self) -> Category | None:
        return primary_category(self.failures)

    @property
    def critical(self) -> bool:
        return any(item.critical for item in self.failures)


def _status_failures(record: PredictionRecord) -> list[Failure]:
    if record.record_problem is not None:
        return [
            failure(
                Code.RECORD_MALFORMED,
                "record",
                expected="docs/contracts-format.md section 4",
                actual=record.record_problem,
            )
        ]
    if not isinstance(record.status, str) or record.status not in STATUSES:
        return [
            failure(Code.RECORD_MALFORMED, "record.status", expected=list(STATUSES), actual=repr(record.status)[:200])
        ]
    if record.status == "completed":
        return []
    detail = record.status_detail if isinstance(record.status_detail, str) else ""
    return [
        failure(
            _STATUS_CODES[record.status], "status", expected="completed", actual=record.status, message=detail[:2000]
        )
    ]


def _parse_trace(record: PredictionRecord, source: str) -> tuple[Trace | None, list[Failure]]:
    try:
        return parse_trace(record.trace, record.case_id, record.attempt, source), []
    except InputFormatError as error:
        return None, [
            failure(
                Code.TRACE_MALFORMED,
                "trace",
                expected="docs/contracts-format.md section 5",
                actual=error.where,
                message=error.problem,
            )
        ]


def _parse_final(record: PredictionRecord, source: str) -> tuple[FinalResponse | None, list[Failure]]:
    try:
        return parse_final(record.final, source), []
    except InputFormatError as error:
        return None, [
            failure(
                Code.FINAL_MALFORMED,
                "final",
                expected="docs/contracts-format.md section 4",
                actual=error.where,
                message=error.problem,
            )
        ]


def _linked(failures: list[Failure], case: Case, trace: Trace | None, answer: Answer) -> list[Failure]:
    """Point each claim failure at the evidence its claim cites, and a policy failure at the first cited evidence."""

    def resolves(citation: object) -> bool:
        if not isinstance(citation, str):
            return False
        in_trace = trace is not None and trace.entry(citation) is not None
        return in_trace or citation in case.cached_evidence or passage(case, citation) is not None

    first = next((c for c in answer.citations.values() if resolves(c)), None)
    linked = []
    for item in failures:
        target: object = None
        if item.entry_id is None and item.part.startswith("claims."):
            target = answer.citations.get(item.part.split(".")[1])
        elif item.entry_id is None and item.part == "policy.label":
            target = first
        linked.append(replace(item, entry_id=target) if isinstance(target, str) and resolves(target) else item)
    return linked


def not_attempted(case: Case, attempt: int) -> AttemptResult:
    missing = failure(Code.NOT_ATTEMPTED, "record", expected=f"a prediction for attempt {attempt}", actual=None)
    return AttemptResult(case.case_id, case.family, case.language, attempt, False, False, False, (missing,), (), None)


def score_attempt(case: Case, record: PredictionRecord, source: str = "predictions") -> AttemptResult:
    """Every failure of one recorded attempt against its case's contract."""
    where = f"{source} line {record.line}"
    status_failures = _status_failures(record)
    trace: Trace | None = None
    trace_failures: list[Failure] = []
    if not (record.cut_short and record.trace is None):  # a trace the cut removed is no runtime failure
        trace, trace_failures = _parse_trace(record, where)
    final: FinalResponse | None = None
    final_failures: list[Failure] = []
    if not status_failures:
        final, final_failures = _parse_final(record, where)
    failures = status_failures + trace_failures + final_failures
    checks: list[ClaimCheck] = []
    cited: list[TraceEntry] = []
    passages: list[Passage] = []
    if final is not None:
        failures.extend(check_response(case, final))
        if isinstance(final, Answer) and case.response.kind == "answer":
            failures.extend(citation_format_failures(final))
            checks, claim_failures = compare_claims(case.claims, final.claims)
            failures.extend(claim_failures)
            if trace is not None:
                failures.extend(evidence_failures(case, trace, final, checks))
                cited = cited_cache_items(case, trace, final)
                passages = cited_passages(case, trace, final)
    if isinstance(final, Answer):
        failures = _linked(failures, case, trace, final)
    if trace is not None:
        failures.extend(check_trace(case, trace, cited, include_plan=final is not None))
    return AttemptResult(
        case_id=case.case_id,
        family=case.family,
        language=case.language,
        attempt=record.attempt,
        attempted=True,
        submitted=record.final is not None,
        completed=final is not None,
        failures=tuple(failures),
        claim_checks=tuple(checks),
        trace=trace,
        cited_cache=tuple(cited),
        cited_passages=tuple(passages),
    )
