"""The result of scoring a TAT-QA prediction file, and its JSON form.

Plain data: `scoring` builds it, `terminal` prints it, `to_json` writes it all.
Every gold question has exactly one row, and every figure says what it was
divided by.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from finscore.tatqa.joining import Exclusion
from finscore.tatqa.official import Totals
from finscore.tatqa.pivots import Pivots

REPORT_FORMAT = "finscore-tatqa-report/1"


class QuestionResult(NamedTuple):
    """One gold question: its prediction (if any), the official decision on it, and why it missed."""

    uid: str
    question: str
    answer_type: str
    answer_from: str
    gold_answer: Any
    gold_scale: str
    reason: str
    detail: str
    em: float = 0.0
    f1: float = 0.0
    scale_match: int = 0
    position: int | None = None  # the entry's index in the prediction file
    predicted_answer: Any = None
    predicted_scale: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid, "question": self.question, "answer_type": self.answer_type,
            "answer_from": self.answer_from, "gold_answer": self.gold_answer, "gold_scale": self.gold_scale,
            "position": self.position, "predicted_answer": self.predicted_answer,
            "predicted_scale": self.predicted_scale, "em": self.em, "f1": self.f1,
            "scale_match": self.scale_match, "reason": self.reason, "detail": self.detail,
        }


def totals_json(totals: Totals | None) -> dict[str, Any] | None:
    if totals is None:
        return None
    return {"denominator": totals.rows, "em": totals.em, "f1": totals.f1, "scale": totals.scale}


def pivots_json(pivots: Pivots | None) -> list[dict[str, Any]] | None:
    if pivots is None:
        return None
    return [{"answer_type": cell[0], "answer_from": cell[1], "count": count, "em": pivots.em[cell],
             "f1": pivots.f1[cell]} for cell, count in sorted(pivots.counts.items())]


class TatqaReport(NamedTuple):
    finscore_version: str
    gold_questions: int
    prediction_entries: int  # top-level pairs of the prediction file, usable or not
    scored_predictions: int
    official: Totals | None  # None when the official script would stop
    official_pivots: Pivots | None
    official_stop: tuple[str, str] | None  # (uid, exception)
    honest: Totals  # over every gold question
    per_prediction: Totals  # over the scored predictions only
    exclusions: tuple[Exclusion, ...]
    missing_uids: tuple[str, ...]
    excluded_uids: tuple[str, ...]
    reasons: dict[str, int]
    questions: tuple[QuestionResult, ...]  # gold order

    def to_json(self) -> dict[str, Any]:
        return {
            "format": REPORT_FORMAT,
            "finscore_version": self.finscore_version,
            "counts": {
                "gold_questions": self.gold_questions,
                "prediction_entries": self.prediction_entries,
                "scored_predictions": self.scored_predictions,
                "excluded_entries": len(self.exclusions),
                "missing_predictions": len(self.missing_uids),
                "excluded_predictions": len(self.excluded_uids),
            },
            "official": totals_json(self.official),
            "official_pivots": pivots_json(self.official_pivots),
            "official_stop": None if self.official_stop is None else {
                "uid": self.official_stop[0], "exception": self.official_stop[1]},
            "honest": totals_json(self.honest),
            "per_prediction": totals_json(self.per_prediction),
            "exclusions": [{"position": e.position, "uid": e.uid, "kind": e.kind, "detail": e.detail}
                           for e in self.exclusions],
            "missing_uids": list(self.missing_uids),
            "excluded_uids": list(self.excluded_uids),
            "reasons": dict(self.reasons),
            "questions": [q.to_json() for q in self.questions],
        }
