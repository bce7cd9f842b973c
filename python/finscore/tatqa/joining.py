"""Join prediction entries to gold questions so that every question is counted exactly once.

The official script reads the prediction file with `json.load` (a repeated
uid keeps its last value, silently), scores a gold question without a
prediction as 0 without saying so, and ignores predictions for uids that are
not in the gold file. Here every such entry is named: by default any unknown,
repeated or malformed entry rejects the file; with `exclude_bad=True` those
entries are excluded and reported, and a gold question left without a usable
prediction scores 0 in the honest figures. Repeated uids whose copies are all
identical and well formed keep one copy; copies that differ are all excluded.
"""

from __future__ import annotations

from finscore.exclusions import DUPLICATE_ID, EXCLUDED, EXCLUSION_KINDS, MALFORMED_ENTRY, MISSING, UNKNOWN_ID
from finscore.tatqa.files import TatqaInputError
from finscore.tatqa.inputs import Entry, GoldQuestion, listing


class Exclusion:
    """A prediction entry that is not scored, and why (`kind`: one of EXCLUSION_KINDS)."""

    __slots__ = ("position", "uid", "kind", "detail")

    def __init__(self, position: int, uid: str, kind: str, detail: str) -> None:
        self.position = position
        self.uid = uid
        self.kind = kind
        self.detail = detail

    def describe(self) -> str:
        return f"entry {self.position} (uid {self.uid!r}): {self.detail}"

    def __repr__(self) -> str:
        return f"Exclusion({self.position!r}, {self.uid!r}, {self.kind!r}, {self.detail!r})"


class Join:
    """Pairs and unscored questions in gold order (unscored: MISSING or EXCLUDED), exclusions in file
    order, and the number of top-level pairs in the prediction file."""

    __slots__ = ("pairs", "unscored", "exclusions", "entries")

    def __init__(self, pairs: tuple[tuple[GoldQuestion, Entry], ...], unscored: tuple[tuple[GoldQuestion, str], ...],
                 exclusions: tuple[Exclusion, ...], entries: int) -> None:
        self.pairs = pairs
        self.unscored = unscored
        self.exclusions = exclusions
        self.entries = entries


class PredictionsRejected(TatqaInputError):
    """The prediction file has entries that cannot be scored; `exclusions` lists them all."""

    def __init__(self, exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> None:
        self.exclusions = exclusions
        super().__init__(rejection_message(exclusions, copies))


def rejection_message(exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> str:
    grouped: dict[str, list[Exclusion]] = {kind: [] for kind in EXCLUSION_KINDS}
    for exclusion in exclusions:
        grouped[exclusion.kind].append(exclusion)
    lines = ["the prediction file cannot be scored as it is:"]
    if grouped[UNKNOWN_ID]:
        uids = list(dict.fromkeys(repr(e.uid) for e in grouped[UNKNOWN_ID]))
        lines.append(f"  {len(uids)} uid(s) not in the gold file (the official script ignores them): "
                     + listing(uids))
    repeated = list(dict.fromkeys(e.uid for e in grouped[DUPLICATE_ID]))
    if repeated:
        named = [f"{uid!r} (entries {', '.join(map(str, copies[uid]))})" for uid in repeated]
        lines.append(f"  {len(named)} uid(s) given more than once, as duplicate JSON keys (the official "
                     "json.load keeps the last one silently): " + listing(named))
    if grouped[MALFORMED_ENTRY]:
        described = [e.describe() for e in grouped[MALFORMED_ENTRY]]
        lines.append(f"  {len(described)} malformed entr{'y' if len(described) == 1 else 'ies'}: "
                     + listing(described, 10))
    lines.append("  (--exclude-bad-ids scores the rest and reports these as exclusions)")
    return "\n".join(lines)


def _duplicates(uid: str, copies: list[int], entries: list[Entry]) -> tuple[list[Exclusion], int | None]:
    first = entries[copies[0]]
    identical = all(entries[p].problem is None and entries[p].value == first.value for p in copies)
    if identical:
        return [Exclusion(p, uid, DUPLICATE_ID, f"repeats entry {copies[0]} (identical, first kept)")
                for p in copies[1:]], copies[0]
    exclusions = []
    for position in copies:
        if entries[position].problem is None:
            others = ", ".join(str(p) for p in copies if p != position)
            exclusions.append(Exclusion(position, uid, DUPLICATE_ID,
                                        f"conflicts with entries {others} (different values: none kept)"))
    return exclusions, None


def join(entries: list[Entry], gold: list[GoldQuestion], *, exclude_bad: bool = False) -> Join:
    """Pair each usable entry with its gold question; raise PredictionsRejected unless `exclude_bad`."""
    gold_uids = {question.uid for question in gold}
    exclusions = [Exclusion(e.position, e.uid, MALFORMED_ENTRY, e.problem) for e in entries if e.problem]
    copies_of: dict[str, list[int]] = {}
    for entry in entries:
        copies_of.setdefault(entry.uid, []).append(entry.position)
    kept: dict[str, Entry] = {}
    for uid, copies in copies_of.items():
        if uid not in gold_uids:
            exclusions += [Exclusion(p, uid, UNKNOWN_ID, "the uid is not in the gold file")
                           for p in copies if entries[p].problem is None]
        elif len(copies) > 1:
            duplicate, keep = _duplicates(uid, copies, entries)
            exclusions += duplicate
            if keep is not None:
                kept[uid] = entries[keep]
        elif entries[copies[0]].problem is None:
            kept[uid] = entries[copies[0]]
    exclusions.sort(key=lambda e: e.position)
    if exclusions and not exclude_bad:
        raise PredictionsRejected(tuple(exclusions), copies_of)
    pairs = tuple((question, kept[question.uid]) for question in gold if question.uid in kept)
    unscored = tuple((question, EXCLUDED if question.uid in copies_of else MISSING)
                     for question in gold if question.uid not in kept)
    return Join(pairs, unscored, tuple(exclusions), len(entries))
