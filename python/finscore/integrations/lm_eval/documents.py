"""The documents of the lm_eval tasks, read from the user's FinQA, ConvFinQA or TAT-QA file.

A task's `custom_dataset` function gets lm_eval's task metadata (which `--metadata`
extends per run) and reads the file named there. The golds come from the same reader
`finscore answers` uses (`read_answer_golds`), so both see the same ids, the same golds
and the same denominator: one document per FinQA example, per ConvFinQA turn, per
TAT-QA question whose answer is one number (the others are outside the protocol and
are not scored, as in `finscore answers`). Every field of a document is text, so the
varied JSON types of the raw files (a number or "yes" as a FinQA answer; a list, a text
or a number as a TAT-QA answer) never meet Arrow's one-type-per-column rule.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from finscore.answers.decide import reader_for
from finscore.answers.gold_files import CONVFINQA, FINQA, TATQA, AnswerGoldFile, GoldEntry, read_answer_golds
from finscore.answers.registry import get_protocol
from finscore.answers.stamp import make_stamp
from finscore.registry import answer_protocols
from finscore.finqa.files import read_json_file
from finscore.finqa.inputs import FinqaInputError

#: The metadata key naming each task's data file, and the protocol its answers are decided under.
DATA_KEYS = {FINQA: "finqa_file", CONVFINQA: "convfinqa_file", TATQA: "tatqa_file"}
#: (each benchmark's answer protocol, from its registry descriptor)
PROTOCOLS = {kind: answer_protocols()[kind] for kind in (FINQA, CONVFINQA, TATQA)}
SPLIT = "eval"
#: A cell, sentence or paragraph longer than this is refused: no report excerpt is that long.
MAX_TEXT_CHARS = 200_000

Document = dict[str, str]


class TaskDataError(FinqaInputError):
    """The task's data file is not named, cannot be read, or holds an entry the prompt cannot show."""


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise TaskDataError(f"{where} is a {type(value).__name__}, not text")
    if len(value) > MAX_TEXT_CHARS:
        raise TaskDataError(f"{where} is longer than {MAX_TEXT_CHARS} characters")
    return value


