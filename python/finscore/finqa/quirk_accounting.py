"""How often each official quirk was used, and how often it decided an outcome.

A quirk "decides" a prediction when the official profile executes it to the
gold answer and the strict profile refuses it: without the official
evaluator's tolerance the prediction would have failed. Counting these tells a
reader how much of a published figure rests on the evaluator's quirks.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from finscore.engine.explanation import Execution
from finscore.finqa.report import QuirkCount


def count_quirks(outcomes: Iterable[tuple[Execution, bool, Execution]]) -> tuple[QuirkCount, ...]:
    """Counts from (official execution, official correct, strict execution) per prediction."""
    relied_on: Counter[str] = Counter()
    decided: Counter[str] = Counter()
    for official, official_correct, strict in outcomes:
        relied_on.update({quirk.status.label for quirk in official.quirks})
        if official_correct and strict.invalid:
            decided[strict.status.label] += 1
    statuses = sorted(set(relied_on) | set(decided), key=lambda s: (-decided[s], -relied_on[s], s))
    return tuple(QuirkCount(status, relied_on[status], decided[status]) for status in statuses)
