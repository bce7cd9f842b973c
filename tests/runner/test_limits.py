"""Deadlines: an attempt whose time is up gets no further call, at the instant it ends or after."""

from __future__ import annotations

import threading

from finscore.runner.limits import Deadline, call_before_deadline


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
