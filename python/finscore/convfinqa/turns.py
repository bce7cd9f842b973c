"""The turns of a ConvFinQA conversation file, and the ids that name them.

A ConvFinQA file (dev.json as released) holds conversations: `id`, `table`, and
`annotation` with one gold program per turn (`turn_program`) and its answer
(`exe_ans_list`). Scoring is per turn, so each turn becomes one gold example of
FinQA's machinery, with the id `<conversation id>#t<turn index from 0>`
(`Single_MRO/2007/page_134.pdf-1#t0`). The authors' turn-level files name the
same turn `<conversation id>_<turn index>` (`Single_MRO/2007/page_134.pdf-1_0`);
a prediction may use either form, and is reported under the first.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (Conversation is made at start-up).

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

from finscore.engine.reader.tokens import tokenize_gold_program
from finscore.finqa.inputs import (GoldExample, GoldFile, MalformedEntry, PredictionFile, table_row_problem,
                                   unique_entries)
from finscore.inputs.naming import LISTS_AND_TEXTS, json_type
# The id shape is defined once, in inputs; importable from here still.
from finscore.inputs.turn_ids import TURN_MARK as TURN_MARK, split_turn_id as split_turn_id, turn_id as turn_id

SINGLE, DOUBLE = "Single", "Double"
#: The turn-level files' form: `<conversation id>_<turn index>` (no leading zeros).
_TURN_FILE_ID = re.compile(r"(.+)_(0|[1-9][0-9]{0,5})")


def conversation_type(conversation_id: str) -> str:
    """Single (one FinQA question decomposed) or Double (two), from the id's prefix; else "other"."""
    prefix = conversation_id.split("_", 1)[0]
    return prefix if prefix in (SINGLE, DOUBLE) else "other"


class Conversation(NamedTuple):
    id: str
    kind: str  # SINGLE, DOUBLE or "other"
    turns: int


@dataclass(frozen=True)
class TurnFile:
    """Every gold turn (as FinQA gold examples, in file order) and the conversations."""

    gold: GoldFile
    conversations: tuple[Conversation, ...]


def _is_answer(value: Any) -> bool:
    return isinstance(value, (str, float, int)) and not isinstance(value, bool)


def _conversation_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return f"is a JSON {json_type(entry, LISTS_AND_TEXTS)}, not an object"
    if not isinstance(entry.get("id"), str) or not entry["id"]:
        return 'has no text "id"'
    if TURN_MARK in entry["id"]:
        return f'has an id holding {TURN_MARK!r}, which turn ids use'
    if not isinstance(entry.get("table"), list):
        return 'has no "table" list'
    odd_row = table_row_problem(entry["table"])
    if odd_row is not None:
        return odd_row
    annotation = entry.get("annotation")
    if not isinstance(annotation, dict):
        return 'has no "annotation" object'
    programs, answers = annotation.get("turn_program"), annotation.get("exe_ans_list")
    if not isinstance(programs, list) or not all(isinstance(p, str) for p in programs):
        return 'has no "annotation.turn_program" list of text'
    if not isinstance(answers, list) or len(answers) != len(programs):
        return '"annotation.exe_ans_list" is not a list with one answer per turn'
    for turn, answer in enumerate(answers):
        if not _is_answer(answer):
            return f"turn {turn} has a gold answer that is a JSON {json_type(answer, LISTS_AND_TEXTS)}, not a number or text"
    if not programs:
        return "has no turns"
    return None


def read_conversations(data: Any) -> TurnFile:
    """Check a ConvFinQA conversation file and list its turns; FinqaInputError naming every bad entry."""
    examples: list[GoldExample] = []
    conversations: list[Conversation] = []
    for entry in unique_entries(data, _conversation_problem, "ConvFinQA", "conversations", "conversation id(s)"):
        conversation_id, annotation = entry["id"], entry["annotation"]
        for turn, (program, answer) in enumerate(zip(annotation["turn_program"], annotation["exe_ans_list"])):
            examples.append(GoldExample(turn_id(conversation_id, turn), entry["table"], program,
                                        tuple(tokenize_gold_program(program)), answer))
        conversations.append(Conversation(conversation_id, conversation_type(conversation_id),
                                          len(annotation["turn_program"])))
    return TurnFile(GoldFile(tuple(examples)), tuple(conversations))


def canonical_id(identifier: str, known: set[str] | frozenset[str]) -> str:
    """A prediction id as a gold turn id: itself if known, else the turn-file form
    `<conversation>_<turn>` rewritten as `<conversation>#t<turn>` when that is known."""
    if identifier in known:
        return identifier
    match = _TURN_FILE_ID.fullmatch(identifier)
    if match is not None:
        candidate = turn_id(match.group(1), int(match.group(2)))
        if candidate in known:
            return candidate
    return identifier


def with_canonical_ids(predictions: PredictionFile, gold: GoldFile) -> PredictionFile:
    """The prediction file with every id that names a gold turn in the turn-file form
    rewritten to the turn id, so that joining sees one name per turn (a turn predicted
    under both forms is then a duplicate, as it should be)."""
    known = frozenset(example.id for example in gold.examples)
    entries = tuple(entry._replace(id=canonical_id(entry.id, known)) for entry in predictions.entries)
    malformed = tuple(
        entry if entry.id is None else MalformedEntry(entry.position, canonical_id(entry.id, known), entry.reason)
        for entry in predictions.malformed)
    return PredictionFile(entries, malformed)
