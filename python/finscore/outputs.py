"""The one atomic writer: a file appears complete under its name, or not at all.

Text goes to a temporary name beside the target and is renamed over it, so an
interrupted run never leaves a half-written report or predictions file.
"""

from __future__ import annotations

import os
from pathlib import Path

from finscore.inputs.errors import FinscoreError


class OutputError(FinscoreError):
    """An output file could not be written."""


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write UTF-8 `text` to `path` (creating its folder), or raise OutputError naming it."""
    target = Path(path)
    temporary = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    return target
