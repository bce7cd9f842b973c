"""Decide program equivalence for a stream of JSON lines, one pair per line.

Input lines are objects ``{"gold": [...], "pred": [...], ...}`` (token lists,
each usually ending in ``EOF``); each is written back, in order and with its
other keys kept, with ``"equal": true|false`` added (replacing any ``equal``
already there, so recorded decisions can be diffed against ours). When the
official evaluator would have crashed on the pair, ``"divergence"`` says so.

A line that cannot be decided is never dropped and never stops the stream:
it is written back with an ``"error"`` naming its line number (an object
keeps its keys; anything else is written as ``{"line", "error", "text"}``),
and the summary lists it as an `EqualJsonlLineError`, so a caller can exit
non-zero at the end. Every line read is written back as one line, an empty one
included (as an error: it holds no row). The lines are read by the reading layer
(`finscore.inputs.lines`: not UTF-8 named by byte, a key given twice refused).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol, Sequence, TextIO

from finscore.finqa.equivalence import EquivalenceDecision, ProgramComparer, require_token_list
from finscore.inputs.lines import MAX_LINE, json_lines, row_stream_problem
from finscore.inputs.naming import PYTHON_TYPES, json_type

#: Longest line read; a longer one is reported (its text is not kept).
MAX_LINE_CHARS = MAX_LINE


class EqualJsonlLineError(ValueError):
    """One input line that could not be decided."""

    def __init__(self, line_number: int, message: str) -> None:
        super().__init__(f"line {line_number}: {message}")
        self.line_number = line_number
        self.message = message


class Comparer(Protocol):
    """Anything that decides pairs as an official `equal_program` (FinQA's or ConvFinQA's)."""

    def equal_program(self, gold_tokens: Sequence[str], pred_tokens: Sequence[str]) -> EquivalenceDecision: ...


@dataclass
class EqualJsonlSummary:
    decided: int = 0
    equal: int = 0
    used_sympy: int = 0
    divergences: int = 0
    errors: list[EqualJsonlLineError] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """Non-zero when any line could not be decided."""
        return 1 if self.errors else 0


def stream_equal_jsonl(
    source: TextIO | BinaryIO, sink: TextIO, *, explain: bool = False, comparer: Comparer | None = None
) -> EqualJsonlSummary:
    """Read pairs from ``source``, write them with ``"equal"`` to ``sink``.

    With ``explain``, each decided line also gets ``"equal_method"`` (how it
    was decided) and ``"used_sympy"``. ``comparer`` decides the pairs (default:
    FinQA's rule, a `ProgramComparer`).
    """
    summary = EqualJsonlSummary()
    comparer = comparer if comparer is not None else ProgramComparer()
    for line in json_lines(source, MAX_LINE_CHARS, chars=True):
        line_number = line.number
        if line.problem is not None:
            text = None if line.text is None else line.text.rstrip("\r\n")
            _report(sink, summary, line_number, row_stream_problem(line, MAX_LINE_CHARS), text)
            continue
        row = _check_row(line.value)
        if isinstance(row, _BadRow):
            content = row.row if row.row is not None else (line.text or "").rstrip("\r\n")
            _report(sink, summary, line_number, row.message, content)
            continue
        decision = comparer.equal_program(row["gold"], row["pred"])
        row["equal"] = decision.equal
        if decision.divergence is not None:
            row["divergence"] = decision.divergence
            summary.divergences += 1
        if explain:
            row["equal_method"] = decision.method
            row["used_sympy"] = decision.used_sympy
        summary.decided += 1
        summary.equal += decision.equal
        summary.used_sympy += decision.used_sympy
        sink.write(json.dumps(row, ensure_ascii=False) + "\n")
    return summary


@dataclass(frozen=True)
class _BadRow:
    row: dict[str, Any] | None  # the object, when the line was one
    message: str


def _check_row(row: Any) -> dict[str, Any] | _BadRow:
    if not isinstance(row, dict):
        return _BadRow(None, f"expected a JSON object, got {json_type(row, PYTHON_TYPES)}")
    for key in ("gold", "pred"):
        if key not in row:
            return _BadRow(row, f"missing {key!r}")
        try:
            require_token_list(key, row[key])
        except TypeError as error:
            return _BadRow(row, str(error))
    return row


def _report(
    sink: TextIO,
    summary: EqualJsonlSummary,
    line_number: int,
    message: str,
    content: dict[str, Any] | str | None,
) -> None:
    error = EqualJsonlLineError(line_number, message)
    summary.errors.append(error)
    if isinstance(content, dict):
        content["error"] = str(error)
        out: dict[str, Any] = content
    else:
        out = {"line": line_number, "error": str(error), "text": content}
    sink.write(json.dumps(out, ensure_ascii=False) + "\n")
