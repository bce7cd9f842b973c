"""Scoring a benchmark from its registry descriptor alone: the report of the generic command.

A benchmark without a command of its own (finscore.registry.Benchmark with `decide`) is scored
here: its gold reader gives {example id: gold}, its prediction reader the (id, prediction) pairs
of a file (repeats kept), and `decide(prediction, gold) -> (passed, reason)` each example. The
figures are the official one (over the predictions given) and the honest one (over every gold
example, a missing prediction a failure); every miss has its reason word, described by the
benchmark's reason vocabulary, and the examples are grouped by the benchmark's independence unit.
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

from finscore.inputs import FinscoreError
from finscore.inputs.naming import listing
from finscore.registry import Benchmark
from finscore.scoring.reasons import MISSING_PREDICTION

MISSING_DESCRIPTION = "no prediction for this gold example (a failure in the honest figure)"
#: How many failing examples the text report shows (--json lists every one).
FAILING_SHOWN = 10


class PredictionsRefused(FinscoreError):
    """A prediction file that names an id twice or an id the gold does not have."""


class ExampleResult(NamedTuple):
    id: str
    predicted: bool
    passed: bool
    reason: str


class DescriptorReport(NamedTuple):
    benchmark: Benchmark
    results: tuple[ExampleResult, ...]
    units: int

    def counts(self) -> dict[str, int]:
        """Each reason word, with how many examples have it (the passed ones included), by first appearance."""
        counts: dict[str, int] = {}
        for result in self.results:
            counts[result.reason] = counts.get(result.reason, 0) + 1
        return counts

    def as_json(self) -> dict[str, Any]:
        """The whole report, as `--json` writes it."""
        predicted = [r for r in self.results if r.predicted]
        passed = sum(r.passed for r in self.results)
        descriptions = self.benchmark.reasons.load()
        return {
            "benchmark": self.benchmark.name,
            "official": {"protocol": self.benchmark.official_protocol, "passed": passed, "of": len(predicted),
                         "accuracy": passed / len(predicted) if predicted else None},
            "honest": {"protocol": self.benchmark.honest_protocol, "passed": passed, "of": len(self.results),
                       "accuracy": passed / len(self.results) if self.results else None},
            "independence_unit": {"name": self.benchmark.unit.name, "units": self.units},
            "reasons": {word: {"count": count, "description": descriptions.get(word, MISSING_DESCRIPTION
                                                                                if word == MISSING_PREDICTION
                                                                                else "")}
                        for word, count in self.counts().items()},
            "examples": [result._asdict() for result in self.results],
        }


def _listing(ids: Sequence[str]) -> str:
    return listing([repr(identifier) for identifier in ids])


def score_descriptor(benchmark: Benchmark, predictions: Sequence[tuple[str, Any]], gold: Mapping[str, Any],
                     units: Mapping[str, str]) -> DescriptorReport:
    """Every gold example decided, in gold order; repeated or unknown prediction ids are refused, all named."""
    if benchmark.decide is None:
        raise FinscoreError(f"benchmark {benchmark.name!r} has no decide function: it is scored by its own command")
    decide = benchmark.decide.load()
    given: dict[str, Any] = {}
    repeated: list[str] = []
    for identifier, prediction in predictions:
        if identifier in given:
            repeated.append(identifier)
        given[identifier] = prediction
    unknown = [identifier for identifier in given if identifier not in gold]
    problems = ([f"{len(repeated)} repeated id(s): {_listing(repeated)}"] if repeated else []) + \
               ([f"{len(unknown)} id(s) not in the gold file: {_listing(unknown)}"] if unknown else [])
    if problems:
        raise PredictionsRefused(f"the {benchmark.title} prediction file has " + "; ".join(problems))
    results = []
    for identifier, expected in gold.items():
        if identifier not in given:
            results.append(ExampleResult(identifier, False, False, MISSING_PREDICTION))
            continue
        passed, reason = decide(given[identifier], expected)
        results.append(ExampleResult(identifier, True, bool(passed), reason))
    without_unit = [identifier for identifier in gold if identifier not in units]
    if without_unit:
        raise FinscoreError(f"the {benchmark.title} independence unit ({benchmark.unit.name}) names no unit for "
                            f"{len(without_unit)} gold example(s): {_listing(without_unit)}")
    return DescriptorReport(benchmark, tuple(results), len({units[identifier] for identifier in gold}))


def score_files(benchmark: Benchmark, predictions_path: str, gold_path: str) -> DescriptorReport:
    """Read both files with the descriptor's readers and score them."""
    gold = benchmark.gold_reader.load()(gold_path)
    predictions = benchmark.prediction_reader.load()(predictions_path)
    return score_descriptor(benchmark, predictions, gold, benchmark.unit.key.load()(gold))


def render_text(report: DescriptorReport) -> str:
    """The report as the terminal shows it."""
    document = report.as_json()
    lines = [f"{report.benchmark.title}"]
    for figure in ("official", "honest"):
        part = document[figure]
        accuracy = "n/a" if part["accuracy"] is None else repr(part["accuracy"])
        lines.append(f"{figure}: {accuracy} ({part['passed']}/{part['of']})  {part['protocol']}")
    lines.append(f"independence unit: {report.benchmark.unit.name} ({report.units} in the gold file)")
    lines.append("reasons:")
    for word, reason in document["reasons"].items():
        lines.append(f"  {word}: {reason['count']}" + (f"  {reason['description']}" if reason["description"] else ""))
    failing = [r for r in report.results if not r.passed]
    if failing:
        lines.append("failing examples:")
        lines.extend(f"  {r.id}: {r.reason}" for r in failing[:FAILING_SHOWN])
        if len(failing) > FAILING_SHOWN:
            lines.append(f"  ... and {len(failing) - FAILING_SHOWN} more (--json lists every example)")
    return "\n".join(lines) + "\n"
