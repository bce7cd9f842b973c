"""Plain JSON values with exact numbers, in and out of the runner and the tool world.

Agents hand over Python objects (a scripted agent may write `0.06` as a float)
or JSON text (a chat model). Both become the same bounded JSON values, with
every non-integral number an exact `Decimal` read from its shortest text, so
the trace records `0.06` and never `0.059999999999999997779...`. Output is
written with a fixed key order and no clock or random content, so the same run
gives the same bytes.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any, Mapping

# The bounds are defined once, in inputs/bounds.py; importable from here still.
from finscore.inputs.bounds import MAX_JSON_INTEGER_BITS, MAX_PREDICTION_LINE_BYTES
from finscore.inputs.bounds import MAX_STRING as MAX_STRING
from finscore.inputs.errors import JsonValueError
from finscore.inputs.jsonfiles import loads_exact
from finscore.streams import as_written

MAX_DEPTH = 32
MAX_NODES = 200_000
MAX_INTEGER_BITS = MAX_JSON_INTEGER_BITS
#: The prediction line limit of the format: no single JSON text the runner reads is larger.
MAX_TEXT = MAX_PREDICTION_LINE_BYTES


class _Budget:
    """Counts nodes so that one agent value cannot grow without bound."""

    def __init__(self) -> None:
        self.nodes = 0

    def spend(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise JsonValueError(f"more than {MAX_NODES} JSON values")


def _check_unicode(text: str) -> None:
    """JsonValueError for a lone surrogate (JSON text may escape one, "\\ud800"): it is no Unicode
    character, and the UTF-8 trace and report could not hold it."""
    error = _encode_error(text)
    if error is not None:
        raise JsonValueError(f"a string holding a lone surrogate ({text[error.start:error.end]!r} at character "
                             f"{error.start}), which is not Unicode text")


def _encode_error(text: str) -> UnicodeEncodeError | None:
    """Why UTF-8 cannot hold `text` (a lone surrogate, the only reason), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error
    return None


def lone_surrogate_at(value: Any) -> str | None:
    """The JSON path ("question", "world.tools[0].name") of the first string in decoded JSON, in
    document order, keys included, that holds a lone surrogate, or None: for input that must be
    written as UTF-8. The path shows such a key by its backslash escape, so it can be printed."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if not item.isascii() and _encode_error(item) is not None:
                return as_written(path)
        elif isinstance(item, Mapping):
            for key, child in reversed(list(item.items())):
                where = f"{path}.{key}" if path else str(key)
                stack.append((child, where))
                stack.append((key, where))  # the key is read before its value
        elif isinstance(item, (list, tuple)):
            stack.extend((child, f"{path}[{index}]") for index, child in reversed(list(enumerate(item))))
    return None


def _convert(value: Any, depth: int, budget: _Budget) -> Any:
    budget.spend()
    if depth > MAX_DEPTH:
        raise JsonValueError(f"nested deeper than {MAX_DEPTH} levels")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise JsonValueError(f"a string of {len(value)} characters, over {MAX_STRING}")
        if not value.isascii():
            _check_unicode(value)
        return value
    if isinstance(value, int):
        if value.bit_length() > MAX_INTEGER_BITS:
            raise JsonValueError("an integer too large to be a JSON number anyone means")
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise JsonValueError(f"{value!r} is not a JSON number")
        return Decimal(repr(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise JsonValueError(f"{value} is not a JSON number")
        return value
    if isinstance(value, Mapping):
        converted: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise JsonValueError(f"an object key of type {type(key).__name__}, not a string")
            converted[key] = _convert(item, depth + 1, budget)
        return converted
    if isinstance(value, (list, tuple)):
        return [_convert(item, depth + 1, budget) for item in value]
    raise JsonValueError(f"a {type(value).__name__} is not JSON data")


def to_json_value(value: Any) -> Any:
    """A fresh, bounded copy of `value` as JSON data; floats become exact Decimals of their repr.

    The copy also means an agent that keeps a reference (or a thread abandoned at
    its deadline) cannot change what the runtime recorded.
    """
    return _convert(value, 0, _Budget())


def loads_json(text: str) -> Any:
    """Parse JSON text exactly (Decimal numbers, no NaN, no duplicated keys), bounded.

    The parsing rules are the scorer's (`finscore.inputs.jsonfiles`), so the
    runner never accepts JSON the scorer would read differently. Raises
    JsonValueError with a readable reason.
    """
    if len(text) > MAX_TEXT:
        raise JsonValueError(f"JSON text of {len(text)} characters is too long")
    try:
        parsed = loads_exact(text)
    except ValueError as error:
        raise JsonValueError(f"not valid JSON: {error}") from None
    return to_json_value(parsed)


def _write(value: Any, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, str):
        parts.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, int):
        parts.append(str(int(value)))
    elif isinstance(value, Decimal):
        parts.append(str(value))
    elif isinstance(value, Mapping):
        parts.append("{")
        for index, (key, item) in enumerate(value.items()):
            if index:
                parts.append(",")
            parts.append(json.dumps(key, ensure_ascii=False))
            parts.append(":")
            _write(item, parts)
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    else:
        raise JsonValueError(f"a {type(value).__name__} is not JSON data")


def dumps_json(value: Any) -> str:
    """Compact JSON in the value's own key order, Decimals written as exact JSON numbers.

    Call it on values that went through `to_json_value` or `loads_json`.
    """
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def _sorted(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def canonical_exact_bytes(value: Any) -> bytes:
    """The value as written and read back (exact numbers), keys sorted, compact, UTF-8.

    A lone surrogate (never in a trace the runner seals; a forged record may hold one) is
    encoded as surrogatepass writes it, so such a record fails its check instead of crashing it.
    Raises JsonValueError for a value that is not JSON data.
    """
    return dumps_json(_sorted(loads_exact(dumps_json(value)))).encode("utf-8", "surrogatepass")
