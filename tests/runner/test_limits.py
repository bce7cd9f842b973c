"""Deadlines: an attempt whose time is up gets no further call, at the instant it ends or after."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from finscore.runner.errors import RunnerError
from finscore.runner.limits import Deadline, Limits, call_before_deadline
from finscore.runner.sandbox import MAX_ENTRIES


class FakeClock:
    """A monotonic clock the test moves by hand, so no assertion depends on the machine's speed."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_deadline_expires_exactly_at_its_end_and_stays_expired() -> None:
    clock = FakeClock()
    deadline = Deadline(2.0, clock)
    clock.now += 1.5
    assert not deadline.expired() and deadline.remaining() == 0.5
    clock.now += 0.5
    assert deadline.expired() and deadline.remaining() == 0.0
    clock.now += 10.0
    assert deadline.expired() and deadline.remaining() == 0.0


def test_no_call_is_made_once_the_deadline_has_passed() -> None:
    clock = FakeClock()
    deadline = Deadline(1.0, clock)
    calls: list[str] = []
    for moved in (1.0, 5.0):  # at the end, and well after it
        clock.now += moved
        outcome = call_before_deadline(lambda: calls.append("called") or "reply", deadline, "late-call")
        assert outcome.timed_out and outcome.value is None and outcome.error is None
    for thread in threading.enumerate():  # a call wrongly started would have run by now
        if thread.name == "late-call":
            thread.join(timeout=30)
    assert calls == []


def test_a_call_inside_the_deadline_returns_its_value_or_its_error() -> None:
    deadline = Deadline(60.0)
    assert call_before_deadline(lambda: "reply", deadline).value == "reply"
    failed = call_before_deadline(lambda: 1 // 0, deadline)
    assert isinstance(failed.error, ZeroDivisionError) and not failed.timed_out


def test_the_tool_call_limit_the_error_names_is_the_largest_accepted() -> None:
    with pytest.raises(RunnerError) as refused:
        Limits(max_tool_calls=MAX_ENTRIES)
    largest = int(re.search(r"between 0 and (\d+)", str(refused.value)).group(1))  # type: ignore[union-attr]
    assert Limits(max_tool_calls=largest).max_tool_calls == largest
    for over in (largest + 1, MAX_ENTRIES + 1, 10 * MAX_ENTRIES):
        with pytest.raises(RunnerError):
            Limits(max_tool_calls=over)


def test_an_abandoned_call_does_not_keep_the_process_alive() -> None:
    # the runtime abandons a call at the deadline (and kills the agent's process); the thread
    # left waiting must not stop the evaluator's own process from exiting
    script = (
        "import time\n"
        "from finscore.runner.limits import Deadline, call_before_deadline\n"
        "outcome = call_before_deadline(lambda: time.sleep(3600), Deadline(0.2))\n"
        "print('timed out' if outcome.timed_out else 'returned')\n"
    )
    python = Path(__file__).resolve().parents[2] / "python"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(python), "PATH": "/usr/bin:/bin"})
    assert (done.returncode, done.stdout.strip()) == (0, "timed out"), done.stderr
