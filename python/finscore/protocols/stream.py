"""`finscore protocols decide-jsonl`'s work: vector lines in, each written back with its decision.

One output line for every input line, in order: a line a protocol decides is written back as it
was read with the decision fields added or replaced (its `decision_key`, "reason", and any other
field the protocol writes); a line it cannot use keeps its fields (less a stale decision) and gets
"error": {"type", "line", "message"}, and the lines after it are still decided. A line naming a
FinQA table by "table_ref" is handed to the protocol with that table as "table" (from the files
given with --tables); the table is not written back. Lines are read by the shared JSON-lines
reader (`finscore.inputs.lines`).
"""

from __future__ import annotations

import json
from typing import IO, Any, Iterable, Mapping, TextIO

from finscore.inputs.lines import MAX_LINE, Source, StreamLine, json_lines, problem_words
from finscore.protocols.fields import LineError
from finscore.protocols.registry import PeerProtocol

#: Every "type" an error object can have.
ERROR_TYPES: dict[str, str] = {
    "too_long": "the line is longer than the bound of a line (its text is not kept)",
    "blank": "the line holds no JSON value",
    "not_utf8": "the line is not UTF-8 text",
    "not_json": "the line is not JSON finscore reads (json.loads refuses it, or a key is given twice)",
    "not_an_object": "the line's JSON value is not an object",
    "unknown_table": "its \"table_ref\" names no example of the --tables files",
    "bad_field": "a field the protocol reads is missing or of the wrong type",
    "not_decided": "the protocol cannot decide the line (its words say why)",
}


class TablesError(ValueError):
    """A --tables file that is not a FinQA file: its bad entries named."""


class StreamSummary:
    """What a run decided: how many lines, and each error line's number and words."""

    __slots__ = ("lines", "errors")

    def __init__(self) -> None:
        self.lines = 0
        self.errors: list[str] = []

    @property
    def exit_code(self) -> int:
        """0 when every line was decided, 1 when any was written back with "error"."""
        return 1 if self.errors else 0


def tables_of(examples: Iterable[tuple[str, Any]]) -> dict[str, list[Any]]:
    """Each FinQA example's id -> its table, from (file name, decoded FinQA file) pairs; a
    TablesError names entries without a text "id" and a list "table", and an id given two tables."""
    tables: dict[str, list[Any]] = {}
    problems: list[str] = []
    for name, document in examples:
        if not isinstance(document, list):
            problems.append(f"{name} is not a list of FinQA examples")
            continue
        for index, example in enumerate(document):
            if not isinstance(example, dict) or not isinstance(example.get("id"), str) or not isinstance(
                    example.get("table"), list):
                problems.append(f'{name} entry {index} has no text "id" and list "table"')
                continue
            seen = tables.setdefault(example["id"], example["table"])
            if seen != example["table"]:
                problems.append(f"{name} entry {index}: id {example['id']!r} was given another table before")
    if problems:
        shown = "; ".join(problems[:20]) + (f"; and {len(problems) - 20} more" if len(problems) > 20 else "")
        raise TablesError(f"--tables: {shown}")
    return tables


def _error(number: int, kind: str, message: str) -> dict[str, Any]:
    return {"type": kind, "line": number, "message": message}


class UnknownTable(LineError):
    """A line's "table_ref" names no example of the tables given."""


def with_table(data: Mapping[str, Any], tables: Mapping[str, list[Any]] | None) -> Mapping[str, Any]:
    """The line as a protocol is given it: with "table" from `tables` when it names one by "table_ref"
    (and holds no "table" of its own); an UnknownTable when the name is not among them."""
    reference = data.get("table_ref")
    if tables is None or "table" in data or reference is None:
        return data
    if not isinstance(reference, str) or reference not in tables:
        raise UnknownTable(f'"table_ref" {reference!r} names no example of the --tables files')
    return {**data, "table": tables[reference]}


def decide_value(protocol: PeerProtocol, data: Mapping[str, Any], number: int,
                 tables: Mapping[str, list[Any]] | None) -> tuple[dict[str, Any], str | None]:
    """One decoded line written back, and None; or the line with its "error" object, and the error's words."""
    try:
        given = with_table(data, tables)
    except UnknownTable as error:
        return _failed(protocol, data, number, "unknown_table", str(error))
    try:
        fields = protocol.decide_line(given)
    except LineError as error:
        return _failed(protocol, data, number, "bad_field", str(error))
    except (ValueError, TypeError, KeyError) as error:  # another protocol's words for a line it cannot use
        return _failed(protocol, data, number, "not_decided", f"{type(error).__name__}: {error}")
    return {**data, **fields}, None


def _failed(protocol: PeerProtocol, data: Mapping[str, Any], number: int, kind: str,
            message: str) -> tuple[dict[str, Any], str]:
    """The line as read, without a decision it may have carried, and its error."""
    kept = {key: value for key, value in data.items() if key not in (protocol.decision_key, "reason")}
    return {**kept, "error": _error(number, kind, message)}, message


def decide_stream_line(protocol: PeerProtocol, line: StreamLine,
                       tables: Mapping[str, list[Any]] | None) -> tuple[dict[str, Any], str | None]:
    """One StreamLine written back (see the module docstring), and its error's words or None."""
    if line.problem is not None:
        message = problem_words(line)
        shown = None if line.text is None else line.text.rstrip("\n")[:200]
        return {"line": shown, "error": _error(line.number, line.problem, message)}, message
    if not isinstance(line.value, dict):
        message = "the line's JSON value is not an object"
        return {"line": (line.text or "").rstrip("\n")[:200],
                "error": _error(line.number, "not_an_object", message)}, message
    return decide_value(protocol, line.value, line.number, tables)


def decide_jsonl(source: Source, sink: TextIO | IO[str], protocol: PeerProtocol,
                 tables: Mapping[str, list[Any]] | None = None, limit: int = MAX_LINE) -> StreamSummary:
    """Decide every line of `source` under `protocol`, writing one line to `sink` for each."""
    summary = StreamSummary()
    for line in json_lines(source, limit):
        summary.lines += 1
        out, message = decide_stream_line(protocol, line, tables)
        if message is not None:
            summary.errors.append(f"line {line.number}: {message}")
        sink.write(json.dumps(out, ensure_ascii=False) + "\n")
    return summary
