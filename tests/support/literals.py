"""The recorded literal cases (tests/data/recordings/literals/): adversarial
literals and what the official FinQA and ConvFinQA evaluators made of them, recorded by
tools/differential/record_literals.py from the official code."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from support.cli import run_command, write_json
from support.shared import DATA, require

RECORDINGS = DATA / "recordings" / "literals"
#: The evaluator whose recorded outcome each profile must reproduce.
EVALUATOR_OF = {"official": "finqa", "convfinqa": "convfinqa"}


@lru_cache(maxsize=None)
def literal_rows() -> tuple[dict[str, Any], ...]:
    with gzip.open(require(RECORDINGS / "literals-official.jsonl.gz"), "rt", encoding="utf-8") as lines:
        return tuple(json.loads(line) for line in lines)


@lru_cache(maxsize=None)
def literal_files() -> dict[str, Any]:
    """The cases as `finscore finqa` / `convfinqa` inputs, with what each official
    evaluate_result printed on them (`official_printed`)."""
    files: dict[str, Any] = json.loads(gzip.decompress(require(RECORDINGS / "literals-official-files.json.gz")
                                                       .read_bytes()))
    return files


def figure_lines(printed: str) -> str:
    """The All / Exe acc / Prog acc lines of an official evaluate_result's output."""
    return "".join(line + "\n" for line in printed.splitlines()
                   if line.startswith(("All: ", "Exe acc: ", "Prog acc: ")))


def check_official_figures(benchmark: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`finscore BENCHMARK` on every literal case prints the figure lines its official
    evaluate_result printed on the same files, and no case ends the run."""
    files = literal_files()
    predictions = write_json(tmp_path / "pred.json", files[benchmark]["predictions"])
    gold = write_json(tmp_path / "gold.json", files[benchmark]["gold"])
    expected = figure_lines(files["official_printed"][benchmark])
    assert expected.startswith("All:  1166\n")
    status, out, _ = run_command(benchmark, capsys, predictions, gold, "--quiet")
    assert status == 0
    assert expected in out
