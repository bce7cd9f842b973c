"""`finscore compare`: paired comparison of two contracts reports on the same cases."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from finscore.commands._support import EXIT_OK, add_statistics_options, check_replicates, emit, guarded
from finscore.contracts import compare_reports, load_report, render_comparison_html


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "compare",
        help="paired comparison of two contracts reports on the same cases",
        description=(
            "Compare report B with report A (both written by `finscore contracts` on the same case "
            "set): per-family and per-language change in pass rate, a seeded family bootstrap that "
            "keeps both candidates paired, an exact sign test over families (the independent units; it "
            "says when too few families changed to conclude anything) and, labelled row-level, an exact "
            "McNemar test on attempt outcomes. Exit status: "
            "0 comparison written, 2 bad input (different case sets or attempts included, or a self-check or "
            "scripted-agent report without --allow-non-model)."
        ),
        epilog="Example: finscore compare baseline.json candidate.json --html compare.html",
    )
    parser.add_argument("a", metavar="A.json", help="the baseline report")
    parser.add_argument("b", metavar="B.json", help="the report compared with it")
    parser.add_argument("--labels", nargs=2, metavar=("A", "B"), default=("A", "B"),
                        help="names for the two (default A B)")
    parser.add_argument(
        "--allow-non-model",
        action="store_true",
        help="compare a self-check or scripted-agent report anyway (the output then says so in a banner)",
    )
    parser.add_argument("--output", metavar="COMPARISON.json", help="write the JSON here (default: stdout)")
    parser.add_argument("--html", metavar="COMPARISON.html", help="also write a self-contained HTML page")
    add_statistics_options(parser)
    parser.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    def body() -> int:
        check_replicates(args.bootstrap)
        comparison = compare_reports(
            load_report(Path(args.a)),
            load_report(Path(args.b)),
            seed=args.seed,
            replicates=args.bootstrap,
            labels=tuple(args.labels),
            allow_non_model=args.allow_non_model,
        )
        emit(comparison, args.output, args.html, render_comparison_html)
        overall, test, family = comparison["overall"], comparison["exact_paired_test"], comparison["family_test"]
        (sys.stdout if args.output else sys.stderr).write(
            (f"{comparison['banner']}\n" if comparison["banner"] else "")
            + f"families: {family['note']}; exact sign test over {family['families']} families "
            f"p = {family['p_value']:.4g}\n"
            f"{comparison['trials']} paired attempts (row-level, not independent): {overall['a_rate']:.1%} -> "
            f"{overall['b_rate']:.1%} (change {overall['change']:+.1%}); row-level McNemar p = {test['p_value']:.4g}\n"
        )
        return EXIT_OK

    return guarded("compare", body)
