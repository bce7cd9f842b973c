"""The FinanceMath-style lm-eval task: FinanceMath's own prompt, scored under financemath-answer/1
in the phrase format, run offline through lm_eval's own code.

FinanceMath's data is not shippable, so the test writes a small file of its own in the shape of
FinanceMath's data/validation.json (question_id, question, tables, python_solution, ground_truth,
topic), a few entries with FinanceReasoning's `context` instead of tables. Oracles: the prompt as
FinanceMath's `prepare_cot_model_input` builds it (yale-nlp/FinanceMath, utils/model_input_utils.py,
rewritten here from that source), completions decided here by hand under the protocol's written
phrase rule, and `finscore answers decide-jsonl` on the same completions and golds (the figures
lm_eval reports must be the command's).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

lm_eval = pytest.importorskip("lm_eval", reason="finscore[lm-eval] is not installed")

from lm_eval.tasks import TaskManager  # noqa: E402
from support.scripted_lm import MODEL_NAME, ScriptedLM  # noqa: E402

from finscore.cli import main  # noqa: E402
from finscore.integrations.lm_eval import FINANCEMATH_TASK, task_directory  # noqa: E402
from finscore.integrations.lm_eval.documents import TaskDataError, financemath_dataset, financemath_documents  # noqa: E402

pytestmark = pytest.mark.essential

REASONS = ("exact", "within_tolerance", "percent_declared", "no_final_answer", "unparseable", "several_numbers",
           "scale_off", "percent_vs_ratio", "sign_flipped", "rounding", "wrong_value", "wrong_yes_no",
           "missing_prediction")
TABLE = ("|               |      Truck     |     Land    |\n|---------------|:---------------:|:-------------:|\n"
         "| Original cost |     $ 57,000    |    $ 18,000   |\n| Current fair value |     $ 27,000    |    $ 21,000   |")


def _entry(index: int, question: str, ground_truth: Any, tables: list[str] | None = None,
           context: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"question_id": f"validation-{index}", "question": question,
                             "tables": tables or [], "python_solution": "def solution():\n    return 0",
                             "ground_truth": ground_truth, "topic": "Accounting"}
    if context is not None:
        entry["context"] = context
    return entry


#: (entry, completion, passed, reason): each completion decided by hand under the phrase rule
#: ("the answer is" or "final answer is", the last one, to the end of its sentence).
CASES = [
    (_entry(0, "The loss the company reports on the exchange is most likely:", -8184.0, [TABLE]),
     "The carrying value is 57,000 * 0.8^3 = 29,184. The loss is 21,000 - 29,184.\n"
     "Therefore, the answer is -8184.", True, "exact"),
    (_entry(1, "What is the bond's price today?", 1250.5),
     "Summing the discounted flows, the answer is 1,250.5.", True, "exact"),
    (_entry(2, "What is the bond's price today?", 1250.5),
     "Therefore, the answer is 1300.", False, "wrong_value"),
    (_entry(3, "What is the bond's price today?", 1250.5),
     "The price is 1250.5.", False, "no_final_answer"),
    (_entry(4, "What is the bond's price today?", 1250.5),
     "Therefore, the answer is -1250.5.", False, "sign_flipped"),
    (_entry(5, "What is the net income (in millions)?", 39.0, [TABLE]),
     "**Final answer is** 39 million.", True, "exact"),
    (_entry(6, "Is the project worth undertaking?", True, context="The NPV of the project is 120 at 8%."),
     "The NPV is positive. Therefore, the answer is yes.", True, "exact"),
    (_entry(7, "Is the project worth undertaking?", False, context="The NPV of the project is -3 at 8%."),
     "Therefore, the answer is yes.", False, "wrong_yes_no"),
    (_entry(8, "What is the bond's price today?", 1250.5), "", False, "no_final_answer"),
    (_entry(9, "What is the bond's price today?", 1250.5),
     "Therefore, the answer is 1250.5 or 1300.", False, "several_numbers"),
]


def financemath_prompt(example: dict[str, Any]) -> str:
    """FinanceMath's prepare_cot_model_input, its two parts joined as it joins them for a model
    without a system role (system_input + "\\n" + user_input)."""
    system_input = ("You are a financial expert, you are supposed to answer the given question. You need to first "
                    "think through the problem step by step, documenting each necessary step. Then you are "
                    "required to conclude your response with the final answer in your last sentence as "
                    "'Therefore, the answer is {final answer}'. The final answer should be a numeric value.")
    if example["tables"]:
        table_input = "Table:\n"
        table_input += "\n\n".join(example["tables"]) + "\n"
        question_input = f"{table_input}\nQuestion: {example['question']}\n"
    else:
        question_input = f"Question: {example['question']}\n"
    program_prefix_input = "Let\'s think step by step to answer the given question.\n"
    user_input = "\n".join([question_input, program_prefix_input])
    return system_input + "\n" + user_input


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """lm_eval's results for the task on the test's own FinanceMath-style file."""
    folder = tmp_path_factory.mktemp("financemath")
    path = folder / "validation.json"
    path.write_text(json.dumps([entry for entry, *_ in CASES]), encoding="utf-8")
    ScriptedLM.completions = {entry["question_id"]: completion for entry, completion, *_ in CASES}
    manager = TaskManager(include_path=str(task_directory()), include_defaults=False,
                          metadata={"financemath_file": str(path)})
    results = lm_eval.simple_evaluate(model=MODEL_NAME, tasks=[FINANCEMATH_TASK],
                                      task_manager=manager, bootstrap_iters=0, log_samples=True)
    return {"results": results, "path": path}


def test_each_document_is_decided_as_the_phrase_rule_says(run: dict[str, Any]) -> None:
    samples = {sample["doc"]["id"]: sample for sample in run["results"]["samples"][FINANCEMATH_TASK]}
    assert len(samples) == len(CASES)
    for entry, completion, passed, reason in CASES:
        sample = samples[entry["question_id"]]
        assert sample["acc"] == float(passed), completion
        assert [r for r in REASONS if sample[f"reason_{r}"] == 1.0] == [reason], completion
        assert sample["doc"]["protocol"] == "financemath-answer/1" and sample["doc"]["answer_format"] == "phrase"
        assert json.loads(sample["doc"]["gold"]) == {"ground_truth": entry["ground_truth"],
                                                     "question": entry["question"]}


def test_the_prompt_is_financemaths_own(run: dict[str, Any]) -> None:
    for entry, *_ in CASES:
        if "context" in entry:  # FinanceReasoning's context: before the question, FinanceMath's words around it
            prompt = ScriptedLM.prompts[entry["question_id"]]
            assert f"{entry['context']}\n\nQuestion: {entry['question']}\n" in prompt
            assert prompt.endswith("\nLet's think step by step to answer the given question.\n")
            continue
        assert ScriptedLM.prompts[entry["question_id"]] == financemath_prompt(entry)


def test_the_figures_are_finscore_answers_decide_jsonl_on_the_same_completions(
        run: dict[str, Any], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = "".join(json.dumps({"completion": completion, "gold": {"ground_truth": entry["ground_truth"],
                                                                     "question": entry["question"]}}) + "\n"
                    for entry, completion, *_ in CASES)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines.encode("utf-8")), encoding="utf-8"))
    assert main(["answers", "decide-jsonl", "--protocol", "financemath-answer/1", "--format", "phrase"]) == 0
    decisions = [json.loads(line)["decision"] for line in capsys.readouterr().out.splitlines()]
    figures = run["results"]["results"][FINANCEMATH_TASK]
    assert figures["acc,none"] == pytest.approx(sum(d["passed"] for d in decisions) / len(CASES))
    for reason in REASONS:
        share = sum(d["reason"] == reason for d in decisions) / len(CASES)
        assert figures[f"reason_{reason},none"] == pytest.approx(share), reason
    samples = run["results"]["samples"][FINANCEMATH_TASK]
    stamp = json.loads(samples[0]["doc"]["stamp"])
    assert stamp["protocol"] == "financemath-answer/1" and "lenient" not in stamp


def test_the_task_is_zero_shot_as_financemath_evaluates(run: dict[str, Any]) -> None:
    manager = TaskManager(include_path=str(task_directory()), include_defaults=False,
                          metadata={"financemath_file": str(run["path"])})
    # lm_eval's own refusal (lm_eval/api/samplers.py): there is no example to sample, none from the data
    with pytest.raises(AssertionError, match="number of fewshot samples requested exceeds the 0 that are available"):
        lm_eval.simple_evaluate(model=MODEL_NAME, tasks=[FINANCEMATH_TASK],
                                task_manager=manager, num_fewshot=1, limit=1, bootstrap_iters=0)


def test_the_data_file_is_named_by_the_user() -> None:
    with pytest.raises(TaskDataError, match=r"--metadata '\{\"financemath_file\": "):
        financemath_dataset(version=1, protocol="financemath-answer/1")


def test_an_unusable_entry_is_named(tmp_path: Path) -> None:
    with pytest.raises(TaskDataError, match=r"FinanceMath entry 1 \('validation-1'\) has no ground_truth"):
        financemath_documents([_entry(0, "q?", 1.0), {"question_id": "validation-1", "question": "q?"}])
    with pytest.raises(TaskDataError, match=r"FinanceMath entry 0 \('v'\).tables\[0\] is a int"):
        financemath_documents([{"question_id": "v", "question": "q?", "ground_truth": 1.0, "tables": [3]}])
    with pytest.raises(TaskDataError, match="FinanceMath entry 0 \\('v'\\): ground_truth"):
        financemath_documents([{"question_id": "v", "question": "q?", "ground_truth": "12"}])
    with pytest.raises(TaskDataError, match="entries 0 and 1 have the same question_id 'v'"):
        financemath_documents([{"question_id": "v", "question": "q?", "ground_truth": 1.0}] * 2)
