"""`finscore NAME PREDICTIONS GOLD`: the command of a registered benchmark that has none of its own.

Its parser, help and report come from the benchmark's registry descriptor
(finscore.registry), scored by finscore.descriptor_scoring.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from finscore.registry import Benchmark

from finscore.exit_status import EXIT_OK, EXIT_USAGE


def register(subparsers: Any, benchmark: Benchmark) -> None:
    parser = subparsers.add_parser(
        benchmark.name,
        help=f"score a {benchmark.title} prediction file ({benchmark.official_scorer})",
        description=(f"Score {benchmark.title} predictions against a gold file. Prints the official figure "
                     f"({benchmark.official_protocol}), the honest figure ({benchmark.honest_protocol}), "
                     f"the number of independence units ({benchmark.unit.description}), each reason's count "
                     f"and the first failing examples. Repeated or unknown prediction ids stop the run with a "
                     f"list of them. Exit status: 0 scored, 2 unusable input."),
    )
    parser.add_argument("predictions", metavar="PREDICTIONS", help="the prediction file")
    parser.add_argument("gold", metavar="GOLD", help="the gold file")
    parser.add_argument("--json", metavar="OUT", help="write the whole report as JSON to OUT ('-': standard output)")
    parser.set_defaults(handler=lambda args: run(args, benchmark))


def run(args: argparse.Namespace, benchmark: Benchmark) -> int:
    from finscore.descriptor_scoring import render_text, score_files
    from finscore.inputs import FinscoreError, dumps_pretty
    from finscore.outputs import write_output

    try:
        report = score_files(benchmark, args.predictions, args.gold)
    except FinscoreError as error:
        print(f"finscore {benchmark.name}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json is not None:
        write_output(args.json, dumps_pretty(report.as_json()))
    if args.json != "-":
        sys.stdout.write(render_text(report))
    return EXIT_OK
