"""The documented path of the TRL adapter (`finscore.rewards.trl.finscore_reward`); the adapter
itself is `finscore.rewards.adapters.trl`."""

from finscore.rewards.adapters.trl import FinscoreReward, finscore_reward

__all__ = ["FinscoreReward", "finscore_reward"]
