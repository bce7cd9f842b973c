"""The official FinQA evaluator, fetched at run time for side-by-side timing only.

Its code is never part of this repository: `extracted()` copies `evaluate.py`
out of a local git mirror of the FinQA repository into a temporary directory
outside the repository, and removes it afterwards. It needs numpy, tqdm and
sympy 1.14 in the interpreter that runs it (see benchmarks/README.md).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

REPOSITORY = Path(__file__).resolve().parents[1]
SHARED = REPOSITORY.parent / "shared"
FINQA_DATA = SHARED / "data" / "finqa"
DEFAULT_MIRROR = Path(os.environ.get("FINQA_MIRROR", "/work/.mirror/czyssrs+FinQA/repo"))
EVALUATE_PATH = "code/evaluate/evaluate.py"
#: The official evaluator's numbers depend on pow(); the recorded vectors used glibc's non-FMA variant.
NO_FMA = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}


def ensure_no_fma() -> None:
    """Re-execute this script with the non-FMA pow selected (glibc reads it only at start-up)."""
    if os.environ.get("GLIBC_TUNABLES") != NO_FMA["GLIBC_TUNABLES"]:
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **NO_FMA})


@contextlib.contextmanager
def extracted(mirror: Path = DEFAULT_MIRROR) -> Iterator[Path]:
    """evaluate.py from the mirror's HEAD, in a temporary directory that is removed afterwards."""
    source = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{EVALUATE_PATH}"],
                            capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="finqa-official-") as folder:
        path = Path(folder) / "evaluate.py"
        if REPOSITORY in path.resolve().parents:
            raise RuntimeError("the official evaluator must stay outside the repository")
        path.write_bytes(source)
        yield path


def load_module(path: Path) -> ModuleType:
    """Import the extracted evaluate.py (its numpy, tqdm and sympy imports happen here, untimed)."""
    spec = importlib.util.spec_from_file_location("finqa_official_evaluate", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed_runs(action: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of `runs` calls of `action`."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):.4f} s (min {min(times):.4f}, max {max(times):.4f}, {len(times)} runs)"


def machine() -> str:
    """CPU model, core count and load, for the README's record of where figures came from."""
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{model}, {os.cpu_count()} logical CPUs, load average {load:.2f} at start, "
            f"CPython {sys.version.split()[0]}")
