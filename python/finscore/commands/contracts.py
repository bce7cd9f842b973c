"""`finscore contracts`: score typed financial answers and agent traces against case contracts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from finscore.commands._support import (
    EXIT_CHECK_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    add_key_option,
    add_statistics_options,
    check_replicates,
    emit,
    guarded,
    key_path,
)
from finscore.contracts import (
    KIT_ALIAS,
    build_report,
    evaluate,
    load_cases,
    read_predictions,
    render_report_html,
    resolve_cases_path,
    run_self_check,
    Verification,
)
from finscore.contracts.formats.predictions import refuse_interrupted
from finscore.integrity import TraceKeyError, load_key


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "contracts",
        help="score typed financial answers and agent traces against case contracts",
        description=(
            "Score predictions (JSON Lines, each with its trusted trace) against a case set and write "
            "a JSON report with honest counts, exact intervals and every failure with its category. "
            f"CASES is a directory of case files, a case-set JSON file, or {KIT_ALIAS} for the shipped "
            "kit. --oracle runs the instrument self-check on the kit instead (oracle records, their "
            "mutations and the probes): a check of the scorer, not a model accuracy. Formats: "
            "docs/contracts-format.md. Exit status: 0 report written (and, with --oracle, self-check "
            "as expected), 1 self-check not as expected, 2 bad input."
        ),
        epilog="Example: finscore contracts @kit run/predictions.jsonl --output report.json --html report.html",
    )
    parser.add_argument("cases", nargs="?", metavar="CASES", help=f"case set, or {KIT_ALIAS}")
    parser.add_argument("predictions", nargs="?", metavar="PREDICTIONS", help="predictions (JSON Lines)")
    parser.add_argument("--oracle", action="store_true", help="run the instrument self-check on the kit")
    parser.add_argument("--output", metavar="REPORT.json", help="write the JSON report here (default: stdout)")
    parser.add_argument("--html", metavar="REPORT.html", help="also write a self-contained HTML report")
    parser.add_argument(
        "--attempts",
        type=int,
        metavar="K",
        help="attempts per case (default: what the run's sealed header declares, else the highest attempt "
        "index + 1); missing attempts fail",
    )
    add_key_option(parser, "to verify the seal of every attempt")
    parser.add_argument(
        "--accept-unsealed",
        action="store_true",
        help="score traces without verifying their seals (the report says so on its first line); recorded "
        "calls are still replayed",
    )
    add_statistics_options(parser)
    parser.set_defaults(handler=run_contracts)


def _verdict(report: dict[str, Any]) -> str:
    check = report.get("self_check")
    counts = report["counts"]
    if check is None:
        ok = counts["passed"] == counts["trials"]
        return f"verdict: oracle records {counts['passed']}/{counts['trials']}: " + (
            "as expected" if ok else "NOT AS EXPECTED"
        )
    return (
        f"verdict: oracle {check['oracle']['passed']}/{check['oracle']['of']}, mutations "
        f"{check['mutations']['failed_as_expected']}/{check['mutations']['applicable']}, probes "
        f"{check['probes']['as_written']}/{check['probes']['count']}: "
        + ("as expected" if check["ok"] else "NOT AS EXPECTED")
    )


def _summary(report: dict[str, Any]) -> str:
    """Plain text: unverified traces say so first; the instrument leads with its verdict and shows no
    rate; a candidate gets its rates."""
    counts = report["counts"]
    instrument = report["kind"] == "instrument_self_check"
    lines = [report["warning"]] if "warning" in report else []
    if instrument:
        lines.append(_verdict(report))
    lines += [
        report["statement"],
        f"cases {counts['cases']}, trials {counts['trials']}: attempted {counts['attempted']}, "
        f"submitted {counts['submitted']}, completed {counts['completed']}, passed {counts['passed']}, "
        f"critical {counts['critical']}",
    ]
    if not instrument:
        lines += [report["pass_rate"]["statement"], report["row_pass_rate"]["statement"]]
    if "warning" not in report:
        lines.append(report["integrity"]["statement"])
    if report["predictions"]["rejected_lines"]:
        lines.append(
            f"warning: {len(report['predictions']['rejected_lines'])} prediction line(s) rejected "
            "(listed in the report)"
        )
    return "\n".join(lines) + "\n"


def run_contracts(args: argparse.Namespace) -> int:
    def body() -> int:
        check_replicates(args.bootstrap)
        if args.oracle:
            if args.cases or args.predictions or args.attempts:
                print("finscore contracts: error: --oracle takes no CASES, PREDICTIONS or --attempts", file=sys.stderr)
                return EXIT_USAGE
            report = run_self_check(seed=args.seed, replicates=args.bootstrap)
        else:
            if not (args.cases and args.predictions):
                print("finscore contracts: error: give CASES and PREDICTIONS, or --oracle", file=sys.stderr)
                return EXIT_USAGE
            cases = load_cases(resolve_cases_path(args.cases))
            if args.accept_unsealed:
                verification = Verification(key=None, replay=True)
            else:
                key_file = key_path(args)
                try:
                    key = load_key(key_file)
                except TraceKeyError as error:
                    raise TraceKeyError(
                        f"{error}: give the key the run was sealed with (--key-file), or --accept-unsealed "
                        "to score without verifying"
                    ) from None
                verification = Verification(key, replay=True, key_source=str(key_file))
            refuse_interrupted(Path(args.predictions))
            evaluation = evaluate(cases, read_predictions(Path(args.predictions)), args.attempts, verification)
            report = build_report(evaluation, seed=args.seed, replicates=args.bootstrap)
        emit(report, args.output, args.html, render_report_html)
        summary = _summary(report)
        sealed_attempts = None if args.oracle else report["integrity"].get("run_seal", {}).get("attempts")
        if not args.oracle and args.attempts is None and report["attempts_per_case"] > 1 and sealed_attempts is None:
            summary += (
                f"note: {report['attempts_per_case']} attempts per case, inferred from the highest attempt index; "
                "give --attempts K to declare it (an index at or beyond K is then refused by name)\n"
            )
        (sys.stdout if args.output else sys.stderr).write(summary)
        if args.oracle and not report["self_check"]["ok"]:
            return EXIT_CHECK_FAILED
        return EXIT_OK

    return guarded("contracts", body)
