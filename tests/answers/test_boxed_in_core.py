"""The boxed format read by the core (fs_locate_boxed), which `boxed` uses on a completion longer than
CORE_BOXED_CHARS, against the regular expressions of locate.py: the Python reader is pinned to the
protocols' written rule by hand-worked tests (test_boxed_hostile.py, test_reading.py, the
conformance files), and the core must read every text as it does. Each hostile megabyte is checked in
test_boxed_hostile.py; here the conformance rows are decided with the core forced, and generated brace
texts (bounded in number and length, a fixed seed) are read by both."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

import finscore.answers.locate as locate
from finscore.answers import decide, get_protocol
from finscore.answers.locate import boxed_from, boxed_span, boxed_span_in_core

CONFORMANCE = Path(locate.__file__).resolve().parent / "conformance"
#: The pieces generated texts are made of: every character the rule reads (\boxed{, {, }) and its near
#: misses, LaTeX the answer drops, digits, and characters of two, three and four bytes in UTF-8 (the
#: core reads bytes: its offsets are turned back into characters).
PIECES = ("\\boxed{", "{", "}", "\\boxed", "boxed{", "\\", "5", "1.5", " ", "\\text{", "\\%", "\\$", "é", "€", "𝟙", "\ud800")


def _both(text: str) -> tuple[object, object]:
    return boxed_from(text, boxed_span(text)), boxed_from(text, boxed_span_in_core(text))


STEMS = sorted(path.name for path in CONFORMANCE.glob("*.jsonl.gz"))


def _rows(stem: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in gzip.decompress((CONFORMANCE / stem).read_bytes()).splitlines()]


@pytest.mark.parametrize("stem", [stem for stem in STEMS if not stem.startswith("financemath")])  # (no boxed rows there)
def test_the_conformance_rows_are_decided_as_labelled_by_the_core(stem: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locate, "CORE_BOXED_CHARS", -1)  # every completion to the core
    boxed_rows = [row for row in _rows(stem) if row["format"] == "boxed"]
    assert len(boxed_rows) >= 100
    wrong = []
    for row in boxed_rows:
        decision = decide(row["completion"], row["gold"], get_protocol(row["protocol"]), "boxed")
        if {"passed": decision.passed, "reason": decision.reason, "k": decision.k} != row["expect"]:
            wrong.append((row["row"], row["label"], row["expect"], decision))
    assert wrong == []


@pytest.mark.parametrize("stem", STEMS)
def test_every_conformance_completion_is_read_by_the_core_as_by_the_regular_expressions(stem: str) -> None:
    differ = [row["row"] for row in _rows(stem) if len(set(map(repr, _both(str(row["completion"]))))) != 1]
    assert differ == []


@pytest.mark.parametrize(("seed", "count", "longest", "opening"), [
    (1, 20_000, 24, 0.2),  # short texts: every small arrangement
    (2, 10_000, 80, 0.35),  # braces mostly opened: the depth limit, boxes inside boxes never closed
    (3, 4_000, 300, 0.25),  # long texts: many boxes, too deep and complete ones after each other
])
def test_random_brace_texts_are_read_as_the_regular_expressions_read_them(seed: int, count: int, longest: int,
                                                                           opening: float) -> None:
    generator = random.Random(seed)
    others = PIECES[3:]
    differ = []
    for _ in range(count):
        pieces = []
        for _ in range(generator.randint(0, longest)):
            roll = generator.random()
            if roll < opening:
                pieces.append(generator.choice(("\\boxed{", "{")))
            elif roll < opening + 0.25:
                pieces.append("}")
            else:
                pieces.append(generator.choice(others))
        text = "".join(pieces)
        python, core = _both(text)
        if python != core:
            differ.append((text, python, core))
    assert differ == []


def test_a_long_completion_is_read_by_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "é \\boxed{1} " * (locate.CORE_BOXED_CHARS // 12) + "\\boxed{\\text{€} 7.5\\%}"
    calls = []

    def counted(completion: str) -> object:
        calls.append(len(completion))
        return boxed_span_in_core(completion)

    monkeypatch.setattr(locate, "boxed_span_in_core", counted)
    located = locate.boxed(text)
    assert calls == [len(text)]
    assert isinstance(located, locate.Located)
    assert (located.text, located.start, located.end) == ("€ 7.5%", len(text) - 15, len(text) - 1)
    assert locate.boxed(text[:1000]) == boxed_from(text[:1000], boxed_span(text[:1000])) and calls == [len(text)]
