"""A one-line progress bar on stderr for long runs; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
import threading
from typing import TextIO

WIDTH = 30


class ProgressBar:
    """Counts finished attempts; safe to update from several threads."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._lock = threading.Lock()

    def advance(self, label: str = "") -> None:
        with self._lock:
            self.done += 1
            if not self.enabled:
                return
            filled = WIDTH * self.done // self.total if self.total else WIDTH
            bar = "#" * filled + "." * (WIDTH - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label[:40]:<40}")
            self.stream.flush()

    def close(self) -> None:
        with self._lock:
            if self.enabled:
                self.stream.write("\n")
                self.stream.flush()
