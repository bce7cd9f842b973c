"""Decide plain Python rows: the one place every adapter and the Arrow scorer meet.

Rows are grouped by data source and each group decided in one engine call, so a
batch of any size and order gives each row the decision it gets alone.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.rewards.answers import decide_answers, read_answer_golds
from finscore.rewards.config import (ANSWER_PROTOCOLS, GENERAL_INPUTS, PEER_INPUT, PROGRAM_PROFILES, RewardConfig,
                                     prediction_reward)
from finscore.rewards.decisions import NOT_SCORED, DecidedRows, RewardDecision
from finscore.rewards.gold_json import read_golds
from finscore.rewards.program_gold import ProgramGold, read_program_gold
from finscore.rewards.programs import decide_programs


def _read_program_golds(golds: Sequence[Any], indexes: list[int], column: str) -> list[ProgramGold]:
    return read_golds(golds, indexes, column, lambda value, row: read_program_gold(value, row=row, column=column))


def _decide_group(completions: Sequence[Any], golds: Sequence[Any], indexes: list[int], source: str,
                  config: RewardConfig) -> DecidedRows:
    """The rows of one data source, in one call of its decider."""
    if config.input not in GENERAL_INPUTS:  # a benchmark's own predictions, by its reward source
        source_reward = prediction_reward(config.input)
        return source_reward.decide([completions[i] for i in indexes],
                                    source_reward.read_golds(golds, indexes, config.gold_column), config)
    if config.input == "answer":
        protocol = ANSWER_PROTOCOLS[source]
        # a completion that is not text is model output too: its row is unparseable, as decide() says
        return decide_answers([completions[i] for i in indexes],
                              read_answer_golds(golds, indexes, protocol, config.gold_column),
                              protocol=protocol, format=config.format)
    return decide_programs([completions[i] for i in indexes], _read_program_golds(golds, indexes, config.gold_column),
                           profile=PROGRAM_PROFILES[source], python=config.python, match=config.match)


def decide_columns(completions: Sequence[Any], golds: Sequence[Any], data_sources: Sequence[str | None],
                   config: RewardConfig) -> tuple[DecidedRows, list[str | None]]:
    """Every row's decision, as columns, and its stamp (None for rows finscore does not score)."""
    if not len(completions) == len(golds) == len(data_sources):
        raise ValueError(f"completions, golds and data sources differ in length: "
                         f"{len(completions)}, {len(golds)}, {len(data_sources)}")
    if config.strip_tokens:
        completions = [config.without_special_tokens(completion) for completion in completions]
    if config.input == PEER_INPUT:  # one protocol, declared by the trainer, decides every row
        from finscore.rewards.peers import decide_peer_rows

        return decide_peer_rows(completions, golds, protocol=config.protocol, match=config.match,
                                column=config.gold_column, base=config.stamp("*"))
    count = len(completions)
    groups: dict[str, list[int]] = {}
    unscored: list[tuple[int, str | None]] = []
    scored = config.scored_sources()
    for index, source in enumerate(data_sources):
        source = config.data_source if source is None else source
        if source in scored:
            groups.setdefault(source, []).append(index)
        else:
            unscored.append((index, source))
    if len(groups) == 1 and not unscored:  # the common case: one source, its rows in order
        (source, indexes), = groups.items()
        return _decide_group(completions, golds, indexes, source, config), [config.stamp(source)] * count
    out = DecidedRows(count)
    stamps: list[str | None] = [None] * count
    for index, source in unscored:
        out.put(index, None, None, NOT_SCORED, {"data_source": source})
    for source, indexes in groups.items():
        out.place(indexes, _decide_group(completions, golds, indexes, source, config))
        stamp = config.stamp(source)
        for index in indexes:
            stamps[index] = stamp
    return out, stamps


def decide_rows(completions: Sequence[Any], golds: Sequence[Any], data_sources: Sequence[str | None],
                config: RewardConfig) -> list[tuple[RewardDecision, str | None]]:
    """(decision, stamp) per row; the stamp is None for rows finscore does not score."""
    decided, stamps = decide_columns(completions, golds, data_sources, config)
    return list(zip(decided, stamps))
