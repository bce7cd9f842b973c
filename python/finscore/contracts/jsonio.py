"""Bounded, exact JSON reading for cases, predictions and reports.

Numbers are read as `Decimal` (a binary float would already have changed a
claimed value before it is compared), NaN/Infinity literals and duplicated keys
are refused (neither has one meaning), and every read is bounded in size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator

from finscore.contracts.errors import InputFormatError

MAX_DOCUMENT_BYTES = 1 << 20
MAX_PREDICTIONS_BYTES = 256 << 20
MAX_LINE_BYTES = 8 << 20
MAX_REPORT_BYTES = 256 << 20


class _DuplicateKey(ValueError):
    pass


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(f"duplicated key {key!r}")
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads_exact(text: str) -> Any:
    """Parse JSON text with exact decimals; raises ValueError with a readable message."""
    try:
        return json.loads(
            text,
            parse_float=Decimal,
            parse_constant=_refuse_constant,
            object_pairs_hook=_object_without_duplicates,
        )
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _read_bounded(path: Path, limit: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > limit:
            raise InputFormatError(str(path), "", f"file is {size} bytes, over the limit of {limit}")
        with path.open("rb") as handle:
            return handle.read(limit + 1)
    except OSError as error:
        raise InputFormatError(str(path), "", f"cannot read: {error.strerror or error}") from None


def read_json_document(path: Path, limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """Read one JSON document, or raise InputFormatError naming the file."""
    data = _read_bounded(path, limit)
    try:
        return loads_exact(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise InputFormatError(str(path), "", f"not UTF-8 ({error.reason})") from None
    except ValueError as error:
        raise InputFormatError(str(path), "", f"not valid JSON: {error}") from None


@dataclass(frozen=True)
class JsonLine:
    """One line of a JSON Lines file: its value, or why it could not be read."""

    number: int
    value: Any
    problem: str | None


def read_json_lines(path: Path, limit: int = MAX_PREDICTIONS_BYTES) -> Iterator[JsonLine]:
    """Yield every non-blank line, read or with its problem: a bad line is never dropped."""
    data = _read_bounded(path, limit)
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE_BYTES:
            yield JsonLine(number, None, f"line is {len(raw)} bytes, over {MAX_LINE_BYTES}")
            continue
        try:
            yield JsonLine(number, loads_exact(raw.decode("utf-8")), None)
        except UnicodeDecodeError as error:
            yield JsonLine(number, None, f"not UTF-8 ({error.reason})")
        except ValueError as error:
            yield JsonLine(number, None, f"not valid JSON: {error}")


def _encode_decimal(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


def dumps_canonical(value: Any) -> str:
    """Deterministic JSON text (sorted keys, decimals as strings), for digests."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_encode_decimal)


def dumps_pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=_encode_decimal) + "\n"
