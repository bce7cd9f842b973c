#!/usr/bin/env python3
"""Whole-run speed of two finscore checkouts, side by side: issue #29's check that a refactor cost no time.

    scripts/speed_side_by_side.py BEFORE_CHECKOUT AFTER_CHECKOUT [--runs N] [--python PY]

Each whole run (WHOLE_RUNS below) is a new `PY -m finscore ...` process with PYTHONPATH=<checkout>/python,
run alternately before, after, before, ... N times each, after one untimed warm-up of each side. As in
benchmarks/README.md: CPU time (user + system of the child, from getrusage(RUSAGE_CHILDREN)) and wall time, medians, each side's
children sharing its own PYTHONPYCACHEPREFIX (filled by the warm-up), GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA.
Before timing, both sides' standard output must be byte-identical for every run, or the script stops;
with --outputs-may-differ (two commits apart by later issues' visible changes, such as the intervals of
issue #33) it times them anyway, marks each such run "differs" and prints its first differing line.
Each row ends with the machine's one-minute load average when the row started and ended.
benchmarks/rewards.py takes no checkout (it imports the finscore it runs under and scores in process for
minutes), so the rewards figure here is a whole `finscore rewards IN OUT` run over one training step's
rollouts (8,192 rows) made once, untimed, by that benchmark's own `rollouts()` from BEFORE_CHECKOUT.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Sequence

#: name, finscore arguments (paths relative to the scratch folder: examples/ of BEFORE, data/ unpacked).
WHOLE_RUNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("finqa example", ("finqa", "examples/finqa/predictions.json", "examples/finqa/gold.json", "--quiet")),
    ("finqa official example predictions vs finqa_test", ("finqa", "data/finqa/example_predictions.json",
                                                           "data/finqa/finqa_test.json", "--quiet")),
    ("convfinqa example", ("convfinqa", "examples/convfinqa/predictions.json", "examples/convfinqa/gold.json",
                           "--quiet")),
    ("tatqa example", ("tatqa", "examples/tatqa/predictions.json", "examples/tatqa/gold.json", "--quiet")),
    ("rewards 8,192 rollouts", ("rewards", "rollouts.parquet", "out.parquet")),
)

#: tests/data files the runs read, unpacked once into data/.
DATA_FILES = ("finqa/example_predictions.json", "finqa/finqa_test.json")

#: Writes benchmarks/rewards.py's rollouts(8192) to rollouts.parquet (run once, untimed, with BEFORE's PYTHONPATH).
MAKE_ROLLOUTS = ("import sys, pyarrow.parquet as pq; sys.path.insert(0, sys.argv[1]); import rewards; "
                 "pq.write_table(rewards.rollouts(8192), 'rollouts.parquet')")


class Timing(NamedTuple):
    cpu: float
    wall: float
    stdout: bytes


def run_once(python: str, argv: Sequence[str], environment: dict[str, str], cwd: Path) -> Timing:
    """One child process: its CPU time (user + system) and wall time; a failure stops the script."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen([python, "-m", "finscore", *argv], cwd=cwd, env=environment,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # one child at a time: the difference is this one's
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if process.returncode != 0:
        raise SystemExit(f"speed_side_by_side: finscore {' '.join(argv)} exited {process.returncode}:\n"
                         f"{stderr.decode(errors='replace')}")
    return Timing(cpu, wall, stdout)


