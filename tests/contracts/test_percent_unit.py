"""Claim values against the ratio claim of kit case conc-en: percent units, percent_display, digit scripts.

The kit case conc-en asks for an equity share, a ratio. By hand from its snapshot
snap-H001-2026-08-31: equity = 5000 x 300.00 + 400 x 2675.00 = 2,570,000; debt
30000 x 40.00 = 1,200,000; gold 40 x 5750.00 = 230,000; total 4,000,000; share
2,570,000 / 4,000,000 = 0.6425, which is 64.25 percent. Imports go through
`finscore.contracts`'s own exports.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from finscore.contracts import KIT_DIRECTORY, AttemptResult, Case, load_kit_oracle, parse_case, score_attempt

SHARE = Decimal(2_570_000) / Decimal(4_000_000)


def conc_en(accept: list[str]) -> Case:
    path = KIT_DIRECTORY / "cases" / "conc-en.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    claim = raw["contract"]["claims"]["equity_share"]
    assert claim["fields"]["unit"] == "ratio" and Decimal(claim["fields"]["value"]) == SHARE
    claim["accept"] = accept
    return parse_case(raw, str(path))


def score(case: Case, value: str, unit: str) -> AttemptResult:
    record = next(r for r in load_kit_oracle().records if r.case_id == "conc-en")
    final: dict[str, Any] = copy.deepcopy(record.final)
    final["claims"]["equity_share"].update(value=value, unit=unit)
    return score_attempt(case, replace(record, final=final))


def codes(result: AttemptResult) -> set[str]:
    return {failure.code.value for failure in result.failures}


def test_the_oracle_answer_in_the_ratio_unit_passes_either_way() -> None:
    for accept in ([], ["percent_display"]):
        assert score(conc_en(accept), str(SHARE), "ratio").passed


@pytest.mark.parametrize("value", [str(SHARE), str(SHARE * 100)])
def test_without_percent_display_a_percent_claim_never_matches_a_ratio(value: str) -> None:
    # neither "0.6425 percent" (read as is, it would equal the ratio) nor "64.25 percent" (the right
    # amount, in a unit the case does not allow) may pass: the unit is not the case's
    result = score(conc_en([]), value, "percent")
    assert not result.passed
    assert "claim_unit_mismatch" in codes(result)


def test_with_percent_display_64_25_percent_is_the_ratio() -> None:
    result = score(conc_en(["percent_display"]), str(SHARE * 100), "percent")
    assert result.passed, result.failures


def test_with_percent_display_0_6425_percent_is_a_hundred_times_too_small() -> None:
    result = score(conc_en(["percent_display"]), str(SHARE), "percent")  # 0.006425, not 0.6425
    assert not result.passed
    assert codes(result) == {"claim_value_mismatch"}


def test_digits_of_a_declared_script_read_but_never_mixed_with_ascii() -> None:
    # Devanagari digits: U+0966 is 0, U+0966 + n is n. "०.६४२५" is 0.6425; "0.६४२५" mixes an
    # ASCII zero into it, and a value in two scripts is not a number of one declared script
    devanagari = "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in str(SHARE))
    assert devanagari == "\u0966.\u096c\u096a\u0968\u096b"
    case = conc_en(["digits_devanagari"])
    assert score(case, devanagari, "ratio").passed
    mixed = score(case, "0" + devanagari[1:], "ratio")
    assert not mixed.passed and codes(mixed) == {"claim_value_unreadable"}


def test_normalizations_are_recorded_in_the_documented_reading_order() -> None:
    # docs/contracts-format.md §4: percent_display first, then the currency sign, the digit
    # script, the grouping; "६४.२५%" takes the percent sign and the Devanagari digits
    case = conc_en(["percent_display", "digits_devanagari"])
    value = "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in str(SHARE * 100)) + "%"
    result = score(case, value, "ratio")
    assert result.passed, result.failures
    assert result.claim_checks[0].normalizations == ("percent_display", "digits_devanagari")


@pytest.mark.parametrize("unit", ["usd", "pct", "INR", "percentage"])
def test_a_percent_written_value_in_another_unit_is_a_unit_mismatch(unit: str) -> None:
    # only "ratio" and "percent" name the ratio's unit (docs/contracts-format.md, percent_display)
    result = score(conc_en(["percent_display"]), str(SHARE * 100) + "%", unit)
    assert codes(result) == {"claim_unit_mismatch"}


def test_three_normalizations_are_recorded_in_reading_order() -> None:
    case = conc_en(["percent_display", "digits_devanagari", "grouping_western"])
    value = "".join(chr(0x0966 + int(c)) if c.isdigit() else c for c in "1,234.5") + "%"
    result = score(case, value, "ratio")
    assert result.claim_checks[0].normalizations == ("percent_display", "digits_devanagari", "grouping_western")
