"""What `tatqa_eval.py` computes and prints for a whole file, reproduced exactly.

It walks the gold questions in file order, takes each prediction from the
dict `json.load` made (a missing uid scores 0, an unknown uid is never looked
at, a repeated uid has its last value; a uid that two gold questions share is
scored for each), adds each question's EM, F1 and scale
point to running float sums, divides by the number of questions, and prints
those with two decimals followed by three pandas pivot tables. When the
official code would raise on some entry, there are no official figures: the
run names the uid and the exception instead.
"""

# No `from __future__ import annotations`: Totals is made at every run's start-up, and a
# NamedTuple's annotations given as text each cost a compile() when its class is made.

from typing import Any, Callable, Iterable, NamedTuple

from finscore.tatqa.inputs import GoldQuestion
from finscore.tatqa.metric import Decision, decide
from finscore.tatqa.numbers import OfficialCrash
from finscore.tatqa.pivots import Pivots, pivot, render


class Totals(NamedTuple):
    """get_overall_metric: the sums of EM, F1 and scale points over `rows` questions, divided."""

    rows: int
    em: float
    f1: float
    scale: float


def overall(decisions: Iterable[Decision]) -> Totals:
    """The official totals of decisions taken in order (sums of floats, left to right)."""
    em_sum = f1_sum = 0.0
    scale_sum = 0
    count = 0
    for decision in decisions:
        em_sum += decision.em
        f1_sum += decision.f1
        scale_sum += decision.scale_match
        count += 1
    if not count:
        return Totals(0, 0.0, 0.0, 0.0)
    return Totals(count, em_sum / count, f1_sum / count, float(scale_sum) / count)


class OfficialRun:
    """The official walk: totals and pivots (None when the official script would stop), the
    decisions by gold uid (a repeated uid: its last question's), the decisions in gold order
    (`ordered`, one per question walked), and (uid, exception) where it would stop."""

    __slots__ = ("totals", "pivots", "decisions", "ordered", "stop")

    def __init__(self, totals: Totals | None, pivots: Pivots | None, decisions: dict[str, Decision],
                 stop: tuple[str, str] | None, ordered: list[Decision] | None = None) -> None:
        self.totals = totals
        self.pivots = pivots
        self.decisions = decisions
        self.ordered = list(decisions.values()) if ordered is None else ordered
        self.stop = stop


def unpack(value: Any) -> tuple[Any, Any]:
    """`answer, scale = value` as Python unpacks it (a 2-item list, 2-character text, 2-key object)."""
    if isinstance(value, (list, str, dict)):
        if len(value) == 2:
            first, second = list(value)  # a dict gives its keys, as unpacking one does
            return first, second
        raise OfficialCrash(f"ValueError: cannot unpack {len(value)} values into (answer, scale)")
    raise OfficialCrash(f"TypeError: cannot unpack a {type(value).__name__} into (answer, scale)")


#: progress(stage, done, total)
Progress = Callable[[str, int, int], None]
PROGRESS_EVERY = 200


def run_official(gold: list[GoldQuestion], predictions: dict[str, Any],
                 progress: Progress | None = None) -> OfficialRun:
    """The official walk over `gold` with the prediction dict json.load gives."""
    decisions: dict[str, Decision] = {}
    ordered: list[Decision] = []
    total = len(gold)
    for done, question in enumerate(gold, start=1):
        try:
            if question.uid in predictions:
                value = predictions[question.uid]
                answer, scale = value if type(value) is list and len(value) == 2 else unpack(value)
            else:
                answer, scale = None, None
            decision = decide(question.record, answer, scale, question.gold_strings)
        except OfficialCrash as crash:
            return OfficialRun(None, None, decisions, (question.uid, str(crash)), ordered)
        decisions[question.uid] = decision
        ordered.append(decision)
        if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
            progress("official", done, total)
    totals = overall(ordered)
    pivots = pivot((q.answer_type, q.answer_from, d.em, d.f1) for q, d in zip(gold, ordered))
    return OfficialRun(totals, pivots, decisions, None, ordered)


def official_text(totals: Totals, pivots: Pivots) -> str:
    """The lines tatqa_eval.py prints, character for character."""
    em, f1 = totals.em * 100, totals.f1 * 100
    return "\n".join([
        "----",
        f"Exact-match accuracy {em:.2f}",
        f"F1 score {f1:.2f}",
        f"Scale score {totals.scale * 100:.2f}",
        f"{em:.2f}   &   {f1:.2f}",
        "----",
        "---- raw detail ---",
        render(pivots, "em", pivots.counts),
        "---- em detail ---",
        render(pivots, "em", pivots.em),
        "---- f1 detail ---",
        render(pivots, "f1", pivots.f1),
    ])
