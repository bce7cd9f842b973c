"""The FinanceBench excerpt (tests/financebench/data, README there): gold questions and labelled answers."""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from finscore.financebench.gold import GoldQuestion, gold_questions

DATA = Path(__file__).parent / "data"


@lru_cache(maxsize=None)
def gold_lines() -> tuple[bytes, ...]:
    return tuple(gzip.decompress((DATA / "gold_excerpt.jsonl.gz").read_bytes()).splitlines())


@lru_cache(maxsize=None)
def answer_records() -> tuple[dict[str, Any], ...]:
    lines = gzip.decompress((DATA / "answers_excerpt.jsonl.gz").read_bytes()).splitlines()
    return tuple(json.loads(line) for line in lines)


def gold() -> dict[str, GoldQuestion]:
    return gold_questions([(n, json.loads(line)) for n, line in enumerate(gold_lines(), 1)])


def question(short: str) -> GoldQuestion:
    return gold()[f"financebench_id_{short}"]


def answer(short: str, results_file: str) -> dict[str, Any]:
    """The results line answering a question in one results file."""
    return next(r for r in answer_records()
                if r["financebench_id"] == f"financebench_id_{short}" and r["results_file"] == results_file)


def write_gold(path: Path) -> str:
    path.write_bytes(b"\n".join(gold_lines()) + b"\n")
    return str(path)


def write_answers(path: Path, results_file: str) -> str:
    lines = [json.dumps(r) for r in answer_records() if r["results_file"] == results_file]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)
