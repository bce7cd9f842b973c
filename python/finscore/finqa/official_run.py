"""How the official evaluator reads a prediction file as given, entry by entry.

FinQA's evaluate.py (and ConvFinQA's evaluate_result) walks every entry in file
order: a repeated id is scored once per entry, and the walk stops with an
exception at the first entry it cannot index (not an object, no "id", an id
the gold file lacks, no "predicted"). The official figures of a report are this
walk's, whatever `--exclude-bad-ids` keeps; exclusions belong to the honest
figures. The lookups are made here with Python's own indexing, so a stop names
the exception the official code raises.

A "predicted" that is not a list of text tokens is still read by the official
code, never raising: text is a sequence of one-character tokens, a list whose
tokens before the last (which is always dropped) are text runs as those, and
anything else is an invalid program that is never equivalent. evaluate.py joins an
equivalent prediction's tokens into text (to print it when it differs from the
gold's), which raises when one of them is not text: `join_error` says what.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made, at start-up; here OfficialStop, OfficialEntry and
# OfficialWalk.

from typing import Any, Callable, NamedTuple, Sequence

from finscore.finqa.inputs import GoldExample


class OfficialStop(NamedTuple):
    """The entry (index in the prediction file) where the official code raises, and what it raises."""

    position: int
    exception: str


class OfficialEntry(NamedTuple):
    """One entry as the official code scores it: `tokens` None is an invalid, never equivalent program;
    `join_error`, what joining a list "predicted" into text raises (a token that is not text), or None."""

    position: int
    gold: GoldExample
    tokens: tuple[str, ...] | None
    join_error: str | None = None


class OfficialWalk(NamedTuple):
    entries: tuple[OfficialEntry, ...]  # every entry before `stop`, in file order
    stop: OfficialStop | None


def official_tokens(predicted: Any) -> tuple[str, ...] | None:
    """The text tokens the official code runs `predicted` as, or None (invalid and not equivalent).

    The last token is dropped unconditionally by both eval_program and equal_program, so
    any value in that place reads as "EOF"; a non-text token before it raises inside
    their try blocks (invalid, not equivalent).
    """
    if isinstance(predicted, str):
        return tuple(predicted)
    if isinstance(predicted, list) and all(isinstance(token, str) for token in predicted[:-1]):
        if predicted and not isinstance(predicted[-1], str):
            return (*predicted[:-1], "EOF")
        return tuple(predicted)
    return None


def walk_predictions(data: Sequence[Any], gold_of: Callable[[Any], GoldExample | None]) -> OfficialWalk:
    """The official walk over decoded prediction entries; `gold_of` finds the gold example an id
    names (None: the official dict lookup raises KeyError)."""
    entries: list[OfficialEntry] = []
    for position, entry in enumerate(data):
        try:
            identifier = entry["id"]
            hash(identifier)  # an unhashable id makes the official dict lookup raise TypeError
            gold = gold_of(identifier)
            if gold is None:
                raise KeyError(identifier)
            predicted = entry["predicted"]
        except (TypeError, KeyError) as error:
            return OfficialWalk(tuple(entries), OfficialStop(position, f"{type(error).__name__}: {error}"))
        if not isinstance(predicted, list):
            entries.append(OfficialEntry(position, gold, official_tokens(predicted)))
            continue
        try:  # evaluate.py joins an equivalent prediction's tokens into text: a token that is not text raises
            "".join(predicted)
        except TypeError as error:
            entries.append(OfficialEntry(position, gold, official_tokens(predicted), f"TypeError: {error}"))
        else:  # a list of text, the common entry, joined in one C pass: it is its own tokens
            entries.append(OfficialEntry(position, gold, tuple(predicted)))
    return OfficialWalk(tuple(entries), None)
