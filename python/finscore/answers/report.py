"""Scoring a prediction file against a gold file under one protocol, into a report.

The denominator is every gold the protocol covers: a missing or unparseable
answer stays a failure and is counted; unknown and repeated ids are rejected (or,
asked, excluded and listed); golds outside the protocol (TAT-QA text answers)
are listed apart, never scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from finscore.answers import reasons as R
from finscore.answers.decide import Decision, decide_batch, reader_for
from finscore.answers.gold_files import FINQA, AnswerGoldFile, GoldEntry, read_answer_golds
from finscore.answers.predictions import (
    ANSWER,
    join_answer_predictions,
    read_prediction_lines,
    describe_exclusion,
)
from finscore.answers.protocol import Protocol
from finscore.answers.stamp import lenient_label, make_stamp
from finscore.scoring.exclusions import Exclusion

Progress = Callable[[str, int, int], None]
DENOMINATOR_POLICY = (
    "every gold covered by the protocol counts once; a missing prediction (missing_prediction), an answer "
    "without the declared marker (no_final_answer) and an unreadable one (unparseable, several_numbers) are "
    "failures, each counted; unknown and repeated ids reject the file (or, with --exclude-bad-ids, are "
    "excluded and listed, and their golds count as missing); golds outside the protocol are listed, not scored"
)
CHUNK = 10_000


@dataclass(frozen=True)
class AnswerRow:
    id: str
    question: str
    source: str  # completion, answer or missing
    decision: Decision
    text: str | None = field(default=None, repr=False)  # the completion or answer, for failing listings


@dataclass(frozen=True)
class AnswerReport:
    protocol: Protocol
    format: str
    gold_kind: str
    rows: tuple[AnswerRow, ...]  # gold order
    exclusions: tuple[Exclusion, ...]
    out_of_protocol: tuple[GoldEntry, ...]
    prediction_lines: int
    stamp: dict[str, Any]
    #: FinQA citations (finscore.answers.citations), one per row, only when some answer cites evidence
    citations: tuple[Any, ...] | None = None

    @property
    def passed(self) -> int:
        return sum(row.decision.passed for row in self.rows)

    def reason_counts(self) -> dict[str, int]:
        counts = {reason: 0 for reason in R.ALL_REASONS}
        for row in self.rows:
            counts[row.decision.reason] += 1
        return counts

    def to_json(self, *, with_text: bool = False) -> dict[str, Any]:
        scored = len(self.rows)
        return {
            "stamp": self.stamp,
            "protocol": {"name": self.protocol.name, "format": self.format,
                         **({"lenient": label} if (label := lenient_label(self.format)) is not None else {}),
                         "tolerance": self.protocol.tolerance.describe(), "definition": dict(self.protocol.data)},
            "gold_kind": self.gold_kind,
            "denominator_policy": DENOMINATOR_POLICY,
            "counts": {"golds": scored, "passed": self.passed, "failed": scored - self.passed,
                       "prediction_lines": self.prediction_lines, "excluded_lines": len(self.exclusions),
                       "out_of_protocol_golds": len(self.out_of_protocol)},
            "accuracy": self.passed / scored if scored else None,
            "reasons": self.reason_counts(),
            "exclusions": [describe_exclusion(e) for e in self.exclusions],
            "out_of_protocol": [{"id": e.id, "why": e.out_of_protocol} for e in self.out_of_protocol],
            "decisions": [{"id": row.id, "source": row.source, **row.decision.to_json(),
                           **({"question": row.question, "text": row.text} if with_text else {})}
                          for row in self.rows],
            **({"evidence": self.citations_json()} if self.citations is not None else {}),
        }

    def citations_json(self) -> dict[str, Any]:
        """The citation axis, apart from correctness: its reasons' counts and each row's check."""
        from finscore.answers.citations import citation_counts

        assert self.citations is not None
        return {"reasons": citation_counts(self.citations), "checks": [c.to_json() for c in self.citations]}


def _rows(golds: AnswerGoldFile, kept: dict[str, Any], protocol: Protocol, format: str,
          progress: Progress | None) -> list[AnswerRow]:
    covered = [(entry, entry.gold) for entry in golds.entries if entry.gold is not None]
    rows: list[AnswerRow] = []
    for begin in range(0, len(covered), CHUNK):
        part = covered[begin:begin + CHUNK]
        by_format: dict[str, list[int]] = {}
        for index, (entry, _) in enumerate(part):
            prediction = kept.get(entry.id)
            by_format.setdefault("whole" if prediction is not None and prediction.field == ANSWER else format,
                                 []).append(index)
        decisions: list[Decision | None] = [None] * len(part)
        for chosen, indexes in by_format.items():
            texts = [kept[part[i][0].id].text if part[i][0].id in kept else None for i in indexes]
            for i, decision in zip(indexes, decide_batch(texts, [part[i][1] for i in indexes], protocol, chosen)):
                decisions[i] = decision
        for (entry, _), made in zip(part, decisions):
            assert made is not None
            prediction = kept.get(entry.id)
            rows.append(AnswerRow(entry.id, entry.question, prediction.field if prediction else "missing", made,
                            prediction.text if prediction else None))
        if progress is not None:
            progress("deciding", begin + len(part), len(covered))
    return rows


def score_answers(raw_predictions: bytes, gold_data: Any, protocol: Protocol, format: str, *,
                  exclude_bad_ids: bool = False, progress: Progress | None = None) -> AnswerReport:
    """The report for a JSON Lines prediction file (bytes) against decoded gold data."""
    golds = read_answer_golds(gold_data, protocol, reader_for(protocol))
    good, bad, lines = read_prediction_lines(raw_predictions)
    kept, exclusions = join_answer_predictions(good, bad, {e.id for e in golds.entries}, exclude_bad=exclude_bad_ids)
    outside = tuple(entry for entry in golds.entries if entry.gold is None)
    rows = _rows(golds, kept, protocol, format, progress)
    return AnswerReport(protocol, format, golds.kind, tuple(rows), tuple(exclusions), outside, lines,
                        make_stamp(protocol, format), _citations(golds.kind, gold_data, rows, format))


def _citations(kind: str, gold_data: Any, rows: list[AnswerRow], format: str) -> tuple[Any, ...] | None:
    """Each row's FinQA citation check, when the answers are in the JSON format and one names evidence;
    None otherwise (the report then has no citation axis at all)."""
    if kind != FINQA or format != "json" or not any(row.source == "completion" and row.text is not None
                                                    and '"evidence"' in row.text for row in rows):
        return None
    from finscore.answers.citations import NO_CITATION, CitationCheck, check_citations, cited_evidence

    if not any(row.source == "completion" and row.text is not None and cited_evidence(row.text) is not None
               for row in rows):
        return None
    examples = {example["id"]: example for example in gold_data}  # read_answer_golds checked each has an id
    return tuple(check_citations(row.id, row.text, examples[row.id])
                 if row.source == "completion" and row.text is not None
                 else CitationCheck(row.id, NO_CITATION, (), (), None) for row in rows)
