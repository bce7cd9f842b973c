"""FinQA citations: does an answer that cites table rows and text lines cite the gold's supporting ones?

A completion in the answers JSON format (`--format json`) may name its evidence beside its answer,
`{"answer": "5829", "evidence": ["table_8", "text_1"]}`, with FinQA's own ids: `table_N` the table's
row N (from 0, the header row 0), `text_N` line N of pre_text followed by post_text. The gold's
`qa.gold_inds` names the supporting ones. A separate axis from correctness, with its own reasons:

- `cited_supporting`: every cited id exists and at least one is in gold_inds;
- `cited_unrelated`: every cited id exists and none is in gold_inds;
- `unknown_id`: some cited id is no row or line of the example (or is not text);
- `no_citation`: the completion names no evidence (an empty list), or is not a JSON object with one.

Beside it, `number_found` / `number_magnitude` / `number_not_in_passage` (financebench.support's
number matching, its one owner): does the answer's number appear in a cited row or line after the
declared transforms only (the passage's scale header such as `( in millions )`, parentheses as
negative, rounding to the precision the answer shows). A computed answer (a difference, a ratio) is
rightly `number_not_in_passage`: the check says where the number is, not whether it is right.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple, Sequence

CITED_SUPPORTING = "cited_supporting"
CITED_UNRELATED = "cited_unrelated"
NO_CITATION = "no_citation"
CITED_UNKNOWN_ID = "unknown_id"
CITATION_REASONS: dict[str, str] = {
    CITED_SUPPORTING: "every cited id is a row or line of the example and one at least is in qa.gold_inds",
    CITED_UNRELATED: "every cited id is a row or line of the example and none is in qa.gold_inds",
    CITED_UNKNOWN_ID: "a cited id is no table row or text line of the example",
    NO_CITATION: "the answer names no evidence",
}
#: The most ids read from one answer's "evidence" (a FinQA example has a few dozen rows and lines).
MAX_CITED = 256


class CitationCheck(NamedTuple):
    """One answer's citations: the reason, the ids cited, those in gold_inds, and the number check
    (None when no number could be checked: no citation, an unknown id, or no number in the answer)."""

    id: str
    reason: str
    cited: tuple[str, ...]
    supporting: tuple[str, ...]
    number: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "reason": self.reason, "cited": list(self.cited),
                "supporting": list(self.supporting), "number": self.number}


def cited_evidence(completion: str) -> tuple[str | None, list[Any]] | None:
    """(the "answer" text or None, the "evidence" list) of a completion that is a JSON object naming
    evidence (one code fence allowed, as the json format reads it); None when it names none."""
    body = completion.strip()
    if body.startswith("```") and body.endswith("```") and len(body) >= 6:
        inner = body[3:-3]
        body = (inner[4:] if inner[:4].lower() == "json" else inner).strip()
    if not body.startswith("{"):
        return None
    try:
        data = json.loads(body, parse_float=str, parse_int=str)
    except (ValueError, RecursionError):  # the json format's own reading names the unreadable answer
        return None
    if not isinstance(data, dict) or "evidence" not in data:
        return None
    evidence = data["evidence"]
    answer = data.get("answer")
    return (answer if isinstance(answer, str) else None), (evidence if isinstance(evidence, list) else [evidence])


def _passages(example: dict[str, Any]) -> dict[str, str]:
    """Every id of a FinQA example and its text: gold_inds' own wording where it gives one, else the row's
    cells joined by spaces or the line itself."""
    lines = [*example.get("pre_text", []), *example.get("post_text", [])]
    texts = {f"text_{n}": str(line) for n, line in enumerate(lines)}
    texts.update({f"table_{n}": " ".join(str(cell) for cell in row)
                  for n, row in enumerate(example.get("table", []))})
    gold = example.get("qa", {}).get("gold_inds", {})
    texts.update({key: str(value) for key, value in gold.items() if key in texts})
    return texts


def _number_reason(answer: str, passages: Sequence[str]) -> str | None:
    """The best number reason over the cited passages (found, then magnitude), None when the answer
    holds no single number."""
    from finscore.financebench.claims import Claim, read_claim
    from finscore.financebench.support import NUMBER_FOUND, NUMBER_NOT_IN_PASSAGE, locate, scale_header

    claim = read_claim(answer)
    if not isinstance(claim, Claim):
        return None
    reasons = []
    for passage in passages:
        scale = claim.scale or (0 if claim.number.percent else scale_header(passage)[0])
        reasons.append(locate(claim, passage, scale)[0])
    if NUMBER_FOUND in reasons:
        return NUMBER_FOUND
    return next((r for r in reasons if r != NUMBER_NOT_IN_PASSAGE), NUMBER_NOT_IN_PASSAGE)


def check_citations(identifier: str, completion: str, example: dict[str, Any]) -> CitationCheck:
    """The citation check of one completion against its FinQA example (module docstring)."""
    named = cited_evidence(completion)
    if named is None or not named[1]:
        return CitationCheck(identifier, NO_CITATION, (), (), None)
    answer, evidence = named
    cited = tuple(item if isinstance(item, str) else json.dumps(item) for item in evidence[:MAX_CITED])
    passages = _passages(example)
    gold = example.get("qa", {}).get("gold_inds", {})
    supporting = tuple(c for c in cited if c in gold)
    if any(not isinstance(item, str) or item not in passages for item in evidence[:MAX_CITED]):
        return CitationCheck(identifier, CITED_UNKNOWN_ID, cited, supporting, None)
    number = _number_reason(answer, [passages[c] for c in cited]) if answer is not None else None
    return CitationCheck(identifier, CITED_SUPPORTING if supporting else CITED_UNRELATED, cited, supporting, number)


def citation_counts(checks: Sequence[CitationCheck]) -> dict[str, int]:
    counts = {reason: 0 for reason in CITATION_REASONS}
    for check in checks:
        counts[check.reason] += 1
    return counts
