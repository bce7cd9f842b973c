"""Rewards for free-text answers: `finscore answers`' own decisions under a declared protocol.

The completion is prose from a language model; where its final answer is, how a
number is read and how it is compared with the gold are the protocol's declared
rules (finscore.answers), never the reward's own. Each distinct gold is read once:
a GRPO group shares its gold.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.answers import Gold, GoldError, as_gold, decide_batch, get_protocol
from finscore.rewards.decisions import DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import read_golds


def read_answer_golds(golds: Sequence[Any], indexes: Sequence[int], protocol: str, column: str) -> list[Gold]:
    """Each row's gold under the protocol, read once per distinct JSON text."""
    chosen = get_protocol(protocol)

    def read(value: Any, row: int) -> Gold:
        try:
            return as_gold(value, chosen)
        except GoldError as error:
            raise RewardInputError(f"the gold does not fit {protocol}: {error}", column=column, row=row) from None

    return read_golds(golds, indexes, column, read)


def decide_answers(completions: Sequence[Any], golds: Sequence[Gold], *, protocol: str,
                   format: str) -> DecidedRows:
    """One decision per completion (None when missing: the protocol's missing_prediction; not text:
    unparseable). The detail is the Decision's canonical JSON only: `rows.detail(i)` reads it back
    as to_json()."""
    decided = decide_batch(completions, golds, protocol=protocol, format=format)
    passed: list[bool | None] = [d.passed for d in decided]
    return DecidedRows.from_texts([1.0 if p else 0.0 for p in passed], passed, [d.reason for d in decided],
                                  [d.canonical_json() for d in decided])
