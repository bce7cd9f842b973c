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

from finscore.scoring.exclusions import EXCLUDED, MISSING, Exclusion
from finscore.scoring.joining import Candidate, Rejection, join_keys, numbered_entry_words
from finscore.scoring.joining import rejection_message as _message
from finscore.tatqa.files import TatqaInputError
from finscore.tatqa.inputs import Entry, GoldQuestion

__all__ = ["UID_WORDS", "Exclusion", "Join", "PredictionsRejected", "join", "rejection_message"]

#: TAT-QA's words: its key is the question uid, and its messages say what the official script does.
UID_WORDS = numbered_entry_words(
    "uid", "identical", "different values", "uid(s) not in the gold file (the official script ignores them)",
    "uid(s) given more than once, as duplicate JSON keys (the official json.load keeps the last one silently)",
    unknown_once=True)


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


class PredictionsRejected(Rejection, TatqaInputError):
    """The prediction file has entries that cannot be scored; `exclusions` lists them all."""

    words = UID_WORDS


def rejection_message(exclusions: tuple[Exclusion, ...], copies: dict[str, list[int]]) -> str:
    """The user's message: unknown uids, repeated uids with all their entries, malformed entries."""
    return _message(exclusions, copies, UID_WORDS)


def join(entries: list[Entry], gold: list[GoldQuestion], *, exclude_bad: bool = False) -> Join:
    """Pair each usable entry with its gold question; raise PredictionsRejected unless `exclude_bad`."""
    joined = join_keys([Candidate(e.position, e.uid, e.problem, e.value) for e in entries],
                       {question.uid for question in gold}, UID_WORDS)
    if joined.exclusions and not exclude_bad:
        raise PredictionsRejected(joined.exclusions, joined.copies)
    kept = joined.kept
    pairs = tuple((question, entries[kept[question.uid]]) for question in gold if question.uid in kept)
    unscored = tuple((question, EXCLUDED if question.uid in joined.copies else MISSING)
                     for question in gold if question.uid not in kept)
    return Join(pairs, unscored, joined.exclusions, len(entries))
