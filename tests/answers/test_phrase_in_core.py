"""The phrase format's marker found by the core (fs_locate_phrase), which PhraseLocator uses on an ASCII
completion longer than CORE_PHRASE_CHARS when it tries one occurrence, has no conclusions and no window
shorter than the completion (financemath-answer/1), against the regular expressions of locate.py: the
Python reader stays the reference (pinned to the protocol's written rule by test_phrase.py and the
conformance files), and the core must find the marker it finds in every text. Here each hostile
megabyte is decided by both, the conformance rows of financemath-answer/1's phrase format are decided
with the core forced, and generated texts (bounded in number and length, fixed seeds) are read by both,
under v1's markers and under marker sets that exercise the longest-first order."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

import finscore.answers.locate as locate
from finscore.answers import decide, get_protocol
from finscore.answers.locate import Located, PhraseLocator
from finscore.answers.numbers import AnswerRefusal

CONFORMANCE = Path(locate.__file__).resolve().parent / "conformance"
V1 = get_protocol("financemath-answer/1")
MEGABYTE = 1 << 20
GOLD = {"ground_truth": 5.0, "question": "What is the value?"}

#: The marker sets the generated texts are read under: v1's; one marker a suffix of another (both
#: orders of declaration); a one-word and a one-letter marker; markers whose declared length orders
#: them otherwise than their words do (extra spaces, a tie kept in declared order), upper case, a
#: marker that is a word of another, and a duplicate.
MARKER_SETS: tuple[tuple[str, ...], ...] = (
    V1.phrase_markers,
    ("answer is", "the answer is"),
    ("the answer is", "answer is"),
    ("is",),
    ("a", "the answer is"),
    ("answer     is", "the answer is", "is   "),
    ("The Answer IS", "FINAL answer", "answer"),
    ("so", "so the answer is", "answer is", "answer is"),
)


def _locators() -> list[PhraseLocator]:
    return [PhraseLocator(markers) for markers in MARKER_SETS]


def _v1_locator() -> PhraseLocator:
    locator = PhraseLocator(V1.phrase_markers, V1.conclusion_openings, V1.conclusion_closings, V1.conclusion_words,
                            V1.phrase_window, V1.phrase_skip_unreadable, V1.phrase_markers_tried)
    assert locator.core_markers is not None  # (version 1: one occurrence, no conclusions, no window)
    return locator


def _whole(locator: PhraseLocator, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The locator's answer with the core (every completion to it) and with the regular expressions."""
    with monkeypatch.context() as patch:
        patch.setattr(locate, "CORE_PHRASE_CHARS", -1)
        core = locator(text)
    with monkeypatch.context() as patch:
        patch.setattr(locate, "CORE_PHRASE_CHARS", len(text) + 1)
        python = locator(text)
    return core, python


