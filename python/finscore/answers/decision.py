"""The record of one decision on a free-text answer (what `decide` and `decide_batch` return)."""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any, NamedTuple

from finscore.scoring.canonical import canonical_json as _canonical


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

    def canonical_json(self) -> str:
        """to_json() as compact JSON text with sorted keys (what a reward row's detail holds), written
        field by field: three times faster than the encoder, which rewards pay once per completion.
        The suite checks the text equals the standard library's on every decision it makes."""
        passed, k, span, read, value = self.passed, self.k, self.span, self.read, self.value
        if not (type(passed) is bool and type(self.reason) is str and type(self.gold) is str
                and type(self.detail) is str and (k is None or type(k) is int)
                and (read is None or type(read) is str) and (value is None or type(value) is str)
                and (not span or (len(span) == 2 and type(span[0]) is int and type(span[1]) is int))):
            return _canonical(self.to_json())  # built by hand with other types: the encoder decides
        return (f'{{"detail":{encode_basestring(self.detail)},"gold":{encode_basestring(self.gold)},'
                f'"k":{"null" if k is None else k},"passed":{"true" if passed else "false"},'
                f'"read":{"null" if read is None else encode_basestring(read)},'
                f'"reason":{encode_basestring(self.reason)},'
                f'"span":{f"[{span[0]},{span[1]}]" if span else "null"},'
                f'"value":{"null" if value is None else encode_basestring(value)}}}')
