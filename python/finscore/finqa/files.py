"""Reading the JSON files of `finscore finqa`, with errors a user can act on.

Kept apart from scoring, which takes decoded JSON, so that the playground can
hand the scorer data it read its own way. The bytes are read by the package's
one JSON file reader (`finscore.inputs`) under CPython's own JSON rules, which
are the official evaluator's, except that a key given twice in one object is
refused (the reading layer's one rule: json.load would keep the last silently);
only the wording of the errors is FinQA's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finscore.finqa.inputs import FinqaInputError
from finscore.inputs.bounds import MAX_FINQA_FILE_BYTES
from finscore.inputs.jsonfiles import PYTHON_UNIQUE_KEYS, JsonFileError, read_json_document

#: A FinQA split is a few megabytes; refuse anything absurd before reading it into memory.
MAX_FILE_BYTES = MAX_FINQA_FILE_BYTES


def _message(error: JsonFileError, what: str) -> str:
    path, detail = error.path, error.detail
    if error.kind == "unreadable":
        return f"cannot read the {what} {path}: {detail}"
    if error.kind == "directory":
        return f"the {what} {path} is a directory, not a JSON file"
    if error.kind == "too_large":
        return f"the {what} {path} is {detail} bytes, more than the {MAX_FILE_BYTES} allowed"
    if error.kind == "empty":
        return f"the {what} {path} is empty"
    if error.kind == "not_utf8":
        return f"the {what} {path} is not UTF-8 text (byte {detail})"
    if error.kind == "repeated_key":
        where = f"entry {error.entry} has" if isinstance(error.entry, int) else "has"
        return (f"the {what} {path} is not usable JSON: {where} the key {detail!r} twice in one object "
                "(which of its values is meant is unknowable)")
    if detail == "JSON nested too deeply":
        return f"the {what} {path} nests JSON too deeply to read"
    return f"the {what} {path} is not valid JSON: {detail}"


def read_json_file(path: str | Path, what: str) -> Any:
    """Decode a whole JSON file; `what` names it in messages ("prediction file", "gold file")."""
    try:
        return read_json_document(Path(path), MAX_FILE_BYTES, PYTHON_UNIQUE_KEYS)
    except JsonFileError as error:
        raise FinqaInputError(_message(error, what)) from None
