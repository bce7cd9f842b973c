"""Properties (hypothesis, derandomized): a right value spelled any declared way passes; the same
value times 10^k (k != 0) never passes and is scale_off with that k (percent_vs_ratio for k = +-2
when the gold is a percentage)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from finscore.answers import Gold, decide, finqa_gold, reasons, tatqa_gold
from finscore.answers.decide import reader_for
from finscore.answers.registry import get_protocol

SETTINGS = settings(derandomize=True, max_examples=400, deadline=None)
golds = st.decimals(min_value=Decimal("-1e9"), max_value=Decimal("1e9"), places=5, allow_nan=False,
                    allow_infinity=False).filter(lambda d: d != 0)
powers = st.integers(min_value=-9, max_value=9).filter(lambda k: k != 0)
FORMATS = ("answer-line", "boxed", "json", "whole")


def gold_of(value: Decimal, program: str = "") -> tuple[Gold, Decimal]:
    number = float(value)
    return finqa_gold(number, program), Decimal(repr(number))


def plain(value: Decimal) -> str:
    return format(value, "f")


def spellings(shown: Decimal) -> list[str]:
    texts = [plain(shown), f"{shown:,f}", f"{shown:e}", f"{plain(shown)} million", f"USD {plain(shown)}"]
    if shown < 0:
        texts += [f"({plain(-shown)})", f"\u2212{plain(-shown)}", f"-${-shown:,f}"]
    else:
        texts += [f"${shown:,f}", f"{plain(shown)} dollars"]
    return texts


def wrapped(answer: str, answer_format: str) -> str:
    if answer_format == "answer-line":
        return f"Working: 12 and 7.\n**Answer:** {answer}\n"
    if answer_format == "boxed":
        return f"So $\\boxed{{{answer.replace('%', chr(92) + '%').replace('$', chr(92) + '$')}}}$"
    if answer_format == "json":
        return '{"answer": "%s"}' % answer
    return answer


@SETTINGS
@given(golds, st.sampled_from(FORMATS))
def test_right_values_pass_in_every_declared_spelling(value: Decimal, answer_format: str) -> None:
    gold, shown = gold_of(value)
    for text in spellings(shown):
        decision = decide(wrapped(text, answer_format), gold, "finqa-answer/1", answer_format)
        assert decision.passed and decision.reason == reasons.EXACT, (text, decision)


@SETTINGS
@given(golds, st.booleans())
def test_percentages_pass_in_their_declared_reading(value: Decimal, points: bool) -> None:
    gold, shown = gold_of(value, "multiply(#0, const_100)" if points else "")
    text = f"{plain(shown if points else shown.scaleb(2))}%"
    decision = decide(f"Answer: {text}", gold, "finqa-answer/1")
    assert decision.passed and decision.reason == reasons.PERCENT_DECLARED, (text, decision)


@SETTINGS
@given(golds, powers, st.sampled_from(FORMATS))
def test_scaled_values_never_pass_and_name_k(value: Decimal, k: int, answer_format: str) -> None:
    gold, shown = gold_of(value)
    for text in spellings(shown.scaleb(k))[:3]:
        decision = decide(wrapped(text, answer_format), gold, "finqa-answer/1", answer_format)
        assert not decision.passed
        assert (decision.reason, decision.k) == (reasons.SCALE_OFF, k), (text, decision)


@SETTINGS
@given(golds, st.sampled_from([-2, 2]), st.booleans())
def test_a_percentage_scaled_by_a_hundred_is_percent_vs_ratio(value: Decimal, k: int, points: bool) -> None:
    gold, shown = gold_of(value, "multiply(#0, const_100)" if points else "")
    assert gold.percentage == points
    decision = decide(f"Answer: {plain(shown.scaleb(k))}", gold, "finqa-answer/1")
    assert (decision.passed, decision.reason, decision.k) == (
        False, reasons.PERCENT_VS_RATIO if points else reasons.SCALE_OFF, k)


SCALES = {"thousand": 3, "million": 6, "billion": 9}


@SETTINGS
@given(st.decimals(min_value=Decimal("-1e6"), max_value=Decimal("1e6"), places=2).filter(lambda d: d != 0),
       st.sampled_from(sorted(SCALES)), powers)
def test_tatqa_scale_words_apply_and_scaled_values_name_k(value: Decimal, scale: str, k: int) -> None:
    protocol = get_protocol("tatqa-answer/1")
    gold = tatqa_gold(float(value), scale, "arithmetic", "", reader_for(protocol))
    shown = Decimal(repr(float(value)))
    assert decide(f"Answer: {plain(shown)} {scale}", gold, protocol).passed
    assert decide(f"Answer: {plain(shown)}", gold, protocol).passed  # a bare number is in the gold's scale
    in_units = shown.scaleb(SCALES[scale])
    assert decide(f"Answer: ${in_units:,f}", gold, protocol).reason == reasons.SCALE_OFF
    decision = decide(f"Answer: {plain(shown.scaleb(k))} {scale}", gold, protocol)
    assert (decision.passed, decision.reason, decision.k) == (False, reasons.SCALE_OFF, k)
