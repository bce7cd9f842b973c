"""The id of one ConvFinQA turn, `<conversation id>#t<turn index from 0>`.

A pure rule about the shape of an id, shared by every reader that names turns:
the ConvFinQA scorer (`convfinqa.turns`) and answer scoring (`answers.gold_files`),
which must not import a benchmark's folder. Written once so that the two can
never name the same turn differently.
"""

from __future__ import annotations

TURN_MARK = "#t"


def turn_id(conversation_id: str, turn: int) -> str:
    """The id of one ConvFinQA turn, e.g. Single_MRO/2007/page_134.pdf-1#t0."""
    return f"{conversation_id}{TURN_MARK}{turn}"


def split_turn_id(identifier: str) -> tuple[str, int]:
    """(conversation id, turn index) of a turn id made by `turn_id`."""
    conversation, _, turn = identifier.rpartition(TURN_MARK)
    return conversation, int(turn)
