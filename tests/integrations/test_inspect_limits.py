"""The limits of `finscore run` hold inside inspect, and an inspect limit still leaves a scored, sealed line.

A model that calls tools forever runs out of turns, one that asks for more calls than allowed has
the extra call recorded unexecuted, one that does not answer before the deadline times out; a
sample stopped by inspect's own message limit is recorded as a step limit. Each ends as the
status `finscore run` gives it, and each is scored (a runtime failure, in the denominator).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatCompletionChoice, ChatMessage, ChatMessageAssistant, ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolCall

from finscore.contracts import KIT_DIRECTORY
from finscore.integrations.inspect_ai import kit, sealed_lines

pytestmark = pytest.mark.essential

MODEL = "mockllm/model"
#: The kit oracle's own call for emi-en: a valid call, so only the limits end these attempts.
EMI = next(json.loads(line) for line in (KIT_DIRECTORY / "oracle.jsonl").read_text().splitlines()
           if json.loads(line)["case_id"] == "emi-en")["trace"]["entries"][0]["arguments"]


def calling(count: int) -> ModelOutput:
    made = [ToolCall(id=f"call-{index}", function="calc_emi", arguments=EMI) for index in range(count)]
    return ModelOutput(model=MODEL, choices=[ChatCompletionChoice(message=ChatMessageAssistant(
        content="", tool_calls=made, model=MODEL, source="generate"))],
        usage=ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2))  # no tokenizer download


async def model_for_case(messages: list[ChatMessage], *_: Any) -> ModelOutput:
    """Keeps calling (emi-en, emi-ta), asks for four calls at once (emi-hi), or never answers (fv-en)."""
    case_id = QUESTIONS[messages[1].text]
    if case_id == "fv-en":
        await anyio.sleep(600)  # the attempt's deadline ends this, not the sleep
    return calling(4 if case_id == "emi-hi" else 1)


QUESTIONS = {json.loads((KIT_DIRECTORY / "cases" / f"{case_id}.json").read_text())["question"]: case_id
             for case_id in ("emi-en", "emi-hi", "emi-ta", "fv-en")}


def run(tmp_path: Path, sample_ids: list[str], **options: Any) -> dict[str, tuple[dict[str, Any], Any]]:
    """(sealed line, score) of each sample of one run."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_LOG_DIR", str(tmp_path / "logs"))
        logs = inspect_eval(kit(key_file=str(tmp_path / "trace.key"), deadline_seconds=1.0, max_turns=2,
                                max_tool_calls=3), model=get_model(MODEL, custom_outputs=model_for_case),
                            sample_id=sample_ids, log_dir=str(tmp_path / "logs"), display="none", **options)
    log: EvalLog = logs[0]
    lines = {line["case_id"]: line for line in map(json.loads, sealed_lines(log))}
    return {str(sample.id): (lines[str(sample.id)], next(iter(sample.scores.values()))) for sample in log.samples or []}


def test_turns_tool_calls_and_the_deadline_end_attempts_as_finscore_run_ends_them(tmp_path: Path) -> None:
    ended = run(tmp_path, ["emi-en", "emi-hi", "fv-en"])
    line, score = ended["emi-en"]
    assert (line["status"], line["status_detail"]) == ("step_limit", "no final response within the limit of 2 turns")
    assert [(entry["turn"], entry["outcome"]) for entry in line["trace"]["entries"]] == [(1, "ok"), (2, "ok")]
    line, score = ended["emi-hi"]
    assert line["status"] == "step_limit" and "tool call 4, over the limit of 3" in line["status_detail"]
    unexecuted = line["trace"]["entries"][3]
    assert unexecuted["outcome"] == "error" and unexecuted["message"].startswith("step limit:")
    line, score = ended["fv-en"]
    assert line["status"] == "timeout" and "1 s deadline (turn 1)" in line["status_detail"]
    for line, score in ended.values():
        assert score.value == "I" and score.metadata["primary_category"] == "runtime"
        assert not [code for code in score.metadata["codes"] if code.startswith("integrity_")]


def test_an_inspect_limit_is_recorded_sealed_and_scored(tmp_path: Path) -> None:
    (line, score), = run(tmp_path, ["emi-ta"], message_limit=4).values()
    assert line["status"] == "step_limit" and line["status_detail"].startswith("inspect's message limit")
    assert score.value == "I" and score.metadata["codes"] == ["run_step_limit"]
    assert score.metadata["trace"]["entries"] == len(line["trace"]["entries"]) >= 1
