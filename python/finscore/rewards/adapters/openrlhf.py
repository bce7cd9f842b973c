"""OpenRLHF's reward function file: `--remote_rm_url /path/to/finscore/rewards/openrlhf.py`.

OpenRLHF loads this file and calls `reward_func(queries, prompts, labels)`: each
query is the prompt followed by the model's response, each label the row's gold
(from `--label_key`). It returns `rewards` and `scores` (torch tensors when torch is
installed, as OpenRLHF expects, plain lists otherwise) and `extra_logs` with the
share of each reason. A row whose source finscore does not score gets 0.0 and is
counted in `extra_logs` under `not_scored`. Loaded from a file, it takes its rules
from the environment: FINSCORE_REWARD_INPUT (program or answer), FINSCORE_REWARD_FORMAT
(answer-line, boxed, json, whole) and FINSCORE_REWARD_SOURCE (finqa, convfinqa, tatqa).
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any, Sequence

from finscore.rewards.adapters.completions import response_of_query
from finscore.rewards.config import RewardConfig
from finscore.rewards.rows import decide_columns



def config_from_environment() -> RewardConfig:
    return RewardConfig(input=os.environ.get("FINSCORE_REWARD_INPUT", "program"),
                        format=os.environ.get("FINSCORE_REWARD_FORMAT", "answer-line"),
                        data_source=os.environ.get("FINSCORE_REWARD_SOURCE", "finqa"))


def rewards_of(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any],
               config: RewardConfig | None = None) -> dict[str, Any]:
    """The rewards as plain lists: {"rewards", "scores", "extra_logs"} (the HTTP server sends this)."""
    config = config or config_from_environment()
    responses = [response_of_query(q, p, row=i) for i, (q, p) in enumerate(zip(queries, prompts))]
    decided, _ = decide_columns(responses, list(labels), [None] * len(responses), config)
    scores = [0.0 if score is None else score for score in decided.scores]
    reasons = Counter(decided.reasons)
    total = max(1, len(decided))
    extra = {f"finscore/{reason}": count / total for reason, count in sorted(reasons.items())}
    return {"rewards": scores, "scores": scores, "extra_logs": extra}


def reward_func(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any]) -> dict[str, Any]:
    """OpenRLHF's entry point."""
    result = rewards_of(queries, prompts, labels)
    try:
        import torch
    except ImportError:
        return result
    tensor = torch.tensor(result["scores"], dtype=torch.float32)
    return {"rewards": tensor, "scores": tensor,
            "extra_logs": {k: torch.tensor(v) for k, v in result["extra_logs"].items()}}
