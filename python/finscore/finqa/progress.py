"""A progress bar on standard error for long scoring runs.

Drawn only on a terminal (never into a log or a pipe) and at most ten times a
second, so it costs nothing measurable; the scorer just calls it.
"""

from __future__ import annotations

import time
from typing import TextIO

MIN_INTERVAL = 0.1  # seconds between redraws
WIDTH = 30


class ProgressBar:
    """Callable as the scorer's progress(stage, done, total)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._last_draw = 0.0
        self._drawn = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last_draw < MIN_INTERVAL:
            return
        self._last_draw = now
        filled = WIDTH * done // total if total else WIDTH
        self.stream.write(f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} {stage:<16}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar so the report starts on a clean line."""
        if self._drawn:
            self.stream.write("\r" + " " * (WIDTH + 40) + "\r")
            self.stream.flush()
            self._drawn = False


def progress_bar(stream: TextIO, *, quiet: bool) -> ProgressBar | None:
    """A bar on `stream` when it is a terminal and the user did not ask for quiet."""
    if quiet:
        return None
    try:
        interactive = stream.isatty()
    except (AttributeError, ValueError):
        interactive = False
    return ProgressBar(stream) if interactive else None
