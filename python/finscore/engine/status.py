"""Every status a program's execution can end with, core and reader alike.

The codes, names, layers and descriptions are written once, in core/abi.toml, and
generated into `finscore.engine.core._abi_generated` (docs/abi.md has the table).
1400-1419 and 1460-1468 are the core's own; 1420-1439 are the reader's refusals: text
that the official evaluator also rejects (the core reports 1422 and 1425 itself where
certain); 1440-1459 are the strict profile's refusals of quirks that the official
evaluator tolerates. The core names every one of them (fs_status_name).
"""

from __future__ import annotations

from finscore.engine.core._abi_generated import STATUS_DESCRIPTIONS, STATUS_LAYERS, Status

__all__ = ["DESCRIPTIONS", "STATUS_LAYERS", "Status", "StatusError", "status_label"]

#: What each status means, as docs/abi.md says it (one source: core/abi.toml).
DESCRIPTIONS: dict[Status, str] = STATUS_DESCRIPTIONS


class StatusError(ValueError):
    """An outcome that stops a program, carrying its typed status."""

    def __init__(self, status: Status, message: str) -> None:
        super().__init__(message)
        self.status = status


def status_label(code: int) -> str:
    """Name of any status code, including ones this version does not know."""
    try:
        return Status(code).label
    except ValueError:
        return f"unknown_status_{code}"
