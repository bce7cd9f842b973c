"""ConvFinQA's `equal_program`: FinQA's, with one rule first for number selections.

When the gold program, its last token dropped, is a single token (a number
selection), ConvFinQA's authors decide equivalence before anything else: the
prediction is equivalent exactly when it has two tokens and its first is the
gold token, text for text (the second, meant to be EOF, is not looked at; `60.94`
and `60.940` differ). Any other gold program goes through FinQA's procedure
unchanged (the rest of the function is the same code), which
`finscore.finqa.equivalence.ProgramComparer` reproduces.
"""

from __future__ import annotations

from typing import Sequence

from finscore.finqa.equivalence import EquivalenceDecision, ProgramComparer, require_token_list

#: The method a number-selection decision carries (beside `finscore.finqa.equivalence.METHODS`).
NUMBER_SELECTION = "number-selection"


class ConvFinqaComparer:
    """Decides many pairs as ConvFinQA's `equal_program(gold, pred)`; never raises on lists of strings."""

    def __init__(self) -> None:
        self._finqa = ProgramComparer()

    def equal_program(self, gold_tokens: Sequence[str], pred_tokens: Sequence[str]) -> EquivalenceDecision:
        require_token_list("gold_tokens", gold_tokens)
        require_token_list("pred_tokens", pred_tokens)
        if len(gold_tokens) == 2:
            return EquivalenceDecision(len(pred_tokens) == 2 and pred_tokens[0] == gold_tokens[0], NUMBER_SELECTION)
        return self._finqa.equal_program(gold_tokens, pred_tokens)
