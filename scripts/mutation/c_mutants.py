#!/usr/bin/env python3
"""A small mutation tester for the C core: one-operator changes, one at a time (by hand, not in CI).

    python scripts/mutation/c_mutants.py                      # every site of core/*.c, 60 minutes
    python scripts/mutation/c_mutants.py --files core/fs_read.c --sample 40 --seed 1 --minutes 30
    python scripts/mutation/c_mutants.py --list               # the sites, without running anything

A mutant changes one binary operator written with spaces around it (+ - * / < <= > >=
== != && ||: the core's style) into its usual counterpart, or one integer literal n into
n + 1. Comments and preprocessor lines are left alone. Each mutant, in a copy of the
working tree under --work (never in the checkout):
  1. builds natively (build/build_native.sh, ASan + UBSan; a mutant that does not compile
     is "stillborn" and not counted);
  2. runs the C tests (core/tests/test_core.c) under the sanitizers;
  3. if they pass, builds the WebAssembly module into the copy and runs a selection of the
     suite (--tests; default: the CPython oracles of round/pow/sum and the gold and mutant
     rows of the recorded vectors) against it.
A mutant that passes all three survived: it is written to WORK/survivors.txt, to be killed
by a new test or recorded as equivalent (tests/README.md). One mutant at a time, niced.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tree_copy import REPOSITORY, copy_working_tree

DEFAULT_WORK = Path(os.environ.get("TMPDIR", "/tmp")) / "finscore-c-mutation"
DEFAULT_TESTS = (
    "tests/core/test_rounding.py", "tests/core/test_pow.py", "tests/core/test_sum.py",
    "tests/core/test_abi_misuse.py",
    "tests/engine/test_literal_readings.py",
    "tests/engine/test_vectors.py::test_every_row_matches_the_official_evaluator",
)
DEFAULT_TEST_FILTER = "gold or mutants or not test_every_row"
NON_FMA = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-FMA"}
SWAPS = {"+": "-", "-": "+", "*": "/", "/": "*", "<": "<=", "<=": "<", ">": ">=", ">=": ">",
         "==": "!=", "!=": "==", "&&": "||", "||": "&&"}
_OPERATOR = re.compile(r"(?<= )(\+|-|\*|/|<=|<|>=|>|==|!=|&&|\|\|)(?= )")
_INTEGER = re.compile(r"(?<![\w.])(\d+)(?![\w.])")


@dataclass(frozen=True)
class Mutant:
    file: str
    line: int  # 1-based
    column: int
    old: str
    new: str

    def describe(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.old!r} -> {self.new!r}"


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, code with comments and string literals blanked) of every non-preprocessor line."""
    without_comments = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    without_comments = re.sub(r"//[^\n]*", lambda m: " " * len(m.group()), without_comments)
    blanked = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', lambda m: " " * len(m.group()), without_comments)
    return [(number, line) for number, line in enumerate(blanked.split("\n"), start=1)
            if not line.lstrip().startswith("#")]


def find_mutants(files: list[str]) -> list[Mutant]:
    mutants = []
    for name in files:
        for number, line in _code_lines((REPOSITORY / name).read_text(encoding="utf-8")):
            for match in _OPERATOR.finditer(line):
                mutants.append(Mutant(name, number, match.start(), match.group(), SWAPS[match.group()]))
            for match in _INTEGER.finditer(line):
                mutants.append(Mutant(name, number, match.start(), match.group(), str(int(match.group()) + 1)))
    return mutants


def apply(mutant: Mutant, tree: Path) -> str:
    """Write the mutant into the tree; return the original text to restore."""
    path = tree / mutant.file
    original = path.read_text(encoding="utf-8")
    lines = original.split("\n")
    line = lines[mutant.line - 1]
    assert line[mutant.column:mutant.column + len(mutant.old)] == mutant.old, mutant
    lines[mutant.line - 1] = line[:mutant.column] + mutant.new + line[mutant.column + len(mutant.old):]
    path.write_text("\n".join(lines), encoding="utf-8")
    return original


