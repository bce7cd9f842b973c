"""The mutation targets name files that exist, so a move cannot quietly empty a mutation run.

A target whose modules moved mutates nothing, and one whose tests moved lets every mutant
"survive" against a pytest error; both happened once (tests/executor became tests/engine).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = ROOT / "scripts" / "mutation" / "targets.toml"


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
