"""Measure the least `ulimit -v` (address space, KiB) under which commands that load the core run.

    python tools/address_space/measure.py [--python PYTHON]

Not a test and not part of the package: it runs each command in a subprocess
under `bash -c 'ulimit -v N; ...'` and bisects N (to within 1 MiB) between a
limit that fails and one that works. wasmtime reserves the core's linear memory
(and its guard) as address space up front, so the need is far above what the
process ever touches. The figure is quoted in README.md ("Address space");
rerun this after changing the wasmtime version or the engine configuration.
"""

from __future__ import annotations

import argparse
import gzip
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = {
    "exec": ["exec", "add(1, 2)"],
    "finqa": ["finqa", "examples/finqa/predictions.json", "examples/finqa/gold.json", "--quiet"],
    "convfinqa": ["convfinqa", "examples/convfinqa/predictions.json", "examples/convfinqa/gold.json", "--quiet"],
}
LOW_KIB, HIGH_KIB, STEP_KIB = 1_000_000, 16_000_000, 1024


def runs(python: str, arguments: list[str], limit_kib: int) -> bool:
    """Whether the command exits 0 under `ulimit -v limit_kib`."""
    command = " ".join(shlex.quote(part) for part in [python, "-m", "finscore", *arguments])
    done = subprocess.run(["bash", "-c", f"ulimit -v {limit_kib}; exec {command}"], cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT / "python"), "PATH": "/usr/bin:/bin"},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return done.returncode == 0


def threshold(python: str, arguments: list[str]) -> tuple[int, int]:
    """(largest failing, smallest working) limit in KiB, STEP_KIB apart."""
    low, high = LOW_KIB, HIGH_KIB
    if runs(python, arguments, low) or not runs(python, arguments, high):
        raise SystemExit(f"{arguments[0]}: no threshold between {low} and {high} KiB")
    while high - low > STEP_KIB:
        middle = (low + high) // 2
        if runs(python, arguments, middle):
            high = middle
        else:
            low = middle
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter that has finscore's dependencies")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        commands = dict(COMMANDS)
        # the whole FinQA test set with the official evaluator's 1,050 example predictions
        files = []
        for name in ("example_predictions.json", "finqa_test.json"):
            target = Path(work) / name
            target.write_bytes(gzip.decompress((ROOT / "tests/data/finqa" / f"{name}.gz").read_bytes()))
            files.append(str(target))
        commands["finqa test set"] = ["finqa", *files, "--quiet"]
        for name, arguments in commands.items():
            low, high = threshold(args.python, arguments)
            print(f"{name}: fails under {low} KiB, runs under {high} KiB ({high / 1024 / 1024:.2f} GiB)")


if __name__ == "__main__":
    main()
