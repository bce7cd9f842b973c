"""FinanceBench's gold file (`data/financebench_open_source.jsonl`), read into typed questions.

Each line is one question: `financebench_id`, `company`, `doc_name`, `question_type`, `question`,
`answer`, `justification` and `evidence` (a list of `evidence_text`, `doc_name`, `evidence_page_num`
(zero-based PDF page index, the dataset card says), `evidence_text_full_page`). A line that cannot
be used is named with its line number and the field at fault; the other lines are still read and
every problem is listed in one error. The numeric gold of a metrics-generated question is its
`answer` read as a number ("$1577.00", "1.9%", "0.66", "-0.02") with the scale its question asks
for ("in USD millions", "USD billions").
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from finscore.financebench.numbers import scan
from finscore.inputs import FinscoreError

#: The question types the dataset declares.
QUESTION_TYPES = ("metrics-generated", "domain-relevant", "novel-generated")
#: The scale phrases of a question, and the power of ten each asks for.
QUESTION_SCALES: tuple[tuple[str, int], ...] = (("usd thousands", 3), ("usd millions", 6), ("usd billions", 9))
#: The largest gold or results file read (the open-source gold file is 0.9 MB).
MAX_FILE_BYTES = 64 << 20


class FinancebenchInputError(FinscoreError):
    """A FinanceBench gold or results file that cannot be used; every bad line is named."""


class Evidence(NamedTuple):
    text: str
    doc_name: str
    page: int
    full_page: str


class GoldNumber(NamedTuple):
    """A numeric gold: its value as written, its unit ("USD", "percent", "ratio"), the scale the question
    asks for (power of ten, 0 when it names none), and the decimals it shows once trailing zeros go."""

    value: Decimal
    unit: str
    scale: int
    decimals: int


class GoldQuestion(NamedTuple):
    id: str
    company: str
    doc_name: str
    question_type: str
    question: str
    answer: str
    justification: str
    evidence: tuple[Evidence, ...]

    @property
    def number(self) -> GoldNumber | None:
        """The numeric gold of a metrics-generated question whose answer is one number, else None."""
        return numeric_gold(self) if self.question_type == "metrics-generated" else None


def question_scale(question: str) -> int:
    """The power of ten a question asks its USD answer in (0: it names none)."""
    lowered = question.lower()
    return next((power for phrase, power in QUESTION_SCALES if phrase in lowered), 0)


def numeric_gold(question: GoldQuestion) -> GoldNumber | None:
    """The question's answer as one number, or None when it holds none or several."""
    numbers = scan(question.answer)
    if len(numbers) != 1 or question.answer.strip() != question.answer[numbers[0].start:numbers[0].end].strip():
        return None
    number = numbers[0]
    unit = "percent" if number.percent else "USD" if number.dollar else "ratio"
    shown = number.value.normalize() if number.decimals else number.value
    exponent = shown.as_tuple().exponent
    decimals = max(0, -exponent) if isinstance(exponent, int) else 0
    return GoldNumber(number.value, unit, question_scale(question.question) if unit == "USD" else 0, decimals)


def _text(line: int, record: dict[str, Any], field: str, problems: list[str]) -> str:
    value = record.get(field)
    if not isinstance(value, str):
        problems.append(f"line {line}: field {field!r} is not text")
        return ""
    return value


def _evidence(line: int, value: Any, problems: list[str]) -> tuple[Evidence, ...]:
    if not isinstance(value, list):
        problems.append(f"line {line}: field 'evidence' is not a list")
        return ()
    items = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            problems.append(f"line {line}: evidence {index} is not an object")
            continue
        page = item.get("evidence_page_num")
        texts = [item.get(key) for key in ("evidence_text", "doc_name", "evidence_text_full_page")]
        if not all(isinstance(text, str) for text in texts) or not isinstance(page, int) or isinstance(page, bool):
            problems.append(f"line {line}: evidence {index} lacks text evidence_text, doc_name, "
                            f"evidence_text_full_page or an integer evidence_page_num")
            continue
        items.append(Evidence(str(texts[0]), str(texts[1]), page, str(texts[2])))
    return tuple(items)


def gold_questions(lines: list[tuple[int, Any]]) -> dict[str, GoldQuestion]:
    """Typed questions from (line number, decoded line) pairs; every problem listed in one error."""
    problems: list[str] = []
    questions: dict[str, GoldQuestion] = {}
    for line, record in lines:
        if not isinstance(record, dict):
            problems.append(f"line {line}: not a JSON object")
            continue
        fields = [_text(line, record, field, problems) for field in
                  ("financebench_id", "company", "doc_name", "question_type", "question", "answer")]
        justification = record.get("justification")
        evidence = _evidence(line, record.get("evidence"), problems)
        if fields[0] in questions:
            problems.append(f"line {line}: financebench_id {fields[0]!r} repeated")
        if fields[3] and fields[3] not in QUESTION_TYPES:
            problems.append(f"line {line}: question_type {fields[3]!r} is none of {', '.join(QUESTION_TYPES)}")
        if all(fields) or (fields[0] and all(isinstance(record.get(f), str) for f in ("company", "doc_name",
                                                                                    "question_type", "question",
                                                                                    "answer"))):
            identifier, company, doc_name, question_type, question, answer = fields
            questions[identifier] = GoldQuestion(identifier, company, doc_name, question_type, question, answer,
                                                 justification if isinstance(justification, str) else "", evidence)
    if problems:
        raise FinancebenchInputError("the FinanceBench gold file has " + str(len(problems)) + " problem(s): "
                                     + "; ".join(problems[:20]) + (" ..." if len(problems) > 20 else ""))
    return questions


def read_lines(path: str | Path, what: str) -> list[tuple[int, Any]]:
    """A JSON Lines file's (line number, value) pairs through the reading layer; bad lines all named."""
    from finscore.inputs.jsonfiles import PYTHON_UNIQUE_KEYS, JsonFileError, read_json_lines

    try:
        lines = list(read_json_lines(Path(path), MAX_FILE_BYTES, MAX_FILE_BYTES, PYTHON_UNIQUE_KEYS))
    except JsonFileError as error:
        raise FinancebenchInputError(f"the FinanceBench {what} file {str(path)!r}: {error}") from error
    bad = [f"line {line.number}: {line.problem}" for line in lines if line.problem is not None]
    if bad:
        raise FinancebenchInputError(f"the FinanceBench {what} file {str(path)!r} has unreadable lines: "
                                     + "; ".join(bad[:20]))
    return [(line.number, line.value) for line in lines]


def read_gold_file(path: str | Path) -> dict[str, GoldQuestion]:
    """The gold file's questions by financebench_id, in file order."""
    return gold_questions(read_lines(path, "gold"))
