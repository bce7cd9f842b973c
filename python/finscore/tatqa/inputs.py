"""Gold questions and prediction entries as decoded JSON, checked one by one.

A gold file that is not TAT-QA is always an error (every denominator depends
on it). A prediction entry that is not `uid: [answer, scale]` with text (or a
list of texts) and a text scale is kept with its reason, never dropped: the
join decides whether that stops the run or is a reported exclusion. Numbers,
null, booleans, objects and NaN are refused as answers even though the
official script turns them into text with `str()`, because that text depends
on how a JSON reader spells the value.
"""

from __future__ import annotations

from typing import Any

from finscore.inputs.naming import LISTS_TEXTS_AND_NUMBERS, json_type
# Defined here once; importable from here still.
from finscore.inputs.naming import LISTED_IN_MESSAGES as LISTED_IN_MESSAGES, listing as listing
from finscore.tatqa.files import TatqaInputError
from finscore.tatqa.metric import ANSWER_SOURCES, ANSWER_TYPES, SCALES, gold_strings_of
from finscore.tatqa.numbers import OfficialCrash



# The records of a scoring run are plain classes with __slots__: a typing.NamedTuple class
# costs about twenty times as much to create, and a run creates a dozen at import.


class GoldQuestion:
    """One gold question; `record` is the whole question object, as the official details keep it,
    `gold_strings` what the official metric compares predictions with."""

    __slots__ = ("uid", "question", "answer", "answer_type", "answer_from", "scale", "record", "gold_strings")

    def __init__(self, uid: str, question: str, answer: Any, answer_type: str | None, answer_from: str | None,
                 scale: str,
                 record: dict[str, Any], gold_strings: tuple[str, ...]) -> None:
        self.uid = uid
        self.question = question
        self.answer = answer  # as the gold file holds it
        self.answer_type = answer_type
        self.answer_from = answer_from
        self.scale = scale
        self.record = record
        self.gold_strings = gold_strings


class Entry:
    """One top-level pair of a prediction file; `position` is its index among the pairs, `problem`
    why it cannot be scored honestly (or None)."""

    __slots__ = ("uid", "value", "position", "problem")

    def __init__(self, uid: str, value: Any, position: int, problem: str | None) -> None:
        self.uid = uid
        self.value = value
        self.position = position
        self.problem = problem


def type_name(value: Any) -> str:
    """A JSON value's type in the words of TAT-QA's messages ("list", "text", "number", "NaN")."""
    return json_type(value, LISTS_TEXTS_AND_NUMBERS)


def _answer_problem(answer: Any) -> str | None:
    if isinstance(answer, str):
        return None
    if isinstance(answer, list):
        for index, item in enumerate(answer):
            if not isinstance(item, str):
                return (f"item {index} of the answer is a JSON {type_name(item)} ({item!r}), not text "
                        "(the official script would score str() of it)")
        return None
    return (f"the answer is a JSON {type_name(answer)} ({answer!r}), not text or a list of texts "
            "(the official script would score str() of it)")


def entry_problem(value: Any) -> str | None:
    """Why a prediction value is not `[answer, scale]` with text answers and a text scale, or None."""
    if not isinstance(value, list):
        return f"the value is a JSON {type_name(value)}, not a list [answer, scale]"
    if len(value) != 2:
        return f"the value is a list of {len(value)} items, not [answer, scale]"
    problem = _answer_problem(value[0])
    if problem is not None:
        return problem
    if not isinstance(value[1], str):
        return f"the scale is a JSON {type_name(value[1])} ({value[1]!r}), not text"
    return None


def read_entries(data: Any, pairs: list[tuple[str, Any]] | None) -> list[Entry]:
    """The prediction file's pairs, each checked; `pairs` keeps repeated uids (see files.decode_predictions)."""
    if not isinstance(data, dict) or pairs is None:
        raise TatqaInputError(
            f"a prediction file is a JSON object {{uid: [answer, scale], ...}}, not a JSON {type_name(data)}")
    return [Entry(uid, value, position, entry_problem(value)) for position, (uid, value) in enumerate(pairs)]


