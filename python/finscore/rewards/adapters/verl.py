"""verl's custom reward function: `custom_reward_function.path` = this file's module path.

`compute_score(data_source, solution_str, ground_truth, extra_info=None, **reward_kwargs)`
is what verl's reward loop calls, one row per call (its naive and dapo managers, the
only kind its reward loop registers); `compute_score_batch(data_sources=...,
solution_strs=..., ground_truths=..., extra_infos=..., **reward_kwargs)` is what the
older batch reward manager calls (`verl/workers/reward_manager/batch.py`, used only with
`reward_model.use_reward_loop=False`). Both return a dict with `score` and the reason and
stamp, which verl logs beside the reward. A data source finscore does not score is a
configuration mistake here (verl needs a number for every row), so it raises.

verl's `custom_reward_function.reward_kwargs` become the RewardConfig (e.g. `input: answer`,
`format: boxed`); verl merges them into every call. A kwarg that is no rule (a misspelt
`fromat`) raises RewardInputError naming it and the accepted ones: dropped, it would
silently score by another rule. The kwargs verl's reward loop adds itself when a reward
model router is configured are not rules and are left alone.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.rewards.config import RewardConfig
from finscore.rewards.decisions import NOT_SCORED, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_columns

#: The RewardConfig fields a verl run sets through reward_kwargs (the column names have no
#: meaning here: verl hands each field over as its own argument).
RULE_KWARGS = ("input", "match", "python", "format", "tatqa_score", "data_source", "protocol")
#: What verl's reward loop itself adds to each call beside the row (naive.py, dapo.py: a
#: reward model router's address and tokenizer): accepted and not used.
VERL_KWARGS = frozenset({"reward_router_address", "reward_model_tokenizer"})

_CONFIGS: dict[tuple[tuple[str, Any], ...], RewardConfig] = {}


def config_of(options: dict[str, Any]) -> RewardConfig:
    """The RewardConfig of a call's reward kwargs; RewardInputError naming any kwarg that is no rule."""
    unknown = sorted(name for name in options if name not in RULE_KWARGS and name not in VERL_KWARGS)
    if unknown:
        raise RewardInputError(f"unknown reward_kwargs {', '.join(map(repr, unknown))}: "
                               f"finscore's verl reward takes {', '.join(RULE_KWARGS)}")
    rules = tuple(sorted((name, value) for name, value in options.items() if name in RULE_KWARGS))
    try:
        known = _CONFIGS.get(rules)
    except TypeError:  # an unhashable value: RewardConfig names it below
        known = None
    if known is None:
        known = RewardConfig(**dict(rules))
        if len(_CONFIGS) < 64:  # one run has one set of kwargs; a bound keeps odd callers from growing it
            _CONFIGS[rules] = known
    return known


def _as_dict(decided: DecidedRows, stamp: str | None, row: int, source: Any) -> dict[str, Any]:
    if decided.reasons[row] == NOT_SCORED:
        raise RewardInputError(f"finscore does not score data source {source!r}", column="data_source", row=row)
    return {"score": decided.scores[row], "passed": bool(decided.passed[row]), "reason": decided.reasons[row],
            "protocol": stamp, **{name: values[row] for name, values in decided.extra.items()}}


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[Any], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Any] | None = None, **kwargs: Any) -> list[dict[str, Any]]:
    """One dict per row, in order (verl's batch reward manager, outside the reward loop)."""
    config = config_of(kwargs)
    sources = list(data_sources)
    texts = [text if isinstance(text, str) or text is None else str(text) for text in solution_strs]
    decided, stamps = decide_columns(texts, list(ground_truths), sources, config)
    return [_as_dict(decided, stamp, row, sources[row]) for row, stamp in enumerate(stamps)]


def compute_score(data_source: Any, solution_str: Any, ground_truth: Any, extra_info: Any = None,
                  **kwargs: Any) -> dict[str, Any]:
    """One row (verl's reward loop: the naive and dapo managers)."""
    return compute_score_batch([data_source], [solution_str], [ground_truth], [extra_info], **kwargs)[0]
