"""A program reward's detail text is what the standard library's encoder writes, byte for byte.

The rewards write the usual details field by field (rewards/programs.py); the oracle is
`json.dumps(detail, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)`,
on the decisions of every recorded gold and mutant row, on fuzz programs (refusals of every
kind), and on golds of every type a gold may hold.
"""

from __future__ import annotations

import json
from itertools import islice

import pytest
from support.reward_rows import recorded_reward_rows
from support.shared import table_of, vector_rows

from finscore.rewards import RewardConfig, decide_rows
from finscore.rewards.program_gold import ProgramGold
from finscore.rewards.programs import decide_programs

pytestmark = pytest.mark.essential


def _oracle(detail: dict[str, object]) -> str:
    return json.dumps(detail, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _mismatches(decisions: list) -> list:  # type: ignore[type-arg]
    return [(d.detail, d.detail_json()) for d in decisions if d.detail_json() != _oracle(d.detail)]


def test_every_recorded_row() -> None:
    rows = recorded_reward_rows()
    decided = decide_rows([r.program for r in rows], [r.gold for r in rows], [None] * len(rows), RewardConfig())
    decisions = [decision for decision, _ in decided]
    assert len({d.reason for d in decisions}) >= 8
    assert _mismatches(decisions) == []


#: golds of each kind exe_ans may be: floats of every size and sign, ints, big ints, yes/no, text
GOLDS = [94.0, -0.0, 0.14464, 1e-300, 5e-324, 1.7976931348623157e308, 123456789012345.67, 3, -7, 2**70,
         "yes", "no", "n/a", "naïve \"quoted\" \\ \u2028 \ud800"]


@pytest.mark.parametrize("profile", ["official", "convfinqa"])
def test_fuzz_programs_against_golds_of_every_kind(profile: str) -> None:
    items = [(row["program"], table) for row in islice(vector_rows("fuzz"), 6_000)
             for available, table in [table_of(row)] if available]
    golds = [ProgramGold(GOLDS[k % len(GOLDS)], table, None) for k, (_, table) in enumerate(items)]
    decisions = decide_programs([program for program, _ in items], golds, profile=profile, python="3.11",
                                match="execution")
    assert len({d.detail["status"] for d in decisions}) >= 8  # refusals of many kinds, and values
    assert any(d.detail.get("failed_step") is None and "failed_step" in d.detail for d in decisions)
    assert _mismatches(decisions) == []


def test_program_equivalence_details() -> None:
    gold = ProgramGold(94.0, None, "subtract(5829, 5735)")
    decisions = decide_programs(["subtract(5829, 5735)", "subtract(5829, 5735), add(#0, 0)", "add(1, 2)"],
                                [gold] * 3, profile="official", python="3.11", match="program")
    assert "equivalence" in decisions[0].detail
    assert _mismatches(decisions) == []
