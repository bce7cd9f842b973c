"""The one atomic writer: a file appears complete under its name, or not at all.

Text goes to a temporary name beside the target and is renamed over it, so an
interrupted run never leaves a half-written report or predictions file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from finscore.inputs.errors import FinscoreError


class OutputError(FinscoreError):
    """An output file could not be written."""


#: How text that UTF-8 cannot hold is written: a lone surrogate, which JSON can carry into a
#: string ("\\ud800") and model output may hold, becomes its backslash escape; inside a JSON
#: string that escape reads back as the same text. Never a crash half-way through a report.
ENCODING_ERRORS = "backslashreplace"


def as_written(text: str) -> str:
    """`text` as the commands write it (ENCODING_ERRORS): for a host that writes text by other means
    (the playground's saved report, made by the browser), so that its file is the command's."""
    return text.encode("utf-8", ENCODING_ERRORS).decode("utf-8")


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


def escape_what_standard_streams_cannot_encode() -> None:
    """Standard output and error write what their encoding cannot hold as backslash escapes
    (ENCODING_ERRORS) instead of raising: a command that echoes model output (a JSON line, a
    report) must not stop half-way, losing the rows after, because one answer held a lone surrogate."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a StringIO in tests has none, and needs none
        # "strict" raises; "surrogateescape" (the C.UTF-8 locale's) writes U+DC80-U+DCFF as raw
        # bytes, which is not UTF-8, and raises on every other surrogate
        if reconfigure is not None and getattr(stream, "errors", None) in ("strict", "surrogateescape"):
            reconfigure(errors=ENCODING_ERRORS)
