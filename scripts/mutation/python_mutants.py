#!/usr/bin/env python3
"""Mutation testing of finscore's scoring rules with cosmic-ray (by hand, not in CI: it is slow).

    python scripts/mutation/python_mutants.py reader finqa-scoring --minutes 20
    python scripts/mutation/python_mutants.py --name reader --modules python/finscore/engine/reader \\
        --tests tests/engine/test_reading.py
    python scripts/mutation/python_mutants.py reader --rerun-survivors   # after adding tests
    python scripts/mutation/python_mutants.py reader --rerun-survivors --tests tests/engine tests/finqa

Each target (scripts/mutation/targets.toml, or --name/--modules/--tests) is mutated in
a copy of the working tree under --work (never in the checkout: cosmic-ray edits files
in place), one mutant at a time, each running the target's test selection with
`pytest -x`. The run is bounded (--minutes per target, --timeout per mutant) and niced,
so it never takes the whole machine; a session is resumed where it stopped.
`--rerun-survivors` runs only the mutants that survived last time, against the tests as
they are now. The summary gives the score (killed / run) and writes each survivor's diff
to WORK/TARGET/survivors.txt, to be killed by a new test or recorded as equivalent
(tests/README.md). Needs the `mutation` extra: pip install -e '.[mutation]'.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tree_copy import REPOSITORY, copy_working_tree

TARGETS = Path(__file__).with_name("targets.toml")
DEFAULT_WORK = Path(os.environ.get("TMPDIR", "/tmp")) / "finscore-mutation"
#: Operators left out: a binary operator swapped for a bitwise, shift, power, modulo or floor
#: division (on floats these raise TypeError or give absurd values at once, so they only cost
#: time), and a comparison swapped for `is`/`is not`. Every arithmetic swap among + - * /,
#: every other comparison swap, numbers, booleans, `not`, and/or, loops, exceptions, decorators
#: and break/continue are kept; `|` inside a type annotation is left out too (never evaluated).
#: Scores in tests/README.md are over this set.
EXCLUDED_OPERATORS = re.compile(
    r"core/ReplaceBinaryOperator_\w+_(BitOr|BitAnd|BitXor|LShift|RShift|Pow|Mod|FloorDiv)"
    r"|core/ReplaceComparisonOperator_(?!Is_|IsNot_)\w+_(Is|IsNot)"
)


@dataclass(frozen=True)
class Target:
    name: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]


@dataclass(frozen=True)
class Tally:
    mutants: int
    killed: int
    survived: int
    pending: int

    @property
    def score(self) -> float | None:
        run = self.killed + self.survived
        return self.killed / run if run else None


def load_targets(path: Path) -> dict[str, Target]:
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    return {name: Target(name, tuple(entry["modules"]), tuple(entry["tests"])) for name, entry in table.items()}


def python_files(root: Path, modules: tuple[str, ...]) -> list[str]:
    """The .py files the modules name (a folder stands for every .py file in it)."""
    files: list[str] = []
    for module in modules:
        path = root / module
        if path.is_dir():
            files += sorted(str(p.relative_to(root)) for p in path.rglob("*.py"))
        elif path.is_file():
            files.append(module)
        else:
            raise SystemExit(f"python_mutants: {module} does not exist (has it moved? edit {TARGETS} or give --modules)")
    return files


def selection_command(target: Target, python: str) -> list[str]:
    """The target's test selection as one pytest run (cosmic-ray's test command, and the baseline)."""
    return [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *target.tests]


def write_config(folder: Path, target: Target, files: list[str], timeout: float, python: str) -> Path:
    command = shlex.join(selection_command(target, python))
    config = folder / "config.toml"
    config.write_text(
        "[cosmic-ray]\n"
        f"module-path = {json.dumps(files)}\n"
        f"timeout = {timeout}\n"
        "excluded-modules = []\n"
        f"test-command = {json.dumps(command)}\n\n"
        "[cosmic-ray.distributor]\n"
        'name = "local"\n',
        encoding="utf-8",
    )
    return config


def tally(session: Path) -> Tally:
    with sqlite3.connect(session) as db:
        mutants = db.execute("SELECT COUNT(*) FROM work_items").fetchone()[0]
        outcomes = dict(db.execute("SELECT test_outcome, COUNT(*) FROM work_results GROUP BY test_outcome").fetchall())
    killed = outcomes.get("KILLED", 0) + outcomes.get("INCOMPETENT", 0)
    survived = outcomes.get("SURVIVED", 0)
    return Tally(mutants, killed, survived, mutants - killed - survived)


#: A line whose `|` is a type annotation's (a def line, or `name: X | None`): with
#: `from __future__ import annotations` it is never evaluated, so swapping it changes nothing.
_ANNOTATION_LINE = re.compile(r"\s*(async\s+)?def\s|\s*[\w.]+\s*:\s*[^=]*\|")


def _in_annotation(tree: Path, module: str, row: int, operator: str) -> bool:
    if not operator.startswith("core/ReplaceBinaryOperator_BitOr_"):
        return False
    lines = (tree / module).read_text(encoding="utf-8").splitlines()
    return 0 < row <= len(lines) and bool(_ANNOTATION_LINE.match(lines[row - 1]))


def drop_excluded_operators(session: Path, tree: Path) -> int:
    """Leave out the excluded operators and `|` swaps inside annotations; the number left out."""
    with sqlite3.connect(session) as db:
        specs = db.execute("SELECT job_id, operator_name, module_path, start_pos_row FROM mutation_specs").fetchall()
        jobs = [(job,) for job, operator, module, row in specs
                if EXCLUDED_OPERATORS.fullmatch(operator) or _in_annotation(tree, module, row, operator)]
        db.executemany("DELETE FROM mutation_specs WHERE job_id = ?", jobs)
        db.executemany("DELETE FROM work_items WHERE job_id = ?", jobs)
    return len(jobs)


def forget_survivors(session: Path) -> int:
    """Drop the survivors' results and set the never-run mutants aside, so exec runs only the survivors."""
    with sqlite3.connect(session) as db:
        db.execute("CREATE TABLE IF NOT EXISTS set_aside AS SELECT * FROM mutation_specs WHERE 0")
        pending = "SELECT job_id FROM work_items WHERE job_id NOT IN (SELECT job_id FROM work_results)"
        db.execute(f"INSERT INTO set_aside SELECT * FROM mutation_specs WHERE job_id IN ({pending})")
        db.execute("DELETE FROM mutation_specs WHERE job_id IN (SELECT job_id FROM set_aside)")
        db.execute("DELETE FROM work_items WHERE job_id IN (SELECT job_id FROM set_aside)")
        count = db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'").rowcount
    return int(count)


