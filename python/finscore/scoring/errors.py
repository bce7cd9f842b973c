"""The input errors the id-keyed scorers share: FinQA's, ConvFinQA's, the answer scorer's, lm-eval's.

`FinqaInputError` keeps the name FinQA's scorer gave it first (it is importable from
`finscore.finqa.inputs` still); it lives here, with the rejection of an id-keyed prediction
file, so that `answers/` and the integrations raise and catch them without importing a
benchmark folder. Kept apart from the join (`scoring/joining.py`), which TAT-QA's uid-keyed
join uses without these.
"""

from finscore.scoring.joining import Rejection


class FinqaInputError(ValueError):
    """Input that cannot be scored at all, with a message meant for the user."""


class PredictionsRejected(Rejection, FinqaInputError):
    """An id-keyed prediction file (FinQA, ConvFinQA, answers) has entries that cannot be scored;
    `exclusions` lists them all. Importable from `finscore.finqa.joining` still."""
