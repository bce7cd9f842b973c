"""The read-only shared material: recorded vectors and the real FinQA data.

Tests find it at `../shared` from the repository root and skip, saying why, when
a checkout has no such folder beside it.
"""

from __future__ import annotations

import gzip
import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
SHARED = REPOSITORY.parent / "shared"
VECTORS = SHARED / "vectors"
FINQA = SHARED / "data" / "finqa"


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared material not found at {path} (tests read ../shared from the repository root)")
    return path


def vector_rows(name: str) -> Iterator[dict[str, Any]]:
    with gzip.open(require(VECTORS / f"{name}.jsonl.gz"), "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)


@lru_cache(maxsize=None)
def finqa_tables() -> dict[str, list[list[str]]]:
    """Every FinQA table we have, by example id (train subset, dev, test)."""
    tables: dict[str, list[list[str]]] = {}
    for split in ("train", "dev", "test"):
        with open(require(FINQA / f"finqa_{split}.json"), encoding="utf-8") as handle:
            for example in json.load(handle):
                tables[example["id"]] = example["table"]
    return tables


def table_of(row: dict[str, Any]) -> tuple[bool, Any]:
    """(available, table) of a vector row: inline, by FinQA id, or None for no table."""
    if "table" in row:
        return True, row["table"]
    ref = row.get("table_ref")
    if ref is None:
        return True, None
    tables = finqa_tables()
    return (ref in tables), tables.get(ref)


def same_outcome(row: dict[str, Any], invalid: int, result: Any) -> bool:
    """Does (invalid, result) match a recorded row? Bit-exact floats, NaN as NaN.

    A recorded invalid row's result carries no meaning, so only the flag is compared.
    """
    if row["invalid"] != invalid:
        return False
    if invalid:
        return True
    recorded = row["result"]
    if "float" in recorded:
        if not isinstance(result, float):
            return False
        expected = float.fromhex(recorded["float"])
        if math.isnan(expected):
            return math.isnan(result)
        return expected.hex() == result.hex()
    return not isinstance(result, float) and str(result) == recorded["str"]
