"""The files `finscore protocols compare` reads, per benchmark; every bad entry named, nothing dropped.

Predictions (the shape is told by the file's first character: `[` a JSON document, else JSON lines):

- any benchmark: JSON lines of `{"id", "completion"}`; for FinanceMath also an optional `"extracted"`
  (the answer the peers' own LLM extraction took from the completion), given on every line or none;
- FinQA: the official evaluator's prediction file, `[{"id", "predicted": [tokens]}]`; each token list
  is written as the program text it is the tokenization of (`subtract(5829, 5735), divide(#0, 5735)`),
  and a list no program text tokenizes back to exactly is refused, so HELM reads the same tokens;
- FinanceMath: a stored output file of the peer, `[{"question_id", "output", "extracted_pred_answer"?}]`
  (`outputs/validation/raw_cot_outputs/<model>.json` or `processed_cot_outputs/<model>.json`); the
  completion is `output` (text, or the first of its list of texts), the extracted answer
  `extracted_pred_answer` (on every entry or on none).

ConvFinQA takes FinQA's shapes, its ids the turn ids `<conversation>#t<turn>` (or `<conversation>_<turn>`).

Gold: FinQA's `[{"id", "table", "qa": {"program", "exe_ans"}}]`; ConvFinQA's conversations (`dev.json`:
`[{"id", "table", "annotation": {"turn_program", "exe_ans_list"}}]`, one gold example a turn); FinanceMath's `data/validation.json`,
`[{"question_id", "question", "ground_truth": number or boolean}]`.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, NamedTuple

from finscore.inputs.naming import listing


class CompareInputError(ValueError):
    """A predictions or gold file `compare` cannot use, with every bad entry named."""


class Given(NamedTuple):
    """One example's completion, and the answer the peers extracted from it (None: not given)."""

    completion: str
    extracted: str | None


def _raise(problems: list[str], what: str) -> None:
    if problems:
        raise CompareInputError(f"{what}: {'; '.join(problems[:20])}"
                                + (f"; and {len(problems) - 20} more" if len(problems) > 20 else ""))


def read_completion_lines(source: Any, optional: Iterable[str] = ()) -> dict[str, dict[str, Any]]:
    """{"id", "completion"} JSON lines (a binary stream), with the `optional` text fields -> id -> the
    line's fields; a CompareInputError names every line that is not such an object (numbered from 1),
    every id given twice, and an optional field given on some lines only."""
    from finscore.inputs.lines import json_lines, problem_words

    extra = tuple(optional)
    found: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for line in json_lines(source):
        if line.problem == "blank":
            continue
        if line.problem is not None:
            problems.append(f"line {line.number}: {problem_words(line)}")
            continue
        value = line.value
        if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not isinstance(
                value.get("completion"), str):
            problems.append(f'line {line.number}: not an object with a text "id" and a text "completion"')
        elif any(name in value and not isinstance(value[name], str) for name in extra):
            problems.append(f"line {line.number}: " + ", ".join(
                f'"{name}" is not text' for name in extra if name in value and not isinstance(value[name], str)))
        elif value["id"] in found:
            problems.append(f"line {line.number}: id {value['id']!r} given again")
        else:
            found[value["id"]] = {"completion": value["completion"], "number": line.number,
                                  **{name: value[name] for name in extra if name in value}}
    for name in extra:
        lacking = [f"line {fields['number']}" for fields in found.values() if name not in fields]
        if lacking and len(lacking) < len(found):
            problems.append(f'"{name}" is given on some lines but not on {listing(lacking)}')
    _raise(problems, "the predictions file")
    return found


def starts_a_document(path: str) -> bool:
    """Whether the file's first character (after a byte-order mark and white space) is `[`."""
    with open(path, "rb") as source:
        head = source.read(4096)
    return head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"["


def _program_text(tokens: list[str]) -> str | None:
    """The program text FinQA's tokenization turns into exactly `tokens` (EOF last), else None."""
    from finscore.engine.reader.tokens import tokenize_gold_program

    body = tokens[:-1] if tokens and tokens[-1] == "EOF" else tokens
    pieces: list[str] = []
    for index, token in enumerate(body):
        if index and not body[index - 1].endswith("(") and token != ")":
            pieces.append(", ")
        pieces.append(token)
    text = "".join(pieces)
    return text if tokenize_gold_program(text) == body + ["EOF"] else None


def finqa_predictions(data: Any) -> dict[str, str]:
    """The official FinQA prediction file -> id -> program text (see the module docstring)."""
    if not isinstance(data, list):
        raise CompareInputError(f"the predictions file is not a list of {{\"id\", \"predicted\"}} (a JSON "
                                f"{type(data).__name__})")
    found: dict[str, str] = {}
    problems: list[str] = []
    for position, entry in enumerate(data):
        tokens = entry.get("predicted") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not isinstance(tokens, list) \
                or not all(isinstance(token, str) for token in tokens):
            problems.append(f'entry {position}: not an object with a text "id" and a list of texts "predicted"')
            continue
        text = _program_text(tokens)
        if text is None:
            problems.append(f"entry {position} ({entry['id']!r}): no program text tokenizes to its tokens")
        elif entry["id"] in found:
            problems.append(f"entry {position}: id {entry['id']!r} given again")
        else:
            found[entry["id"]] = text
    _raise(problems, "the predictions file")
    return found