#: The hostile shapes: /tmp/bench/v1h.py's units repeated over a megabyte, and the phrase rows of
#: benchmarks/financemath_real_outputs.py --hostile.
UNITS = ("is ", "answer is ", "answer is x ", "answer  is ", "the answer ", "is* ", "s ", "i")
HOSTILE = (
    [(f"{unit!r} repeated", (unit * (MEGABYTE // len(unit) + 1))[:MEGABYTE]) for unit in UNITS]
    + [("no marker: 'the answer ' repeated", "the answer " * (MEGABYTE // 11)),
       ("'the answer is ' repeated", "the answer is " * (MEGABYTE // 14)),
       ("'the answer is:' then spaces", "the answer is:" + " " * MEGABYTE),
       ("'the answer is ' then * and _", "the answer is " + "*_" * (MEGABYTE // 2)),
       ("'the answer isx ' repeated (refused markers)", "the answer isx " * (MEGABYTE // 15)),
       ("'the ' repeated", "the " * (MEGABYTE // 4)),
       ("'therefore, the ' repeated (openings, no closing)", "therefore, the " * (MEGABYTE // 15)),
       ("'the answer is {final answer}.' repeated", "the answer is {final answer}.\n" * (MEGABYTE // 30)),
       ("a marker at the very start, then letters", "The answer is 5. " + "x" * MEGABYTE),
       ("'xthe answer is ' repeated, one marker first", "the answer is 7 " + "xthe answer is " * (MEGABYTE // 15))])


@pytest.mark.parametrize(("name", "text"), HOSTILE, ids=[name for name, _ in HOSTILE])
def test_each_hostile_megabyte_is_decided_alike_by_both_readers(name: str, text: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    locator = _v1_locator()
    assert locator.plain_span_in_core(text) == locator.plain_span(text)
    core, python = _whole(locator, text, monkeypatch)
    assert core == python
    with monkeypatch.context() as patch:  # and decided through the protocol, the core on its own threshold
        calls = []
        spans = PhraseLocator.plain_span_in_core

        def counted(self: PhraseLocator, completion: str) -> object:
            calls.append(len(completion))
            return spans(self, completion)

        patch.setattr(PhraseLocator, "plain_span_in_core", counted)
        decide(text, GOLD, "financemath-answer/1", "phrase")
        assert calls == [len(text)]  # (the megabyte went to the core by itself)


def _separators(generator: random.Random) -> str:
    return "".join(generator.choice(" \t*_") for _ in range(generator.randint(0, 10)))


def _piece(generator: random.Random, words: list[str], markers: tuple[str, ...]) -> str:
    roll = generator.random()
    if roll < 0.12:  # a whole marker, its words joined by runs of 0 to 10 separators (8 is the most allowed)
        marker = generator.choice(markers).split()
        return "".join(word + _separators(generator) for word in marker[:-1]) + marker[-1]
    if roll < 0.35:
        word = generator.choice(words)
        return generator.choice((word, word, word.upper(), word.capitalize()))
    if roll < 0.5:  # a fragment of a marker word: its start, its end
        word = generator.choice(words)
        cut = generator.randint(0, len(word))
        return generator.choice((word[:cut], word[cut:]))
    if roll < 0.8:  # separators: runs of 0 to 10
        return _separators(generator)
    if roll < 0.9:
        return generator.choice("abxyzAXéï")[:1] if generator.random() < 0.9 else generator.choice("ab")
    return generator.choice((".", ":", ",", "\n", "\r\n", "5", "1.5", "-", "'", "(", ")"))


def _texts(seed: int, count: int, longest: int) -> list[tuple[PhraseLocator, str]]:
    generator = random.Random(seed)
    locators = _locators()
    texts = []
    for _ in range(count):
        locator = generator.choice(locators)
        words = [word for marker in locator._markers for word in marker.lower().split()] + ["therefore"]
        text = "".join(_piece(generator, words, locator._markers) for _ in range(generator.randint(0, longest)))
        texts.append((locator, text.encode("ascii", "ignore").decode("ascii")))  # (the core reads ASCII)
    return texts


@pytest.mark.parametrize(("seed", "count", "longest"), [
    (1, 20_000, 12),  # short texts: every small arrangement
    (2, 8_000, 40),
    (3, 3_000, 200),  # long texts: many occurrences, refused and taken
])
def test_random_texts_have_their_marker_found_as_the_regular_expressions_find_it(seed: int, count: int,
                                                                                  longest: int) -> None:
    differ = []
    for locator, text in _texts(seed, count, longest):
        python, core = locator.plain_span(text), locator.plain_span_in_core(text)
        if python != core:
            differ.append((locator._markers, text, python, core))
    assert differ == []


def test_random_texts_past_the_threshold_are_answered_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    generator = random.Random(4)
    padding = "x " * (locate.CORE_PHRASE_CHARS // 2)
    differ = []
    for locator, text in _texts(5, 300, 60):
        long = text + padding if generator.random() < 0.5 else padding + text
        core, python = _whole(locator, long, monkeypatch)
        if core != python:
            differ.append((locator._markers, text, core, python))
    assert differ == []


def _rows(stem: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in gzip.decompress((CONFORMANCE / stem).read_bytes()).splitlines()]


def test_the_v1_conformance_rows_are_decided_as_labelled_by_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(locate, "CORE_PHRASE_CHARS", -1)  # every ASCII completion to the core
    rows = [row for row in _rows("financemath-answer-1.jsonl.gz") if row["format"] == "phrase"]
    assert len(rows) >= 1000
    read = 0
    wrong = []
    for row in rows:
        completion = str(row["completion"])
        read += completion.isascii()
        decision = decide(completion, row["gold"], get_protocol(row["protocol"]), "phrase")
        if {"passed": decision.passed, "reason": decision.reason, "k": decision.k} != row["expect"]:
            wrong.append((row["row"], row["label"], row["expect"], decision))
    assert wrong == []
    assert read >= 1000  # (most went to the core)


@pytest.mark.parametrize("stem", sorted(path.name for path in CONFORMANCE.glob("*.jsonl.gz")))
def test_every_ascii_conformance_completion_has_its_marker_found_alike(stem: str) -> None:
    locators = [_v1_locator(), *_locators()]
    differ = []
    for row in _rows(stem):
        completion = str(row["completion"])
        if completion.isascii():
            differ += [(row["row"], n) for n, locator in enumerate(locators)
                       if locator.plain_span(completion) != locator.plain_span_in_core(completion)]
    assert differ == []


def test_only_the_rule_the_core_reads_goes_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    v2 = get_protocol("financemath-answer/2")
    conclusions = PhraseLocator(v2.phrase_markers, v2.conclusion_openings, v2.conclusion_closings,
                                v2.conclusion_words, v2.phrase_window, v2.phrase_skip_unreadable,
                                v2.phrase_markers_tried)
    assert conclusions.core_markers is None
    assert PhraseLocator(("the answer is",), skip_unreadable=True, tried=2).core_markers is None
    assert PhraseLocator(("the answer is",), skip_unreadable=True, tried=1).core_markers is not None
    assert PhraseLocator(("the *answer* is",)).core_markers is None  # a separator in a word
    assert PhraseLocator(("a_b",)).core_markers is None
    assert PhraseLocator(tuple(f"m{n}" for n in range(33))).core_markers is None  # beyond the core's bounds
    assert PhraseLocator((" ".join("w" * 17),)).core_markers is None
    assert PhraseLocator(("answer is", "the answer is")).core_markers == b"the answer is\nanswer is"
    calls: list[int] = []

    def refused(self: PhraseLocator, completion: str) -> object:
        calls.append(len(completion))
        raise AssertionError("not for the core")

    monkeypatch.setattr(PhraseLocator, "plain_span_in_core", refused)
    long = "x " * locate.CORE_PHRASE_CHARS + "the answer is 5."
    windowed = PhraseLocator(("the answer is",), window=1000)
    for locator, text in [(conclusions, long), (windowed, long), (_v1_locator(), "é" + long),
                          (_v1_locator(), long[-locate.CORE_PHRASE_CHARS:])]:
        answer = locator(text)
        assert isinstance(answer, Located) and answer.text == "5"
    assert calls == []
    with pytest.raises(AssertionError, match="not for the core"):  # a window as long as the completion: no bound
        PhraseLocator(("the answer is",), window=len(long))(long)
    assert calls == [len(long)]


def test_skip_unreadable_with_one_occurrence_reads_through_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    locator = PhraseLocator(("the answer is",), skip_unreadable=True)
    text = "the answer is 5. " + "x " * locate.CORE_PHRASE_CHARS + "The answer is unknown."
    core, python = _whole(locator, text, monkeypatch)
    assert core == python
    assert isinstance(core, AnswerRefusal) and core.reason == "unparseable"
