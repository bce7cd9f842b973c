"""The result of scoring a FinQA prediction file, and its JSON form.

Plain data: `scoring` builds it, `terminal` prints it, `to_json` writes it all.
Every figure keeps its numerator and denominator, so a reader can see what was
counted, and every gold example has exactly one row.
"""

# No `from __future__ import annotations`: a NamedTuple's annotations given as text each cost a
# compile() when its class is made, at start-up (Equivalence, ExampleResult: 15; benchmarks/README.md, #29).

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from finscore.engine.explanation import Execution, json_value
from finscore.finqa.joining import Exclusion
from finscore.finqa.official_run import OfficialStop

if TYPE_CHECKING:  # the statistics load only when intervals are computed
    from finscore.stats.headline import HeadlineInterval

REPORT_FORMAT = "finscore-finqa-report/1"


@dataclass(frozen=True)
class Figure:
    correct: int
    total: int

    @property
    def value(self) -> float | None:
        """float(correct) / total, as the official evaluator divides; None for an empty denominator."""
        return float(self.correct) / self.total if self.total else None

    def to_json(self) -> dict[str, Any]:
        return {"correct": self.correct, "total": self.total, "value": self.value}


@dataclass(frozen=True)
class Figures:
    """Execution and program accuracy of one profile, over two denominators.

    `per_prediction` divides by the scored predictions, as the official
    evaluator does; `per_gold_example` divides by the gold examples, counting a
    gold example without a (usable) prediction as a failure.
    """

    execution_per_prediction: Figure
    program_per_prediction: Figure
    execution_per_gold_example: Figure
    program_per_gold_example: Figure

    def to_json(self) -> dict[str, Any]:
        return {
            "per_prediction": {"execution_accuracy": self.execution_per_prediction.to_json(),
                               "program_accuracy": self.program_per_prediction.to_json()},
            "per_gold_example": {"execution_accuracy": self.execution_per_gold_example.to_json(),
                                 "program_accuracy": self.program_per_gold_example.to_json()},
        }


@dataclass(frozen=True)
class OfficialFigures:
    """What the official evaluator computes on the prediction file as given (finqa.official_run):
    every entry counted in file order, excluded ones included, over `entries`; or, when it
    would stop with an exception, no figures and `stop`."""

    entries: int
    execution: Figure | None
    program: Figure | None
    stop: OfficialStop | None

    def to_json(self) -> dict[str, Any]:
        return {
            "denominator": self.entries,
            "execution_accuracy": None if self.execution is None else self.execution.to_json(),
            "program_accuracy": None if self.program is None else self.program.to_json(),
            "stop": None if self.stop is None else {"position": self.stop.position, "exception": self.stop.exception},
        }


@dataclass(frozen=True)
class QuirkCount:
    """How one status figured in the official vs strict comparison.

    `relied_on`: predictions whose official reading used this quirk.
    `decided`: predictions executed correctly by the official profile and
    refused by the strict one with this status, i.e. the quirk made them correct.
    """

    status: str
    relied_on: int
    decided: int

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "relied_on": self.relied_on, "decided": self.decided}


class Equivalence(NamedTuple):
    equal: bool
    method: str
    divergence: str | None


class ExampleResult(NamedTuple):
    """One gold example: its prediction (if any), how it executed, and why it failed."""

    id: str
    category: str
    gold_answer: Any
    gold_program: str
    position: int | None = None  # entry index in the prediction file
    predicted_tokens: tuple[str, ...] | None = None
    execution: Execution | None = None  # under the report's profile
    execution_correct: bool = False
    other_execution: Execution | None = None  # under the other profile
    other_execution_correct: bool = False
    equivalence: Equivalence | None = None
    official_stop: str | None = None  # where the official evaluator would have crashed here

    @property
    def program_equivalent(self) -> bool:
        return self.equivalence is not None and self.equivalence.equal

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "id": self.id,
            "category": self.category,
            "position": self.position,
            "gold_program": self.gold_program,
            "gold_answer": _json_answer(self.gold_answer),
            "predicted_tokens": list(self.predicted_tokens) if self.predicted_tokens is not None else None,
            "execution_correct": self.execution_correct,
            "program_equivalent": self.program_equivalent if self.equivalence is not None else None,
        }
        execution = self.execution
        if execution is not None:
            result = execution.result
            row.update({
                "status": execution.status_name,
                "failed_step": execution.failed_step,
                "message": execution.message,
                "predicted_answer": _json_answer(result),
                "predicted_answer_hex": result.hex() if isinstance(result, float) else None,
                "quirks": [{"status": q.status.label, "step": q.step, "message": q.message}
                           for q in execution.quirks],
                "execution": execution.to_json(),
            })
        if self.other_execution is not None:
            row["other_profile"] = {
                "profile": self.other_execution.profile,
                "status": self.other_execution.status_name,
                "failed_step": self.other_execution.failed_step,
                "execution_correct": self.other_execution_correct,
            }
        if self.equivalence is not None:
            row["equivalence"] = {"equal": self.equivalence.equal, "method": self.equivalence.method,
                                  "divergence": self.equivalence.divergence}
        row["official_stop"] = self.official_stop
        return row


