"""Reward decisions: the record a reader gets per row, and the columns deciders write.

A trainer needs a float; a person reading a training log needs to know why. Each
decision carries both, and the detail a reviewer needs to re-check it by hand.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, NamedTuple

from finscore.scoring.canonical import canonical_json as _canonical
from finscore.scoring.reasons import MISSING_PREDICTION, NOT_SCORED

#: NOT_SCORED: the row's data source is not one finscore scores (TRL expects None for such rows).
#: MISSING_PREDICTION: the completion column holds nothing for this row (a null, not an empty
#: string): the same reason `finscore finqa` and `finscore answers` give a missing prediction.
__all__ = ["MISSING_PREDICTION", "NOT_SCORED", "DecidedRows", "RewardDecision"]


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
        return _canonical(self.detail) if self.detail_text is None else self.detail_text


class DecidedRows:
    """The decisions of a run of rows as parallel columns; `rows[i]` is row i's RewardDecision.

    Deciders write columns, not a record per row, because a record is an object the cyclic
    collector tracks (a tuple subclass is never untracked): over a 100,000-row batch its passes
    over them took about a sixth of the time. Lists of floats, bools and str, and dicts holding
    only such values, are not tracked. A row's detail is kept as a dict, or only as its
    canonical JSON text where the decider wrote that (`details[i]` is then None)."""

    __slots__ = ("scores", "passed", "reasons", "details", "texts", "extra")

    def __init__(self, count: int) -> None:
        self.scores: list[float | None] = [0.0] * count
        self.passed: list[bool | None] = [False] * count
        self.reasons: list[str] = [""] * count
        self.details: list[dict[str, Any] | None] = [None] * count
        self.texts: list[str | None] = [None] * count
        #: the further columns a reward source declares (FinanceBench's `support`), by name: one value
        #: per row, None where the source does not fill it; empty for every other source
        self.extra: dict[str, list[Any]] = {}

    @classmethod
    def from_texts(cls, scores: list[float | None], passed: list[bool | None], reasons: list[str],
                   texts: list[str | None]) -> DecidedRows:
        """Rows from columns a decider made whole, each detail kept only as its canonical JSON."""
        if not len(scores) == len(passed) == len(reasons) == len(texts):
            raise ValueError(f"columns of different lengths: {len(scores)}, {len(passed)}, {len(reasons)}, "
                             f"{len(texts)}")
        rows = cls(0)
        rows.scores, rows.passed, rows.reasons, rows.texts = scores, passed, reasons, texts
        rows.details = [None] * len(texts)
        return rows

    def put(self, row: int, score: float | None, passed: bool | None, reason: str, detail: dict[str, Any] | None,
            text: str | None = None) -> None:
        """Row `row`'s decision; `detail` may be None only where `text` is its canonical JSON."""
        self.scores[row], self.passed[row], self.reasons[row] = score, passed, reason
        self.details[row], self.texts[row] = detail, text

    def place(self, rows: list[int], part: DecidedRows) -> None:
        """`part`'s row k becomes this run's row rows[k] (a data source's rows among others)."""
        for k, row in enumerate(rows):
            self.put(row, part.scores[k], part.passed[k], part.reasons[k], part.details[k], part.texts[k])
        for name, values in part.extra.items():
            column = self.extra.setdefault(name, [None] * len(self))
            for k, row in enumerate(rows):
                column[row] = values[k]

    def __len__(self) -> int:
        return len(self.reasons)

    def __getitem__(self, row: int) -> RewardDecision:
        return RewardDecision(self.scores[row], self.passed[row], self.reasons[row], self.detail(row), self.texts[row])

    def __iter__(self) -> Iterator[RewardDecision]:
        return (self[row] for row in range(len(self)))

    def detail(self, row: int) -> dict[str, Any]:
        """Row `row`'s detail as a dict of its own (rows deciding alike may share one in the columns)."""
        detail, text = self.details[row], self.texts[row]
        if detail is not None:
            return dict(detail)
        assert text is not None, "a row's detail is kept as a dict or as its JSON text"
        decoded: dict[str, Any] = json.loads(text)
        return decoded

    def detail_texts(self) -> list[str]:
        """Each row's detail as canonical JSON text: the same bytes on every host and in any batch."""
        encode = _canonical
        return [encode(detail) if text is None else text for detail, text in zip(self.details, self.texts)]
