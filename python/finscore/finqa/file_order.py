"""Telling a FinQA gold file from a prediction file, so that two files given in the wrong order
are named as such instead of scored as nonsense.

A FinQA gold entry has "id", "table" and "qa"; a prediction entry has "id" and "predicted".
The first entries of each decoded file are looked at, which is enough to tell them apart and
costs nothing on a whole split.
"""

from __future__ import annotations

from typing import Any

#: How many entries of each file are looked at to tell a gold file from a prediction file.
ENTRIES_LOOKED_AT = 20

_GOLD_KEYS, _PREDICTION_KEYS = frozenset(("id", "table", "qa")), frozenset(("id", "predicted"))


def _looks_like(data: Any, keys: frozenset[str], absent: str) -> bool:
    """Whether the first entries of a decoded file are objects with all of `keys` and without `absent`."""
    if not isinstance(data, list) or not data:
        return False
    entries = data[:ENTRIES_LOOKED_AT]
    return all(isinstance(entry, dict) and keys <= entry.keys() and absent not in entry for entry in entries)


def swapped_files_message(predictions: Any, gold: Any) -> str | None:
    """What to say when the prediction file looks like a FinQA gold file or the gold file like a
    prediction file (the two arguments given in the wrong order); None otherwise."""
    predictions_look_gold = _looks_like(predictions, _GOLD_KEYS, "predicted")
    gold_looks_predicted = _looks_like(gold, _PREDICTION_KEYS, "table")
    if predictions_look_gold and gold_looks_predicted:
        return ("the two files look swapped: PREDICTIONS is a FinQA gold file and GOLD a prediction file; "
                "give the prediction file first, then the gold file")
    if gold_looks_predicted:
        return "GOLD looks like a prediction file ({\"id\", \"predicted\"} entries), not a FinQA gold file"
    if predictions_look_gold:
        return "PREDICTIONS looks like a FinQA gold file ({\"id\", \"table\", \"qa\"} entries), not a prediction file"
    return None
