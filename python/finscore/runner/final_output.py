"""Reading an agent's final output as a `final` object (docs/contracts-format.md section 4).

The output is data: it is parsed as JSON, never evaluated. The runner only
decides whether it *is* a JSON object; whether that object has the shape of an
answer, a clarification or a refusal is the scorer's decision
(`final_malformed`), so the two failures stay distinct. Text is accepted as
exactly one JSON object, optionally wrapped in a single Markdown code fence
(how chat models commonly format JSON); nothing else is searched for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from finscore.inputs import JsonValueError, loads_json, to_json_value
from finscore.inputs.jsonvalues import MAX_STRING, MAX_TEXT

_FENCE = re.compile(r"\A```[A-Za-z]*[ \t]*\n(?P<body>.*?)\n?```\Z", re.DOTALL)


@dataclass(frozen=True)
class FinalReading:
    """The final object, or why there is none; `raw_output` keeps agent text for humans."""

    final: dict[str, Any] | None
    raw_output: str | None
    problem: str | None


def _from_text(text: str) -> FinalReading:
    kept = text if len(text) <= MAX_STRING else text[:MAX_STRING]
    if len(text) > MAX_TEXT:
        return FinalReading(None, kept, f"the final output has {len(text)} characters, over {MAX_TEXT}")
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced is not None:
        body = fenced.group("body")
    try:
        value = loads_json(body)
    except JsonValueError as error:
        return FinalReading(None, kept, f"the final output is not a JSON object: {error}")
    if not isinstance(value, dict):
        return FinalReading(None, kept, "the final output is JSON but not an object")
    return FinalReading(value, kept, None)


def read_final(output: Any) -> FinalReading:
    if isinstance(output, str):
        return _from_text(output)
    if isinstance(output, Mapping):
        try:
            return FinalReading(to_json_value(output), None, None)
        except JsonValueError as error:
            return FinalReading(None, None, f"the final output is not JSON data: {error}")
    return FinalReading(None, None, f"the final output is a {type(output).__name__}, not a JSON object or text")
