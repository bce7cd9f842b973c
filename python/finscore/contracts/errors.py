"""Typed errors for the contracts scorer, in the package's one hierarchy (`finscore.inputs.errors`).

Bad input reaches the user as a readable message naming the file and the
place (`InputFormatError`), never as a traceback; the scorer's own refusals
derive from `ContractsError`. Both are `FinscoreError`s, which the commands catch.
"""

from __future__ import annotations

from finscore.inputs.errors import FinscoreError, InputFormatError


class ContractsError(FinscoreError):
    """Base of every error the contracts scorer raises deliberately, bad input aside."""


class JoinError(ContractsError):
    """Predictions name cases the set does not have, or the same attempt twice."""

    def __init__(self, unknown: list[str], duplicates: list[str]) -> None:
        self.unknown = unknown
        self.duplicates = duplicates
        parts = []
        if unknown:
            parts.append("unknown case ids: " + ", ".join(unknown))
        if duplicates:
            parts.append("duplicate predictions (case/attempt): " + ", ".join(duplicates))
        super().__init__("predictions rejected; " + "; ".join(parts))


class ComparisonError(ContractsError):
    """Two reports cannot be paired (different case sets or attempts)."""


__all__ = ["ComparisonError", "ContractsError", "FinscoreError", "InputFormatError", "JoinError"]
