"""verl's custom reward function: `custom_reward_function.path` = this file's module path.

`compute_score(data_source, solution_str, ground_truth, extra_info=None)` is what
verl's naive reward manager calls per row; `compute_score_batch(data_sources=...,
solution_strs=..., ground_truths=..., extra_infos=...)` is what its batch reward
manager calls. Both return a dict with `score` and the reason and stamp, which verl
logs beside the reward. A data source finscore does not score is a configuration
mistake here (verl needs a number for every row), so it raises. verl's
`custom_reward_function.reward_kwargs` become the RewardConfig (e.g. `input: answer`,
`format: boxed`).
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.rewards.config import RewardConfig
from finscore.rewards.decisions import NOT_SCORED, RewardDecision
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_rows



def _config(options: dict[str, Any]) -> RewardConfig:
    known = {k: v for k, v in options.items() if k in RewardConfig.__dataclass_fields__}
    return RewardConfig(**known)


def _as_dict(decision: RewardDecision, stamp: str | None, row: int, source: Any) -> dict[str, Any]:
    if decision.reason == NOT_SCORED:
        raise RewardInputError(f"finscore does not score data source {source!r}", column="data_source", row=row)
    return {"score": decision.score, "passed": bool(decision.passed), "reason": decision.reason,
            "protocol": stamp}


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Any] | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """One dict per row, in order (verl's batch reward manager)."""
    sources = list(data_sources)
    texts = [text if isinstance(text, str) or text is None else str(text) for text in solution_strs]
    decided = decide_rows(texts, list(ground_truths), sources, _config(kwargs))
    return [_as_dict(decision, stamp, row, sources[row]) for row, (decision, stamp) in enumerate(decided)]


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> dict[str, Any]:
    """One row (verl's naive reward manager)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], **kwargs)[0]
