"""Reading the peers' recorded decisions (tests/data/vectors/peers/) and comparing a protocol's lines to them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator

from finscore.protocols import get_protocol

PEERS = Path(__file__).resolve().parents[1] / "data" / "vectors" / "peers"
#: The fields a decided line carries, each compared with the peer's recorded one.
DECIDED_FIELDS = ("acc", "normalized", "pipeline")


def vector_lines(peer: str) -> Iterator[dict[str, Any]]:
    """Every line of `<peer>.jsonl.gz`, in file order."""
    with gzip.open(PEERS / f"{peer}.jsonl.gz", "rt", encoding="utf-8") as stream:
        for text in stream:
            yield json.loads(text)


def mismatches(peer: str, reasons: set[str] | None = None) -> tuple[int, list[str]]:
    """(lines decided, a description of each field that differs from the peer's recording).

    `reasons`, when given, collects the reason of every line decided one by one."""
    protocol = get_protocol(peer)
    differing: list[str] = []
    count = 0
    for number, line in enumerate(vector_lines(peer), 1):
        decided = protocol.decide_line(line)
        count += 1
        if line["kind"] == "file_figure":
            if decided != {"reason": "needs_whole_file"}:
                differing.append(f"line {number}: file_figure decided as {decided!r}")
            continue
        if not isinstance(decided.get("reason"), str):
            differing.append(f"line {number}: no reason")
        elif reasons is not None:
            reasons.add(decided["reason"])
        for field in DECIDED_FIELDS:
            if field in line and decided.get(field) != line[field]:
                differing.append(f"line {number} ({line['kind']}, pred {line['pred']!r}): {field} "
                                 f"{decided.get(field)!r} != recorded {line[field]!r}")
    return count, differing
