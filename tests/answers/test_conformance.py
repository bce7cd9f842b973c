"""Every row of each protocol's conformance file is decided as labelled, and the files are what
the generator (outside the wheel, never importing finscore.answers) builds, byte for byte."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import random
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from finscore.answers import as_gold, decide, decide_batch, get_protocol, reasons
from finscore.answers.locate import LOCATORS, Located
from finscore.answers.stamp import make_stamp

REPOSITORY = Path(__file__).resolve().parents[2]
CONFORMANCE = REPOSITORY / "python" / "finscore" / "answers" / "conformance"
STEMS = {"finqa-answer/1": "finqa-answer-1", "convfinqa-answer/1": "convfinqa-answer-1",
         "tatqa-answer/1": "tatqa-answer-1"}


def tool(name: str) -> ModuleType:
    path = REPOSITORY / "tools" / "answers" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"answers_tool_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def rows(stem: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in gzip.decompress((CONFORMANCE / f"{stem}.jsonl.gz").read_bytes()).splitlines()]


@pytest.mark.parametrize("name", sorted(STEMS))
def test_every_row_is_decided_as_labelled(name: str) -> None:
    protocol = get_protocol(name)
    table = rows(STEMS[name])
    assert len(table) >= 2000
    wrong = []
    for row in table:
        decision = decide(row["completion"], row["gold"], protocol, row["format"])
        if {"passed": decision.passed, "reason": decision.reason, "k": decision.k} != row["expect"]:
            wrong.append((row["row"], row["label"], row["expect"], decision))
    assert wrong == []


@pytest.mark.parametrize("name", sorted(STEMS))
def test_every_reason_is_exercised(name: str) -> None:
    seen = Counter(row["expect"]["reason"] for row in rows(STEMS[name]))
    expected = set(reasons.ALL_REASONS) - ({reasons.WRONG_YES_NO} if name.startswith("tatqa") else set())
    assert expected <= set(seen), expected - set(seen)
    assert all(seen[reason] >= 4 for reason in expected)


@pytest.mark.parametrize("name", sorted(STEMS))
def test_the_stamp_names_the_shipped_file(name: str) -> None:
    shipped = hashlib.sha256((CONFORMANCE / f"{STEMS[name]}.jsonl.gz").read_bytes()).hexdigest()
    assert make_stamp(get_protocol(name))["conformance_sha256"] == shipped


def test_the_generator_rebuilds_the_files_byte_for_byte() -> None:
    generator = tool("make_conformance")
    for stem in STEMS.values():
        built = generator.build(stem)
        shipped = (CONFORMANCE / f"{stem}.jsonl.gz").read_bytes()
        assert gzip.decompress(built) == gzip.decompress(shipped), stem
        assert built == shipped, f"{stem}: same rows, different gzip bytes (a different zlib?)"


def test_the_examples_are_what_their_generator_builds() -> None:
    generator = tool("make_examples")
    for name, data in generator.outputs().items():
        assert (REPOSITORY / "examples" / "answers" / name).read_bytes() == data, name


@pytest.mark.parametrize("name", sorted(STEMS))
def test_the_batch_decides_every_row_as_labelled_with_repeats_and_shared_golds(name: str) -> None:
    """decide_batch judges each distinct (answer text, gold) once per call: every row, given three
    times in a shuffled order with one Gold object per distinct gold (so the memo is hit, by repeats
    and across different completions with the same answer), still gets its labelled decision, and
    the same span, value and detail as `decide` gives it alone."""
    protocol = get_protocol(name)
    table = rows(STEMS[name])
    by_format: dict[str, list[dict[str, Any]]] = {}
    for row in table:
        by_format.setdefault(row["format"], []).append(row)
    checked, pairs, answers = 0, 0, 0
    for answer_format, chosen in by_format.items():
        shared: dict[str, Any] = {}
        golds = [shared.setdefault(json.dumps(row["gold"], sort_keys=True), as_gold(row["gold"], protocol))
                 for row in chosen]
        located = [LOCATORS[answer_format](row["completion"]) if isinstance(row["completion"], str) else None
                   for row in chosen]
        pairs += len({(row["completion"], id(gold)) for row, gold in zip(chosen, golds)
                      if isinstance(row["completion"], str)})
        answers += len({(found.text, id(gold)) for found, gold in zip(located, golds) if isinstance(found, Located)})
        order = [i for i in range(len(chosen)) for _ in range(3)]
        random.Random(name + answer_format).shuffle(order)
        decided = decide_batch([chosen[i]["completion"] for i in order], [golds[i] for i in order], protocol,
                               answer_format)
        for i, decision in zip(order, decided):
            row = chosen[i]
            assert {"passed": decision.passed, "reason": decision.reason, "k": decision.k} == row["expect"], row
            assert decision == decide(row["completion"], row["gold"], protocol, answer_format), row
            checked += 1
    assert checked == 3 * len(table)
    assert answers < pairs  # some different completions share an answer under one gold: that memo is hit


@pytest.mark.parametrize("name", sorted(STEMS))
def test_a_scale_miss_names_k_with_one_sign_everywhere(name: str) -> None:
    """Issue #35: `k=6` and the detail say the same power: the value is the gold times 10^6, as the
    generator's label of that row says ("the gold times 10^6"); both paths (decide, the batch's core rows)."""
    protocol = get_protocol(name)
    table = [row for row in rows(STEMS[name]) if row["expect"]["reason"] == reasons.SCALE_OFF
             and row["label"].startswith("the gold times 10^")]
    assert len(table) >= 20 and {row["expect"]["k"] > 0 for row in table} == {True, False}
    batch = decide_batch([row["completion"] for row in table], [row["gold"] for row in table], protocol, "answer-line")
    for row, batched in zip(table, batch):
        decision = decide(row["completion"], row["gold"], protocol, row["format"])
        k = row["expect"]["k"]
        assert row["label"] == f"the gold times 10^{k}"
        assert decision.k == k and decision.detail == f"the value is the gold times 10^{k}, within the tolerance"
        if row["format"] == "answer-line" and batched.reason == reasons.SCALE_OFF:
            assert batched.detail == decision.detail
