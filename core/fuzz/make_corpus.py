"""Write the fuzz targets' seed corpus from the recorded vectors (tests/data/vectors) and, for
fuzz_answers, the answer protocols' conformance completions.

    python core/fuzz/make_corpus.py [--per-target N] [--seed S]

Each seed is an input in the target's own layout (see the comment at the top of each
core/fuzz/*.c): programs and tables laid out with the separators the hosts use, raw
step records and table doubles, raw doubles for the numeric helpers. The corpus is
small on purpose (committed under core/fuzz/corpus/); libFuzzer grows its own copy.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import shutil
import struct
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "data" / "vectors"
CORPUS = ROOT / "core" / "fuzz" / "corpus"
CONFORMANCE = ROOT / "python" / "finscore" / "answers" / "conformance"
TOKEN, RECORD = "\x1f", "\x1e"
OPS = ("add", "subtract", "multiply", "divide", "exp", "greater",
       "table_max", "table_min", "table_sum", "table_average")
STEP = struct.Struct("<ii" + "iiiid" * 2)


def vector_rows() -> Iterator[dict[str, Any]]:
    for path in sorted(VECTORS.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                if isinstance(row.get("program"), list) and all(isinstance(t, str) for t in row["program"]):
                    yield row


def read_execute_seed(row: dict[str, Any], rng: random.Random) -> bytes:
    text = TOKEN.join(row["program"])
    table = row.get("table")
    header = bytes([rng.randrange(4) | 2])
    if isinstance(table, list) and all(isinstance(r, list) and all(isinstance(c, str) for c in r) for r in table):
        return header + text.encode("utf-8", "surrogatepass") + b"\0" + RECORD.join(
            TOKEN.join(r) for r in table).encode("utf-8", "surrogatepass")
    return header + text.encode("utf-8", "surrogatepass")


def _number(token: str) -> float:
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return 1.0


def execute_seed(row: dict[str, Any], rng: random.Random) -> bytes:
    """The program's steps as raw records: literals and #references as written, rows as
    short slices of a small table."""
    tokens = row["program"][:-1]
    records = []
    for at in range(0, len(tokens) - 3, 4):
        op = tokens[at].strip("(")
        code = OPS.index(op) if op in OPS else rng.randrange(12)
        fields: list[Any] = [code, 0]
        for argument in tokens[at + 1: at + 3]:
            if code >= 6:
                fields += [2, rng.randrange(4), rng.randrange(1, 4), 0, 0.0]
            elif argument.startswith("#") and argument[1:].isdigit():
                fields += [1, int(argument[1:]), 0, 0, 0.0]
            else:
                fields += [0, 0, 0, 0, _number(argument)]
        records.append(STEP.pack(*fields))
    header = bytes([rng.randrange(2), len(records), rng.randrange(256), rng.randrange(256)])
    table = struct.pack("<6d", *(rng.choice((0.1, 2.675, -3.0, 1e308, 5e-324, 12.0)) for _ in range(6)))
    return header + b"".join(records) + table


def numeric_seed(row: dict[str, Any], rng: random.Random) -> bytes:
    numbers = [_number(t) for t in row["program"] if t[:1].isdigit() or t[:1] in "-."]
    numbers += [rng.choice((2.675, 0.5, -0.0, 1e22, 9.0, 17.0, float("inf"), float("nan")))
                for _ in range(3)]
    return bytes([rng.randrange(256)]) + struct.pack(f"<{len(numbers)}d", *numbers)


SEEDS = {"fuzz_read_execute": read_execute_seed, "fuzz_execute": execute_seed, "fuzz_numeric": numeric_seed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-target", type=int, default=120)
    parser.add_argument("--seed", type=int, default=11)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    rows = list(vector_rows())
    chosen = rng.sample(rows, min(options.per_target, len(rows)))
    for target, make in SEEDS.items():
        folder = CORPUS / target
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for row in chosen:
            data = make(row, rng)
            (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{target}: {len(list(folder.iterdir()))} seeds")
    answers_corpus(options.per_target, options.seed)


def answers_corpus(count: int, seed: int) -> None:
    """fuzz_answers seeds: a mode byte, then a few conformance completions separated by 0x1E."""
    completions = sorted({row["completion"] for path in sorted(CONFORMANCE.glob("*.jsonl.gz"))
                          for row in map(json.loads, gzip.decompress(path.read_bytes()).splitlines())
                          if isinstance(row["completion"], str) and row["completion"].isascii()
                          and RECORD not in row["completion"] and "\0" not in row["completion"]})
    rng = random.Random(seed)
    folder = CORPUS / "fuzz_answers"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for _ in range(count):
        data = bytes([rng.randrange(256)]) + RECORD.join(rng.sample(completions, rng.randint(1, 4))).encode()
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    print(f"fuzz_answers: {len(list(folder.iterdir()))} seeds")


if __name__ == "__main__":
    main()
