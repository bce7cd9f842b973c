"""Decide plain Python rows: the one place every adapter and the Arrow scorer meet.

Rows are grouped by data source and each group decided in one engine call, so a
batch of any size and order gives each row the decision it gets alone.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.rewards.config import PROGRAM_PROFILES, RewardConfig
from finscore.rewards.decisions import RewardDecision, not_scored
from finscore.rewards.program_gold import ProgramGold, read_program_gold
from finscore.rewards.programs import decide_programs


def _read_golds(golds: Sequence[Any], indexes: list[int], column: str) -> list[ProgramGold]:
    """Each row's gold, decoded once per distinct text: a GRPO group shares one gold, and
    rows sharing a gold share its table object, which the engine lays out once."""
    decoded: dict[str, ProgramGold] = {}
    out = []
    for index in indexes:
        text = golds[index]
        if isinstance(text, str):
            gold = decoded.get(text)
            if gold is None:
                gold = decoded[text] = read_program_gold(text, row=index, column=column)
        else:
            gold = read_program_gold(text, row=index, column=column)
        out.append(gold)
    return out


def decide_rows(completions: Sequence[Any], golds: Sequence[Any], data_sources: Sequence[str | None],
                config: RewardConfig) -> list[tuple[RewardDecision, str | None]]:
    """(decision, stamp) per row; the stamp is None for rows finscore does not score."""
    if not len(completions) == len(golds) == len(data_sources):
        raise ValueError(f"completions, golds and data sources differ in length: "
                         f"{len(completions)}, {len(golds)}, {len(data_sources)}")
    out: list[tuple[RewardDecision, str | None] | None] = [None] * len(completions)
    groups: dict[str, list[int]] = {}
    for index, source in enumerate(data_sources):
        source = config.data_source if source is None else source
        if source in PROGRAM_PROFILES:
            groups.setdefault(source, []).append(index)
        else:
            out[index] = (not_scored(source), None)
    for source, indexes in groups.items():
        group_golds = _read_golds(golds, indexes, config.gold_column)
        decisions = decide_programs([completions[i] for i in indexes], group_golds,
                                    profile=PROGRAM_PROFILES[source], python=config.python, match=config.match)
        stamp = config.stamp(source)
        for index, decision in zip(indexes, decisions):
            out[index] = (decision, stamp)
    return [row for row in out if row is not None]
