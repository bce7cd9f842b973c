"""Core bugs the fuzz targets found or the issue reported, pinned until the core is fixed.

The core's C sources belong to another change (issue #11, "The core's edges"); each
bug here is an xfail(strict=True) test: it fails today, and passes (so fails the
suite, as strict) once the fix lands, at which point its line in
core/fuzz/known_core_bugs.supp is removed with the marker.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def read_target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("clang") is None:
        pytest.fail("clang is needed to build the fuzz targets (Debian: apt-get install clang libclang-rt-14-dev)")
    out = tmp_path_factory.mktemp("fuzz-edges")
    subprocess.run([str(ROOT / "build" / "fuzz.sh"), "build", str(out)], check=True, capture_output=True,
                   timeout=600)
    return out / "fuzz_read_execute"


def _run_unsuppressed(target: Path, data: bytes, folder: Path) -> subprocess.CompletedProcess[str]:
    """One input through a target with every undefined behaviour fatal (no suppressions)."""
    case = folder / "case"
    case.write_bytes(data)
    env = {**os.environ, "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    return subprocess.run([str(target), str(case)], capture_output=True, text=True, env=env, timeout=120,
                          check=False)


@pytest.mark.xfail(strict=True, reason="core bug (issue #11, the core's edges): fs_read.c computes "
                   "table.at + table.length before checking table.at for NULL; fixed in the core's own change")
def test_table_step_without_a_table_is_defined_behaviour(read_target: Path, tmp_path: Path) -> None:
    # header byte 0: no table attached; one program whose only step is a table op
    done = _run_unsuppressed(read_target, b"\x00table_max(\x1fa\x1fb\x1f)\x1fEOF", tmp_path)
    assert "runtime error" not in done.stderr, done.stderr
    assert done.returncode == 0
