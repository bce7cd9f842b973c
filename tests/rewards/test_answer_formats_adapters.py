"""TRL, verl and OpenRLHF read issue #32's answer formats (phrase, tag, the lenient last-number)
under financemath-answer/1, through each trainer's own calling convention (none is installed: the
calls are the ones tests/rewards/test_adapters.py, test_verl.py and test_openrlhf.py reproduce).

Oracles: the labelled rows of financemath-answer/1's conformance file (phrase; made by
tools/answers, which never imports finscore.answers) and completions written here by hand, each
with the decision the protocol's written rule gives it. A last-number reward says it is lenient
wherever the trainer shows anything: verl's stamp, TRL's reward name, OpenRLHF's extra_logs.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from functools import partial
from pathlib import Path
from typing import Any, Callable

import pytest

import finscore.answers
import finscore.rewards.openrlhf
import finscore.rewards.verl
from finscore.rewards import RewardConfig
from finscore.rewards.trl import finscore_reward
from support.answer_format_cases import GOLD as GOLD_MAPPING
from support.answer_format_cases import HAND_DECIDED, PROTOCOL

pytestmark = pytest.mark.essential

SOURCE = "financemath"
GOLD = json.dumps(GOLD_MAPPING)
#: the hand-decided cases of the formats issue #32 added
CASES = {answer_format: HAND_DECIDED[answer_format] for answer_format in ("phrase", "tag", "last-number")}


def _conformance() -> list[dict[str, Any]]:
    path = Path(finscore.answers.__file__).parent / "conformance" / "financemath-answer-1.jsonl.gz"
    rows = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()]
    return rows[::7]


def _rows(answer_format: str) -> list[tuple[str, str, bool, str]]:
    """(completion, gold JSON text, passed, reason): the hand cases, and for phrase the conformance rows."""
    rows = [(completion, GOLD, passed, reason) for completion, passed, reason in CASES[answer_format]]
    if answer_format == "phrase":
        rows += [(r["completion"], json.dumps(r["gold"]), r["expect"]["passed"], r["expect"]["reason"])
                 for r in _conformance()]
    return rows


def _from_file(path: str, name: str) -> Any:
    """How verl and OpenRLHF load a reward file: a module from a path, not an import."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call_with_kwargs(raw_fn: Callable[..., Any], extra_kwargs: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    """verl/trainer/ppo/reward.py's `_call_with_kwargs` (the reward_kwargs win)."""
    return raw_fn(*args, **{**kwargs, **extra_kwargs})


def test_the_phrase_rows_are_many() -> None:
    assert len(_rows("phrase")) > 300


@pytest.mark.parametrize("answer_format", list(CASES))
def test_trl_rewards_each_format(answer_format: str) -> None:
    rows = _rows(answer_format)
    reward = finscore_reward(RewardConfig(input="answer", format=answer_format))
    got = reward(prompts=["q"] * len(rows), completions=[[{"role": "assistant", "content": r[0]}] for r in rows],
                 completion_ids=[[1]] * len(rows), gold=[r[1] for r in rows], data_source=[SOURCE] * len(rows))
    assert got == [1.0 if passed else 0.0 for _, _, passed, _ in rows]
    assert reward.__name__ == ("finscore_lenient" if answer_format == "last-number" else "finscore")
    assert finscore_reward(RewardConfig(input="answer", format=answer_format), name="mine").__name__ == "mine"


@pytest.mark.parametrize("answer_format", list(CASES))
def test_verl_rewards_each_format_with_its_stamp(answer_format: str) -> None:
    module = _from_file(finscore.rewards.verl.__file__, f"verl_custom_{answer_format}")
    compute_score = partial(_call_with_kwargs, module.compute_score, {"input": "answer", "format": answer_format})
    for completion, gold, passed, reason in _rows(answer_format):
        result = compute_score(data_source=SOURCE, solution_str=completion, ground_truth=gold,
                               extra_info={"index": 0})
        assert (result["passed"], result["reason"], result["score"]) == (passed, reason, float(passed)), completion
        stamp = result["protocol"]
        assert stamp.startswith(f"{PROTOCOL} format={answer_format} ")
        assert (" lenient " in stamp) == (answer_format == "last-number")


@pytest.mark.parametrize("answer_format", list(CASES))
def test_openrlhf_rewards_each_format(answer_format: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FINSCORE_REWARD_INPUT", "answer")
    monkeypatch.setenv("FINSCORE_REWARD_FORMAT", answer_format)
    monkeypatch.setenv("FINSCORE_REWARD_SOURCE", SOURCE)
    reward_func = _from_file(finscore.rewards.openrlhf.__file__, "reward_func").reward_func
    rows = _rows(answer_format)
    prompt = "Question: what is the bond's price? Conclude with 'Therefore, the answer is {final answer}'.\n"
    scores, lenient = [], []
    for completion, gold, _, _ in rows:  # OpenRLHF's executor: one row per call, the query is prompt + response
        result = reward_func([prompt + completion + "</s>"], [prompt], [gold])
        values = result["scores"]
        scores.extend(values.tolist() if hasattr(values, "tolist") else values)
        lenient.append(float(result["extra_logs"].get("finscore/lenient", 0.0)))
    assert scores == [1.0 if passed else 0.0 for _, _, passed, _ in rows]
    assert set(lenient) == ({1.0} if answer_format == "last-number" else {0.0})
