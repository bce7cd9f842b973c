"""Whole runs: deterministic bytes, parallel equal to serial, every case × attempt kept, in order."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from finscore.runner.limits import Limits
from finscore.runner.orchestrate import TraceSealer, run_cases
from finscore.runner.output import PREDICTIONS_FILE, predictions_text, write_predictions
from finscore.runner import SCRIPTED_AGENTS
from finscore.runner.agents.shipped import scripted_agent

LIMITS = Limits(deadline_seconds=3, max_turns=6, max_tool_calls=5)
#: The hanging agent never answers, so its deadline only sets how long the test waits.
HANG_LIMITS = Limits(deadline_seconds=0.3, max_turns=6, max_tool_calls=5)


def run_text(
    cases: list[dict[str, Any]], name: str, parallel: int, attempts: int = 1, sealer: TraceSealer | None = None
) -> str:
    agent = scripted_agent(name, cases)
    limits = HANG_LIMITS if name == "hang" else LIMITS
    return predictions_text(run_cases(cases, agent, limits, attempts=attempts, parallel=parallel, sealer=sealer))


@pytest.mark.parametrize("name", sorted(SCRIPTED_AGENTS))
def test_parallel_runs_write_what_serial_runs_write(small_cases: list[dict[str, Any]], name: str) -> None:
    assert run_text(small_cases, name, parallel=4, attempts=2) == run_text(small_cases, name, parallel=1, attempts=2)


def test_sealed_parallel_runs_write_what_sealed_serial_runs_write(small_cases: list[dict[str, Any]]) -> None:
    sealer = TraceSealer(b"k" * 32, "run-1")
    serial = run_text(small_cases, "out_of_scope", parallel=1, attempts=2, sealer=sealer)
    assert serial == run_text(small_cases, "out_of_scope", parallel=4, attempts=2, sealer=sealer)
    assert all('"seal":{"format":"finscore-seal/2","run_id":"run-1","scope":"run"' in line for line in serial.splitlines())


def test_rerunning_a_deterministic_agent_gives_the_same_bytes(small_cases: list[dict[str, Any]]) -> None:
    first = run_text(small_cases, "oracle", parallel=1)
    assert first == run_text(small_cases, "oracle", parallel=1)
    lines = first.splitlines()  # one JSON object a line, one line a case, in case order
    assert first.endswith("\n") and [json.loads(line)["case_id"] for line in lines] == [
        case["case_id"] for case in small_cases]


def test_every_case_and_attempt_has_one_line_in_case_order(small_cases: list[dict[str, Any]]) -> None:
    agent = scripted_agent("crash", small_cases)
    results = run_cases(small_cases, agent, LIMITS, attempts=3, parallel=3)
    keys = [(result.prediction["case_id"], result.prediction["attempt"]) for result in results]
    assert keys == [(case["case_id"], attempt) for case in small_cases for attempt in range(3)]


def test_predictions_are_written_atomically_under_their_name(small_cases: list[dict[str, Any]], tmp_path: Any) -> None:
    agent = scripted_agent("oracle", small_cases)
    results = run_cases(small_cases, agent, LIMITS)
    path = write_predictions(tmp_path, results)
    assert path.name == PREDICTIONS_FILE
    assert path.read_text(encoding="utf-8") == predictions_text(results)
    assert [item.name for item in tmp_path.iterdir()] == [PREDICTIONS_FILE]


def test_parallel_attempts_survive_a_slow_reap_in_another_thread(
    small_cases: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """multiprocessing reaps finished children from whichever thread starts the next one, and
    CPython's poll reads "no such child" as "still running": a join racing that reap once ended
    an attempt as "Cannot close a process while it is still running" (CI, --parallel 6). A pause
    before a join and after a reap widens that window from microseconds to 50 ms."""
    real_waitpid = os.waitpid

    def slow_waitpid(pid: int, options: int) -> tuple[int, int]:
        if options == 0:
            time.sleep(0.05)  # a join arrives late, after its child has ended ...
        reaped = real_waitpid(pid, options)
        if reaped[0] != 0:
            time.sleep(0.05)  # ... and a reap takes its time to record the exit status
        return reaped

    monkeypatch.setattr(os, "waitpid", slow_waitpid)
    lines = run_text(small_cases, "out_of_scope", parallel=6, attempts=3).splitlines()
    decided = [json.loads(line) for line in lines]
    not_completed = [line["status_detail"] for line in decided if line["status"] != "completed"]
    assert len(decided) == len(small_cases) * 3 and not not_completed, not_completed[:2]
