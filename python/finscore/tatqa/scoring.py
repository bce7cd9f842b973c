"""Score a TAT-QA prediction file: the official figures exactly, the honest ones beside them.

`score_predictions` takes decoded JSON (no paths, no printing), so the command
line and the playground run the same code. The official walk gives the
official figures and pivots; the join gives the honest ones, over every gold
question, with a typed reason for each miss.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from finscore import __version__
from finscore.tatqa import reasons
from finscore.tatqa.inputs import Entry, GoldQuestion, gold_warnings, read_entries, read_gold
from finscore.scoring.exclusions import EXCLUDED
from finscore.tatqa.joining import join
from finscore.tatqa.metric import Decision, decide
from finscore.tatqa.numbers import OfficialCrash
from finscore.tatqa.official import Progress, overall, run_official
from finscore.tatqa.report import QuestionResult, TatqaReport

_NOTHING = Decision(0.0, 0.0, 0, (), (), True)
REASONS_PROGRESS_EVERY = 200


def _scored(question: GoldQuestion, entry: Entry, official: Decision | None,
            official_value: Any) -> tuple[Decision, QuestionResult]:
    answer, scale = entry.value
    try:
        decision = official if official is not None and official_value == entry.value else decide(
            question.record, answer, scale, question.gold_strings)
    except OfficialCrash as crash:
        return _NOTHING, _unscored(question, reasons.UNREADABLE_PREDICTION, str(crash), entry)
    why = reasons.explain(question.record, answer, scale, decision)
    return decision, QuestionResult(
        question.uid, question.question, question.answer_type, question.answer_from, question.answer,
        question.scale, why.kind, why.detail, decision.em, decision.f1, decision.scale_match,
        entry.position, answer, scale)


def _unscored(question: GoldQuestion, kind: str, detail: str, entry: Entry | None = None) -> QuestionResult:
    value = entry.value if entry is not None and isinstance(entry.value, list) and len(entry.value) == 2 else [None, None]
    return QuestionResult(question.uid, question.question, question.answer_type, question.answer_from,
                          question.answer, question.scale, kind, detail,
                          position=None if entry is None else entry.position,
                          predicted_answer=value[0], predicted_scale=value[1])


def score_predictions(predictions: Any, pairs: list[tuple[str, Any]] | None, gold: Any, *,
                      exclude_bad_ids: bool = False, progress: Progress | None = None) -> TatqaReport:
    """Score decoded predictions (`pairs`: every top-level pair in file order, see files.decode_predictions).

    Raises TatqaInputError (PredictionsRejected for bad entries unless `exclude_bad_ids`) with a readable
    message; never loses or double-counts a question.
    """
    questions = read_gold(gold)
    joined = join(read_entries(predictions, pairs), questions, exclude_bad=exclude_bad_ids)
    official = run_official(questions, predictions, progress)
    # Keyed by the question object: a uid that two gold questions share is two questions.
    position = {id(question): index for index, question in enumerate(questions)}
    decisions: dict[int, Decision] = {}
    results: dict[int, QuestionResult] = {}
    total = len(joined.pairs)
    official_kept = 0  # scored predictions whose decision is the official walk's own
    for done, (question, entry) in enumerate(joined.pairs, start=1):
        index = position[id(question)]
        official_decision = official.ordered[index] if index < len(official.ordered) else None
        decision, results[index] = _scored(question, entry, official_decision, predictions.get(question.uid))
        decisions[index] = decision
        official_kept += decision is official_decision
        if progress is not None and (done % REASONS_PROGRESS_EVERY == 0 or done == total):
            progress("reasons", done, total)
    for question, why in joined.unscored:
        index = position[id(question)]
        if why == EXCLUDED:
            results[index] = _unscored(question, reasons.EXCLUDED_PREDICTION, "every entry for it was excluded")
        else:
            results[index] = _unscored(question, reasons.MISSING_PREDICTION, "no entry in the prediction file")
    rows = tuple(results[index] for index in range(len(questions)))
    if official.totals is not None and official_kept == len(questions):
        # every gold question was scored with the official decision itself: the same sums, in the same order
        honest = per_prediction = official.totals
    else:
        honest = overall(decisions.get(index, _NOTHING) for index in range(len(questions)))
        per_prediction = overall(decisions[position[id(q)]] for q, _ in joined.pairs)
    counts = Counter(row.reason for row in rows)
    return TatqaReport(
        finscore_version=__version__,
        gold_questions=len(questions),
        prediction_entries=joined.entries,
        scored_predictions=len(joined.pairs),
        official=official.totals,
        official_pivots=official.pivots,
        official_stop=official.stop,
        honest=honest,
        per_prediction=per_prediction,
        exclusions=joined.exclusions,
        missing_uids=tuple(q.uid for q, why in joined.unscored if why != EXCLUDED),
        excluded_uids=tuple(q.uid for q, why in joined.unscored if why == EXCLUDED),
        reasons={name: counts[name] for name in reasons.REASON_DESCRIPTIONS if counts[name]},
        questions=rows,
        gold_warnings=gold_warnings(questions),
    )
