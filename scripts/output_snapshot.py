#!/usr/bin/env python3
"""Record every finscore command's output on the shipped examples and recorded vectors, and compare two records.

Issue #29 refactors the package without changing any output byte; this script is its check:

    scripts/output_snapshot.py record /work/snapshots/before --checkout /path/to/old/checkout
    scripts/output_snapshot.py record /work/snapshots/after                # this checkout
    scripts/output_snapshot.py compare /work/snapshots/before /work/snapshots/after [--renames renames.json]

`record` runs each case of CASES (below: data, not code) through `PY -m finscore` with
PYTHONPATH=<checkout>/python, in a scratch folder holding a copy of the checkout's examples/ and the
unpacked tests/data files, and writes OUTDIR/<case>/<i>.status, <i>.stdout, <i>.stderr for its i-th
invocation and OUTDIR/<case>/files/... for every file the case wrote. The only changes made to what a
command printed or wrote are the NORMALISATIONS below, each narrow and documented.
`compare` compares two records byte for byte; exit 0 iff no case differs (other than by --renames).
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

HERE = Path(__file__).resolve().parent.parent


class Call(NamedTuple):
    """One invocation: the arguments after `finscore`, and the file (relative to the scratch folder) fed on stdin."""

    argv: tuple[str, ...]
    stdin: str | None = None


def call(*argv: str, stdin: str | None = None) -> Call:
    return Call(tuple(argv), stdin)


#: The fixed trace key every run/contracts case uses (written into the scratch folder, mode 0600), so that
#: seals are reproducible without normalising them and the user's own key is never read or created.
KEY = "key/trace.key"
KEY_TEXT = "5eed" * 16 + "\n"

#: The tests/data files unpacked (gunzipped) into data/ of the scratch folder: the recorded vectors and datasets.
DATA_FILES: tuple[str, ...] = (
    "finqa/finqa_train.json", "finqa/finqa_dev.json", "finqa/finqa_test.json", "finqa/example_predictions.json",
    "convfinqa/convfinqa_dev.json", "tatqa/tatqa_dataset_test_gold.json", "tatqa/tatqa_dataset_dev.json",
    "vectors/gold.jsonl", "vectors/mutants.jsonl", "vectors/fuzz.jsonl", "vectors/fuzz-py312.jsonl",
    "vectors/equal.jsonl", "vectors/rewrites.jsonl", "vectors/convfinqa.jsonl", "vectors/tatqa.jsonl",
)

FINQA_TABLES = ("--tables", "data/finqa/finqa_train.json", "--tables", "data/finqa/finqa_dev.json",
                "--tables", "data/finqa/finqa_test.json")
EX = "examples"
PROGRAM = "subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)"
def run_fixed(tag: str) -> tuple[str, ...]:
    """The fixed key and a fixed run id of one run (an id given by hand is used once per key: issue #31)."""
    return ("--key-file", KEY, "--run-id", f"snapshot-{tag}", "--quiet")

#: Every case: a name (its folder) and the invocations it makes, in order, in one scratch out/ folder.
CASES: tuple[tuple[str, tuple[Call, ...]], ...] = (
    # --help of every command and form, the version, and no command at all
    ("help", (call("--help"), call("--version"), call())),
    *((f"help-{name.replace(' ', '-')}", (call(*name.split(), "--help"),)) for name in (
        "exec", "exec-jsonl", "contracts", "compare", "finqa", "finqa equal-jsonl", "convfinqa", "tatqa",
        "tatqa decide-jsonl", "answers", "answers decide-jsonl", "answers verify", "run", "rewards",
        "serve-reward", "compare finqa", "compare convfinqa", "compare tatqa")),
    # exec
    ("exec", (call("exec", PROGRAM), call("exec", PROGRAM, "--json"), call("exec", PROGRAM, "--profile", "strict"),
              call("exec", '["add(", "1", "2", ")", "EOF"]'), call("exec", "add(1, 2), divide(#0, 0)"),
              call("exec", "add(1,"), call("exec", "-", stdin="program.txt"),
              call("exec", "table_sum(revenue, none)", "--table", "table.json", "--python", "3.12"),
              call("exec", "table_sum(revenue, none)", "--table", "table.json", "--python", "3.13", "--json"),
              call("exec", "5.5", "--profile", "convfinqa"), call("exec", PROGRAM, "--table", "missing.json"))),
    # exec-jsonl on the recorded execution vectors
    ("exec-jsonl-gold", (call("exec-jsonl", *FINQA_TABLES, stdin="data/vectors/gold.jsonl"),)),
    ("exec-jsonl-mutants", (call("exec-jsonl", *FINQA_TABLES, stdin="data/vectors/mutants.jsonl"),
                            call("exec-jsonl", *FINQA_TABLES, "--profile", "strict",
                                 stdin="data/vectors/mutants.jsonl"),)),
    ("exec-jsonl-fuzz", (call("exec-jsonl", stdin="data/vectors/fuzz.jsonl"),)),
    ("exec-jsonl-fuzz-py312", (call("exec-jsonl", "--python", "3.12", stdin="data/vectors/fuzz-py312.jsonl"),)),
    ("exec-jsonl-convfinqa", (call("exec-jsonl", "--profile", "convfinqa", "--tables",
                                   "data/convfinqa/convfinqa_dev.json", stdin="data/vectors/convfinqa.jsonl"),)),
    ("exec-jsonl-batch1", (call("exec-jsonl", "--batch", "1", stdin="program-lines.jsonl"),)),
    # finqa
    ("finqa-example", (call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--quiet"),
                       call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--quiet",
                            "--profile", "strict", "--examples", "0"),
                       call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--quiet",
                            "--json", "out/finqa.json"),
                       call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--json", "-"),
                       call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--quiet",
                            "--exclude-bad-ids", "--python", "3.12"),
                       call("finqa", f"{EX}/finqa/gold.json", f"{EX}/finqa/predictions.json", "--quiet"),
                       call("finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--examples", "-1"))),
    ("finqa-official", (call("finqa", "data/finqa/example_predictions.json", "data/finqa/finqa_test.json",
                             "--quiet", "--examples", "30"),
                        call("finqa", "data/finqa/example_predictions.json", "data/finqa/finqa_test.json",
                             "--quiet", "--json", "out/official.json"))),
    ("finqa-equal-jsonl", (call("finqa", "equal-jsonl", stdin="data/vectors/equal.jsonl"),
                           call("finqa", "equal-jsonl", "--explain", stdin="data/vectors/rewrites.jsonl"),
                           call("finqa", "equal-jsonl", "--profile", "strict", stdin="data/vectors/rewrites.jsonl"))),
    # convfinqa
    ("convfinqa-example", (call("convfinqa", f"{EX}/convfinqa/predictions.json", f"{EX}/convfinqa/gold.json",
                                "--quiet"),
                           call("convfinqa", f"{EX}/convfinqa/predictions.json", f"{EX}/convfinqa/gold.json",
                                "--json", "out/convfinqa.json", "--examples", "3", "--quiet"),
                           call("convfinqa", f"{EX}/convfinqa/predictions.json", f"{EX}/convfinqa/gold.json",
                                "--json", "-", "--exclude-bad-ids", "--python", "3.13"))),
    # tatqa
    ("tatqa-example", (call("tatqa", f"{EX}/tatqa/predictions.json", f"{EX}/tatqa/gold.json", "--quiet"),
                       call("tatqa", f"{EX}/tatqa/predictions.json", f"{EX}/tatqa/gold.json", "--quiet",
                            "--json", "out/tatqa.json", "--examples", "0"),
                       call("tatqa", f"{EX}/tatqa/predictions.json", f"{EX}/tatqa/gold.json", "--json", "-",
                            "--exclude-bad-ids"),
                       call("tatqa", f"{EX}/tatqa/predictions.json", "data/tatqa/tatqa_dataset_dev.json", "--quiet"),
                       call("tatqa", f"{EX}/tatqa/predictions.json", "data/tatqa/tatqa_dataset_dev.json", "--quiet",
                            "--exclude-bad-ids"))),
    ("tatqa-decide-jsonl", (call("tatqa", "decide-jsonl", stdin="data/vectors/tatqa.jsonl"),)),
    # answers
    *((f"answers-{bench}", (
        call("answers", "--protocol", f"{bench}-answer/1", "--format", "answer-line",
             f"{EX}/answers/{bench}_completions.jsonl", f"{EX}/answers/{bench}_gold.json", "--quiet"),
        call("answers", "--protocol", f"{bench}-answer/1", "--format", "whole", "--examples", "0",
             f"{EX}/answers/{bench}_completions.jsonl", f"{EX}/answers/{bench}_gold.json", "--quiet",
             "--json", "out/report.json", "--html", "out/report.html"),
        call("answers", "--protocol", f"{bench}-answer/1", "--format", "boxed", "--exclude-bad-ids",
             f"{EX}/answers/{bench}_completions.jsonl", f"{EX}/answers/{bench}_gold.json", "--json", "-"),
        call("answers", "verify", "out/report.json"),
        call("answers", "verify", "out/report.json", "--no-rerun"),
    )) for bench in ("finqa", "convfinqa", "tatqa")),
    ("answers-decide-jsonl", (
        call("answers", "decide-jsonl", "--protocol", "finqa-answer/1", "--format", "answer-line",
             stdin="answer-lines-finqa.jsonl"),
        call("answers", "decide-jsonl", "--protocol", "tatqa-answer/1", "--format", "json",
             stdin="answer-lines-tatqa.jsonl"),
        call("answers", "--protocol", "finqa-answer/1", "--format", "json", "missing.jsonl",
             f"{EX}/answers/finqa_gold.json"))),
    # the benchmark form of compare (issue #33)
    ("compare-benchmarks", (
        call("compare", "finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/predictions_b.json",
             f"{EX}/finqa/gold.json", "--json", "out/cmp-finqa.json", "--html", "out/cmp-finqa.html"),
        call("compare", "finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/predictions_b.json",
             f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json", "--labels", "a", "b", "c", "--seed", "7",
             "--resamples", "300"),
        call("compare", "convfinqa", f"{EX}/convfinqa/predictions.json", f"{EX}/convfinqa/predictions.json",
             f"{EX}/convfinqa/gold.json", "--resamples", "300"),
        call("compare", "tatqa", f"{EX}/tatqa/predictions.json", f"{EX}/tatqa/predictions.json",
             f"{EX}/tatqa/gold.json", "--json", "-", "--resamples", "300"),
        call("compare", "finqa", f"{EX}/finqa/predictions.json", f"{EX}/finqa/gold.json"))),
    # contracts, run, compare
    ("contracts-oracle", (call("contracts", "--oracle", "--output", "out/oracle.json", "--html", "out/oracle.html"),
                          call("contracts", "--oracle"))),
    ("run-oracle-vs-wrong-unit", (
        call("run", "--agent", "oracle", "--out", "out/oracle", *run_fixed("oracle")),
        call("run", "--agent", "wrong_unit", "--out", "out/wrong_unit", *run_fixed("wrong_unit")),
        call("contracts", "@kit", "out/oracle/predictions.jsonl", "--key-file", KEY, "--output", "out/c-oracle.json",
             "--html", "out/c-oracle.html"),
        call("contracts", "@kit", "out/wrong_unit/predictions.jsonl", "--accept-unsealed"),
        call("compare", "out/oracle/report.json", "out/wrong_unit/report.json"),
        call("compare", "out/oracle/report.json", "out/wrong_unit/report.json", "--allow-non-model",
             "--labels", "oracle", "wrong", "--output", "out/cmp.json", "--html", "out/cmp.html", "--bootstrap", "500"),
        call("compare", "out/oracle/report.json", "out/wrong_unit/report.json", "--allow-non-model", "--seed", "7"))),
    ("run-scripted", (
        call("run", "--agent", "forged_trace", "--out", "out/forged", *run_fixed("forged")),
        call("run", "--agent", "malformed_output", "--out", "out/malformed", "--only", "cg-en", *run_fixed("malformed")),
        call("run", "--agent", "crash", "--out", "out/crash", "--only", "cg-en", "--only", "fv-hi", *run_fixed("crash")),
        call("run", "--agent", "out_of_scope", "--out", "out/scope", "--no-score", *run_fixed("scope")),
        call("run", "--agent", "oracle", "--out", "out/attempts", "--attempts", "2", "--only", "sip-ta", *run_fixed("attempts")),
        call("run", "--agent", "oracle", "--out", "out/bad", "--bootstrap", "0", *run_fixed("bad")))),
    # rewards: only what needs no Parquet input made up here
    ("rewards-errors", (call("rewards", "missing.parquet", "out/x.parquet"),)),
)

