"""Checks shared by the FinQA and ConvFinQA tests of the official block against recorded runs.

tests/<benchmark>/data/official_figures.json holds what the official scorer printed (or raised)
on small prediction files with repeated, unknown and unreadable entries; it is written by
tools/official_figures/record.py from the official code itself (commit and versions in the file).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from support.cli import run_command, write_json

#: Cases where the official code raises on a prediction's content (not on reading an entry):
#: finscore names that crash among the official stops and goes on, as for its assert.
CONTENT_CRASHES = frozenset({"unreadable-equivalent"})


def recorded(benchmark: str) -> dict[str, Any]:
    path = Path(__file__).resolve().parents[1] / benchmark / "data" / "official_figures.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def official_lines(stdout: str) -> tuple[int, str, str]:
    """(All, Exe acc, Prog acc) as the official script printed them."""
    found = re.search(r"^All:  (\d+)\n(?:Correct:  \d+\n)?Exe acc:  (\S+)\nProg acc:  (\S+)$", stdout, re.M)
    assert found is not None, stdout
    return int(found.group(1)), found.group(2), found.group(3)


def check_case(benchmark: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
               *options: str) -> None:
    """`finscore BENCHMARK` on the recorded case: its official block and --json's "official" are the
    official scorer's own outcome on the file as given."""
    data = recorded(benchmark)
    entry = data["cases"][case]
    gold = write_json(tmp_path / "gold.json", data["gold"])
    predictions = write_json(tmp_path / "pred.json", entry["predictions"])
    status, out, _ = run_command(benchmark, capsys, predictions, gold, "--quiet", *options)
    assert status == 0
    status, text, _ = run_command(benchmark, capsys, predictions, gold, "--quiet", "--json", "-", *options)
    assert status == 0
    report = json.loads(text)
    official = report["official"]
    if entry["returncode"] == 0:
        count, execution, program = official_lines(entry["stdout"])
        assert f"\nAll:  {count}\nExe acc:  {execution}\nProg acc:  {program}\n" in out
        assert official["stop"] is None and official["denominator"] == count
        assert repr(official["execution_accuracy"]["value"]) == execution
        assert repr(official["program_accuracy"]["value"]) == program
    elif case in CONTENT_CRASHES:
        assert official["stop"] is None
        assert entry["exception"] in [stop["reason"] for stop in report["official_stops"]]
        assert f": {entry['exception']}" in out
    else:
        assert official["stop"]["exception"] == entry["exception"]
        assert official["execution_accuracy"] is None and official["program_accuracy"] is None
        assert f"stops at entry {official['stop']['position']} with {entry['exception']} " in out
        assert "All:  " not in out