def financemath_outputs(data: Any) -> dict[str, Given]:
    """A FinanceMath stored output file -> question id -> Given (see the module docstring)."""
    if not isinstance(data, list):
        raise CompareInputError(f"the predictions file is not a list of {{\"question_id\", \"output\"}} (a JSON "
                                f"{type(data).__name__})")
    found: dict[str, Given] = {}
    problems: list[str] = []
    extracted_on = 0
    for position, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("question_id"), str):
            problems.append(f'entry {position}: not an object with a text "question_id"')
            continue
        name = f"entry {position} ({entry['question_id']!r})"
        output = entry.get("output")
        if isinstance(output, list) and output and isinstance(output[0], str):
            output = output[0]
        if not isinstance(output, str):
            problems.append(f'{name}: "output" is neither text nor a list whose first item is text')
            continue
        extracted = entry.get("extracted_pred_answer")
        if extracted is not None and not isinstance(extracted, str):
            problems.append(f'{name}: "extracted_pred_answer" is not text')
            continue
        if entry["question_id"] in found:
            problems.append(f"{name}: given again")
            continue
        extracted_on += extracted is not None
        found[entry["question_id"]] = Given(output, extracted)
    if 0 < extracted_on < len(found):
        lacking = [qid for qid, given in found.items() if given.extracted is None]
        problems.append(f'"extracted_pred_answer" is given on some entries but not on {listing(lacking)}')
    _raise(problems, "the predictions file")
    return found


def read_predictions(path: str, benchmark: str) -> Mapping[str, Any]:
    """The predictions file at `path` for `benchmark` (FinQA, ConvFinQA: id -> text; FinanceMath: id -> Given)."""
    from finscore.finqa.files import read_json_file

    if starts_a_document(path):
        data = read_json_file(path, "predictions file")
        return financemath_outputs(data) if benchmark == "financemath" else finqa_predictions(data)
    with open(path, "rb") as source:
        if benchmark != "financemath":
            return {key: fields["completion"] for key, fields in read_completion_lines(source).items()}
        lines = read_completion_lines(source, ("extracted",))
    return {key: Given(fields["completion"], fields.get("extracted")) for key, fields in lines.items()}


def with_turn_ids(completions: Mapping[str, Any], gold: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """ConvFinQA: completions named in the turn-file form `<conversation>_<turn>` renamed to the gold's
    `<conversation>#t<turn>`; a turn named in both forms is a CompareInputError."""
    from finscore.convfinqa.turns import canonical_id

    known = frozenset(example["id"] for example in gold)
    renamed: dict[str, Any] = {}
    problems = []
    for key, value in completions.items():
        name = canonical_id(key, known)
        if name in renamed:
            problems.append(f"{key!r} names the turn {name!r} given again")
        renamed[name] = value
    _raise(problems, "the predictions file")
    return renamed


def _finqa_problem(example: Any) -> str | None:
    if not isinstance(example, dict) or not isinstance(example.get("id"), str):
        return 'has no text "id"'
    qa = example.get("qa")
    if not isinstance(example.get("table"), list) or not isinstance(qa, dict) or not isinstance(
            qa.get("program"), str) or "exe_ans" not in qa:
        return 'has no list "table" and "qa" with a text "program" and an "exe_ans"'
    return None


def _financemath_problem(example: Any) -> str | None:
    if not isinstance(example, dict) or not isinstance(example.get("id"), str):
        return 'has no text "question_id"'
    truth = example.get("ground_truth")
    if not isinstance(example.get("question"), str) or not isinstance(truth, (int, float, bool)):
        return f'({example["id"]!r}) has no text "question" and a number or boolean "ground_truth"'
    return None


def read_gold(path: str, benchmark: str) -> list[Any]:
    """The gold examples, each with an "id" (FinanceMath's `question_id`); FinqaInputError naming every
    bad entry otherwise."""
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import unique_entries

    data = read_json_file(path, "gold file")
    if benchmark == "finqa":
        return unique_entries(data, _finqa_problem, "FinQA", "examples")
    if benchmark == "convfinqa":
        from finscore.convfinqa.turns import read_conversations

        return [{"id": turn.id, "table": turn.table, "qa": {"program": turn.program, "exe_ans": turn.answer}}
                for turn in read_conversations(data).gold.examples]
    if isinstance(data, list):
        data = [{**entry, "id": entry["question_id"]} if isinstance(entry, dict) and isinstance(
            entry.get("question_id"), str) else entry for entry in data]
    return unique_entries(data, _financemath_problem, "FinanceMath", "questions", "question ids")
