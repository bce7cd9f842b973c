"""A reward function for TRL's GRPOTrainer (`reward_funcs=[finscore_reward()]`).

TRL calls it with `prompts`, `completions` (text, or lists of chat messages for a
conversational dataset), `completion_ids`, `trainer_state` and every other dataset
column as a keyword list; it returns a float per row, or None where the row's data
source is not one finscore scores (TRL then leaves that reward out for the row).
`column` picks which float: `score` (default), or a reward source's own float column
(FinanceBench's `support`), so that two reward functions give TRL the two axes apart.
TRL logs only the name and the floats, so a reward read in a lenient format (last-number)
is named `finscore_lenient` by default: the label every report of such a reward carries.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.answers.stamp import lenient_label
from finscore.rewards.adapters.completions import completion_text
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_columns


class FinscoreReward:
    """A TRL reward function; `__name__` is what TRL logs the reward under."""

    def __init__(self, config: RewardConfig | None = None, *, name: str | None = None, column: str = "score") -> None:
        self.config = config or RewardConfig()
        if name is None:  # TRL logs rewards/<name>/mean: a lenient reading says so there
            lenient = self.config.input == "answer" and lenient_label(self.config.format) is not None
            name = "finscore_lenient" if lenient else "finscore"
        floats = ["score", *(n for n, kind in self.config.extra_columns() if kind == "float64")]
        if column not in floats:
            raise RewardInputError(f"a TRL reward is one of the float columns {', '.join(floats)}, not {column!r}")
        self.column = column
        self.__name__ = name

    def __call__(self, prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
                 **columns: Any) -> list[float | None]:
        if completions is None:
            raise RewardInputError("TRL passes completions=; none were given", column="completions")
        golds = columns.get(self.config.gold_column)
        if golds is None:
            raise RewardInputError("the dataset has no such column (TRL passes every dataset column by name)",
                                   column=self.config.gold_column)
        sources = columns.get(self.config.data_source_column) or [None] * len(completions)
        texts = [completion_text(c, row=i) for i, c in enumerate(completions)]
        decided, _ = decide_columns(texts, list(golds), list(sources), self.config)
        if self.column == "score":
            return decided.scores
        values: list[float | None] = decided.extra.get(self.column, [None] * len(decided))
        return values


def finscore_reward(config: RewardConfig | None = None, *, name: str | None = None,
                    column: str = "score") -> FinscoreReward:
    """A reward function for `GRPOTrainer(reward_funcs=[...])`; `column` as the module says."""
    return FinscoreReward(config, name=name, column=column)
