"""FinanceBench answers files: the repository's `results/*.jsonl` format, read as predictions.

One JSON object a line: `financebench_id` and `model_answer` (text, or a JSON number, read as the text
CPython's str() writes of it: one results line answers `0`) are required; `label` (the
human grader's: "Correct Answer", "Incorrect Answer", "Refusal"), `model_name`, `eval_mode` are kept
when present; a citation is optional: `doc_name` with `page` (and `page_convention`, "pdf_index" by
default, or "printed"). Every bad line is named in one error; a repeated id is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from finscore.financebench.gold import FinancebenchInputError, read_lines
from finscore.financebench.support import Citation

#: The human labels of the results files.
LABELS = ("Correct Answer", "Incorrect Answer", "Refusal")


class Answer(NamedTuple):
    id: str
    answer: str
    label: str | None
    model: str | None
    mode: str | None
    citation: Citation | None


def _citation(line: int, record: dict[str, Any], problems: list[str]) -> Citation | None:
    if "doc_name" not in record and "page" not in record:
        return None
    doc_name, page = record.get("doc_name"), record.get("page")
    convention = record.get("page_convention", "pdf_index")
    index_page = convention == "pdf_index" and isinstance(page, int) and not isinstance(page, bool)
    printed_page = convention == "printed" and isinstance(page, (int, str)) and not isinstance(page, bool)
    if not isinstance(doc_name, str) or not (index_page or printed_page):
        problems.append(f"line {line}: a citation is a text doc_name and a page: an integer under page_convention "
                        f"pdf_index (the default), an integer or text (\"F-4\") under printed")
        return None
    assert isinstance(page, (int, str))
    return Citation(doc_name, page, convention)


def answers_from(lines: list[tuple[int, Any]]) -> list[Answer]:
    """Typed answers from (line number, decoded line) pairs, in order; every problem listed in one error."""
    problems: list[str] = []
    answers: list[Answer] = []
    seen: set[str] = set()
    for line, record in lines:
        if not isinstance(record, dict):
            problems.append(f"line {line}: not a JSON object")
            continue
        identifier, text = record.get("financebench_id"), record.get("model_answer")
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            text = str(text)  # a JSON number answer (results/ holds `"model_answer": 0`) is the text it writes
        if not isinstance(identifier, str) or not isinstance(text, str):
            problems.append(f"line {line}: needs text financebench_id and model_answer")
            continue
        if identifier in seen:
            problems.append(f"line {line}: financebench_id {identifier!r} repeated")
            continue
        seen.add(identifier)
        label, model, mode = (record.get(key) for key in ("label", "model_name", "eval_mode"))
        answers.append(Answer(identifier, text, label if isinstance(label, str) else None,
                              model if isinstance(model, str) else None, mode if isinstance(mode, str) else None,
                              _citation(line, record, problems)))
    if problems:
        raise FinancebenchInputError("the FinanceBench answers file has " + str(len(problems)) + " problem(s): "
                                     + "; ".join(problems[:20]) + (" ..." if len(problems) > 20 else ""))
    return answers


def read_answers_file(path: str | Path) -> list[Answer]:
    """The answers of a results file, in file order."""
    return answers_from(read_lines(path, "answers"))


def read_predictions(path: str | Path) -> list[tuple[str, Answer]]:
    """(financebench_id, answer) pairs: the registry's prediction reader."""
    return [(answer.id, answer) for answer in read_answers_file(path)]
