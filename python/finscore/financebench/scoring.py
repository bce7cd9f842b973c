"""Each FinanceBench answer on both axes: correct (against the gold) and supported (by the evidence).

Correctness is decided only where a deterministic check can decide it: a metrics-generated question
whose gold is one number (`financebench-answer/1`, financebench.correctness). A domain-relevant or
novel-generated question's gold is free text: its correctness is `not_scored`, and only its numeric
claim's support is checked. Support is checked for every answer with a claim, against the gold's
evidence pages (financebench.support); the best page is reported (supported first, then a number
found). The decision beside a human label is `correct`, `incorrect` or `no_claim`.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

from finscore.financebench.audit import justification_line_item
from finscore.financebench.claims import NO_CLAIM, Claim, NoClaim, read_claim
from finscore.financebench.correctness import decide_claim
from finscore.financebench.gold import GoldQuestion, question_scale
from finscore.financebench.results import Answer
from finscore.financebench.support import NUMBER_NOT_IN_PASSAGE, Support, check
from finscore.scoring.reasons import CORRECT as CORRECT  # the decision word is the vocabulary's
from finscore.scoring.reasons import MISSING_PREDICTION, NOT_SCORED, UNPARSEABLE

INCORRECT = "incorrect"
NO_CLAIM_DECISION = NO_CLAIM  # the decision of an answer without a claim is named by the claim reader's word
DECISIONS = (CORRECT, INCORRECT, NO_CLAIM_DECISION)


class Scored(NamedTuple):
    """One answer: its question, decision (or None when not scored), reason, claim and support."""

    question: GoldQuestion
    answer: Answer | None
    decision: str | None
    reason: str
    claim: Claim | NoClaim | None
    support: Support | None
    evidence_index: int | None

    def as_json(self) -> dict[str, Any]:
        claim = self.claim
        support = self.support
        return {
            "id": self.question.id, "question_type": self.question.question_type,
            "gold": self.question.answer, "label": self.answer.label if self.answer else None,
            "decision": self.decision, "reason": self.reason,
            "claim": None if claim is None else {"no_claim": claim.reason} if isinstance(claim, NoClaim) else {
                "value": str(claim.value), "unit": claim.unit, "scale": claim.scale,
                "period": claim.period.label() if claim.period else None, "entity": claim.entity,
                "line_item": claim.line_item, "several": claim.several},
            "support": None if support is None else {
                "supported": support.supported, "document": support.document, "page": support.page,
                "number": support.number, "row": support.row, "period": support.period,
                "evidence": self.evidence_index,
                "passage_number": None if support.located is None else str(support.located.number.value),
                "row_label": None if support.located is None else support.located.row},
        }


def claim_scale(claim: Claim, question: GoldQuestion) -> int | None:
    """The power of ten a claim's value is in: its scale word, else the one its question asks an amount
    in ("in USD millions"), else None for an amount (read in the evidence page's scale header)."""
    if claim.scale:
        return claim.scale
    if claim.unit != "USD":
        return 0
    return question_scale(question.question) or None


def support_of(claim: Claim, question: GoldQuestion, answer: Answer | None) -> tuple[Support | None, int | None]:
    """The best support of the claim over the question's evidence pages (supported, then a number found)."""
    best: tuple[int, Support, int] | None = None
    named = justification_line_item(question.justification)
    for index, evidence in enumerate(question.evidence):
        result = check(claim, evidence, claim_scale(claim, question), claim.line_item,
                       citation=answer.citation if answer else None)
        if named and result.located is not None and result.row != "row_matches":
            alternative = check(claim, evidence, claim_scale(claim, question), named,
                                citation=answer.citation if answer else None)
            if alternative.row == "row_matches":
                result = alternative
        rank = 0 if result.supported else 1 if result.number != NUMBER_NOT_IN_PASSAGE else 2
        if best is None or rank < best[0]:
            best = (rank, result, index)
    return (best[1], best[2]) if best else (None, None)


def score_answer(question: GoldQuestion, answer: Answer | None) -> Scored:
    """Both axes of one answer (None: no answer for this question)."""
    if answer is None:
        return Scored(question, None, INCORRECT, MISSING_PREDICTION, None, None, None)
    claim = read_claim(answer.answer)
    support, index = support_of(claim, question, answer) if isinstance(claim, Claim) else (None, None)
    gold = question.number
    if gold is None:
        return Scored(question, answer, None, NOT_SCORED, claim, support, index)
    decided = decide_claim(claim, gold)
    decision = CORRECT if decided.correct else NO_CLAIM_DECISION if isinstance(claim, NoClaim) else INCORRECT
    return Scored(question, answer, decision, decided.reason, claim, support, index)


def score(gold: Mapping[str, GoldQuestion], answers: Sequence[Answer]) -> list[Scored]:
    """Every gold question, in gold order, with its answer or missing; an answer to no gold question refused."""
    from finscore.financebench.gold import FinancebenchInputError

    by_id = {answer.id: answer for answer in answers}
    unknown = [identifier for identifier in by_id if identifier not in gold]
    if unknown:
        raise FinancebenchInputError(f"{len(unknown)} answer id(s) not in the gold file: "
                                     + ", ".join(repr(u) for u in unknown[:10]))
    return [score_answer(question, by_id.get(identifier)) for identifier, question in gold.items()]


def decide(prediction: Any, gold: Any) -> tuple[bool, str]:
    """The registry's decide (generic reward source): an answer (text, or an answers-file record) against a
    gold question (a GoldQuestion, a gold-file record with "answer" and "question", or that record's JSON
    text, or the JSON text of its answer alone: then no question scale). Correctness only: support needs
    the evidence, which `finscore financebench` reads from the gold file."""
    from finscore.financebench.gold import gold_questions

    text = prediction.answer if isinstance(prediction, Answer) else prediction.get("model_answer") \
        if isinstance(prediction, dict) else prediction
    if not isinstance(text, str):
        return False, UNPARSEABLE
    if isinstance(gold, str):  # a reward row's gold: the JSON of a gold-file record, or of its answer alone
        from finscore.inputs.reading import CPYTHON_UNIQUE_KEYS_SYNTAX, loads

        try:
            gold = loads(gold, CPYTHON_UNIQUE_KEYS_SYNTAX)
        except ValueError:
            return False, NOT_SCORED  # a gold it cannot read is not scored; the other rows are
        if isinstance(gold, str):
            gold = {"answer": gold, "question": ""}
    question = gold if isinstance(gold, GoldQuestion) else None
    if question is None and isinstance(gold, dict):
        record = {"financebench_id": "gold", "company": "", "doc_name": "", "question_type": "metrics-generated",
                  "evidence": [], **gold}
        # the record's own financebench_id, when it has one, names the one question read
        question = next(iter(gold_questions([(1, record)]).values()), None) \
            if isinstance(record.get("financebench_id"), str) else None
    if question is None or question.number is None:
        return False, NOT_SCORED
    result = decide_claim(read_claim(text), question.number)
    return result.correct, result.reason
