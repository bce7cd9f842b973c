"""The documents of the lm_eval tasks, read from the user's FinQA, ConvFinQA or TAT-QA file.

A task's `custom_dataset` function gets lm_eval's task metadata (which `--metadata`
extends per run) and reads the file named there. The golds come from the same reader
`finscore answers` uses (`read_answer_golds`), so both see the same ids, the same golds
and the same denominator: one document per FinQA example, per ConvFinQA turn, per
TAT-QA question whose answer is one number (the others are outside the protocol and
are not scored, as in `finscore answers`). Every field of a document is text, so the
varied JSON types of the raw files (a number or "yes" as a FinQA answer; a list, a text
or a number as a TAT-QA answer) never meet Arrow's one-type-per-column rule.

FinanceMath (`financemath_documents`) is no registered benchmark (its data has no licence to
ship, and `finscore answers` reads no file of it): the task reads a FinanceMath-style validation
file the user names, each entry a question with its solution's result, and scores it under
financemath-answer/1 in the `phrase` format its prompt asks for ("Therefore, the answer is ...").
"""

from __future__ import annotations

import json
from typing import Any, Callable

from finscore.answers.decide import as_gold, reader_for
from finscore.answers.gold import GoldError
from finscore.answers.protocol import Protocol
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
#: The FinanceMath-style task: its metadata key, protocol and the answer format its prompt asks for.
FINANCEMATH_DATA_KEY = "financemath_file"
FINANCEMATH_PROTOCOL = "financemath-answer/1"
FINANCEMATH_FORMAT = "phrase"
#: The most entries a FinanceMath-style file may hold (FinanceMath's test split has 1,000).
MAX_FINANCEMATH_ENTRIES = 100_000

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


def _financemath_document(entry: Any, position: int, protocol: Protocol, stamp: str) -> Document:
    """One FinanceMath-style entry: {"question", "ground_truth", "question_id"?, "tables"?, "context"?}."""
    where = f"FinanceMath entry {position}"
    if not isinstance(entry, dict):
        raise TaskDataError(f"{where} is a {type(entry).__name__}, not an object")
    name = entry.get("question_id", entry.get("id", str(position)))
    name = _text(name, f"{where}.question_id")
    where = f"FinanceMath entry {position} ({name!r})"
    question = _text(entry.get("question"), f"{where}.question")
    if "ground_truth" not in entry:
        raise TaskDataError(f"{where} has no ground_truth")
    gold = {"ground_truth": entry["ground_truth"], "question": question}
    try:
        read = as_gold(gold, protocol)
    except GoldError as error:
        raise TaskDataError(f"{where}: {error}") from None
    context = _text(entry.get("context", ""), f"{where}.context")
    tables = _texts(entry.get("tables"), f"{where}.tables")
    return {"id": name, "protocol": protocol.name, "answer_format": FINANCEMATH_FORMAT, "context": context,
            "tables": "\n\n".join(tables), "question": question, "gold": json.dumps(gold, ensure_ascii=False),
            "gold_text": read.text, "target": f"Therefore, the answer is {read.text}.", "stamp": stamp}


def financemath_documents(data: Any) -> list[Document]:
    """One document per entry of a decoded FinanceMath-style file (a list, as FinanceMath's
    data/validation.json), in file order; TaskDataError naming the entry it cannot use."""
    if not isinstance(data, list):
        raise TaskDataError(f"a FinanceMath-style file is a list of questions, not a {type(data).__name__}")
    if len(data) > MAX_FINANCEMATH_ENTRIES:
        raise TaskDataError(f"a FinanceMath-style file holds at most {MAX_FINANCEMATH_ENTRIES:,} entries")
    protocol = get_protocol(FINANCEMATH_PROTOCOL)
    stamp = json.dumps(make_stamp(protocol, FINANCEMATH_FORMAT), sort_keys=True)
    documents: list[Document] = []
    seen: dict[str, int] = {}
    for position, entry in enumerate(data):
        document = _financemath_document(entry, position, protocol, stamp)
        if document["id"] in seen:
            raise TaskDataError(f"FinanceMath entries {seen[document['id']]} and {position} have the same "
                                f"question_id {document['id']!r}")
        seen[document["id"]] = position
        documents.append(document)
    return documents


def financemath_dataset(**metadata: Any) -> Any:
    """The FinanceMath-style task's dataset, from the file named by --metadata's financemath_file."""
    import datasets  # lm_eval's own dependency: imported only when a task loads its documents

    path = metadata.get(FINANCEMATH_DATA_KEY)
    if not isinstance(path, str) or not path:
        raise TaskDataError(f"no FinanceMath-style data file: name it with --metadata "
                            f"'{{\"{FINANCEMATH_DATA_KEY}\": \"/path/to/validation.json\"}}' (see docs/lm-eval.md)")
    documents = financemath_documents(read_json_file(path, "FinanceMath-style data file"))
    if not documents:
        raise TaskDataError("the FinanceMath-style data file holds no question")
    return datasets.DatasetDict({SPLIT: datasets.Dataset.from_list(documents)})


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
