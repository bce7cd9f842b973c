"""The lm-evaluation-harness tasks report what `finscore answers` reports on the same completions.

A fixed-answer model, registered with lm_eval's `register_model`, answers a few dozen
FinQA examples, ConvFinQA turns and TAT-QA questions of tests/data with scripted
completions (right answers in several spellings, wrong ones, empty and garbage text).
lm_eval runs the three tasks offline; the oracle is the `finscore answers` command run on
the same completions against the same gold file: accuracy, every reason's share, each
document's reason and the protocol stamp must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

lm_eval = pytest.importorskip("lm_eval", reason="finscore[lm-eval] is not installed")

from lm_eval.tasks import TaskManager  # noqa: E402
from support.scripted_lm import MODEL_NAME, ScriptedLM  # noqa: E402

from finscore.integrations.lm_eval import TASKS, task_directory  # noqa: E402
from support.cli import run_command, write_json  # noqa: E402
from support.shared import CONVFINQA, FINQA, TATQA, require  # noqa: E402

REASONS = ("exact", "within_tolerance", "percent_declared", "no_final_answer", "unparseable", "several_numbers",
           "scale_off", "percent_vs_ratio", "sign_flipped", "rounding", "wrong_value", "wrong_yes_no",
           "missing_prediction")
PROTOCOL = {"finscore_finqa": "finqa-answer/1", "finscore_convfinqa": "convfinqa-answer/1",
            "finscore_tatqa": "tatqa-answer/1"}
DATA_KEY = {"finscore_finqa": "finqa_file", "finscore_convfinqa": "convfinqa_file", "finscore_tatqa": "tatqa_file"}


def _number(raw: Any) -> float | None:
    """The gold as a Python number, read by Python alone (the test's own view, not finscore's)."""
    if isinstance(raw, list) and len(raw) == 1:
        raw = raw[0]
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return float(raw)
    if isinstance(raw, str):
        try:
            return float(raw.replace(",", "").replace("$", "").replace("%", "").strip())
        except ValueError:
            return None
    return None


def scripted(position: int, raw: Any) -> str:
    """The completion for the gold at `position`: the kinds cycle, so a few dozen documents see each of them."""
    value = _number(raw)
    if value is None:  # yes / no, or a text answer
        word = str(raw[0] if isinstance(raw, list) else raw)
        kinds = [f"Answer: {word}", f"Answer: {'no' if word == 'yes' else 'yes'}", "", "Answer: yes and no"]
        return kinds[position % len(kinds)]
    kinds = [
        f"Answer: {raw[0] if isinstance(raw, list) else raw}",  # as the gold writes it
        f"The figure follows from the table.\n**Final Answer:** {value:,}",
        f"Answer: ${value}",
        f"Answer: {-value}",
        f"Answer: {value * 1000}",
        f"Answer: {value + 1}",
        "",
        "I cannot tell from the report.",
        "Answer: 3, 7",
        "Answer: NaN",
        f"Answer: {value * 100}%",
        f"Answer: {round(value, 1)}",
        "\x00\ufffd garbage ∞ ((((( Answer",
        f"answer: ({value})",
    ]
    return kinds[position % len(kinds)]


def _subsets(folder: Path) -> dict[str, tuple[Path, list[Any], dict[str, str]]]:
    """For each task: (gold file of a few dozen documents, its entries, completion by id)."""
    finqa = json.loads(require(FINQA / "finqa_test.json").read_text(encoding="utf-8"))[:36]
    convfinqa = json.loads(require(CONVFINQA / "convfinqa_dev.json").read_text(encoding="utf-8"))[:8]
    tatqa = json.loads(require(TATQA / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))[:10]
    golds: dict[str, list[tuple[str, Any]]] = {
        "finscore_finqa": [(example["id"], example["qa"]["exe_ans"]) for example in finqa],
        "finscore_convfinqa": [(f"{conversation['id']}#t{turn}", answer) for conversation in convfinqa
                               for turn, answer in enumerate(conversation["annotation"]["exe_ans_list"])],
        "finscore_tatqa": [(question["uid"], question["answer"]) for document in tatqa
                           for question in document["questions"]],
    }
    data = {"finscore_finqa": finqa, "finscore_convfinqa": convfinqa, "finscore_tatqa": tatqa}
    subsets = {}
    for task in TASKS:
        path = Path(write_json(folder / f"{task}.json", data[task]))
        subsets[task] = (path, data[task], {name: scripted(i, raw) for i, (name, raw) in enumerate(golds[task])})
    return subsets


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """lm_eval's results for the three tasks, and the subsets they ran on."""
    subsets = _subsets(tmp_path_factory.mktemp("lm-eval-data"))
    ScriptedLM.completions = {name: text for _, _, completions in subsets.values() for name, text in completions.items()}
    manager = TaskManager(include_path=str(task_directory()), include_defaults=False,
                          metadata={DATA_KEY[task]: str(path) for task, (path, _, _) in subsets.items()})
    results = lm_eval.simple_evaluate(model=MODEL_NAME, tasks=list(TASKS), task_manager=manager,
                                      bootstrap_iters=0, log_samples=True)
    return {"results": results, "subsets": subsets}


