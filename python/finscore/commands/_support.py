"""What the `contracts`, `compare` and `run` commands share: exit codes, options, outputs, errors.

Each command must turn every expected failure (bad input, unwritable output)
into one readable line and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

from finscore.exit_status import EXIT_OK as EXIT_OK
from finscore.exit_status import EXIT_USAGE as EXIT_USAGE
from finscore.contracts.stats import DEFAULT_REPLICATES, DEFAULT_SEED, MAX_REPLICATES
from finscore.inputs import FinscoreError, dumps_pretty
from finscore.integrity import default_key_path
from finscore.outputs import write_text_atomically

EXIT_CHECK_FAILED = 1


def emit(
    document: dict[str, Any], output: str | None, html: str | None, render_html: Callable[[dict[str, Any]], str]
) -> None:
    """The JSON to --output (or standard output), the HTML to --html when asked."""
    text = dumps_pretty(document)
    if output is None:
        sys.stdout.write(text)
    else:
        write_text_atomically(output, text)
    if html is not None:
        write_text_atomically(html, render_html(document))


def guarded(command: str, run: Callable[[], int]) -> int:
    """Run a command body; a FinscoreError becomes one line on standard error and status 2."""
    try:
        return run()
    except FinscoreError as error:
        print(f"finscore {command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE


def add_statistics_options(parser: Any) -> None:
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"seed of the family bootstrap (default {DEFAULT_SEED})"
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=DEFAULT_REPLICATES,
        metavar="B",
        help=f"bootstrap replicates (default {DEFAULT_REPLICATES}, at most {MAX_REPLICATES})",
    )


def check_replicates(replicates: int) -> None:
    if not 1 <= replicates <= MAX_REPLICATES:
        raise FinscoreError(f"--bootstrap must be 1..{MAX_REPLICATES}, not {replicates}")


def add_key_option(parser: Any, purpose: str) -> None:
    parser.add_argument(
        "--key-file",
        type=Path,
        default=None,
        metavar="KEY",
        help=f"the evaluator's trace key, {purpose} (default {default_key_path()}; keep it outside every "
        "output folder, mode 0600)",
    )


def key_path(args: Any) -> Path:
    return args.key_file if args.key_file is not None else default_key_path()
