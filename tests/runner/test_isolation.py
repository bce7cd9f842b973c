"""Agents out of process: what an agent can reach from its own process, and what it cannot change.

Each test is an agent doing what issue #12 found an in-process agent could do
(walk `gc` to delete its recorded order, read the kit's gold files, write
anywhere, never return) or probing its environment; the runtime's trace, the
files outside the agent's folder and the run must come out unchanged.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support.agents import FileReader, Writer, environment_reporter, gc_forger, gold_reader, never_returns

from finscore.integrity import check_seal
from finscore.runner.episode import default_isolation, run_attempt
from finscore.runner.isolation import NETWORK_VARIABLES
from finscore.runner.limits import Limits
from finscore.runner.orchestrate import TraceSealer, run_cases

LIMITS = Limits(deadline_seconds=20, max_turns=4, max_tool_calls=4)


def text_of(line: dict[str, Any]) -> Any:
    assert line["status"] == "completed", line["status_detail"]
    return json.loads(line["final"]["text"])


def test_a_gc_forger_cannot_remove_its_recorded_order(case_by_id: dict[str, Any]) -> None:
    sealer = TraceSealer(b"k" * 32, "run-1")
    (result,) = run_cases([case_by_id["t-conc"]], gc_forger, LIMITS, sealer=sealer)
    line = result.prediction
    orders = [entry for entry in line["trace"]["entries"] if entry["tool"] == "place_order"]
    assert [(entry["outcome"], entry["effect"]) for entry in orders] == [("ok", "write")]
    assert line["final"]["text"].startswith("removed ") and line["final"]["reported_actions"] == []
    assert check_seal(line, sealer.key).problem is None  # the sealed trace is the one with the order


def test_an_agent_cannot_read_the_kits_gold_files(case_by_id: dict[str, Any]) -> None:
    """The audit hook's own refusal, so without the OS sandbox (which hides the kit altogether:
    tests/runner/test_os_sandbox.py)."""
    isolation = replace(default_isolation(LIMITS), os_sandbox="off")
    found = text_of(run_attempt(case_by_id["t-fv"], gold_reader, LIMITS, isolation=isolation).prediction)
    assert set(found) == {"load_kit_cases", "listdir", "open"}
    assert "refused in the agent's process" in found["listdir"] and "refused in the agent's process" in found["open"]
    assert found["load_kit_cases"].endswith("no cases found")  # pathlib's glob swallows the refusal: nothing found


def test_an_agent_cannot_read_the_kit_of_another_finscore_copy_on_its_path(
    case_by_id: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent gets the runtime's sys.path: when another checkout stands on it (a tool or a test
    put it there), that copy's kit is refused as well, not only the kit of the package the runtime
    imported (a clean-clone run once read 24 case files that way)."""
    cases = tmp_path / "finscore" / "contracts" / "kit" / "cases"
    cases.mkdir(parents=True)
    (cases / "t-fv.json").write_text('{"gold": "a copy of a gold contract"}', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    isolation = replace(default_isolation(LIMITS), os_sandbox="off")
    found = text_of(run_attempt(case_by_id["t-fv"], FileReader(str(cases / "t-fv.json")), LIMITS,
                                isolation=isolation).prediction)
    assert found["open"].startswith("PermissionError: refused in the agent's process"), found
    assert found["listdir"].startswith("PermissionError: refused in the agent's process"), found


def test_an_agent_writes_only_in_its_own_folder_which_is_then_removed(
    case_by_id: dict[str, Any], tmp_path: Path
) -> None:
    outside = tmp_path / "escape.txt"
    report = text_of(run_attempt(case_by_id["t-fv"], Writer(str(outside)), LIMITS).prediction)
    assert report["outside"].startswith("PermissionError") and not outside.exists()
    written = Path(report["inside"].removeprefix("wrote "))
    assert written.name == "note.txt" and written.parent.name.startswith("finscore-agent-")
    assert not written.parent.exists()


def test_the_agent_process_has_an_empty_folder_a_scrubbed_environment_and_limits(
    case_by_id: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FINSCORE_TEST_SECRET", "do-not-leak")
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    shown = text_of(run_attempt(case_by_id["t-fv"], environment_reporter, LIMITS).prediction)
    assert Path(shown["cwd"]).name.startswith("finscore-agent-") and shown["listing"] == []
    assert set(shown["environment"]) <= set(NETWORK_VARIABLES) | {"TMPDIR", "HOME"}
    assert "HTTPS_PROXY" in shown["environment"] and "FINSCORE_TEST_SECRET" not in shown["environment"]
    isolation = default_isolation(LIMITS)
    assert shown["limits"] == {
        "RLIMIT_AS": [isolation.memory_bytes] * 2,
        "RLIMIT_CPU": [isolation.cpu_seconds] * 2,
        "RLIMIT_NOFILE": [isolation.open_files] * 2,
        "RLIMIT_FSIZE": [isolation.file_bytes] * 2,
    }
    assert shown["probes"] == dict.fromkeys(
        ["subprocess", "ctypes", "kill", "raise_limit", "parent_environ", "own_environ"], "PermissionError"
    )


def test_an_agent_that_never_returns_is_killed_and_its_attempt_counted(small_cases: list[dict[str, Any]]) -> None:
    results = run_cases(small_cases[:2], never_returns, Limits(deadline_seconds=0.3), attempts=2, parallel=2)
    assert [r.prediction["status"] for r in results] == ["timeout"] * 4
    assert multiprocessing.active_children() == []


def test_while_one_thread_is_checked_another_thread_is_checked_too(tmp_path: Path) -> None:
    """The guard lets through the events its own check raises, but only on the thread checking:
    a second thread's read of a protected file is refused while the first thread's check runs."""
    import threading

    from finscore.runner.isolation import _Guard

    secret = tmp_path / "gold.json"
    secret.write_text("{}")
    guard = _Guard(str(tmp_path / "agent"), (str(secret),))
    inside, release = threading.Event(), threading.Event()
    plain_inspect = guard.inspect

    def slow_inspect(event: str, args: tuple[Any, ...]) -> None:
        if threading.current_thread().name == "first":
            inside.set()
            assert release.wait(30)
        plain_inspect(event, args)

    guard.inspect = slow_inspect  # type: ignore[method-assign]  # hold the first thread inside its check
    first = threading.Thread(target=guard, args=("open", (os.devnull, "r", 0)), name="first")
    first.start()
    assert inside.wait(30)
    try:
        with pytest.raises(PermissionError, match="refused in the agent's process: open"):
            guard("open", (str(secret), "r", 0))
    finally:
        release.set()
        first.join(30)
    assert not first.is_alive()
