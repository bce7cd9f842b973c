"""The documented path of the Ray adapter (`finscore.rewards.ray.RewardMapper`,
`reward_pool_size`, `reward_worker_class`); the adapter itself is `finscore.rewards.adapters.ray`."""

from finscore.rewards.adapters.ray import (ERROR_COLUMN, RewardMapper, RewardParallelismWarning, reward_pool_size,
                                           reward_worker_class)

__all__ = ["ERROR_COLUMN", "RewardMapper", "RewardParallelismWarning", "reward_pool_size", "reward_worker_class"]