def _oracle(task: str, path: Path, completions: dict[str, str], folder: Path,
            capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """`finscore answers --json` on the same completions and the same gold file."""
    predictions = folder / "predictions.jsonl"
    predictions.write_text("".join(json.dumps({"id": name, "completion": text}) + "\n"
                                   for name, text in completions.items()), encoding="utf-8")
    report = folder / "report.json"
    status, _, err = run_command("answers", capsys, "--protocol", PROTOCOL[task], "--format", "answer-line",
                                 str(predictions), str(path), "--json", str(report), "--quiet")
    assert status == 0, err
    return dict(json.loads(report.read_text(encoding="utf-8")))


@pytest.fixture
def report(task: str, runs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The oracle's report for the task's subset and scripted completions."""
    path, _, completions = runs["subsets"][task]
    return _oracle(task, path, completions, tmp_path, capsys)


def assert_same_figures(figures: dict[str, Any], report: dict[str, Any]) -> None:
    """lm_eval's aggregated metrics equal the report's accuracy and each reason's count over the golds."""
    assert set(report["reasons"]) == set(REASONS)
    assert figures["acc,none"] == report["accuracy"]
    for reason in REASONS:
        assert figures[f"reason_{reason},none"] == report["reasons"][reason] / report["counts"]["golds"], reason


@pytest.mark.essential
@pytest.mark.parametrize("task", TASKS)
def test_the_figures_equal_finscore_answers_on_the_same_completions(
        task: str, runs: dict[str, Any], report: dict[str, Any]) -> None:
    golds = report["counts"]["golds"]
    assert golds >= 24 and runs["results"]["n-samples"][task]["effective"] == golds
    assert_same_figures(runs["results"]["results"][task], report)
    # the scripted completions reach passes and many kinds of miss, so the equality above means something
    assert 0 < report["counts"]["passed"] < golds
    assert sum(count > 0 for count in report["reasons"].values()) >= 6


@pytest.mark.essential
@pytest.mark.parametrize("task", TASKS)
def test_each_document_has_the_reason_and_the_stamp_of_finscore_answers(
        task: str, runs: dict[str, Any], report: dict[str, Any]) -> None:
    expected = {decision["id"]: decision["reason"] for decision in report["decisions"]}
    samples = runs["results"]["samples"][task]
    logged = {}
    for sample in samples:
        reasons = [reason for reason in REASONS if sample[f"reason_{reason}"] == 1.0]
        assert len(reasons) == 1 and sample["acc"] == float(reasons[0] in REASONS[:3])
        logged[sample["doc"]["id"]] = reasons[0]
        assert json.loads(sample["doc"]["stamp"]) == report["stamp"]
        assert sample["doc"]["protocol"] == report["protocol"]["name"]
    assert logged == expected


def test_the_prompts_carry_the_report_and_the_dialogue_so_far(runs: dict[str, Any]) -> None:
    _, conversations, _ = runs["subsets"]["finscore_convfinqa"]
    conversation = conversations[0]
    questions = conversation["annotation"]["dialogue_break"]
    prompt = ScriptedLM.prompts[f"{conversation['id']}#t2"]
    assert prompt.index(questions[0]) < prompt.index(questions[1]) < prompt.rindex(questions[2])
    assert f"A: {conversation['annotation']['exe_ans_list'][1]}" in prompt
    assert all(cell.strip() in prompt for row in conversation["table"] for cell in row)
    _, documents, _ = runs["subsets"]["finscore_tatqa"]
    scored = [q for q in documents[0]["questions"] if q["uid"] in ScriptedLM.prompts]
    prompt = ScriptedLM.prompts[scored[0]["uid"]]
    assert all(paragraph["text"] in prompt for paragraph in documents[0]["paragraphs"])
    assert all(cell.strip() in prompt for row in documents[0]["table"]["table"] for cell in row)
    assert prompt.rstrip().endswith("with its unit (thousand, million) when you use another one.")


def test_few_shot_examples_come_first_and_in_order(runs: dict[str, Any]) -> None:
    from finscore.integrations.lm_eval.prompts import finqa_fewshot

    path, examples, _ = runs["subsets"]["finscore_finqa"]
    manager = TaskManager(include_path=str(task_directory()), include_defaults=False,
                          metadata={"finqa_file": str(path)})
    lm_eval.simple_evaluate(model=MODEL_NAME, tasks=["finscore_finqa"], task_manager=manager,
                            num_fewshot=2, limit=2, bootstrap_iters=0)
    prompt = ScriptedLM.prompts[examples[0]["id"]]
    shots = finqa_fewshot()
    first, second = (prompt.index(shot["question"]) for shot in shots)
    assert first < prompt.index(shots[0]["target"]) < second < prompt.index(shots[1]["target"])
    assert prompt.index(shots[1]["target"]) < prompt.index(examples[0]["qa"]["question"])
    assert prompt.count("Report:\n") == 3


@pytest.mark.essential
def test_the_documented_command_runs_with_lm_eval_s_own_dummy_model(
        runs: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lm_eval --include_path "$(python -m finscore.integrations.lm_eval)" --metadata ...` as docs/lm-eval.md shows."""
    path = runs["subsets"]["finscore_tatqa"][0]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(task_directory().parents[3]),
                                                                              os.environ.get("PYTHONPATH")]))}
    folder = subprocess.run([sys.executable, "-m", "finscore.integrations.lm_eval"], capture_output=True, text=True,
                            check=True, env=environment, timeout=120).stdout.strip()
    ran = subprocess.run([sys.executable, "-m", "lm_eval", "--model", "dummy", "--tasks", "finscore_tatqa",
                          "--include_path", folder, "--metadata", json.dumps({"tatqa_file": str(path)}),
                          "--output_path", str(tmp_path / "out"), "--log_samples"],
                         capture_output=True, text=True, env=environment, timeout=300, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr[-3000:]
    figures = json.loads(next((tmp_path / "out").rglob("results_*.json")).read_text(encoding="utf-8"))
    figures = figures["results"]["finscore_tatqa"]
    # the oracle: finscore answers on what lm_eval logged as the dummy model's completions
    samples = next((tmp_path / "out").rglob("samples_finscore_tatqa_*.jsonl")).read_text(encoding="utf-8")
    completions = {row["doc"]["id"]: row["resps"][0][0] for row in map(json.loads, samples.splitlines())}
    oracle = _oracle("finscore_tatqa", path, completions, tmp_path, capsys)
    assert oracle["counts"]["golds"] == len(completions) >= 24
    assert_same_figures(figures, oracle)
