"""finscore's verl reward through the exact calls of verl's reward loop (verl is not installed).

Read from github:volcengine/verl at b178a3cd56f58b2d502255daba591e92833930a7 (version 0.8.0.dev;
`reward_model.use_reward_loop: true` by default there):
- verl/trainer/ppo/reward.py `get_custom_reward_fn`: `load_extern_object(module_path=path,
  object_name=name)` (verl/utils/import_utils.py: `spec_from_file_location` on the file), then
  `partial(_call_with_kwargs, raw_fn, reward_kwargs)`, where `_call_with_kwargs` merges
  `{**kwargs, **extra_kwargs}` (the reward_kwargs win);
- verl/experimental/reward_loop/reward_manager/naive.py and dapo.py `run_single`: one row per
  call, `compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...,
  **extra_reward_kwargs)`, the extra kwargs `reward_router_address` and `reward_model_tokenizer`
  when a reward router is configured; the registry (reward_manager/registry.py) raises
  `ValueError(f"Unknown reward manager: {name}")` for `batch`;
- verl/workers/reward_manager/batch.py (the legacy managers, `use_reward_loop=False`):
  `compute_score(data_sources=..., solution_strs=..., ground_truths=..., extra_infos=...,
  **self.reward_kwargs)`.
The oracle of each row is the official evaluator's recorded outcome (support.reward_rows).
"""

from __future__ import annotations

import importlib.util
import os
from functools import partial
from typing import Any, Callable

import pytest

import finscore.rewards.verl
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.rewards import RewardInputError
from support.reward_rows import recorded_reward_rows


def _spelled(tokens: list[str]) -> str:
    return ", ".join(tokens[:-1]).replace("(, ", "(").replace(", )", ")")


ROWS = [row for row in recorded_reward_rows()[::97]
        if tokenize_gold_program(_spelled(row.program)) == row.program][:120]


def _call_with_kwargs(raw_fn: Callable[..., Any], extra_kwargs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    """verl/trainer/ppo/reward.py's `_call_with_kwargs`, as written there."""
    merged_kwargs = {**kwargs, **extra_kwargs}
    return raw_fn(*args, **merged_kwargs)


def _get_custom_reward_fn(path: str, name: str, reward_kwargs: dict[str, Any]) -> Callable[..., Any]:
    """verl's `get_custom_reward_fn` with its `load_module` for a file path."""
    spec = importlib.util.spec_from_file_location(f"custom_module_{hash(os.path.abspath(path))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return partial(_call_with_kwargs, getattr(module, name), dict(reward_kwargs))


def _naive_run_single(compute_score: Callable[..., Any], data_source: str, response_str: str,
                      ground_truth: str, router: bool = False) -> dict[str, Any]:
    """The reward loop's naive manager, one row: the call and how it reads the result."""
    extra_info: dict[str, Any] = {"index": 0, "num_turns": None, "rollout_reward_scores": {}}
    extra_reward_kwargs = {"reward_router_address": "127.0.0.1:1", "reward_model_tokenizer": None} if router else {}
    result = compute_score(data_source=data_source, solution_str=response_str, ground_truth=ground_truth,
                           extra_info=extra_info, **extra_reward_kwargs)
    assert isinstance(result, dict)
    return {"reward_score": result["score"], "reward_extra_info": dict(result)}


def test_the_reward_loop_one_row_per_call_gives_the_official_decisions() -> None:
    fn = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score", {})
    scores = [_naive_run_single(fn, "finqa", _spelled(row.program), row.gold, router=i % 2 == 1)["reward_score"]
              for i, row in enumerate(ROWS)]
    assert scores == [1.0 if row.official_pass else 0.0 for row in ROWS]
    assert 0 < sum(scores) < len(ROWS)


def test_the_legacy_batch_manager_gives_the_same_rows() -> None:
    fn = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score_batch", {"match": "execution"})
    batch = fn(data_sources=["finqa"] * len(ROWS), solution_strs=[_spelled(r.program) for r in ROWS],
               ground_truths=[r.gold for r in ROWS], extra_infos=[{}] * len(ROWS))
    one = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score", {"match": "execution"})
    assert batch == [one(data_source="finqa", solution_str=_spelled(r.program), ground_truth=r.gold,
                         extra_info={}) for r in ROWS]


def test_reward_kwargs_set_the_rules_named_in_the_stamp() -> None:
    fn = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score", {"input": "answer", "format": "boxed"})
    gold = '{"exe_ans": 0.5, "program": "divide(1, 2)", "question": "what share?"}'
    result = _naive_run_single(fn, "finqa", "so \\boxed{0.5}", gold)
    assert result["reward_score"] == 1.0
    assert " format=boxed " in result["reward_extra_info"]["protocol"]


@pytest.mark.parametrize("kwargs, named", [({"fromat": "boxed"}, "'fromat'"),
                                           ({"input": "answer", "fromat": "boxed", "mtach": "program"},
                                            "'fromat', 'mtach'"),
                                           ({"completion_column": "text"}, "'completion_column'")])
def test_an_unknown_reward_kwarg_is_refused_by_name(kwargs: dict[str, Any], named: str) -> None:
    """A misspelt kwarg dropped would score every row by the default rules instead."""
    fn = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score", kwargs)
    with pytest.raises(RewardInputError, match=f"unknown reward_kwargs {named}: .*takes input, match, python, "
                                               "format, tatqa_score, data_source"):
        _naive_run_single(fn, "finqa", "divide(1, 2)", '{"exe_ans": 0.5}')
    batch = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score_batch", kwargs)
    with pytest.raises(RewardInputError, match=named):
        batch(data_sources=["finqa"], solution_strs=["divide(1, 2)"], ground_truths=['{"exe_ans": 0.5}'],
              extra_infos=[{}])


def test_a_bad_rule_value_is_refused() -> None:
    fn = _get_custom_reward_fn(finscore.rewards.verl.__file__, "compute_score", {"format": "boxd"})
    with pytest.raises(RewardInputError, match="format must be one of"):
        _naive_run_single(fn, "finqa", "divide(1, 2)", '{"exe_ans": 0.5}')
