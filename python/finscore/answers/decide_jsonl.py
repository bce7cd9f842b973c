"""`finscore answers decide-jsonl`: one {"completion", "gold"} per line in, the decision out.

Every line is written back, in order: decided lines with "decision", lines that
cannot be decided (not JSON, no gold, a gold the protocol cannot read) with
"error". Nothing is dropped; the exit status says whether any line failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from finscore.answers.decide import as_gold, decide
from finscore.answers.gold import GoldError
from finscore.answers.protocol import Protocol
from finscore.inputs.lines import MAX_LINE, bounded_lines

#: The longest line read (bytes); a longer one is written back as an error, and the lines after it are read.
MAX_LINE_BYTES = MAX_LINE


@dataclass
class StreamSummary:
    lines: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if self.errors else 0


def _decide_line(line: str, protocol: Protocol, format: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as error:
        return {"line": line[:200], "error": f"not JSON: {error}"}
    if not isinstance(data, dict):
        return {"line": line[:200], "error": "not a JSON object"}
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
    """Decide every line of `source` (bytes: a line that is not UTF-8 gets an "error" too)."""
    summary = StreamSummary()
    for raw in bounded_lines(source, MAX_LINE_BYTES):
        if raw is not None and not raw.strip():
            continue
        summary.lines += 1
        out: dict[str, Any]
        if raw is None:
            out = {"line": None, "error": f"longer than {MAX_LINE_BYTES} bytes (its text is not kept)"}
        else:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                out = {"line": raw[:200].decode("utf-8", "replace"), "error": f"not UTF-8 text (byte {error.start})"}
            else:
                out = _decide_line(line, protocol, format)
        if "error" in out:
            summary.errors.append(f"line {summary.lines}: {out['error']}")
        sink.write(json.dumps(out, ensure_ascii=False) + "\n")
    return summary
