"""Benchmark: `finscore convfinqa` vs the authors' `evaluate_result` on the whole dev set.

ConvFinQA's authors score with `evaluate_result` in code/utils/general_utils.py of
czyssrs/ConvFinQA. That file is never part of this repository: it is copied at run
time from a local git mirror of that repository (path from --mirror or
$CONVFINQA_MIRROR) into a temporary directory outside the repository, and run there
by an interpreter that has its dependencies, numpy and sympy 1.14 (path from
--official-python or $CONVFINQA_OFFICIAL_PYTHON: a separate virtualenv, never the
project's). See benchmarks/README.md.

Inputs, made once and untimed from the dev conversations (tests/data): predictions
for every dev turn made as examples/convfinqa/make_example.py makes them (gold
programs with deterministic perturbations; a few turns left out); for the authors'
function, the same predictions in its own input form (a JSON object of
[{"id", "pred_prog", "ref_prog"}] lists, as their generator writes
nbest_predictions.json) and a turn-level gold file as they released them (each turn a
copy of its conversation with `annotation.exe_ans`, id `<conversation id>_<turn>`);
for finscore, the leaderboard form and the conversation file.

Measured, interleaved run by run, a new process each time, start-up and imports
included: `python driver.py ...` (which calls evaluate_result) vs `finscore
convfinqa PRED GOLD --quiet`. Both must print the same execution and program
accuracy, or the benchmark stops. Figures: CPU time (user + system, steadier on a
shared machine) and wall time, medians of --runs runs.

    python benchmarks/convfinqa_file.py --mirror /work/.mirror/czyssrs+ConvFinQA/repo \\
        --official-python /tmp/venv-convfinqa-official/bin/python --runs 9
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

from finqa_file import _finscore_command, _official_numbers
from finscore.engine.reader.tokens import tokenize_gold_program
from official_evaluator import REPOSITORY, Timings, bytecode_cached, ensure_no_fma, machine, ratio

UTILS_PATH = "code/utils/general_utils.py"
DEV = REPOSITORY / "tests" / "data" / "convfinqa" / "convfinqa_dev.json.gz"
#: Calls the authors' function on the files it is given; written next to their file, run by their interpreter.
DRIVER = """
import sys
from general_utils import evaluate_result
evaluate_result(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], program_mode="seq")
"""


def _setting(value: str | None, variable: str, flag: str, what: str) -> str:
    chosen = value or os.environ.get(variable)
    if not chosen:
        sys.exit(f"convfinqa_file.py: {what} is not set: give {flag} PATH or set ${variable} "
                 "(see benchmarks/README.md)")
    return chosen


def _make_example_module() -> Any:
    spec = importlib.util.spec_from_file_location("make_example", REPOSITORY / "examples/convfinqa/make_example.py")
    if spec is None or spec.loader is None:
        raise RuntimeError("cannot import examples/convfinqa/make_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _workspace(mirror: Path) -> Iterator[Path]:
    """general_utils.py from the mirror's HEAD and the driver, in a temporary directory removed afterwards."""
    source = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{UTILS_PATH}"],
                            capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="convfinqa-official-") as folder:
        path = Path(folder)
        if REPOSITORY in path.resolve().parents:
            raise RuntimeError("the authors' code must stay outside the repository")
        (path / "general_utils.py").write_bytes(source)
        (path / "driver.py").write_text(DRIVER, encoding="utf-8")
        yield path


def _turn_of(identifier: str) -> tuple[str, str]:
    """(conversation id, turn index) of a prediction id in either form make_example writes."""
    match = re.fullmatch(r"(.+?)(?:#t|_)(\d+)", identifier)
    if match is None:
        raise RuntimeError(f"not a turn id: {identifier!r}")
    return match.group(1), match.group(2)


