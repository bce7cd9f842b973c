"""A small benchmark registered from a fixture: it proves a descriptor alone gives a command, a reward, a report.

Its gold file is a JSON object {id: answer text}; a prediction file a JSON list of [id, answer]
pairs; ids name a filing "<company>/<year>/<question>"; an answer is right when it is the gold text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finscore.inputs import InputFormatError
from finscore.inputs.jsonfiles import PYTHON, read_json_document
from finscore.registry import Benchmark, Example, IndependenceUnit, Ref

HERE = "support.toyqa"
REASONS = {"correct": "the answer is the gold text", "wrong_sign": "the gold text with the other sign",
           "wrong_value": "another answer"}


def read_gold(path: str) -> dict[str, str]:
    gold = read_json_document(Path(path), rules=PYTHON)
    if not isinstance(gold, dict) or not all(isinstance(v, str) for v in gold.values()):
        raise InputFormatError(path, "the file", "a toyqa gold file is a JSON object {{id: answer text}}")
    return gold


def read_predictions(path: str) -> list[tuple[str, Any]]:
    pairs = read_json_document(Path(path), rules=PYTHON)
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise InputFormatError(path, "the file", "a toyqa prediction file is a JSON list of [id, answer] pairs")
    return [(str(identifier), answer) for identifier, answer in pairs]


def decide(prediction: Any, gold: str) -> tuple[bool, str]:
    if prediction == gold:
        return True, "correct"
    if isinstance(prediction, str) and (prediction == "-" + gold or "-" + prediction == gold):
        return False, "wrong_sign"
    return False, "wrong_value"


def units(gold: dict[str, str]) -> dict[str, str]:
    return {identifier: identifier.rsplit("/", 1)[0] for identifier in gold}


BENCHMARK = Benchmark(
    name="toyqa",
    title="ToyQA",
    official_scorer="toy_eval.py",
    data_source="tests/support/toyqa_files",
    gold_reader=Ref(f"{HERE}:read_gold"),
    prediction_reader=Ref(f"{HERE}:read_predictions"),
    official_protocol="exact text over the predictions given",
    honest_protocol="every gold example counted, a missing prediction a failure",
    reasons=Ref(f"{HERE}:REASONS"),
    unit=IndependenceUnit("filing", "the filing an id names", Ref(f"{HERE}:units")),
    decide=Ref(f"{HERE}:decide"),
    examples=(Example("tests/support/toyqa_files/predictions.json", "tests/support/toyqa_files/gold.json"),),
)