def _json_answer(value: Any) -> Any:
    """JSON cannot hold nan or inf: those become their Python text, like the executor's JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return json_value(value)
    return value


@dataclass(frozen=True)
class FinqaReport:
    profile: str
    python: str  # the CPython whose sum() rule was imitated
    finscore_version: str
    host_python: str
    prediction_entries: int  # entries in the prediction file, usable or not
    scored_predictions: int
    gold_examples: int
    figures: dict[str, Figures]  # by profile name; the report's own profile first
    exclusions: tuple[Exclusion, ...]
    missing_ids: tuple[str, ...]
    excluded_ids: tuple[str, ...]  # gold examples whose only predictions were excluded
    categories: dict[str, int]  # over gold examples
    statuses: dict[str, int]  # over scored predictions, under the report's profile
    quirks: tuple[QuirkCount, ...]
    equivalence_methods: dict[str, int]
    official_stops: tuple[tuple[str, str], ...]  # (id, reason) in prediction-file order
    examples: tuple[ExampleResult, ...]  # gold order, one per gold example
    #: scored predictions that crossed finscore's declared bounds (engine/bounds.py) in
    #: either profile: not an official outcome, so always counted apart
    exceeded_bounds: int = 0
    benchmark: str = "finqa"  # whose official scorer: "finqa" or "convfinqa"
    #: the official scorer's own figures on the file as given (exclusions included), or its stop
    official: OfficialFigures | None = None
    #: the honest headline's intervals (finscore.stats), when the command or caller asked for them
    uncertainty: "tuple[HeadlineInterval, ...]" = ()

    @property
    def headline(self) -> Figures:
        return self.figures[self.profile]

    def to_json(self) -> dict[str, Any]:
        document = self._document()
        if self.uncertainty:
            document["uncertainty"] = [interval.to_json() for interval in self.uncertainty]
        return document

    def _document(self) -> dict[str, Any]:
        return {
            "format": REPORT_FORMAT,
            "finscore_version": self.finscore_version,
            "benchmark": self.benchmark,
            "profile": self.profile,
            "python": self.python,
            "host_python": self.host_python,
            "counts": {
                "prediction_entries": self.prediction_entries,
                "scored_predictions": self.scored_predictions,
                "excluded_entries": len(self.exclusions),
                "gold_examples": self.gold_examples,
                "missing_predictions": len(self.missing_ids),
                "excluded_predictions": len(self.excluded_ids),
                "exceeded_bounds": self.exceeded_bounds,
            },
            "figures": {name: figures.to_json() for name, figures in self.figures.items()},
            "official": None if self.official is None else self.official.to_json(),
            "exclusions": [{"position": e.position, "id": e.id, "kind": e.kind, "detail": e.detail}
                           for e in self.exclusions],
            "missing_ids": list(self.missing_ids),
            "excluded_ids": list(self.excluded_ids),
            "categories": dict(self.categories),
            "statuses": dict(self.statuses),
            "quirks": [q.to_json() for q in self.quirks],
            "equivalence_methods": dict(self.equivalence_methods),
            "official_stops": [{"id": i, "reason": r} for i, r in self.official_stops],
            "examples": [example.to_json() for example in self.examples],
        }
