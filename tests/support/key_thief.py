"""A hostile agent, written to the runner's own agent interface, that looks for the trace key.

Imported by the driver of tests/runner/test_key_secrecy.py, it registers itself as the scripted
agent `key_thief`. In its process it reads its own sys.argv and os.environ, its /proc/self/environ
and cmdline and the runtime's /proc/<ppid>/cmdline (through a directory descriptor, so that the
audit hook's path check does not stop the read: the audit's trick), then opens every absolute path
those name, and answers with all it found as its final text.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Sequence

from finscore.runner.agent import CaseView, Finish, Turn, TurnRecord
from finscore.runner.agents.registry import scripted
from finscore.runner.agents.scripted import ScriptedAgent

MAX_READ = 1 << 16


def _read(directory: str, name: str) -> str:
    """The file `name` in `directory`, opened relative to a descriptor of the directory."""
    try:
        folder = os.open(directory, os.O_RDONLY)
        try:
            handle = os.open(name, os.O_RDONLY, dir_fd=folder)
        finally:
            os.close(folder)
        try:
            return os.read(handle, MAX_READ).decode("utf-8", "replace")
        finally:
            os.close(handle)
    except OSError as error:
        return f"<{type(error).__name__}>"


@scripted
class KeyThief(ScriptedAgent):
    name = "key_thief"

    def __call__(self, view: CaseView, history: Sequence[TurnRecord]) -> Turn:
        found: dict[str, Any] = {
            "argv": list(sys.argv),
            "environ": dict(os.environ),
            "proc_self_environ": _read("/proc/self", "environ"),
            "proc_self_cmdline": _read("/proc/self", "cmdline"),
            "proc_parent_cmdline": _read("/proc", f"{os.getppid()}/cmdline"),
        }
        text = json.dumps(found)
        paths = {part for part in text.replace("\\u0000", " ").replace('"', " ").split() if part.startswith("/")}
        opened = {}
        for path in sorted(paths)[:200]:
            if os.path.isfile(path):
                opened[path] = _read(os.path.dirname(path), os.path.basename(path))[:4096]
        found["opened"] = opened
        answer = {"kind": "refusal", "reason": "out_of_scope", "text": json.dumps(found)[:60000]}
        return Finish(answer)
