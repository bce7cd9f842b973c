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


#: The fields a decided line carries, each compared with the peer's recorded one.
DECIDED_FIELDS = ("acc", "normalized", "pipeline")


def mismatches(peer: str, reasons: set[str] | None = None) -> tuple[int, list[str]]:
    """(lines decided, a description of each field that differs from the peer's recording).

    `reasons`, when given, collects the reason of every line decided one by one."""
    from finscore.protocols import get_protocol

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


def check_every_recorded_line(peer: str, rows: int, rules_seen: set[str]) -> None:
    """Every line of a peer's vector file decides as recorded: `rows` lines, each reason a documented
    one, and every rule in `rules_seen` (the README's quirk list) deciding some line."""
    from finscore.protocols.peer_reasons import REASONS

    reasons: set[str] = set()
    count, differing = mismatches(peer, reasons)
    assert count == rows
    assert differing == []
    assert reasons <= set(REASONS)
    assert rules_seen <= reasons


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a protocol tried to run text as code")


def check_no_text_is_executed(peer: str, rows: int, monkeypatch: Any) -> None:
    """The whole file decides the same with eval, exec and compile made to fail (`monkeypatch`: pytest's)."""
    import builtins

    from finscore.protocols import get_protocol

    get_protocol(peer)  # imported before the builtins are taken away
    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, _refuse)
    count, differing = mismatches(peer)
    monkeypatch.undo()
    assert (count, differing) == (rows, [])
