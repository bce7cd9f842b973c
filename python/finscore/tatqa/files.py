"""Reading TAT-QA JSON files: bounded, UTF-8, and with repeated keys seen rather than lost.

A prediction file is one JSON object; the official `json.load` keeps the last
of two equal keys without a word, so the reader here keeps every (uid, value)
pair in file order and lets the join decide. The bytes, the text and the JSON
are read by the package's one reading layer (`finscore.inputs.reading`); only
the wording of the errors is TAT-QA's. Kept apart from scoring, which
takes decoded data, so the playground can hand the scorer data it read itself.
"""

from __future__ import annotations

import json
import os
from typing import Any

from finscore.inputs.bounds import MAX_TATQA_FILE_BYTES
from finscore.inputs.reading import (CPYTHON_SYNTAX, CPYTHON_UNIQUE_KEYS_SYNTAX, FileReadError, NotUtf8, loads,
                                     loads_keeping_pairs, read_bounded, utf8_text)
# Defined in the reading layer; importable from here still.
from finscore.inputs.reading import PathLike as PathLike

#: A TAT-QA gold split is about 2 MB and a prediction file less; refuse anything absurd.
MAX_FILE_BYTES = MAX_TATQA_FILE_BYTES


class TatqaInputError(ValueError):
    """Input that cannot be scored at all, with a message meant for the user."""


def _read_problem(error: FileReadError, what: str, path: str, max_bytes: int) -> str:
    if error.kind == "directory":
        return f"the {what} {path} is a directory, not a JSON file"
    if error.kind == "too_large":
        return f"the {what} {path} is {error.detail} bytes, more than the {max_bytes} allowed"
    if error.kind == "grew":  # it grew while we looked
        return f"the {what} {path} is more than the {max_bytes} bytes allowed"
    return f"cannot read the {what} {path}: {error.detail}"


def read_file_text(path: PathLike, what: str, *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The whole file as text; `what` names it in messages ("prediction file", "gold file")."""
    path = os.fspath(path)
    try:
        raw = read_bounded(path, max_bytes)
    except FileReadError as error:
        raise TatqaInputError(_read_problem(error, what, path, max_bytes)) from None
    if not raw.strip():
        raise TatqaInputError(f"the {what} {path} is empty")
    try:
        return utf8_text(raw)
    except NotUtf8 as error:
        raise TatqaInputError(f"the {what} {path} is not UTF-8 text (byte {error.byte_after_bom})") from None


def _decode(text: str, what: str, keep_pairs: bool) -> tuple[Any, list[tuple[str, Any]] | None]:
    try:
        if keep_pairs:
            return loads_keeping_pairs(text, CPYTHON_SYNTAX)
        return loads(text, CPYTHON_UNIQUE_KEYS_SYNTAX), None  # a gold has one meaning: a repeated key is refused
    except json.JSONDecodeError as error:
        raise TatqaInputError(
            f"the {what} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise TatqaInputError(f"the {what} nests JSON too deeply to read") from None
    except ValueError as error:  # e.g. an integer longer than CPython reads
        raise TatqaInputError(f"the {what} cannot be read: {error}") from None


def decode_predictions(text: str, what: str = "prediction file") -> tuple[Any, list[tuple[str, Any]] | None]:
    """(the value json.load gives, every top-level (uid, value) pair in file order, or None if not an object).

    A uid given twice is kept (the join names it a repeated prediction, or excludes it); inside, a
    prediction is a list, so no other key can repeat."""
    return _decode(text, what, keep_pairs=True)


def decode_gold(text: str, what: str = "gold file") -> Any:
    return _decode(text, what, keep_pairs=False)[0]


def read_predictions_file(path: PathLike) -> tuple[Any, list[tuple[str, Any]] | None]:
    return decode_predictions(read_file_text(path, "prediction file"), f"prediction file {path}")


def read_gold_file(path: PathLike) -> Any:
    return decode_gold(read_file_text(path, "gold file"), f"gold file {path}")
