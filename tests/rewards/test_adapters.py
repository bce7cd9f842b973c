"""Each trainer's calling convention, reproduced from its own source, gives finscore's decisions.

TRL's GRPOTrainer calls `reward_func(prompts=..., completions=..., completion_ids=...,
**every other dataset column)` and turns None into NaN; verl loads
`custom_reward_function.path` as a module from a file and calls `compute_score(data_source,
solution_str, ground_truth, extra_info)` (naive manager) or `compute_score_batch(data_sources=...,
solution_strs=..., ground_truths=..., extra_infos=...)` (batch manager); OpenRLHF loads
`--remote_rm_url FILE.py` the same way and calls `reward_func(queries, prompts, labels)`.
None of the trainers is installed: their calls are reproduced exactly, without a GPU.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

import finscore.rewards.openrlhf
import finscore.rewards.verl
from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.rewards import RewardConfig, RewardInputError
from finscore.rewards.trl import finscore_reward
from support.reward_rows import recorded_reward_rows



def _spelled(tokens: list[str]) -> str:
    """A token list written as program text (the form a model writes)."""
    return ", ".join(tokens[:-1]).replace("(, ", "(").replace(", )", ")")


# Recorded rows whose text spelling tokenizes back to exactly the recorded tokens, so the
# recorded official outcome is the oracle for the text too.
ROWS = [row for row in recorded_reward_rows()[::40]
        if tokenize_gold_program(_spelled(row.program)) == row.program][:400]
PROGRAMS = [_spelled(row.program) for row in ROWS]
EXPECTED = [1.0 if row.official_pass else 0.0 for row in ROWS]


def _from_file(path: str) -> ModuleType:
    """How verl and OpenRLHF load a reward file: a module from a path, not an import."""
    spec = importlib.util.spec_from_file_location("custom_module", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rows_hold_both_decisions() -> None:
    assert len(ROWS) > 300 and 0 < sum(EXPECTED) < len(ROWS)


def test_trl_plain_and_conversational() -> None:
    reward = finscore_reward()
    assert reward.__name__ == "finscore"
    columns = {"gold": [row.gold for row in ROWS], "data_source": ["finqa"] * len(ROWS)}
    plain = reward(prompts=["question"] * len(ROWS), completions=PROGRAMS,
                   completion_ids=[[1, 2]] * len(ROWS), trainer_state=None, **columns)
    assert plain == EXPECTED
    conversational = reward(
        prompts=[[{"role": "user", "content": "question"}]] * len(ROWS),
        completions=[[{"role": "assistant", "content": f"  {text}\n"}] for text in PROGRAMS],
        completion_ids=[[1]] * len(ROWS), **columns)
    assert conversational == EXPECTED


def test_trl_gives_none_for_other_sources() -> None:
    rewards = finscore_reward()(prompts=["q", "q"], completions=["add(1, 2)", "42"],
                                gold=[ROWS[0].gold, "{}"], data_source=["finqa", "gsm8k"])
    assert rewards[1] is None and rewards[0] in (0.0, 1.0)


def test_trl_names_a_missing_gold_column() -> None:
    with pytest.raises(RewardInputError, match="'gold'"):
        finscore_reward()(prompts=["q"], completions=["add(1, 2)"], answer=["3"])


def test_a_gold_nested_too_deeply_is_named_by_row() -> None:
    deep = "[" * 100_000 + "]" * 100_000  # past the depth Python's JSON parser reads
    with pytest.raises(RewardInputError, match=r"column 'gold', row 1: the gold is JSON nested too deeply"):
        finscore_reward()(prompts=["q", "q"], completions=["add(1, 2)", "add(1, 2)"], gold=[ROWS[0].gold, deep])


def test_verl_loaded_from_its_file() -> None:
    module = _from_file(finscore.rewards.verl.__file__)
    single = [module.compute_score("finqa", text, row.gold, extra_info={"index": i})
              for i, (text, row) in enumerate(zip(PROGRAMS, ROWS))]
    batch = module.compute_score_batch(data_sources=["finqa"] * len(ROWS), solution_strs=PROGRAMS,
                                       ground_truths=[row.gold for row in ROWS], extra_infos=[{}] * len(ROWS))
    assert single == batch
    assert all(set(d) == {"score", "passed", "reason", "protocol"} for d in batch)
    assert [d["protocol"] for d in batch] == [RewardConfig().stamp("finqa")] * len(ROWS)
    with pytest.raises(RewardInputError, match="gsm8k"):
        module.compute_score("gsm8k", "42", "{}")


def test_openrlhf_loaded_from_its_file() -> None:
    module = _from_file(finscore.rewards.openrlhf.__file__)
    prompts = [f"Question {i}: " for i in range(len(ROWS))]
    result = module.reward_func([p + t for p, t in zip(prompts, PROGRAMS)], prompts, [row.gold for row in ROWS])
    scores = result["scores"].tolist() if hasattr(result["scores"], "tolist") else result["scores"]
    verl = finscore.rewards.verl.compute_score_batch(["finqa"] * len(ROWS), PROGRAMS, [r.gold for r in ROWS])
    assert scores == [d["score"] for d in verl]
    assert set(result) == {"rewards", "scores", "extra_logs"}


def test_the_reward_file_paths_exist_for_the_documented_configs() -> None:
    for module in (finscore.rewards.verl, finscore.rewards.openrlhf):
        assert Path(module.__file__).is_file()
