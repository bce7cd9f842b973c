"""The input error every id-keyed scorer shares: FinQA's, ConvFinQA's, the answer scorer's, lm-eval's.

`FinqaInputError` keeps the name FinQA's scorer gave it first (it is importable from
`finscore.finqa.inputs` still); it lives here so that `answers/` and the integrations raise and
catch it without importing a benchmark folder. Imports nothing.
"""


class FinqaInputError(ValueError):
    """Input that cannot be scored at all, with a message meant for the user."""
