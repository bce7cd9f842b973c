"""`finscore convfinqa`: score ConvFinQA predictions under its authors' own protocol."""

from __future__ import annotations

import argparse
from typing import Any

from finscore.commands.forms import add_interval_options, add_report_options, add_scored_files, run_scoring, \
    with_intervals

DESCRIPTION = (
    "Score ConvFinQA predictions (the leaderboard format: a JSON list of {\"id\", \"predicted\": [tokens "
    "ending in EOF]}, one per turn) against a ConvFinQA conversation file (dev.json as released). A turn's id "
    "is <conversation id>#t<turn index from 0>, e.g. Single_MRO/2007/page_134.pdf-1#t0; the turn files' "
    "<conversation id>_<turn index> is accepted too. Prints execution and program accuracy exactly as the "
    "authors' evaluate_result computes them (denominator = predictions; a one-token program is a number "
    "selection; program accuracy counts valid, equivalent programs), then the same over all gold turns (a "
    "missing prediction counts as a failure), accuracy by turn index and by conversation type (Single / "
    "Double), the 95% intervals of the honest execution accuracy (Wilson, rows as independent, and a seeded cluster bootstrap over filings: a conversation's turns, and the Single and Double conversations made from one page, are not independent), the share of conversations with every turn right, and per-turn diagnostics. Where "
    "evaluate_result would stop on its assert, the turn is reported and scoring goes on. Unknown, duplicate "
    "or malformed entries stop the run with a list of them (exit status 2) unless --exclude-bad-ids is given."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "convfinqa",
        help="score ConvFinQA predictions: the authors' figures exactly, honest figures, per-turn diagnostics",
        description=DESCRIPTION,
        epilog="Example: finscore convfinqa examples/convfinqa/predictions.json examples/convfinqa/gold.json. "
               "Exit status: 0 scored, 2 unusable input or usage.",
    )
    add_scored_files(parser, "the prediction file (leaderboard format)",
                     "the ConvFinQA conversation file, e.g. dev.json")
    parser.add_argument("--python", default="3.11", metavar="VERSION",
                        help="CPython whose sum() to imitate in table_sum/table_average: 3.11 (default, "
                             "left to right) or 3.12 and later (compensated)")
    add_report_options(parser, "failing turns")
    add_interval_options(parser, "filings")
    parser.set_defaults(handler=run_convfinqa)


def run_convfinqa(args: argparse.Namespace) -> int:
    from finscore.convfinqa.scoring import score_convfinqa
    from finscore.convfinqa.terminal import render_convfinqa
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError

    def score(progress: Any) -> Any:
        predictions = read_json_file(args.predictions, "prediction file")
        gold = read_json_file(args.gold, "gold file")
        report = score_convfinqa(predictions, gold, python=args.python, exclude_bad_ids=args.exclude_bad_ids,
                                 progress=progress)
        return with_intervals("convfinqa", report, gold, args, FinqaInputError)

    return run_scoring("convfinqa", args, score, lambda report, examples: render_convfinqa(report, examples=examples),
                       FinqaInputError)