#: Small inputs the cases read that are not shipped files, written into the scratch folder (declared here, fixed).
SCRATCH_FILES: dict[str, str] = {
    KEY: KEY_TEXT,
    "program.txt": "divide(100, 3), multiply(#0, 3)\n",
    "table.json": json.dumps([["", "2019"], ["revenue", "0.1"], ["revenue", "0.2"], ["revenue", "0.3"]]) + "\n",
    "program-lines.jsonl": "".join(json.dumps(line) + "\n" for line in (
        {"program": PROGRAM},
        {"program": ["add(", "1", "2", ")", "EOF"], "table": []},
        {"program": "table_max(a, none)", "table": [["a", "1"], ["a", "x"]]},
        {"nothing": 1},
    )) + "not json\n",
    "answer-lines-finqa.jsonl": "".join(json.dumps(line) + "\n" for line in (
        {"completion": "Answer: 94", "gold": {"exe_ans": 94.0}},
        {"completion": "Answer: 12%", "gold": {"exe_ans": 0.12, "program": "divide(12, 100)"}},
        {"completion": "no answer", "gold": {"exe_ans": 1.5}},
        {"gold": {"exe_ans": 1}},
    )),
    "answer-lines-tatqa.jsonl": "".join(json.dumps(line) + "\n" for line in (
        {"completion": '{"answer": "2,247.75"}', "gold": {"answer": "2247.75", "scale": ""}},
        {"completion": '{"answer": "1.2 million"}', "gold": {"answer": "1.2", "scale": "million",
                                                              "answer_type": "arithmetic"}},
        {"completion": "x", "gold": {"answer": ["a", "b"], "scale": ""}},
    )),
}

