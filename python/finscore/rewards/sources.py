"""Reward sources for completions that are a benchmark's own predictions (`RewardConfig(input=name)`).

Programs and free-text answers are scored by the rewards package itself; a benchmark whose
completions are predictions in its own format (TAT-QA's `[answer, scale]`, a registered
benchmark's answer) names its reward source in its registry descriptor, and the rows are
decided by it. A descriptor with only a `decide` function gets `DecidedPredictionReward`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence

from finscore import __version__
from finscore.rewards.decisions import MISSING_PREDICTION, DecidedRows
from finscore.rewards.gold_json import read_golds

if TYPE_CHECKING:
    from finscore.registry import Benchmark
    from finscore.rewards.config import RewardConfig


class PredictionReward(Protocol):
    """What a benchmark's reward source does: its scoring rule's name, its stamp, its golds, its decisions."""

    @property
    def rule(self) -> str:
        """The rule `RewardConfig.scored_sources` reports for the benchmark."""

    def stamp(self, config: RewardConfig) -> str:
        """The protocol stamp written on each scored row."""

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[Any]:
        """Each row's gold, decoded and checked (RewardInputError naming the row)."""

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        """One decision per completion (None when missing)."""


def reward_source(descriptor: Benchmark) -> PredictionReward:
    """The reward source of a benchmark: the one its descriptor names, or one made from its `decide`."""
    if descriptor.prediction_reward is not None:
        source: PredictionReward = descriptor.prediction_reward.load()
        return source
    if descriptor.decide is None:
        raise ValueError(f"benchmark {descriptor.name!r} has no reward source and no decide function")
    return DecidedPredictionReward(descriptor)


class DecidedPredictionReward:
    """A reward from a descriptor's `decide(prediction, gold) -> (passed, reason)`: 1.0 if passed, else 0.0."""

    __slots__ = ("_descriptor",)

    def __init__(self, descriptor: Benchmark) -> None:
        self._descriptor = descriptor

    @property
    def rule(self) -> str:
        return f"{self._descriptor.name}-decide"

    def stamp(self, config: RewardConfig) -> str:
        return f"{self._descriptor.name}-prediction/1 finscore={__version__}"

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[Any]:
        return read_golds(golds, indexes, column, lambda value, row: value)

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        assert self._descriptor.decide is not None  # reward_source made this only for a descriptor with one
        decide = self._descriptor.decide.load()
        out = DecidedRows(len(completions))
        for row, (completion, gold) in enumerate(zip(completions, golds)):
            if completion is None:
                out.put(row, 0.0, False, MISSING_PREDICTION, {})
                continue
            passed, reason = decide(completion, gold)
            out.put(row, 1.0 if passed else 0.0, bool(passed), reason, {})
        return out
