"""The gold audit: every numeric gold checked against its own evidence, listed, never corrected.

A metrics-generated question's gold (`answer`, "$8.70") is read as a claim in the scale its question
asks for ("in USD billions"), with the line item its justification names ("The line item name, as
seen in the 10K, was: ...") and the period its question names (FY2018), and looked for in each of its
evidence pages by the support checks (financebench.support). The outcome of each gold:

- `in_evidence`: a passage number equals the gold at the precision the gold is written with;
- `in_evidence_coarser`: only at the precision left once its trailing zeros are dropped (the gold
  "$8.70" billion where the page gives 8,738 million, 8.74 at two decimals): a finding;
- `in_evidence_as_magnitude`: the page shows it in parentheses (an outflow) and the gold its size;
- `computed`: a ratio or percent gold is not a figure of the page but computed from it: not checked
  here (its inputs are the page's, its arithmetic the question's);
- `not_in_evidence`: an amount gold that no page number equals: a finding;
- `no_numeric_gold`: the question is metrics-generated but its answer is not one number.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Iterable, NamedTuple

from finscore.financebench.claims import Claim, periods, read_claim
from finscore.financebench.gold import GoldQuestion
from finscore.financebench.support import NUMBER_FOUND, NUMBER_MAGNITUDE, ROW_MISMATCH, Support, check

IN_EVIDENCE = "in_evidence"
IN_EVIDENCE_COARSER = "in_evidence_coarser"
IN_EVIDENCE_AS_MAGNITUDE = "in_evidence_as_magnitude"
COMPUTED = "computed"
NOT_IN_EVIDENCE = "not_in_evidence"
NO_NUMERIC_GOLD = "no_numeric_gold"

AUDIT_OUTCOMES: dict[str, str] = {
    IN_EVIDENCE: "a number of the evidence equals the gold at the precision the gold is written with",
    IN_EVIDENCE_COARSER: "the evidence gives the gold only once the gold's written trailing zeros are dropped",
    IN_EVIDENCE_AS_MAGNITUDE: "the evidence shows the gold amount in parentheses (an outflow), the gold its size",
    COMPUTED: "a ratio or percent computed from the evidence: not a figure of the page, not checked",
    NOT_IN_EVIDENCE: "an amount gold that no number of its evidence equals",
    NO_NUMERIC_GOLD: "a metrics-generated question whose answer is not one number",
}
#: The outcomes that are findings about the gold (listed for a reader to judge).
FINDINGS = (IN_EVIDENCE_COARSER, NOT_IN_EVIDENCE, NO_NUMERIC_GOLD)

_LINE_ITEM_MARK = "the line item name, as seen in the"


class AuditEntry(NamedTuple):
    id: str
    gold: str
    outcome: str
    detail: str
    support: Support | None


def justification_line_item(justification: str) -> str | None:
    """The line item a justification names ("The line item name, as seen in the 10K, was: X."), or None."""
    lowered = justification.lower()
    at = lowered.find(_LINE_ITEM_MARK)
    if at < 0:
        return None
    colon = justification.find(":", at)
    if colon < 0:
        return None
    item = justification[colon + 1:colon + 1 + 200].strip()
    return item.rstrip(".").strip() or None


def _best(claim: Claim, question: GoldQuestion, scale: int) -> Support | None:
    line_item = justification_line_item(question.justification)
    asked = periods(question.question)
    found = None
    for evidence in question.evidence:
        result = check(claim, evidence, scale, line_item, asked[-1] if asked else None)
        if result.row == ROW_MISMATCH:  # an equal number on another row is not the gold's
            continue
        if result.number == NUMBER_FOUND:
            return result
        if result.number == NUMBER_MAGNITUDE and found is None:
            found = result
    return found


def audit_question(question: GoldQuestion) -> AuditEntry:
    """One gold's outcome (module docstring)."""
    gold = question.number
    claim = read_claim(question.answer)
    if gold is None or not isinstance(claim, Claim):
        return AuditEntry(question.id, question.answer, NO_NUMERIC_GOLD, "the answer is not one number", None)
    if gold.unit != "USD" or "calculated using" in question.justification.lower():
        return AuditEntry(question.id, question.answer, COMPUTED,
                          f"{'an amount' if gold.unit == 'USD' else 'a ' + gold.unit} computed from the evidence", None)
    written = _best(claim, question, gold.scale)
    if written is not None and written.number == NUMBER_FOUND:
        return AuditEntry(question.id, question.answer, IN_EVIDENCE, _where(written), written)
    if written is not None:
        return AuditEntry(question.id, question.answer, IN_EVIDENCE_AS_MAGNITUDE, _where(written), written)
    coarser_claim = claim._replace(number=claim.number._replace(decimals=gold.decimals))
    coarser = _best(coarser_claim, question, gold.scale) if gold.decimals < claim.number.decimals else None
    if coarser is not None and coarser.located is not None:
        at_written = abs(coarser.located.units).scaleb(-gold.scale).quantize(Decimal(1).scaleb(-claim.number.decimals),
                                                                             rounding=ROUND_HALF_UP)
        return AuditEntry(question.id, question.answer, IN_EVIDENCE_COARSER,
                          f"the gold is written {question.answer.strip()}; {_where(coarser)}, "
                          f"{at_written} at the gold's written precision", coarser)
    return AuditEntry(question.id, question.answer, NOT_IN_EVIDENCE,
                      f"no number of its {len(question.evidence)} evidence page(s) equals it", None)


def _where(support: Support) -> str:
    located = support.located
    assert located is not None
    row = f" on the row {located.row!r}" if located.row else ""
    year = f" in the {located.year} column" if located.year else ""
    return f"the evidence gives {located.number.value}{row}{year} (row: {support.row}, period: {support.period})"


def audit(questions: Iterable[GoldQuestion]) -> list[AuditEntry]:
    """Every metrics-generated question's audit entry, in gold order."""
    return [audit_question(q) for q in questions if q.question_type == "metrics-generated"]


def audit_json(entries: list[AuditEntry]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.outcome] = counts.get(entry.outcome, 0) + 1
    return {"outcomes": {word: {"count": counts.get(word, 0), "description": text}
                         for word, text in AUDIT_OUTCOMES.items()},
            "entries": [{"id": e.id, "gold": e.gold, "outcome": e.outcome, "detail": e.detail} for e in entries]}
