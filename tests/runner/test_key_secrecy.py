"""The trace key never reaches the agent's side (issue #31, without the OS sandbox).

The audit found the key file's path in the agent's sys.argv (multiprocessing's spawn hands the
parent's argv to the child) and in its /proc/self/environ (spawn starts the child with the
parent's whole environment). A hostile agent (tests/support/key_thief.py, loopback only: it makes
no call) runs in a real `finscore run` process, reads its argv, os.environ, /proc/self/environ and
the runtime's /proc/<ppid>/cmdline around the audit hook, opens every path they name, and answers
with what it found: neither the key nor the key's path nor its folder may be in it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parents[1]
DRIVER = (
    "import sys\n"
    "import support.key_thief\n"
    "from finscore.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def run_thief(tmp_path: Path, *options: str) -> tuple[dict[str, Any], Path]:
    """Run `finscore run --agent key_thief` in its own process; what the agent found, and the key file."""
    config = tmp_path / "config"
    out = tmp_path / "out"
    environment = dict(os.environ)
    environment.update(
        XDG_CONFIG_HOME=str(config),
        PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]),
        FINSCORE_SECRET_PROBE="in-the-parent-only",
    )
    argv = [sys.executable, "-c", DRIVER, "run", "--quiet", "--no-score", "--agent", "key_thief",
            "--only", "fv-en", "--out", str(out), *options]
    done = subprocess.run(argv, env=environment, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    (line,) = [line for line in lines if "case_id" in line]
    assert line["status"] == "completed", line["status_detail"]
    found: dict[str, Any] = json.loads(line["final"]["text"])
    return found, config / "finscore" / "trace.key"


@pytest.mark.essential
def test_a_hostile_agent_finds_neither_the_key_nor_its_path(tmp_path: Path) -> None:
    found, key_file = run_thief(tmp_path)
    key = key_file.read_text(encoding="ascii").strip()
    text = json.dumps(found)
    assert found["argv"] == ["finscore-agent"]
    assert found["proc_self_environ"] and not found["proc_self_environ"].startswith("<")  # the read itself worked
    assert found["proc_parent_cmdline"] and not found["proc_parent_cmdline"].startswith("<")
    assert key not in text
    assert str(key_file) not in text and str(key_file.parent.parent) not in text  # nor $XDG_CONFIG_HOME
    assert "in-the-parent-only" not in text  # the runtime's other variables stay with it too
    assert "XDG_CONFIG_HOME" not in found["environ"] and "XDG_CONFIG_HOME" not in found["proc_self_environ"]


def test_a_key_file_given_on_the_command_line_is_not_in_the_agents_own_argv_or_environment(tmp_path: Path) -> None:
    """With --key-file the path is on the runtime's own command line, which every process of the user
    may read (/proc/<pid>/cmdline): the agent's argv and environment still hold neither key nor path.
    Keeping the path out of the agent's reach altogether is the OS sandbox's part (docs 5.2)."""
    key_file = tmp_path / "keys" / "trace.key"
    found, _ = run_thief(tmp_path, "--key-file", str(key_file))
    key = key_file.read_text(encoding="ascii").strip()
    own = json.dumps([found["argv"], found["environ"], found["proc_self_environ"], found["proc_self_cmdline"]])
    assert key not in own and str(key_file) not in own
