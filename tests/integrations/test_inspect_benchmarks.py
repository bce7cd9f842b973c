"""`inspect eval finscore/benchmark_answers`: every registered benchmark with free-text questions, read
from its own data file, each sample clustered by the benchmark's independence unit.

The oracles: the raw data file (the FinQA id names its filing, company/year; a ConvFinQA turn belongs
to its conversation's filing, issue #33; a TAT-QA question to its document's table uid, read here by hand), and
`finscore answers` on the same completions (the command, in process): the same golds, the same
denominator, the same figures.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")

from inspect_ai import eval as inspect_eval
from inspect_ai.log import read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model

from finscore.cli import main
from finscore.integrations.inspect_ai import CLUSTER_KEY, benchmark_answers, benchmark_samples
from finscore.finqa.inputs import FinqaInputError
from finscore.integrations.lm_eval.documents import TaskDataError
from finscore.registry import RegistryError, register_benchmark, unregister_benchmark

ROOT = Path(__file__).resolve().parents[2]
MODEL = "mockllm/model"


def _finqa() -> list[Any]:
    return json.loads((ROOT / "examples/answers/finqa_gold.json").read_text())[:30]


def _convfinqa() -> list[Any]:
    return json.loads((ROOT / "examples/answers/convfinqa_gold.json").read_text())[:8]


def _tatqa() -> list[Any]:
    with gzip.open(ROOT / "tests/data/tatqa/tatqa_dataset_dev.json.gz", "rt", encoding="utf-8") as file:
        return json.load(file)[:6]


def _finqa_units(data: list[Any]) -> dict[str, str]:
    return {entry["id"]: "/".join(entry["id"].split("/")[:2]) for entry in data}


def _convfinqa_units(data: list[Any]) -> dict[str, str]:
    # issue #33: the filing (company/year) of the conversation's page, which holds its Single and Double
    return {f"{entry['id']}#t{turn}": "/".join(entry["id"].split("_", 1)[1].split("/")[:2])
            for entry in data for turn in range(len(entry["annotation"]["turn_program"]))}


def _tatqa_units(data: list[Any]) -> dict[str, str]:
    return {question["uid"]: document["table"]["uid"] for document in data for question in document["questions"]}


SETS = {"finqa": (_finqa, _finqa_units, "finqa-answer/1"),
        "convfinqa": (_convfinqa, _convfinqa_units, "convfinqa-answer/1"),
        "tatqa": (_tatqa, _tatqa_units, "tatqa-answer/1")}


@pytest.mark.parametrize("name", list(SETS))
def test_each_sample_is_clustered_by_the_benchmarks_unit(name: str) -> None:
    read, units, protocol = SETS[name]
    data = read()
    samples = benchmark_samples(name, data)
    expected = units(data)
    assert samples and len({sample.metadata[CLUSTER_KEY] for sample in samples}) < len(samples)
    for sample in samples:
        assert sample.metadata[CLUSTER_KEY] == expected[str(sample.id)], sample.id
        assert sample.metadata["protocol"] == protocol
        assert isinstance(sample.input, str) and sample.input.startswith("Report:\n")


def test_a_benchmark_inspect_cannot_ask_is_named_with_the_choices() -> None:
    with pytest.raises(RegistryError, match="no benchmark named 'nope'"):
        benchmark_samples("nope", [])
    with pytest.raises(FinqaInputError, match="TAT-QA"):
        benchmark_samples("tatqa", [{"questions": "x"}])
    from support.toyqa import BENCHMARK  # a registered benchmark with no free-text questions

    register_benchmark(BENCHMARK)
    try:
        with pytest.raises(TaskDataError, match="benchmark 'toyqa' has no free-text questions"):
            benchmark_samples("toyqa", [])
    finally:
        unregister_benchmark("toyqa")


def _answering(by_prompt: dict[str, str]) -> Any:
    """mockllm's custom_outputs: the scripted completion of the sample whose prompt this is."""

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        return ModelOutput.from_content(MODEL, by_prompt[messages[-1].text]).model_copy(
            update={"usage": ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)})

    return answer


@pytest.mark.parametrize("name", list(SETS))
def test_the_task_gives_finscore_answers_figures(name: str, tmp_path: Path) -> None:
    read, _, protocol = SETS[name]
    data = read()
    (tmp_path / "gold.json").write_text(json.dumps(data))
    samples = benchmark_samples(name, data)
    # every other sample answered with its gold text, the rest with a number that is not it
    completions = {str(s.id): f"Answer: {s.target}" if index % 2 == 0 else "Answer: 123456789"
                   for index, s in enumerate(samples)}
    by_prompt = {str(s.input): completions[str(s.id)] for s in samples}
    assert len(by_prompt) == len(samples)  # each prompt names its sample
    logs = inspect_eval(benchmark_answers(benchmark=name, data=str(tmp_path / "gold.json")),
                        model=get_model(MODEL, custom_outputs=_answering(by_prompt)),
                        log_dir=str(tmp_path / "logs"), display="none")
    log = read_eval_log(logs[0].location)
    (tmp_path / "completions.jsonl").write_text("".join(json.dumps({"id": i, "completion": c}) + "\n"
                                                        for i, c in completions.items()))
    assert main(["answers", "--protocol", protocol, "--format", "answer-line", str(tmp_path / "completions.jsonl"),
                 str(tmp_path / "gold.json"), "--quiet", "--json", str(tmp_path / "report.json")]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    decisions = {row["id"]: row for row in report["decisions"]}
    scores = {str(s.id): next(iter(s.scores.values())) for s in log.samples or [] if s.scores}
    assert set(scores) == set(decisions) == set(completions)
    for sample_id, score in scores.items():
        assert score.metadata["protocol"] == protocol
        assert score.metadata["reason"] == decisions[sample_id]["reason"], sample_id
        assert (score.value == "C") == decisions[sample_id]["passed"], sample_id
    assert 0 < report["counts"]["passed"] < report["counts"]["golds"]
    assert log.results is not None
    assert log.results.scores[0].metrics["accuracy"].value == pytest.approx(report["accuracy"])
