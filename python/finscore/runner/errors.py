"""Typed errors for the reference runner, in the package's one hierarchy (`finscore.inputs.errors`).

Every error the runner raises on purpose derives from `RunnerError` (itself a
`FinscoreError`), so the CLI prints it as one readable line, not a traceback.
"""

from __future__ import annotations

from finscore.inputs import FinscoreError, InputFormatError, JsonValueError
from finscore.world import SchemaError


class RunnerError(FinscoreError):
    """Base of every error the runner raises deliberately."""


class CaseFixtureError(InputFormatError, RunnerError):
    """A case's world cannot be executed (unknown tool, bad snapshot, bad schema); names the case."""

    def __init__(self, case_id: str, where: str, problem: str) -> None:
        self.case_id = case_id
        super().__init__(f"case {case_id}", where, problem)


class EndpointError(RunnerError):
    """A chat-completions endpoint failed for good (after retries, or not retryable)."""

    def __init__(
        self, message: str, *, status: int | None = None, transient: bool = False, retry_after: float | None = None
    ) -> None:
        self.status = status
        self.transient = transient
        self.retry_after = retry_after
        super().__init__(message)


class CaseSetError(RunnerError):
    """The case set cannot be read (missing file, bad JSON, duplicated case ids)."""


__all__ = ["CaseFixtureError", "CaseSetError", "EndpointError", "JsonValueError", "RunnerError", "SchemaError"]
