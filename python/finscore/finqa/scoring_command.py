"""Running a scoring command on a prediction file and a gold file, for `finscore finqa`
and `finscore convfinqa` alike: read both, score with a progress bar, then write the
JSON report and/or print the text one. Unusable input is one line on standard error
and exit status 2, never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable, Protocol

from finscore.finqa.files import read_json_file
from finscore.finqa.inputs import FinqaInputError
from finscore.finqa.progress import ProgressBar, progress_bar

EXIT_OK, EXIT_USAGE = 0, 2


class Report(Protocol):
    def to_json(self) -> dict[str, Any]: ...


def add_report_options(parser: argparse.ArgumentParser, failing: str) -> None:
    """--json, --exclude-bad-ids, --examples and --quiet; `failing` names what --examples lists."""
    parser.add_argument("--json", metavar="OUT", help="write the whole report as JSON to OUT ('-': standard "
                                                      "output, instead of the text report)")
    parser.add_argument("--exclude-bad-ids", action="store_true",
                        help="exclude and report unknown ids, duplicate ids and malformed entries instead "
                             "of stopping")
    parser.add_argument("--examples", type=int, default=10, metavar="N",
                        help=f"{failing} listed in the text report (default 10; 0 for none)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on standard error")


def run_scoring_command(args: argparse.Namespace, command: str,
                        score: Callable[[Any, Any, ProgressBar | None], Report],
                        render: Callable[[Any, int], str]) -> int:
    """`score(predictions, gold, progress)` on the decoded files named by `args.predictions`
    and `args.gold`; `render(report, examples)` for the text report. Honours --json,
    --examples and --quiet; `command` names the command in messages."""
    if args.examples < 0:
        print(f"finscore {command}: --examples must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    bar = progress_bar(sys.stderr, quiet=args.quiet)
    failure: FinqaInputError | None = None
    try:
        predictions = read_json_file(args.predictions, "prediction file")
        gold = read_json_file(args.gold, "gold file")
        report = score(predictions, gold, bar)
    except FinqaInputError as error:
        failure = error
    finally:
        if bar is not None:
            bar.close()  # before anything else is printed
    if failure is not None:
        print(f"finscore {command}: {failure}", file=sys.stderr)
        return EXIT_USAGE
    if args.json is not None:
        text = json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
            return EXIT_OK
        try:
            Path(args.json).write_text(text, encoding="utf-8")
        except OSError as error:
            print(f"finscore {command}: cannot write {args.json}: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
    print(render(report, args.examples))
    return EXIT_OK
