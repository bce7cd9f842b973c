"""Prediction files for answer scoring: JSON Lines of {"id", "completion"} or {"id", "answer"}.

Every line is kept: a line that is not such an object becomes a malformed entry
with its reason, and the join then names unknown and repeated ids the way
`finscore finqa` does (reject the file, or exclude and report with
--exclude-bad-ids). A gold left without a usable prediction is a
missing_prediction failure, counted in the denominator.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from finscore.scoring.exclusions import MALFORMED_ENTRY, Exclusion
from finscore.scoring.errors import PredictionsRejected
from finscore.scoring.joining import ID_WORDS, Candidate, join_keys
from finscore.inputs.reading import DuplicateKeyError, JsonSyntax, loads, numbered_lines

COMPLETION, ANSWER = "completion", "answer"
#: Every number as Decimal (an "answer" number keeps the digits it was written with); NaN and
#: Infinity in an "answer" stay text (the reader refuses them as unparseable); a repeated key is refused
#: (one line, one meaning: the reading layer's rule for every file).
PREDICTION_LINE_SYNTAX = JsonSyntax("all_decimal", "text", "refuse")


@dataclass(frozen=True)
class AnswerPrediction:
    id: str
    text: str  # the completion, or the answer given directly
    field: str  # COMPLETION or ANSWER: an answer is read whole, without looking for a marker
    position: int  # line number, from 1


def _entry(line: str, position: int) -> AnswerPrediction | Exclusion:
    try:
        data = loads(line, PREDICTION_LINE_SYNTAX)
    except DuplicateKeyError as error:
        return Exclusion(position, None, MALFORMED_ENTRY, f"a JSON object that gives the key {error.key!r} twice")
    except (ValueError, RecursionError) as error:
        return Exclusion(position, None, MALFORMED_ENTRY, f"not a JSON object ({error})")
    if not isinstance(data, dict):
        return Exclusion(position, None, MALFORMED_ENTRY, "not a JSON object")
    name = data.get("id")
    if not isinstance(name, str):
        return Exclusion(position, None, MALFORMED_ENTRY, 'no text "id"')
    fields = [f for f in (COMPLETION, ANSWER) if f in data]
    if len(fields) != 1:
        return Exclusion(position, name, MALFORMED_ENTRY, 'needs exactly one of "completion" and "answer"')
    text = data[fields[0]]
    if fields[0] == ANSWER and isinstance(text, bool):
        text = "yes" if text else "no"
    elif fields[0] == ANSWER and isinstance(text, Decimal):
        text = str(text)
    if not isinstance(text, str):
        return Exclusion(position, name, MALFORMED_ENTRY, f'"{fields[0]}" is not text')
    return AnswerPrediction(name, text, fields[0], position)


def read_prediction_lines(raw: bytes) -> tuple[list[AnswerPrediction], list[Exclusion], int]:
    """(usable entries, malformed entries, lines read); empty lines are skipped, nothing else is
    (a first line holding only a byte-order mark is not empty: it is a malformed entry)."""
    good: list[AnswerPrediction] = []
    bad: list[Exclusion] = []
    lines = 0
    for line in numbered_lines(raw, bom_line_is_blank=False):
        lines += 1
        if line.text is None:
            start = line.not_utf8.byte_after_bom if line.not_utf8 is not None else 0
            bad.append(Exclusion(line.number, None, MALFORMED_ENTRY, f"not UTF-8 text (byte {start})"))
            continue
        entry = _entry(line.text, line.number)
        if isinstance(entry, AnswerPrediction):
            good.append(entry)
        else:
            bad.append(entry)
    return good, bad, lines


#: An answer file names its entries by line: copies are told apart by line number.
ANSWER_WORDS = ID_WORDS.copies_named(
    repeats=lambda first: f"repeats line {first} (identical, first kept)",
    conflicts=lambda position, copies: f"lines {', '.join(map(str, copies))} differ: none kept",
)


def join_answer_predictions(good: list[AnswerPrediction], bad: list[Exclusion], gold_ids: set[str], *,
                            exclude_bad: bool) -> tuple[dict[str, AnswerPrediction], list[Exclusion]]:
    """(prediction by gold id, exclusions); raises PredictionsRejected unless `exclude_bad`."""
    by_line = {entry.position: entry for entry in good}
    joined = join_keys([Candidate(e.position, e.id, None, (e.text, e.field)) for e in good], gold_ids, ANSWER_WORDS,
                       bad)
    if joined.exclusions and not exclude_bad:
        raise PredictionsRejected(joined.exclusions, joined.copies)
    return {name: by_line[line] for name, line in joined.kept.items()}, list(joined.exclusions)


def describe_exclusion(exclusion: Exclusion) -> dict[str, Any]:
    return {"line": exclusion.position, "id": exclusion.id, "kind": exclusion.kind, "detail": exclusion.detail}
