"""`finscore answers decide-jsonl`: one {"completion", "gold"} per line in, the decision out.

Every line is written back, in order, one line out for each line in: decided lines
with "decision", lines that cannot be decided (empty, longer than the bound, not
UTF-8, not JSON, a key given twice, not an object, no gold, a gold the protocol
cannot read) with "error". Nothing is dropped; the exit status says whether any
line failed. The lines are read by the reading layer (`finscore.inputs.lines`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from finscore.answers.decide import as_gold, decide
from finscore.answers.gold import GoldError
from finscore.answers.protocol import Protocol
from finscore.inputs.lines import BLANK_LINE, MAX_LINE, StreamLine, json_lines, problem_words
from finscore.inputs.reading import DuplicateKeyError, NotUtf8

#: The longest line read (bytes); a longer one is written back as an error, and the lines after it are read.
MAX_LINE_BYTES = MAX_LINE


@dataclass
class StreamSummary:
    lines: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


def _unread_line(line: StreamLine) -> dict[str, Any]:
    """The record written back for a line that holds no JSON value (its text under "line")."""
    if line.problem == "too_long":
        return {"line": None, "error": f"longer than {MAX_LINE_BYTES} bytes (its text is not kept)"}
    raw = line.raw if line.raw is not None else b""
    if isinstance(line.error, NotUtf8):
        return {"line": raw[:200].decode("utf-8", "replace"), "error": f"not UTF-8 text (byte {line.error.byte})"}
    text = line.text if line.text is not None else ""
    if line.problem == "blank":
        return {"line": text[:200], "error": f"{BLANK_LINE} at line {line.number}"}
    if isinstance(line.error, DuplicateKeyError):
        return {"line": text[:200], "error": problem_words(line)}
    return {"line": text[:200], "error": f"not JSON: {line.error}"}


def _decide_line(line: StreamLine, protocol: Protocol, format: str) -> dict[str, Any]:
    if line.problem is not None:
        return _unread_line(line)
    data = line.value
    if not isinstance(data, dict):
        return {"line": (line.text or "")[:200], "error": "not a JSON object"}
    if "gold" not in data:
        return {**data, "error": 'no "gold"'}
    completion = data.get("completion")
    if completion is not None and not isinstance(completion, str):
        return {**data, "error": '"completion" is not text (null means a missing prediction)'}
    try:
        gold = as_gold(data["gold"], protocol)
    except GoldError as error:
        return {**data, "error": f"gold: {error}"}
    return {**data, "decision": decide(completion, gold, protocol, format).to_json()}


def stream_decide_jsonl(source: BinaryIO, sink: TextIO, protocol: Protocol, format: str) -> StreamSummary:
    """Decide every line of `source` (bytes: a line that is not UTF-8 gets an "error" too), one
    line written for each line read, an empty one included."""
    summary = StreamSummary()
    for line in json_lines(source, MAX_LINE_BYTES):
        summary.lines += 1
        out = _decide_line(line, protocol, format)
        if "error" in out:
            summary.errors.append(f"line {line.number}: {out['error']}")
        sink.write(json.dumps(out, ensure_ascii=False) + "\n")
    return summary
