"""How many programs the core decides by itself, and how many it leaves to a full reader.

    python tools/abi/deferred_share.py [--data tests/data]

A host without finscore's Python reader gets an answer from fs_read_execute_batch only
for programs in the plain form; every other program comes back 1419 (deferred), or cannot
be sent at all (a token holding 0x1E or 0x1F, no tokens, an empty last token), and such a
host must report it as "not decided by the core". This script lays out the FinQA example
predictions (with the FinQA test tables) and the gold and mutant vectors exactly as
docs/abi.md describes, runs them through the module, and prints the shares as the table
docs/abi.md publishes.
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from finscore.engine.core.binding import get_core
from finscore.engine.core.plain_text import lay_out
from finscore.engine.status import Status

Item = tuple[Any, Any]  # (program tokens, table or None)


def _json(path: Path) -> Any:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def finqa_tables(data: Path) -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for split in ("train", "dev", "test"):
        tables.update((example["id"], example["table"]) for example in _json(data / "finqa" / f"finqa_{split}.json.gz"))
    return tables


def example_predictions(data: Path) -> list[Item]:
    tables = {example["id"]: example["table"] for example in _json(data / "finqa" / "finqa_test.json.gz")}
    return [(p["predicted"], tables.get(p["id"])) for p in _json(data / "finqa" / "example_predictions.json.gz")]


def vector_items(data: Path, name: str, tables: dict[str, Any]) -> Iterator[Item]:
    """The rows whose table is at hand (inline, by FinQA id, or none needed)."""
    with gzip.open(data / "vectors" / f"{name}.jsonl.gz", "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if "table" in row:
                yield row["program"], row["table"]
            elif row.get("table_ref") is None:
                yield row["program"], None
            elif row["table_ref"] in tables:
                yield row["program"], tables[row["table_ref"]]


def shares(items: list[Item]) -> tuple[int, int, int, Counter[str]]:
    """(programs, decided by the core, deferred or not sendable, the decided statuses)."""
    sendable = [(tokens, table) for tokens, table in items if isinstance(tokens, list)]
    plain = lay_out([tokens for tokens, _ in sendable], [table for _, table in sendable])
    output = get_core().read_execute_batch(plain)
    decided = Counter(Status(status).label for status in output.statuses() if status != Status.DEFERRED)
    count = sum(decided.values())
    return len(items), count, len(items) - count, decided


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "tests" / "data")
    args = parser.parse_args()
    tables = finqa_tables(args.data)
    sets = {
        "FinQA example predictions (test tables)": example_predictions(args.data),
        "gold vectors": list(vector_items(args.data, "gold", tables)),
        "mutant vectors": list(vector_items(args.data, "mutants", tables)),
    }
    print("| programs | count | decided by the core | not decided (deferred or not sendable) | decided as |")
    print("|---|---|---|---|---|")
    for name, items in sets.items():
        total, decided, left, statuses = shares(items)
        top = ", ".join(f"{label} {n:,}" for label, n in statuses.most_common())
        print(f"| {name} | {total:,} | {decided:,} ({100 * decided / total:.1f}%) "
              f"| {left:,} ({100 * left / total:.1f}%) | {top} |")


if __name__ == "__main__":
    main()
