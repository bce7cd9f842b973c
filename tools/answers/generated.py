"""Writing generated files, or checking that the committed ones are what a generator builds."""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterable


def write_or_check(outputs: dict[Path, bytes], root: Path, *, check: bool) -> int:
    """Write every file (printing its size and digest), or with `check` compare; 1 if any differs."""
    differ = []
    for target, data in outputs.items():
        if check:
            if not target.exists() or target.read_bytes() != data:
                differ.append(str(target.relative_to(root)))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        print(f"{target.relative_to(root)}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    if differ:
        print("differs from the generator's output: " + ", ".join(differ), file=sys.stderr)
        return 1
    return 0


def conformance_bytes(rows: Iterable[dict[str, Any]]) -> bytes:
    """A conformance file: the rows numbered from 0 in order (`row`), one JSON line each with sorted keys,
    gzip-compressed without a timestamp so the same rows give the same bytes."""
    lines = [json.dumps({"row": number, **row}, ensure_ascii=False, sort_keys=True)
             for number, row in enumerate(rows)]
    return gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), compresslevel=9, mtime=0)
