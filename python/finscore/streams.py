"""How finscore writes text that UTF-8 cannot hold, in one place.

JSON can carry a lone surrogate ("\\ud800") into a string, and model output may
hold one; UTF-8 cannot. finscore writes it as its backslash escape, which inside a
JSON string reads back as the same text, so that a report or a stream of JSON lines
never stops half-way. This module imports nothing of finscore's: every command
loads it at start.
"""

from __future__ import annotations

import sys
from typing import TextIO

def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal (a progress bar is drawn only there); False when it cannot say."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


#: The error handler every text output of finscore is written with.
ENCODING_ERRORS = "backslashreplace"


def as_written(text: str) -> str:
    """`text` as the commands write it: for a host that writes text by other means (the
    playground's saved report, made by the browser), so that its file is the command's."""
    return text.encode("utf-8", ENCODING_ERRORS).decode("utf-8")


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
