"""The mutation targets name files that exist, so a move cannot quietly empty a mutation run.

A target whose modules moved mutates nothing, and one whose tests moved lets every mutant
"survive" against a pytest error; both happened once (tests/executor became tests/engine).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ROOT / "scripts" / "mutation" / "targets.toml"
C_MUTANTS = ROOT / "scripts" / "mutation" / "c_mutants.py"


def test_every_mutation_target_names_existing_modules_and_tests() -> None:
    targets = tomllib.loads(TARGETS.read_text(encoding="utf-8"))
    assert targets, "no mutation targets"
    missing = [
        f"{name}: {path}"
        for name, target in targets.items()
        for path in [*target["modules"], *target["tests"]]
        if not (ROOT / path).exists()
    ]
    assert missing == []
    assert all(target["modules"] and target["tests"] for target in targets.values())


def test_the_c_mutation_default_tests_exist() -> None:
    tree = ast.parse(C_MUTANTS.read_text(encoding="utf-8"))
    (tests,) = [ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "DEFAULT_TESTS" for t in node.targets)]
    assert tests and [path for path in tests if not (ROOT / path.split("::")[0]).exists()] == []
