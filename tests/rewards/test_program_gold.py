"""A program reward's gold is read as its contract says, and a malformed one is named.

The contract (rewards/program_gold.py): a JSON object, or any mapping, with `exe_ans` (a
finite number or text), `table` (a list of rows, each a list, or null) and `program`
(text, optional). Anything else is the caller's mistake: RewardInputError naming the row
and column, never a reward.
"""

from __future__ import annotations

from collections import OrderedDict
from types import MappingProxyType

import pytest

from finscore.rewards.errors import RewardInputError
from finscore.rewards.program_gold import ProgramGold, read_program_gold


class Row(list):  # type: ignore[type-arg]
    """A list subclass: still a list of cells."""


@pytest.mark.parametrize(("value", "expected"), [
    ({"exe_ans": 14.1}, ProgramGold(14.1, None, None)),
    ({"exe_ans": "yes", "table": None, "program": "greater(2, 1)"}, ProgramGold("yes", None, "greater(2, 1)")),
    ({"exe_ans": 3, "table": [["", "2019"], ["revenue", "1"]]}, ProgramGold(3, [["", "2019"], ["revenue", "1"]], None)),
    ({"exe_ans": 3, "table": []}, ProgramGold(3, [], None)),
    ({"exe_ans": 3, "table": [Row(["a", "1"])]}, ProgramGold(3, [["a", "1"]], None)),
    (OrderedDict(exe_ans=1.5), ProgramGold(1.5, None, None)),
    (MappingProxyType({"exe_ans": 2.5}), ProgramGold(2.5, None, None)),
])
def test_golds_of_the_contract_are_read(value: object, expected: ProgramGold) -> None:
    assert read_program_gold(value, row=4, column="gold") == expected


@pytest.mark.parametrize(("value", "message"), [
    ([1, 2], "the gold must be a JSON object with exe_ans, not a list"),
    ("14.1", "the gold must be a JSON object with exe_ans, not a str"),
    ({"answer": 14.1}, "the gold has no exe_ans"),
    ({"exe_ans": True}, "exe_ans must be a number or text, not bool"),
    ({"exe_ans": None}, "exe_ans must be a number or text, not NoneType"),
    ({"exe_ans": [1]}, "exe_ans must be a number or text, not list"),
    ({"exe_ans": float("nan")}, "exe_ans must be finite, not nan"),
    ({"exe_ans": float("-inf")}, "exe_ans must be finite, not -inf"),
    ({"exe_ans": 1, "table": "a|b"}, "table must be a list of rows (lists) or null"),
    ({"exe_ans": 1, "table": [["a", "1"], ("b", "2")]}, "table must be a list of rows (lists) or null"),
    ({"exe_ans": 1, "table": [["a", "1"], None]}, "table must be a list of rows (lists) or null"),
    ({"exe_ans": 1, "table": (["a", "1"],)}, "table must be a list of rows (lists) or null"),
    ({"exe_ans": 1, "program": ["add(", "1", "2", ")", "EOF"]}, "program must be the gold program text"),
])
def test_a_malformed_gold_is_named(value: object, message: str) -> None:
    with pytest.raises(RewardInputError) as raised:
        read_program_gold(value, row=4, column="gold")
    assert str(raised.value) == f"column 'gold', row 4: {message}"
