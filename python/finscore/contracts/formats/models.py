"""The typed shapes of cases, predictions and trusted traces.

Loaders turn JSON into these once, so every check downstream works on
validated, immutable values and never re-reads raw JSON.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, Mapping, Sequence, Union

from finscore.contracts.failures import Category
from finscore.contracts.formats.provenance import Producer
from finscore.inputs.jsonfiles import dumps_canonical
from finscore.world import World

ArgumentType = Literal["decimal", "integer", "date", "string"]
PlanKind = Literal["sequence", "requirements", "no_calls"]
Outcome = Literal["ok", "refused", "error"]
Effect = Literal["read", "write", "none"]
ResponseKind = Literal["answer", "clarification", "refusal"]
Status = Literal["completed", "crashed", "timeout", "step_limit", "incomplete", "malformed_output"]

ARGUMENT_TYPES: tuple[str, ...] = ("decimal", "integer", "date", "string")
PLAN_KINDS: tuple[str, ...] = ("sequence", "requirements", "no_calls")
OUTCOMES: tuple[str, ...] = ("ok", "refused", "error")
EFFECTS: tuple[str, ...] = ("read", "write", "none")
RESPONSE_KINDS: tuple[str, ...] = ("answer", "clarification", "refusal")
STATUSES: tuple[str, ...] = ("completed", "crashed", "timeout", "step_limit", "incomplete", "malformed_output")
NORMALIZATIONS: tuple[str, ...] = (
    "currency_symbol",
    "grouping_indian",
    "grouping_western",
    "digits_devanagari",
    "digits_tamil",
    "percent_display",
)


# --- cases ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArgumentSpec:
    """A typed argument value a call must carry (decimal rate, whole-year horizon...)."""

    type: ArgumentType
    value: Decimal | int | str


@dataclass(frozen=True)
class CallPattern:
    """A tool plus typed argument values: a requirement, a sequence step or a forbidden call."""

    id: str
    tool: str
    arguments: Mapping[str, ArgumentSpec]
    category: Category


@dataclass(frozen=True)
class Plan:
    kind: PlanKind
    calls: tuple[CallPattern, ...]
    permitted_tools: frozenset[str]
    category: Category


@dataclass(frozen=True)
class TraceContract:
    plan: Plan
    forbidden_calls: tuple[CallPattern, ...]
    final_writes: int
    cached_evidence_permitted: bool


@dataclass(frozen=True)
class ClaimTolerance:
    unit: str
    absolute: Decimal
    relative: Decimal


@dataclass(frozen=True)
class ClaimContract:
    name: str
    fields: Mapping[str, str]
    value: Decimal
    tolerance: ClaimTolerance | None
    accept: frozenset[str]
    evidence_fact: str


@dataclass(frozen=True)
class ResponseContract:
    """The response kind; for a clarification, what is missing and, for each missing name, the
    argument names that ask for it (the declared accepted set, the name itself included)."""

    kind: ResponseKind
    missing: frozenset[str]
    reason: str | None
    accepted: Mapping[str, frozenset[str]] | None = None


@dataclass(frozen=True)
class TraceEntry:
    """One call as the runtime recorded it (or a cached result it produced earlier)."""

    id: str
    turn: int
    tool: str
    arguments: Mapping[str, Any]
    household_id: str | None
    outcome: Outcome
    message: str | None
    effect: Effect
    result: Mapping[str, Any] | None


@dataclass(frozen=True)
class Case:
    """A case: its world (`finscore.world`), its contract, and the raw JSON it was read from.

    `cached_evidence` holds the world's cached items read as trace entries, by id.
    """

    case_id: str
    family: str
    language: str
    question: str
    world: World
    cached_evidence: Mapping[str, TraceEntry]
    response: ResponseContract
    claims: Mapping[str, ClaimContract]
    policy_label: str | None
    trace: TraceContract
    raw: Mapping[str, Any]


# --- predictions and traces ----------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    claims: Mapping[str, Mapping[str, Any]]
    policy: str | None
    citations: Mapping[str, Any]


@dataclass(frozen=True)
class Clarification:
    missing: frozenset[str]


@dataclass(frozen=True)
class Refusal:
    reason: str


FinalResponse = Union[Answer, Clarification, Refusal]


@dataclass(frozen=True)
class Trace:
    entries: tuple[TraceEntry, ...]

    def entry(self, entry_id: str) -> TraceEntry | None:
        return next((item for item in self.entries if item.id == entry_id), None)


@dataclass(frozen=True)
class PredictionRecord:
    """One attempt as the runtime wrote it; `final` and `trace` stay raw until scored.

    They are parsed at scoring time so that a malformed answer or trace becomes a
    typed failure of that attempt instead of an error for the whole run. `raw` is
    the whole line as read, which its seal covers.
    """

    case_id: str
    attempt: int
    status: Any
    status_detail: Any
    final: Any
    trace: Any
    line: int
    record_problem: str | None = None
    raw: Mapping[str, Any] | None = None
    producer: Producer | None = None
    #: The line ended inside its object: only its complete leading members were read, so a
    #: missing trace is the cut's doing (the parser failure), not the runtime's.
    cut_short: bool = False


def case_set_digest(cases: Sequence[Case]) -> str:
    """SHA-256 of the cases' canonical JSON: two reports pair only on the same cases, and a run's
    sealed header names the cases it ran by it."""
    text = dumps_canonical([case.raw for case in sorted(cases, key=lambda case: case.case_id)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