def restore_set_aside(session: Path) -> None:
    """Put back the never-run mutants that forget_survivors set aside."""
    with sqlite3.connect(session) as db:
        if db.execute("SELECT name FROM sqlite_master WHERE name = 'set_aside'").fetchone() is None:
            return
        db.execute("INSERT INTO work_items (job_id) SELECT job_id FROM set_aside")
        db.execute("INSERT INTO mutation_specs SELECT * FROM set_aside")
        db.execute("DROP TABLE set_aside")


def write_survivors(session: Path, out: Path) -> None:
    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT m.module_path, m.start_pos_row, m.operator_name, m.occurrence, r.diff "
            "FROM work_results r JOIN mutation_specs m ON m.job_id = r.job_id "
            "WHERE r.test_outcome = 'SURVIVED' ORDER BY m.module_path, m.start_pos_row"
        ).fetchall()
    with out.open("w", encoding="utf-8") as handle:
        for module, line, operator, occurrence, diff in rows:
            handle.write(f"== {module}:{line} {operator} #{occurrence}\n{diff}\n")


def run_bounded(command: list[str], cwd: Path, env: dict[str, str], seconds: float) -> bool:
    """Run niced in its own process group; stop the whole group after `seconds`. True if it finished."""
    process = subprocess.Popen(["nice", "-n", "10", *command], cwd=cwd, env=env, start_new_session=True)
    try:
        process.wait(timeout=seconds)
        return True
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        return False


