"""Per-case limits, and waiting for something no longer than a deadline, without Unix signals.

The runtime waits for an agent's reply (`call_before_deadline` around the
pipe read) at most until the attempt's deadline, then kills the agent's
process (finscore.runner.agent_process); no signal handler is involved, so
runs work from threads and in parallel.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from finscore.runner.errors import RunnerError
from finscore.runner.sandbox import MAX_ENTRIES

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """How long and how far one attempt may go."""

    deadline_seconds: float = 60.0
    max_turns: int = 16
    max_tool_calls: int = 32

    def __post_init__(self) -> None:
        if not (0 < self.deadline_seconds <= 86_400):
            raise RunnerError(f"the deadline must be between 0 and 86400 seconds, not {self.deadline_seconds}")
        if not (1 <= self.max_turns <= 10_000):
            raise RunnerError(f"the turn limit must be between 1 and 10000, not {self.max_turns}")
        if not (0 <= self.max_tool_calls < MAX_ENTRIES):
            raise RunnerError(f"the tool-call limit must be between 0 and {MAX_ENTRIES - 1}, not {self.max_tool_calls}")


class Deadline:
    """A point on the monotonic clock; nothing here ever reaches a trace."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return max(0.0, self._end - self._clock())

    def expired(self) -> bool:
        return self.remaining() <= 0.0


@dataclass(frozen=True)
class WorkerOutcome(Generic[T]):
    """How a turn ended: a value, an exception the agent raised, or no answer in time."""

    value: T | None = None
    error: BaseException | None = None
    timed_out: bool = False


def call_before_deadline(function: Callable[[], T], deadline: Deadline, name: str = "agent-turn") -> WorkerOutcome[T]:
    """Run `function` in a daemon thread and wait for it no longer than the deadline allows.

    The caller must make an abandoned `function` return (the runtime kills the process
    whose pipe it reads), so no thread outlives its attempt for long.
    """
    if deadline.expired():
        return WorkerOutcome(timed_out=True)
    done = threading.Event()
    box: dict[str, object] = {}

    def work() -> None:
        try:
            box["value"] = function()
        except BaseException as error:  # the agent's failure is data for the record, whatever it is
            box["error"] = error
        finally:
            done.set()

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    if not done.wait(deadline.remaining()):
        return WorkerOutcome(timed_out=True)
    if "error" in box:
        return WorkerOutcome(error=box["error"])  # type: ignore[arg-type]  # box holds the error under "error"
    return WorkerOutcome(value=box.get("value"))  # type: ignore[arg-type]  # and the value under "value"
