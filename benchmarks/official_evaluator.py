"""The official FinQA evaluator, fetched at run time for side-by-side timing only.

Its code is never part of this repository: `extracted()` copies `evaluate.py`
out of a local git clone or mirror of the FinQA repository (named by --finqa-mirror
or $FINQA_MIRROR; see `MIRROR_HELP`) into a temporary directory outside the
repository, and removes it afterwards. It needs numpy, tqdm and sympy 1.14 in the
interpreter that runs it (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Callable, Iterator

REPOSITORY = Path(__file__).resolve().parents[1]
#: The shared data (FinQA files, recorded vectors): $FINSCORE_SHARED, or `shared/` beside the repository.
SHARED = Path(os.environ.get("FINSCORE_SHARED") or REPOSITORY.parent / "shared")
FINQA_DATA = SHARED / "data" / "finqa"
MIRROR_VARIABLE = "FINQA_MIRROR"
EVALUATE_PATH = "code/evaluate/evaluate.py"
MIRROR_HELP = (
    "a git clone or mirror of https://github.com/czyssrs/FinQA (a bare repository is fine), from which "
    f"{EVALUATE_PATH} is read at its HEAD; default: ${MIRROR_VARIABLE}. Without one: "
    "git clone --mirror https://github.com/czyssrs/FinQA /tmp/FinQA.git, then "
    f"{MIRROR_VARIABLE}=/tmp/FinQA.git (nothing of it is copied into this repository)"
)
#: The official evaluator's numbers depend on pow(); the recorded vectors used glibc's non-FMA variant.
NO_FMA = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}


def ensure_no_fma() -> None:
    """Re-execute this script with the non-FMA pow selected (glibc reads it only at start-up)."""
    if os.environ.get("GLIBC_TUNABLES") != NO_FMA["GLIBC_TUNABLES"]:
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **NO_FMA})


@contextlib.contextmanager
def bytecode_cached() -> Iterator[dict[str, str]]:
    """An environment for child processes in which every module's compiled bytecode is
    cached, in a temporary folder outside the repository, removed afterwards.

    Why: a user's `pip install` compiles bytecode for finscore and for the official
    evaluator's dependencies alike, but a machine may set PYTHONDONTWRITEBYTECODE (this
    one does), and an editable install then recompiles finscore's sources on every run
    while numpy and sympy load the bytecode pip wrote. With PYTHONPYCACHEPREFIX both
    sides read bytecode only from this folder, filled by one untimed warm-up run each.
    The official script itself is compiled on every run, as any script is.
    """
    with tempfile.TemporaryDirectory(prefix="finscore-bench-pycache-") as folder:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        yield {**env, **NO_FMA, "PYTHONPYCACHEPREFIX": folder}


def add_mirror_option(parser: argparse.ArgumentParser) -> None:
    """--finqa-mirror, defaulting to $FINQA_MIRROR."""
    parser.add_argument("--finqa-mirror", type=Path, default=os.environ.get(MIRROR_VARIABLE) or None,
                        metavar="GIT_DIR", help=MIRROR_HELP)


def mirror_or_exit(mirror: Path | None) -> Path:
    """The mirror given, checked; otherwise exit saying what to do."""
    if mirror is None:
        sys.exit(f"no FinQA mirror given: pass --finqa-mirror GIT_DIR or set ${MIRROR_VARIABLE} to {MIRROR_HELP}")
    if shutil.which("git") is None:
        sys.exit("git is needed to read the official evaluator from the FinQA mirror")
    found = subprocess.run(["git", "-C", str(mirror), "cat-file", "-e", f"HEAD:{EVALUATE_PATH}"],
                           capture_output=True, check=False)
    if found.returncode != 0:
        sys.exit(f"{mirror} is not a FinQA git repository with {EVALUATE_PATH} at HEAD "
                 f"({found.stderr.decode(errors='replace').strip()}); expected {MIRROR_HELP}")
    for path in (FINQA_DATA / "finqa_test.json",):
        if not path.is_file():
            sys.exit(f"{path} is missing: set $FINSCORE_SHARED to the shared data folder (holding data/finqa/ "
                     "and vectors/)")
    return mirror


@contextlib.contextmanager
def extracted(mirror: Path) -> Iterator[Path]:
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


@dataclass
class Timings:
    """Wall-clock and CPU seconds per run. CPU time (this process and the children it waited
    for, user + system) is far less disturbed by other work on a shared machine than wall time."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def measure(self, action: Callable[[], object], collect: bool = True) -> object:
        # Collect the garbage the previous (interleaved) contender left, so that its
        # collection is not charged to this one; the collector stays on while timing.
        # (collect=False: a warm measurement, right after an untimed run of the same action.)
        if collect:
            gc.collect()
        cpu_start, wall_start = _cpu_seconds(), time.perf_counter()
        outcome = action()
        self.wall.append(time.perf_counter() - wall_start)
        self.cpu.append(_cpu_seconds() - cpu_start)
        return outcome

    def median(self, which: str = "cpu") -> float:
        return float(statistics.median(getattr(self, which)))

    def summary(self) -> str:
        return (f"CPU median {_seconds(self.median('cpu'))} (min {_seconds(min(self.cpu))}, "
                f"max {_seconds(max(self.cpu))}); wall median {_seconds(self.median('wall'))} "
                f"(min {_seconds(min(self.wall))}); {len(self.cpu)} runs")


def _seconds(value: float) -> str:
    """Four significant figures or so: milliseconds below a tenth of a second."""
    return f"{value * 1e3:.3f} ms" if value < 0.1 else f"{value:.4f} s"


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed_runs(action: Callable[[], object], runs: int) -> Timings:
    timings = Timings()
    for _ in range(runs):
        timings.measure(action)
    return timings


def ratio(slow: Timings, fast: Timings) -> str:
    return (f"{slow.median('cpu') / fast.median('cpu'):.1f}x by CPU time, "
            f"{slow.median('wall') / fast.median('wall'):.1f}x by wall time")


def same_value(a: object, b: object) -> bool:
    """Bit-identical floats (NaN as NaN), or equal values of the same type."""
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex() or (a != a and b != b)
    return type(a) is type(b) and a == b


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