def _inputs(folder: Path) -> dict[str, Path]:
    """Write both sides' input files into `folder` (untimed)."""
    conversations = json.loads(gzip.decompress(DEV.read_bytes()))
    _, predictions = _make_example_module().make(conversations, None)
    by_id = {conversation["id"]: conversation for conversation in conversations}
    turn_file: list[dict[str, Any]] = []
    authors_predictions: dict[str, list[dict[str, Any]]] = {}
    for conversation in conversations:
        annotation = conversation["annotation"]
        for turn, (program, answer) in enumerate(zip(annotation["turn_program"], annotation["exe_ans_list"])):
            record = dict(conversation)
            record["id"] = f"{conversation['id']}_{turn}"
            record["annotation"] = {**annotation, "cur_program": program, "exe_ans": answer, "turn_ind": turn}
            turn_file.append(record)
    for number, entry in enumerate(predictions):
        conversation_id, index = _turn_of(entry["id"])
        gold_program = by_id[conversation_id]["annotation"]["turn_program"][int(index)]
        authors_predictions[str(number)] = [{"id": f"{conversation_id}_{index}", "pred_prog": entry["predicted"],
                                             "ref_prog": tokenize_gold_program(gold_program)}]
    paths = {name: folder / f"{name}.json" for name in ("predictions", "gold", "authors_predictions", "turns")}
    paths["predictions"].write_text(json.dumps(predictions), encoding="utf-8")
    paths["gold"].write_text(json.dumps(conversations), encoding="utf-8")
    paths["authors_predictions"].write_text(json.dumps(authors_predictions), encoding="utf-8")
    paths["turns"].write_text(json.dumps(turn_file), encoding="utf-8")
    print(f"  {len(predictions)} predictions for {len(turn_file)} dev turns of {len(conversations)} conversations; "
          f"gold files {paths['gold'].stat().st_size / 1e6:.1f} MB (conversations, finscore) and "
          f"{paths['turns'].stat().st_size / 1e6:.1f} MB (turns, the authors')")
    return paths


def main() -> None:
    ensure_no_fma()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--mirror", help="local git mirror of czyssrs/ConvFinQA (default: $CONVFINQA_MIRROR)")
    parser.add_argument("--official-python", help="an interpreter with numpy and sympy 1.14, in its own "
                                                  "virtualenv (default: $CONVFINQA_OFFICIAL_PYTHON)")
    args = parser.parse_args()
    mirror = Path(_setting(args.mirror, "CONVFINQA_MIRROR", "--mirror", "the ConvFinQA mirror"))
    official_python = _setting(args.official_python, "CONVFINQA_OFFICIAL_PYTHON", "--official-python",
                               "the interpreter for the authors' code")
    if shutil.which("git") is None:
        sys.exit("git is needed to read the authors' code from the local mirror")
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}")
    with _workspace(mirror) as folder, bytecode_cached() as env:
        paths = _inputs(folder)
        commands = {
            "authors": [official_python, str(folder / "driver.py"), str(paths["authors_predictions"]),
                        str(paths["turns"]), str(folder / "all_res.json"), str(folder / "error.json")],
            "finscore": [*_finscore_command(), "convfinqa", str(paths["predictions"]), str(paths["gold"]), "--quiet"],
        }
        timings = {name: Timings() for name in commands}
        numbers: dict[str, tuple[float, float]] = {}
        for command in commands.values():  # warm-up, untimed: fills the bytecode cache of both
            subprocess.run(command, capture_output=True, env=env, cwd=folder, check=True)
        for _ in range(args.runs):  # interleaved, so that load on a shared machine hits both alike
            for name, command in commands.items():
                run = timings[name].measure(lambda: subprocess.run(
                    command, capture_output=True, text=True, env=env, cwd=folder, check=True))
                numbers[name] = _official_numbers(run.stdout)  # type: ignore[attr-defined]
            if numbers["authors"] != numbers["finscore"]:
                raise RuntimeError(f"different numbers: {numbers}")
        exe, prog = numbers["authors"]
        print(f"  both print execution accuracy {exe!r} and program accuracy {prog!r}")
        print(f"  authors' evaluate_result: {timings['authors'].summary()}")
        print(f"  finscore convfinqa:       {timings['finscore'].summary()}")
        print(f"  ratio of medians: {ratio(timings['authors'], timings['finscore'])} (aim: 30x)")


if __name__ == "__main__":
    main()
