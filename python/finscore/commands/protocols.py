"""`finscore protocols`: published peer scorers (HELM, FinBen/PIXIU, ...) reproduced: `list`, `decide-jsonl`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from finscore.exit_status import EXIT_OK, EXIT_USAGE
from finscore.protocols.registry import protocol_ids

DESCRIPTION = (
    "Published financial-QA scorers of other harnesses and papers, each reproduced exactly as a declared, "
    "versioned protocol that never executes model text. Every protocol has a signature string naming its id and "
    "version, the peer's repository, commit and file, its tolerance and reading rules, and finscore's version; "
    "each form prints it. Forms: `list` (the protocols and their signatures), `decide-jsonl` (decide lines) and "
    "`compare` (one completions file under every applicable protocol).")
LIST_DESCRIPTION = "List every shipped protocol: its id, version and signature string."
DECIDE_DESCRIPTION = (
    "Read JSON lines as the peers' recorded vectors hold them (tests/data/vectors/peers/*.jsonl.gz: PIXIU "
    "lines with \"pred\" and \"gold\"; HELM lines with \"generated\", \"ref_program\", \"ref_exe\" and the FinQA "
    "table, or its id as \"table_ref\" with --tables) and write each back, in order, with the protocol's "
    "decision added or replaced (\"acc\" as {\"value\": ...} or {\"raises\": \"ExceptionType\"} for the PIXIU "
    "protocols, \"metric\" for helm-finqa) and \"reason\", the rule that decided. A line that cannot be decided "
    "is written back with \"error\": {\"type\", \"line\", \"message\"} (lines numbered from 1) and the others "
    "are still decided; the exit status is then 1. The protocol's signature goes to standard error first.")
COMPARE_DESCRIPTION = (
    "Decide one file of completions under every protocol that applies to the gold file's benchmark. FinQA "
    "(a FinQA gold file): helm-finqa (the completion as a program, scored by execution_accuracy), pixiu-finqa "
    "(against str(exe_ans)) and finscore's finqa-answer/1 (--format); ConvFinQA (its conversations file, one "
    "gold example a turn, ids <conversation>#t<turn>): pixiu-convfinqa and convfinqa-answer/1; the predictions are {\"id\", \"completion\"} JSON lines or FinQA's own prediction "
    "file ([{\"id\", \"predicted\": tokens}], each token list written as its program text). FinanceMath (a gold "
    "file like FinanceMath's data/validation.json): financemath, docmath, financereasoning and finmmr on the "
    "peers' stored extracted answer, and finscore's financemath-answer/1 on the raw completion (--format); the "
    "predictions are a stored output file of the peer ([{\"question_id\", \"output\", \"extracted_pred_answer\"}]) "
    "or {\"id\", \"completion\", \"extracted\"} JSON lines (\"extracted\" on every line or none; without it the "
    "four peers do not apply, and the report says so). One row per protocol: score, accepted over every gold "
    "example, the decisions where the peer raises, the missing completions, the figure as the peer publishes it "
    "(over the completions given) and the peer_executes_code count; each protocol's signature; then every "
    "example where the protocols disagree, with each protocol's reason and a typed reason for each "
    "disagreement (docs/protocols.md). A malformed or repeated line or entry, or a bad gold example, stops "
    "the run (exit status 2) with every one named.")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("protocols", help="decide lines under published peer scorers (HELM, PIXIU, ...), "
                                                     "each with a signature string",
                                   description=DESCRIPTION)
    parser.set_defaults(handler=lambda args: _no_form(parser))
    forms = parser.add_subparsers(dest="form", metavar="FORM")
    listing = forms.add_parser("list", help="the protocols, their versions and signatures",
                               description=LIST_DESCRIPTION)
    listing.set_defaults(handler=run_list)
    decide = forms.add_parser("decide-jsonl", help="decide JSON lines under one protocol",
                              description=DECIDE_DESCRIPTION)
    decide.add_argument("--protocol", required=True, choices=protocol_ids(), metavar="P",
                        help=f"the protocol: {', '.join(protocol_ids())}")
    decide.add_argument("--tables", action="append", default=[], metavar="FINQA.json",
                        help="a FinQA file whose tables the lines name by \"table_ref\" (repeatable)")
    decide.add_argument("source", nargs="?", default="-", metavar="IN",
                        help="the JSON lines to decide (default '-': standard input)")
    decide.add_argument("destination", nargs="?", default="-", metavar="OUT",
                        help="where the decided lines go (default '-': standard output; a file is written whole "
                             "once every line is decided)")
    decide.set_defaults(handler=run_decide_jsonl)
    compare = forms.add_parser("compare", help="one completions file under every applicable protocol",
                               description=COMPARE_DESCRIPTION)
    compare.add_argument("predictions", metavar="PREDICTIONS",
                         help="JSON lines of {\"id\", \"completion\"}, or the benchmark's own predictions file")
    compare.add_argument("--benchmark", required=True, choices=("finqa", "convfinqa", "financemath"),
                         help="the gold file's benchmark")
    compare.add_argument("gold", metavar="GOLD", help="the gold file (a JSON list of examples or questions)")
    compare.add_argument("--format", metavar="FORMAT",
                         help="the answer format finscore's own protocol (finqa-answer/1, convfinqa-answer/1, "
                              "financemath-answer/1) reads the completion with (default: whole for FinQA and "
                              "ConvFinQA, phrase for FinanceMath)")
    compare.add_argument("--html", metavar="OUT", help="also write an offline HTML page (the table, a chart of the "
                                                       "scores by protocol, the disagreements and their reasons)")
    compare.add_argument("--json", metavar="OUT", help="write the whole comparison as JSON ('-': standard output, "
                                                       "instead of the text)")
    compare.add_argument("--examples", type=int, default=10, metavar="N",
                         help="disagreements listed in the text (default 10; 0 for none)")
    compare.set_defaults(handler=run_compare)


def _no_form(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_USAGE


def _record(protocol_id: str) -> Any:
    """The protocol's record, or the words saying that its module is missing from this installation."""
    from finscore.protocols.registry import BUILTIN_PROTOCOLS, get_protocol

    try:
        return get_protocol(protocol_id)
    except ModuleNotFoundError as error:
        if error.name != BUILTIN_PROTOCOLS[protocol_id]:
            raise
        return f"unavailable: this installation has no module {error.name}"


