"""Hostile agents against the OS sandbox (issue #31): every attack of the audit, each asserted to fail.

The agents (tests/support/hostile.py) are written to the runner's own interface and attack for
real: openat through a descriptor of `/`, /proc of the parent and of the runtime, the `gc` trick
that switches the audit hook off, a `setsid` grandchild, a fork flood, SIGKILL to the runtime,
a TCP connection to a loopback server this test starts, a 20 MB answer. Where an attack would
succeed without the sandbox, the same agent is also run with `os_sandbox="off"` first, so the
test shows what the sandbox stops, not an attack that could never work.

These tests need bubblewrap and user namespaces; elsewhere they skip with the reason, and they
are essential: under CI=true (scripts/test installs bubblewrap) a skip fails the run.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

import pytest
from support.hostile import Connector, DirFdReader, ForkFlood, HugeAnswer, Killer, ProcReader, SetsidDaemon

from finscore.contracts import KIT_DIRECTORY
from finscore.runner import os_sandbox
from finscore.runner.agent import Agent
from finscore.runner.episode import run_attempt
from finscore.runner.isolation import Isolation
from finscore.runner.limits import Limits

UNAVAILABLE = os_sandbox.unavailable_reason()
pytestmark = [
    pytest.mark.essential,
    pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no OS sandbox on this machine: {UNAVAILABLE}"),
]

TESTS = Path(__file__).resolve().parents[1]
LIMITS = Limits(deadline_seconds=30, max_turns=2, max_tool_calls=2)
SANDBOXED = Isolation.for_deadline(30, protected_paths=(str(KIT_DIRECTORY),), os_sandbox="required")
UNSANDBOXED = replace(SANDBOXED, os_sandbox="off")


def attempt(case: dict[str, Any], agent: Agent, isolation: Isolation = SANDBOXED) -> dict[str, Any]:
    """What the agent found (its final text), after asserting the attempt completed."""
    line = run_attempt(case, agent, LIMITS, isolation=isolation).prediction
    assert line["status"] == "completed", line["status_detail"]
    found: dict[str, Any] = json.loads(line["final"]["text"])
    return found


def processes_named(marker: str) -> list[int]:
    """The host's live processes whose command line holds `marker`."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as handle:
                    if marker.encode() in handle.read(1 << 16):
                        found.append(int(name))
            except OSError:
                continue  # it ended while the folder was listed
    return found


def kit_targets() -> tuple[list[str], list[str]]:
    """Every copy of the kit the runtime's interpreter can see: its case files and gold contracts."""
    copies = {KIT_DIRECTORY.resolve()}
    for entry in sys.path:
        kit = Path(entry) / "finscore" / "contracts" / "kit"
        if entry and kit.is_dir():
            copies.add(kit.resolve())
    files = [str(path) for kit in sorted(copies) for path in sorted(kit.rglob("*.json"))[:5]]
    folders = [str(kit) for kit in sorted(copies)]
    return files, folders


def test_opening_the_kit_through_a_descriptor_of_root_finds_nothing(case_by_id: dict[str, Any]) -> None:
    files, folders = kit_targets()
    assert files and all(Path(path).stat().st_size > 0 for path in files)
    agent = DirFdReader(files, folders)
    unsandboxed = attempt(case_by_id["t-fv"], agent, UNSANDBOXED)
    assert all(text.startswith("read: {") for text in unsandboxed["files"].values())  # the audit's attack works
    sandboxed = attempt(case_by_id["t-fv"], agent)
    assert set(sandboxed["files"].values()) == {"<FileNotFoundError>"}
    assert unsandboxed["folders"] and all("cases" in text for text in unsandboxed["folders"].values())
    assert set(sandboxed["folders"].values()) == {"listed: "}  # each copy of the kit is an empty folder


