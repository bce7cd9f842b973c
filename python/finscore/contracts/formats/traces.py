"""Reading the trusted trace (section 5 of docs/contracts-format.md).

The trace is the runtime's record, so it is validated strictly: a trace that
breaks the format cannot be trusted for any check and fails its attempt.
"""

from __future__ import annotations

from typing import Any, Mapping

from finscore.contracts.formats.models import EFFECTS, OUTCOMES, Trace, TraceEntry
from finscore.inputs.fields import FieldReader

MAX_ENTRIES = 2000
MAX_TURN = 1_000_000
_ENTRY_FIELDS = {"id", "turn", "tool", "arguments", "household_id", "outcome", "message", "effect", "result"}


def parse_result(reader: FieldReader, raw: Any, where: str) -> Mapping[str, Any]:
    result = reader.mapping(raw, where)
    reader.keys(result, where, {"source", "subject", "as_of", "facts"}, {"data"})
    reader.identifier(result["source"], f"{where}.source")
    reader.string(result["subject"], f"{where}.subject")
    reader.date(result["as_of"], f"{where}.as_of")
    facts = reader.mapping(result["facts"], f"{where}.facts")
    for name, fact in facts.items():
        fact_where = f"{where}.facts.{name}"
        reader.keys(reader.mapping(fact, fact_where), fact_where, {"value", "unit"})
        reader.decimal(fact["value"], f"{fact_where}.value")
        reader.string(fact["unit"], f"{fact_where}.unit")
    if "data" in result:
        reader.mapping(result["data"], f"{where}.data")
    return result


def parse_entry(reader: FieldReader, raw: Any, where: str) -> TraceEntry:
    entry = reader.mapping(raw, where)
    reader.keys(entry, where, _ENTRY_FIELDS)
    outcome = reader.choice(entry["outcome"], f"{where}.outcome", OUTCOMES)
    result = entry["result"]
    if outcome == "ok":
        result = parse_result(reader, result, f"{where}.result")
    elif result is not None:
        raise reader.fail(f"{where}.result", f"must be null when the outcome is {outcome}")
    message = reader.optional_string(entry["message"], f"{where}.message")
    if outcome != "ok" and message is None:
        raise reader.fail(f"{where}.message", f"a {outcome} call needs its message")
    return TraceEntry(
        id=reader.identifier(entry["id"], f"{where}.id"),
        turn=reader.integer(entry["turn"], f"{where}.turn", 0, MAX_TURN),
        tool=reader.string(entry["tool"], f"{where}.tool"),
        arguments=reader.mapping(entry["arguments"], f"{where}.arguments"),
        household_id=reader.optional_string(entry["household_id"], f"{where}.household_id"),
        outcome=outcome,  # type: ignore[arg-type]  # one of OUTCOMES: checked by reader.choice
        message=message,
        # one of EFFECTS, the Literal
        effect=reader.choice(entry["effect"], f"{where}.effect", EFFECTS),  # type: ignore[arg-type]
        result=result,
    )


def parse_trace(raw: Any, case_id: str, attempt: int, source: str) -> Trace:
    """A validated trace; raises InputFormatError (reported as `trace_malformed`)."""
    reader = FieldReader(source)
    trace = reader.mapping(raw, "trace")
    reader.keys(trace, "trace", {"entries"}, {"format", "case_id", "attempt"})
    if "format" in trace and trace["format"] != "finscore-trace/1":
        raise reader.fail("trace.format", f"expected finscore-trace/1, found {trace['format']!r}")
    if "case_id" in trace and trace["case_id"] != case_id:
        raise reader.fail("trace.case_id", f"trace of {trace['case_id']!r} given for case {case_id!r}")
    if "attempt" in trace and trace["attempt"] != attempt:
        raise reader.fail("trace.attempt", f"trace of attempt {trace['attempt']!r} given for attempt {attempt}")
    raw_entries = reader.array(trace["entries"], "trace.entries", MAX_ENTRIES)
    entries = tuple(parse_entry(reader, item, f"trace.entries[{index}]") for index, item in enumerate(raw_entries))
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        if entry.id in seen:
            raise reader.fail(f"trace.entries[{index}].id", f"duplicate entry id {entry.id!r}")
        seen.add(entry.id)
    return Trace(entries)
