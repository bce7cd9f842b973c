"""`finscore answers`: score free-text answers under a declared protocol; `decide-jsonl`; `verify`.

As with `finscore finqa`, argparse cannot put sub-commands beside positional
arguments, so an argument list starting with `decide-jsonl` or `verify` goes to
that form's own parser, which `second_form` hands to the command line (see
`finscore.cli`); the `answers` parser's --help documents every form.
"""

from __future__ import annotations

import argparse
import json
import sys
from gettext import gettext
from pathlib import Path
from typing import Any, Sequence

from finscore.commands.forms import SecondForm, add_interval_options, check_interval_options, named_form
from finscore.exit_status import EXIT_OK, EXIT_USAGE
from finscore.registry import all_answer_protocols
from finscore.inputs.bounds import MAX_ANSWER_PREDICTIONS_BYTES

EXIT_FAILED = 1
FORMS = ("decide-jsonl", "verify")
#: The answer protocols of the registered benchmarks (finscore.registry).
BUILTIN_PROTOCOLS = all_answer_protocols()
FORMAT_CHOICES = ("answer-line", "boxed", "json", "whole", "phrase", "tag", "last-number")
MAX_PREDICTION_BYTES = MAX_ANSWER_PREDICTIONS_BYTES

USAGE = (
    "finscore answers --protocol NAME --format FORMAT PREDICTIONS GOLD [--json OUT] [--html OUT]\n"
    "                        [--exclude-bad-ids] [--examples N] [--quiet] [--seed N] [--resamples B]\n"
    "       finscore answers decide-jsonl --protocol NAME --format FORMAT < lines.jsonl > decisions.jsonl\n"
    "       finscore answers verify REPORT.json [--no-rerun]"
)
DESCRIPTION = (
    "Score free-text answers (PREDICTIONS: JSON Lines of {\"id\", \"completion\"} or {\"id\", \"answer\"}) against a "
    "FinQA, ConvFinQA (turn ids <conversation id>#t<turn from 0>) or TAT-QA (uid) file, under one declared, "
    "versioned protocol (finqa-answer/1, convfinqa-answer/1, tatqa-answer/1; financemath-answer/1 and /2 through "
    "decide-jsonl) and one declared answer format. "
    "Every decision has a typed reason; the report carries the protocol's rules and a conformance stamp. "
    "An {\"answer\"} line is read whole, whatever the format. Unknown, repeated or malformed lines stop the run "
    "with every one named (exit status 2; lines are numbered from 1) unless --exclude-bad-ids is given."
)
DECIDE_JSONL_DESCRIPTION = (
    "Reads {\"completion\", \"gold\"} lines on standard input (gold: {\"exe_ans\", \"program\"?, "
    "\"question\"?} for FinQA and ConvFinQA, {\"answer\", \"scale\", \"answer_type\"?} for TAT-QA, {\"ground_truth\", "
    "\"question\"} for financemath-answer/1 and /2) and writes each back "
    "with \"decision\"; a line that cannot be decided gets \"error\" (exit status 1)."
)
EPILOG = (
    "decide-jsonl: " + DECIDE_JSONL_DESCRIPTION[0].lower() + DECIDE_JSONL_DESCRIPTION[1:] + " verify: re-checks the stamp of a "
    "--json report against this installation and re-decides the protocol's conformance file (exit status 1 if any "
    "check fails)."
)


def _add_protocol_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--protocol", required=True, choices=BUILTIN_PROTOCOLS, help="the answer protocol")
    parser.add_argument("--format", required=True, choices=FORMAT_CHOICES, dest="answer_format",
                        help="where the final answer is: the last 'Answer:' line, the last \\boxed{}, a JSON "
                             "object with \"answer\", the whole completion, the rest of the sentence after the "
                             "last declared phrase ('the answer is'), the last <answer>...</answer>, or "
                             "(lenient) the last number")


class _FormParser(argparse.ArgumentParser):
    """A form's parser that refuses arguments it does not know as the `finscore` parser does
    (its usage, then `finscore: error: unrecognized arguments: ...`), as `finscore answers`
    always has: its forms were first parsed within the `finscore` parser."""

    # typeshed overloads it
    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: None = None) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            from finscore.cli import build_parser

            build_parser(("answers",)).error(gettext("unrecognized arguments: %s") % " ".join(extras))
        return parsed


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("answers", help="score free-text answers under a declared answer protocol",
                                   usage=USAGE, description=DESCRIPTION, epilog=EPILOG)
    _add_protocol_options(parser)
    parser.add_argument("predictions", metavar="PREDICTIONS", help="JSON Lines of {id, completion} or {id, answer}")
    parser.add_argument("gold", metavar="GOLD", help="a FinQA, ConvFinQA or TAT-QA file")
    parser.add_argument("--json", metavar="OUT", help="write the whole report as JSON ('-': standard output)")
    parser.add_argument("--html", metavar="OUT", help="write an offline HTML report (reasons chart, failing answers)")
    parser.add_argument("--exclude-bad-ids", action="store_true",
                        help="exclude and list unknown, repeated and malformed lines instead of stopping")
    parser.add_argument("--examples", type=int, default=10, metavar="N",
                        help="failures listed in the text report (default 10; 0 for none)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on standard error")
    add_interval_options(parser, "gold file's independence unit (filing, or table)")
    parser.set_defaults(handler=run_answers)


