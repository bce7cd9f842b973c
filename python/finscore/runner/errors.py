"""Typed errors for the reference runner.

Every error the runner raises on purpose derives from `RunnerError`, so the CLI
can print it as one readable line instead of a traceback.
"""

from __future__ import annotations


class RunnerError(Exception):
    """Base of every error the runner raises deliberately."""


class CaseFixtureError(RunnerError):
    """A case's `world` cannot be executed (unknown tool, bad snapshot, bad schema)."""

    def __init__(self, case_id: str, where: str, problem: str) -> None:
        self.case_id = case_id
        self.where = where
        self.problem = problem
        location = f"case {case_id}: {where}" if where else f"case {case_id}"
        super().__init__(f"{location}: {problem}")


class SchemaError(RunnerError):
    """A tool's JSON Schema uses something the runner's validator does not implement."""


class JsonValueError(RunnerError):
    """A value handed over by an agent is not plain, bounded JSON data."""


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