#: NORMALISATIONS: (regex, replacement, why). Applied, in order, to every recorded stdout, stderr and output file.
#: Nothing else is ever changed. Paths are placeholders so two checkouts (and two scratch folders) record alike.
NORMALISATIONS: tuple[tuple[str, str, str], ...] = (
    # The per-attempt wall-clock durations `finscore run` writes into run.json under this very key,
    # which says itself that they vary: each number in that object becomes 0.
    (r'(?<="durations_seconds_not_deterministic": \{)[^{}]*(?=\})', "<DURATIONS>",
     "run.json's durations_seconds_not_deterministic object"),
)


def literal_rules(checkout: Path, scratch: Path) -> list[tuple[str, str]]:
    """The scratch folder's and the checkout's absolute paths, which differ between records, as placeholders."""
    return [(str(scratch), "<SCRATCH>"), (str(checkout), "<CHECKOUT>")]


def normalise(data: bytes, literals: Sequence[tuple[str, str]]) -> bytes:
    for old, new in literals:
        data = data.replace(old.encode(), new.encode())
    for pattern, replacement, _why in NORMALISATIONS:
        data = re.sub(pattern.encode(), replacement.encode(), data)
    return data


def prepare_scratch(checkout: Path, scratch: Path) -> None:
    """examples/ copied from the checkout, the tests/data files unpacked into data/, the SCRATCH_FILES written."""
    shutil.copytree(checkout / "examples", scratch / "examples")
    for name in DATA_FILES:
        source = checkout / "tests" / "data" / (name + ".gz")
        if not source.is_file():
            raise SystemExit(f"output_snapshot: {source} is missing (is {checkout} a finscore checkout?)")
        target = scratch / "data" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(source, "rb") as packed, open(target, "wb") as plain:
            shutil.copyfileobj(packed, plain)
    for name, text in SCRATCH_FILES.items():
        path = scratch / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (scratch / KEY).chmod(0o600)


