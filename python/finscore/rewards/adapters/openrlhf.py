"""OpenRLHF's reward function file: `--remote_rm_url /path/to/finscore/rewards/openrlhf.py`.

OpenRLHF loads this file and calls `reward_func(queries, prompts, labels)`: each
query is the prompt followed by the model's response, each label the row's gold
(from `--label_key`). It returns `rewards` and `scores` (torch tensors when torch is
installed, as OpenRLHF expects, plain lists otherwise) and `extra_logs` with the
share of each reason. A row whose source finscore does not score gets 0.0 and is
counted in `extra_logs` under `not_scored`. Loaded from a file, it takes its rules
from the environment: FINSCORE_REWARD_INPUT (program, answer or peer), FINSCORE_REWARD_FORMAT
(answer-line, boxed, json, whole, phrase, tag, last-number), FINSCORE_REWARD_SOURCE (finqa,
convfinqa, tatqa, financemath) and, for input peer, FINSCORE_REWARD_PROTOCOL (a peer protocol id:
financemath, helm-finqa, ...). OpenRLHF logs only numbers: a reward read in the lenient
last-number format adds `finscore/lenient` = 1.0 to `extra_logs`, its label there.

OpenRLHF decodes the query with `skip_special_tokens=False` (openrlhf/utils/agent.py), so a
response that ended with the EOS token arrives as `divide(9896, 23.6%)</s>`: the declared
special tokens (FINSCORE_REWARD_STRIP_TOKENS, comma-separated; by default those of the common
tokenizers, DEFAULT_STRIP_TOKENS) are removed from the response's end, and named in the stamp.
A label given as a JSON object is re-read by HF datasets, which can change its floats
(0.99671 becomes 0.9967100000000001); a program gold's exe_ans off its 5-decimal rounding
(every FinQA and ConvFinQA exe_ans is rounded so) is refused, naming the row.
"""

from __future__ import annotations

import os
import math
from collections import Counter
from typing import Any, Mapping, Sequence

from finscore.answers.stamp import lenient_label
from finscore.rewards.adapters.completions import response_of_query
from finscore.rewards.config import PROGRAM_PROFILES, RewardConfig
from finscore.rewards.errors import RewardInputError
from finscore.rewards.rows import decide_columns

#: The end-of-turn and end-of-text tokens of the common tokenizers (Llama 2 and Mistral, ChatML
#: and Qwen, Llama 3, GPT-2 and Qwen's base models), removed from a response's end by default.
DEFAULT_STRIP_TOKENS = ("</s>", "<|im_end|>", "<|eot_id|>", "<|endoftext|>")
#: The decimals every FinQA and ConvFinQA gold exe_ans is rounded to (the official evaluator's round(x, 5)).
GOLD_DECIMALS = 5


def strip_tokens_of(text: str | None) -> tuple[str, ...]:
    """The tokens a comma-separated list declares (None: the defaults; an empty text: none)."""
    if text is None:
        return DEFAULT_STRIP_TOKENS
    return tuple(token for token in (part.strip() for part in text.split(",")) if token)


def config_from_environment() -> RewardConfig:
    return RewardConfig(input=os.environ.get("FINSCORE_REWARD_INPUT", "program"),
                        format=os.environ.get("FINSCORE_REWARD_FORMAT", "answer-line"),
                        data_source=os.environ.get("FINSCORE_REWARD_SOURCE", "finqa"),
                        protocol=os.environ.get("FINSCORE_REWARD_PROTOCOL", ""),
                        strip_tokens=strip_tokens_of(os.environ.get("FINSCORE_REWARD_STRIP_TOKENS")))


def check_rounded_golds(labels: Sequence[Any], config: RewardConfig) -> None:
    """A program gold given as an object (not JSON text) whose exe_ans is off its 5-decimal
    rounding was re-read with changed floats (HF datasets does this): RewardInputError naming the row."""
    if config.input != "program" or config.data_source not in PROGRAM_PROFILES:
        return
    for row, label in enumerate(labels):
        if not isinstance(label, Mapping):
            continue  # JSON text is read here, exactly
        answer = label.get("exe_ans")
        if type(answer) is float and math.isfinite(answer) and round(answer, GOLD_DECIMALS) != answer:
            raise RewardInputError(
                f"exe_ans {answer!r} is not rounded to {GOLD_DECIMALS} decimals as every FinQA and ConvFinQA "
                f"gold is ({round(answer, GOLD_DECIMALS)!r}): the label was re-read with changed floats (HF "
                "datasets does this to a JSON object); give the gold as JSON text (a string column)",
                column="labels", row=row)


def rewards_of(queries: Sequence[Any], prompts: Sequence[Any], labels: Sequence[Any],
               config: RewardConfig | None = None) -> dict[str, Any]:
    """The rewards as plain lists: {"rewards", "scores", "extra_logs"} (the HTTP server sends this)."""
    config = config or config_from_environment()
    check_rounded_golds(labels, config)
    responses = [response_of_query(q, p, row=i) for i, (q, p) in enumerate(zip(queries, prompts))]
    decided, _ = decide_columns(responses, list(labels), [None] * len(responses), config)
    scores = [0.0 if score is None else score for score in decided.scores]
    reasons = Counter(decided.reasons)
    total = max(1, len(decided))
    extra = {f"finscore/{reason}": count / total for reason, count in sorted(reasons.items())}
    if config.input == "answer" and lenient_label(config.format) is not None:
        extra["finscore/lenient"] = 1.0
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
