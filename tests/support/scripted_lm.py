"""A fixed-answer model for lm_eval, registered once with lm_eval's own `register_model`.

The lm-eval task tests set `ScriptedLM.completions` (document id -> completion) before each run and
read back the prompt lm_eval built for each document from `ScriptedLM.prompts`. Import only after
`pytest.importorskip("lm_eval")`.
"""

from __future__ import annotations

from typing import Any

from lm_eval.api.model import LM
from lm_eval.api.registry import register_model

MODEL_NAME = "finscore-scripted"


@register_model(MODEL_NAME)
class ScriptedLM(LM):  # type: ignore[misc]
    """Answers each document with the completion the test wrote for its id; records the prompts."""

    completions: dict[str, str] = {}
    prompts: dict[str, str] = {}

    def generate_until(self, requests: list[Any], disable_tqdm: bool = False) -> list[str]:
        answers = []
        for request in requests:
            context, _ = request.args
            ScriptedLM.prompts[request.doc["id"]] = context
            answers.append(ScriptedLM.completions[request.doc["id"]])
        return answers

    def loglikelihood(self, requests: list[Any], disable_tqdm: bool = False) -> list[tuple[float, bool]]:
        raise NotImplementedError("the finscore tasks are generative")

    def loglikelihood_rolling(self, requests: list[Any], disable_tqdm: bool = False) -> list[float]:
        raise NotImplementedError("the finscore tasks are generative")
