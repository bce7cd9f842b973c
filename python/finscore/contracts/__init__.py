"""Typed scoring of financial answers and agent traces.

A case declares typed claims (value, unit, subject, as-of date, source), a
policy label, evidence rules and a contract on the trusted tool-call trace; the
scorer decides pass or fail per attempt with typed failure codes in eight
categories, keeps every case in the denominator and reports honest intervals.
Formats: docs/contracts-format.md. No language model takes part in scoring.

Layout, by job: `formats` reads cases, predictions and traces; `checks`
decides one attempt; `evaluation` joins predictions to the case set (the entry
point); `stats` computes intervals and tests; `reports` writes reports and
comparisons and runs the self-check; `kit` loads the shipped kit. The case world (tools,
fixtures) is `finscore.world`.
"""

from finscore.contracts.checks import AttemptResult, score_attempt
from finscore.contracts.checks.integrity import Verification
from finscore.contracts.errors import ComparisonError, ContractsError, FinscoreError, InputFormatError, JoinError
from finscore.contracts.evaluation import Evaluation, evaluate
from finscore.contracts.failures import Category, Code, Failure
from finscore.contracts.formats import (
    Case,
    PredictionRecord,
    Trace,
    TraceEntry,
    load_cases,
    parse_case,
    read_predictions,
)
from finscore.contracts.kit import (
    KIT_ALIAS,
    KIT_DIRECTORY,
    load_kit_cases,
    load_kit_oracle,
    load_kit_probes,
    resolve_cases_path,
)
from finscore.contracts.reports import (
    build_report,
    compare_reports,
    load_report,
    render_comparison_html,
    render_report_html,
    run_self_check,
)

__all__ = [
    "AttemptResult",
    "Case",
    "Category",
    "Code",
    "ComparisonError",
    "ContractsError",
    "Evaluation",
    "Failure",
    "FinscoreError",
    "InputFormatError",
    "JoinError",
    "KIT_ALIAS",
    "KIT_DIRECTORY",
    "PredictionRecord",
    "Trace",
    "TraceEntry",
    "Verification",
    "build_report",
    "compare_reports",
    "evaluate",
    "load_cases",
    "load_kit_cases",
    "load_kit_oracle",
    "load_kit_probes",
    "load_report",
    "parse_case",
    "read_predictions",
    "render_comparison_html",
    "render_report_html",
    "resolve_cases_path",
    "run_self_check",
    "score_attempt",
]
