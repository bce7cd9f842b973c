"""`finscore compare`: paired comparison of two contracts reports on the same cases; and, when the first
argument names a benchmark (`finscore compare finqa A B GOLD`), of two or more prediction files scored
against one gold file (finscore.stats.compare). argparse cannot put that form beside A.json B.json, so it
has its own parser, handed to the command line by `second_form` (see `finscore.cli`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from finscore.cli import CommandParser
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
        epilog="Example: finscore compare baseline.json candidate.json --html compare.html. "
               "Benchmark form: finscore compare {finqa,convfinqa,tatqa} A B [C ...] GOLD compares prediction "
               "files scored against one gold file (see finscore compare finqa --help); a contracts report "
               "literally named finqa can be compared as ./finqa.",
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


#: The benchmarks whose prediction files the benchmark form compares.
BENCHMARK_FORMS = ("finqa", "convfinqa", "tatqa")


def second_form(arguments: Sequence[str]) -> tuple[argparse.ArgumentParser, list[str]] | None:
    """The benchmark form's parser and its arguments when the first argument names a benchmark."""
    if not arguments or arguments[0] not in BENCHMARK_FORMS:
        return None
    return _benchmark_parser(arguments[0]), list(arguments[1:])


def _benchmark_parser(benchmark: str) -> argparse.ArgumentParser:
    from finscore.commands.forms import DEFAULT_RESAMPLES, DEFAULT_SEED, MAX_RESAMPLES

    parser = CommandParser(
        prog=f"finscore compare {benchmark}",
        description=(
            f"Compare {benchmark} prediction files scored against one gold file, paired row by row: every gold "
            "row counts for every system (a missing prediction is that system's failure). For each pair: the "
            "paired table (both right, both wrong, A only, B only), the exact McNemar test, the difference B - A "
            "with a 95% paired cluster bootstrap interval over the benchmark's independence unit (whole units "
            "resampled, both systems paired inside each), the rows B fixed and broke listed by reason, and the "
            "same per subgroup of the report (ConvFinQA: turn index; TAT-QA: answer type x source, scale). Three "
            "or more files: every pair, and a sentence when the ranking is not supported by the data. Files "
            "that hold rows of another gold file, or entries the scorer cannot use, are refused. Exit status: "
            "0 compared, 2 unusable input or usage."),
        epilog=f"Example: finscore compare {benchmark} A.json B.json GOLD.json --html compare.html",
    )
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="two or more prediction files, then the gold file (the last)")
    parser.add_argument("--labels", nargs="+", metavar="LABEL",
                        help="names for the systems, in order (default: A, B, C, ...)")
    parser.add_argument("--json", metavar="OUT", help="also write the comparison as JSON to OUT ('-': standard "
                                                      "output, instead of the text)")
    parser.add_argument("--html", metavar="OUT.html", help="also write a self-contained HTML page with a chart")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"seed of the paired cluster bootstrap (default {DEFAULT_SEED})")
    parser.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES, metavar="B",
                        help=f"bootstrap resamples (default {DEFAULT_RESAMPLES}, 1 to {MAX_RESAMPLES})")
    parser.set_defaults(handler=run_benchmark_compare, benchmark=benchmark)
    return parser


def _score(benchmark: str, predictions_path: str, gold: Any, gold_path: str) -> Any:
    """One prediction file's honest report (the scorer's own input errors propagate)."""
    if benchmark == "tatqa":
        from finscore.tatqa.files import read_predictions_file
        from finscore.tatqa.scoring import score_predictions as score_tatqa

        predictions, pairs = read_predictions_file(predictions_path)
        return score_tatqa(predictions, pairs, gold)
    from finscore.finqa.files import read_json_file

    predictions = read_json_file(predictions_path, "prediction file")
    if benchmark == "convfinqa":
        from finscore.convfinqa.scoring import score_convfinqa

        return score_convfinqa(predictions, gold)
    from finscore.finqa.file_order import swapped_files_message
    from finscore.finqa.inputs import FinqaInputError
    from finscore.finqa.scoring import score_predictions

    swapped = swapped_files_message(predictions, gold)
    if swapped is not None:
        raise FinqaInputError(swapped)
    return score_predictions(predictions, gold)


def run_benchmark_compare(args: argparse.Namespace) -> int:
    import string

    from finscore.commands.forms import MAX_RESAMPLES
    from finscore.exit_status import EXIT_USAGE
    from finscore.finqa.inputs import FinqaInputError
    from finscore.inputs import FinscoreError
    from finscore.outputs import OutputError, write_output
    from finscore.stats.benchmarks import UnitError
    from finscore.tatqa.files import TatqaInputError
    from finscore.stats.compare import ComparisonError, System, compare_systems, comparison_html, comparison_text

    command = f"finscore compare {args.benchmark}"
    if len(args.files) < 3:
        print(f"{command}: give two or more prediction files and then the gold file", file=sys.stderr)
        return EXIT_USAGE
    *predictions, gold_path = args.files
    labels = args.labels or [string.ascii_uppercase[i] if i < 26 else f"S{i + 1}" for i in range(len(predictions))]
    if len(labels) != len(predictions):
        print(f"{command}: {len(labels)} labels for {len(predictions)} prediction files", file=sys.stderr)
        return EXIT_USAGE
    if not 1 <= args.resamples <= MAX_RESAMPLES:
        print(f"{command}: --resamples must be 1 to {MAX_RESAMPLES}, not {args.resamples}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.benchmark == "tatqa":
            from finscore.tatqa.files import read_gold_file

            gold = read_gold_file(gold_path)
        else:
            from finscore.finqa.files import read_json_file

            gold = read_json_file(gold_path, "gold file")
        systems = []
        for label, path in zip(labels, predictions):
            try:
                systems.append(System(label, _score(args.benchmark, path, gold, gold_path)))
            except (FinscoreError, FinqaInputError, TatqaInputError) as error:
                raise ComparisonError(f"{label} ({path}): {error}") from error
        comparison = compare_systems(args.benchmark, systems, gold, seed=args.seed, resamples=args.resamples)
        comparison["files"] = {"gold": gold_path, **dict(zip(labels, predictions))}
        if args.json is not None:
            write_output(args.json, json.dumps(comparison, ensure_ascii=False, indent=1) + "\n")
        if args.html is not None:
            write_output(args.html, comparison_html(comparison))
    except (FinscoreError, FinqaInputError, TatqaInputError, UnitError, ComparisonError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json != "-":
        sys.stdout.write(comparison_text(comparison))
    return EXIT_OK
