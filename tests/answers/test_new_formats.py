"""The formats of issue #32 (phrase, tag, last-number): each against its written rule in the
protocol files, their rules as data (a protocol that declares other markers reads other text),
the lenient label of last-number in every report and stamp, and a hostile 1 MB completion in each
format decided within a generous bound (benchmarks/ measures the real figure)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from finscore.answers import decide, finqa_gold, get_protocol, protocol_from_data
from finscore.answers import reasons as R
from finscore.answers.decide import locator_for
from finscore.answers.numbers import AnswerRefusal
from finscore.answers.protocol import FORMATS, ProtocolError
from finscore.answers.report import score_answers
from finscore.answers.stamp import make_stamp
from finscore.answers.terminal import render_report

FINQA = get_protocol("finqa-answer/1")
GOLD = finqa_gold(2184.0)

PHRASE = [  # (completion, the answer text read, the words of the written rule it follows, passes against 2184)
    ("Loss = 29,184 - 27,000 = 2,184\n\nTherefore, the answer is $2,184.", "$2,184", "LAST occurrence", True),
    ("The answer is 5. Then the answer is 2184.\nDone.", "2184", "LAST occurrence", True),
    ("THE ANSWER IS 2184", "2184", "any case", True),
    ("**The answer is** 2,184.00", "2,184.00", "markdown marks", True),
    ("the  answer\tis: **2184**", "2184", "optional colon", True),
    ("So the final answer is 2184 dollars. The rest is commentary with 7.", "2184 dollars", "end of that sentence", True),
    ("the answer is 2.184e3 and\nmore 5", "2.184e3 and", "or of that line", True),
    ("the answer is 5.E-1 exactly. Then 9", "5.E-1 exactly", "5.E-1 do not end it", False),
    ("Therefore, the answer is $\\boxed{2184}$.", "$2184$", "LaTeX is read as text", True),
]


@pytest.mark.parametrize("completion, answer, rule, passed", PHRASE)
def test_phrase(completion: str, answer: str, rule: str, passed: bool) -> None:
    assert rule in FINQA.data["formats"]["phrase"] or rule == "markdown marks"
    located = locator_for(FINQA, "phrase")(completion)
    assert not isinstance(located, AnswerRefusal) and located.text == answer
    assert decide(completion, GOLD, FINQA, "phrase").passed is passed


def test_phrase_needs_its_marker_whole() -> None:
    for completion in ("theanswer is 5", "the answer isn't 5", "so the answers is 5", "no phrase at all: 2184"):
        decision = decide(completion, GOLD, FINQA, "phrase")
        assert decision.reason == R.NO_FINAL_ANSWER, completion


def test_the_markers_are_data() -> None:
    data = json.loads(json.dumps(FINQA.data))
    data["id"] = "finqa-answer-markers"
    data["format_rules"]["phrase"]["markers"] = ["the result is"]
    own = protocol_from_data(data)
    assert decide("the result is 2184.", GOLD, own, "phrase").passed
    assert decide("the answer is 2184.", GOLD, own, "phrase").reason == R.NO_FINAL_ANSWER


TAGS = [
    ("<think>2000?</think>\n<answer> 2,184 </answer>", "2184"),
    ("<answer>1</answer> then <ANSWER>2184</Answer>", "2184"),
    ("<answer>2184</answer> then <answer>99 never closed", "2184"),
    ("<answer><answer>2184</answer>", "2184"),
]


@pytest.mark.parametrize("completion, value", TAGS)
def test_tag(completion: str, value: str) -> None:
    decision = decide(completion, GOLD, FINQA, "tag")
    assert decision.passed and decision.value == value, decision


def test_tag_absent_or_unclosed() -> None:
    for completion in ("2184", "<answer>2184", "</answer>2184<answer>"):
        assert decide(completion, GOLD, FINQA, "tag").reason == R.NO_FINAL_ANSWER, completion


LAST = [
    ("29,184 - 27,000 = 2,184", "2184", True),
    ("so it is (2,184) in FY2019", "-2184", False),  # the digits of FY2019 are a word's
    ("2184 and then 1.5e-3", "0.0015", False),  # 1.5e-3's 3 belongs to its number
    ("about 2.184 thousand, the 3rd", "2.184", False),
]


@pytest.mark.parametrize("completion, value, passed", LAST)
def test_last_number(completion: str, value: str, passed: bool) -> None:
    decision = decide(completion, GOLD, FINQA, "last-number")
    assert decision.value == value and decision.passed is passed, decision


def test_last_number_without_a_number() -> None:
    assert decide("Q4 of FY2019, the 3rd", GOLD, FINQA, "last-number").reason == R.NO_FINAL_ANSWER


def test_last_number_tries_the_declared_runs_only() -> None:
    data = json.loads(json.dumps(FINQA.data))
    data["id"] = "finqa-answer-runs"
    data["format_rules"]["last-number"]["max_runs_tried"] = 2
    own = protocol_from_data(data)
    assert decide("2184 Q1 Q2", GOLD, own, "last-number").reason == R.NO_FINAL_ANSWER
    assert decide("2184 Q1", GOLD, own, "last-number").passed


def test_last_number_is_labelled_lenient_in_reports_and_stamps() -> None:
    assert "lenient" not in make_stamp(FINQA) and "lenient" not in make_stamp(FINQA, "phrase")
    assert "lenient" in make_stamp(FINQA, "last-number")
    gold_file = {"pre_text": [], "post_text": [], "table": [], "id": "x"}
    data = [{**gold_file, "qa": {"question": "q?", "program": "add(2000, 184)", "exe_ans": 2184.0, "answer": "2184"}}]
    raw = json.dumps({"id": "x", "completion": "it is 2184"}).encode() + b"\n"
    report = score_answers(raw, data, FINQA, "last-number")
    shown = report.to_json()
    assert "lenient" in shown["stamp"] and "lenient" in shown["protocol"]
    assert "LENIENT" in render_report(report).splitlines()[0]
    plain = score_answers(raw, data, FINQA, "phrase").to_json()
    assert "lenient" not in plain["stamp"] and "lenient" not in plain["protocol"]


def _without(data: dict[str, Any], format: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(data))
    copy["id"] = f"{copy['id']}-without"
    del copy["formats"][format]
    del copy["format_rules"][format]
    return copy


def test_a_protocol_may_leave_the_new_formats_out_and_is_then_refused_them() -> None:
    own = protocol_from_data(_without(dict(FINQA.data), "tag"))
    with pytest.raises(ProtocolError, match="does not declare"):
        decide("<answer>2184</answer>", GOLD, own, "tag")
    assert decide("Answer: 2184", GOLD, own, "answer-line").passed


@pytest.mark.parametrize("change", [
    lambda d: d["format_rules"].pop("phrase"),  # described without rules
    lambda d: d["formats"].pop("phrase"),  # rules without a description
    lambda d: d["format_rules"]["tag"].update(extra=1),
    lambda d: d["format_rules"]["last-number"].update(lenient=False),
    lambda d: d["format_rules"]["phrase"].update(version=0),
    lambda d: d["format_rules"]["phrase"].update(markers=["the\nanswer"]),
    lambda d: d["format_rules"]["tag"].update(tags=["an swer"]),
])
def test_format_rules_are_checked(change: Any) -> None:
    data = json.loads(json.dumps(FINQA.data))
    change(data)
    with pytest.raises(ProtocolError):
        protocol_from_data(data)


HOSTILE = {
    "phrase": "the answer " * 95_000,
    "tag": "<answer>" * 130_000,
    "last-number": "1x " * 340_000,
    "boxed": "\\boxed{" * 150_000,
}


@pytest.mark.parametrize("format", ["phrase", "tag", "last-number", "boxed"])
def test_a_hostile_megabyte_is_decided_fast(format: str) -> None:
    completion = HOSTILE[format]
    assert len(completion) >= 1_000_000
    started = time.process_time()
    decision = decide(completion, GOLD, FINQA, format)
    assert time.process_time() - started < 1.0  # generous: benchmarks/ records the real figure
    assert not decision.passed


def test_every_format_is_described_by_every_shipped_protocol() -> None:
    for name in ("finqa-answer/1", "convfinqa-answer/1", "tatqa-answer/1"):
        assert set(get_protocol(name).data["formats"]) == set(FORMATS)


def test_a_long_answer_is_stripped_as_str_strip_strips_it() -> None:
    """Past 4,096 characters the emphasis runs are found by a regular expression: the same spans."""
    import random

    from finscore.answers.locate import _EMPHASIS, _stripped

    rng = random.Random(3)
    for _ in range(200):
        size = rng.choice([4097, 5000, 9000])
        text = " " * size if rng.random() < 0.2 else "".join(rng.choice(" \t\r*_x5") for _ in range(size))
        lead = len(text) - len(text.lstrip(_EMPHASIS))
        trail = len(text) - len(text.rstrip(_EMPHASIS))
        located = _stripped(text, 0, len(text))
        assert (located.text, located.start, located.end) == (text[lead:len(text) - trail], lead, len(text) - trail)


def test_the_reward_stamp_says_last_number_is_lenient() -> None:
    from finscore.rewards.config import RewardConfig

    assert "lenient" in RewardConfig(input="answer", format="last-number").stamp("finqa")
    assert "lenient" not in RewardConfig(input="answer", format="phrase").stamp("finqa")
