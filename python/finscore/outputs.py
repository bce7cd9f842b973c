"""The one atomic writer: a file appears complete under its name, or not at all.

Text goes to a temporary name beside the target and is renamed over it, so an
interrupted run never leaves a half-written report or predictions file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from finscore.inputs.errors import FinscoreError
from finscore.streams import ENCODING_ERRORS


class OutputError(FinscoreError):
    """An output file could not be written."""


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write UTF-8 `text` to `path` (creating its folder), or raise OutputError naming it."""
    target = Path(path)
    temporary = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8", errors=ENCODING_ERRORS)
        os.replace(temporary, target)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    return target


def write_output(destination: str, text: str) -> None:
    """`text` to standard output for '-', else atomically to the file `destination` (OutputError naming it)."""
    if destination == "-":
        sys.stdout.write(text)
    else:
        write_text_atomically(destination, text)
