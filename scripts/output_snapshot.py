#!/usr/bin/env python3
"""Record every finscore command's output on the shipped examples and recorded vectors; compare two records.

Issue #29 refactors finscore without changing any output byte. This script proves it:

    scripts/output_snapshot.py record /work/snapshots/before --checkout /work/base
    scripts/output_snapshot.py record /work/snapshots/after  --checkout /path/to/refactored
    scripts/output_snapshot.py compare /work/snapshots/before /work/snapshots/after [--renames renames.json]

`record` runs each case of CASES (declared below as data) with `PY -m finscore ARGV` and
PYTHONPATH=<checkout>/python, in one scratch folder holding copies of examples/ and the (decompressed)
files of tests/data that the cases read, so that every path a command prints is relative and the same for
both checkouts. Each case gets OUTDIR/<case>/ with `argv`, `status`, `stdout`, `stderr` and, under
`files/`, every file the command wrote into its own output folder `out/<case>/`.
`compare` compares two records byte for byte (exit 0 iff no case fails).
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple, Sequence

REPOSITORY = Path(__file__).resolve().parents[1]

#: A fixed trace key (not a secret: it only makes the seals of the recorded runs the same in every record).
FIXED_KEY = "5e" * 32
#: The run id given to `finscore run`, for the same reason (`--run-id` is the documented way to reproduce a run).
RUN_ID = "snapshot-run"


class Case(NamedTuple):
    """One invocation: `finscore ARGV` in the scratch folder, standard input from `stdin` (a path there) or none."""

    name: str
    argv: tuple[str, ...]
    stdin: str | None = None


#: Files of tests/data the cases read, decompressed to data/<path without .gz> in the scratch folder.
DATA_FILES = (
    "finqa/finqa_train.json.gz", "finqa/finqa_dev.json.gz", "finqa/finqa_test.json.gz",
    "finqa/example_predictions.json.gz", "convfinqa/convfinqa_dev.json.gz", "tatqa/tatqa_dataset_test_gold.json.gz",
    "vectors/gold.jsonl.gz", "vectors/mutants.jsonl.gz", "vectors/fuzz.jsonl.gz", "vectors/fuzz-py312.jsonl.gz",
    "vectors/convfinqa.jsonl.gz", "vectors/equal.jsonl.gz", "vectors/rewrites.jsonl.gz", "vectors/tatqa.jsonl.gz",
    "recordings/finqa-official-1-py311.jsonl.gz", "recordings/finqa-official-1-py312.jsonl.gz",
)

#: Small inputs written by the script itself (hand-made, fixed text), path in the scratch folder -> content.
MADE_FILES = {
    "made/programs.txt": "subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)\n",
    "made/table.json": json.dumps([["", "2019", "2018"], ["revenue", "$ 1,200", "$ 1,000"],
                                   ["net income", "120", "95"]]) + "\n",
    "made/bad_predictions.json": '[{"id": "no-such-id", "predicted": ["add(", "1", "2", ")", "EOF"]}]\n',
    "made/answers_decide.jsonl": (
        '{"completion": "Answer: 12.5%", "gold": {"exe_ans": 0.125, "program": "divide(1, 8)"}}\n'
        '{"completion": "no answer here", "gold": {"exe_ans": 3.0}}\n'
        '{"completion": "Answer: 3", "gold": {"exe_ans": 3.0}}\n'
        'not json\n'
    ),
    "made/tatqa_answers_decide.jsonl": (
        '{"completion": "Answer: 1,200 million", "gold": {"answer": 1200, "scale": "million", '
        '"answer_type": "arithmetic"}}\n'
    ),
}

COMMANDS = ("exec", "exec-jsonl", "contracts", "compare", "finqa", "convfinqa", "tatqa", "answers", "run", "rewards",
            "serve-reward")
SCRIPTED = ("oracle", "faulty")


def _cases() -> tuple[Case, ...]:
    """Every case, in the order they run (later cases read what earlier ones wrote under out/)."""
    ex = "examples"
    cases: list[Case] = [Case("help", ("--help",)), Case("version", ("--version",)), Case("no-command", ())]
    cases += [Case(f"help-{name}", (name, "--help")) for name in COMMANDS]
    cases += [Case("help-finqa-equal-jsonl", ("finqa", "equal-jsonl", "--help")),
              Case("help-tatqa-decide-jsonl", ("tatqa", "decide-jsonl", "--help")),
              Case("help-answers-decide-jsonl", ("answers", "decide-jsonl", "--help")),
              Case("help-answers-verify", ("answers", "verify", "--help")),
              Case("unknown-command", ("no-such-command",))]
    program = "subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)"
    cases += [
        Case("exec-readme", ("exec", program)),
        Case("exec-json", ("exec", program, "--json")),
        Case("exec-strict", ("exec", "add(1, 2), add(#0, const_5)", "--profile", "strict")),
        Case("exec-convfinqa", ("exec", "60.94", "--profile", "convfinqa")),
        Case("exec-tokens", ("exec", '["add(", "1", "2", ")", "EOF"]', "--json")),
        Case("exec-stdin", ("exec", "-"), "made/programs.txt"),
        Case("exec-table", ("exec", "table_sum(revenue, none), table_average(net income, none)", "--table",
                            "made/table.json", "--python", "3.12")),
        Case("exec-invalid", ("exec", "add(1, 2")),
        Case("exec-bad-table", ("exec", "add(1, 2)", "--table", "made/missing.json")),
        Case("exec-jsonl-gold", ("exec-jsonl", "--tables", "data/finqa/finqa_train.json", "--tables",
                                 "data/finqa/finqa_dev.json", "--tables", "data/finqa/finqa_test.json"),
             "data/vectors/gold.jsonl"),
        Case("exec-jsonl-mutants", ("exec-jsonl", "--tables", "data/finqa/finqa_dev.json", "--tables",
                                    "data/finqa/finqa_test.json", "--tables", "data/finqa/finqa_train.json"),
             "data/vectors/mutants.jsonl"),
        Case("exec-jsonl-fuzz", ("exec-jsonl",), "data/vectors/fuzz.jsonl"),
        Case("exec-jsonl-fuzz-py312", ("exec-jsonl", "--python", "3.12"), "data/vectors/fuzz-py312.jsonl"),
        Case("exec-jsonl-convfinqa", ("exec-jsonl", "--profile", "convfinqa", "--tables",
                                      "data/convfinqa/convfinqa_dev.json"), "data/vectors/convfinqa.jsonl"),
        Case("exec-jsonl-recording-py311", ("exec-jsonl", "--batch", "1"),
             "data/recordings/finqa-official-1-py311.jsonl"),
        Case("exec-jsonl-recording-py312", ("exec-jsonl", "--python", "3.12"),
             "data/recordings/finqa-official-1-py312.jsonl"),
        Case("exec-jsonl-strict", ("exec-jsonl", "--profile", "strict"), "data/recordings/finqa-official-1-py311.jsonl"),
    ]
    finqa = (f"{ex}/finqa/predictions.json", f"{ex}/finqa/gold.json")
    cases += [
        Case("finqa-example", ("finqa", *finqa, "--quiet")),
        Case("finqa-example-progress", ("finqa", *finqa)),
        Case("finqa-example-json", ("finqa", *finqa, "--json", "out/finqa-example-json/report.json", "--quiet")),
        Case("finqa-example-json-stdout", ("finqa", *finqa, "--json", "-", "--quiet")),
        Case("finqa-example-strict", ("finqa", *finqa, "--profile", "strict", "--examples", "0", "--quiet")),
        Case("finqa-example-py312", ("finqa", *finqa, "--python", "3.12", "--examples", "50", "--quiet")),
        Case("finqa-bad-ids", ("finqa", "made/bad_predictions.json", finqa[1], "--quiet")),
        Case("finqa-bad-ids-excluded", ("finqa", "made/bad_predictions.json", finqa[1], "--exclude-bad-ids",
                                        "--quiet")),
        Case("finqa-missing-file", ("finqa", "made/missing.json", finqa[1], "--quiet")),
        Case("finqa-test-data", ("finqa", "data/finqa/example_predictions.json", "data/finqa/finqa_test.json",
                                 "--quiet")),
        Case("finqa-test-data-json", ("finqa", "data/finqa/example_predictions.json", "data/finqa/finqa_test.json",
                                      "--json", "-", "--quiet")),
        Case("finqa-equal-jsonl", ("finqa", "equal-jsonl"), "data/vectors/equal.jsonl"),
        Case("finqa-equal-jsonl-explain", ("finqa", "equal-jsonl", "--explain"), "data/vectors/rewrites.jsonl"),
        Case("finqa-equal-jsonl-convfinqa", ("finqa", "equal-jsonl", "--profile", "convfinqa"),
             "data/vectors/equal.jsonl"),
    ]
    conv = (f"{ex}/convfinqa/predictions.json", f"{ex}/convfinqa/gold.json")
    tatqa = (f"{ex}/tatqa/predictions.json", f"{ex}/tatqa/gold.json")
    cases += [
        Case("convfinqa-example", ("convfinqa", *conv, "--quiet")),
        Case("convfinqa-example-json", ("convfinqa", *conv, "--json", "out/convfinqa-example-json/report.json",
                                        "--quiet")),
        Case("convfinqa-example-py312", ("convfinqa", *conv, "--python", "3.12", "--examples", "0", "--quiet")),
        Case("convfinqa-bad-ids-excluded", ("convfinqa", "made/bad_predictions.json", conv[1], "--exclude-bad-ids",
                                            "--quiet")),
        Case("tatqa-example", ("tatqa", *tatqa, "--quiet")),
        Case("tatqa-example-progress", ("tatqa", *tatqa)),
        Case("tatqa-example-json", ("tatqa", *tatqa, "--json", "out/tatqa-example-json/report.json", "--quiet")),
        Case("tatqa-example-json-stdout", ("tatqa", *tatqa, "--json", "-", "--examples", "0", "--quiet")),
        Case("tatqa-bad-ids", ("tatqa", "made/bad_predictions.json", tatqa[1], "--quiet")),
        Case("tatqa-bad-ids-excluded", ("tatqa", "made/bad_predictions.json", tatqa[1], "--exclude-bad-ids",
                                        "--quiet")),
        Case("tatqa-example-vs-test-gold", ("tatqa", tatqa[0], "data/tatqa/tatqa_dataset_test_gold.json",
                                            "--exclude-bad-ids", "--quiet")),
        Case("tatqa-decide-jsonl", ("tatqa", "decide-jsonl"), "data/vectors/tatqa.jsonl"),
    ]
    for source, protocol in (("finqa", "finqa-answer/1"), ("convfinqa", "convfinqa-answer/1"),
                             ("tatqa", "tatqa-answer/1")):
        files = (f"{ex}/answers/{source}_completions.jsonl", f"{ex}/answers/{source}_gold.json")
        base = ("answers", "--protocol", protocol, "--format", "answer-line", *files, "--quiet")
        out = f"out/answers-{source}"
        cases += [
            Case(f"answers-{source}", (*base, "--json", f"{out}/report.json", "--html", f"{out}/report.html")),
            Case(f"answers-{source}-json-stdout", (*base, "--json", "-")),
            Case(f"answers-{source}-whole", ("answers", "--protocol", protocol, "--format", "whole", *files,
                                             "--examples", "0", "--exclude-bad-ids", "--quiet")),
            Case(f"answers-{source}-verify", ("answers", "verify", f"{out}/report.json")),
            Case(f"answers-{source}-verify-no-rerun", ("answers", "verify", f"{out}/report.json", "--no-rerun")),
        ]
    cases += [
        Case("answers-decide-jsonl", ("answers", "decide-jsonl", "--protocol", "finqa-answer/1", "--format",
                                      "answer-line"), "made/answers_decide.jsonl"),
        Case("answers-decide-jsonl-tatqa", ("answers", "decide-jsonl", "--protocol", "tatqa-answer/1", "--format",
                                            "answer-line"), "made/tatqa_answers_decide.jsonl"),
        Case("answers-bad-ids", ("answers", "--protocol", "finqa-answer/1", "--format", "boxed",
                                 f"{ex}/answers/tatqa_completions.jsonl", f"{ex}/answers/finqa_gold.json", "--quiet")),
    ]
    cases += [
        Case("contracts-oracle", ("contracts", "--oracle", "--output", "out/contracts-oracle/report.json", "--html",
                                  "out/contracts-oracle/report.html", "--bootstrap", "200")),
    ]
    for agent in SCRIPTED:
        cases += [
            Case(f"run-{agent}", ("run", "--agent", agent, "--out", f"out/run-{agent}/run", "--key-file",
                                  "keys/trace.key", "--run-id", RUN_ID, "--bootstrap", "200", "--quiet")),
            Case(f"contracts-{agent}", ("contracts", "@kit", f"out/run-{agent}/run/predictions.jsonl",
                                        "--key-file", "keys/trace.key", "--bootstrap", "200", "--output",
                                        f"out/contracts-{agent}/report.json", "--html",
                                        f"out/contracts-{agent}/report.html")),
        ]
    cases += [
        Case("contracts-unsealed", ("contracts", "@kit", "out/run-oracle/run/predictions.jsonl",
                                    "--accept-unsealed", "--bootstrap", "100")),
        Case("compare-agents", ("compare", "out/contracts-faulty/report.json", "out/contracts-oracle/report.json",
                                "--labels", "faulty", "oracle", "--allow-non-model", "--bootstrap", "200",
                                "--output", "out/compare-agents/comparison.json", "--html",
                                "out/compare-agents/comparison.html")),
        Case("compare-refused", ("compare", "out/contracts-faulty/report.json", "out/contracts-oracle/report.json")),
        Case("rewards-missing-input", ("rewards", "made/missing.parquet", "out/rewards-missing-input/out.parquet")),
    ]
    return tuple(cases)


CASES = _cases()

# -- normalisation --------------------------------------------------------------------
#: Outputs that vary between two runs of the same checkout, each replaced by a fixed placeholder.
#: Everything else is compared as written. Found by recording one checkout twice; keep each rule narrow.
#: - `finscore run` writes the wall-clock duration of every attempt and of the run (`"seconds"`,
#:   `"elapsed_seconds"`, `"duration_seconds"`: JSON numbers) and the time it started/ended
#:   (`"started_at"`, `"finished_at"`: ISO 8601 strings); only those JSON fields are rewritten.
#: - a progress bar's elapsed time and rate ("12.3s", "1,234/s") on standard error only.
NORMALISE_JSON_FIELDS = ("seconds", "elapsed_seconds", "duration_seconds", "started_at", "finished_at",
                         "wall_seconds", "duration_ms")
_JSON_FIELD = re.compile(
    rb'("(?:' + b"|".join(re.escape(name.encode()) for name in NORMALISE_JSON_FIELDS) + rb')": ?)'
    rb'(-?[0-9][0-9.eE+-]*|"[0-9]{4}-[0-9]{2}-[0-9]{2}T[^"]*")'
)


def normalise(name: str, data: bytes) -> bytes:
    """`data` (the file `name` of a case's record) with the declared varying parts replaced."""
    data = _JSON_FIELD.sub(rb"\1<normalised>", data)
    return data


# -- record ---------------------------------------------------------------------------


def _prepare(scratch: Path, checkout: Path) -> None:
    """Copies of the inputs in the scratch folder, so that every command names them by relative paths."""
    shutil.copytree(checkout / "examples", scratch / "examples")
    for relative in DATA_FILES:
        source = checkout / "tests" / "data" / relative
        target = scratch / "data" / relative.removesuffix(".gz")
        target.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(source, "rb") as reading, open(target, "wb") as writing:
            shutil.copyfileobj(reading, writing)
    for relative, text in MADE_FILES.items():
        target = scratch / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    keys = scratch / "keys"
    keys.mkdir(mode=0o700)
    key = keys / "trace.key"
    key.write_text(FIXED_KEY + "\n", encoding="ascii")
    key.chmod(0o600)
    (scratch / "config").mkdir(mode=0o700)


def _environment(checkout: Path, scratch: Path) -> dict[str, str]:
    """The environment of every case: the checkout's package first, no user configuration, fixed locale."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("FINSCORE_", "OPENAI_", "PYTHON")) and name not in ("COLUMNS", "LINES")}
    environment.update(PYTHONPATH=str(checkout / "python"), XDG_CONFIG_HOME="config", HOME=str(scratch / "home"),
                       LC_ALL="C.UTF-8", PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1", COLUMNS="100")
    return environment


def record(outdir: Path, checkout: Path, python: str, only: Sequence[str]) -> int:
    if not (checkout / "python" / "finscore" / "__init__.py").is_file():
        print(f"output_snapshot: error: {checkout} is not a finscore checkout (no python/finscore)", file=sys.stderr)
        return 2
    if outdir.exists() and any(outdir.iterdir()):
        print(f"output_snapshot: error: {outdir} exists and is not empty; give a new folder", file=sys.stderr)
        return 2
    unknown = sorted(set(only) - {case.name for case in CASES})
    if unknown:
        print(f"output_snapshot: error: no such case: {', '.join(unknown)}", file=sys.stderr)
        return 2
    cases = [case for case in CASES if not only or case.name in only]
    outdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="finscore-snapshot-") as temporary:
        scratch = Path(temporary)
        _prepare(scratch, checkout)
        environment = _environment(checkout, scratch)
        for index, case in enumerate(cases, 1):
            print(f"[{index}/{len(cases)}] {case.name}", file=sys.stderr, flush=True)
            (scratch / "out" / case.name).mkdir(parents=True)
            stdin = open(scratch / case.stdin, "rb") if case.stdin else subprocess.DEVNULL
            try:
                done = subprocess.run([python, "-m", "finscore", *case.argv], cwd=scratch, env=environment,
                                      stdin=stdin, capture_output=True, check=False)
            finally:
                if case.stdin:
                    stdin.close()  # type: ignore[union-attr]
            target = outdir / case.name
            target.mkdir()
            written = {
                "argv": ("\n".join(case.argv) + "\n" + (f"< {case.stdin}\n" if case.stdin else "")).encode(),
                "status": f"{done.returncode}\n".encode(),
                "stdout": done.stdout,
                "stderr": done.stderr,
            }
            for path in sorted((scratch / "out" / case.name).rglob("*")):
                if path.is_file():
                    written["files/" + path.relative_to(scratch / "out" / case.name).as_posix()] = path.read_bytes()
            for name, data in written.items():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                (target / name).write_bytes(normalise(name, data))
    print(f"recorded {len(cases)} cases of {checkout} into {outdir} in {time.monotonic() - started:.0f} s",
          file=sys.stderr)
    return 0


# -- compare --------------------------------------------------------------------------


def _files(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


def _renamed(before: bytes, after: bytes, renames: dict[str, str]) -> bool:
    """True if `after` is `before` with each whole word of `renames` replaced by its new word (and nothing else)."""
    if not renames:
        return False
    pattern = re.compile(rb"\b(" + b"|".join(re.escape(old.encode()) for old in sorted(renames, key=len, reverse=True))
                         + rb")\b")
    replaced = pattern.sub(lambda match: renames[match.group(1).decode()].encode(), before)
    return replaced == after


def _diff(name: str, before: bytes, after: bytes, limit: int = 30) -> list[str]:
    lines = list(difflib.unified_diff(before.decode("utf-8", "replace").splitlines(),
                                      after.decode("utf-8", "replace").splitlines(),
                                      f"before/{name}", f"after/{name}", lineterm="", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return lines


def compare(before: Path, after: Path, renames: dict[str, str]) -> int:
    for folder in (before, after):
        if not folder.is_dir():
            print(f"output_snapshot: error: {folder} is not a recorded folder", file=sys.stderr)
            return 2
    cases = sorted({path.name for path in before.iterdir() if path.is_dir()}
                   | {path.name for path in after.iterdir() if path.is_dir()})
    failed = renamed = 0
    for case in cases:
        old, new = before / case, after / case
        if not old.is_dir() or not new.is_dir():
            print(f"FAIL {case}: only in {'after' if not old.is_dir() else 'before'}")
            failed += 1
            continue
        verdicts: list[tuple[str, str, list[str]]] = []
        for name in sorted(_files(old) | _files(new)):
            if not (old / name).is_file() or not (new / name).is_file():
                verdicts.append(("fail", name, [f"{name} only in {'after' if not (old / name).is_file() else 'before'}"]))
                continue
            a, b = (old / name).read_bytes(), (new / name).read_bytes()
            if a == b:
                continue
            verdicts.append(("renamed" if _renamed(a, b, renames) else "fail", name, _diff(name, a, b)))
        if any(verdict == "fail" for verdict, _, _ in verdicts):
            failed += 1
            print(f"FAIL {case}")
        elif verdicts:
            renamed += 1
            print(f"renamed {case}")
        for verdict, name, lines in verdicts:
            print(f"  {verdict}: {name}")
            for line in lines:
                print(f"    {line}")
    identical = len(cases) - failed - renamed
    print(f"{len(cases)} cases: {identical} identical, {renamed} renamed, {failed} failed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="output_snapshot.py",
        description="Record the output of every finscore command on the shipped examples and the recorded vectors "
                    "(record), or compare two records byte for byte (compare). Issue #29: a refactoring changes "
                    "no output byte.",
        epilog="Example: output_snapshot.py record /tmp/before --checkout /work/base; output_snapshot.py record "
               "/tmp/after; output_snapshot.py compare /tmp/before /tmp/after --renames renames.json",
    )
    commands = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    recording = commands.add_parser(
        "record", help="run every case and write OUTDIR/<case>/{argv,status,stdout,stderr,files/...}",
        description="Run every declared case with PY -m finscore and PYTHONPATH=CHECKOUT/python, in a scratch folder "
                    "holding copies of the inputs; write each case's exit status, standard output and error, and "
                    "the files it wrote, into OUTDIR/<case>/. Durations and timestamps are normalised (see "
                    "NORMALISE_JSON_FIELDS in the script); nothing else. Progress on standard error.")
    recording.add_argument("outdir", type=Path, metavar="OUTDIR", help="a new (or empty) folder")
    recording.add_argument("--checkout", type=Path, default=REPOSITORY,
                           help=f"the finscore checkout to run (default: this script's, {REPOSITORY})")
    recording.add_argument("--python", default=sys.executable, metavar="PY",
                           help="the interpreter to run finscore with (default: this one)")
    recording.add_argument("--only", action="append", default=[], metavar="CASE", help="record only this case")
    recording.add_argument("--list", action="store_true", help="list the cases and exit")
    comparing = commands.add_parser(
        "compare", help="compare two records; exit 0 iff no case fails",
        description="Compare two records byte for byte and print each differing case with a short unified diff. "
                    "With --renames FILE (a JSON object {old word: new word}) a file that differs by exactly "
                    "those whole-word replacements is 'renamed', not a failure. Exit status: 0 no failure, "
                    "1 some case failed, 2 bad usage.")
    comparing.add_argument("before", type=Path, metavar="BEFORE")
    comparing.add_argument("after", type=Path, metavar="AFTER")
    comparing.add_argument("--renames", type=Path, metavar="FILE", help="JSON object of allowed word renames")
    args = parser.parse_args(argv)
    if args.action == "record":
        if args.list:
            for case in CASES:
                print(case.name, " ".join(case.argv), f"< {case.stdin}" if case.stdin else "")
            return 0
        return record(args.outdir, args.checkout.resolve(), args.python, args.only)
    renames: dict[str, str] = {}
    if args.renames is not None:
        try:
            loaded = json.loads(args.renames.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            print(f"output_snapshot: error: cannot read --renames {args.renames}: {error}", file=sys.stderr)
            return 2
        if not isinstance(loaded, dict) or not all(isinstance(k, str) and isinstance(v, str) and k
                                                   for k, v in loaded.items()):
            print(f"output_snapshot: error: --renames {args.renames} must be a JSON object of word -> word",
                  file=sys.stderr)
            return 2
        renames = loaded
    return compare(args.before, args.after, renames)


if __name__ == "__main__":
    sys.exit(main())
