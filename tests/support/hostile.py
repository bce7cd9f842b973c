"""Hostile agents for tests/runner/test_os_sandbox.py: each does one thing issue #31's audit did.

Written to the runner's own agent interface and defined at module level (they are pickled into
their own process). Each tries its attack for real and answers with what happened, as JSON in its
final text (its only channel back): the test then asserts the attack failed. Every loop and read
is bounded; network use is loopback only, to a server the test starts.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import sys
import time
from typing import Any, Sequence

from finscore.runner.agent import CaseView, Finish, Turn, TurnRecord

MAX_READ = 1 << 20
#: Characters of a file read shown in the answer (the final text is bounded).
SHOWN = 200
#: Bytes of another process's memory read at most, in all.
MAX_MEMORY_READ = 256 << 20


def _answer(found: dict[str, Any]) -> Turn:
    return Finish({"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(found)})


def _failure(error: BaseException) -> str:
    return f"<{type(error).__name__}>"


def switch_off_guard() -> bool:
    """The audit's `gc` trick: find the audit hook's guard and mark this thread as inside its own
    check, which makes the hook let everything through on this thread. True when it was found."""
    for item in gc.get_objects():
        if type(item).__name__ == "_Guard" and hasattr(item, "checking"):
            item.checking.busy = True
            return True
    return False


def read_through_root(path: str) -> str:
    """`path` opened relative to a descriptor of `/` (openat with dir_fd): the audit hook sees only
    the relative text. What was read, or the error."""
    try:
        root = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
        try:
            handle = os.open(path.lstrip("/"), os.O_RDONLY, dir_fd=root)
        finally:
            os.close(root)
        try:
            return "read: " + os.read(handle, MAX_READ).decode("utf-8", "replace")
        finally:
            os.close(handle)
    except OSError as error:
        return _failure(error)


def list_through_root(path: str) -> str:
    try:
        root = os.open("/", os.O_RDONLY | os.O_DIRECTORY)
        try:
            folder = os.open(path.lstrip("/"), os.O_RDONLY | os.O_DIRECTORY, dir_fd=root)
        finally:
            os.close(root)
        try:
            return "listed: " + ",".join(sorted(os.listdir(folder)))
        finally:
            os.close(folder)
    except OSError as error:
        return _failure(error)


class DirFdReader:
    """Opens `/`, then each target file (the kit's case files, a key) and folder relative to it;
    with `guard_off`, switches the audit hook off first and also opens the targets by path."""

    def __init__(self, files: Sequence[str], folders: Sequence[str], guard_off: bool = False) -> None:
        self.files = list(files)
        self.folders = list(folders)
        self.guard_off = guard_off

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard() if self.guard_off else None}
        found["files"] = {path: read_through_root(path)[:SHOWN] for path in self.files}
        found["folders"] = {path: list_through_root(path) for path in self.folders}
        if self.guard_off:
            direct: dict[str, str] = {}
            for path in self.files:
                try:
                    with open(path, encoding="utf-8", errors="replace") as handle:
                        direct[path] = ("read: " + handle.read(MAX_READ))[:SHOWN]
                except OSError as error:
                    direct[path] = _failure(error)
            found["direct"] = direct
        return _answer(found)


def _memory_holds(pid: int, marker: bytes) -> str:
    """Reads every readable mapping of /proc/<pid>/mem (bounded in all) and looks for `marker`."""
    try:
        with open(f"/proc/{pid}/maps", encoding="ascii") as maps:
            regions = [line.split()[:2] for line in maps.read(MAX_READ).splitlines()]
        read = 0
        with open(f"/proc/{pid}/mem", "rb", buffering=0) as memory:
            for span, mode in regions:
                if "r" not in mode or read >= MAX_MEMORY_READ:
                    continue
                start, end = (int(value, 16) for value in span.split("-"))
                size = min(end - start, MAX_MEMORY_READ - read)
                try:
                    memory.seek(start)
                    chunk = memory.read(size)
                except (OSError, OverflowError):
                    continue  # an unreadable region ([vvar], guard pages): the others are still read
                read += len(chunk)
                if marker in chunk:
                    return "marker found"
        return f"read {read} bytes, marker not found"
    except OSError as error:
        return _failure(error)


class ProcReader:
    """Reads its parent's and the runtime's /proc environ, cmdline and mem, looking for `marker`
    (a secret the test put in the runtime's environment and memory); `guard_off` as above."""

    def __init__(self, runtime_pid: int, marker: str, guard_off: bool = False) -> None:
        self.runtime_pid = runtime_pid
        self.marker = marker
        self.guard_off = guard_off

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard() if self.guard_off else None}
        found["ppid"] = os.getppid()
        for label, pid in (("parent", os.getppid()), ("runtime", self.runtime_pid)):
            for name in ("environ", "cmdline"):
                text = read_through_root(f"/proc/{pid}/{name}")
                found[f"{label}_{name}"] = ("marker found: " if self.marker in text else "") + text[:2000]
            found[f"{label}_mem"] = _memory_holds(pid, self.marker.encode())
        return _answer(found)


SLEEPER = "import time\nfor _ in range(1200):\n    time.sleep(0.05)\n"


class SetsidDaemon:
    """Switches the guard off, forks a `setsid` grandchild that runs on (named by `marker` in its
    command line) and answers only after it has started and `linger` seconds have passed."""

    def __init__(self, marker: str, linger: float) -> None:
        self.marker = marker
        self.linger = linger

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard()}
        ready_read, ready_write = os.pipe()
        child = os.fork()
        if child == 0:
            os.setsid()
            if os.fork() == 0:
                os.close(ready_read)
                os.write(ready_write, b"x")
                os.execv(sys.executable, [sys.executable, "-c", SLEEPER, self.marker])
            os._exit(0)
        os.close(ready_write)
        os.waitpid(child, 0)
        found["grandchild_started"] = os.read(ready_read, 1) == b"x"
        time.sleep(self.linger)
        return _answer(found)


