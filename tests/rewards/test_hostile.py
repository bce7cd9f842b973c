"""Model output never raises: hostile completions get typed reasons through every adapter."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from finscore.rewards import RewardConfig, score_arrow
from finscore.rewards.openrlhf import rewards_of
from finscore.rewards.trl import finscore_reward
from finscore.rewards.verl import compute_score_batch

GOLD = json.dumps({"exe_ans": 3.0, "table": [["revenue", "$ 1", "$ 2"]]})
#: A real TAT-QA test question's gold (its answer, type and scale), for the tatqa input.
TATQA_GOLD = json.dumps({"answer": ["12.6"], "answer_type": "arithmetic", "scale": "million"})
#: Each input kind: its config (rows without a data source are of this one) and its gold.
KINDS = {"program": (RewardConfig(input="program"), GOLD),
         "answer": (RewardConfig(input="answer"), GOLD),
         "tatqa": (RewardConfig(input="tatqa", data_source="tatqa"), TATQA_GOLD)}
HOSTILE = [
    "add(1, 2), " * 1_000_000,                   # about 10 MB of program text
    "x" * 10_000_000,                             # 10 MB with no structure at all
    "(" * 100_000 + ")" * 100_000,                # deep nesting
    "[" * 60_000 + "]" * 5_000,                   # JSON nested past Python's parser (within the tatqa bound)
    ", ".join(str(n) for n in range(100_000)),    # 100,000 numbers
    "add(\udcff, \ud800)",                        # lone surrogates (undecodable bytes, as Python keeps them)
    "add(1e309, 1)", "add(nan, 1)", "table_sum(revenue, none)" * 1000,
    "", "   ", "\x00\x1e\x1f",
]


def _assert_typed(reasons: list[str]) -> None:
    assert len(reasons) == len(HOSTILE)
    assert all(isinstance(r, str) and r for r in reasons)


@pytest.mark.parametrize("kind", KINDS)
def test_arrow_scorer(kind: str) -> None:
    config, gold = KINDS[kind]
    completions = [text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for text in HOSTILE]
    scored = score_arrow(pa.table({"completion": completions, "gold": [gold] * len(HOSTILE)}), config)
    reasons = scored.column("reason").to_pylist()
    _assert_typed(reasons)
    if kind == "program":
        assert reasons[:2] == ["too_long", "too_long"]  # over the declared 65,536 characters
    if kind == "tatqa":
        assert set(reasons) == {"malformed_prediction"}  # none is the JSON [answer, scale] a prediction is
    assert all(score in (0.0, 1.0) for score in scored.column("score").to_pylist())
    for detail in scored.column("detail").to_pylist():
        json.loads(detail)


@pytest.mark.parametrize("kind", KINDS)
def test_trl_verl_openrlhf(kind: str) -> None:
    config, gold = KINDS[kind]
    rewards = finscore_reward(config)(prompts=["q"] * len(HOSTILE), completions=HOSTILE, gold=[gold] * len(HOSTILE))
    assert all(r in (0.0, 1.0) for r in rewards)
    _assert_typed([d["reason"] for d in compute_score_batch([config.data_source] * len(HOSTILE), HOSTILE,
                                                             [gold] * len(HOSTILE), input=kind)])
    result = rewards_of(["q" + h for h in HOSTILE], ["q"] * len(HOSTILE), [gold] * len(HOSTILE), config)
    assert len(result["rewards"]) == len(HOSTILE)
    assert abs(sum(result["extra_logs"].values()) - 1.0) < 1e-9


@pytest.mark.parametrize(("kind", "reason"), [("program", "malformed_tokens"), ("answer", "unparseable"),
                                               ("tatqa", "malformed_prediction")])
def test_a_completion_that_is_not_text_is_its_own_row_s_miss(kind: str, reason: str) -> None:
    """decide_rows takes plain Python rows: a number or a dict where text belongs is model output
    gone wrong, a typed miss in its row; the rows around it are decided as alone."""
    from finscore.rewards import decide_rows

    config, gold = KINDS[kind]
    right = {"program": "add(1, 2)", "answer": "Answer: 3", "tatqa": json.dumps(["12.6", "million"])}[kind]
    completions = [94, right, 2.5, {"answer": 3}, None, right]  # (a list is a program in token form)
    decided = [decision for decision, _ in decide_rows(completions, [gold] * 6, [None] * 6, config)]
    assert [d.reason for d in decided] == [reason, decided[1].reason, reason, reason, "missing_prediction", decided[1].reason]
    assert decided[1].score == 1.0 and decided[0].score == decided[2].score == decided[3].score == 0.0