def second_form(arguments: Sequence[str]) -> SecondForm | None:
    """The parser of `decide-jsonl` or `verify` and the arguments after that name, when the
    arguments after `answers` start with it; None for the scoring form."""
    parsers = {"decide-jsonl": _decide_jsonl_parser, "verify": _verify_parser}
    return next((form for name in FORMS if (form := named_form(arguments, name, parsers[name])) is not None), None)


def _decide_jsonl_parser() -> argparse.ArgumentParser:
    decide = _FormParser(prog="finscore answers decide-jsonl", description=DECIDE_JSONL_DESCRIPTION)
    _add_protocol_options(decide)
    decide.set_defaults(handler=run_decide_jsonl)
    return decide


def _verify_parser() -> argparse.ArgumentParser:
    verify = _FormParser(prog="finscore answers verify",
                         description="Re-check the conformance stamp of a `finscore answers --json` report.")
    verify.add_argument("report", metavar="REPORT", help="a report written by --json")
    verify.add_argument("--no-rerun", action="store_true", help="do not re-decide the conformance file")
    verify.set_defaults(handler=run_verify)
    return verify


def _read_predictions(path: str) -> bytes:
    from finscore.finqa.inputs import FinqaInputError
    from finscore.inputs.reading import FileReadError, read_bounded

    file = Path(path)
    try:
        return read_bounded(file, MAX_PREDICTION_BYTES)
    except FileReadError as error:
        if error.kind == "directory":
            raise FinqaInputError(f"the prediction file {file} is a directory") from None
        if error.kind in ("too_large", "grew"):
            raise FinqaInputError(f"the prediction file {file} is larger than {MAX_PREDICTION_BYTES} bytes") from None
        raise FinqaInputError(f"cannot read the prediction file {file}: {error.detail}") from None


def run_answers(args: argparse.Namespace) -> int:
    from finscore.answers.html import render_html
    from finscore.answers.registry import get_protocol
    from finscore.answers.report import score_answers
    from finscore.answers.terminal import render_report
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError
    from finscore.finqa.progress import progress_bar
    from finscore.outputs import OutputError, write_output

    if args.examples < 0:
        print("finscore answers: --examples must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    if not check_interval_options("answers", args):
        return EXIT_USAGE
    bar = progress_bar(sys.stderr, quiet=args.quiet)
    try:
        raw = _read_predictions(args.predictions)
        gold = read_json_file(args.gold, "gold file")
        report = score_answers(raw, gold, get_protocol(args.protocol), args.answer_format,
                               exclude_bad_ids=args.exclude_bad_ids, progress=bar)
    except FinqaInputError as error:
        failure: FinqaInputError | None = error
    else:
        failure = None
    finally:
        if bar is not None:
            bar.close()
    if failure is not None:
        print(f"finscore answers: {failure}", file=sys.stderr)
        return EXIT_USAGE
    from finscore.stats.benchmarks import headline_intervals
    from finscore.stats.headline import intervals_html, intervals_text

    intervals = headline_intervals("answers", report, gold, seed=args.seed, resamples=args.resamples)
    try:
        if args.html is not None:
            page = render_html(report)
            cut = page.rindex("</body>")
            write_output(args.html, page[:cut] + intervals_html(intervals) + page[cut:])
        if args.json is not None:
            document = report.to_json()
            document["uncertainty"] = [interval.to_json() for interval in intervals]
            write_output(args.json, json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    except OutputError as error:
        print(f"finscore answers: {error}", file=sys.stderr)
        return EXIT_USAGE
    if "-" not in (args.json, args.html):
        lines = intervals_text(intervals, indent="")
        print(render_report(report, examples=args.examples) + "\n\n" + "\n".join(lines))
    return EXIT_OK


def run_decide_jsonl(args: argparse.Namespace) -> int:
    from finscore.answers.decide_jsonl import stream_decide_jsonl
    from finscore.answers.registry import get_protocol

    summary = stream_decide_jsonl(sys.stdin.buffer, sys.stdout, get_protocol(args.protocol), args.answer_format)
    if summary.errors:
        print(f"finscore answers decide-jsonl: {len(summary.errors)} line(s) not decided (written back with "
              f"\"error\"), first: {summary.errors[0]}", file=sys.stderr)
    return summary.exit_code


def run_verify(args: argparse.Namespace) -> int:
    from finscore.answers.stamp import verify_stamp
    from finscore.finqa.files import read_json_file
    from finscore.finqa.inputs import FinqaInputError

    try:
        report = read_json_file(args.report, "report")
    except FinqaInputError as error:
        print(f"finscore answers verify: {error}", file=sys.stderr)
        return EXIT_USAGE
    if not isinstance(report, dict):
        print("finscore answers verify: the report is not a JSON object", file=sys.stderr)
        return EXIT_USAGE
    problems = verify_stamp(report, rerun=not args.no_rerun)
    found = report.get("stamp")
    stamp: dict[str, Any] = found if isinstance(found, dict) else {}
    if problems:
        print(f"finscore answers verify: the stamp does NOT hold ({len(problems)} problem(s)):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_FAILED
    print(f"stamp holds: {stamp.get('protocol')}, finscore {stamp.get('finscore')}, conformance sha256 "
          f"{stamp.get('conformance_sha256')}" + ("" if args.no_rerun else ", conformance file re-decided: all rows as labelled"))
    return EXIT_OK