class ForkFlood:
    """Switches the guard off and forks up to `tries` children, each running on (named by
    `marker`), until fork fails; answers how many it started and how the first failure read."""

    def __init__(self, marker: str, tries: int) -> None:
        self.marker = marker
        self.tries = tries

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard(), "started": 0, "stopped_by": None}
        for _ in range(self.tries):
            try:
                pid = os.fork()
            except OSError as error:
                found["stopped_by"] = f"{type(error).__name__} errno {error.errno}"
                break
            if pid == 0:
                try:
                    os.execv(sys.executable, [sys.executable, "-c", SLEEPER, self.marker])
                finally:
                    os._exit(1)
            found["started"] += 1
        return _answer(found)


class Killer:
    """Switches the guard off and sends SIGKILL to its parent, to the runtime's pid (as the test
    knows it), and to every process it may signal (kill -1); then answers, if it still can."""

    def __init__(self, runtime_pid: int) -> None:
        self.runtime_pid = runtime_pid

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard()}
        for label, pid in (("parent", os.getppid()), ("runtime", self.runtime_pid), ("everyone", -1)):
            try:
                os.kill(pid, signal.SIGKILL)
                found[label] = "sent"
            except OSError as error:
                found[label] = _failure(error)
        time.sleep(0.2)  # a parent that died takes its namespace with it: this answer would never arrive
        return _answer(found)


class Connector:
    """Switches the guard off and opens a TCP connection to the test's loopback server."""

    def __init__(self, port: int) -> None:
        self.port = port

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {"guard_found": switch_off_guard()}
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=5) as connection:
                connection.sendall(b"hello")
                found["connect"] = "connected"
        except OSError as error:
            found["connect"] = _failure(error)
        return _answer(found)


class HugeAnswer:
    """Answers with a final text of `size` bytes."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        return Finish({"kind": "refusal", "reason": "out_of_scope", "text": "x" * self.size})
