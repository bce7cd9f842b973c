"""The peers' recorded decisions (tests/data/vectors/peers/, see its README) and FinQA's test tables, read once."""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"
PEERS = DATA / "vectors" / "peers"
FINQA_TEST = DATA / "finqa" / "finqa_test.json.gz"
#: The vectors' README: its table names each peer's commit (the provenance the records must carry).
README = DATA / "vectors" / "README.md"


@functools.cache
def vector_bytes(name: str) -> bytes:
    """A vector file's lines, decompressed, as stored."""
    return gzip.decompress((PEERS / f"{name}.jsonl.gz").read_bytes())


def vector_lines(name: str) -> list[dict[str, Any]]:
    """Every line of a vector file, decoded (a fresh copy each call)."""
    return [json.loads(line) for line in vector_bytes(name).splitlines()]


@functools.cache
def finqa_test_bytes() -> bytes:
    return gzip.decompress(FINQA_TEST.read_bytes())


def recorded_commit(vector_file: str) -> str:
    """The 40-hex commit the README's table records for a vector file (e.g. "helm.jsonl.gz")."""
    for row in README.read_text(encoding="utf-8").splitlines():
        if row.startswith(f"| `{vector_file}` |"):
            words = row.split("`")
            return next(word for word in words if len(word) == 40 and all(c in "0123456789abcdef" for c in word))
    raise LookupError(f"the vectors README has no row for {vector_file}")