def run_list(args: argparse.Namespace) -> int:
    """One row per protocol; exit status 1 when a shipped protocol's module is missing."""
    from finscore.protocols.signature import signature_of

    width = max(len("ID"), *(len(protocol_id) for protocol_id in protocol_ids()))
    print(f"{'ID':<{width}}  VERSION  SIGNATURE")
    missing = 0
    for protocol_id in protocol_ids():
        record = _record(protocol_id)
        if isinstance(record, str):
            missing += 1
            print(f"{protocol_id:<{width}}  {'-':<7}  ({record})")
        else:
            print(f"{record.id:<{width}}  {record.version:<7}  {signature_of(record)}")
    return 1 if missing else EXIT_OK


def run_decide_jsonl(args: argparse.Namespace) -> int:
    import io

    from finscore.finqa.inputs import FinqaInputError
    from finscore.outputs import OutputError, write_output
    from finscore.protocols import read_tables
    from finscore.protocols.signature import signature_of
    from finscore.protocols.stream import TablesError, decide_jsonl

    command = "finscore protocols decide-jsonl"
    protocol = _record(args.protocol)
    if isinstance(protocol, str):
        print(f"{command}: {args.protocol}: {protocol}", file=sys.stderr)
        return EXIT_USAGE
    try:
        tables = read_tables(args.tables) if args.tables else None
    except (FinqaInputError, TablesError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(f"{command}: {signature_of(protocol)}", file=sys.stderr)
    sink = sys.stdout if args.destination == "-" else io.StringIO()
    if args.source == "-":
        summary = decide_jsonl(sys.stdin, sink, protocol, tables)
    else:
        try:
            source = open(args.source, "rb")
        except OSError as error:
            print(f"{command}: cannot read {args.source}: {error.strerror}", file=sys.stderr)
            return EXIT_USAGE
        with source:
            summary = decide_jsonl(source, sink, protocol, tables)
    if isinstance(sink, io.StringIO):
        try:
            write_output(args.destination, sink.getvalue())
        except OutputError as error:
            print(f"{command}: {error}", file=sys.stderr)
            return EXIT_USAGE
    if summary.errors:
        print(f"{command}: {len(summary.errors)} of {summary.lines} line(s) not decided (written back with "
              f"\"error\"), first: {summary.errors[0]}", file=sys.stderr)
    return summary.exit_code


def run_compare(args: argparse.Namespace) -> int:
    from finscore.answers import FORMATS
    from finscore.commands.forms import print_report
    from finscore.finqa.inputs import FinqaInputError
    from finscore.outputs import OutputError, write_output
    from finscore.protocols.compare import CompareInputError, compare, render
    from finscore.protocols.compare_html import render_html
    from finscore.protocols.compare_inputs import read_gold, read_predictions, with_turn_ids

    command = "finscore protocols compare"
    if args.examples < 0:
        print(f"{command}: --examples must be 0 or more", file=sys.stderr)
        return EXIT_USAGE
    if args.format is not None and args.format not in FORMATS:
        print(f"{command}: --format: no answer format {args.format!r}; the formats are {', '.join(FORMATS)}",
              file=sys.stderr)
        return EXIT_USAGE
    if "-" == args.html:
        print(f"{command}: --html needs a file (standard output is the text or the JSON)", file=sys.stderr)
        return EXIT_USAGE
    path = args.predictions
    try:
        completions = read_predictions(path, args.benchmark)
        path = args.gold
        gold = read_gold(path, args.benchmark)
        if args.benchmark == "convfinqa":
            completions = with_turn_ids(completions, gold)
        report = compare(completions, gold, args.benchmark, answer_format=args.format)
    except OSError as error:
        print(f"{command}: cannot read {path}: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except (CompareInputError, FinqaInputError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.html is not None:
        try:
            write_output(args.html, render_html(report))
        except OutputError as error:
            print(f"{command}: {error}", file=sys.stderr)
            return EXIT_USAGE
    return print_report(command, args, lambda: report, lambda: render(report, args.examples))
