"""The terminal report of `finscore tatqa`: the official printout first, then the honest account.

The first block is what tatqa_eval.py prints, character for character, so a
reader can compare it with published work; everything after it says what was
counted and why each question missed.
"""

from __future__ import annotations

import json
from typing import Any

from finscore.scoring.reasons import LISTED_IDS
from finscore.tatqa.official import Totals, official_text
from finscore.tatqa.reasons import CORRECT, REASON_DESCRIPTIONS
from finscore.tatqa.report import QuestionResult, TatqaReport

#: Longest question or answer text shown for a failing question.
SHOWN_CHARS = 160


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def _uids(uids: tuple[str, ...]) -> str:
    shown = ", ".join(uids[:LISTED_IDS])
    return shown + (f", ... ({len(uids) - LISTED_IDS} more in --json)" if len(uids) > LISTED_IDS else "")


def _figures(name: str, totals: Totals) -> list[str]:
    return [
        f"{name} (denominator = {totals.rows}):",
        f"  exact match  {totals.em!r}  ({totals.em * 100:.2f}%)",
        f"  F1           {totals.f1!r}  ({totals.f1 * 100:.2f}%)",
        f"  scale        {totals.scale!r}  ({totals.scale * 100:.2f}%)",
    ]


def _official(report: TatqaReport) -> list[str]:
    if report.official is None or report.official_pivots is None:
        uid, exception = report.official_stop or ("?", "?")
        return ["Official figures: none. tatqa_eval.py would stop with an exception at uid "
                f"{uid}: {exception}"]
    note = (f"; on the file as its json.load reads it, the {len(report.exclusions)} entries excluded below "
            "included (a repeated uid: its last value)" if report.exclusions else "")
    return [f"Official figures, as tatqa_eval.py prints them (denominator = {report.official.rows} gold "
            f"questions; it scores a missing uid 0 silently and ignores uids not in the gold file{note}):",
            official_text(report.official, report.official_pivots)]


def _uncertainty(report: TatqaReport) -> list[str]:
    """The honest figures' intervals, when the report has them (statistics load only then)."""
    if not report.uncertainty:
        return []
    from finscore.stats.headline import intervals_text

    return intervals_text(report.uncertainty)


def _accounting(report: TatqaReport) -> list[str]:
    lines = ["", *_figures("Honest figures over every gold question; missing and excluded predictions score 0",
                           report.honest),
             *_uncertainty(report),
             *_figures(f"Over the {report.scored_predictions} scored predictions only", report.per_prediction),
             "",
             f"Prediction file: {report.prediction_entries} entries, {report.scored_predictions} scored, "
             f"{len(report.exclusions)} excluded; gold questions without a prediction: {len(report.missing_uids)}"
             + (f", with only excluded predictions: {len(report.excluded_uids)}" if report.excluded_uids else "")]
    if report.missing_uids:
        lines.append(f"  missing: {_uids(report.missing_uids)}")
    for exclusion in report.exclusions[:LISTED_IDS]:
        lines.append(f"  excluded {exclusion.kind}: {exclusion.describe()}")
    if len(report.exclusions) > LISTED_IDS:
        lines.append(f"  ... {len(report.exclusions) - LISTED_IDS} more exclusions in --json")
    lines += ["", "Gold questions by reason:"]
    width = max(len(name) for name in report.reasons)
    for name, count in report.reasons.items():
        lines.append(f"  {name:<{width}}  {count:>6}  {REASON_DESCRIPTIONS[name]}")
    return lines


def _failing(row: QuestionResult) -> list[str]:
    detail = f" ({row.detail})" if row.detail else ""
    predicted = ("no prediction" if row.position is None and row.predicted_answer is None else
                 f"{_short(row.predicted_answer)} scale {row.predicted_scale!r}")
    return [f"  {row.uid}: {row.reason}{detail}; em {row.em!r}, f1 {row.f1!r}",
            f"    question: {row.question[:SHOWN_CHARS]}",
            f"    gold: {_short(row.gold_answer)} scale {row.gold_scale!r} ({row.answer_type}, {row.answer_from})",
            f"    predicted: {predicted}"]


def render_report(report: TatqaReport, *, examples: int = 10) -> str:
    """The whole terminal report; `examples` failing questions are listed (0 for none)."""
    lines = [f"finscore {report.finscore_version} tatqa: {report.gold_questions} gold questions",
             *[f"Warning: {warning}" for warning in report.gold_warnings], "",
             *_official(report), *_accounting(report)]
    failing = [row for row in report.questions if row.reason != CORRECT]
    if examples > 0 and failing:
        lines += ["", f"First {min(examples, len(failing))} of {len(failing)} failing questions:"]
        for row in failing[:examples]:
            lines += _failing(row)
    return "\n".join(lines)
