"""Every prediction entry is accounted for, whatever mix of bad entries a file has.

Written to kill mutants that survived scripts/mutation (tests/README.md). Expected
outcomes follow the documented rules, worked by hand on each small file: an id
predicted more than once with different predictions keeps none of its copies and
reports each; a malformed copy is reported as malformed; messages list ten entries
and say how many more there are; progress of the equivalence stage is reported
every 50 predictions and at the end.
"""

from __future__ import annotations

import pytest

from finscore.finqa.inputs import FinqaInputError
from finscore.finqa.scoring import score_predictions

from .fixtures import example, gold_file, good_predictions, prediction


def test_a_malformed_copy_before_two_conflicting_copies_loses_no_entry() -> None:
    predictions = [
        {"id": "A", "predicted": "subtract( 100 80 )"},  # 0: malformed (not a token list)
        prediction("A", "subtract(", "100", "80", ")"),  # 1: conflicts with 2
        prediction("A", "add(", "10", "10", ")"),  # 2: conflicts with 1
        *good_predictions()[1:],  # 3, 4: B and C
    ]
    report = score_predictions(predictions, gold_file(), exclude_bad_ids=True)
    assert [(e.position, e.kind) for e in report.exclusions] == [
        (0, "malformed_entry"), (1, "duplicate_id"), (2, "duplicate_id")]
    # each conflicting copy names the other copies of its id, malformed one included
    assert [e.detail.split(" (")[0] for e in report.exclusions[1:]] == ["conflicts with entries 0, 2",
                                                                       "conflicts with entries 0, 1"]
    assert report.excluded_ids == ("A",) and report.scored_predictions == 2
    assert [row.execution_correct for row in report.examples] == [False, True, True]


@pytest.mark.parametrize(("count", "noun", "more"), [(1, "1 malformed entry: ", None), (10, "10 malformed entries: ", None),
                                                     (11, "11 malformed entries: ", "... and 1 more")])
def test_the_message_lists_ten_malformed_entries_and_counts_the_rest(count: int, noun: str, more: str | None) -> None:
    predictions = [{"id": "A", "predicted": None} for _ in range(count)] + good_predictions()[1:]
    with pytest.raises(FinqaInputError) as raised:
        score_predictions(predictions, gold_file())
    line = next(line for line in str(raised.value).splitlines() if "malformed" in line)
    assert noun in line
    assert line.count("entry ") == min(count, 10)  # each listed as "entry N (id ...)"
    assert (more in line) if more else ("more" not in line)


def test_equivalence_progress_every_50_predictions_and_at_the_end() -> None:
    gold = [example(f"E{n}", "add(1, 2)", 3.0) for n in range(120)]
    predictions = [prediction(f"E{n}", "add(", "1", "2", ")") for n in range(120)]
    calls: list[tuple[str, int, int]] = []
    score_predictions(predictions, gold, progress=lambda *call: calls.append(call))
    assert [(done, total) for stage, done, total in calls if stage == "equivalence"] == [(50, 120), (100, 120),
                                                                                          (120, 120)]
