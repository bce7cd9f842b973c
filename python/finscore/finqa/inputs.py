"""Prediction and gold data as decoded JSON, checked entry by entry.

These functions take values already decoded from JSON (not paths), so the
browser playground can hand them the same data under Pyodide. A prediction
entry that cannot be scored is kept with its reason rather than dropped: the
join decides whether that is an error or a reported exclusion. A gold file that
is not FinQA is always an error, because every denominator depends on it.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (Prediction and GoldExample are made at start-up).

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.engine.text_input import first_row_not_a_list
from finscore.inputs.naming import LISTS_AND_TEXTS, json_type
# Defined here once; importable from here still.
from finscore.inputs.naming import LISTED_IN_MESSAGES as LISTED_IN_MESSAGES, listing as listing
# The shared scoring layer's input error; importable from here still.
from finscore.scoring.errors import FinqaInputError as FinqaInputError


class Prediction(NamedTuple):
    """One usable entry of a prediction file; `position` is its index in the file."""

    id: str
    tokens: tuple[str, ...]
    position: int


@dataclass(frozen=True)
class MalformedEntry:
    """An entry of a prediction file that is not `{"id": text, "predicted": [text, ...]}`."""

    position: int
    id: str | None  # the entry's id when it has a usable one
    reason: str


@dataclass(frozen=True)
class PredictionFile:
    entries: tuple[Prediction, ...]
    malformed: tuple[MalformedEntry, ...]

    @property
    def size(self) -> int:
        """Entries in the file, usable or not."""
        return len(self.entries) + len(self.malformed)


class GoldExample(NamedTuple):
    id: str
    table: list[Any]
    program: str
    tokens: tuple[str, ...]  # the gold program tokenized as the official evaluator does
    answer: Any  # qa.exe_ans exactly as decoded from JSON: the official comparison uses ==


@dataclass(frozen=True)
class GoldFile:
    examples: tuple[GoldExample, ...]

    def by_id(self) -> dict[str, GoldExample]:
        return {example.id: example for example in self.examples}


def _type_name(value: Any) -> str:
    return json_type(value, LISTS_AND_TEXTS)


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"the entry is a JSON {_type_name(entry)}, not an object"
    if "id" not in entry:
        return 'the entry has no "id"'
    if not isinstance(entry["id"], str):
        return f'"id" is a JSON {_type_name(entry["id"])}, not text'
    if "predicted" not in entry:
        return 'the entry has no "predicted"'
    tokens = entry["predicted"]
    if not isinstance(tokens, list):
        return f'"predicted" is a JSON {_type_name(tokens)}, not a list of tokens'
    for index, token in enumerate(tokens):
        if not isinstance(token, str):
            return f'token {index} of "predicted" is a JSON {_type_name(token)}, not text'
    return None


def read_predictions(data: Any) -> PredictionFile:
    """Check the official prediction format: a JSON list of {"id", "predicted": [tokens]}."""
    if not isinstance(data, list):
        raise FinqaInputError(
            f'a prediction file is a JSON list of {{"id", "predicted"}} objects, not a JSON {_type_name(data)}'
        )
    if not data:
        raise FinqaInputError("the prediction file holds no predictions (an empty list)")
    entries: list[Prediction] = []
    malformed: list[MalformedEntry] = []
    for position, entry in enumerate(data):
        problem = _entry_problem(entry)
        if problem is None:
            entries.append(Prediction(entry["id"], tuple(entry["predicted"]), position))
        else:
            usable_id = entry.get("id") if isinstance(entry, dict) and isinstance(entry.get("id"), str) else None
            malformed.append(MalformedEntry(position, usable_id, problem))
    return PredictionFile(tuple(entries), tuple(malformed))


def table_row_problem(table: list[Any]) -> str | None:
    """Why a gold "table" list cannot be read (its first row that is not a list), or None."""
    odd_row = first_row_not_a_list(table)
    if odd_row is None:
        return None
    return f'has a "table" row {odd_row} that is a JSON {_type_name(table[odd_row])}, not a list'


def _gold_problem(example: Any) -> str | None:
    if not isinstance(example, dict):
        return f"is a JSON {_type_name(example)}, not an object"
    if not isinstance(example.get("id"), str):
        return 'has no text "id"'
    if not isinstance(example.get("table"), list):
        return 'has no "table" list'
    odd_row = table_row_problem(example["table"])
    if odd_row is not None:
        return odd_row
    qa = example.get("qa")
    if not isinstance(qa, dict):
        return 'has no "qa" object'
    if not isinstance(qa.get("program"), str):
        return 'has no text "qa.program"'
    if "exe_ans" not in qa:
        return 'has no "qa.exe_ans"'
    return None


def _is_finqa_example(entry: Any) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("qa"), dict) and "program" in entry["qa"]
            and "annotation" not in entry)


def _is_convfinqa_conversation(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("annotation"), dict)


#: The other benchmark a gold file may be by mistake: (how to tell its entries, its name, its command).
_SIBLINGS: dict[str, tuple[Callable[[Any], bool], str, str, str]] = {
    "ConvFinQA": (_is_finqa_example, "FinQA", "finscore finqa", 'a "qa" with a "program" and no "annotation"'),
    "FinQA": (_is_convfinqa_conversation, "ConvFinQA", "finscore convfinqa", 'an "annotation" object'),
}


def sibling_file(data: list[Any], kind: str) -> str | None:
    """One line naming the other benchmark when every entry of a `kind` gold file that is wrong
    for `kind` is one of its entries (a FinQA file given to `finscore convfinqa`, or the converse)."""
    sibling = _SIBLINGS.get(kind)
    if sibling is None or not data:
        return None
    is_entry, name, command, mark = sibling
    if not all(is_entry(entry) for entry in data):
        return None
    return (f"the gold file is a {name} file, not {kind}: each of its {len(data)} entries has {mark}; "
            f"score it with `{command}`")


def unique_entries(data: Any, problem_of: Callable[[Any], str | None], kind: str, units: str,
                   ids: str = "id(s)") -> list[Any]:
    """The entries of a gold file (a non-empty JSON list of `units`), each checked by
    `problem_of` and with a unique "id"; FinqaInputError naming every bad entry otherwise."""
    if not isinstance(data, list):
        raise FinqaInputError(f"the gold file is not {kind}: a JSON {_type_name(data)}, not a list of {units}")
    if not data:
        raise FinqaInputError(f"the gold file holds no {units} (an empty list)")
    problems: list[str] = []
    seen: dict[str, int] = {}
    duplicates: list[str] = []
    entries: list[Any] = []
    for position, entry in enumerate(data):
        problem = problem_of(entry)
        if problem is not None:
            problems.append(f"entry {position} {problem}")
        elif entry["id"] in seen:
            duplicates.append(f"{entry['id']!r} (entries {seen[entry['id']]} and {position})")
        else:
            seen[entry["id"]] = position
            entries.append(entry)
    if problems:
        sibling = sibling_file(data, kind) if len(problems) == len(data) else None
        if sibling is not None:
            raise FinqaInputError(sibling)
        raise FinqaInputError(
            f"the gold file is not {kind} ({len(problems)} of {len(data)} entries): " + listing(problems)
        )
    if duplicates:
        raise FinqaInputError(f"the gold file repeats {len(duplicates)} {ids}: " + listing(duplicates))
    return entries


def read_gold(data: Any) -> GoldFile:
    """Check a FinQA file: a list of examples with id, table, qa.program and qa.exe_ans, ids unique."""
    examples = []
    for example in unique_entries(data, _gold_problem, "FinQA", "examples"):
        qa = example["qa"]
        tokens = tuple(tokenize_gold_program(qa["program"]))
        examples.append(GoldExample(example["id"], example["table"], qa["program"], tokens, qa["exe_ans"]))
    return GoldFile(tuple(examples))
