"""financemath-answer/1: the question's own words decide percent, places and unit; the declared
tolerance; every miss typed; its conformance file is decided as labelled and is what its
generator (outside the wheel, never importing finscore) builds."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.answers import GoldError, decide, get_protocol
from finscore.answers import reasons as R
from finscore.answers.gold_files import GoldFileError, read_answer_golds
from finscore.answers.decide import reader_for

from tests.answers.test_conformance import tool

PROTOCOL = get_protocol("financemath-answer/1")
REPOSITORY = Path(__file__).resolve().parents[2]
CONFORMANCE = REPOSITORY / "python/finscore/answers/conformance/financemath-answer-1.jsonl.gz"

CASES = [  # (question, ground_truth, completion, reason, k): worked out by hand from the written rules
    ("What is the bond's price?", 1033.61, "Therefore, the answer is $1,033.61.", R.EXACT, None),
    ("What is the bond's price?", 1033.61, "Therefore, the answer is $1,034.", R.WITHIN_TOLERANCE, None),
    ("What is the bond's price?", 1033.61, "Therefore, the answer is -1033.61.", R.SIGN_FLIPPED, None),
    ("What is the bond's price?", 1033.61, "Therefore, the answer is 1,033,610.", R.SCALE_OFF, 3),
    ("What is the bond's price?", 12.3456, "Therefore, the answer is 12.", R.ROUNDING, 0),
    ("What is the bond's price?", 1033.61, "Therefore, the answer is 998.", R.WRONG_VALUE, None),
    ("What is the bond's price?", 1033.61, "Therefore, the answer is 1033.61 or 1034.", R.SEVERAL_NUMBERS, None),
    ("What is the bond's price?", 1033.61, "The price is 1033.61.", R.NO_FINAL_ANSWER, None),
    # a percentage asked for: the gold is in points
    ("What percentage do total liabilities constitute?", 38.889, "the answer is 38.89%.", R.PERCENT_DECLARED, None),
    ("What percentage do total liabilities constitute?", 38.889, "the answer is 38.89.", R.WITHIN_TOLERANCE, None),
    ("What percentage do total liabilities constitute?", 38.889, "the answer is 0.3889.", R.PERCENT_VS_RATIO, -2),
    # not asked as a percentage: a % divides by 100
    ("What is the effective annual return?", 0.088, "the answer is 8.8%.", R.PERCENT_DECLARED, None),
    # (the question says no percent: a factor of 100 is then a scale miss, per the written rule)
    ("What is the effective annual return?", 0.088, "the answer is 8.8.", R.SCALE_OFF, 2),
    ("What is the effective annual return, in % terms?", 0.088, "the answer is 8.8.", R.PERCENT_VS_RATIO, 2),
    # decimal places asked: the value rounded there passes (the half unit, 0.005)
    ("What is the ratio, to two decimal places?", 0.1234, "the answer is 0.12.", R.WITHIN_TOLERANCE, None),
    ("What is the ratio, to two decimal places?", 0.1234, "the answer is 0.13.", R.WRONG_VALUE, None),
    ("What is the ratio?", 0.1234, "the answer is 0.12.", R.ROUNDING, 2),  # no places asked: 0.5 % only
    # a stored gold (3 places): its own rounding is accepted
    ("What is the ratio?", 0.063, "the answer is 0.0634.", R.WITHIN_TOLERANCE, None),
    # the unit asked for: bare numbers are in it, scale words are applied
    ("What is the FCFF ($ millions)?", 485.561, "the answer is $485.561 million.", R.EXACT, None),
    ("What is the FCFF ($ millions)?", 485.561, "the answer is 485.56.", R.WITHIN_TOLERANCE, None),
    ("What is the FCFF ($ millions)?", 485.561, "the answer is $485.561 billion.", R.SCALE_OFF, 3),
    ("What is the FCFF (in  MILLIONS)?", 39.0, "the answer is $39,000,000.", R.SCALE_OFF, 6),
]


@pytest.mark.parametrize("question, truth, completion, reason, k", CASES)
def test_the_question_decides(question: str, truth: float, completion: str, reason: str, k: int | None) -> None:
    decision = decide(completion, {"ground_truth": truth, "question": question}, PROTOCOL, "phrase")
    assert (decision.reason, decision.k) == (reason, k), decision
    assert decision.passed is (reason in R.PASS_REASONS)


def test_a_boolean_gold_is_yes_or_no() -> None:
    assert decide("So the answer is yes.", {"ground_truth": True, "question": "Premium?"}, PROTOCOL, "phrase").passed
    assert decide("So the answer is yes.", {"ground_truth": False, "question": "Premium?"}, PROTOCOL,
                  "phrase").reason == R.WRONG_YES_NO


@pytest.mark.parametrize("gold", [{"question": "q"}, {"ground_truth": "5", "question": "q"},
                                  {"ground_truth": float("nan"), "question": "q"},
                                  {"ground_truth": 5, "question": 7}])
def test_a_malformed_gold_is_a_typed_error(gold: dict[str, object]) -> None:
    with pytest.raises(GoldError):
        decide("the answer is 5", gold, PROTOCOL, "phrase")


def test_a_gold_file_is_refused_with_the_way_in() -> None:
    with pytest.raises(GoldFileError, match="decide-jsonl"):
        read_answer_golds([{"question": "q", "ground_truth": 5.0}], PROTOCOL, reader_for(PROTOCOL))


def test_the_tolerance_is_declared_with_its_reason() -> None:
    rules = " ".join(PROTOCOL.data["comparison"]["rules"])
    assert PROTOCOL.tolerance.kind == "relative_or_half_unit" and str(PROTOCOL.tolerance.value) == "0.005"
    assert "Why this tolerance" in rules


def test_decide_jsonl_takes_financemath_golds() -> None:
    line = json.dumps({"completion": "Therefore, the answer is 38.9%.",
                       "gold": {"ground_truth": 38.889, "question": "What percentage is it?"}})
    done = subprocess.run([sys.executable, "-m", "finscore", "answers", "decide-jsonl", "--protocol",
                           "financemath-answer/1", "--format", "phrase"], input=line + "\n", capture_output=True,
                          text=True, check=True, cwd=REPOSITORY)
    decision = json.loads(done.stdout)["decision"]
    assert decision["passed"] and decision["reason"] == R.PERCENT_DECLARED


def test_the_conformance_rows_are_decided_as_labelled() -> None:
    rows = [json.loads(line) for line in gzip.decompress(CONFORMANCE.read_bytes()).splitlines()]
    assert len(rows) >= 2000
    wrong = [row["row"] for row in rows
             if {"passed": (d := decide(row["completion"], row["gold"], PROTOCOL, row["format"])).passed,
                 "reason": d.reason, "k": d.k} != row["expect"]]
    assert wrong == []


def test_the_conformance_file_is_what_its_generator_builds() -> None:
    assert tool("make_financemath_conformance").build() == CONFORMANCE.read_bytes()


def test_a_question_is_read_by_each_protocols_own_words() -> None:
    """The golds kept between calls are kept per protocol's words: the same question
    decided in turn under the shipped protocol and one whose places table is empty gets each its own
    reading (the two outcomes are the hand-worked cases above: places asked, and no places asked)."""
    from finscore.answers import protocol_from_data

    data = json.loads((REPOSITORY / "python/finscore/answers/protocols/financemath-answer-1.json").read_text())
    data["gold"]["question_words"]["places"] = {}
    without_places = protocol_from_data(data)
    gold = {"ground_truth": 0.1234, "question": "What is the ratio, to two decimal places?"}
    for _ in range(2):
        assert decide("the answer is 0.12.", gold, PROTOCOL, "phrase").reason == R.WITHIN_TOLERANCE
        assert decide("the answer is 0.12.", gold, without_places, "phrase").reason == R.ROUNDING


def test_asking_for_a_percentage_is_read_as_the_pattern_reads_it() -> None:
    """The gold reader tests `"percent" in` the lower-cased question where the written rule is the
    pattern `percent|%` under IGNORECASE: CPython's `re` matches a letter of "percent" with exactly the
    characters whose `str.lower()` is that letter (every code point checked), and U+0130, the one
    character whose lower case is two, lowers to no letter of it."""
    import re
    import sys

    for letter in "percnt":
        pattern = re.compile(letter, re.IGNORECASE)
        differing = [hex(code) for code in range(sys.maxunicode + 1)
                     if bool(pattern.fullmatch(chr(code))) != (chr(code).lower() == letter)]
        assert differing == [], letter
    assert not set("\u0130".lower()) & set("percent")


def test_every_phrase_holds_an_anchor_word() -> None:
    """A question is searched for the places and unit phrases only when it holds an anchor word: each
    shipped phrase holds one, so no phrase can be missed."""
    for name in ("financemath-answer/1", "financemath-answer/2"):
        words = get_protocol(name).question_words
        assert words is not None
        for phrases, anchors in ((words.places, words.places_anchors), (words.scales, words.scales_anchors)):
            assert phrases and anchors
            assert all(any(anchor in phrase for anchor in anchors) for phrase, _ in phrases)
