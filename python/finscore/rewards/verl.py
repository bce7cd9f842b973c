"""verl's custom reward function file: `custom_reward_function.path` = this file's path.

verl loads the reward function from a file path, and docs/rewards.md gives this one; the
adapter itself is `finscore.rewards.adapters.verl`.
"""

from finscore.rewards.adapters.verl import compute_score, compute_score_batch

__all__ = ["compute_score", "compute_score_batch"]
