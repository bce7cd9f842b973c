"""The FinanceBench report: both axes per answer, counts, and the agreement with human labels.

Agreement is counted where finscore decides (metrics-generated questions with a numeric gold) and
the answers file carries the human `label`: finscore's `correct` agrees with "Correct Answer", its
`incorrect` and `no_claim` with "Incorrect Answer" and "Refusal" (the graders' two ways of not
correct). The confusion table keeps all three labels against all three decisions.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.financebench.correctness import PROTOCOL
from finscore.financebench.reasons import REASON_DESCRIPTIONS
from finscore.financebench.results import LABELS
from finscore.financebench.scoring import CORRECT, DECISIONS, Scored
from finscore.financebench.support import SUPPORT_REASONS

#: How many disagreements and misses the text report lists (--json lists every one).
LISTED = 10


def agrees(decision: str, label: str) -> bool:
    """finscore's decision and a human label say the same of correctness."""
    return (decision == CORRECT) == (label == "Correct Answer")


def confusion(scored: Sequence[Scored]) -> dict[str, dict[str, int]]:
    """Human label -> finscore decision -> count, over the decided answers that carry a label."""
    table = {label: {decision: 0 for decision in DECISIONS} for label in LABELS}
    for item in scored:
        label = item.answer.label if item.answer else None
        if item.decision is not None and label in table:
            table[label][item.decision] += 1
    return table


def agreement(scored: Sequence[Scored]) -> dict[str, Any]:
    """Agreement figures and every disagreement, over the decided, labelled answers."""
    pairs = [s for s in scored if s.decision is not None and s.answer is not None and s.answer.label in LABELS]
    agreeing = sum(agrees(str(s.decision), str(s.answer.label)) for s in pairs if s.answer is not None)
    return {
        "decided_with_label": len(pairs), "agree": agreeing,
        "rate": agreeing / len(pairs) if pairs else None,
        "confusion": confusion(scored),
        "disagreements": [{"id": s.question.id, "question": s.question.question, "answer": s.answer.answer,
                           "gold": s.question.answer, "label": s.answer.label, "decision": s.decision,
                           "reason": s.reason}
                          for s in pairs if s.answer is not None and not agrees(str(s.decision), str(s.answer.label))],
    }


def report_json(scored: Sequence[Scored]) -> dict[str, Any]:
    """The whole report, as --json writes it."""
    decided = [s for s in scored if s.decision is not None]
    reasons: dict[str, int] = {}
    support: dict[str, int] = {}
    for s in scored:
        reasons[s.reason] = reasons.get(s.reason, 0) + 1
        if s.support is not None:
            for word in (s.support.number, s.support.row, s.support.period):
                support[word] = support.get(word, 0) + 1
    correct = sum(s.decision == CORRECT for s in decided)
    supported = sum(1 for s in scored if s.support is not None and s.support.supported)
    return {
        "benchmark": "financebench", "protocol": PROTOCOL,
        "questions": len(scored), "decided": len(decided), "correct": correct,
        "accuracy": correct / len(decided) if decided else None,
        "with_claim_support_checked": sum(s.support is not None for s in scored), "supported": supported,
        "both_axes": {f"{'correct' if c else 'not correct'}, {'supported' if p else 'not supported'}": sum(
            1 for s in decided if (s.decision == CORRECT) == c and (s.support is not None and s.support.supported) == p)
            for c in (True, False) for p in (True, False)},
        "reasons": {word: {"count": count, "description": REASON_DESCRIPTIONS.get(word, "")}
                    for word, count in reasons.items()},
        "support_reasons": {word: {"count": count, "description": SUPPORT_REASONS[word]}
                            for word, count in support.items()},
        "agreement": agreement(scored),
        "answers": [s.as_json() for s in scored],
    }


def render_text(document: dict[str, Any]) -> str:
    """The report as the terminal shows it."""
    accuracy = "n/a" if document["accuracy"] is None else f"{document['accuracy']:.4f}"
    lines = [f"FinanceBench ({document['protocol']})",
             f"correct: {accuracy} ({document['correct']}/{document['decided']} metrics-generated questions "
             f"with a numeric gold; {document['questions'] - document['decided']} free-text golds not scored)",
             f"supported by the evidence: {document['supported']}/{document['with_claim_support_checked']} "
             f"answers with a claim",
             "both axes: " + ", ".join(f"{k}: {v}" for k, v in document["both_axes"].items()),
             "reasons:"]
    lines.extend(f"  {word}: {value['count']}" + (f"  {value['description']}" if value["description"] else "")
                 for word, value in document["reasons"].items())
    lines.append("support:")
    lines.extend(f"  {word}: {value['count']}  {value['description']}"
                 for word, value in document["support_reasons"].items())
    agreement_part = document["agreement"]
    if agreement_part["decided_with_label"]:
        lines.append(f"agreement with the human labels: {agreement_part['agree']}/"
                     f"{agreement_part['decided_with_label']} ({agreement_part['rate']:.4f})")
        for item in agreement_part["disagreements"][:LISTED]:
            lines.append(f"  {item['id']}: label {item['label']!r}, finscore {item['decision']} ({item['reason']})")
        if len(agreement_part["disagreements"]) > LISTED:
            lines.append(f"  ... and {len(agreement_part['disagreements']) - LISTED} more (--json lists every one)")
    return "\n".join(lines) + "\n"
