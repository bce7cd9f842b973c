"""finscore gives the official evaluator's outcome on every recorded differential row.

The rows (tests/data/recordings, see its README) are the official evaluator's own
answers, recorded once under CPython 3.11 and 3.12 for programs from the seeded
generator in tools/differential; each is run here under the same `python` rule.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from support.shared import DATA, require, same_outcome

from finscore import execute_batch

RECORDINGS = sorted((DATA / "recordings").glob("*.jsonl.gz"))


def _rows(path: Path) -> list[dict[str, Any]]:
    with gzip.open(require(path), "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _same(row: dict[str, Any], invalid: int, result: Any) -> bool:
    if "int_hex" in row["result"]:
        return bool(row["invalid"] == invalid
                    and (invalid or (type(result) is int and hex(result) == row["result"]["int_hex"])))
    return same_outcome(row, invalid, result)


def test_recordings_are_present() -> None:
    assert {path.name.rsplit("-", 1)[1] for path in RECORDINGS} >= {"py311.jsonl.gz", "py312.jsonl.gz"}


@pytest.mark.essential
@pytest.mark.parametrize("path", RECORDINGS, ids=[path.name for path in RECORDINGS])
def test_every_recorded_row_matches(path: Path) -> None:
    rows = _rows(path)
    pythons = {row["python"] for row in rows}
    assert len(pythons) == 1
    batch = execute_batch(((row["program"], row["table"]) for row in rows), python=pythons.pop())
    mismatches = [(row["id"], row["family"], row["invalid"], row["result"], invalid, result)
                  for row, invalid, result in zip(rows, batch.invalid, batch.results)
                  if not _same(row, invalid, result)]
    assert len(batch) == len(rows)
    assert not mismatches, f"{len(mismatches)} of {len(rows)} rows differ, first: {mismatches[:5]}"
