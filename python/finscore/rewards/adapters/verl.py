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
from finscore.rewards.decisions import NOT_SCORED, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_columns



def _config(options: dict[str, Any]) -> RewardConfig:
    known = {k: v for k, v in options.items() if k in RewardConfig.__dataclass_fields__}
    return RewardConfig(**known)


def _as_dict(decided: DecidedRows, stamp: str | None, row: int, source: Any) -> dict[str, Any]:
    if decided.reasons[row] == NOT_SCORED:
        raise RewardInputError(f"finscore does not score data source {source!r}", column="data_source", row=row)
    return {"score": decided.scores[row], "passed": bool(decided.passed[row]), "reason": decided.reasons[row],
            "protocol": stamp}


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Any] | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """One dict per row, in order (verl's batch reward manager)."""
    sources = list(data_sources)
    texts = [text if isinstance(text, str) or text is None else str(text) for text in solution_strs]
    decided, stamps = decide_columns(texts, list(ground_truths), sources, _config(kwargs))
    return [_as_dict(decided, stamp, row, sources[row]) for row, stamp in enumerate(stamps)]


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> dict[str, Any]:
    """One row (verl's naive reward manager)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], **kwargs)[0]