def run_target(target: Target, work: Path, minutes: float, timeout: float, rerun: bool) -> Tally:
    folder = work / target.name
    folder.mkdir(parents=True, exist_ok=True)
    tree = folder / "tree"
    copy_working_tree(tree)  # fresh every time: a run stopped mid-mutant leaves that file mutated
    files = python_files(tree, target.modules)
    config = write_config(folder, target, files, timeout, sys.executable)
    session = folder / "session.sqlite"
    cosmic_ray = [sys.executable, "-m", "cosmic_ray.cli"]
    env = dict(os.environ, PYTHONPATH=str(tree / "python"))
    env.pop("CI", None)
    baseline = subprocess.run(selection_command(target, sys.executable), cwd=tree, env=env, check=False)
    if baseline.returncode != 0:  # cosmic-ray calls any failure a kill: a selection that cannot pass
        raise SystemExit(f"python_mutants: {target.name}'s tests fail on the unmutated tree "
                         f"(pytest exit {baseline.returncode}); no mutant can be judged")
    if not session.exists():
        subprocess.run([*cosmic_ray, "init", str(config), str(session)], cwd=tree, env=env, check=True)
        print(f"{target.name}: {drop_excluded_operators(session, tree)} mutants of excluded operators or in "
              "annotations left out", flush=True)
    elif rerun:
        print(f"{target.name}: running again the {forget_survivors(session)} mutants that survived", flush=True)
    try:
        finished = run_bounded([*cosmic_ray, "exec", str(config), str(session)], tree, env, minutes * 60)
    finally:
        restore_set_aside(session)
    write_survivors(session, folder / "survivors.txt")
    result = tally(session)
    score = "n/a" if result.score is None else f"{result.score:.1%}"
    print(f"{target.name}: {result.mutants} mutants, {result.killed} killed, {result.survived} survived, "
          f"{result.pending} not run{'' if finished else ' (stopped at the time limit)'}; score {score}; "
          f"survivors in {folder / 'survivors.txt'}", flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", help=f"target names in {TARGETS.name} (default: all)")
    parser.add_argument("--name", help="an ad hoc target's name (with --modules and --tests)")
    parser.add_argument("--modules", nargs="+", help="files or folders to mutate, from the repository root")
    parser.add_argument("--tests", nargs="+", help="the tests that must kill the mutants (overrides a target's)")
    parser.add_argument("--minutes", type=float, default=20.0, help="time bound per target (default 20)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds one mutant's tests may take")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help=f"work folder (default {DEFAULT_WORK})")
    parser.add_argument("--rerun-survivors", action="store_true", help="run only the last run's survivors again")
    args = parser.parse_args(argv)

    known = load_targets(TARGETS)
    chosen: list[Target] = []
    if args.modules or args.name:
        if not (args.modules and args.tests and args.name):
            parser.error("an ad hoc target needs --name, --modules and --tests")
        chosen.append(Target(args.name, tuple(args.modules), tuple(args.tests)))
    unknown = [name for name in args.targets if name not in known]
    if unknown:
        parser.error(f"unknown targets {unknown}; known: {sorted(known)}")
    for name in args.targets or ([] if chosen else list(known)):
        # --tests with named targets: another selection, e.g. a wider one to judge survivors
        tests = tuple(args.tests) if args.tests else known[name].tests
        chosen.append(Target(name, known[name].modules, tests))
    for target in chosen:
        run_target(target, args.work, args.minutes, args.timeout, args.rerun_survivors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
