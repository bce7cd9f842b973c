"""Claims: exact names and field sets, exact decimals, tolerance and normalization only as declared."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from finscore.contracts.checks.claims import compare_claims
from finscore.contracts.failures import Category
from finscore.contracts.formats.models import ClaimContract
from finscore.contracts.formats.models import ClaimTolerance as Tolerance

ISSUE_FIELDS = {
    "value": "3345563.94",
    "unit": "INR",
    "subject": "scenario-A",
    "as_of": "2026-09-01",
    "source": "calc-fv-v1",
}


def contract(tolerance=None, accept=frozenset()) -> dict[str, ClaimContract]:
    return {
        "future_value": ClaimContract(
            "future_value", ISSUE_FIELDS, Decimal(ISSUE_FIELDS["value"]), tolerance, frozenset(accept), "future_value"
        )
    }


def compare(claims, **kwargs):
    return compare_claims(contract(**kwargs), claims)


def test_the_issue_example_passes_and_25_lakh_at_6_percent_is_3345563_94():
    # 2,500,000 × 1.06^5 = 2,500,000 × 1.3382255776 = 3,345,563.944 -> 3,345,563.94 (hand arithmetic)
    checks, failures = compare({"future_value": dict(ISSUE_FIELDS)})
    assert failures == [] and checks[0].passed and checks[0].value == Decimal("3345563.94")


@pytest.mark.parametrize(
    "field, wrong, code, category",
    [
        ("value", "3345563.95", "claim_value_mismatch", Category.NUMERICAL_EXTRACTION),
        ("value", "NaN", "claim_value_unreadable", Category.NUMERICAL_EXTRACTION),
        ("unit", "USD", "claim_unit_mismatch", Category.NUMERICAL_EXTRACTION),
        ("subject", "scenario-B", "claim_subject_mismatch", Category.NUMERICAL_EXTRACTION),
        ("as_of", "2026-09-02", "claim_as_of_mismatch", Category.FRESHNESS),
        ("as_of", "2026-9-1", "claim_as_of_mismatch", Category.FRESHNESS),
        ("source", "calc-fv-v2", "claim_source_mismatch", Category.EVIDENCE),
        ("source", 7, "claim_source_mismatch", Category.EVIDENCE),
    ],
)
def test_every_field_must_be_equal(field, wrong, code, category):
    claim = dict(ISSUE_FIELDS, **{field: wrong})
    checks, failures = compare({"future_value": claim})
    assert [(f.code.value, f.category) for f in failures] == [(code, category)]
    assert not checks[0].passed


def test_identifiers_dates_and_sources_get_no_tolerance_even_when_the_value_has_one():
    generous = Tolerance("INR", Decimal("1000"), Decimal("0.5"))
    _, failures = compare(
        {"future_value": dict(ISSUE_FIELDS, as_of="2026-09-02", source="calc-fv")}, tolerance=generous
    )
    assert {f.code.value for f in failures} == {"claim_as_of_mismatch", "claim_source_mismatch"}


def test_missing_subject_extra_field_missing_and_unexpected_claims_fail():
    no_subject = {k: v for k, v in ISSUE_FIELDS.items() if k != "subject"}
    _, failures = compare({"future_value": no_subject})
    assert [f.code.value for f in failures] == ["claim_fields_mismatch"]
    _, failures = compare({"future_value": dict(ISSUE_FIELDS, currency="INR")})
    assert [f.code.value for f in failures] == ["claim_fields_mismatch"]
    _, failures = compare({"future_value": dict(ISSUE_FIELDS), "return_pct": dict(ISSUE_FIELDS)})
    assert [f.code.value for f in failures] == ["claim_unexpected"]
    _, failures = compare({})
    assert [f.code.value for f in failures] == ["claim_missing"]


def test_tolerance_applies_only_where_declared():
    near = {"future_value": dict(ISSUE_FIELDS, value="3345563.95")}
    assert compare(near)[1] != []
    assert compare(near, tolerance=Tolerance("INR", Decimal("0.01"), Decimal("0")))[1] == []
    assert compare(near, tolerance=Tolerance("INR", Decimal("0"), Decimal("0.000000003")))[1] == []
    assert compare(near, tolerance=Tolerance("INR", Decimal("0.005"), Decimal("0")))[1] != []


def test_the_normalization_used_is_recorded():
    checks, failures = compare(
        {"future_value": dict(ISSUE_FIELDS, value="₹33,45,563.94")}, accept={"currency_symbol", "grouping_indian"}
    )
    assert failures == []
    assert checks[0].normalizations == ("currency_symbol", "grouping_indian")


def test_kit_claims_through_the_whole_scorer(score_edited, codes):
    def percent_display(final, trace):
        final["claims"]["equity_share"].update(value="64.25%")

    result = score_edited("conc-en", percent_display)
    assert result.passed
    assert result.claim_checks[0].normalizations == ("percent_display",)

    def nan(final, trace):
        final["claims"]["future_value"]["value"] = "NaN"

    assert codes(score_edited("fv-en", nan)) == {"claim_value_unreadable"}


@pytest.mark.parametrize("policy", ["guaranteed", None, "Illustrative"])
def test_policy_label_is_exact(score_edited, policy, codes):
    def relabel(final, trace):
        final["policy"] = policy

    result = score_edited("fv-en", relabel)
    assert codes(result) == {"policy_label_mismatch"}
    # "guaranteed" for a projection misstates what the evidence supports (issue #12, list 7)
    assert result.failures[0].category is Category.EVIDENCE
    assert result.failures[0].entry_id == final_citation(result)


def final_citation(result):
    """The entry the fv-en oracle answer cites: its one calculator call."""
    assert result.trace is not None
    return result.trace.entries[0].id


def test_a_mismatching_json_number_is_shown_as_the_text_the_prediction_wrote():
    # predictions are read with parse_float=Decimal, so 3345563.960 keeps its spelling; the
    # failure shows it as that text (like the gold it is set against), never as a raw number
    number = json.loads('{"v": 3345563.960}', parse_float=Decimal)["v"]
    _, failures = compare({"future_value": dict(ISSUE_FIELDS, value=number)})
    assert [(f.code.value, f.actual) for f in failures] == [("claim_value_mismatch", "3345563.960")]


@pytest.mark.parametrize("field, wrong", [("subject", "scenario-B"), ("source", 7), ("as_of", None)])
def test_a_mismatching_text_integer_or_null_is_shown_as_it_was_written(field, wrong):
    _, failures = compare({"future_value": dict(ISSUE_FIELDS, **{field: wrong})})
    assert [(f.expected, f.actual) for f in failures] == [(ISSUE_FIELDS[field], wrong)]


def test_an_unreadable_value_says_why():
    _, failures = compare({"future_value": dict(ISSUE_FIELDS, value="64.25%")})
    assert [(f.code.value, f.message) for f in failures] == [
        ("claim_value_unreadable", "a percent sign, and the case does not declare percent_display")]


def test_every_claim_is_checked_after_a_missing_one():
    contracts = {
        name: ClaimContract(name, ISSUE_FIELDS, Decimal(ISSUE_FIELDS["value"]), None, frozenset(), name)
        for name in ("first", "second")
    }
    _, failures = compare_claims(contracts, {"second": dict(ISSUE_FIELDS, value="1")})
    assert [(f.code.value, f.part) for f in failures] == [
        ("claim_missing", "claims.first"), ("claim_value_mismatch", "claims.second.value")]


def test_a_declared_field_beyond_the_five_is_compared_exactly_too():
    # a claim needs value and unit; any other declared field must be equal (docs/contracts-format.md
    # §2.3), whatever its name sorts after ("year" comes after "unit" and "value")
    fields = dict(ISSUE_FIELDS, year="2026")
    contracts = {"future_value": ClaimContract("future_value", fields, Decimal(fields["value"]), None, frozenset(),
                                               "future_value")}
    assert compare_claims(contracts, {"future_value": dict(fields)})[1] == []
    _, failures = compare_claims(contracts, {"future_value": dict(fields, year="2025")})
    assert [(f.code.value, f.part, f.actual) for f in failures] == [
        ("claim_fields_mismatch", "claims.future_value.year", "2025")]
