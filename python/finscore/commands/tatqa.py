"""`finscore tatqa`: score a TAT-QA prediction file; `finscore tatqa decide-jsonl`: decide pair lines.

An argument list that starts with `decide-jsonl` goes to that form's own parser, which
`second_form` hands to the command line (see `finscore.cli`); the --help of `tatqa`
documents both forms.
"""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Any, Sequence

from finscore.cli import CommandParser
from finscore.commands.forms import add_interval_options, add_report_options, add_scored_files, named_form, \
    run_scoring, SecondForm, with_intervals

DECIDE_JSONL = "decide-jsonl"

USAGE = (
    "finscore tatqa PREDICTIONS GOLD [--json OUT] [--exclude-bad-ids] [--examples N] [--quiet]\n"
    "                      [--seed N] [--resamples B]\n"
    "       finscore tatqa decide-jsonl < pairs.jsonl > decisions.jsonl"
)
DESCRIPTION = (
    "Score TAT-QA predictions (the official format: a JSON object {uid: [answer, scale]}, the answer a text "
    "or a list of texts) against a TAT-QA gold file (tatqa_dataset_test_gold.json). Prints the official "
    "figures exactly as tatqa_eval.py prints them (exact match, F1, scale score and the three pivot tables), "
    "then the same over every gold question with the missing uids named, the figures over the scored "
    "predictions only, a typed reason for every miss, and the first failing questions. The honest exact match and F1 get their 95% intervals (Wilson for exact match, rows as independent, and a seeded cluster bootstrap over tables for both, with the number of tables, the design effect and the effective sample size). Unknown uids, "
    "repeated uids (duplicate JSON keys) and malformed entries stop the run with a list of them (exit "
    "status 2) unless --exclude-bad-ids is given."
)
EPILOG = (
    "decide-jsonl form: reads JSON lines {\"gold\": {answer, answer_type, scale}, \"pred\": [answer, scale]} on "
    "standard input and writes each back with \"em\" and \"f1\" (Python repr of the official floats), "
    "\"scale_match\", \"reason\" and \"reason_detail\"; a {\"file_totals\": ...} line is written back with the "
    "official totals of the lines so far. Exit status 1 if a line could not be decided (written back with "
    "\"error\"). A file literally named decide-jsonl can be scored as ./decide-jsonl. "
    "Exit status of the scoring form: 0 scored, 2 unusable input or usage."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tatqa",
        help="score TAT-QA predictions: official figures exactly, honest figures, reasons",
        usage=USAGE,
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    add_scored_files(parser, "the prediction file (official format)",
                     "the TAT-QA gold file, e.g. tatqa_dataset_test_gold.json")
    add_report_options(parser, "failing questions", ids="uids")
    add_interval_options(parser, "tables")
    parser.set_defaults(handler=run_tatqa)


def second_form(arguments: Sequence[str]) -> SecondForm | None:
    """The `decide-jsonl` form's parser and its arguments, when the arguments after `tatqa` start
    with `decide-jsonl`; None for the scoring form."""
    return named_form(arguments, DECIDE_JSONL, _decide_jsonl_parser)


def _decide_jsonl_parser() -> argparse.ArgumentParser:
    decide = CommandParser(
        prog="finscore tatqa decide-jsonl",
        description='Read JSON lines {"gold": {answer, answer_type, scale}, "pred": [answer, scale]} on standard '
                    'input and write each back, in order, with "em", "f1" (Python repr strings), "scale_match", '
                    '"reason" and "reason_detail" added, as one official TaTQAEmAndF1() call decides the pair. '
                    'A {"file_totals": ...} line is written back with the official totals of the lines so far. '
                    'A line that cannot be decided is written back with "error". Exit status: 0 all decided, '
                    '1 some lines not.',
    )
    decide.set_defaults(handler=run_decide_jsonl)
    return decide


def run_decide_jsonl(args: argparse.Namespace) -> int:
    from finscore.tatqa.decide_jsonl import stream_decisions

    summary = stream_decisions(sys.stdin, sys.stdout)
    if summary.errors:
        print(f"finscore tatqa decide-jsonl: {len(summary.errors)} line(s) could not be decided "
              f"(written back with \"error\"), first: {summary.errors[0]}", file=sys.stderr)
    return summary.exit_code


def run_tatqa(args: argparse.Namespace) -> int:
    # The decoded files are some hundred thousand objects that live to the end of the run and
    # make no reference cycles; the cyclic garbage collector's passes over them are pure cost
    # (about a fifth of a run), so it rests until the command is done.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _score_file(args)
    finally:
        if collecting:
            gc.enable()


def _score_file(args: argparse.Namespace) -> int:
    from finscore.tatqa.files import TatqaInputError, read_gold_file, read_predictions_file
    from finscore.tatqa.scoring import score_predictions
    from finscore.tatqa.terminal import render_report

    def score(progress: Any) -> Any:
        predictions, pairs = read_predictions_file(args.predictions)
        gold = read_gold_file(args.gold)
        report = score_predictions(predictions, pairs, gold, exclude_bad_ids=args.exclude_bad_ids, progress=progress)
        return with_intervals("tatqa", report, gold, args, TatqaInputError)

    return run_scoring("tatqa", args, score, lambda report, examples: render_report(report, examples=examples),
                       TatqaInputError)
