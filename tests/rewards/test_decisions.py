"""The columns deciders write, read back as the records callers get.

`DecidedRows` holds a run of decisions as parallel lists; every reader (the Arrow
scorer, the trainer adapters, `decide_rows`) goes through the few methods tested
here, so a row must come back exactly as it was put, whichever way it was put.
"""

from __future__ import annotations

import json

import pytest

from finscore.rewards.decisions import DecidedRows, RewardDecision


def test_columns_handed_over_whole_read_back_row_by_row() -> None:
    texts = ['{"reason":"exact","value":"94"}', '{"reason":"no_answer_line","value":null}']
    rows = DecidedRows.from_texts([1.0, 0.0], [True, False], ["exact", "no_answer_line"], list(texts))
    assert len(rows) == 2
    assert rows[0] == RewardDecision(1.0, True, "exact", {"reason": "exact", "value": "94"}, texts[0])
    assert rows[1] == RewardDecision(0.0, False, "no_answer_line", {"reason": "no_answer_line", "value": None},
                                     texts[1])
    assert rows.detail_texts() == texts
    first = rows.detail(0)
    first["value"] = "changed"  # each reader gets a detail of its own
    assert rows.detail(0) == json.loads(texts[0])


def test_columns_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="columns of different lengths: 2, 2, 1, 2"):
        DecidedRows.from_texts([1.0, 0.0], [True, False], ["exact"], ["{}", "{}"])


def test_a_part_placed_among_other_rows_keeps_each_field() -> None:
    whole = DecidedRows(4)
    whole.put(0, None, None, "not_scored", {"data_source": "gsm8k"})
    part = DecidedRows.from_texts([1.0, 0.0], [True, False], ["exact", "wrong_value"], ['{"a":1}', '{"b":2}'])
    whole.place([3, 1], part)
    assert [whole[0], whole[1], whole[3]] == [
        RewardDecision(None, None, "not_scored", {"data_source": "gsm8k"}, None),
        RewardDecision(0.0, False, "wrong_value", {"b": 2}, '{"b":2}'),
        RewardDecision(1.0, True, "exact", {"a": 1}, '{"a":1}'),
    ]
    assert (whole.scores[2], whole.passed[2], whole.reasons[2], whole.details[2], whole.texts[2]) == (
        0.0, False, "", None, None)  # a row no decider wrote keeps the placeholders
    assert [whole.detail_texts()[k] for k in (0, 1, 3)] == ['{"data_source":"gsm8k"}', '{"b":2}', '{"a":1}']
