"""Benchmark: `finscore finqa` vs the official evaluate.py on the example predictions.

Measures, side by side on this machine, interleaved run by run:
1. the whole run as a user starts it (a new process each time, start-up and
   imports included): `python evaluate.py PRED GOLD` vs `finscore finqa PRED GOLD --quiet`;
   both must print the same two numbers, or the benchmark stops;
2. execution alone, in process, imports and file reading excluded: the official
   `eval_program` called once per prediction vs one `finscore.execute_many` call;
   both must give the same (invalid, result) for every prediction;
3. where the finscore run spends its time (start-up and imports, reading JSON,
   each scoring stage), to say what limits it.

Run it from a virtualenv that has finscore installed plus numpy, tqdm and sympy 1.14
(see benchmarks/README.md): python benchmarks/finqa_file.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from official_evaluator import FINQA_DATA, NO_FMA, ensure_no_fma, extracted, load_module, machine, summary, timed_runs


def _finscore_command() -> list[str]:
    script = Path(sys.executable).with_name("finscore")
    return [str(script)] if script.exists() else [sys.executable, "-m", "finscore"]


def _official_numbers(stdout: str) -> tuple[float, float]:
    exe = re.search(r"^Exe acc:\s+(\S+)$", stdout, re.M)
    prog = re.search(r"^Prog acc:\s+(\S+)$", stdout, re.M)
    if exe is None or prog is None:
        raise RuntimeError(f"unexpected output:\n{stdout[-2000:]}")
    return float(exe.group(1)), float(prog.group(1))


def _whole_runs(evaluate: Path, predictions: Path, gold: Path, runs: int) -> tuple[list[float], list[float]]:
    env = {**os.environ, **NO_FMA}
    official_cmd = [sys.executable, str(evaluate), str(predictions), str(gold)]
    finscore_cmd = [*_finscore_command(), "finqa", str(predictions), str(gold), "--quiet"]
    official_times: list[float] = []
    finscore_times: list[float] = []
    for _ in range(runs):  # interleaved, so that load on a shared machine hits both alike
        for command, times in ((official_cmd, official_times), (finscore_cmd, finscore_times)):
            start = time.perf_counter()
            run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=evaluate.parent, check=True)
            times.append(time.perf_counter() - start)
            numbers = _official_numbers(run.stdout)
            if command is official_cmd:
                official = numbers
            elif numbers != official:
                raise RuntimeError(f"different numbers: official {official}, finscore {numbers}")
    print(f"  both print execution accuracy {official[0]!r} and program accuracy {official[1]!r}")
    return official_times, finscore_times


def _load(path: Path) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _execution_alone(module: Any, predictions: list[dict[str, Any]], gold: list[dict[str, Any]],
                     runs: int) -> tuple[list[float], list[float]]:
    import finscore

    tables = {example["id"]: example["table"] for example in gold}
    pairs = [(entry["predicted"], tables[entry["id"]]) for entry in predictions]
    official = [module.eval_program(program, table) for program, table in pairs]
    ours = finscore.execute_many(pairs)  # also loads the core once, outside the timing
    mismatches = sum(1 for (flag, value), e in zip(official, ours)
                     if flag != e.invalid or (not flag and not _same(value, e.result)))
    print(f"  (invalid, result) mismatches between the two executors: {mismatches} of {len(pairs)}")
    if mismatches:
        raise RuntimeError("the executors disagree; timing them would be meaningless")
    official_times = timed_runs(lambda: [module.eval_program(p, t) for p, t in pairs], runs)
    finscore_times = timed_runs(lambda: finscore.execute_many(pairs), runs)
    return official_times, finscore_times


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a.hex() == b.hex() or (a != a and b != b)
    return type(a) is type(b) and a == b


def _breakdown(predictions_path: Path, gold_path: Path, runs: int) -> None:
    """Where a finscore run's time goes: a fresh process for start-up, then each stage in process."""
    start_cmd = [sys.executable, "-c", "import finscore.cli; finscore.cli.build_parser()"]
    startup = timed_runs(lambda: subprocess.run(start_cmd, check=True), runs)
    bare = timed_runs(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), runs)
    from finscore.finqa import scoring
    from finscore.finqa.files import read_json_file

    reading = timed_runs(lambda: (read_json_file(predictions_path, "p"), read_json_file(gold_path, "g")), runs)
    predictions, gold = read_json_file(predictions_path, "p"), read_json_file(gold_path, "g")
    stages: dict[str, list[float]] = {}

    def record(stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if done == total:
            stages.setdefault(stage, []).append(now - record.last)  # type: ignore[attr-defined]
            record.last = now  # type: ignore[attr-defined]

    def scored() -> None:
        record.last = time.perf_counter()  # type: ignore[attr-defined]
        scoring.score_predictions(predictions, gold, progress=record)

    scoring_times = timed_runs(scored, runs)
    print(f"  interpreter start-up alone (python -c pass): {summary(bare)}")
    print(f"  start-up + imports + parser (all commands registered): {summary(startup)}")
    print(f"  reading both JSON files: {summary(reading)}")
    print(f"  score_predictions: {summary(scoring_times)}")
    for stage, times in stages.items():
        print(f"    {stage}: median {statistics.median(times):.4f} s")


def main() -> None:
    ensure_no_fma()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--predictions", type=Path, default=FINQA_DATA / "example_predictions.json")
    parser.add_argument("--gold", type=Path, default=FINQA_DATA / "finqa_test.json")
    args = parser.parse_args()
    if shutil.which("git") is None:
        sys.exit("git is needed to read the official evaluator from the local mirror")
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}")
    with extracted() as evaluate:
        print(f"1. whole run, {args.runs} interleaved runs each (new process every time):")
        official, ours = _whole_runs(evaluate, args.predictions, args.gold, args.runs)
        print(f"  official evaluate.py: {summary(official)}")
        print(f"  finscore finqa:       {summary(ours)}")
        print(f"  ratio of medians: {statistics.median(official) / statistics.median(ours):.1f}x (aim: 30x)")
        module = load_module(evaluate)
        predictions, gold = _load(args.predictions), _load(args.gold)
        print(f"2. execution alone, {len(predictions)} predictions, in process, {args.runs} runs each:")
        official, ours = _execution_alone(module, predictions, gold, args.runs)
        print(f"  official eval_program loop: {summary(official)}")
        print(f"  finscore execute_many:      {summary(ours)}")
        print(f"  ratio of medians: {statistics.median(official) / statistics.median(ours):.1f}x (aim: 3x)")
    print("3. where the finscore run spends its time:")
    _breakdown(args.predictions, args.gold, args.runs)


if __name__ == "__main__":
    main()
