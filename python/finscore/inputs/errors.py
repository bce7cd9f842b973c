"""The one error hierarchy of finscore's scorers and runner.

Every error raised on purpose about bad input or a bad request derives from
`FinscoreError`, so a command turns it into one readable line and exit status
2 instead of a traceback. `InputFormatError` is the located kind: it names the
file (or case) and the place inside it.
"""

from __future__ import annotations


class FinscoreError(Exception):
    """Base of every error finscore's contracts scorer and runner raise deliberately."""


class InputFormatError(FinscoreError):
    """A file or value does not follow its documented format; names the source and the place."""

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        location = f"{source}: {where}" if where else source
        super().__init__(f"{location}: {problem}")


class JsonValueError(FinscoreError):
    """A value handed over (by an agent, or as JSON text) is not plain, bounded JSON data."""
