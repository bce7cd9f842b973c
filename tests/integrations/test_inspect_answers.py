"""The answer scorers inside inspect, with inspect's mock model answering from the shipped example
completions: every decision is `finscore.answers.decide`'s on the same completion, and the figures
are `finscore answers`' on the same completions (the command, in process), denominator included.

Two completions of each set are withheld: inspect's model fails on those samples, and
`finscore answers` gets no line for them; both must count them as missing_prediction misses.
The clustered standard error is checked against its formula, computed here by hand.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'finscore[inspect]') is not installed")

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

from finscore.answers import decide
from finscore.answers import reasons as R
from finscore.cli import main
from finscore.integrations.inspect_ai import CLUSTER_KEY, GOLD_KEY, answers

pytestmark = pytest.mark.essential

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "answers"
MODEL = "mockllm/model"
WITHHELD = 2


@dataclass(frozen=True)
class Item:
    id: str
    gold: dict[str, Any]
    cluster: str | None


def finqa_items(data: list[dict[str, Any]]) -> list[Item]:
    return [Item(example["id"], {key: example["qa"][key] for key in ("exe_ans", "program", "question", "answer")},
                 None) for example in data]


def convfinqa_items(data: list[dict[str, Any]]) -> list[Item]:
    items = []
    for conversation in data:
        notes = conversation["annotation"]
        for turn, answer in enumerate(notes["exe_ans_list"]):
            gold = {"exe_ans": answer, "program": notes["turn_program"][turn], "question": notes["dialogue_break"][turn]}
            items.append(Item(f"{conversation['id']}#t{turn}", gold, conversation["id"]))
    return items


def tatqa_items(data: list[dict[str, Any]]) -> list[Item]:
    return [Item(question["uid"], {key: question[key] for key in ("answer", "scale", "answer_type", "question")},
                 f"document-{index}") for index, document in enumerate(data) for question in document["questions"]]


SETS = {  # protocol: (gold file, completions, reader, entries of the gold file taken)
    "finqa-answer/1": ("finqa_gold.json", "finqa_completions.jsonl", finqa_items, 40),
    "convfinqa-answer/1": ("convfinqa_gold.json", "convfinqa_completions.jsonl", convfinqa_items, 12),
    "tatqa-answer/1": ("tatqa_gold.json", "tatqa_completions.jsonl", tatqa_items, 10),
}


def answering(completions: dict[str, str]) -> Any:
    """mockllm's custom_outputs: the sample's completion (the input is the sample's id), or a failure."""

    def answer(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        name = messages[-1].text
        if name not in completions:
            raise RuntimeError(f"scripted model failure for {name}")
        return ModelOutput.from_content(MODEL, completions[name]).model_copy(
            update={"usage": ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)})  # no tokenizer download

    return answer


@pytest.fixture(scope="module", params=list(SETS))
def scored(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One inspect run of a set under its protocol, and `finscore answers` on the same completions."""
    protocol = request.param
    gold_file, completions_file, reader, taken = SETS[protocol]
    root = tmp_path_factory.mktemp(protocol.replace("/", "-"))
    data = json.loads((EXAMPLES / gold_file).read_text())[:taken]
    items = reader(data)
    every = {row["id"]: row["completion"] for row in map(json.loads, (EXAMPLES / completions_file).read_text().splitlines())}
    withheld = [item.id for item in items if item.id in every][:WITHHELD]
    completions = {item.id: every[item.id] for item in items if item.id in every and item.id not in withheld}
    dataset = MemoryDataset([Sample(id=item.id, input=item.id,
                                    metadata={GOLD_KEY: item.gold} | ({CLUSTER_KEY: item.cluster} if item.cluster else {}))
                             for item in items])
    task = Task(dataset=dataset, solver=generate(), scorer=answers(protocol, "answer-line"), score_on_error=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_LOG_DIR", str(root / "logs"))
        logs = inspect_eval(task, model=get_model(MODEL, custom_outputs=answering(completions)),
                            log_dir=str(root / "logs"), display="none")
    (root / "gold.json").write_text(json.dumps(data))
    (root / "completions.jsonl").write_text("".join(json.dumps({"id": i, "completion": c}) + "\n"
                                                    for i, c in completions.items()))
    assert main(["answers", "--protocol", protocol, "--format", "answer-line", str(root / "completions.jsonl"),
                 str(root / "gold.json"), "--quiet", "--json", str(root / "report.json")]) == 0
    return {"protocol": protocol, "items": items, "completions": completions, "withheld": withheld,
            "log": read_eval_log(logs[0].location), "report": json.loads((root / "report.json").read_text())}


def scores_of(log: EvalLog) -> dict[str, Any]:
    """Each sample's score, by id; a sample the scorer did not score (outside the protocol) is absent."""
    return {str(sample.id): next(iter(sample.scores.values())) for sample in log.samples or [] if sample.scores}


def test_every_decision_is_decides_on_the_same_completion(scored: dict[str, Any]) -> None:
    scores = scores_of(scored["log"])
    decided = 0
    for item in scored["items"]:
        if item.id not in scores:
            continue
        expected = decide(scored["completions"].get(item.id), item.gold, scored["protocol"], "answer-line")
        score = scores[item.id]
        assert score.metadata["decision"] == expected.to_json(), item.id
        assert score.value == ("C" if expected.passed else "I")
        assert score.metadata["reason"] == expected.reason
        decided += 1
    assert decided == len(scores) > 0


def test_a_failed_generation_is_a_missing_prediction_in_the_denominator(scored: dict[str, Any]) -> None:
    scores = scores_of(scored["log"])
    assert len(scored["withheld"]) == WITHHELD
    for name in scored["withheld"]:
        assert scores[name].value == "I" and scores[name].metadata["reason"] == R.MISSING_PREDICTION
    samples = {str(sample.id): sample for sample in scored["log"].samples or []}
    assert all(samples[name].error is not None for name in scored["withheld"])  # inspect saw them fail


def test_the_figures_are_finscore_answers_on_the_same_completions(scored: dict[str, Any]) -> None:
    report = scored["report"]
    scores = scores_of(scored["log"])
    assert len(scores) == report["counts"]["golds"]
    assert len(scored["items"]) - len(scores) == report["counts"]["out_of_protocol_golds"]
    metrics = {name: metric.value for name, metric in scored["log"].results.scores[0].metrics.items()}
    assert metrics["accuracy"] == pytest.approx(report["accuracy"])
    assert report["reasons"]["missing_prediction"] >= WITHHELD
    for reason, count in report["reasons"].items():
        assert metrics[reason] == pytest.approx(count / report["counts"]["golds"]), reason


def test_the_standard_error_is_clustered_when_the_samples_say_how(scored: dict[str, Any]) -> None:
    """inspect's clustered formula (finite-cluster correction) or the plain one, by hand in fractions."""
    scores = scores_of(scored["log"])
    clusters = {item.id: item.cluster or item.id for item in scored["items"] if item.id in scores}
    values = {name: Fraction(1 if score.value == "C" else 0) for name, score in scores.items()}
    mean = sum(values.values()) / len(values)
    if any(item.cluster for item in scored["items"]):
        deviations: dict[str, Fraction] = {}
        for name, value in values.items():
            deviations[clusters[name]] = deviations.get(clusters[name], Fraction(0)) + value - mean
        count = len(deviations)
        assert count < len(values)  # the clusters are not the samples
        expected = math.sqrt(sum(d * d for d in deviations.values()) * count / (count - 1)) / len(values)
    else:
        variance = sum((value - mean) ** 2 for value in values.values()) / (len(values) - 1)
        expected = math.sqrt(variance / len(values))
    stderr = scored["log"].results.scores[0].metrics["cluster_stderr"].value
    assert stderr == pytest.approx(expected, rel=1e-12)


def test_only_a_well_formed_gold_outside_the_protocol_is_left_unscored() -> None:
    """A text answer is outside tatqa-answer/1 (not scored, noted); a corrupt gold is the sample's error."""
    from finscore.answers import GoldError, get_protocol
    from finscore.integrations.inspect_ai.answers_scorer import OutOfProtocol, sample_gold

    protocol = get_protocol("tatqa-answer/1")
    with pytest.raises(OutOfProtocol, match="is not one plain number"):
        sample_gold({GOLD_KEY: {"answer": ["the north"], "answer_type": "span", "scale": ""}}, protocol, "s1")
    with pytest.raises(GoldError, match="sample 's2': scale 'millions' is not one of"):
        sample_gold({GOLD_KEY: {"answer": 12.5, "answer_type": "arithmetic", "scale": "millions"}}, protocol, "s2")
