"""TAT-QA scoring: the official metric of tatqa_eval.py reproduced exactly, and explained.

- `decide(question, answer, scale) -> Decision`: what one official call adds
  (em, f1, scale_match), bit for bit; `question` needs answer, answer_type, scale
- `overall(decisions) -> Totals`: get_overall_metric (rows, em, f1, scale)
- `drop_em_f1(predicted, gold)`: the official get_metrics on spans or span lists
- `normalize_answer(text)`, `read_number(text)`, `looks_numeric(text)`: its text rules
- `optimal_assignment(scores)`: scipy's linear_sum_assignment choice, ties included
- `explain(question, answer, scale, decision) -> Reason`: why a prediction missed
- `score_predictions(predictions, pairs, gold, ...) -> TatqaReport`: a whole file
- `run_official(...)`, `official_text(...)`: the official walk and its printout

Pure Python: no numpy, scipy or pandas at run time. Each module does one job.
"""

from typing import TYPE_CHECKING, Any

import finscore.lazy_names as _lazy

if TYPE_CHECKING:  # the names, for type checkers; at run time each module loads on first use
    from finscore.tatqa.alignment import optimal_assignment
    from finscore.tatqa.files import TatqaInputError, decode_gold, decode_predictions
    from finscore.tatqa.metric import Decision, decide, drop_em_f1
    from finscore.tatqa.normalize import normalize_answer, whitespace_tokens
    from finscore.tatqa.numbers import OfficialCrash, first_number, looks_numeric, read_number
    from finscore.tatqa.official import OfficialRun, Totals, official_text, overall, run_official
    from finscore.tatqa.reasons import REASON_DESCRIPTIONS, Reason, explain
    from finscore.tatqa.report import QuestionResult, TatqaReport
    from finscore.tatqa.scoring import score_predictions

#: The module of each public name: `import finscore.tatqa` (which the registry's descriptor
#: needs) loads none of them, so `finscore finqa` pays nothing for TAT-QA.
_MODULE_OF: dict[str, str] = {
    "Decision": "finscore.tatqa.metric",
    "OfficialCrash": "finscore.tatqa.numbers",
    "OfficialRun": "finscore.tatqa.official",
    "QuestionResult": "finscore.tatqa.report",
    "REASON_DESCRIPTIONS": "finscore.tatqa.reasons",
    "Reason": "finscore.tatqa.reasons",
    "TatqaInputError": "finscore.tatqa.files",
    "TatqaReport": "finscore.tatqa.report",
    "Totals": "finscore.tatqa.official",
    "decide": "finscore.tatqa.metric",
    "decode_gold": "finscore.tatqa.files",
    "decode_predictions": "finscore.tatqa.files",
    "drop_em_f1": "finscore.tatqa.metric",
    "explain": "finscore.tatqa.reasons",
    "first_number": "finscore.tatqa.numbers",
    "looks_numeric": "finscore.tatqa.numbers",
    "normalize_answer": "finscore.tatqa.normalize",
    "official_text": "finscore.tatqa.official",
    "optimal_assignment": "finscore.tatqa.alignment",
    "overall": "finscore.tatqa.official",
    "read_number": "finscore.tatqa.numbers",
    "run_official": "finscore.tatqa.official",
    "score_predictions": "finscore.tatqa.scoring",
    "whitespace_tokens": "finscore.tatqa.normalize",
}

__all__ = [
    "REASON_DESCRIPTIONS",
    "Decision",
    "OfficialCrash",
    "OfficialRun",
    "QuestionResult",
    "Reason",
    "TatqaInputError",
    "TatqaReport",
    "Totals",
    "decide",
    "decode_gold",
    "decode_predictions",
    "drop_em_f1",
    "explain",
    "first_number",
    "looks_numeric",
    "normalize_answer",
    "official_text",
    "optimal_assignment",
    "overall",
    "read_number",
    "run_official",
    "score_predictions",
    "whitespace_tokens",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module when the name is first asked for (PEP 562)."""
    return _lazy.load_name(__name__, _MODULE_OF, name, globals())
