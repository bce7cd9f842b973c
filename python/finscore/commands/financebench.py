"""`finscore financebench GOLD ANSWERS`: FinanceBench answers on both axes, beside the human labels.

GOLD is data/financebench_open_source.jsonl; ANSWERS a results file (results/*.jsonl: financebench_id,
model_answer, optionally label and a citation). The text report gives the correct figure
(financebench-answer/1), the supported figure, both axes, every reason's count and the agreement
with the human labels; --json writes the whole report, --html an offline page with each passage's
supporting number highlighted.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from finscore.exit_status import EXIT_OK, EXIT_USAGE

DESCRIPTION = (
    "Score FinanceBench answers (a results/*.jsonl file of patronus-ai/financebench: financebench_id, "
    "model_answer, optionally the human label and a citation doc_name/page) against the gold file "
    "(data/financebench_open_source.jsonl). Each answer's claim is read (value, unit, scale, period, entity, "
    "line item); on metrics-generated questions with a numeric gold it is decided under financebench-answer/1 "
    "with a typed reason; on every question its support by the gold's evidence page is checked (document, "
    "page, number after declared transforms, row, period). Prints both axes, the reasons and the agreement "
    "with the human labels. Exit status: 0 scored, 2 unusable input."
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "financebench",
        help="score FinanceBench answers: numeric correctness, evidence support, agreement with human labels",
        usage="finscore financebench GOLD ANSWERS [--json OUT] [--html OUT]",
        description=DESCRIPTION,
    )
    parser.add_argument("gold", metavar="GOLD", help="the gold file, data/financebench_open_source.jsonl")
    parser.add_argument("answers", metavar="ANSWERS", help="the answers file, e.g. results/gpt-4_oracle.jsonl")
    parser.add_argument("--json", metavar="OUT", help="write the whole report as JSON to OUT ('-': standard output)")
    parser.add_argument("--html", metavar="OUT", help="write an offline HTML page of every answer and its passage")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from finscore.financebench.gold import read_gold_file
    from finscore.financebench.html import render_html
    from finscore.financebench.report import render_text, report_json
    from finscore.financebench.results import read_answers_file
    from finscore.financebench.scoring import score
    from finscore.inputs import FinscoreError, dumps_pretty
    from finscore.outputs import write_output

    try:
        scored = score(read_gold_file(args.gold), read_answers_file(args.answers))
    except FinscoreError as error:
        print(f"finscore financebench: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    document = report_json(scored)
    if args.json is not None:
        write_output(args.json, dumps_pretty(document))
    if args.html is not None:
        write_output(args.html, render_html(scored))
    if args.json != "-":
        sys.stdout.write(render_text(document))
    return EXIT_OK
