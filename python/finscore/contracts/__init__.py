"""Typed scoring of financial answers and agent traces.

A case declares typed claims (value, unit, subject, as-of date, source), a
policy label, evidence rules and a contract on the trusted tool-call trace; the
scorer decides pass or fail per attempt with typed failure codes in eight
categories, keeps every case in the denominator and reports honest intervals.
Formats: docs/contracts-format.md. No language model takes part in scoring.
"""

from finscore.contracts.case_format import load_cases, parse_case
from finscore.contracts.errors import ComparisonError, ContractsError, InputFormatError, JoinError
from finscore.contracts.failures import Category, Code, Failure
from finscore.contracts.joining import Evaluation, evaluate
from finscore.contracts.kit import KIT_DIRECTORY, load_kit_cases, load_kit_oracle, load_kit_probes
from finscore.contracts.models import Case, PredictionRecord, Trace, TraceEntry
from finscore.contracts.predictions import read_predictions
from finscore.contracts.report import build_report
from finscore.contracts.scoring import AttemptResult, score_attempt
from finscore.contracts.selfcheck import run_self_check

__all__ = [
    "AttemptResult",
    "Case",
    "Category",
    "Code",
    "ComparisonError",
    "ContractsError",
    "Evaluation",
    "Failure",
    "InputFormatError",
    "JoinError",
    "KIT_DIRECTORY",
    "PredictionRecord",
    "Trace",
    "TraceEntry",
    "build_report",
    "evaluate",
    "load_cases",
    "load_kit_cases",
    "load_kit_oracle",
    "load_kit_probes",
    "parse_case",
    "read_predictions",
    "run_self_check",
    "score_attempt",
]
