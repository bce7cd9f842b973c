"""Reading the fields of one vector line, and the typed error for a line a protocol cannot decide.

A protocol's `decide_line` reads only the fields its peer reads; a field that is missing or of
the wrong JSON type is a `LineError` naming the field, which `finscore protocols decide-jsonl`
writes back as that line's "error" (the other lines are still decided).
"""

from __future__ import annotations

from typing import Any, Mapping


class LineError(ValueError):
    """A vector line a protocol cannot decide: a field missing or not of the type the peer reads."""


class LineExceedsBounds(LineError):
    """A line finscore does not decide because it is past finscore's declared bounds (HELM's program
    past the engine's limits): the peer would decide it, so it is named apart from a malformed line."""


def _json_type(value: Any) -> str:
    """The JSON name of a value's type ("a string", "an array", "null"), as the exact formats say it."""
    from finscore.inputs.naming import JSON_WITH_ARTICLES, json_type

    return json_type(value, JSON_WITH_ARTICLES)


def required(line: Mapping[str, Any], key: str) -> Any:
    """The value of `key` (any JSON value, null included); a LineError when the line lacks it."""
    if key not in line:
        raise LineError(f'the line has no "{key}"')
    return line[key]


def text(line: Mapping[str, Any], key: str) -> str:
    """The text of `key`; a LineError when it is missing or not a JSON string."""
    value = required(line, key)
    if not isinstance(value, str):
        raise LineError(f'"{key}" is {_json_type(value)}, not text')
    return value
