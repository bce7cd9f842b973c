"""The gold audit on the excerpt's real golds: each outcome with the evidence text behind it."""

from __future__ import annotations

from finscore.financebench.audit import audit, audit_question, justification_line_item

from .excerpt import gold, question


def test_04672_the_gold_writes_8_70_billion_where_the_evidence_gives_8_738_million() -> None:
    entry = audit_question(question("04672"))
    assert entry.outcome == "in_evidence_coarser"
    assert entry.support is not None and entry.support.located is not None
    # the page's cell is "8,738" under its "(Dollars in millions, except per share amount)" header
    assert str(entry.support.located.number.value) == "8738"
    assert "8.74 at the gold's written precision" in entry.detail


def test_an_outflow_shown_in_parentheses() -> None:
    entry = audit_question(question("03029"))  # gold $1577.00, the page's cell (1,577)
    assert entry.outcome == "in_evidence_as_magnitude"


def test_an_amount_extracted_as_written() -> None:
    assert audit_question(question("04417")).outcome == "in_evidence"  # "Merchandiseinventories ... 5,409"


def test_computed_golds_are_not_checked_and_free_text_ones_not_audited() -> None:
    assert audit_question(question("03471")).outcome == "computed"  # a working capital ratio
    entries = audit(gold().values())
    assert len(entries) == 12 and all(e.id != "financebench_id_01319" for e in entries)


def test_the_justification_names_the_line_item() -> None:
    assert justification_line_item(question("04417").justification) == "Merchandise inventories"