def test_the_key_the_case_set_and_the_output_folder_are_out_of_sight(
    case_by_id: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder on the runtime's sys.path (as `python -m` puts the working folder there) that holds
    the key, a case set or the output folder is not shown to the agent at all."""
    shown = tmp_path / "on_path"
    (shown / "cases").mkdir(parents=True)
    (shown / "out").mkdir()
    (shown / "cases" / "gold.json").write_text('{"gold": 1}', encoding="utf-8")
    (shown / "trace.key").write_text("k" * 64, encoding="ascii")
    (shown / "out" / "predictions.jsonl").write_text("{}\n", encoding="utf-8")
    (shown / "visible.txt").write_text("seen", encoding="utf-8")
    for folder in (tmp_path, shown, shown / "cases", shown / "out"):
        folder.chmod(0o755)
    monkeypatch.syspath_prepend(str(shown))
    targets = [str(shown / "cases" / "gold.json"), str(shown / "trace.key"), str(shown / "out" / "predictions.jsonl"),
               str(shown / "visible.txt")]
    agent = DirFdReader(targets, [], guard_off=True)
    assert attempt(case_by_id["t-fv"], agent, UNSANDBOXED)["files"][targets[1]] == "read: " + "k" * 64  # the attack
    for protected in (shown / "cases", shown / "trace.key", shown / "out"):
        isolation = replace(SANDBOXED, protected_paths=SANDBOXED.protected_paths + (str(protected),))
        found = attempt(case_by_id["t-fv"], agent, isolation)
        assert found["guard_found"] is True
        assert set(found["files"].values()) == {"<FileNotFoundError>"}, protected
        assert set(found["direct"].values()) == {"<FileNotFoundError>"}, protected


def test_the_home_folder_is_not_shown_even_on_sys_path(
    case_by_id: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("private", encoding="ascii")
    for folder in (tmp_path, home, home / ".ssh"):
        folder.chmod(0o755)
    (home / ".ssh" / "id_ed25519").chmod(0o644)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.syspath_prepend(str(home))
    found = attempt(case_by_id["t-fv"], DirFdReader([str(home / ".ssh" / "id_ed25519")], [str(home)]))
    assert found["files"] == {str(home / ".ssh" / "id_ed25519"): "<FileNotFoundError>"}
    assert found["folders"] == {str(home): "<FileNotFoundError>"}


@pytest.mark.parametrize("guard_off", [False, True], ids=["guard-on", "guard-switched-off-by-gc"])
def test_proc_of_the_parent_and_of_the_runtime_hold_nothing_of_the_runtime(
    case_by_id: dict[str, Any], monkeypatch: pytest.MonkeyPatch, guard_off: bool
) -> None:
    marker = "finscore-secret-" + uuid.uuid4().hex
    monkeypatch.setenv("FINSCORE_TEST_SECRET", marker)
    in_memory = marker.encode() * 3  # in this process's heap, as the key is in the runtime's  # noqa: F841
    found = attempt(case_by_id["t-fv"], ProcReader(os.getpid(), marker, guard_off=guard_off))
    assert found["guard_found"] is (True if guard_off else None)
    assert found["ppid"] != os.getpid()
    assert marker not in json.dumps({key: value for key, value in found.items() if key != "guard_found"})
    assert not any(str(value).startswith("marker found") for value in found.values())
    assert found["runtime_environ"] in ("<FileNotFoundError>", "<PermissionError>")  # no such pid in its /proc
    assert found["runtime_mem"] in ("<FileNotFoundError>", "<PermissionError>")


@pytest.fixture()
def watcher() -> Iterator[dict[str, Any]]:
    """Watches the host's process table for a marker while an attempt runs (bounded: 60 s)."""
    state: dict[str, Any] = {"marker": "finscore-daemon-" + uuid.uuid4().hex, "seen": 0, "stop": threading.Event()}

    def watch() -> None:
        for _ in range(1200):
            if state["stop"].is_set():
                return
            state["seen"] = max(state["seen"], len(processes_named(state["marker"])))
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    yield state
    state["stop"].set()
    thread.join(10)
    for pid in processes_named(state["marker"]):  # never left behind by this test, whatever happened
        os.kill(pid, 9)


def test_a_setsid_grandchild_dies_with_its_attempt(case_by_id: dict[str, Any], watcher: dict[str, Any]) -> None:
    found = attempt(case_by_id["t-fv"], SetsidDaemon(watcher["marker"], linger=2.0))
    assert found == {"guard_found": True, "grandchild_started": True}
    assert watcher["seen"] == 1  # it ran, outside the agent's session, while the attempt lasted
    assert processes_named(watcher["marker"]) == []  # and nothing of it is left once the attempt ended


def test_a_fork_flood_is_bounded_by_the_process_limit_and_dies_with_its_attempt(
    case_by_id: dict[str, Any], watcher: dict[str, Any]
) -> None:
    limited = replace(SANDBOXED, processes=12)
    found = attempt(case_by_id["t-fv"], ForkFlood(watcher["marker"], tries=500), limited)
    assert found["guard_found"] is True
    assert 0 < found["started"] < limited.processes  # the agent itself (and bwrap's init) count too
    assert found["stopped_by"] == "BlockingIOError errno 11"  # EAGAIN: RLIMIT_NPROC
    assert processes_named(watcher["marker"]) == []


KILL_DRIVER = """\
import json, os, sys
from support.hostile import Killer
from finscore.runner import Limits, load_case_set, run_cases
from finscore.runner.isolation import Isolation
cases = load_case_set().only(["fv-en", "perm-ta"]).raw
isolation = Isolation.for_deadline(30, os_sandbox="required")
results = run_cases(cases, Killer(os.getpid()), Limits(deadline_seconds=30), isolation=isolation)
print(json.dumps([[r.prediction["status"], json.loads(r.prediction["final"]["text"])] for r in results]))
"""


def test_sigkill_to_the_parent_and_the_runtime_leaves_the_run_whole(tmp_path: Path) -> None:
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "XDG_CONFIG_HOME": str(tmp_path),
                   "PYTHONPATH": os.pathsep.join([str(TESTS), *sys.path])}
    done = subprocess.run([sys.executable, "-c", KILL_DRIVER], env=environment, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr  # the runtime was not killed
    results = json.loads(done.stdout)
    assert [status for status, _ in results] == ["completed", "completed"]  # and the run went on to its end
    for _, found in results:
        assert found["guard_found"] is True
        assert found["runtime"] == "<ProcessLookupError>"  # the runtime's pid names nothing in the sandbox
        # its parent is the sandbox's init, which a signal from inside cannot kill (it answered after)


@pytest.fixture()
def loopback_server() -> Iterator[dict[str, Any]]:
    server = socket.create_server(("127.0.0.1", 0))
    state: dict[str, Any] = {"port": server.getsockname()[1], "accepted": 0}

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed at the end of the test
                return
            state["accepted"] += 1
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield state
    server.close()
    thread.join(5)


def test_a_tcp_connection_to_a_loopback_server_is_refused(
    case_by_id: dict[str, Any], loopback_server: dict[str, Any]
) -> None:
    agent = Connector(loopback_server["port"])
    assert attempt(case_by_id["t-fv"], agent, UNSANDBOXED)["connect"] == "connected"  # the server is there
    accepted = loopback_server["accepted"]
    found = attempt(case_by_id["t-fv"], agent)
    assert found["guard_found"] is True
    assert found["connect"] in ("<ConnectionRefusedError>", "<OSError>")  # its own loopback, where nothing listens
    assert loopback_server["accepted"] == accepted


def test_a_20_mb_answer_is_malformed_output(case_by_id: dict[str, Any]) -> None:
    line = run_attempt(case_by_id["t-fv"], HugeAnswer(20_000_000), LIMITS, isolation=SANDBOXED).prediction
    assert line["status"] == "malformed_output", line["status_detail"]
    assert line["final"] is None