def _texts(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TaskDataError(f"{where} is a {type(value).__name__}, not a list of texts")
    return [_text(item, f"{where}[{index}]") for index, item in enumerate(value)]


def render_table(table: Any, where: str) -> str:
    """A table (a list of rows of cells) as pipe-separated lines, one per row."""
    if not isinstance(table, list):
        raise TaskDataError(f"{where} is a {type(table).__name__}, not a list of rows")
    return "\n".join("| " + " | ".join(cell.strip() for cell in _texts(row, f"{where}[{index}]")) + " |"
                     for index, row in enumerate(table))


def _report(entry: dict[str, Any], where: str) -> str:
    """A FinQA / ConvFinQA report excerpt: the text before the table, the table, the text after."""
    parts = [" ".join(_texts(entry.get("pre_text"), f"{where}.pre_text")),
             render_table(entry.get("table", []), f"{where}.table"),
             " ".join(_texts(entry.get("post_text"), f"{where}.post_text"))]
    return "\n\n".join(part for part in parts if part.strip())


def _tatqa_context(document: dict[str, Any], where: str) -> str:
    """A TAT-QA context: its table, then its paragraphs in their stated order."""
    table = document.get("table")
    rows = table.get("table") if isinstance(table, dict) else None
    paragraphs = document.get("paragraphs", [])
    if not isinstance(paragraphs, list) or not all(isinstance(p, dict) for p in paragraphs):
        raise TaskDataError(f"{where}.paragraphs is not a list of objects")
    ordered = sorted(paragraphs, key=lambda p: p.get("order") if isinstance(p.get("order"), int) else 0)
    texts = [_text(p.get("text"), f"{where}.paragraphs (order {p.get('order')!r}).text") for p in ordered]
    return "\n\n".join([render_table(rows, f"{where}.table.table"), *texts])


def _gold_mapping(kind: str, entry: GoldEntry, raw: dict[str, Any]) -> dict[str, Any]:
    """The gold as `finscore answers decide-jsonl` takes it, read the way its gold file reader reads it."""
    if kind == TATQA:
        return {"answer": raw["answer"], "scale": raw.get("scale", ""), "answer_type": raw.get("answer_type"),
                "question": entry.question}
    return {"exe_ans": raw["exe_ans"], "program": str(raw.get("program", "")), "question": entry.question,
            "answer": str(raw.get("answer", ""))}


def _document(kind: str, entry: GoldEntry, context: str, dialogue: str, raw_gold: dict[str, Any],
              stamp: str) -> Document:
    assert entry.gold is not None
    return {"id": entry.id, "protocol": PROTOCOLS[kind], "context": context, "dialogue": dialogue,
            "question": entry.question, "gold": json.dumps(_gold_mapping(kind, entry, raw_gold), ensure_ascii=False),
            "gold_text": entry.gold.text, "target": f"Answer: {entry.gold.text}", "stamp": stamp}


def _finqa(data: list[Any], golds: AnswerGoldFile, stamp: str) -> list[Document]:
    return [_document(FINQA, entry, _report(example, f"FinQA example {entry.id!r}"), "", example["qa"], stamp)
            for example, entry in zip(data, golds.entries, strict=True)]


def _convfinqa(data: list[Any], golds: AnswerGoldFile, stamp: str) -> list[Document]:
    entries = iter(golds.entries)
    documents = []
    for conversation in data:
        where = f"ConvFinQA conversation {conversation['id']!r}"
        context, notes = _report(conversation, where), conversation["annotation"]
        so_far: list[str] = []
        for answer, program in zip(notes["exe_ans_list"], notes["turn_program"]):
            entry = next(entries)
            raw = {"exe_ans": answer, "program": program}
            documents.append(_document(CONVFINQA, entry, context, "\n".join(so_far), raw, stamp))
            assert entry.gold is not None
            so_far.append(f"Q: {entry.question}\nA: {entry.gold.text}")
    return documents


def _tatqa(data: list[Any], golds: AnswerGoldFile, stamp: str) -> list[Document]:
    by_id = golds.by_id()
    documents = []
    for position, document in enumerate(data):
        context: str | None = None
        for question in document["questions"]:
            entry = by_id[question["uid"]]
            if entry.gold is None:
                continue  # outside the protocol (a text or multi-span answer): not scored, as in `finscore answers`
            if context is None:
                context = _tatqa_context(document, f"TAT-QA entry {position}")
            documents.append(_document(TATQA, entry, context, "", question, stamp))
    return documents


BUILDERS: dict[str, Callable[[list[Any], AnswerGoldFile, str], list[Document]]] = {
    FINQA: _finqa, CONVFINQA: _convfinqa, TATQA: _tatqa}


def read_documents(kind: str, path: str) -> list[Document]:
    """Every scored document of a FinQA, ConvFinQA or TAT-QA file, in file order.

    Raises FinqaInputError (TaskDataError, or the gold reader's GoldFileError) naming the file or entry."""
    return documents_of(kind, read_json_file(path, f"{kind} data file"))


def documents_of(kind: str, data: Any) -> list[Document]:
    """Every scored document of a decoded FinQA, ConvFinQA or TAT-QA file (errors as `read_documents`)."""
    protocol = get_protocol(PROTOCOLS[kind])
    golds = read_answer_golds(data, protocol, reader_for(protocol))  # refuses a file of another dataset
    stamp = json.dumps(make_stamp(protocol), sort_keys=True)
    return BUILDERS[kind](data, golds, stamp)


def data_path(kind: str, metadata: dict[str, Any]) -> str:
    """The data file named in the task metadata (lm_eval's --metadata), or a TaskDataError saying how."""
    key = DATA_KEYS[kind]
    path = metadata.get(key)
    if not isinstance(path, str) or not path:
        raise TaskDataError(f"no {kind} data file: name it with --metadata '{{\"{key}\": \"/path/to/file.json\"}}' "
                            "(see docs/lm-eval.md)")
    return path


def dataset(kind: str, metadata: dict[str, Any]) -> Any:
    """The task's dataset, as lm_eval's custom_dataset returns it: {split: datasets.Dataset}."""
    import datasets  # lm_eval's own dependency: imported only when a task loads its documents

    documents = read_documents(kind, data_path(kind, metadata))
    if not documents:
        raise TaskDataError(f"the {kind} data file has no question finscore's {PROTOCOLS[kind]} can score")
    return datasets.DatasetDict({SPLIT: datasets.Dataset.from_list(documents)})


def finqa_dataset(**metadata: Any) -> Any:
    return dataset(FINQA, metadata)


def convfinqa_dataset(**metadata: Any) -> Any:
    return dataset(CONVFINQA, metadata)


def tatqa_dataset(**metadata: Any) -> Any:
    return dataset(TATQA, metadata)
