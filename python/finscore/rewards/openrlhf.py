"""OpenRLHF's reward function file: `--remote_rm_url /path/to/finscore/rewards/openrlhf.py`.

OpenRLHF loads the reward function from a file path, and docs/rewards.md gives this one;
the adapter itself is `finscore.rewards.adapters.openrlhf`.
"""

from finscore.rewards.adapters.openrlhf import DEFAULT_STRIP_TOKENS, config_from_environment, reward_func, rewards_of

__all__ = ["DEFAULT_STRIP_TOKENS", "config_from_environment", "reward_func", "rewards_of"]
