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

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made (Pair is made at start-up).

from dataclasses import dataclass
from typing import Iterable, NamedTuple

from finscore.finqa.inputs import GoldExample, GoldFile, Prediction, PredictionFile
from finscore.scoring.exclusions import EXCLUDED, MISSING, Exclusion
from finscore.scoring.joining import ID_WORDS, Candidate, join_keys
# The id-keyed rejection of the shared join; importable from here still.
from finscore.scoring.errors import PredictionsRejected as PredictionsRejected
from finscore.scoring.joining import rejection_message as _message

__all__ = ["Exclusion", "Join", "Pair", "PredictionsRejected", "join_predictions", "rejection_message"]


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


def rejection_message(exclusions: Iterable[Exclusion], copies: dict[str, list[int]]) -> str:
    """The user's message: unknown ids, repeated ids with all their entries, malformed entries."""
    return _message(exclusions, copies, ID_WORDS)


def join_predictions(predictions: PredictionFile, gold: GoldFile, *, exclude_bad: bool = False) -> Join:
    """Pair each usable prediction with its gold example; raise PredictionsRejected unless `exclude_bad`."""
    gold_by_id = gold.by_id()
    good = {p.position: p for p in predictions.entries}
    candidates = [Candidate(p.position, p.id, None, p.tokens) for p in predictions.entries]
    candidates += [Candidate(m.position, m.id, m.reason, None) for m in predictions.malformed]
    joined = join_keys(candidates, gold_by_id, ID_WORDS)
    if joined.exclusions and not exclude_bad:
        raise PredictionsRejected(joined.exclusions, joined.copies)
    pairs = tuple(Pair(gold_by_id[good[p].id], good[p]) for p in sorted(joined.kept.values()))
    unscored = tuple(
        (example, EXCLUDED if example.id in joined.copies else MISSING)
        for example in gold.examples if example.id not in joined.kept
    )
    return Join(pairs, unscored, joined.exclusions, predictions.size)
