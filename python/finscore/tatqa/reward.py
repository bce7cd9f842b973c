"""The TAT-QA reward source (its registry descriptor names it): the official metric of tatqa_eval.py, one row at a time.

The completion is a prediction as a TAT-QA prediction file holds it, `[answer,
scale]`, in JSON text (a model asked for that shape writes it); the gold is the
question (`answer`, `answer_type`, `scale`). The score is the official F1 (which is
the exact match for arithmetic and count answers) or, declared by `tatqa_score`, the
exact match; `passed` is the exact match; the reason is `finscore tatqa`'s.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

from finscore import __version__
from finscore.rewards.decisions import MISSING_PREDICTION, DecidedRows
from finscore.rewards.errors import RewardInputError
from finscore.rewards.gold_json import read_golds
from finscore.tatqa.inputs import entry_problem, question_problem
from finscore.tatqa.metric import decide
from finscore.tatqa.numbers import OfficialCrash
from finscore.tatqa.reasons import explain

if TYPE_CHECKING:
    from finscore.rewards.config import RewardConfig

#: The completion is not the JSON `[answer, scale]` a TAT-QA prediction is.
MALFORMED_PREDICTION = "malformed_prediction"
#: The official metric would stop the whole run on this prediction.
OFFICIAL_CRASH = "official_crash"
#: The longest completion read (a TAT-QA answer is a few words or numbers).
MAX_PREDICTION_CHARS = 65_536


def read_tatqa_golds(golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[dict[str, Any]]:
    """Each row's gold question, read once per distinct JSON text."""

    def read(value: Any, row: int) -> dict[str, Any]:
        problem = question_problem(value, whole=False, official_pair=True)
        if problem is not None:
            raise RewardInputError(f"the TAT-QA gold {problem}", column=column, row=row)
        question: dict[str, Any] = value
        return question

    return read_golds(golds, indexes, column, read)


def _prediction(text: str) -> tuple[Any, str | None]:
    """The decoded [answer, scale], or why it is not one."""
    if len(text) > MAX_PREDICTION_CHARS:
        return None, f"{len(text):,} characters, over the {MAX_PREDICTION_CHARS:,} bound"
    try:
        value = json.loads(text)
    except ValueError as error:
        return None, f"not JSON: {error}"
    except RecursionError:  # within the bound, "[[[[..." still passes Python's parser's depth
        return None, "not JSON that can be read: nested too deeply"
    return value, entry_problem(value)


def decide_tatqa(completions: Sequence[Any], golds: Sequence[dict[str, Any]], *, score: str) -> DecidedRows:
    """One decision per completion (None when missing)."""
    out = DecidedRows(len(completions))  # every row 0.0 and not passed until decided otherwise
    for row, (text, question) in enumerate(zip(completions, golds)):
        if text is None:
            out.put(row, 0.0, False, MISSING_PREDICTION, {})
            continue
        value, problem = _prediction(text) if isinstance(text, str) else (None, "not text")
        if problem is not None or not isinstance(value, list):
            out.put(row, 0.0, False, MALFORMED_PREDICTION, {"why": problem})
            continue
        answer, scale = value  # entry_problem found it a list [answer, scale]
        try:
            decision = decide(question, answer, scale)
        except OfficialCrash as crash:
            out.put(row, 0.0, False, OFFICIAL_CRASH, {"why": str(crash)})
            continue
        reason = explain(question, answer, scale, decision)  # never raises: a reason cannot block a score
        value_score = decision.f1 if score == "f1" else decision.em
        out.put(row, value_score, decision.em == 1.0, reason.kind,
                {"em": repr(decision.em), "f1": repr(decision.f1), "scale_match": decision.scale_match,
                 "why": reason.detail})
    return out


class TatqaReward:
    """TAT-QA's reward source (finscore.rewards.config.PredictionReward): the official metric per row."""

    __slots__ = ()
    rule = "tatqa_eval"

    def stamp(self, config: RewardConfig) -> str:
        return f"tatqa-official/1 score={config.tatqa_score} finscore={__version__}"

    def read_golds(self, golds: Sequence[Any], indexes: Sequence[int], column: str) -> list[dict[str, Any]]:
        return read_tatqa_golds(golds, indexes, column)

    def decide(self, completions: Sequence[Any], golds: Sequence[Any], config: RewardConfig) -> DecidedRows:
        return decide_tatqa(completions, golds, score=config.tatqa_score)


TATQA_REWARD = TatqaReward()
