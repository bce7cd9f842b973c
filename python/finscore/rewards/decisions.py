"""One reward decision per row: the same record shape for every input kind.

A trainer needs a float; a person reading a training log needs to know why. Each
decision carries both, and the detail a reviewer needs to re-check it by hand.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

#: The row's data source is not one finscore scores (TRL expects None for such rows).
NOT_SCORED = "not_scored"
#: The completion column holds nothing for this row (a null, not an empty string): the
#: same reason `finscore finqa` and `finscore answers` give a missing prediction.
MISSING_PREDICTION = "missing_prediction"


class RewardDecision(NamedTuple):
    """`score` is None only for rows finscore does not score (reason `not_scored`)."""

    score: float | None
    passed: bool | None
    reason: str
    detail: dict[str, Any]
    #: detail_json() already written (by a decider that writes it faster than the encoder), or None
    detail_text: str | None = None

    def detail_json(self) -> str:
        """The detail as canonical JSON text: the same bytes on every host and in any batch."""
        return _CANONICAL.encode(self.detail) if self.detail_text is None else self.detail_text


#: json.dumps with these arguments builds a new encoder per call; one shared encoder writes the same bytes.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def not_scored(data_source: str | None) -> RewardDecision:
    return RewardDecision(None, None, NOT_SCORED, {"data_source": data_source})
