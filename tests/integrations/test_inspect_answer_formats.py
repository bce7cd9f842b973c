"""The answers scorer inside inspect reads every answer format (issue #32: phrase, tag and the
lenient last-number beside answer-line, boxed, json and whole), under financemath-answer/1.

Oracles: completions written here by hand, each with the decision the protocol's written rule
gives it (the number its marker points at, compared with the gold as the rule says), and the
labelled rows of financemath-answer/1's conformance file (made by tools/answers, which never
imports finscore.answers). Every run goes through inspect's own eval with its mock model; the
stamp and the metadata of a last-number run say it is lenient, and no other run's do.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

import finscore.answers
from finscore.answers import FORMATS, ProtocolError
from finscore.integrations.inspect_ai import GOLD_KEY, answers
from support.answer_format_cases import GOLD, HAND_DECIDED, PROTOCOL

pytestmark = pytest.mark.essential

MODEL = "mockllm/model"
LENIENT_WORDS = "last-number is lenient"

CASES = HAND_DECIDED


def answering(completions: dict[str, str]) -> Any:
    """mockllm's custom_outputs: the completion of the sample named by the input."""

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return ModelOutput.from_content(MODEL, completions[messages[-1].text]).model_copy(
            update={"usage": ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)})  # no tokenizer download

    return answer


def run(samples: list[tuple[str, str, dict[str, Any]]], answer_format: str, root: Path) -> dict[str, Any]:
    """One inspect eval of (id, completion, gold) samples; each sample's Score by id."""
    dataset = MemoryDataset([Sample(id=name, input=name, metadata={GOLD_KEY: gold}) for name, _, gold in samples])
    task = Task(dataset=dataset, solver=generate(), scorer=answers(PROTOCOL, answer_format))
    completions = {name: completion for name, completion, _ in samples}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_LOG_DIR", str(root))
        logs = inspect_eval(task, model=get_model(MODEL, custom_outputs=answering(completions)),
                            log_dir=str(root), display="none")
    log = read_eval_log(logs[0].location)
    return {str(sample.id): next(iter(sample.scores.values())) for sample in log.samples or [] if sample.scores}


def test_the_cases_cover_every_format() -> None:
    assert set(CASES) == set(FORMATS)


@pytest.mark.parametrize("answer_format", list(CASES))
def test_each_format_is_read_inside_inspect(answer_format: str, tmp_path: Path) -> None:
    cases = CASES[answer_format]
    scores = run([(f"s{i}", completion, GOLD) for i, (completion, _, _) in enumerate(cases)], answer_format, tmp_path)
    assert len(scores) == len(cases)
    for i, (completion, passed, reason) in enumerate(cases):
        score = scores[f"s{i}"]
        assert (score.value, score.metadata["reason"]) == ("C" if passed else "I", reason), completion
        assert score.metadata["format"] == answer_format and score.metadata["protocol"] == PROTOCOL
        stamp = score.metadata["stamp"]
        assert stamp["protocol"] == PROTOCOL and len(stamp["conformance_sha256"]) == 64
        if answer_format == "last-number":  # the lenient format says so in the stamp, the metadata, the text
            assert LENIENT_WORDS in stamp["lenient"] and LENIENT_WORDS in score.metadata["lenient"]
            assert "LENIENT" in (score.explanation or "")
        else:
            assert "lenient" not in stamp and "lenient" not in score.metadata
            assert "LENIENT" not in (score.explanation or "")


def test_the_phrase_format_decides_the_conformance_rows_as_labelled(tmp_path: Path) -> None:
    """Every tenth labelled row of financemath-answer/1's conformance file, decided inside inspect."""
    path = Path(finscore.answers.__file__).parent / "conformance" / "financemath-answer-1.jsonl.gz"
    rows = [json.loads(line) for line in gzip.decompress(path.read_bytes()).decode("utf-8").splitlines()][::10]
    assert len(rows) > 150 and {row["format"] for row in rows} == {"phrase"}
    scores = run([(f"r{row['row']}", row["completion"], row["gold"]) for row in rows], "phrase", tmp_path)
    assert len(scores) == len(rows)
    for row in rows:
        score = scores[f"r{row['row']}"]
        expect = row["expect"]
        got = {"passed": score.value == "C", "reason": score.metadata["reason"], "k": score.metadata["decision"]["k"]}
        assert got == expect, (row["row"], row["label"])


def test_an_unknown_format_is_refused_when_the_task_is_made() -> None:
    with pytest.raises(ProtocolError, match="no answer format 'last_number'"):
        answers(PROTOCOL, "last_number")
