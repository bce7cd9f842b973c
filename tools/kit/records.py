"""The kit's data (kit.json, questions/*.json) as typed calls, and the records made from them.

Every trace entry of the kit is recorded by finscore's own runtime
(`finscore.runner.Sandbox` over `finscore.world`), the one that runs agents,
so the expected values, the oracle traces and the probes all come from the
same tools the runner offers and the scorer checks against.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Mapping

from finscore.inputs import FieldReader
from finscore.runner import Sandbox, ToolCall
from finscore.world import CATALOGUE, CaseWorld, parse_world

HERE = Path(__file__).parent
DATA: dict[str, Any] = json.loads((HERE / "kit.json").read_text(encoding="utf-8"))
LANGUAGES: tuple[str, ...] = tuple(DATA["languages"])
SCRIPT_OF: dict[str, str] = DATA["scripts"]
QUESTIONS: dict[str, dict[str, str]] = {
    language: json.loads((HERE / "questions" / f"{language}.json").read_text(encoding="utf-8"))
    for language in LANGUAGES
}
_ZERO = {"digits_devanagari": 0x0966, "digits_tamil": 0x0BE6}
PREDICTION_FORMAT = "finscore-prediction/1"
TRACE_FORMAT = "finscore-trace/1"


@dataclass(frozen=True)
class Call:
    """A call with typed arguments: both the contract's requirement and the oracle's call."""

    tool: str
    arguments: Mapping[str, tuple[str, Any]]

    def json_arguments(self, numbers: bool = False) -> dict[str, Any]:
        """As an agent would send them: decimals as strings, or as JSON numbers when `numbers`."""
        out: dict[str, Any] = {}
        for name, (kind, value) in self.arguments.items():
            out[name] = (float(value) if "." in value else int(value)) if kind == "decimal" and numbers else value
        return out

    def requirement(self, requirement_id: str, category: str) -> dict[str, Any]:
        arguments = {name: {"type": kind, "value": value} for name, (kind, value) in self.arguments.items()}
        return {"id": requirement_id, "tool": self.tool, "arguments": arguments, "category": category}


CALLS: dict[str, Call] = {
    name: Call(spec["tool"], {argument: (kind, value) for argument, (kind, value) in spec["arguments"].items()})
    for name, spec in DATA["calls"].items()
}


def snapshots() -> list[dict[str, Any]]:
    """The snapshots of kit.json as a case writes them."""
    fields = ("instrument_id", "name", "asset_class", "units", "price")
    return [
        {
            "snapshot_id": f"snap-{item['household_id']}-{item['as_of']}",
            "household_id": item["household_id"],
            "as_of": item["as_of"],
            "authorized": item["authorized"],
            "holdings": [dict(zip(fields, row, strict=True)) for row in item["holdings"]],
        }
        for item in DATA["snapshots"]
    ]


def tool_specs(names: list[str]) -> list[dict[str, Any]]:
    return [CATALOGUE[name].spec() for name in names]


def _plain(value: Any) -> Any:
    """Recorded JSON values back as `json` writes them: a Decimal the runtime read from a float is that float."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def execute(world: Mapping[str, Any], calls: list[Call], numbers: bool = False, turn: int = 1) -> list[dict[str, Any]]:
    """Trace entries of `calls` made in one turn against `world`, recorded by finscore's runtime."""
    parsed = parse_world(FieldReader("kit world"), world)
    sandbox = Sandbox(CaseWorld(case_id="kit", family="kit", language="en", question="", world=parsed))
    for call in calls:
        sandbox.execute(turn, ToolCall(call.tool, call.json_arguments(numbers)))
    return [_plain(entry) for entry in sandbox.entries]


def record(case_id: str, final: dict[str, Any], entries: list[dict[str, Any]], attempt: int = 0) -> dict[str, Any]:
    return {
        "format": PREDICTION_FORMAT,
        "case_id": case_id,
        "attempt": attempt,
        "status": "completed",
        "status_detail": None,
        "final": final,
        "trace": {"format": TRACE_FORMAT, "case_id": case_id, "attempt": attempt, "entries": entries},
    }


def indian_grouping(canonical: str) -> str:
    integer, dot, fraction = canonical.partition(".")
    head, tail = integer[:-3], integer[-3:]
    pairs: list[str] = []
    while head:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join(pairs + [tail]) + dot + fraction


def script_digits(text: str, script: str) -> str:
    zero = _ZERO[script]
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in text)


def displayed(value: str, unit: str, language: str) -> str:
    """How the oracle writes a value in each language: all forms the case declares."""
    if language == "hi":
        return (
            format(Decimal(value).scaleb(2).normalize(), "f") + "%" if unit == "ratio" else "₹" + indian_grouping(value)
        )
    if language == "ta":
        return script_digits(value, "digits_tamil")
    return value


def answer_from(case: dict[str, Any], cited: str, language: str) -> dict[str, Any]:
    """The oracle's answer: every claim of the contract as the language displays it, citing `cited`."""
    contract = case["contract"]
    claims, citations = {}, {}
    for name, claim in contract["claims"].items():
        fields = dict(claim["fields"])
        fields["value"] = displayed(fields["value"], fields["unit"], language)
        claims[name] = fields
        citations[name] = cited
    return {"kind": "answer", "claims": claims, "policy": contract["policy"]["label"], "citations": citations}
