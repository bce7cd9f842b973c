"""The record of one decision on a free-text answer (what `decide` and `decide_batch` return)."""

from __future__ import annotations

from typing import Any, NamedTuple


class Decision(NamedTuple):
    """One decision: passed or not, the typed reason, and what was read where."""

    passed: bool
    reason: str  # one of reasons.ALL_REASONS
    k: int | None  # scale_off / percent_vs_ratio: the power of ten; rounding: the places
    value: str | None  # the value compared, in the gold's unit (or yes / no)
    read: str | None  # the text the value was read from
    gold: str  # the gold as it shows
    span: tuple[int, int] | None  # character offsets of the answer in the completion
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "reason": self.reason, "k": self.k, "value": self.value, "read": self.read,
                "gold": self.gold, "span": list(self.span) if self.span else None, "detail": self.detail}
