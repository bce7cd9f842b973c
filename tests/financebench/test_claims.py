"""The claim of an answer: authored cases for every rule and reason, and real answers of the results files."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finscore.financebench.claims import MAX_SENTENCES, NO_CLAIM, REFUSAL, Claim, NoClaim, Period, periods, read_claim

from .excerpt import answer


def _claim(text: str) -> Claim:
    claim = read_claim(text)
    assert isinstance(claim, Claim), claim
    return claim


def test_the_conclusion_is_the_last_sentence_with_a_cue() -> None:
    claim = _claim("Revenue was $6,489 million. PP&E averaged $267.5 million.\n"
                   "Therefore, the ratio is 6,489 / 267.5 = 24.26.")
    assert (claim.value, claim.unit) == (Decimal("24.26"), "ratio")


def test_without_a_cue_the_first_statement_is_the_claim() -> None:
    claim = _claim("3M's FY2018 capital expenditure was $1,577 million. This is shown on page 60 as (1,577).")
    assert (claim.value, claim.unit, claim.scale) == (Decimal("1577"), "USD", 6)
    assert claim.period == Period(2018, None) and claim.entity == "3M"


def test_operands_in_parentheses_are_not_the_claim() -> None:
    assert _claim("The working capital ratio for FY2020 is 0.68 (5,121.3 / 7,491.5).").value == Decimal("0.68")


def test_years_names_and_list_markers_are_not_values() -> None:
    claim = _claim("Steps:\n1. Find FY2019 revenue in the 10-K.\n2) Divide.\nSo the margin is 10.3%.")
    assert (claim.value, claim.unit) == (Decimal("10.3"), "percent")


def test_several_numbers_a_range_is_not_one_value() -> None:
    assert _claim("Therefore the ratio is between 0.65 and 0.67.").several
    assert _claim("Thus the ROA is 0.65 or 0.67.").several


def test_one_value_written_two_ways_is_not_several() -> None:
    assert not _claim("So, the retention ratio is 1 - (1,244.5 / 2,707.3) = 0.54 or 54.00%.").several
    assert not _claim("Therefore ROA = 0.01416 or 1.42% when rounded.").several


def test_no_claim_and_refusal_are_typed() -> None:
    assert read_claim("The text does not say; see FY2018 in the 10-K.") == NoClaim(
        NO_CLAIM, "no number other than years, names and list markers")
    refused = read_claim("I'm sorry, but I don't have access to the FY2019 statements.")
    assert isinstance(refused, NoClaim) and refused.reason == REFUSAL
    assert read_claim("").reason == NO_CLAIM  # type: ignore[union-attr]


def test_periods_fiscal_years_and_quarters() -> None:
    assert periods("FY2018, Q3 2022 and fiscal 2021") == [Period(2018, None), Period(2022, 3), Period(2021, None)]
    assert _claim("Q3 2022 revenue was $5 million.").period == Period(2022, 3)


def test_line_item_is_the_words_before_the_value() -> None:
    claim = _claim("Total current liabilities: $5,466 million.")
    assert claim.line_item == "Total current liabilities"


def test_sentences_are_bounded() -> None:
    assert read_claim("x. " * (MAX_SENTENCES + 10) + "So it is 5.") == NoClaim(
        NO_CLAIM, "no number other than years, names and list markers")  # the tail past the bound is not read
    text = "So it is 5. " + "y. " * (MAX_SENTENCES + 10) + "So it is 7."
    assert _claim(text).value == Decimal("5")


@pytest.mark.parametrize(("short", "results_file", "value", "unit"), [
    # the values read are the ones the answers' own conclusions write (quoted in each comment)
    ("03029", "gpt-4_oracle.jsonl", "1577", "USD"),  # "... for 3M is $1,577 million."
    ("03471", "gpt-4_oracle.jsonl", "0.68", "ratio"),  # "... is 0.68 (5,121.3 / 7,491.5)."
    ("03849", "gpt-4_oracle.jsonl", "7.8", "percent"),  # "... for MGM Resorts is 7.8%."
])
def test_real_answers(short: str, results_file: str, value: str, unit: str) -> None:
    text = answer(short, results_file)["model_answer"]
    claim = _claim(text)
    assert (claim.value, claim.unit) == (Decimal(value), unit)
    assert claim.sentence in text


def test_a_real_refusal() -> None:
    # gpt-4_closedBook answers 10420 (AES ROA) with "The text doesn't provide the necessary information ..."
    assert isinstance(read_claim(answer("10420", "gpt-4_closedBook.jsonl")["model_answer"]), NoClaim)


def test_hostile_answers_cost_linear_time() -> None:
    import time

    for text in ("(1 / " * 20_000, "So = " * 30_000, "A's " * 40_000, "1. " * 40_000, "0.5 or " * 20_000):
        started = time.perf_counter()
        read_claim(text)
        assert time.perf_counter() - started < 10, text[:10]


def test_a_formula_is_not_a_claim() -> None:
    # "x 100" and "/ 3" are a formula's constants; "$19,815 million - $13,997 million" its inputs
    refused = read_claim("I'm sorry, I do not have the statements. Margin = (COGS / Revenue) x 100")
    assert isinstance(refused, NoClaim) and refused.reason == REFUSAL
    assert _claim("So it is $19,815 million - $13,997 million = $5,818 million.").value == Decimal("5818")
    assert _claim("Average = (12.6% + 5.7% + 5.2%) / 3 = 7.8%").value == Decimal("7.8")


def test_entity_after_for_and_a_line_item_without_entity_or_period() -> None:
    claim = _claim("Therefore, the inventory turnover ratio for Nike for FY2021 is approximately 3.45.")
    assert (claim.entity, claim.line_item, claim.period) == ("Nike", "inventory turnover ratio", Period(2021, None))
    assert _claim("Coca Cola's FY2021 COGS margin is 39.7%.").line_item == "COGS margin"
