"""Benchmark: `finscore finqa` vs the official evaluate.py on the example predictions.

Measures, side by side on this machine, interleaved run by run:
1. the whole run as a user starts it (a new process each time, start-up and
   imports included): `python evaluate.py PRED GOLD` vs `finscore finqa PRED GOLD --quiet`;
   both must print the same two numbers, or the benchmark stops;
2. execution alone, in process, imports and file reading excluded: the official
   `eval_program` called once per prediction vs one `finscore.execute_batch` call
   (the batch API: every prediction's official (invalid, result) pair);
   both must give the same (invalid, result) for every prediction;
3. where the finscore run spends its time (start-up and imports, reading JSON,
   each scoring stage), to say what limits it.
Each figure is given as CPU time (user + system, steadier on a shared machine)
and wall time, median of --runs runs.

Run it from a virtualenv that has finscore installed plus numpy, tqdm and sympy 1.14
(see benchmarks/README.md): python benchmarks/finqa_file.py --finqa-mirror GIT_DIR [--runs 7]
(or FINQA_MIRROR=GIT_DIR).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from official_evaluator import (
    FINQA_DATA,
    Timings,
    add_mirror_option,
    bytecode_cached,
    ensure_no_fma,
    extracted,
    load_module,
    machine,
    mirror_or_exit,
    ratio,
    same_value,
    timed_runs,
)


def _finscore_command() -> list[str]:
    script = Path(sys.executable).with_name("finscore")
    return [str(script)] if script.exists() else [sys.executable, "-m", "finscore"]


def _official_numbers(stdout: str) -> tuple[float, float]:
    exe = re.search(r"^Exe acc:\s+(\S+)$", stdout, re.M)
    prog = re.search(r"^Prog acc:\s+(\S+)$", stdout, re.M)
    if exe is None or prog is None:
        raise RuntimeError(f"unexpected output:\n{stdout[-2000:]}")
    return float(exe.group(1)), float(prog.group(1))


def _whole_runs(evaluate: Path, predictions: Path, gold: Path, runs: int,
                env: dict[str, str]) -> tuple[Timings, Timings]:
    commands = {
        "official": [sys.executable, str(evaluate), str(predictions), str(gold)],
        "finscore": [*_finscore_command(), "finqa", str(predictions), str(gold), "--quiet"],
    }
    timings = {name: Timings() for name in commands}
    numbers: dict[str, tuple[float, float]] = {}
    for command in commands.values():  # warm-up, untimed: fills the bytecode cache of both
        subprocess.run(command, capture_output=True, env=env, cwd=evaluate.parent, check=True)
    for _ in range(runs):  # interleaved, so that load on a shared machine hits both alike
        for name, command in commands.items():
            run = timings[name].measure(lambda: subprocess.run(
                command, capture_output=True, text=True, env=env, cwd=evaluate.parent, check=True))
            numbers[name] = _official_numbers(run.stdout)  # type: ignore[attr-defined]
        if numbers["official"] != numbers["finscore"]:
            raise RuntimeError(f"different numbers: {numbers}")
    exe, prog = numbers["official"]
    print(f"  both print execution accuracy {exe!r} and program accuracy {prog!r}")
    return timings["official"], timings["finscore"]


def _load(path: Path) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _execution_alone(module: Any, predictions: list[dict[str, Any]], gold: list[dict[str, Any]],
                     runs: int) -> tuple[Timings, Timings, Timings, Timings]:
    """(official, finscore) timed after a garbage collection (the figures that count), then
    (official, finscore) warm: each timed run right after an untimed run of the same side,
    as in a loop that calls the executor again and again (a training loop's rewards)."""
    import finscore

    tables = {example["id"]: example["table"] for example in gold}
    pairs = [(entry["predicted"], tables[entry["id"]]) for entry in predictions]
    official = [module.eval_program(program, table) for program, table in pairs]
    ours = finscore.execute_batch(pairs)  # also loads the core once, outside the timing
    mismatches = sum(1 for (flag, value), invalid, result in zip(official, ours.invalid, ours.results)
                     if flag != invalid or (not flag and not same_value(value, result)))
    print(f"  (invalid, result) mismatches between the two executors: {mismatches} of {len(pairs)}")
    if mismatches:
        raise RuntimeError("the executors disagree; timing them would be meaningless")
    official_times, finscore_times, official_warm, finscore_warm = Timings(), Timings(), Timings(), Timings()
    run_official = lambda: [module.eval_program(p, t) for p, t in pairs]  # noqa: E731
    run_finscore = lambda: finscore.execute_batch(pairs)  # noqa: E731
    for _ in range(runs):
        official_times.measure(run_official)
        finscore_times.measure(run_finscore)
    for _ in range(runs):
        for timings, action in ((official_warm, run_official), (finscore_warm, run_finscore)):
            action()
            timings.measure(action, collect=False)
    return official_times, finscore_times, official_warm, finscore_warm


_COLD_STAGES = """
import json, sys, time
start = time.process_time()
import finscore
from finscore.finqa import scoring
from finscore.finqa.files import read_json_file
from finscore.finqa.terminal import render_report
stages = {"imports": time.process_time() - start}
clock = [time.process_time()]
def lap(stage):
    now = time.process_time()
    stages[stage] = now - clock[0]
    clock[0] = now
finscore.execute("add(1, 2)")
lap("core load (importing wasmtime, the module from its compilation cache)")
predictions = read_json_file(sys.argv[1], "p")
gold = read_json_file(sys.argv[2], "g")
lap("reading both JSON files")
report = scoring.score_predictions(predictions, gold, progress=lambda s, d, t: d == t and lap("scoring: " + s))
render_report(report)
lap("text report")
print(json.dumps(stages))
"""


def _breakdown(predictions_path: Path, gold_path: Path, runs: int, env: dict[str, str]) -> None:
    """Where a finscore run's time goes, each stage measured cold, in a fresh process per run."""
    bare = timed_runs(lambda: subprocess.run([sys.executable, "-c", "pass"], env=env, check=True), runs)
    every_command = timed_runs(lambda: subprocess.run(
        [sys.executable, "-c", "import finscore.cli; finscore.cli.build_parser(('finqa',))"], env=env, check=True),
        runs)
    stages: dict[str, list[float]] = {}
    for _ in range(runs):
        run = subprocess.run([sys.executable, "-c", _COLD_STAGES, str(predictions_path), str(gold_path)],
                             capture_output=True, text=True, env=env, check=True)
        for stage, seconds in json.loads(run.stdout).items():
            stages.setdefault(stage, []).append(seconds)
    print(f"  interpreter start-up alone (python -c pass): {bare.summary()}")
    print(f"  start-up + finscore.cli building the finqa command's parser: {every_command.summary()}")
    print("  stages of a scoring run in a fresh process (CPU medians):")
    for stage, times in stages.items():
        print(f"    {stage}: {statistics.median(times):.4f} s")


PARTS = ("whole", "execution", "stages")


def main() -> None:
    ensure_no_fma()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--predictions", type=Path, default=FINQA_DATA / "example_predictions.json")
    parser.add_argument("--gold", type=Path, default=FINQA_DATA / "finqa_test.json")
    parser.add_argument("--only", choices=PARTS, action="append",
                        help="measure only this part (1. whole, 2. execution, 3. stages); may be repeated")
    add_mirror_option(parser)
    args = parser.parse_args()
    parts = set(args.only or PARTS)
    mirror = mirror_or_exit(args.finqa_mirror)
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}")
    with extracted(mirror) as evaluate, bytecode_cached() as env:
        if "whole" in parts:
            print(f"1. whole run, {args.runs} interleaved runs each (new process every time, "
                  "bytecode cached for both after one warm-up run each):")
            official, ours = _whole_runs(evaluate, args.predictions, args.gold, args.runs, env)
            print(f"  official evaluate.py: {official.summary()}")
            print(f"  finscore finqa:       {ours.summary()}")
            print(f"  ratio of medians: {ratio(official, ours)} (aim: 30x)")
        if "execution" in parts:
            module = load_module(evaluate)
            predictions, gold = _load(args.predictions), _load(args.gold)
            print(f"2. execution alone, {len(predictions)} predictions, in process, {args.runs} runs each, "
                  "the garbage collected before each:")
            official, ours, official_warm, ours_warm = _execution_alone(module, predictions, gold, args.runs)
            print(f"  official eval_program loop: {official.summary()}")
            print(f"  finscore execute_batch:     {ours.summary()}")
            print(f"  ratio of medians: {ratio(official, ours)} (aim: 3x)")
            print("  warm (each timed run right after an untimed one of the same side; no collection):")
            print(f"  official eval_program loop: {official_warm.summary()}")
            print(f"  finscore execute_batch:     {ours_warm.summary()}")
            print(f"  ratio of medians: {ratio(official_warm, ours_warm)}")
        if "stages" in parts:
            print("3. where the finscore run spends its time:")
            subprocess.run([sys.executable, "-c", _COLD_STAGES, str(args.predictions), str(args.gold)],
                           capture_output=True, env=env, check=True)  # warm-up: fills the bytecode cache
            _breakdown(args.predictions, args.gold, args.runs, env)


if __name__ == "__main__":
    main()
