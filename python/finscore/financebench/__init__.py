"""FinanceBench (patronus-ai/financebench): claims read from answers, numeric correctness
(`financebench-answer/1`), support of a claim by its evidence passage, the gold audit and the
agreement with the human graders' labels. Deterministic: no model is called.

Modules: `numbers` (the bounded number scan), `claims` (the claim of an answer), `gold` (the gold
file), `correctness` (the numeric decision), `support` (the evidence checks), `audit` (each gold
against its own evidence), `results` (the results files as predictions), `scoring` (both axes per
answer), `report` and `html` (the outputs), `reward` (the reward source: correctness and support as
separate columns), `benchmark` (the registry descriptor).
"""

from typing import Any

import finscore.lazy_names as _lazy

#: The Python API, each name imported from its module on first use (the registry descriptor imports
#: this package, and a command must not pay for modules it does not run).
_HOME = {
    "read_claim": ".claims", "Claim": ".claims", "NoClaim": ".claims",
    "decide_answer": ".correctness", "decide_claim": ".correctness",
    "check": ".support", "Citation": ".support",
    "audit": ".audit", "audit_question": ".audit",
    "read_gold_file": ".gold", "read_answers_file": ".results",
    "score": ".scoring", "score_answer": ".scoring",
    "report_json": ".report", "render_html": ".html",
}


def __getattr__(name: str) -> Any:
    return _lazy.load_name(__name__, _HOME, name, globals())


def __dir__() -> list[str]:
    return _lazy.listed_names(globals(), _HOME)


__all__ = sorted(_HOME)
