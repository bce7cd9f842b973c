"""financebench-answer/1: every reason on authored answers (hand arithmetic in each case), and agreement
with the human graders' labels on the excerpt's real answers."""

from __future__ import annotations

from decimal import Decimal

import pytest

from finscore.financebench.correctness import CORRECT_REASONS, MISS_REASONS, decide_answer
from finscore.financebench.gold import GoldNumber, numeric_gold
from finscore.financebench.results import answers_from
from finscore.financebench.scoring import CORRECT, score

from .excerpt import answer_records, gold, question

MILLIONS = GoldNumber(Decimal("1577.00"), "USD", 6, 0)  # "$1577.00" asked in USD millions: 1577 ± 0.5
BILLIONS = GoldNumber(Decimal("8.70"), "USD", 9, 1)  # "$8.70" in USD billions: 8.7 ± 0.05
RATIO = GoldNumber(Decimal("0.66"), "ratio", 0, 2)  # 0.66 ± 0.005
PERCENT = GoldNumber(Decimal("65.4"), "percent", 0, 1)  # 65.4% ± 0.05


@pytest.mark.parametrize(("text", "gold", "correct", "reason"), [
    ("Therefore capex is $1,577 million.", MILLIONS, True, "exact"),
    ("So it is $1.577 billion.", MILLIONS, True, "exact"),  # 1.577e9 = 1577e6
    ("Therefore PP&E is $8,738 million.", BILLIONS, True, "within_tolerance"),  # 8.738 - 8.7 = 0.038 < 0.05
    ("Thus the ratio is 0.6565.", RATIO, True, "within_tolerance"),  # 0.66 - 0.6565 = 0.0035 < 0.005
    ("Thus the ROA is 66%.", RATIO, True, "percent_declared"),  # 66 / 100 = 0.66
    ("So capex was $(1,577) million.", MILLIONS, True, "parenthesized_amount"),  # |-1577| = 1577
    ("So capex was $1,577,000,000.", MILLIONS, True, "scale_unstated"),  # 1,577,000,000 / 10^6 = 1577
    ("So capex was $1,577,000.", MILLIONS, True, "scale_unstated"),  # in thousands: 1,577,000 / 10^3 = 1577
    ("The change is 65.3%.", PERCENT, True, "within_tolerance"),  # 0.1 / 65.4 = 0.15% <= 0.2%
    ("Therefore the ratio is -0.66.", RATIO, False, "sign_flipped"),
    ("So capex was $1,577 billion.", MILLIONS, False, "scale_off"),  # 1577e9 = 1577e6 * 1000
    ("So the ratio is 0.654.", PERCENT, False, "percent_vs_ratio"),  # 0.654 * 100 = 65.4
    ("So the ratio is 0.7.", RATIO, False, "rounding"),  # one decimal shown; 0.66 rounds to 0.7
    ("The change is 65.2%.", PERCENT, False, "wrong_value"),  # 0.2 / 65.4 = 0.31% > 0.2%, > 0.05
    ("The CAGR is 0.45%.", GoldNumber(Decimal("0.4"), "percent", 0, 1), False, "wrong_value"),  # half a unit: no
    ("So the ratio is between 0.65 and 0.67.", RATIO, False, "several_numbers"),
    ("I cannot find the balance sheet.", RATIO, False, "refusal"),
    ("It depends on the filing.", RATIO, False, "no_claim"),
])
def test_every_reason(text: str, gold: GoldNumber, correct: bool, reason: str) -> None:
    decided = decide_answer(text, gold)
    assert (decided.correct, decided.reason) == (correct, reason)


def test_every_declared_reason_has_an_authored_case() -> None:
    authored = {"exact", "within_tolerance", "percent_declared", "parenthesized_amount", "scale_unstated",
                "sign_flipped", "scale_off", "percent_vs_ratio", "rounding", "wrong_value", "several_numbers"}
    assert set(CORRECT_REASONS) | set(MISS_REASONS) == authored


def test_numeric_gold_reads_the_answer_and_the_question_scale() -> None:
    # "$8.70" asked "in USD billions"; "1.9%"; "-0.02"; a free-text answer has none
    assert question("04672").number == GoldNumber(Decimal("8.70"), "USD", 9, 1)
    assert question("03718").number == GoldNumber(Decimal("0.4"), "percent", 0, 1)
    assert question("10420").number == GoldNumber(Decimal("-0.02"), "ratio", 0, 2)
    assert question("01319").number is None
    assert numeric_gold(question("04672")._replace(answer="$8.70 or $8.74")) is None


#: The kinds of disagreement benchmarks/financebench.md defends in writing: (finscore's reason, the label).
DEFENDED = {("wrong_value", "Correct Answer"), ("percent_declared", "Incorrect Answer"),
            ("within_tolerance", "Incorrect Answer")}


def test_agreement_with_the_human_labels_on_the_excerpt() -> None:
    """Against the graders' own labels on the excerpt's real answers. The excerpt was chosen for its hard
    cases (5 of its 12 metrics questions hold the whole dataset's disagreements), so its rate is below the
    dataset's (98.5%, benchmarks/financebench.md); every disagreement is of a kind defended there."""
    questions = gold()
    pairs = []
    for name in sorted({r["results_file"] for r in answer_records()}):
        answers = answers_from([(n, r) for n, r in enumerate(answer_records(), 1) if r["results_file"] == name])
        pairs += [(s.question.id, s.decision, s.reason, s.answer.label) for s in score(questions, answers)
                  if s.decision is not None and s.answer is not None]
    assert len(pairs) == 12 * 16  # 12 metrics-generated questions answered in 16 results files
    disagreeing = [p for p in pairs if (p[1] == CORRECT) != (p[3] == "Correct Answer")]
    assert {(reason, label) for _, _, reason, label in disagreeing} <= DEFENDED
    assert len(pairs) - len(disagreeing) >= 0.9 * len(pairs)
    # the questions outside the hard five agree on every answer
    hard = {f"financebench_id_{short}" for short in ("03849", "04080", "03718", "06247", "10420")}
    assert {p[0] for p in disagreeing} <= hard
