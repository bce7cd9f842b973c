"""Under a low `ulimit -v`, a command that loads the core says how much address space wasmtime
needs and how to give it: one readable message and the usage/error status 2, never a traceback.

wasmtime reserves the core's 4 GiB linear memory and its guard region up front (0x104000000
bytes of address space, measured by tools/address_space/measure.py); a real command is run in a
subprocess under bash's `ulimit -v`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.engine.core.hosts.backend import ADDRESS_SPACE_KIB, CoreLoadError, load_error_message
from finscore.exit_status import EXIT_USAGE

REPOSITORY = Path(__file__).resolve().parents[2]
LOW_KIB = 3_000_000  # below the 4 GiB reservation, above what CPython needs to start and import

pytestmark = pytest.mark.skipif(shutil.which("bash") is None or not sys.platform.startswith("linux"),
                                reason="needs bash's ulimit -v on Linux")

COMMANDS = {
    "exec": ["exec", "add(1, 2)"],
    "finqa": ["finqa", "examples/finqa/predictions.json", "examples/finqa/gold.json", "--quiet"],
    "convfinqa": ["convfinqa", "examples/convfinqa/predictions.json", "examples/convfinqa/gold.json", "--quiet"],
}


def _under_limit(limit_kib: int, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    command = " ".join(f"'{part}'" for part in [sys.executable, "-m", "finscore", *arguments])
    return subprocess.run(["bash", "-c", f"ulimit -v {limit_kib} && exec {command}"], cwd=REPOSITORY,
                          env=dict(os.environ), capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_low_limit_gives_the_need_and_the_remedy(name: str) -> None:
    done = _under_limit(LOW_KIB, COMMANDS[name])
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    message = done.stderr.strip()
    assert message.startswith(f"finscore {name}: the WebAssembly core could not be loaded: wasmtime could not "
                              "reserve the core's memory")
    assert f"this process may use {LOW_KIB:,} KiB (ulimit -v {LOW_KIB})" in message
    assert f"ulimit -v {ADDRESS_SPACE_KIB}" in message and "ulimit -v unlimited" in message
    assert len(message.splitlines()) == 1


def test_the_limit_the_message_asks_for_is_enough() -> None:
    done = _under_limit(ADDRESS_SPACE_KIB, COMMANDS["finqa"])
    assert done.returncode == 0, done.stderr
    assert "All:  " in done.stdout


def test_another_load_error_is_said_as_it_is() -> None:
    message = load_error_message(CoreLoadError("wasmtime is not installed: pip install wasmtime"))
    assert message == "the WebAssembly core could not be loaded: wasmtime is not installed: pip install wasmtime"


def test_the_python_api_raises_the_same_readable_error() -> None:
    """Not only the CLI: a program calling finscore.execute (as serve-reward and Ray workers do) gets a
    CoreLoadError whose message is the one the CLI prints."""
    code = ("from finscore import execute\n"
            "from finscore.engine.core.hosts.backend import CoreLoadError\n"
            "try:\n    execute('add(1, 2)', [])\n"
            "except CoreLoadError as error:\n    print(error)\n")
    done = subprocess.run(["bash", "-c", f"ulimit -v {LOW_KIB} && exec '{sys.executable}' -c \"$0\"", code],
                          cwd=REPOSITORY, env=dict(os.environ), capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    message = done.stdout.strip()
    assert message.startswith("the WebAssembly core could not be loaded: wasmtime could not reserve the core's memory")
    assert f"ulimit -v {ADDRESS_SPACE_KIB}" in message and len(message.splitlines()) == 1
