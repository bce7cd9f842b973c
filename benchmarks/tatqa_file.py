"""Benchmark: `finscore tatqa` vs the official tatqa_eval.py on the TAT-QA test gold.

Measures, side by side on this machine, interleaved run by run, the whole run
as a user starts it (a new process each time, start-up and imports included):
`python tatqa_eval.py --gold_path GOLD --pred_path PRED` vs
`finscore tatqa PRED GOLD --quiet`, on a prediction for every test question
made by the shipped example's generator (examples/tatqa/make_example.py, seed
"finscore-test"). finscore's report must contain the official printout
character for character, or the benchmark stops. A third command, timed in the
same rounds, is the floor of any Python scorer of these files (start the same
interpreter, import json, decode both files), set beside the 20x budget. Then it times where a
finscore run spends its CPU (start-up, imports, reading, scoring, printing).
Each figure is CPU time (user + system, steadier on a shared machine) and wall
time, median of --runs runs.

The official scripts are copied at run time from a local git mirror of
NExTplusplus/TAT-QA (--mirror or $TATQA_MIRROR) into a temporary folder outside
the repository, and run by an interpreter that has numpy, scipy and pandas
(--official-python or $TATQA_OFFICIAL_PYTHON; never the project's own
environment, see benchmarks/README.md). finscore runs from this interpreter.

    python benchmarks/tatqa_file.py --mirror /path/to/TAT-QA --official-python /path/to/venv/bin/python
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from official_evaluator import SHARED, REPOSITORY, Timings, bytecode_cached, machine, ratio

OFFICIAL_FILES = ("tatqa_eval.py", "tatqa_metric.py", "tatqa_utils.py")
DEFAULT_GOLD = SHARED / "data" / "tatqa" / "tatqa_dataset_test_gold.json"
SEED = "finscore-test"

STAGES = r"""
import sys, time
laps = [("interpreter start-up", time.process_time())]
def lap(stage):
    laps.append((stage, time.process_time()))
import finscore.cli, argparse
from finscore.tatqa.files import read_gold_file, read_predictions_file
from finscore.tatqa.scoring import score_predictions
from finscore.tatqa.terminal import render_report
import gc
gc.disable()  # as the command does once its modules are loaded
lap("imports (finscore.cli and the tatqa modules)")
predictions, pairs = read_predictions_file(sys.argv[1])
gold = read_gold_file(sys.argv[2])
lap("reading both JSON files")
report = score_predictions(predictions, pairs, gold)
lap("scoring: checks, join, official walk, reasons")
text = render_report(report)
lap("text report")
previous = 0.0
for stage, at in laps:
    print(f"{stage}\t{at - previous}")
    previous = at
"""

#: The least any Python scorer of these files does in a new process: start the interpreter
#: (the same one as finscore), import json, decode both files with the collector off. Timed
#: interleaved with the other two, so that the 20x budget can be set beside it.
FLOOR = r"""
import gc, json, sys
gc.disable()
for path in sys.argv[1:]:
    with open(path, "rb") as handle:
        json.loads(handle.read().decode("utf-8-sig"))