def _niced(command: list[str], cwd: Path, timeout: float,
           env: dict[str, str] | None) -> subprocess.CompletedProcess[str] | None:
    """The finished command, niced, with its output; None when it outlasted `timeout`."""
    try:
        return subprocess.run(["nice", "-n", "10", *command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None


def _run(command: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> bool:
    done = _niced(command, cwd, timeout, env)
    if done is None or done.returncode != 0:
        return False
    return "runtime error" not in done.stderr and "Sanitizer" not in done.stderr


def _tests_pass(command: list[str], cwd: Path, timeout: float, env: dict[str, str]) -> bool:
    """Whether the selection passed. Only a failed test (pytest's exit 1) or a timeout kills a
    mutant: a selection that cannot run (a moved file, a usage error, nothing collected) would
    "kill" every mutant, so it stops the whole run instead."""
    done = _niced(command, cwd, timeout, env)
    if done is None:
        return False
    if done.returncode not in (0, 1):
        raise SystemExit(f"c_mutants: the test selection could not run (pytest exit {done.returncode}):\n"
                         f"{(done.stdout + done.stderr)[-2000:]}")
    return done.returncode == 0


def judge(tree: Path, tests: list[str], test_filter: str, timeout: float) -> str:
    """'stillborn', 'killed' (by which stage) or 'survived'."""
    native = tree / "build" / "out" / "mutant"
    if not _run(["bash", "build/build_native.sh", str(native)], tree, timeout):
        return "stillborn"
    c_env = dict(os.environ, **NON_FMA, ASAN_OPTIONS="detect_leaks=1", UBSAN_OPTIONS="halt_on_error=1")
    if not _run([str(native / "test_core")], tree, timeout, c_env):
        return "killed: C tests"
    if not _run(["bash", "build/build_wasm.sh"], tree, timeout):
        return "stillborn"  # compiles natively but not for WebAssembly: not a mutant of the module
    env = dict(os.environ, PYTHONPATH=str(tree / "python"))
    env.pop("CI", None)
    pytest = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-k", test_filter, *tests]
    if not _tests_pass(pytest, tree, timeout, env):
        return "killed: suite"
    return "survived"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="+", help="C files to mutate (default: core/*.c)")
    parser.add_argument("--sample", type=int, help="run a seeded sample of this many mutants")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--minutes", type=float, default=60.0, help="stop starting mutants after this long")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds for one build or test stage")
    parser.add_argument("--tests", nargs="+", default=list(DEFAULT_TESTS))
    parser.add_argument("-k", dest="test_filter", default=DEFAULT_TEST_FILTER, help="pytest -k for --tests")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)

    files = args.files or sorted(str(p.relative_to(REPOSITORY)) for p in (REPOSITORY / "core").glob("*.c"))
    mutants = find_mutants(files)
    if args.sample is not None and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample),
                         key=lambda m: (m.file, m.line, m.column))
    if args.list:
        print("\n".join(m.describe() for m in mutants))
        print(f"{len(mutants)} mutants")
        return 0

    tree = args.work / "tree"
    copy_working_tree(tree)
    args.work.mkdir(parents=True, exist_ok=True)
    baseline = judge(tree, args.tests, args.test_filter, args.timeout)
    if baseline != "survived":  # the unmutated core must build and pass every stage
        raise SystemExit(f"c_mutants: the unmutated tree does not pass ({baseline}); no mutant can be judged")
    print("baseline: the unmutated tree builds and passes every stage", flush=True)
    results: dict[str, list[Mutant]] = {}
    stop_at = time.monotonic() + args.minutes * 60
    for count, mutant in enumerate(mutants, start=1):
        if time.monotonic() > stop_at:
            print(f"time limit: {len(mutants) - count + 1} mutants not run", flush=True)
            break
        original = apply(mutant, tree)
        try:
            verdict = judge(tree, args.tests, args.test_filter, args.timeout)
        finally:
            (tree / mutant.file).write_text(original, encoding="utf-8")
        results.setdefault(verdict, []).append(mutant)
        print(f"[{count}/{len(mutants)}] {verdict}: {mutant.describe()}", flush=True)

    killed = sum(len(v) for k, v in results.items() if k.startswith("killed"))
    survived = results.get("survived", [])
    run = killed + len(survived)
    score = f"{killed / run:.1%}" if run else "n/a"
    (args.work / "survivors.txt").write_text("".join(m.describe() + "\n" for m in survived), encoding="utf-8")
    print(f"C core: {run} mutants run, {killed} killed, {len(survived)} survived, "
          f"{len(results.get('stillborn', []))} stillborn; score {score}; survivors in {args.work / 'survivors.txt'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
