"""Reading the JSON files of `finscore finqa`, with errors a user can act on.

Kept apart from scoring, which takes decoded JSON, so that the playground can
hand the scorer data it read its own way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from finscore.finqa.inputs import FinqaInputError

#: A FinQA split is a few megabytes; refuse anything absurd before reading it into memory.
MAX_FILE_BYTES = 1 << 30


def read_json_file(path: str | Path, what: str) -> Any:
    """Decode a whole JSON file; `what` names it in messages ("prediction file", "gold file")."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise FinqaInputError(f"the {what} {path} is a directory, not a JSON file")
        if size > MAX_FILE_BYTES:
            raise FinqaInputError(f"the {what} {path} is {size} bytes, more than the {MAX_FILE_BYTES} allowed")
        raw = path.read_bytes()
    except OSError as error:
        raise FinqaInputError(f"cannot read the {what} {path}: {error.strerror or error}") from None
    if not raw.strip():
        raise FinqaInputError(f"the {what} {path} is empty")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FinqaInputError(f"the {what} {path} is not UTF-8 text (byte {error.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FinqaInputError(
            f"the {what} {path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise FinqaInputError(f"the {what} {path} nests JSON too deeply to read") from None
