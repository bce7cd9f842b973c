"""Hostile completions: each gets a typed reason in every format, and none raises."""

from __future__ import annotations

import pytest

from finscore.answers import FORMATS, decide, finqa_gold, reasons

GOLD = finqa_gold(94.0, "subtract(5829, 5735)", "what is the net change?")
MB = 1 << 20

HOSTILE = {
    "10 MB of text": "lorem ipsum " * (10 * MB // 12),
    "10 MB of text then an answer": "x" * (10 * MB) + "\nAnswer: 94",
    "100,000 numbers": "Answer: " + " ".join(str(i) for i in range(100_000)),
    "100,000 equal numbers": "Answer: " + "94 " * 100_000,
    "deep braces": "\\boxed{" * 50_000 + "94" + "}" * 50_000,
    "unclosed braces": "\\boxed{" + "{" * 100_000,
    "a thousand Answer: lines": "".join(f"Answer: {i}\n" for i in range(1000)),
    "1e309": "Answer: 1e309",
    "NaN": "Answer: NaN",
    "json NaN": '{"answer": NaN}',
    "deep json": "{" + '"a":[' * 100_000 + "]" * 100_000 + "}",
    "long digits": "Answer: " + "9" * 1_000_000,
    "long exponent": "Answer: 1e" + "9" * 100_000,
    "commas": "Answer: " + "1," * 500_000,
    "spaces": " " * MB,
    "lone surrogate": "Answer: \ud800 94",
    "nul bytes": "Answer: \x00\x00 94",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("answer_format", FORMATS)
def test_typed_reason_never_raises(name: str, answer_format: str) -> None:
    decision = decide(HOSTILE[name], GOLD, "finqa-answer/1", answer_format)
    assert decision.reason in reasons.ALL_REASONS


@pytest.mark.parametrize("answer_format", FORMATS)
def test_invalid_utf8_bytes(answer_format: str) -> None:
    decision = decide(b"Answer: \xff\xfe 94", GOLD, "finqa-answer/1", answer_format)
    assert (decision.passed, decision.reason) == (False, reasons.UNPARSEABLE)
    assert "not UTF-8" in decision.detail


def test_valid_utf8_bytes_are_read() -> None:
    assert decide("Answer: \u221294".encode(), GOLD, "finqa-answer/1", "answer-line").reason == reasons.SIGN_FLIPPED


@pytest.mark.parametrize("name, answer_format, reason", [
    ("100,000 numbers", "answer-line", reasons.UNPARSEABLE),  # longer than the declared 10,000 characters
    ("a thousand Answer: lines", "answer-line", reasons.WRONG_VALUE),
    ("1e309", "answer-line", reasons.UNPARSEABLE),
    ("NaN", "answer-line", reasons.UNPARSEABLE),
    ("json NaN", "json", reasons.UNPARSEABLE),
    ("deep braces", "boxed", reasons.UNPARSEABLE),
    ("unclosed braces", "boxed", reasons.UNPARSEABLE),
    ("deep json", "json", reasons.UNPARSEABLE),
    ("10 MB of text", "answer-line", reasons.NO_FINAL_ANSWER),
    ("10 MB of text then an answer", "answer-line", reasons.EXACT),
    ("10 MB of text", "whole", reasons.UNPARSEABLE),
    ("long digits", "answer-line", reasons.UNPARSEABLE),
    ("long exponent", "answer-line", reasons.UNPARSEABLE),
    ("commas", "answer-line", reasons.UNPARSEABLE),
    ("lone surrogate", "answer-line", reasons.EXACT),
])
def test_the_reason_each_hostile_input_gets(name: str, answer_format: str, reason: str) -> None:
    assert decide(HOSTILE[name], GOLD, "finqa-answer/1", answer_format).reason == reason


def test_the_last_of_a_thousand_answer_lines_is_read() -> None:
    decision = decide(HOSTILE["a thousand Answer: lines"], GOLD, "finqa-answer/1", "answer-line")
    assert decision.read == "999"


def test_a_completion_that_is_not_text() -> None:
    decision = decide(94, GOLD)  # type: ignore[arg-type]
    assert (decision.passed, decision.reason) == (False, reasons.UNPARSEABLE)


def test_a_batch_names_the_gold_it_cannot_read() -> None:
    from finscore.answers import GoldError, decide_batch

    with pytest.raises(GoldError, match="gold 1: exe_ans is the text 'maybe'"):
        decide_batch(["Answer: 1", "Answer: 2"], [{"exe_ans": 1.0}, {"exe_ans": "maybe"}])
    assert [d.reason for d in decide_batch(["Answer: 1", None], [{"exe_ans": 1.0}, GOLD])] == [
        reasons.EXACT, reasons.MISSING_PREDICTION]


def test_a_tatqa_gold_outside_the_protocol_is_told_apart_from_a_malformed_one() -> None:
    from finscore.answers import GoldError, OutOfProtocolGold, decide_batch

    with pytest.raises(OutOfProtocolGold, match="gold 1: a multi-span answer of 2 items is not one number"):
        decide_batch(["Answer: 1", "Answer: 2"], [{"answer": 1.0, "scale": ""},
                     {"answer": ["a", "b"], "answer_type": "multi-span", "scale": ""}], protocol="tatqa-answer/1")
    with pytest.raises(OutOfProtocolGold, match="the span answer 'the north' is not one plain number"):
        decide_batch(["Answer: 1"], [{"answer": ["the north"], "answer_type": "span", "scale": ""}],
                     protocol="tatqa-answer/1")
    for malformed in ({"answer": 1.0, "scale": "millions"}, {"answer": 1.0, "answer_type": "sum", "scale": ""},
                      {"answer": [5], "answer_type": "span", "scale": ""}, {"answer": False, "scale": ""},
                      {"answer": None, "answer_type": "span", "scale": ""}, {"answer": None, "scale": ""}):
        with pytest.raises(GoldError) as raised:
            decide_batch(["Answer: 1"], [malformed], protocol="tatqa-answer/1")
        assert not isinstance(raised.value, OutOfProtocolGold), malformed


@pytest.mark.parametrize("completion, reason", [
    ("Working.\nFinal Answer: 94", reasons.EXACT),
    ("Working.\n**Final answer:** 94.", reasons.EXACT),
    ("Working.\n> ANSWER : 94", reasons.EXACT),
    ("The final answer: 94", reasons.NO_FINAL_ANSWER),  # the marker must start its line
    ("Answer: 94\nOn reflection, 95.", reasons.EXACT),  # text after the last Answer: line is ignored
    ("Answer: 95\nAnswer: 94", reasons.EXACT),
    ("Answer: 94\r\n", reasons.EXACT),
])
def test_the_answer_line(completion: str, reason: str) -> None:
    assert decide(completion, GOLD, "finqa-answer/1", "answer-line").reason == reason


@pytest.mark.parametrize("answer_format", FORMATS)
def test_a_batch_of_hostile_inputs_decides_each_as_alone(answer_format: str) -> None:
    """Through decide_batch (the core takes the ASCII answer-line and whole rows of a batch this
    size, up to 8 MB each): every hostile input gets the decision `decide` gives it alone."""
    from finscore.answers import decide_batch

    completions = [*HOSTILE.values(), "7 MB of text then an answer " * (7 * MB // 28) + "\nAnswer: $94 million",
                   b"Answer: \xff\xfe 94", None, *[f"Answer: {n}" for n in range(90, 110)]]
    decided = decide_batch(completions, [GOLD] * len(completions), "finqa-answer/1", answer_format)
    assert decided == [decide(c, GOLD, "finqa-answer/1", answer_format) for c in completions]
    assert len(completions) >= 32 and all(d.reason in reasons.ALL_REASONS for d in decided)
