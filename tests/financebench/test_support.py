"""The support checks: every reason on an authored passage, and the real passages of the excerpt."""

from __future__ import annotations

from decimal import Decimal

from finscore.financebench.claims import Claim, Period, read_claim
from finscore.financebench.gold import Evidence
from finscore.financebench.support import (SUPPORT_REASONS, Citation, check, printed_page, row_matches,
                                           scale_header)

from .excerpt import question

#: A cash-flow page laid out as FinanceBench's PDF extraction lays it: one cell a line, the dollar
#: on its own line, negatives in parentheses, the scale once in a header, the printed page last.
PAGE = ("Consolidated Statement of Cash Flows\nYears ended December 31\n \n(Dollars in millions, except per share "
        "amounts)\n \n2018\n \n2017\n \nNet income\n \n$\n5,363 \n$\n4,869 \nPurchases of property, plant and "
        "equipment (PP&E)\n \n \n(1,577) \n \n(1,373) \nEarnings per share\n \n10.46 \n \n8.13 \n \n60\n")
EVIDENCE = Evidence("excerpt", "3M_2018_10K", 59, PAGE)


def _claim(text: str) -> Claim:
    claim = read_claim(text)
    assert isinstance(claim, Claim)
    return claim


def test_the_declared_transforms_find_a_split_dollar_cell_under_the_scale_header() -> None:
    # "$\n5,363" under "(Dollars in millions ...)": 5,363e6 = 5.363 billion, claimed at 3 decimals
    result = check(_claim("So FY2018 net income was $5.363 billion."), EVIDENCE, 9, "Net income")
    assert (result.number, result.row, result.period, result.supported) == (
        "number_found", "row_matches", "period_matches", True)
    assert result.located is not None and result.located.units == Decimal("5363E6")


def test_rounding_to_the_claims_precision() -> None:
    # 5,363 million shown as $5.4 billion: 5.363 rounds to 5.4 at one decimal
    assert check(_claim("So FY2018 net income was $5.4 billion."), EVIDENCE, 9, "Net income").number == "number_found"


def test_parentheses_are_negative_and_a_positive_claim_has_only_their_magnitude() -> None:
    positive = check(_claim("FY2018 capex was $1,577 million."), EVIDENCE, 6, "Purchases of property, plant and "
                                                                                   "equipment")
    negative = check(_claim("FY2018 capex was $(1,577) million."), EVIDENCE, 6, "Purchases of property")
    assert (positive.number, positive.supported) == ("number_magnitude", True)
    assert negative.number == "number_found"


def test_row_and_period_mismatches() -> None:
    wrong_column = check(_claim("FY2018 net income was $4,869 million."), EVIDENCE, 6, "Net income")
    assert (wrong_column.period, wrong_column.supported) == ("period_mismatch", False)
    wrong_row = check(_claim("FY2018 revenue was $5,363 million."), EVIDENCE, 6, "Revenue")
    assert (wrong_row.row, wrong_row.supported) == ("row_mismatch", False)


def test_a_per_share_figure_is_not_scaled_by_the_header() -> None:
    # "(Dollars in millions, except per share amounts)": 10.46 is dollars, not 10.46 million
    assert check(_claim("FY2018 EPS was $10.46."), EVIDENCE, 0, "Earnings per share").number == "number_found"


def test_no_number_no_line_item_and_no_period() -> None:
    missing = check(_claim("So it was $999 million."), EVIDENCE, 6)
    assert (missing.number, missing.row, missing.period, missing.supported) == (
        "number_not_in_passage", "row_unchecked", "period_unknown", False)
    bare = check(_claim("10.46"), EVIDENCE, 0)
    assert (bare.row, bare.period) == ("no_line_item", "period_unknown")


def test_document_and_page_under_both_conventions() -> None:
    claim = _claim("FY2018 net income was $5,363 million.")
    assert check(claim, EVIDENCE, 6, "Net income").document == "not_cited"
    cited = check(claim, EVIDENCE, 6, "Net income", citation=Citation("3M_2018_10K", 59))
    assert (cited.document, cited.page, cited.supported) == ("document_matches", "page_matches", True)
    printed = check(claim, EVIDENCE, 6, "Net income", citation=Citation("3M_2018_10K", "60", "printed"))
    assert printed.page == "page_matches"
    off = check(claim, EVIDENCE, 6, "Net income", citation=Citation("3M_2017_10K", 60))
    assert (off.document, off.page, off.supported) == ("document_mismatch", "page_mismatch", False)
    unprinted = EVIDENCE._replace(full_page=PAGE.replace(" \n60\n", ""))
    assert check(claim, unprinted, 6, "Net income", citation=Citation("3M_2018_10K", "60", "printed")).page == \
        "page_unknown"


def test_every_support_reason_is_reached_above() -> None:
    reached = {"document_matches", "document_mismatch", "not_cited", "page_matches", "page_mismatch", "page_unknown",
               "number_found", "number_magnitude", "number_not_in_passage", "row_matches", "row_mismatch",
               "no_line_item", "row_unchecked", "period_matches", "period_mismatch", "period_unknown"}
    assert set(SUPPORT_REASONS) == reached


def test_scale_headers_as_filings_write_them() -> None:
    assert scale_header("Statement\n(Millions)\n2018") == (6, False)
    assert scale_header("(In thousands, except per share data)") == (3, True)
    assert scale_header("Balance Sheets\n$ in millions, except per share and share amounts") == (6, True)
    assert scale_header("revenue grew to $2.5 billion, up from $313 million") == (0, False)


def test_row_labels_glued_by_extraction_still_match() -> None:
    assert row_matches("Merchandiseinventories", "Merchandise inventories")
    assert not row_matches("Accounts payable", "Accounts receivable")


def test_a_real_passage_3m_capex() -> None:
    """financebench_id_03029's evidence page: '(Millions)', the row 'Purchases of property, plant and equipment
    (PP&E)', its 2018 cell '(1,577)', printed page '60' on PDF page 59."""
    q = question("03029")
    [evidence] = q.evidence
    assert (evidence.page, printed_page(evidence.full_page)) == (59, "60")
    result = check(_claim("The FY2018 capital expenditure amount for 3M is $1,577 million."), evidence, 6,
                   "Purchases of property, plant and equipment (PP&E)", Period(2018, None))
    assert (result.number, result.row, result.period, result.supported) == (
        "number_magnitude", "row_matches", "period_matches", True)
    assert result.located is not None and result.located.row == "Purchases of property, plant and equipment (PP&E)"


def test_a_bare_amount_no_question_scales_is_read_in_the_pages_scale() -> None:
    # "$5,363" with no scale word, no question scale: the page's "(Dollars in millions ...)" header applies
    result = check(_claim("Net income was $5,363."), EVIDENCE, None, "Net income")
    assert result.number == "number_found" and result.located is not None
    assert result.located.units == Decimal("5363E6")
