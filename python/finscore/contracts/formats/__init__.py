"""What the scorer reads: cases (with their contracts), predictions, trusted traces, final responses.

Every reader returns the typed shapes of `models` or raises InputFormatError
naming the file and the JSON path (docs/contracts-format.md sections 2, 4, 5).
"""

from finscore.contracts.formats.cases import CASE_SET_FORMAT, load_cases, parse_case
from finscore.contracts.formats.final_response import parse_final
from finscore.contracts.formats.models import (
    Answer,
    Case,
    Clarification,
    FinalResponse,
    PredictionRecord,
    Refusal,
    Trace,
    TraceEntry,
)
from finscore.contracts.formats.predictions import PredictionFile, RejectedLine, read_predictions, record_from_value
from finscore.contracts.formats.traces import parse_trace

__all__ = [
    "Answer",
    "CASE_SET_FORMAT",
    "Case",
    "Clarification",
    "FinalResponse",
    "PredictionFile",
    "PredictionRecord",
    "Refusal",
    "RejectedLine",
    "Trace",
    "TraceEntry",
    "load_cases",
    "parse_case",
    "parse_final",
    "parse_trace",
    "read_predictions",
    "record_from_value",
]
