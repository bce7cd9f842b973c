"""Evidence from documents, and the smaller observations of issue #12 (list 7).

Every failure points at the evidence or trace entry it concerns and that
pointer resolves inside the report; passages support a claim only when their
text states the claimed value from the claimed source; clarifications accept
the declared names that ask for the missing thing; a date written as a number
takes no tolerance; the capital-gains question states what its figure rests on.
"""

from __future__ import annotations

import copy
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from finscore.contracts import parse_case, score_attempt
from finscore.contracts.errors import InputFormatError
from finscore.contracts.evaluation import evaluate
from finscore.contracts.formats.predictions import PredictionFile
from finscore.contracts.reports.contracts_report import build_report
from finscore.contracts.reports.html import render_report_html


def _edited(oracle_records, case_id: str, edit) -> Any:
    record = oracle_records[case_id]
    final, trace = copy.deepcopy(record.final), copy.deepcopy(record.trace)
    edit(final, trace)
    return replace(record, final=final, trace=trace, producer=None)


def _report(kit_cases, edited: list) -> dict:
    chosen = [kit_cases[r.case_id] for r in edited]
    evaluation = evaluate(chosen, PredictionFile("edited", tuple(edited), ()), 1)
    return build_report(evaluation, replicates=20)


def _cite(claim: str, citation: str):
    def edit(final, trace):
        final["citations"][claim] = citation

    return edit


def _value(claim: str, value: str):
    def edit(final, trace):
        final["claims"][claim]["value"] = value

    return edit


def test_every_trace_ref_resolves_inside_the_report_including_cited_cached_items(kit_cases, oracle_records):
    edited = [
        _edited(oracle_records, "fresh-en", _cite("total_value", "cache-snap-H002-2026-06-30")),
        _edited(oracle_records, "fv-en", _value("future_value", "3345563.95")),
        _edited(oracle_records, "conc-en", _cite("equity_share", "doc-policy-H001")),
    ]
    report = _report(kit_cases, edited)
    refs = [f["trace_ref"] for f in report["failures"] if f["trace_ref"] is not None]
    assert "fresh-en/0#cache-snap-H002-2026-06-30" in refs and "conc-en/0#doc-policy-H001" in refs
    for ref in refs:
        key, entry_id = ref.split("#")
        held = [e["id"] for e in report["traces"].get(key, [])] + [e["id"] for e in report["evidence"].get(key, [])]
        assert entry_id in held, ref
    page = render_report_html(report)
    for ref in refs:
        case_attempt, entry_id = ref.split("#")
        case_id, attempt = case_attempt.rsplit("/", 1)
        assert f'id="trace-{case_id}-{attempt}-{entry_id}"' in page, ref


def test_claim_and_policy_failures_point_at_the_evidence_they_concern(kit_cases, oracle_records):
    wrong_value = score_attempt(kit_cases["fv-en"], _edited(oracle_records, "fv-en", _value("future_value", "3345563.95")))
    (mismatch,) = wrong_value.failures
    assert (mismatch.code.value, mismatch.entry_id) == ("claim_value_mismatch", "e1")

    def relabel(final, trace):
        final["policy"] = "guaranteed"

    wrong_label = score_attempt(kit_cases["fv-en"], _edited(oracle_records, "fv-en", relabel))
    (label,) = wrong_label.failures
    assert (label.code.value, label.category.value, label.entry_id) == ("policy_label_mismatch", "evidence", "e1")


def _with_passage(case, text: str, source: str, passage_id: str = "doc-x"):
    raw = copy.deepcopy(dict(case.raw))
    raw["world"]["documents"] = [{"id": passage_id, "text": text, "source": source}]
    return parse_case(raw, "edited case")


@pytest.mark.parametrize(
    "case_id, claim, text, supported",
    [
        ("conc-en", "equity_share", "On 31 August 2026 equity was 64.25% of the portfolio.", True),
        ("conc-en", "equity_share", "On 31 August 2026 equity was 64.25 per cent of the portfolio.", False),
        ("conc-en", "equity_share", "Equity is capped at 60% of the portfolio.", False),
        ("conc-hi", "equity_share", "31 अगस्त 2026 को इक्विटी ६४.२५% थी।", True),
        ("conc-en", "equity_share", "Equity was ६४.२५% on 31 August.", False),
        ("fresh-hi", "total_value", "कुल मूल्य ₹19,12,480.50 था।", True),
        ("fresh-hi", "total_value", "कुल मूल्य ₹1,912,480.50 था।", False),
        ("fresh-hi", "total_value", "कुल मूल्य ₹19,12,480.51 था।", False),
    ],
)
def test_a_passage_supports_a_claim_only_if_it_states_the_value_under_the_declared_normalization(
    kit_cases, oracle_records, case_id, claim, text, supported
):
    source = kit_cases[case_id].claims[claim].fields["source"]
    case = _with_passage(kit_cases[case_id], text, source)
    result = score_attempt(case, _edited(oracle_records, case_id, _cite(claim, "doc-x")))
    if supported:
        assert result.passed, result.failures
        assert [p.id for p in result.cited_passages] == ["doc-x"]
    else:
        assert {f.code.value for f in result.failures} == {"evidence_unsupported"}
        assert result.failures[0].entry_id == "doc-x"


