"""Run the JavaScript binding's Node tests (js/test) so that the suite covers them.

They check every row of the gold, mutant, fuzz and fuzz-py312 vectors that the core reads
itself against the recorded bits, CPython's float.hex() and round() (this interpreter is
their oracle), and that `npm pack` gives a tarball a fresh project installs offline, whose
TypeScript declarations type-check. Node, npm and js/node_modules (TypeScript, for the
declarations) are required: a missing one fails, it is never a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
PACKAGE = REPOSITORY / "js"


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: the JavaScript binding's tests need Node.js 18+ and npm")
    return found


@pytest.mark.essential
def test_node_tests_of_the_binding_pass() -> None:
    node = _tool("node")
    _tool("npm")
    if not (PACKAGE / "node_modules" / ".bin" / "tsc").exists():
        pytest.fail(f"TypeScript is not installed for the binding's tests: run `npm ci` in {PACKAGE}")
    copied = subprocess.run([node, "scripts/copy-wasm.mjs"], cwd=PACKAGE, capture_output=True, text=True, check=False)
    assert copied.returncode == 0, copied.stderr
    tests = sorted(str(path.relative_to(PACKAGE)) for path in (PACKAGE / "test").glob("*.test.js"))
    assert len(tests) >= 3, tests
    done = subprocess.run([node, "--test", "--test-reporter=spec", *tests], cwd=PACKAGE, capture_output=True,
                          text=True, timeout=1200, check=False, env={**os.environ, "FINSCORE_PYTHON": sys.executable})
    print(done.stdout)  # the deferred share of each vector set, shown with -rP or -s
    assert done.returncode == 0, done.stdout + done.stderr
    assert "mismatches 0" in done.stdout
