"""lm_eval's process_results for the finscore tasks: finscore's decision, as 0/1 metrics.

One completion is decided under the document's protocol in the `answer-line` format, or
the format the document names (`answer_format`: the FinanceMath-style task's `phrase`)
(finscore.answers.decide, as `finscore answers` decides it); lm_eval averages each
metric over the documents, so `acc` is the share of passes and `reason_<r>` the share
of decisions whose typed reason is r. Every reason is reported, even at 0, so two runs
always show the same columns.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from finscore.answers import reasons as R
from finscore.answers.decide import decide
from finscore.integrations.lm_eval.prompts import ANSWER_FORMAT

ACCURACY = "acc"
REASON_METRICS: dict[str, str] = {reason: f"reason_{reason}" for reason in R.ALL_REASONS}
METRICS: tuple[str, ...] = (ACCURACY, *REASON_METRICS.values())


def process_results(doc: dict[str, Any], results: Sequence[Any]) -> dict[str, float]:
    """The metrics of one document from its (first) completion; a missing one is missing_prediction."""
    completion = results[0] if results else None
    decision = decide(completion, json.loads(doc["gold"]), doc["protocol"], doc.get("answer_format") or ANSWER_FORMAT)
    metrics = {ACCURACY: float(decision.passed)}
    metrics.update({name: float(decision.reason == reason) for reason, name in REASON_METRICS.items()})
    return metrics
