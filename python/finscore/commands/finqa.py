"""`finscore finqa`: score a FinQA prediction file; `finscore finqa equal-jsonl`: equivalence lines.

argparse cannot put a sub-command beside the positional PREDICTIONS, so the
`equal-jsonl` form has its own parser, which `second_form` hands to the command
line (see `finscore.cli`) when the arguments start with `equal-jsonl`; the
`finqa` parser's --help documents both forms.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Sequence

from finscore.cli import CommandParser
from finscore.commands.execute import add_profile_options
from finscore.commands.forms import add_interval_options, add_report_options, add_scored_files, named_form, \
    run_scoring, SecondForm, with_intervals
from finscore.engine.api import PROFILES
from finscore.engine.reader.convfinqa import PROFILE as CONVFINQA
from finscore.finqa.file_order import swapped_files_message

EQUAL_JSONL = "equal-jsonl"

USAGE = (
    "finscore finqa PREDICTIONS GOLD [--profile {official,strict}] [--python VERSION] [--json OUT]\n"
    "                      [--exclude-bad-ids] [--examples N] [--quiet] [--seed N] [--resamples B]\n"
    "       finscore finqa equal-jsonl [--explain] [--profile {official,strict,convfinqa}]\n"
    "                                  < pairs.jsonl > decisions.jsonl"
)
DESCRIPTION = (
    "Score FinQA predictions (the official format: a JSON list of {\"id\", \"predicted\": [tokens]}) "
    "against a FinQA file (finqa_test.json). Prints the official execution and program accuracy exactly "
    "as the official evaluate.py computes them (denominator = predictions), then the same over the gold "
    "examples (a missing prediction counts as a failure), failure categories, statuses, the official "
    "quirks relied on, and the first failing predictions. The honest execution accuracy gets its 95% intervals: Wilson (rows as independent) and a seeded cluster bootstrap over filings (company/year), with the number of filings, the design effect and the effective sample size. Both profiles are always run (the other one "
    "gives the quirk accounting); --profile picks the headline. Unknown, duplicate or malformed prediction "
    "entries stop the run with a list of them (exit status 2) unless --exclude-bad-ids is given."
)
EPILOG = (
    "equal-jsonl form: reads JSON lines {\"gold\": [tokens], \"pred\": [tokens]} on standard input and "
    "writes each back with \"equal\" (true/false) added: the official program-equivalence decision, for "
    "checking against recorded decisions (--explain adds how each was decided; exit status 1 if a line "
    "could not be decided). A file literally named equal-jsonl can be scored as ./equal-jsonl. "
    "Exit status of the scoring form: 0 scored, 2 unusable input or usage."
)


def second_form(arguments: Sequence[str]) -> SecondForm | None:
    """The `equal-jsonl` form's parser and its arguments, when the arguments after `finqa` start
    with `equal-jsonl`; None for the scoring form."""
    return named_form(arguments, EQUAL_JSONL, _equal_jsonl_parser)


def _equal_jsonl_parser() -> argparse.ArgumentParser:
    equal = CommandParser(
        prog="finscore finqa equal-jsonl",
        description='Read JSON lines {"gold": [tokens], "pred": [tokens]} on standard input and write each '
                    'back, in order, with "equal" added (the official equal_program decision) and '
                    '"divergence" where the official evaluator would have crashed. A line that cannot be '
                    'decided is written back with "error". Exit status: 0 all decided, 1 some lines not.',
    )
    equal.add_argument("--explain", action="store_true",
                       help='also add "equal_method" (how it was decided) and "used_sympy"')
    equal.add_argument("--profile", choices=PROFILES, default="official",
                       help="convfinqa: ConvFinQA's equal_program (a one-token gold program, a number "
                            "selection, is equivalent only to the same token); official and strict: "
                            "FinQA's (default)")
    equal.set_defaults(handler=run_equal_jsonl)
    return equal


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "finqa",
        help="score FinQA predictions: official figures exactly, honest figures, diagnostics",
        usage=USAGE,
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    add_scored_files(parser, "the prediction file (official format)",
                     "the FinQA gold file, e.g. finqa_test.json")
    # --profile and --python, as `finscore exec` has them; convfinqa scores `finscore convfinqa`, not FinQA
    add_profile_options(parser, ("official", "strict"))
    add_report_options(parser, "failing predictions")
    add_interval_options(parser, "filings")
    parser.set_defaults(handler=run_finqa)


def run_equal_jsonl(args: argparse.Namespace) -> int:
    from finscore.finqa.equal_jsonl import stream_equal_jsonl

    comparer = None
    if args.profile == CONVFINQA:
        from finscore.convfinqa.equivalence import ConvFinqaComparer

        comparer = ConvFinqaComparer()
    summary = stream_equal_jsonl(sys.stdin, sys.stdout, explain=args.explain, comparer=comparer)
    if summary.errors:
        print(f"finscore finqa equal-jsonl: {len(summary.errors)} line(s) could not be decided "
              f"(written back with \"error\"), first: {summary.errors[0]}", file=sys.stderr)
    return summary.exit_code


def run_finqa(args: argparse.Namespace) -> int:
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError
    from finscore.finqa.scoring import score_predictions
    from finscore.finqa.terminal import render_report

    def score(progress: Any) -> Any:
        predictions = read_json_file(args.predictions, "prediction file")
        gold = read_json_file(args.gold, "gold file")
        swapped = swapped_files_message(predictions, gold)
        if swapped is not None:
            raise FinqaInputError(swapped)
        report = score_predictions(predictions, gold, profile=args.profile, python=args.python,
                                   exclude_bad_ids=args.exclude_bad_ids, progress=progress)
        return with_intervals("finqa", report, gold, args, FinqaInputError)

    return run_scoring("finqa", args, score, lambda report, examples: render_report(report, examples=examples),
                       FinqaInputError)
