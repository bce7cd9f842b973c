"""The task data: a file the user names, read entry by entry, refused with a message naming the entry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.finqa.inputs import FinqaInputError
from finscore.integrations.lm_eval.documents import TaskDataError, read_documents
from support.cli import write_json
from support.shared import FINQA, TATQA, require


def _finqa_examples(count: int) -> list[dict[str, object]]:
    examples: list[dict[str, object]] = json.loads(require(FINQA / "finqa_dev.json").read_text(encoding="utf-8"))
    return examples[:count]


def test_a_task_without_its_data_file_says_which_metadata_key_names_it() -> None:
    pytest.importorskip("datasets", reason="finscore[lm-eval] is not installed")
    from finscore.integrations.lm_eval.documents import finqa_dataset

    with pytest.raises(TaskDataError, match=r"--metadata '\{\"finqa_file\": "):
        finqa_dataset(version=1, protocol="finqa-answer/1")


def test_a_file_of_another_dataset_is_refused(tmp_path: Path) -> None:
    tatqa = json.loads(require(TATQA / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))[:2]
    with pytest.raises(FinqaInputError, match="finqa-answer/1 reads finqa golds, but the gold file is a tatqa file"):
        read_documents("finqa", write_json(tmp_path / "tatqa.json", tatqa))


def test_an_entry_the_prompt_cannot_show_is_named(tmp_path: Path) -> None:
    examples = _finqa_examples(3)
    examples[1]["table"] = [["revenue", 12.5]]
    with pytest.raises(TaskDataError, match=rf"FinQA example {examples[1]['id']!r}.table\[0\]\[1\] is a float"):
        read_documents("finqa", write_json(tmp_path / "finqa.json", examples))


def test_a_missing_or_broken_file_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(FinqaInputError, match="cannot read"):
        read_documents("finqa", str(tmp_path / "absent.json"))
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    with pytest.raises(FinqaInputError, match="not valid JSON"):
        read_documents("finqa", str(tmp_path / "broken.json"))


def test_every_field_of_a_document_is_text_and_the_gold_is_the_entry_s_own(tmp_path: Path) -> None:
    examples = _finqa_examples(5)
    documents = read_documents("finqa", write_json(tmp_path / "finqa.json", examples))
    assert [d["id"] for d in documents] == [e["id"] for e in examples]
    for document, example in zip(documents, examples):
        assert all(isinstance(value, str) for value in document.values())
        qa = example["qa"]
        assert isinstance(qa, dict)
        assert json.loads(document["gold"])["exe_ans"] == qa["exe_ans"]
        assert document["question"] == qa["question"]


@pytest.mark.parametrize(("kind", "protocol", "golds"), [
    # the golds, worked out here from the examples' tables: 1200 / 1000 revenue, 300 operating income
    ("finqa", "finqa-answer/1", [{"exe_ans": (1200 - 1000) / 1000, "program": "divide(subtract(1200, 1000), 1000)"},
                                 {"exe_ans": "yes" if 300 / 1200 > 0.25 else "no"}]),
    ("convfinqa", "convfinqa-answer/1", [{"exe_ans": 1000.0}, {"exe_ans": float(1200 - 1000)}]),
    # 1,315 / 1,102 service revenue and 5,240 / 4,870 product sales, in thousands
    ("tatqa", "tatqa-answer/1", [{"answer": 1315 - 1102, "scale": "thousand", "answer_type": "arithmetic"},
                                 {"answer": round((5240 - 4870) / 4870 * 100, 2), "scale": "percent",
                                  "answer_type": "arithmetic"}]),
])
def test_each_few_shot_example_answers_its_own_question_right(kind: str, protocol: str,
                                                               golds: list[dict[str, object]]) -> None:
    from finscore.answers import decide
    from finscore.integrations.lm_eval.prompts import FEWSHOT

    for example, gold in zip(FEWSHOT[kind], golds, strict=True):
        decision = decide(example["target"], gold, protocol, "answer-line")
        assert decision.passed, (example["question"], decision)
