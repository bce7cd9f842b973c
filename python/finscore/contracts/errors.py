"""Typed errors for the contracts scorer.

Bad input must reach the user as a readable message naming the file and the
place, never as a traceback; every error the scorer raises on purpose derives
from `ContractsError` so the CLI can catch exactly these.
"""

from __future__ import annotations


class ContractsError(Exception):
    """Base of every error the contracts scorer raises deliberately."""


class InputFormatError(ContractsError):
    """A case, prediction or report file does not follow docs/contracts-format.md."""

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {problem}")


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
