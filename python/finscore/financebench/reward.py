"""The FinanceBench reward source (its registry descriptor names it): correctness and support as two columns.

The completion is an answer's text; the gold is a gold-file record (`answer`, `question`, and for
support its `evidence` pages), as JSON text or a struct, or the JSON of an answer alone. `score`,
`passed` and `reason` are correctness under `financebench-answer/1`, the same decision as before
(`scoring.decide`). Beside them, `support` is 1.0 when the gold's evidence holds the answer's claim
(financebench.support, the best page as `finscore financebench` reports it), 0.0 when it does not,
and null when it is not checked; `support_reason` says why: the first failing check
(`number_not_in_passage`, `row_mismatch`, `period_mismatch`), the number's reason when supported
(`number_found`, `number_magnitude`), or why nothing was checked (`no_evidence`, the claim reader's
`no_claim` / `refusal` / ..., `missing_prediction`, `unparseable`). A completion carries no
citation, so the document and page checks are `not_cited`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from finscore import __version__
from finscore.rewards.decisions import MISSING_PREDICTION, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import read_golds

if TYPE_CHECKING:
    from finscore.financebench.gold import GoldQuestion
    from finscore.rewards.config import RewardConfig

#: The gold record holds no evidence page: support is not checked.
NO_EVIDENCE = "no_evidence"
#: The support axis's protocol, named in the stamp beside the correctness protocol.
SUPPORT_PROTOCOL = "financebench-support/1"


def _question(value: Any, row: int, column: str) -> tuple[Any, GoldQuestion | None]:
    """The decoded gold as `scoring.decide` takes it, and its question with evidence (None: no evidence)."""
    from finscore.financebench.gold import FinancebenchInputError, gold_questions

    if not isinstance(value, dict) or not value.get("evidence"):
        return value, None
    record = {"financebench_id": "gold", "company": "", "doc_name": "", "question_type": "metrics-generated",
              "question": "", **value}
    try:
        questions = gold_questions([(row + 1, record)])
    except FinancebenchInputError as error:
        raise RewardInputError(f"the FinanceBench gold does not fit: {error}", column=column, row=row) from None
    return value, next(iter(questions.values()), None)


class FinancebenchReward:
    """Correctness (`score`, `passed`, `reason`) and support (`support`, `support_reason`) per answer."""

    rule = "financebench-answer/1"
    columns = (("support", "float64"), ("support_reason", "string"))

    def stamp(self, config: RewardConfig) -> str:
        return f"financebench-answer/1 support={SUPPORT_PROTOCOL} finscore={__version__}"

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[Any]:
        return read_golds(golds, indexes, column, lambda value, row: _question(value, row, column))

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        from finscore.financebench.claims import NoClaim, read_claim
        from finscore.financebench.scoring import decide, support_of
        from finscore.scoring.reasons import UNPARSEABLE

        out = DecidedRows(len(completions))
        support: list[float | None] = [None] * len(completions)
        support_reason: list[str | None] = [None] * len(completions)
        for row, (completion, (gold, question)) in enumerate(zip(completions, golds)):
            if completion is None:
                out.put(row, 0.0, False, MISSING_PREDICTION, {})
                support_reason[row] = MISSING_PREDICTION
                continue
            passed, reason = decide(completion, gold if question is None else question)
            detail: dict[str, Any] = {}
            if not isinstance(completion, str):
                support_reason[row] = UNPARSEABLE
            elif question is None:
                support_reason[row] = NO_EVIDENCE
            else:
                claim = read_claim(completion)
                if isinstance(claim, NoClaim):
                    support_reason[row] = claim.reason
                else:
                    checked, index = support_of(claim, question, None)
                    if checked is None:
                        support_reason[row] = NO_EVIDENCE
                    else:
                        support[row] = 1.0 if checked.supported else 0.0
                        support_reason[row] = checked.number if checked.located is None or checked.supported \
                            else checked.row if checked.row == "row_mismatch" else checked.period
                        detail["support"] = {"supported": checked.supported, "evidence": index,
                                             "document": checked.document, "page": checked.page,
                                             "number": checked.number, "row": checked.row,
                                             "period": checked.period}
            out.put(row, 1.0 if passed else 0.0, bool(passed), reason, detail)
        out.extra = {"support": support, "support_reason": support_reason}
        return out


FINANCEBENCH_REWARD = FinancebenchReward()
