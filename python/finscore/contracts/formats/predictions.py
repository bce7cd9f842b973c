"""Reading a predictions file (JSON Lines, section 4 of docs/contracts-format.md).

Only the envelope (which case, which attempt) is read here: that is all the
join needs. A line whose envelope cannot be read is kept as a rejected line with
its reason, so nothing the runtime wrote disappears from the report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from finscore.contracts.formats.models import PredictionRecord
from finscore.contracts.formats.provenance import Producer, read_producer
from finscore.inputs.fields import is_identifier
from finscore.inputs.errors import InputFormatError
from finscore.inputs.jsonfiles import JsonLine, read_json_lines
from finscore.integrity.run_seal import is_run_seal

MAX_ATTEMPTS = 100
PREDICTION_FORMAT = "finscore-prediction/1"
#: The marker `finscore run` keeps in its output folder while it runs (removed when every file is
#: written): a folder that still has it holds an interrupted run, which the scorer refuses.
INCOMPLETE_MARKER = "run.incomplete"


class InterruptedRunError(InputFormatError):
    """The predictions sit beside the marker of a run that did not finish."""


def refuse_interrupted(path: Path) -> None:
    """Raise InterruptedRunError if `path` is in the output folder of a run that never finished."""
    marker = path.parent / INCOMPLETE_MARKER
    if marker.exists():
        raise InterruptedRunError(
            str(path),
            "",
            f"{marker} says the run writing this folder was interrupted (killed, or it failed) before it "
            "wrote all its files: its files are not one run's; run it again",
        )
_RECORD_FIELDS = {
    "format",
    "case_id",
    "attempt",
    "status",
    "status_detail",
    "final",
    "raw_output",
    "trace",
    "producer",
    "seal",
}


@dataclass(frozen=True)
class RejectedLine:
    line: int
    problem: str


@dataclass(frozen=True)
class PredictionFile:
    source: str
    records: tuple[PredictionRecord, ...]
    rejected: tuple[RejectedLine, ...]
    #: The run's sealed header and footer lines (line number, value), as `finscore run` writes them
    #: first and last (finscore.integrity.run_seal); the scorer checks them, they are no predictions.
    run_seals: tuple[tuple[int, dict[str, Any]], ...] = ()
    #: The number of the file's last line (0 for an empty file).
    last_line: int = 0

    @property
    def producers(self) -> tuple[Producer, ...]:
        """The distinct producers the lines declare, in the order they first appear."""
        return tuple(dict.fromkeys(r.producer for r in self.records if r.producer is not None))


def record_from_value(value: Any, line: int) -> PredictionRecord | RejectedLine:
    """One parsed prediction line as a record, or a rejected line saying why."""
    if not isinstance(value, dict):
        return RejectedLine(line, "a prediction line must be a JSON object")
    case_id = value.get("case_id")
    if not isinstance(case_id, str) or not is_identifier(case_id):
        return RejectedLine(line, f"case_id missing or not an identifier: {case_id!r:.80}")
    attempt = value.get("attempt", 0)
    if isinstance(attempt, bool) or not isinstance(attempt, int) or not 0 <= attempt < MAX_ATTEMPTS:
        return RejectedLine(line, f"attempt must be a whole number 0..{MAX_ATTEMPTS - 1}: {attempt!r:.80}")
    # The attempt is identified, so a record problem fails it rather than losing it.
    problem = None
    unknown = sorted(value.keys() - _RECORD_FIELDS)
    if unknown:
        problem = "unknown field(s): " + ", ".join(unknown)[:200]
    elif value.get("format", PREDICTION_FORMAT) != PREDICTION_FORMAT:
        problem = f"format must be {PREDICTION_FORMAT}"
    producer = read_producer(value["producer"]) if "producer" in value else None
    if isinstance(producer, str):
        problem, producer = problem or producer, None
    return PredictionRecord(
        case_id=case_id,
        attempt=attempt,
        status=value.get("status"),
        status_detail=value.get("status_detail"),
        final=value.get("final"),
        trace=value.get("trace"),
        line=line,
        record_problem=problem,
        raw=value,
        producer=producer,
    )


class _Ambiguous(ValueError):
    pass


def _lenient_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose envelope keys, if repeated, repeat one value (else it names two attempts)."""
    for key in ("case_id", "attempt"):
        if len({repr(value) for name, value in pairs if name == key}) > 1:
            raise _Ambiguous(f"{key} repeated with different values")
    return dict(pairs)