"""


def _finscore_command() -> list[str]:
    script = Path(sys.executable).with_name("finscore")
    return [str(script)] if script.exists() else [sys.executable, "-m", "finscore"]


def _official_folder(mirror: str, folder: Path) -> str:
    commit = subprocess.run(["git", "--git-dir", mirror, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    if REPOSITORY in folder.resolve().parents:
        raise RuntimeError("the official scripts must stay outside the repository")
    for name in OFFICIAL_FILES:
        source = subprocess.run(["git", "--git-dir", mirror, "show", f"{commit}:{name}"], check=True,
                                capture_output=True).stdout
        (folder / name).write_bytes(source)
    return commit


def _predictions(gold: Path, target: Path) -> int:
    spec = importlib.util.spec_from_file_location("tatqa_make_example",
                                                  REPOSITORY / "examples" / "tatqa" / "make_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    documents = json.loads(gold.read_text(encoding="utf-8"))
    predictions: dict[str, Any] = module.predictions_for(documents, seed=SEED)
    target.write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
    return len(predictions)


def _whole_runs(official: list[str], ours: list[str], floor: list[str], folder: Path, runs: int,
                env: dict[str, str]) -> tuple[Timings, Timings, Timings]:
    commands = {"official": official, "finscore": ours, "floor": floor}
    timings = {name: Timings() for name in commands}
    printed: dict[str, str] = {}
    for command in commands.values():  # warm-up, untimed: fills the bytecode cache of both
        subprocess.run(command, capture_output=True, env=env, cwd=folder, check=True)
    for _ in range(runs):  # interleaved, so that load on a shared machine hits both alike
        for name, command in commands.items():
            run = timings[name].measure(lambda: subprocess.run(
                command, capture_output=True, text=True, env=env, cwd=folder, check=True))
            printed[name] = run.stdout  # type: ignore[attr-defined]
        if "\n" + printed["official"] not in printed["finscore"]:
            raise RuntimeError("finscore's report does not contain the official printout:\n" + printed["official"])
    first = printed["official"].splitlines()[1:4]
    print(f"  both print: {'; '.join(first)} (and the same three pivot tables)")
    return timings["official"], timings["finscore"], timings["floor"]


def _stages(predictions: Path, gold: Path, runs: int, env: dict[str, str]) -> None:
    laps: dict[str, list[float]] = {}
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", STAGES, str(predictions), str(gold)], capture_output=True,
                              text=True, env=env, check=True)
        for line in done.stdout.splitlines():
            stage, seconds = line.split("\t")
            laps.setdefault(stage, []).append(float(seconds))
    print("  stages of a finscore run in a fresh process (CPU medians):")
    for stage, times in laps.items():
        print(f"    {stage}: {statistics.median(times) * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mirror", default=os.environ.get("TATQA_MIRROR"),
                        help="git directory of a local mirror of NExTplusplus/TAT-QA (default $TATQA_MIRROR)")
    parser.add_argument("--official-python", default=os.environ.get("TATQA_OFFICIAL_PYTHON"),
                        help="an interpreter with numpy, scipy and pandas (default $TATQA_OFFICIAL_PYTHON)")
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    args.gold = args.gold.resolve()  # both commands run in the temporary folder
    if not args.gold.is_file():
        print(f"tatqa_file.py: no gold file at {args.gold}", file=sys.stderr)
        return 2
    if not args.mirror:
        print("tatqa_file.py: no TAT-QA mirror: give --mirror or set TATQA_MIRROR to a git directory of "
              "NExTplusplus/TAT-QA (e.g. a clone made with git clone --mirror)", file=sys.stderr)
        return 2
    if not args.official_python:
        print("tatqa_file.py: no interpreter for the official script: give --official-python or set "
              "TATQA_OFFICIAL_PYTHON to a virtualenv's python that has numpy, scipy and pandas",
              file=sys.stderr)
        return 2
    print(machine())
    with tempfile.TemporaryDirectory(prefix="tatqa-official-") as work, bytecode_cached() as env:
        folder = Path(work)
        commit = _official_folder(args.mirror, folder)
        predictions = folder / "predictions.json"
        count = _predictions(args.gold, predictions)
        versions = subprocess.run([args.official_python, "-c", "import numpy, scipy, pandas; print(numpy.__version__,"
                                   " scipy.__version__, pandas.__version__)"], capture_output=True, text=True,
                                  check=True).stdout.split()
        print(f"official tatqa_eval.py at {commit[:7]} with numpy {versions[0]}, scipy {versions[1]}, "
              f"pandas {versions[2]}; {count} predictions for {args.gold.name}")
        official = [args.official_python, "tatqa_eval.py", "--gold_path", str(args.gold), "--pred_path",
                    str(predictions)]
        ours = [*_finscore_command(), "tatqa", str(predictions), str(args.gold), "--quiet"]
        print("whole run, new process each time:")
        floor = [sys.executable, "-c", FLOOR, str(predictions), str(args.gold)]
        slow, fast, least = _whole_runs(official, ours, floor, folder, args.runs, env)
        print(f"  official: {slow.summary()}")
        print(f"  finscore: {fast.summary()}")
        print(f"  ratio of medians: {ratio(slow, fast)} (aim: 20x)")
        print(f"  floor (start-up, import json, decode both files): {least.summary()}")
        budget = slow.median("cpu") / 20
        print(f"  20x budget {budget * 1e3:.1f} ms CPU: the floor takes {least.median('cpu') * 1e3:.1f} ms of it, "
              f"leaving {(budget - least.median('cpu')) * 1e3:.1f} ms for imports, checks, scoring and the report "
              f"(finscore uses {(fast.median('cpu') - least.median('cpu')) * 1e3:.1f} ms)")
        _stages(predictions, args.gold, args.runs, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
