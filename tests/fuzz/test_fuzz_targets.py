"""The libFuzzer targets of core/fuzz build with the sanitizers and run clean.

Each target runs a fixed number of inputs from its committed seed corpus onwards
(`build/fuzz.sh runs`), under AddressSanitizer and UndefinedBehaviorSanitizer: any
memory error, undefined behaviour or status outside the ABI's list fails the run.
Needs clang and its sanitizer runtimes; without them this fails (it is never skipped).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "build" / "fuzz.sh"
TARGETS = ("fuzz_read_execute", "fuzz_execute", "fuzz_numeric", "fuzz_answers")
RUNS = 10_000


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("clang") is None:
        pytest.fail("clang is needed to build the fuzz targets (Debian: apt-get install clang libclang-rt-14-dev)")
    out = tmp_path_factory.mktemp("fuzz")
    done = subprocess.run([str(FUZZ), "build", str(out)], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.essential
@pytest.mark.parametrize("target", TARGETS)
def test_target_runs_clean(built: Path, target: str) -> None:
    assert len(list((ROOT / "core" / "fuzz" / "corpus" / target).iterdir())) >= 50, "seed corpus missing"
    done = subprocess.run([str(FUZZ), "runs", str(built), str(RUNS), target],
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    assert f"stat::number_of_executed_units: {RUNS}" in done.stderr
    assert "runtime error" not in done.stderr and "ERROR: AddressSanitizer" not in done.stderr
