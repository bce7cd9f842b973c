"""Rewards for RL trainers: finscore's exact decisions as rewards, over Arrow batches.

- `score_arrow(table_or_batch, RewardConfig(...))`: the batch scorer (the single
  entry for bulk work); `decide_rows` for plain Python sequences.
- Adapters, each imported on its own so no trainer is needed to import this
  package: `finscore.rewards.trl`, `finscore.rewards.verl`, `finscore.rewards.openrlhf`,
  `finscore.rewards.server` (an HTTP reward server), `finscore.rewards.ray` (each the
  documented path of its adapter in `finscore.rewards.adapters`).

Model output never raises: every row gets a typed reason. Input that is not model
output (a missing gold, a wrong column type) raises `RewardInputError`.
"""

from finscore.rewards.arrow_batches import REWARD_COLUMNS, REWARD_SCHEMA, reward_columns, score_arrow
from finscore.rewards.config import PROGRAM_PROFILES, RewardConfig
from finscore.rewards.decisions import MISSING_PREDICTION, NOT_SCORED, RewardDecision
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_rows

__all__ = [
    "MISSING_PREDICTION",
    "NOT_SCORED",
    "PROGRAM_PROFILES",
    "REWARD_COLUMNS",
    "REWARD_SCHEMA",
    "RewardConfig",
    "RewardDecision",
    "RewardInputError",
    "decide_rows",
    "reward_columns",
    "score_arrow",
]