_WHITESPACE = " \t\n\r"


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _leading_members(text: str) -> dict[str, Any] | None:
    """The complete members at the start of a JSON object cut short (a truncated line), or None.

    A member counts only when the text goes on after it with `,` or `}`: a number or
    value cut inside is never taken for a shorter one (`"attempt": 1` of `12`).
    Envelope keys repeated with different values make it ambiguous (None).
    """
    decoder = json.JSONDecoder(parse_float=Decimal, parse_constant=str, object_pairs_hook=_lenient_object)
    index = _skip(text, 0)
    if not text.startswith("{", index):
        return None
    index += 1
    pairs: list[tuple[str, Any]] = []
    while True:
        index = _skip(text, index)
        if not text.startswith('"', index):
            break
        try:
            key, index = decoder.raw_decode(text, index)
            index = _skip(text, index)
            if not text.startswith(":", index):
                break
            value, index = decoder.raw_decode(text, _skip(text, index + 1))
        except (ValueError, RecursionError):  # cut inside the key or the value (or the value is ambiguous)
            break
        index = _skip(text, index)
        if not text.startswith((",", "}"), index):
            break
        pairs.append((key, value))
        if text.startswith("}", index):
            break
        index += 1
    try:
        return _lenient_object(pairs)
    except _Ambiguous:
        return None


def _recovered(line: JsonLine) -> PredictionRecord | None:
    """The record of a delivered line that the exact rules refuse, if it still names its attempt.

    The runtime delivered this line, so the attempt it names was made: it is
    scored as attempted, with the reason the line is unreadable as a parser
    failure, instead of vanishing into "not attempted". The lenient reading is
    used only to learn whose line it is and what its trace records. A line cut
    short is read up to its last complete member, and only when those name
    both its case and its attempt (the attempt could otherwise follow the cut).
    """
    text = line.raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    try:
        value = json.loads(text, parse_float=Decimal, parse_constant=str, object_pairs_hook=_lenient_object)
    except (ValueError, RecursionError):
        value = _leading_members(text)
        if value is None or "case_id" not in value or "attempt" not in value:
            return None
        cut = True
    else:
        cut = False
    record = record_from_value(value, line.number)
    if isinstance(record, RejectedLine):
        return None
    # raw=None: a line that is not exact JSON has no canonical form a seal could cover, so the
    # seal check reports it as unsealed (integrity) instead of verifying a lenient reading of it.
    problem = f"the line is {'cut short, ' if cut else ''}not valid exact JSON: {line.problem}"
    return replace(record, record_problem=problem[:300], raw=None, cut_short=cut)


def read_predictions(path: Path) -> PredictionFile:
    """Every line as a record or a rejected line; InputFormatError when no line is a prediction.

    A file with no prediction line at all (empty, or a JSON array instead of
    JSON Lines) is a wrong file, not a run in which nothing was attempted.
    """
    records: list[PredictionRecord] = []
    rejected: list[RejectedLine] = []
    run_seals: list[tuple[int, dict[str, Any]]] = []
    last_line = 0
    for line in read_json_lines(path):
        item: PredictionRecord | RejectedLine
        last_line = line.number
        if line.problem is None and is_run_seal(line.value):
            run_seals.append((line.number, line.value))
            continue
        if line.problem is None:
            item = record_from_value(line.value, line.number)
        else:
            item = _recovered(line) or RejectedLine(line.number, line.problem)
        if isinstance(item, RejectedLine):
            rejected.append(item)
        else:
            records.append(item)
    if not records:
        found = f"{len(rejected)} line(s), none a prediction object" if rejected else "no line"
        raise InputFormatError(
            str(path),
            "",
            f"no prediction could be read ({found}); predictions are JSON Lines, one JSON object per "
            "line (not one JSON array)",
        )
    return PredictionFile(str(path), tuple(records), tuple(rejected), tuple(run_seals), last_line)
