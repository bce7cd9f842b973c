"""The result of scoring a TAT-QA prediction file, and its JSON form.

Plain data: `scoring` builds it, `terminal` prints it, `to_json` writes it all.
Every gold question has exactly one row, and every figure says what it was
divided by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finscore.tatqa.joining import Exclusion
from finscore.tatqa.official import Totals
from finscore.tatqa.pivots import Pivots

if TYPE_CHECKING:  # the statistics load only when intervals are computed
    from finscore.stats.headline import HeadlineInterval

REPORT_FORMAT = "finscore-tatqa-report/1"


class QuestionResult:
    """One gold question: its prediction (if any; `position` is the entry's index in the prediction
    file), the official decision on it, and why it missed."""

    __slots__ = ("uid", "question", "answer_type", "answer_from", "gold_answer", "gold_scale", "reason", "detail",
                 "em", "f1", "scale_match", "position", "predicted_answer", "predicted_scale")

    def __init__(self, uid: str, question: str, answer_type: str | None, answer_from: str | None, gold_answer: Any,
                 gold_scale: str, reason: str, detail: str, em: float = 0.0, f1: float = 0.0, scale_match: int = 0,
                 position: int | None = None, predicted_answer: Any = None, predicted_scale: Any = None) -> None:
        self.uid = uid
        self.question = question
        self.answer_type = answer_type
        self.answer_from = answer_from
        self.gold_answer = gold_answer
        self.gold_scale = gold_scale
        self.reason = reason
        self.detail = detail
        self.em = em
        self.f1 = f1
        self.scale_match = scale_match
        self.position = position
        self.predicted_answer = predicted_answer
        self.predicted_scale = predicted_scale

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


class TatqaReport:
    """A scored file. `official` and `official_pivots` are None when the official script would stop
    (`official_stop`: uid, exception); `honest` is over every gold question, `per_prediction` over
    the scored predictions only; `questions` in gold order; `gold_warnings` what the gold file
    holds that the official script scores without a word (repeated uids, unknown labels)."""

    __slots__ = ("finscore_version", "gold_questions", "prediction_entries", "scored_predictions", "official",
                 "official_pivots", "official_stop", "honest", "per_prediction", "exclusions", "missing_uids",
                 "excluded_uids", "reasons", "questions", "gold_warnings", "uncertainty")

    def __init__(self, *, finscore_version: str, gold_questions: int, prediction_entries: int,
                 scored_predictions: int, official: Totals | None, official_pivots: Pivots | None,
                 official_stop: tuple[str, str] | None, honest: Totals, per_prediction: Totals,
                 exclusions: tuple[Exclusion, ...], missing_uids: tuple[str, ...], excluded_uids: tuple[str, ...],
                 reasons: dict[str, int], questions: tuple[QuestionResult, ...],
                 gold_warnings: tuple[str, ...] = ()) -> None:
        self.finscore_version = finscore_version
        self.gold_questions = gold_questions
        self.prediction_entries = prediction_entries  # top-level pairs of the prediction file, usable or not
        self.scored_predictions = scored_predictions
        self.official = official
        self.official_pivots = official_pivots
        self.official_stop = official_stop
        self.honest = honest
        self.per_prediction = per_prediction
        self.exclusions = exclusions
        self.missing_uids = missing_uids
        self.excluded_uids = excluded_uids
        self.reasons = reasons
        self.questions = questions
        self.gold_warnings = gold_warnings  # what the gold file holds that tatqa_eval.py scores silently
        #: the honest figures' intervals (finscore.stats), when the command or caller asked for them
        self.uncertainty: tuple[HeadlineInterval, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The whole report; "gold_warnings" and "uncertainty" only when there are any."""
        report = {
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
        if self.gold_warnings:
            report["gold_warnings"] = list(self.gold_warnings)
        if self.uncertainty:
            report["uncertainty"] = [interval.to_json() for interval in self.uncertainty]
        return report
