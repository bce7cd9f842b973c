"""What the scoring commands share: their report options, their run, and the JSON report.

`finscore finqa`, `convfinqa` and `tatqa` read two files, score them under a progress
bar and print a text report or write a JSON one; the life of such a run is here, once.
(A command's second form, such as `finscore finqa equal-jsonl`, is its module's
`second_form` hook: see `finscore.cli`.)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence

from finscore.streams import is_terminal


#: What a second form's hook gives the command line: its parser and the arguments after its name.
SecondForm = tuple[argparse.ArgumentParser, list[str]]


def named_form(arguments: Sequence[str], name: str,
               parser: Callable[[], argparse.ArgumentParser]) -> SecondForm | None:
    """The parser of the second form called `name` and the arguments after that name, when the
    command's arguments start with it; None for the command's scoring form."""
    if not arguments or arguments[0] != name:
        return None
    return parser(), list(arguments[1:])


def add_scored_files(parser: argparse.ArgumentParser, predictions: str, gold: str) -> None:
    """The two files a scoring command reads, PREDICTIONS then GOLD, with their help texts."""
    parser.add_argument("predictions", metavar="PREDICTIONS", help=predictions)
    parser.add_argument("gold", metavar="GOLD", help=gold)


def add_report_options(parser: argparse.ArgumentParser, failing: str, ids: str = "ids") -> None:
    """--json, --exclude-bad-ids, --examples and --quiet; `failing` names what --examples lists,
    `ids` what the entries are keyed by."""
    parser.add_argument("--json", metavar="OUT", help="write the whole report as JSON to OUT ('-': standard "
                                                      "output, instead of the text report)")
    parser.add_argument("--exclude-bad-ids", action="store_true",
                        help=f"exclude and report unknown {ids}, duplicate {ids} and malformed entries instead "
                             "of stopping")
    parser.add_argument("--examples", type=int, default=10, metavar="N",
                        help=f"{failing} listed in the text report (default 10; 0 for none)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on standard error")


#: The default seed and resamples of the headline intervals (a module that imports nothing).
from finscore.stats.defaults import DEFAULT_RESAMPLES as DEFAULT_RESAMPLES  # noqa: E402
from finscore.stats.defaults import DEFAULT_SEED as DEFAULT_SEED  # noqa: E402
from finscore.stats.defaults import MAX_RESAMPLES as MAX_RESAMPLES  # noqa: E402


def add_interval_options(parser: argparse.ArgumentParser, unit: str) -> None:
    """--seed and --resamples of the cluster bootstrap over the benchmark's unit (`unit` names it)."""
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the cluster bootstrap over the {unit} (default {DEFAULT_SEED}; the same "
                             "seed gives the same interval in every process)")
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="B",
                        help=f"cluster bootstrap resamples (default {DEFAULT_RESAMPLES}, 1 to {MAX_RESAMPLES})")


def check_interval_options(command: str, args: argparse.Namespace) -> bool:
    """True when --resamples is in range; else the message on standard error."""
    if not 1 <= args.resamples <= MAX_RESAMPLES:
        print(f"finscore {command}: --resamples must be 1 to {MAX_RESAMPLES}, not {args.resamples}", file=sys.stderr)
        return False
    return True


def with_intervals(benchmark: str, report: Any, gold: Any, args: argparse.Namespace,
                   input_error: type[Exception]) -> Any:
    """The report with its headline intervals (finscore.stats.benchmarks); a gold row without a unit
    becomes the command's `input_error`."""
    from finscore.stats.benchmarks import UnitError, attach_intervals

    try:
        return attach_intervals(benchmark, report, gold, seed=args.seed, resamples=args.resamples)
    except UnitError as error:
        raise input_error(str(error)) from error


#: Exit statuses of a scoring command.
from finscore.exit_status import EXIT_OK as EXIT_OK  # noqa: E402  (re-exported: commands import it from here too)
from finscore.exit_status import EXIT_USAGE as EXIT_USAGE  # noqa: E402


def print_report(command: str, args: argparse.Namespace, document: Callable[[], Any],
                 text: Callable[[], str]) -> int:
    """A command's report out: --json OUT writes `document()` as indented JSON ('-': standard output,
    instead of the text); otherwise, and beside a JSON file, `text()` is printed. `command` opens the
    error message when OUT cannot be written (exit status 2)."""
    if args.json is not None:
        from finscore.outputs import OutputError, write_output  # loaded only when a JSON report is asked for

        try:
            write_output(args.json, json.dumps(document(), ensure_ascii=False, indent=1) + "\n")
        except OutputError as error:
            print(f"{command}: {error}", file=sys.stderr)
            return EXIT_USAGE
        if args.json == "-":
            return EXIT_OK
    print(text())
    return EXIT_OK


def run_scoring(command: str, args: argparse.Namespace, score: Callable[[Any], Any],
                render: Callable[[Any, int], str], input_error: type[Exception]) -> int:
    """The shared life of a scoring command: check --examples, score under a progress bar, report.

    `score(progress)` reads the files and returns the report (raising `input_error` with a
    message for the user); `render(report, examples)` is the text report. The bar is erased
    before anything is printed; --json OUT writes the report ('-': instead of the text).
    """
    if args.examples < 0:
        print(f"finscore {command}: --examples must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    if hasattr(args, "resamples") and not check_interval_options(command, args):
        return EXIT_USAGE
    bar = None
    if not args.quiet and is_terminal(sys.stderr):  # the bar's module (and threading) only where one is drawn
        from finscore.finqa.progress import progress_bar

        bar = progress_bar(sys.stderr, quiet=False)
    failure: Exception | None = None
    try:
        report = score(bar)
    except input_error as error:
        failure = error
    finally:
        if bar is not None:
            bar.close()  # before anything else is printed
    if failure is not None:
        print(f"finscore {command}: {failure}", file=sys.stderr)
        return EXIT_USAGE
    return print_report(f"finscore {command}", args, report.to_json, lambda: render(report, args.examples))
