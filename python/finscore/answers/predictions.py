"""Prediction files for answer scoring: JSON Lines of {"id", "completion"} or {"id", "answer"}.

Every line is kept: a line that is not such an object becomes a malformed entry
with its reason, and the join then names unknown and repeated ids the way
`finscore finqa` does (reject the file, or exclude and report with
--exclude-bad-ids). A gold left without a usable prediction is a
missing_prediction failure, counted in the denominator.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from finscore.exclusions import DUPLICATE_ID, MALFORMED_ENTRY, UNKNOWN_ID
from finscore.finqa.joining import Exclusion, PredictionsRejected

COMPLETION, ANSWER = "completion", "answer"


@dataclass(frozen=True)
class AnswerPrediction:
    id: str
    text: str  # the completion, or the answer given directly
    field: str  # COMPLETION or ANSWER: an answer is read whole, without looking for a marker
    position: int  # line number, from 1


def _constant_as_text(name: str) -> str:
    return name  # NaN / Infinity in an "answer" stay text: the reader refuses them as unparseable


def _entry(line: str, position: int) -> AnswerPrediction | Exclusion:
    try:
        # numbers as Decimal: an "answer" number keeps the digits it was written with
        data = json.loads(line, parse_float=Decimal, parse_int=Decimal, parse_constant=_constant_as_text)
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
    """(usable entries, malformed entries, lines read); empty lines are skipped, nothing else is."""
    good: list[AnswerPrediction] = []
    bad: list[Exclusion] = []
    lines = 0
    for number, line_bytes in enumerate(raw.split(b"\n"), start=1):
        if not line_bytes.strip():
            continue
        lines += 1
        try:
            line = line_bytes.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError as error:
            bad.append(Exclusion(number, None, MALFORMED_ENTRY, f"not UTF-8 text (byte {error.start})"))
            continue
        entry = _entry(line, number)
        if isinstance(entry, AnswerPrediction):
            good.append(entry)
        else:
            bad.append(entry)
    return good, bad, lines


def join_answer_predictions(good: list[AnswerPrediction], bad: list[Exclusion], gold_ids: set[str], *,
                            exclude_bad: bool) -> tuple[dict[str, AnswerPrediction], list[Exclusion]]:
    """(prediction by gold id, exclusions); raises PredictionsRejected unless `exclude_bad`."""
    copies: dict[str, list[AnswerPrediction]] = {}
    for entry in good:
        copies.setdefault(entry.id, []).append(entry)
    kept: dict[str, AnswerPrediction] = {}
    exclusions = list(bad)
    for name, entries in copies.items():
        if name not in gold_ids:
            exclusions += [Exclusion(e.position, name, UNKNOWN_ID, "the id is not in the gold file") for e in entries]
        elif len(entries) == 1:
            kept[name] = entries[0]
        elif all((e.text, e.field) == (entries[0].text, entries[0].field) for e in entries):
            kept[name] = entries[0]
            exclusions += [Exclusion(e.position, name, DUPLICATE_ID,
                                     f"repeats line {entries[0].position} (identical, first kept)") for e in entries[1:]]
        else:
            lines = ", ".join(str(e.position) for e in entries)
            exclusions += [Exclusion(e.position, name, DUPLICATE_ID,
                                     f"lines {lines} differ: none kept") for e in entries]
    exclusions.sort(key=lambda e: e.position)
    if exclusions and not exclude_bad:
        raise PredictionsRejected(tuple(exclusions), {n: [e.position for e in es] for n, es in copies.items()})
    return kept, exclusions


def describe_exclusion(exclusion: Exclusion) -> dict[str, Any]:
    return {"line": exclusion.position, "id": exclusion.id, "kind": exclusion.kind, "detail": exclusion.detail}
