"""The recorded vectors and the real datasets, from the repository's tests/data.

The recordings of the official scorers and the datasets they were made on are
committed under tests/data (compressed; `scripts/refresh_test_data.py` refreshes
them from the shared material and `tests/test_data_manifest.py` checks their
digests), so a plain clone runs every exactness test. Datasets are unpacked once
per content into a temporary folder, because the commands under test take plain
JSON files. A missing file fails the test: it is never a skip.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = REPOSITORY / "tests" / "data"
VECTORS = DATA / "vectors"
MANIFEST = DATA / "MANIFEST.json"


def _unpacked_root() -> Path:
    """A folder holding every dataset of tests/data uncompressed, made once per manifest."""
    digest = hashlib.sha256(MANIFEST.read_bytes()).hexdigest()[:16]
    root = Path(tempfile.gettempdir()) / f"finscore-test-data-{digest}"
    for packed in sorted(DATA.glob("*/*.json.gz")):
        if packed.parent.name == "vectors":
            continue
        target = root / packed.parent.name / packed.name[: -len(".gz")]
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
        partial.write_bytes(gzip.decompress(packed.read_bytes()))
        os.replace(partial, target)  # atomic: parallel test processes never see half a file
    return root


UNPACKED = _unpacked_root()
FINQA = UNPACKED / "finqa"
CONVFINQA = UNPACKED / "convfinqa"
TATQA = UNPACKED / "tatqa"


def require(path: Path) -> Path:
    """The path, which must exist: the test data is part of the repository."""
    if not path.exists():
        pytest.fail(f"test data not found at {path}: tests/data is part of the repository "
                    "(scripts/refresh_test_data.py rebuilds it from the shared material)")
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


def table_of(row: dict[str, Any], tables: Callable[[], dict[str, Any]] = finqa_tables) -> tuple[bool, Any]:
    """(available, table) of a vector row: inline, by id in `tables()` (FinQA ids by
    default), or None for no table."""
    if "table" in row:
        return True, row["table"]
    ref = row.get("table_ref")
    if ref is None:
        return True, None
    known = tables()
    return (ref in known), known.get(ref)


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


@lru_cache(maxsize=None)
def convfinqa_conversations() -> dict[str, dict[str, Any]]:
    """Every ConvFinQA dev conversation, by conversation id."""
    with open(require(CONVFINQA / "convfinqa_dev.json"), encoding="utf-8") as handle:
        return {conversation["id"]: conversation for conversation in json.load(handle)}


@lru_cache(maxsize=None)
def convfinqa_tables() -> dict[str, list[list[str]]]:
    return {conversation_id: c["table"] for conversation_id, c in convfinqa_conversations().items()}


def convfinqa_table_of(row: dict[str, Any]) -> tuple[bool, Any]:
    """(available, table) of a ConvFinQA vector row: its `table_ref` names a conversation id."""
    return table_of(row, convfinqa_tables)