def record(outdir: Path, checkout: Path, python: str, only: Sequence[str]) -> int:
    checkout = checkout.resolve()
    # the calls run in a scratch folder: a relative interpreter path must name the one given here
    found = shutil.which(python)
    if found is None:
        print(f"output_snapshot: --python {python} is not an interpreter that can be run", file=sys.stderr)
        return 2
    python = str(Path(found).absolute())
    if not (checkout / "python" / "finscore").is_dir():
        print(f"output_snapshot: {checkout} has no python/finscore: give a finscore checkout with --checkout",
              file=sys.stderr)
        return 2
    if outdir.exists() and any(outdir.iterdir()):
        print(f"output_snapshot: {outdir} exists and is not empty; give a new folder", file=sys.stderr)
        return 2
    cases = [case for case in CASES if not only or case[0] in only]
    unknown = set(only) - {name for name, _ in CASES}
    if unknown:
        print(f"output_snapshot: no case named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    outdir.mkdir(parents=True, exist_ok=True)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("FINSCORE_", "OPENAI_"))}
    environment.update(PYTHONPATH=str(checkout / "python"), PYTHONHASHSEED="0", LC_ALL="C.UTF-8",
                       COLUMNS="80", NO_COLOR="1")
    environment.pop("PYTHONSTARTUP", None)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="finscore-snapshot-") as temporary:
        scratch = Path(temporary).resolve()
        prepare_scratch(checkout, scratch)
        literals = literal_rules(checkout, scratch)
        for number, (name, calls) in enumerate(cases, 1):
            print(f"[{number}/{len(cases)}] {name} ({len(calls)} call{'s' * (len(calls) != 1)}) "
                  f"{time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)
            out = scratch / "out"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            case_dir = outdir / name
            case_dir.mkdir()
            for index, one in enumerate(calls):
                stdin = open(scratch / one.stdin, "rb") if one.stdin else subprocess.DEVNULL
                try:
                    done = subprocess.run([python, "-m", "finscore", *one.argv], cwd=scratch, env=environment,
                                          stdin=stdin, capture_output=True, timeout=600)
                finally:
                    if one.stdin:
                        stdin.close()  # type: ignore[union-attr]
                command = " ".join(one.argv) + (f" < {one.stdin}" if one.stdin else "")
                (case_dir / f"{index:02d}.status").write_text(f"finscore {command}\nexit {done.returncode}\n")
                (case_dir / f"{index:02d}.stdout").write_bytes(normalise(done.stdout, literals))
                (case_dir / f"{index:02d}.stderr").write_bytes(normalise(done.stderr, literals))
            for path in sorted(out.rglob("*")):
                if path.is_file():
                    target = case_dir / "files" / path.relative_to(out)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(normalise(path.read_bytes(), literals))
    print(f"recorded {len(cases)} cases into {outdir} in {time.monotonic() - started:.0f}s", file=sys.stderr)
    return 0


def _files(root: Path) -> set[str]:
    return {str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()}


def _apply_renames(data: bytes, renames: dict[str, str]) -> bytes:
    if not renames:
        return data
    # whole words only: renaming `score` must not excuse a change of `scores` or `rescore`
    words = b"|".join(re.escape(old.encode()) for old in sorted(renames, key=len, reverse=True))
    pattern = re.compile(rb"(?<![A-Za-z0-9_])(?:" + words + rb")(?![A-Za-z0-9_])")
    return pattern.sub(lambda match: renames[match.group(0).decode()].encode(), data)


def _short_diff(before: bytes, after: bytes, name: str, lines: int = 20) -> str:
    old = before.decode("utf-8", "backslashreplace").splitlines()
    new = after.decode("utf-8", "backslashreplace").splitlines()
    diff = list(difflib.unified_diff(old, new, f"before/{name}", f"after/{name}", n=1, lineterm=""))
    if not diff:  # same lines, different bytes (line endings, final newline)
        diff = [f"--- before/{name}", f"+++ after/{name}", f"(bytes differ: {len(before)} vs {len(after)} bytes,"
                " same lines)"]
    extra = len(diff) - lines
    return "\n".join(diff[:lines] + ([f"... ({extra} more diff lines)"] if extra > 0 else []))


def compare(before: Path, after: Path, renames: dict[str, str]) -> int:
    """Print each differing case; 'renamed' when the difference is exactly the renames. Exit 0 iff no failure."""
    for root in (before, after):
        if not root.is_dir():
            print(f"output_snapshot: {root} is not a folder recorded by `record`", file=sys.stderr)
            return 2
    cases = sorted({path.name for path in before.iterdir() if path.is_dir()}
                   | {path.name for path in after.iterdir() if path.is_dir()})
    failures = renamed = identical = 0
    for case in cases:
        old_files, new_files = _files(before / case), _files(after / case)
        problems: list[str] = []
        renamed_here = False
        for name in sorted(old_files - new_files):
            problems.append(f"only in before: {case}/{name}")
        for name in sorted(new_files - old_files):
            problems.append(f"only in after: {case}/{name}")
        for name in sorted(old_files & new_files):
            old = (before / case / name).read_bytes()
            new = (after / case / name).read_bytes()
            if old == new:
                continue
            if renames and _apply_renames(old, renames) == new:
                renamed_here = True
                continue
            problems.append(_short_diff(old, new, f"{case}/{name}"))
        if problems:
            failures += 1
            print(f"DIFFERS {case}")
            for problem in problems:
                print("  " + problem.replace("\n", "\n  "))
        elif renamed_here:
            renamed += 1
            print(f"renamed {case}")
        else:
            identical += 1
    print(f"{len(cases)} cases: {identical} identical, {renamed} renamed, {failures} differ")
    return 1 if failures else 0


def _load_renames(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        renames = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SystemExit(f"output_snapshot: --renames {path}: {error}") from error
    if not isinstance(renames, dict) or not all(isinstance(k, str) and k and isinstance(v, str)
                                                for k, v in renames.items()):
        raise SystemExit(f"output_snapshot: --renames {path}: must be a JSON object of non-empty words to words")
    return renames


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="output_snapshot.py",
        description="Record the output of every finscore command on the shipped examples and recorded vectors "
                    "(record), and compare two records byte for byte (compare). Issue #29's proof that a refactor "
                    "changed no output byte.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rec = commands.add_parser("record", help="run every case and write OUTDIR/<case>/...",
                              description="Run every case of CASES through `PY -m finscore` with the PYTHONPATH of "
                                          "CHECKOUT and write each call's exit status, stdout and stderr, and the "
                                          "files the case wrote, into OUTDIR/<case>/ (normalised only as "
                                          "NORMALISATIONS and the path placeholders say). Progress on stderr.")
    rec.add_argument("outdir", type=Path, metavar="OUTDIR", help="a new (or empty) folder")
    rec.add_argument("--checkout", type=Path, default=HERE,
                     help=f"the finscore checkout to run (default: this script's, {HERE})")
    rec.add_argument("--python", default=sys.executable, metavar="PY",
                     help="the interpreter that runs `-m finscore` (default: the one running this script)")
    rec.add_argument("--only", action="append", default=[], metavar="CASE", help="record only this case; repeatable")
    cmp = commands.add_parser("compare", help="compare two records; exit 0 iff no case differs",
                              description="Compare two records byte for byte and print each differing case with a "
                                          "short unified diff. With --renames FILE (a JSON object old-word -> "
                                          "new-word) a case whose only differences are exactly those replacements "
                                          "is reported as 'renamed', not as a failure. Exit 0 iff no failure.")
    cmp.add_argument("before", type=Path, metavar="BEFORE")
    cmp.add_argument("after", type=Path, metavar="AFTER")
    cmp.add_argument("--renames", type=Path, default=None, metavar="FILE")
    commands.add_parser("cases", help="list the cases and their calls")
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.outdir, args.checkout, args.python, args.only)
    if args.command == "compare":
        return compare(args.before, args.after, _load_renames(args.renames))
    for name, calls in CASES:
        print(name)
        for one in calls:
            print("    finscore " + " ".join(one.argv) + (f" < {one.stdin}" if one.stdin else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
