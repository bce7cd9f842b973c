"""Reading TAT-QA JSON files: bounded, UTF-8, and with repeated keys seen rather than lost.

A prediction file is one JSON object; the official `json.load` keeps the last
of two equal keys without a word, so the reader here keeps every (uid, value)
pair in file order and lets the join decide. Kept apart from scoring, which
takes decoded data, so the playground can hand the scorer data it read itself.
"""

from __future__ import annotations

import json
import os
from typing import Any, Union

#: A file name as the command line or a caller gives it.
PathLike = Union[str, os.PathLike[str]]

#: A TAT-QA gold split is about 2 MB and a prediction file less; refuse anything absurd.
MAX_FILE_BYTES = 256 << 20


class TatqaInputError(ValueError):
    """Input that cannot be scored at all, with a message meant for the user."""


class _PairsKeeper:
    """object_pairs_hook that also keeps the pairs of the last object decoded (the outermost)."""

    def __init__(self) -> None:
        self.outermost: list[tuple[str, Any]] | None = None

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        self.outermost = pairs
        return dict(pairs)


def read_file_text(path: PathLike, what: str, *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The whole file as text; `what` names it in messages ("prediction file", "gold file")."""
    path = os.fspath(path)
    try:
        if os.path.isdir(path):
            raise TatqaInputError(f"the {what} {path} is a directory, not a JSON file")
        size = os.stat(path).st_size
        if size > max_bytes:
            raise TatqaInputError(f"the {what} {path} is {size} bytes, more than the {max_bytes} allowed")
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
        if len(raw) > max_bytes:  # it grew while we looked
            raise TatqaInputError(f"the {what} {path} is more than the {max_bytes} bytes allowed")
    except OSError as error:
        raise TatqaInputError(f"cannot read the {what} {path}: {error.strerror or error}") from None
    if not raw.strip():
        raise TatqaInputError(f"the {what} {path} is empty")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TatqaInputError(f"the {what} {path} is not UTF-8 text (byte {error.start})") from None


def _decode(text: str, what: str, hook: _PairsKeeper | None) -> Any:
    try:
        return json.loads(text, object_pairs_hook=hook) if hook is not None else json.loads(text)
    except json.JSONDecodeError as error:
        raise TatqaInputError(
            f"the {what} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise TatqaInputError(f"the {what} nests JSON too deeply to read") from None
    except ValueError as error:  # e.g. an integer longer than CPython reads
        raise TatqaInputError(f"the {what} cannot be read: {error}") from None


def decode_predictions(text: str, what: str = "prediction file") -> tuple[Any, list[tuple[str, Any]] | None]:
    """(the value json.load gives, every top-level (uid, value) pair in file order, or None if not an object)."""
    keeper = _PairsKeeper()
    data = _decode(text, what, keeper)
    return data, (keeper.outermost if isinstance(data, dict) else None)


def decode_gold(text: str, what: str = "gold file") -> Any:
    return _decode(text, what, None)


def read_predictions_file(path: PathLike) -> tuple[Any, list[tuple[str, Any]] | None]:
    return decode_predictions(read_file_text(path, "prediction file"), f"prediction file {path}")


def read_gold_file(path: PathLike) -> Any:
    return decode_gold(read_file_text(path, "gold file"), f"gold file {path}")
