"""Join predictions to gold examples so that every row is counted exactly once.

The official evaluator silently drops a gold example without a prediction from
its denominator, counts a duplicated id twice and crashes on an unknown id.
Here each of those is named: by default any bad entry rejects the file with a
list of the offending entries; with `exclude_bad=True` they are excluded and
reported, and a gold example left without a usable prediction is counted as a
failure in the honest figures.

Duplicates: when every copy of an id is well formed and identical, the first is
kept and the others excluded; when the copies differ, none of them is trusted
and all are excluded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NamedTuple

from finscore.exclusions import DUPLICATE_ID, EXCLUDED, EXCLUSION_KINDS, MALFORMED_ENTRY, MISSING, UNKNOWN_ID
from finscore.finqa.inputs import (
    FinqaInputError,
    GoldExample,
    GoldFile,
    MalformedEntry,
    Prediction,
    PredictionFile,
    listing,
)


@dataclass(frozen=True)
class Exclusion:
    """A prediction entry that is not scored, and why."""

    position: int  # index of the entry in the prediction file
    id: str | None
    kind: str  # one of EXCLUSION_KINDS
    detail: str

    def describe(self) -> str:
        who = f"entry {self.position}" + (f" (id {self.id!r})" if self.id is not None else "")
        return f"{who}: {self.detail}"


class Pair(NamedTuple):
    gold: GoldExample
    prediction: Prediction


@dataclass(frozen=True)
class Join:
    pairs: tuple[Pair, ...]  # in prediction-file order, at most one per gold example
    unscored: tuple[tuple[GoldExample, str], ...]  # gold order; MISSING or EXCLUDED
    exclusions: tuple[Exclusion, ...]  # in file order
    prediction_entries: int  # entries in the prediction file, usable or not

    @property
    def missing_ids(self) -> list[str]:
        return [example.id for example, why in self.unscored if why == MISSING]

    @property
    def excluded_ids(self) -> list[str]:
        return [example.id for example, why in self.unscored if why == EXCLUDED]


class PredictionsRejected(FinqaInputError):
    """The prediction file has entries that cannot be scored; `exclusions` lists them all."""

    def __init__(self, exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> None:
        self.exclusions = exclusions
        super().__init__(rejection_message(exclusions, copies))


def rejection_message(exclusions: Iterable[Exclusion], copies: dict[str, list[int]]) -> str:
    """The user's message: unknown ids, repeated ids with all their entries, malformed entries."""
    grouped: dict[str, list[Exclusion]] = {kind: [] for kind in EXCLUSION_KINDS}
    for exclusion in exclusions:
        grouped[exclusion.kind].append(exclusion)
    lines = ["the prediction file cannot be scored as it is:"]
    if grouped[UNKNOWN_ID]:
        ids = [repr(e.id) for e in grouped[UNKNOWN_ID]]
        lines.append(f"  {len(ids)} prediction(s) with an id that is not in the gold file: {listing(ids)}")
    repeated = list(dict.fromkeys(str(e.id) for e in grouped[DUPLICATE_ID]))
    if repeated:
        ids = [f"{name!r} (entries {', '.join(map(str, copies[name]))})" for name in repeated]
        lines.append(f"  {len(ids)} id(s) predicted more than once: {listing(ids)}")
    if grouped[MALFORMED_ENTRY]:
        entries = [e.describe() for e in grouped[MALFORMED_ENTRY]]
        lines.append(f"  {len(entries)} malformed entr{'y' if len(entries) == 1 else 'ies'}: {listing(entries, 10)}")
    lines.append("  (--exclude-bad-ids scores the rest and reports these as exclusions)")
    return "\n".join(lines)


def _duplicate_exclusions(
    copies: list[int], good: dict[int, Prediction], malformed_positions: set[int]
) -> tuple[list[Exclusion], int | None]:
    """Exclusions for the copies of one id, and the position kept (if any)."""
    first = copies[0]
    identical = all(p in good for p in copies) and all(good[p].tokens == good[first].tokens for p in copies)
    exclusions = []
    if identical:
        for position in copies[1:]:
            exclusions.append(Exclusion(position, good[position].id, DUPLICATE_ID,
                                        f"repeats entry {first} (identical prediction, first kept)"))
        return exclusions, first
    for position in copies:
        if position in malformed_positions:
            continue  # reported as malformed already
        others = ", ".join(str(p) for p in copies if p != position)
        exclusions.append(Exclusion(position, good[position].id, DUPLICATE_ID,
                                    f"conflicts with entries {others} (different predictions: none kept)"))
    return exclusions, None


def join_predictions(predictions: PredictionFile, gold: GoldFile, *, exclude_bad: bool = False) -> Join:
    """Pair each usable prediction with its gold example; raise PredictionsRejected unless `exclude_bad`."""
    gold_by_id = gold.by_id()
    exclusions: list[Exclusion] = [Exclusion(m.position, m.id, MALFORMED_ENTRY, m.reason) for m in predictions.malformed]
    malformed_positions = {m.position for m in predictions.malformed}
    good = {p.position: p for p in predictions.entries}

    copies_by_id: dict[str, list[int]] = {}
    everything: list[Prediction | MalformedEntry] = [*predictions.entries, *predictions.malformed]
    for entry in sorted(everything, key=lambda e: e.position):
        if entry.id is not None:
            copies_by_id.setdefault(entry.id, []).append(entry.position)

    kept: set[int] = set()
    for prediction_id, copies in copies_by_id.items():
        if prediction_id not in gold_by_id:
            exclusions.extend(
                Exclusion(p, prediction_id, UNKNOWN_ID, "the id is not in the gold file")
                for p in copies if p not in malformed_positions
            )
        elif len(copies) > 1:
            duplicate, keep = _duplicate_exclusions(copies, good, malformed_positions)
            exclusions.extend(duplicate)
            if keep is not None:
                kept.add(keep)
        elif copies[0] in good:
            kept.add(copies[0])

    exclusions.sort(key=lambda e: e.position)
    if exclusions and not exclude_bad:
        raise PredictionsRejected(tuple(exclusions), copies_by_id)

    pairs = tuple(Pair(gold_by_id[good[p].id], good[p]) for p in sorted(kept))
    scored = {pair.gold.id for pair in pairs}
    unscored = tuple(
        (example, EXCLUDED if example.id in copies_by_id else MISSING)
        for example in gold.examples if example.id not in scored
    )
    return Join(pairs, unscored, tuple(exclusions), predictions.size)
