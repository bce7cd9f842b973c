"""What the `contracts` and `compare` commands share: writing outputs and reporting errors.

Both commands must turn every expected failure (bad input, unwritable output)
into one readable line and exit status 2, never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

from finscore.contracts.errors import ContractsError
from finscore.contracts.jsonio import dumps_pretty

EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE = 0, 1, 2


class OutputError(ContractsError):
    """An output file could not be written."""


def write_output(path: str, text: str) -> None:
    """Write UTF-8 text atomically: a temporary file renamed over the target."""
    target = Path(path)
    temporary = target.with_name(target.name + ".partial")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None


def emit(document: dict[str, Any], output: str | None, html: str | None, render_html: Callable[[dict], str]) -> None:
    """The JSON to --output (or standard output), the HTML to --html when asked."""
    text = dumps_pretty(document)
    if output is None:
        sys.stdout.write(text)
    else:
        write_output(output, text)
    if html is not None:
        write_output(html, render_html(document))


def guarded(command: str, run: Callable[[], int]) -> int:
    """Run a command body; a ContractsError becomes one line on standard error and status 2."""
    try:
        return run()
    except ContractsError as error:
        print(f"finscore {command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


def add_statistics_options(parser: Any) -> None:
    parser.add_argument("--seed", type=int, default=20260901, help="seed of the family bootstrap (default 20260901)")
    parser.add_argument(
        "--bootstrap", type=int, default=2000, metavar="B", help="bootstrap replicates (default 2000, at most 100000)"
    )


def check_replicates(replicates: int) -> None:
    if not 1 <= replicates <= 100_000:
        raise ContractsError(f"--bootstrap must be 1..100000, not {replicates}")
