"""The Node.js embedding example loads the same .wasm and gets the same bits as CPython."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

REPOSITORY = Path(__file__).resolve().parents[2]


def bits(x: float) -> str:
    return "0x" + format(struct.unpack(">Q", struct.pack(">d", x))[0], "016x")


def test_node_runs_the_chain_through_the_raw_abi() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    done = subprocess.run([node, str(REPOSITORY / "examples" / "node" / "run.mjs")], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    steps = [34.8 - 1.2, (34.8 - 1.2) / 34.8, (34.8 - 1.2) / 34.8 * 100.0]
    answer = round(steps[-1], 5)
    expected = [f"#{i} = {v!r} (bits {bits(v)})" for i, v in enumerate(steps)]
    expected.append(f"status 1400 (ok), answer {answer!r} (bits {bits(answer)})")
    assert done.stdout.splitlines() == expected