def first_difference(before: bytes, after: bytes) -> str:
    """The first line the two outputs disagree on, both sides' versions (for a run whose outputs differ)."""
    left, right = before.decode(errors="replace").splitlines(), after.decode(errors="replace").splitlines()
    for number, (a, b) in enumerate(zip(left, right), start=1):
        if a != b:
            return f"line {number}: {a!r} / {b!r}"
    return f"line {min(len(left), len(right)) + 1}: one output ends ({len(left)} lines / {len(right)} lines)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="speed_side_by_side.py", description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, metavar="BEFORE_CHECKOUT")
    parser.add_argument("after", type=Path, metavar="AFTER_CHECKOUT")
    parser.add_argument("--runs", type=int, default=7, metavar="N", help="timed runs of each side (default 7)")
    parser.add_argument("--python", default=sys.executable, metavar="PY",
                        help="interpreter of both sides (default: this one)")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="time only the whole runs whose name starts with NAME; repeatable")
    parser.add_argument("--outputs-may-differ", action="store_true",
                        help="time runs whose standard output differs between the sides (marked 'differs', "
                             "first differing line shown) instead of stopping")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be 1 or more")
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for label, checkout in sides.items():
        if not (checkout / "python" / "finscore").is_dir():
            parser.error(f"{label} checkout {checkout} has no python/finscore")
    runs = [(name, run) for name, run in WHOLE_RUNS if not args.only or any(name.startswith(o) for o in args.only)]
    base = {key: value for key, value in os.environ.items() if not key.startswith("FINSCORE_")}
    base.update(GLIBC_TUNABLES="glibc.cpu.hwcaps=-FMA")
    base.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory(prefix="finscore-speed-") as temporary:
        scratch = Path(temporary)
        shutil.copytree(sides["before"] / "examples", scratch / "examples")
        for name in DATA_FILES:
            (scratch / "data" / name).parent.mkdir(parents=True, exist_ok=True)
            with gzip.open(sides["before"] / "tests" / "data" / (name + ".gz"), "rb") as packed, \
                    open(scratch / "data" / name, "wb") as plain:
                shutil.copyfileobj(packed, plain)
        environments = {label: {**base, "PYTHONPATH": str(checkout / "python"),
                                "PYTHONPYCACHEPREFIX": str(scratch / f"pycache-{label}")}
                        for label, checkout in sides.items()}
        if any(run[0] == "rewards" for _, run in runs):
            subprocess.run([args.python, "-c", MAKE_ROLLOUTS, str(sides["before"] / "benchmarks")], cwd=scratch,
                           env=environments["before"], check=True)
        print(f"{args.runs} runs of each side, alternated; CPU = user + system of the child; medians", flush=True)
        print(f"before: {sides['before']}\nafter:  {sides['after']}")
        print(f"{'whole run':<52} {'before CPU':>10} {'after CPU':>10} {'ratio':>6} {'before wall':>11} "
              f"{'after wall':>10} {'ratio':>6}  outputs  load")
        for name, run in runs:
            load_before = os.getloadavg()[0]
            warm = {label: run_once(args.python, run, environments[label], scratch) for label in sides}
            same = warm["before"].stdout == warm["after"].stdout
            if not same and not args.outputs_may_differ:
                raise SystemExit(f"speed_side_by_side: {name}: the two sides print different outputs; "
                                 "compare them with scripts/output_snapshot.py first")
            if not same:
                print(f"  {name}: outputs differ, first at: {first_difference(warm['before'].stdout, warm['after'].stdout)}",
                      flush=True)
            times: dict[str, list[Timing]] = {label: [] for label in sides}
            for number in range(args.runs):
                order = ("before", "after") if number % 2 == 0 else ("after", "before")
                for label in order:
                    print(f"  {name}: run {number + 1}/{args.runs} {label}", file=sys.stderr, flush=True)
                    times[label].append(run_once(args.python, run, environments[label], scratch))
            cpu = {label: statistics.median(t.cpu for t in times[label]) for label in sides}
            wall = {label: statistics.median(t.wall for t in times[label]) for label in sides}
            print(f"{name:<52} {cpu['before']:>9.3f}s {cpu['after']:>9.3f}s {cpu['after'] / cpu['before']:>6.3f} "
                  f"{wall['before']:>10.3f}s {wall['after']:>9.3f}s {wall['after'] / wall['before']:>6.3f}  "
                  f"{'same' if same else 'differs':<7}  {load_before:.1f}-{os.getloadavg()[0]:.1f}", flush=True)
    print("ratio = after / before (below 1: after is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
