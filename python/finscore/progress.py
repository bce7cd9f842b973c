"""The one progress bar of the command line, on standard error.

Drawn only on a terminal (never into a log or a pipe) and at most ten times a
second (the last step always), so it costs nothing measurable. Two ways to
drive it: a scorer reports `bar(stage, done, total)`; a runner that counts
finished attempts from several threads calls `bar.advance(label)`.
"""

from __future__ import annotations

import threading
import time
from typing import TextIO

from finscore.streams import is_terminal

MIN_INTERVAL = 0.1  # seconds between redraws
WIDTH = 30
LABEL_WIDTH = 16


class ProgressBar:
    """`stream` is drawn on only when `enabled` (default: when it is a terminal); thread-safe."""

    def __init__(self, stream: TextIO, *, total: int = 0, enabled: bool | None = None) -> None:
        self.stream = stream
        self.total = total
        self.done = 0
        self.enabled = is_terminal(stream) if enabled is None else enabled
        self._lock = threading.Lock()
        self._last_draw = 0.0
        self._drawn = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        """Show `done` of `total` in `stage` (the scorer's progress callback)."""
        with self._lock:
            self.done, self.total = done, total
            self._draw(stage)

    def advance(self, label: str = "") -> None:
        """One more of `total` finished; `label` names it."""
        with self._lock:
            self.done += 1
            self._draw(label)

    def _draw(self, label: str) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if self.done < self.total and now - self._last_draw < MIN_INTERVAL:
            return
        self._last_draw = now
        filled = min(WIDTH, WIDTH * self.done // self.total) if self.total else WIDTH
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label[:40]:<{LABEL_WIDTH}}")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar so what follows starts on a clean line."""
        with self._lock:
            if self._drawn:
                self.stream.write("\r" + " " * (WIDTH + 40) + "\r")
                self.stream.flush()
                self._drawn = False


def progress_bar(stream: TextIO, *, quiet: bool) -> ProgressBar | None:
    """A bar on `stream` when it is a terminal and the user did not ask for quiet."""
    if quiet or not is_terminal(stream):
        return None
    return ProgressBar(stream, enabled=True)