def test_a_passage_from_another_source_does_not_support_the_claim(kit_cases, oracle_records):
    case = _with_passage(kit_cases["conc-en"], "On 31 August 2026 equity was 64.25% of the portfolio.", "blog-post")
    result = score_attempt(case, _edited(oracle_records, "conc-en", _cite("equity_share", "doc-x")))
    assert {f.code.value for f in result.failures} == {"evidence_unsupported"}
    assert result.failures[0].actual["source"] == "blog-post"


def test_a_passage_id_may_not_shadow_a_cached_item(kit_cases):
    with pytest.raises(InputFormatError, match="not unique"):
        _with_passage(kit_cases["conc-en"], "64.25%", "x", passage_id="cache-snap-H001-2026-08-31")


def test_passage_numbers_are_found_in_linear_time():
    from finscore.contracts.checks.passages import stated_values

    hostile = "1," * 50_000 + "x"
    assert stated_values(hostile, frozenset({"grouping_western"}), "INR") == []
    assert stated_values("₹3,345,563.94 and 12%", frozenset({"grouping_western", "currency_symbol"}), "INR") == [
        Decimal("3345563.94")
    ]


@pytest.mark.parametrize(
    "asked, passes",
    [
        (["years"], True),
        (["horizon"], True),
        (["tenure_months"], True),
        (["years", "horizon"], True),
        (["annual_rate"], False),
        (["horizon", "annual_rate"], False),
        ([], False),
    ],
)
def test_the_clarification_case_accepts_any_declared_name_for_the_horizon(kit_cases, oracle_records, asked, passes):
    for language in ("en", "hi", "ta"):
        case_id = f"clarify-{language}"

        def ask(final, trace):
            final["missing"] = asked

        result = score_attempt(kit_cases[case_id], _edited(oracle_records, case_id, ask))
        assert result.passed is passes, (case_id, asked, result.failures)


def test_an_accepted_name_cannot_ask_for_two_missing_things(kit_cases):
    raw = copy.deepcopy(dict(kit_cases["clarify-en"].raw))
    raw["contract"]["response"] = {
        "kind": "clarification",
        "missing": ["years", "annual_rate"],
        "accepted": {"years": ["period"], "annual_rate": ["period"]},
    }
    with pytest.raises(InputFormatError, match="both"):
        parse_case(raw, "edited case")


@pytest.mark.parametrize("unit", ["date", "yyyymmdd", "settlement_date"])
def test_a_tolerance_on_a_date_written_as_a_number_is_refused(kit_cases, unit):
    raw = copy.deepcopy(dict(kit_cases["fv-en"].raw))
    claim = raw["contract"]["claims"]["future_value"]
    claim["fields"].update(value="20260901", unit=unit)
    claim["accept"] = []
    claim["tolerance"] = {"unit": unit, "absolute": "1", "relative": "0"}
    with pytest.raises(InputFormatError, match="date"):
        parse_case(raw, "edited case")
    claim["tolerance"] = None
    assert parse_case(raw, "edited case").claims["future_value"].tolerance is None


_LATIN = str.maketrans("०१२३४५६७८९௦௧௨௩௪௫௬௭௮௯", "01234567890123456789")


def _rupees(text: str) -> list[Decimal]:
    return [Decimal(m.replace(",", "")) for m in re.findall(r"₹([0-9][0-9,]*(?:\.[0-9]+)?)", text.translate(_LATIN))]


def test_the_capital_gains_question_states_exemption_rate_and_that_cess_is_excluded(kit_cases):
    for language in ("en", "hi", "ta"):
        case = kit_cases[f"cg-{language}"]
        question = case.question.translate(_LATIN)
        assert "4%" in question and "12.5%" in question, language
        amounts = _rupees(question)
        exemption = Decimal("125000")
        assert exemption in amounts and len(amounts) == 3, language
        others = [amount for amount in amounts if amount != exemption]
        sale, cost = max(others), min(others)  # languages order them differently; the sale made a gain
        rate = Decimal("0.125")
        taxable = sale - cost - exemption
        tax = (taxable * rate).quantize(Decimal("0.01"))
        assert case.claims["taxable_gain"].value == taxable, language
        assert case.claims["estimated_tax"].value == tax, language
    assert "cess" in kit_cases["cg-en"].question and "without" in kit_cases["cg-en"].question
