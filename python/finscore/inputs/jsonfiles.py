"""The exact formats' JSON and JSON Lines files (cases, predictions, reports), and FinQA's.

They are read through the package's one reading layer (`finscore.inputs.reading`):
every read is bounded in size, accepts a UTF-8 byte-order mark, reports
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

# The bounds are defined once, in inputs/bounds.py; importable from here still.
from finscore.inputs.bounds import MAX_DOCUMENT_BYTES as MAX_DOCUMENT_BYTES
from finscore.inputs.bounds import MAX_PREDICTION_LINE_BYTES
from finscore.inputs.bounds import MAX_PREDICTIONS_BYTES as MAX_PREDICTIONS_BYTES
from finscore.inputs.bounds import MAX_REPORT_BYTES as MAX_REPORT_BYTES
from finscore.inputs.errors import InputFormatError
from finscore.inputs.reading import (CPYTHON_SYNTAX, CPYTHON_UNIQUE_KEYS_SYNTAX, EXACT_SYNTAX, FileReadError, NotUtf8,
                                     locate_repeated_key, numbered_lines, utf8_text)
from finscore.inputs.reading import read_bounded as read_bounded_bytes
# Defined in the reading layer; importable from here still.
from finscore.inputs.reading import DuplicateKeyError as DuplicateKeyError
from finscore.inputs.reading import loads as _loads_under
from finscore.inputs.reading import object_without_duplicates as object_without_duplicates

#: One line of a predictions file.
MAX_LINE_BYTES = MAX_PREDICTION_LINE_BYTES

Problem = Literal["unreadable", "directory", "too_large", "empty", "not_utf8", "not_json", "repeated_key"]


@dataclass(frozen=True)
class JsonRules:
    """How the JSON text itself is read: `exact` gives Decimal numbers and refuses NaN and duplicated keys;
    `unique_keys` refuses duplicated keys under CPython's reading too."""

    exact: bool
    unique_keys: bool = False


EXACT = JsonRules(exact=True)
#: What CPython's `json.loads` accepts (floats, NaN, the last of duplicated keys).
PYTHON = JsonRules(exact=False)
#: CPython's reading, a key given twice refused (JsonFileError kind "repeated_key"): FinQA's and ConvFinQA's files.
PYTHON_UNIQUE_KEYS = JsonRules(exact=False, unique_keys=True)


class JsonFileError(InputFormatError):
    """A JSON file cannot be read as one; `kind` says why, for callers that word it their own way."""

    def __init__(self, path: Path, kind: Problem, problem: str, *, detail: str = "") -> None:
        self.path = path
        self.kind = kind
        #: The bare reason (a strerror, a JSON message with its line and column, a byte offset, a repeated key).
        self.detail = detail
        #: For a repeated key: the top-level entry holding it (a list index, an object's key; None: the top level).
        self.entry: int | str | None = None
        super().__init__(str(path), "", problem)


def loads_exact(text: str) -> Any:
    """Parse JSON text with exact decimals, no NaN/Infinity, no duplicated keys; raises ValueError."""
    try:
        return _loads_under(text, EXACT_SYNTAX)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _loads(text: str, rules: JsonRules) -> Any:
    if rules.exact:
        return loads_exact(text)
    try:
        return _loads_under(text, CPYTHON_UNIQUE_KEYS_SYNTAX if rules.unique_keys else CPYTHON_SYNTAX)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _json_detail(error: ValueError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    return str(error)


def _utf8_problem(start: int, reason: str) -> str:
    return f"not UTF-8 text (byte {start}: {reason})"


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or JsonFileError naming it."""
    try:
        return read_bounded_bytes(path, limit)
    except FileReadError as error:
        if error.kind == "directory":
            raise JsonFileError(path, "directory", "is a directory, not a file", detail=str(path)) from None
        if error.kind == "too_large":
            raise JsonFileError(path, "too_large", f"file is {error.detail} bytes, over the limit of {limit}",
                                detail=error.detail) from None
        if error.kind == "grew":
            raise JsonFileError(path, "too_large", f"file is over the limit of {limit} bytes",
                                detail=error.detail) from None
        raise JsonFileError(path, "unreadable", f"cannot read: {error.detail}", detail=error.detail) from None


def read_json_document(path: Path, limit: int = MAX_DOCUMENT_BYTES, rules: JsonRules = EXACT) -> Any:
    """Read one JSON document, or raise JsonFileError naming the file and the problem."""
    data = read_bounded(path, limit)
    if not data.strip():
        raise JsonFileError(path, "empty", "file is empty")
    try:
        text = utf8_text(data)
    except NotUtf8 as error:
        raise JsonFileError(path, "not_utf8", _utf8_problem(error.byte, error.reason), detail=str(error.byte)) from None
    try:
        return _loads(text, rules)
    except DuplicateKeyError as error:
        if rules.exact:
            raise JsonFileError(path, "not_json", f"not valid JSON: {error}", detail=_json_detail(error)) from None
        raise _repeated_key(path, text, error) from None
    except ValueError as error:
        raise JsonFileError(path, "not_json", f"not valid JSON: {error}", detail=_json_detail(error)) from None


def _repeated_key(path: Path, text: str, error: DuplicateKeyError) -> JsonFileError:
    """The error of a file that gives a key twice: `detail` the key, `entry` the top-level entry holding it."""
    found = locate_repeated_key(text, CPYTHON_SYNTAX)
    entry, key = found if found is not None else (None, error.key)
    where = "" if entry is None else (f" (entry {entry})" if isinstance(entry, int) else f" (under {entry!r})")
    failure = JsonFileError(path, "repeated_key", f"has the key {key!r} twice in one object{where}", detail=key)
    failure.entry = entry
    return failure


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
    for line in numbered_lines(read_bounded(path, limit), line_limit=line_limit):
        if line.too_long:
            yield JsonLine(line.number, None, f"line is {len(line.raw)} bytes, over {line_limit}", line.raw[:line_limit])
        elif line.not_utf8 is not None:
            yield JsonLine(line.number, None, _utf8_problem(line.not_utf8.byte, line.not_utf8.reason), line.raw)
        else:
            assert line.text is not None
            try:
                yield JsonLine(line.number, _loads(line.text, rules), None)
            except ValueError as error:
                yield JsonLine(line.number, None, f"not valid JSON: {error}", line.raw)


def _encode_decimal(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


def dumps_canonical(value: Any) -> str:
    """Deterministic JSON text (sorted keys, decimals as strings), for digests."""
    from finscore.scoring.canonical import canonical_digest_json  # not loaded by the readers' callers

    return canonical_digest_json(value)


def dumps_pretty(value: Any) -> str:
    """Indented JSON for reports, decimals as strings."""
    return json.dumps(value, ensure_ascii=False, indent=2, default=_encode_decimal) + "\n"
