"""Agents for the runner's tests, defined at module level so they can be sent to their own process.

Each agent runs in a spawned process (finscore.runner.agent_process), so an
agent is pickled by reference: a lambda or a function local to a test cannot
be sent, and anything an agent wants the test to see must travel back in its
final response, the only channel it has.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import socket
import threading
import time
from pathlib import Path
from typing import Any, Sequence

from finscore.runner.agent import CallTools, CaseView, Finish, ToolCall, Turn, TurnRecord

FV_CALL = ToolCall(
    "calc_future_value",
    {"scenario_id": "scenario-A", "as_of": "2026-09-01", "principal": "2500000", "annual_rate": "0.06", "years": 5},
)


def answer_agent(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """The few-line agent of the interface's docstring."""
    if not history:
        return CallTools((FV_CALL,))
    seen = history[-1].observations[0]
    assert seen.result is not None
    value = seen.result["facts"]["future_value"]["value"]
    claim = {"value": value, "unit": "INR", "subject": "scenario-A", "as_of": "2026-09-01", "source": "calc-fv-v1"}
    return Finish(
        {
            "kind": "answer",
            "claims": {"future_value": claim},
            "policy": "illustrative",
            "citations": {"future_value": seen.entry_id},
        }
    )


class Returns:
    """Returns the same thing every turn (a turn, or something that is not one)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Any:
        return self.value


class FirstThen:
    """Gives `first` on its first turn and `then` on every later one."""

    def __init__(self, first: Turn, then: Turn) -> None:
        self.first = first
        self.then = then

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        return self.then if history else self.first


class Raises:
    """Raises ValueError(message) on its first turn."""

    def __init__(self, message: str) -> None:
        self.message = message

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        raise ValueError(self.message)


class TurnTally:
    """Counts, in the test's process, the turns an agent in its own process was asked for.

    The agent's only channel back is its reply, so a counting agent connects
    here once per turn and waits for the acknowledgement before it answers: when
    the attempt has ended, `count` includes every turn the agent was given.
    """

    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        host, port = self._server.getsockname()[:2]
        self.address: tuple[str, int] = (host, port)
        self._count = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, name="turn-tally", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._server.accept()
            except OSError:  # closed by close()
                return
            with connection:
                if connection.recv(1) == b"t":
                    with self._lock:
                        self._count += 1
                    connection.sendall(b"k")

    @property
    def count(self) -> int:
        with self._lock:
            return self._count

    def close(self) -> None:
        try:
            self._server.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept
        except OSError:
            pass  # already disconnected: nothing is waiting
        self._server.close()
        self._thread.join()


class FinishesOnTurn:
    """Calls a tool on its first turn, passes on later ones, finishes with `answer` on turn `turn`;
    tells `tally` (a TurnTally's address) of every turn it is given."""

    def __init__(self, turn: int, call: ToolCall, answer: dict[str, Any], tally: tuple[str, int]) -> None:
        self.turn = turn
        self.call = call
        self.answer = answer
        self.tally = tally

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        with socket.create_connection(self.tally, timeout=60) as connection:
            connection.sendall(b"t")
            if connection.recv(1) != b"k":
                raise RuntimeError("the turn tally did not acknowledge this turn")
        if len(history) + 1 < self.turn:
            return CallTools((self.call,) if not history else ())
        return Finish(self.answer)


def crashing_agent(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    raise ValueError("model output could not be parsed")


def timing_out_agent(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    raise TimeoutError("the endpoint did not answer within 120 s")


def view_reporter(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """Refuses, and reports in its text what it was shown."""
    shown = {
        "case_id": view.case_id,
        "attempt": view.attempt,
        "today": view.today,
        "household_scope": list(view.household_scope),
        "tools": [tool.name for tool in view.tools],
        "documents": [dict(passage) for passage in view.documents],
        "view": repr(view),
    }
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(shown)})


def never_returns(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    while True:  # a busy agent that ignores every deadline
        time.sleep(0.05)


def exits_at_once(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    os._exit(3)  # no exception, no reply: the process is simply gone


def hangs_up_and_lives_on(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """Closes every inherited descriptor (its pipe among them), then never ends."""
    os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    while True:
        time.sleep(0.05)


def slow_second_turn(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    if history:
        time.sleep(3600)
    return CallTools((FV_CALL,))


def _order(view: CaseView) -> ToolCall:
    return ToolCall(
        "place_order", {"household_id": view.household_scope[0], "instrument_id": "EQ-1", "side": "sell", "quantity": "1"}
    )


def gc_forger(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """Places an order, then searches every object it can reach for the recorded order and deletes it."""
    if not history:
        return CallTools((_order(view),))
    removed = 0
    for item in gc.get_objects():
        if isinstance(item, list):
            for entry in list(item):
                if isinstance(entry, dict) and entry.get("tool") == "place_order":
                    item.remove(entry)
                    removed += 1
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": f"removed {removed}", "reported_actions": []})


def gold_reader(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """Tries to read the shipped kit's gold contracts, through the package and through the file system."""
    found: dict[str, str] = {}
    try:
        from finscore.contracts import load_kit_cases

        cases = load_kit_cases()
        found["load_kit_cases"] = f"read {len(cases)} cases"
    except Exception as error:  # every way in is tried, and each outcome reported
        found["load_kit_cases"] = f"{type(error).__name__}: {error}"
    try:
        from finscore.contracts import KIT_DIRECTORY

        names = os.listdir(KIT_DIRECTORY / "cases")
        found["listdir"] = f"listed {len(names)}"
    except Exception as error:
        found["listdir"] = f"{type(error).__name__}: {error}"
    try:
        from finscore.contracts import KIT_DIRECTORY

        text = (KIT_DIRECTORY / "cases" / f"{view.case_id}.json").read_text(encoding="utf-8")
        found["open"] = f"read {len(text)} characters"
    except Exception as error:
        found["open"] = f"{type(error).__name__}: {error}"
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(found)})


class Writer:
    """Writes one file inside its working folder and tries one outside it; reports both."""

    def __init__(self, outside: str) -> None:
        self.outside = outside

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        report: dict[str, str] = {}
        for name, path in (("inside", Path("note.txt")), ("outside", Path(self.outside))):
            try:
                path.write_text("written by the agent", encoding="utf-8")
                report[name] = f"wrote {path.resolve()}"
            except Exception as error:
                report[name] = f"{type(error).__name__}: {error}"
        return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(report)})


class FileReader:
    """Tries to read one file by its path and to list its folder; reports both."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        report: dict[str, str] = {}
        for name, attempt in (("open", lambda: f"read {len(Path(self.path).read_text(encoding='utf-8'))} characters"),
                              ("listdir", lambda: f"listed {len(os.listdir(Path(self.path).parent))}")):
            try:
                report[name] = attempt()
            except Exception as error:  # each way in is tried, and each outcome reported
                report[name] = f"{type(error).__name__}: {error}"
        return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(report)})


def environment_reporter(view: CaseView, history: Sequence[TurnRecord]) -> Turn:
    """Reports its working folder, environment, resource limits and what the guard refuses."""
    probes: dict[str, str] = {}
    for name, attempt in (
        ("subprocess", lambda: __import__("subprocess").run(["true"])),
        ("ctypes", lambda: __import__("ctypes").CDLL("libc.so.6")),
        ("kill", lambda: os.kill(os.getppid(), 0)),
        ("raise_limit", lambda: resource.setrlimit(resource.RLIMIT_CPU, (-1, -1))),
        ("parent_environ", lambda: Path(f"/proc/{os.getppid()}/environ").read_bytes()),
        ("own_environ", lambda: Path("/proc/self/environ").read_bytes()),
    ):
        try:
            attempt()
            probes[name] = "allowed"
        except Exception as error:
            probes[name] = type(error).__name__
    shown = {
        "cwd": os.getcwd(),
        "listing": sorted(os.listdir(".")),
        "environment": sorted(os.environ),
        "limits": {
            name: list(resource.getrlimit(getattr(resource, name)))
            for name in ("RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NOFILE", "RLIMIT_FSIZE")
        },
        "probes": probes,
    }
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(shown)})
