"""The one reader of JSON and JSON Lines files for the whole package.

Every read is bounded in size, accepts a UTF-8 byte-order mark, reports
undecodable bytes by position and names the file (and the line) in a typed
error. The rules of the JSON itself are chosen per format: the exact formats
(cases, predictions, reports) read numbers as `Decimal` (a binary float would
already have changed a claimed value before it is compared) and refuse NaN,
Infinity and duplicated keys (none has one meaning); FinQA files are read as
CPython's `json` module reads them, because that is what the official
evaluator does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterator, Literal

from finscore.inputs.errors import InputFormatError
from finscore.scoring.canonical import canonical_digest_json

MAX_DOCUMENT_BYTES = 1 << 20
MAX_PREDICTIONS_BYTES = 256 << 20
MAX_LINE_BYTES = 8 << 20
MAX_REPORT_BYTES = 256 << 20
_BOM = b"\xef\xbb\xbf"

Problem = Literal["unreadable", "directory", "too_large", "empty", "not_utf8", "not_json"]


@dataclass(frozen=True)
class JsonRules:
    """How the JSON text itself is read: `exact` gives Decimal numbers and refuses NaN and duplicated keys."""

    exact: bool


EXACT = JsonRules(exact=True)
#: What CPython's `json.loads` accepts (floats, NaN, the last of duplicated keys).
PYTHON = JsonRules(exact=False)


class JsonFileError(InputFormatError):
    """A JSON file cannot be read as one; `kind` says why, for callers that word it their own way."""

    def __init__(self, path: Path, kind: Problem, problem: str, *, detail: str = "") -> None:
        self.path = path
        self.kind = kind
        #: The bare reason (a strerror, a JSON message with its line and column, a byte offset).
        self.detail = detail
        super().__init__(str(path), "", problem)


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (json.loads would keep the last silently)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"duplicated key {key!r}")
        self.key = key


def object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An `object_pairs_hook` for json.loads: DuplicateKeyError where a key repeats."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateKeyError(key)
        result[key] = value
    return result


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads_exact(text: str) -> Any:
    """Parse JSON text with exact decimals, no NaN/Infinity, no duplicated keys; raises ValueError."""
    try:
        return json.loads(
            text,
            parse_float=Decimal,
            parse_constant=_refuse_constant,
            object_pairs_hook=object_without_duplicates,
        )
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _loads(text: str, rules: JsonRules) -> Any:
    if rules.exact:
        return loads_exact(text)
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _json_detail(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    return str(error)


def _decode(data: bytes) -> str:
    """UTF-8 text without a leading byte-order mark; UnicodeDecodeError names the byte."""
    return data[len(_BOM) :].decode("utf-8") if data.startswith(_BOM) else data.decode("utf-8")


def _utf8_problem(error: UnicodeDecodeError, start: int) -> str:
    return f"not UTF-8 text (byte {start}: {error.reason})"


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or JsonFileError naming it."""
    try:
        if path.is_dir():
            raise JsonFileError(path, "directory", "is a directory, not a file", detail=str(path))
        size = path.stat().st_size
        if size > limit:
            raise JsonFileError(path, "too_large", f"file is {size} bytes, over the limit of {limit}", detail=str(size))
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        reason = str(error.strerror or error)
        raise JsonFileError(path, "unreadable", f"cannot read: {reason}", detail=reason) from None
    if len(data) > limit:
        raise JsonFileError(path, "too_large", f"file is over the limit of {limit} bytes", detail=str(len(data)))
    return data


def read_json_document(path: Path, limit: int = MAX_DOCUMENT_BYTES, rules: JsonRules = EXACT) -> Any:
    """Read one JSON document, or raise JsonFileError naming the file and the problem."""
    data = read_bounded(path, limit)
    if not data.strip():
        raise JsonFileError(path, "empty", "file is empty")
    try:
        text = _decode(data)
    except UnicodeDecodeError as error:
        start = error.start + (len(_BOM) if data.startswith(_BOM) else 0)
        raise JsonFileError(path, "not_utf8", _utf8_problem(error, start), detail=str(start)) from None
    try:
        return _loads(text, rules)
    except ValueError as error:
        raise JsonFileError(path, "not_json", f"not valid JSON: {error}", detail=_json_detail(error)) from None


@dataclass(frozen=True)
class JsonLine:
    """One line of a JSON Lines file: its value, or why it could not be read."""

    number: int
    value: Any
    problem: str | None
    #: The line's bytes when it could not be read, for a caller that must still say whose line it was.
    raw: bytes = b""


def read_json_lines(
    path: Path, limit: int = MAX_PREDICTIONS_BYTES, line_limit: int = MAX_LINE_BYTES, rules: JsonRules = EXACT
) -> Iterator[JsonLine]:
    """Yield every non-blank line, read or with its problem: a bad line is never dropped."""
    data = read_bounded(path, limit)
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        if len(raw) > line_limit:
            yield JsonLine(number, None, f"line is {len(raw)} bytes, over {line_limit}", raw[:line_limit])
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield JsonLine(number, None, _utf8_problem(error, error.start), raw)
            continue
        try:
            yield JsonLine(number, _loads(text, rules), None)
        except ValueError as error:
            yield JsonLine(number, None, f"not valid JSON: {error}", raw)


def _encode_decimal(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


def dumps_canonical(value: Any) -> str:
    """Deterministic JSON text (sorted keys, decimals as strings), for digests."""
    return canonical_digest_json(value)


def dumps_pretty(value: Any) -> str:
    """Indented JSON for reports, decimals as strings."""
    return json.dumps(value, ensure_ascii=False, indent=2, default=_encode_decimal) + "\n"