def question_problem(question: Any, *, whole: bool = True, official_pair: bool = False) -> str | None:
    """Why a gold question cannot be scored, or None; `whole=False` asks only what one decision needs,
    among the dataset's four answer types (the answer protocols read the type); `official_pair` asks
    what one official TaTQAEmAndF1() call needs (any text or null answer type: the metric scores
    those pairs too, as `finscore tatqa` scores such files).

    Its answer is checked apart (_gold_strings), where its gold strings are made once.
    """
    if not isinstance(question, dict):
        return f"is a JSON {type_name(question)}, not an object"
    if whole and not isinstance(question.get("uid"), str):
        return 'has no text "uid"'
    if whole or official_pair:
        # A whole file is scored as tatqa_eval.py scores it: any text label is a pivot row or
        # column of its own, a null one leaves its question out of the pivot tables
        # (gold_warnings names them all).
        if "answer_type" not in question:
            return 'has no "answer_type" (the official metric raises KeyError on it)'
        for key in ("answer_type", "answer_from") if whole else ("answer_type",):
            label = question.get(key)
            if label is not None and not isinstance(label, str):
                return (f'has "{key}" {label!r}, not text or null' + (
                    " (pandas sorts labels of other types its own way in the official pivot tables)" if whole else ""))
        checked: tuple[tuple[str, tuple[str, ...]], ...] = (("scale", SCALES),)
    else:
        checked = (("answer_type", ANSWER_TYPES), ("scale", SCALES))
    for key, allowed in checked:
        if question.get(key) not in allowed:
            return f'has "{key}" {question.get(key)!r}, not one of {", ".join(map(repr, allowed))}'
    if "answer" not in question:
        return 'has no "answer"'
    return None


def _gold_strings(question: dict[str, Any]) -> tuple[str, ...] | str:
    """The question's gold strings, or why the official metric cannot read its answer."""
    try:
        return gold_strings_of(question)
    except OfficialCrash as crash:
        return f"has an answer the official metric cannot read ({crash})"


def read_gold(data: Any) -> list[GoldQuestion]:
    """Every question of a TAT-QA file (a list of documents with "questions"), in file order.

    A repeated uid keeps every question that has it, as tatqa_eval.py scores each (gold_warnings names them).
    """
    if not isinstance(data, list):
        raise TatqaInputError(f"the gold file is not TAT-QA: a JSON {type_name(data)}, not a list of documents")
    problems: list[str] = []
    questions: list[GoldQuestion] = []
    for document_index, document in enumerate(data):
        if not isinstance(document, dict) or not isinstance(document.get("questions"), list):
            problems.append(f"document {document_index} has no \"questions\" list")
            continue
        for question_index, question in enumerate(document["questions"]):
            where = f"document {document_index} question {question_index}"
            problem = question_problem(question)
            strings: tuple[str, ...] = ()
            if problem is None:
                readable = _gold_strings(question)
                if isinstance(readable, str):
                    problem = readable
                else:
                    strings = readable
            if problem is not None:
                uid = question.get("uid") if isinstance(question, dict) else None
                problems.append(f"{where}" + (f" (uid {uid!r})" if isinstance(uid, str) else "") + f" {problem}")
                continue
            text = question.get("question")
            questions.append(GoldQuestion(question["uid"], text if isinstance(text, str) else "", question["answer"],
                                          question["answer_type"], question.get("answer_from"), question["scale"],
                                          question, strings))
    if problems:
        raise TatqaInputError(f"the gold file is not TAT-QA ({len(problems)} problem(s)): " + listing(problems))
    if not questions:
        raise TatqaInputError("the gold file holds no questions")
    if all(q.answer_type is None or q.answer_from is None for q in questions):
        raise TatqaInputError("no gold question has both an answer_type and an answer_from: the official pivot "
                              "tables would be empty frames, which finscore does not print")
    return questions


def gold_warnings(questions: list[GoldQuestion]) -> tuple[str, ...]:
    """What tatqa_eval.py scores without a word but a reader should know: repeated uids, and labels
    outside the known answer types and sources (each scored and tabulated as the official script does)."""
    positions: dict[str, list[int]] = {}
    for position, question in enumerate(questions):
        positions.setdefault(question.uid, []).append(position)
    repeated = [f"{uid!r} (questions {', '.join(map(str, found))} in file order)" for uid, found in positions.items()
                if len(found) > 1]
    warnings = []
    if repeated:
        warnings.append(f"the gold file repeats {len(repeated)} uid(s); as officially, each of their questions is "
                        "scored and counted, all with the uid's one prediction: " + listing(repeated))
    for key, known, scored in (
            ("answer_type", ANSWER_TYPES, "its gold is str() of its answer, its F1 its own"),
            ("answer_from", ANSWER_SOURCES, "a pivot column of its own")):
        labels = [getattr(question, key) for question in questions]
        odd = sorted({label for label in labels if label is not None} - set(known))
        if odd:
            count = sum(label in odd for label in labels)
            warnings.append(f"{count} question(s) have an {key} outside {', '.join(known)}; as officially, each is "
                            f"scored ({scored}) and tabulated under its label: " + listing([repr(v) for v in odd]))
        unlabelled = [question.uid for question, label in zip(questions, labels) if label is None]
        if unlabelled:
            warnings.append(f"{len(unlabelled)} question(s) have no {key} (null or missing); as officially, each is "
                            "scored and counted, and left out of the pivot tables: "
                            + listing([repr(uid) for uid in unlabelled]))
    return tuple(warnings)
