"""Citations: format (parser) apart from support (evidence); support judged on the trusted record."""

from __future__ import annotations

import pytest

from finscore.contracts.failures import Category


def cite(claim: str, citation):
    def edit(final, trace):
        final["citations"][claim] = citation

    return edit


@pytest.mark.parametrize("citation", [7, "", "e 1", "e1;DROP", None, ["e1"]])
def test_a_malformed_citation_is_a_parser_failure(score_edited, codes, citation):
    result = score_edited("fv-en", cite("future_value", citation))
    assert "citation_malformed" in codes(result) and result.primary_category is Category.PARSER


def test_a_citation_for_a_claim_the_answer_does_not_make_is_malformed(score_edited, codes):
    assert codes(score_edited("fv-en", cite("other_claim", "e1"))) == {"citation_malformed"}


def test_a_missing_or_unresolved_citation_is_an_evidence_failure(score_edited, codes):
    def drop(final, trace):
        del final["citations"]["future_value"]

    assert codes(score_edited("fv-en", drop)) == {"citation_missing"}
    result = score_edited("fv-en", cite("future_value", "e9"))
    assert codes(result) == {"citation_unresolved"} and result.primary_category is Category.EVIDENCE


def test_a_well_formed_citation_to_a_result_that_does_not_support_the_claim(score_edited, codes):
    # conc-en's oracle trace: e1 lists snapshots, e2 reads the holdings that support the claim.
    result = score_edited("conc-en", cite("equity_share", "e1"))
    assert codes(result) == {"evidence_unsupported"}
    failure = result.failures[0]
    assert failure.entry_id == "e1" and failure.category is Category.EVIDENCE


@pytest.mark.parametrize(
    "field, value", [("source", "snap-H001-2026-06-30"), ("subject", "H002"), ("as_of", "2026-06-30")]
)
def test_support_needs_the_same_source_subject_and_date(score_edited, codes, field, value):
    def tamper_result(final, trace):
        trace["entries"][1]["result"][field] = value

    assert codes(score_edited("conc-en", tamper_result)) == {"evidence_unsupported"}


def test_support_needs_the_fact_with_the_same_unit_and_value(score_edited, codes):
    def other_value(final, trace):
        trace["entries"][0]["result"]["facts"]["future_value"]["value"] = "3345564.00"

    def other_unit(final, trace):
        trace["entries"][0]["result"]["facts"]["future_value"]["unit"] = "USD"

    def no_fact(final, trace):
        del trace["entries"][0]["result"]["facts"]["future_value"]

    for edit in (other_value, other_unit, no_fact):
        assert codes(score_edited("fv-en", edit)) == {"evidence_unsupported"}


def test_a_refused_call_supports_nothing(score_edited, codes):
    def refused(final, trace):
        entry = trace["entries"][0]
        entry.update(outcome="refused", message="refused", result=None)

    assert "evidence_unsupported" in codes(score_edited("fv-en", refused))


def test_cached_evidence_counts_only_where_the_contract_permits_it(kit_cases, score_edited, codes):
    # conc-en permits cached evidence: citing the cached authorized read replaces the call.
    def use_cache(final, trace):
        trace["entries"].clear()
        final["citations"]["equity_share"] = "cache-snap-H001-2026-08-31"

    assert score_edited("conc-en", use_cache).passed

    # fresh-en permits it too, but its only cached item is the stale June read.
    def use_stale_cache(final, trace):
        trace["entries"].clear()
        final["claims"]["total_value"].update(value="1845250.00", as_of="2026-06-30", source="snap-H002-2026-06-30")
        final["citations"]["total_value"] = "cache-snap-H002-2026-06-30"

    result = score_edited("fresh-en", use_stale_cache)
    assert result.primary_category is Category.FRESHNESS
    assert {"claim_as_of_mismatch", "required_call_missing"} <= codes(result)


def test_citing_a_cached_item_where_not_permitted(kit_cases, oracle_records, codes):
    from dataclasses import replace

    from finscore.contracts import score_attempt

    case = kit_cases["conc-en"]
    strict = replace(case, trace=replace(case.trace, cached_evidence_permitted=False))
    record = oracle_records["conc-en"]
    final = dict(record.final, citations={"equity_share": "cache-snap-H001-2026-08-31"})
    result = score_attempt(strict, replace(record, final=final))
    assert codes(result) == {"cached_evidence_not_permitted"}
