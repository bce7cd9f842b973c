"""The terminal report of `finscore finqa`: the official lines first, then why.

The first block prints the two numbers in the official evaluator's own format
(`All:`, `Exe acc:`, `Prog acc:`), as it computes them on the file as given
(excluded entries included, or where it would stop), so a reader can compare
them with published work at a glance; everything after it explains them.
"""

from __future__ import annotations

from finscore.scoring.program_categories import CATEGORY_DESCRIPTIONS, CORRECT
from finscore.scoring.reasons import LISTED_IDS
from finscore.finqa.report import ExampleResult, Figure, FinqaReport


def _value(figure: Figure) -> str:
    """The float as Python prints it (as the official evaluator's print does)."""
    return "undefined (no denominator)" if figure.value is None else repr(figure.value)


def _figure(figure: Figure) -> str:
    return f"{_value(figure)}  ({figure.correct}/{figure.total})"


def _ids(ids: tuple[str, ...] | list[str]) -> str:
    shown = ", ".join(ids[:LISTED_IDS])
    return shown + (f", ... ({len(ids) - LISTED_IDS} more in --json)" if len(ids) > LISTED_IDS else "")


def _example_line(row: ExampleResult) -> str:
    execution = row.execution
    if execution is None:
        return f"  {row.id}: {row.category}"
    if execution.invalid:
        where = f" at #{execution.failed_step}" if execution.failed_step is not None else ""
        outcome = f"{execution.status_name}{where}"
    else:
        outcome = f"predicted {execution.result!r}, gold {row.gold_answer!r}"
    equivalence = row.equivalence
    program = "" if equivalence is None else (
        f"; program {'equivalent' if equivalence.equal else 'not equivalent'} ({equivalence.method})"
    )
    return f"  {row.id}: {row.category}: {outcome}{program}"


#: The official scorer of each benchmark, as the official block names it.
OFFICIAL_SCORERS = {"finqa": "evaluate.py", "convfinqa": "evaluate_result"}


def _official_block(report: FinqaReport) -> list[str]:
    """The official lines: over the scored predictions when nothing was excluded (then they are the
    official scorer's figures on the file), else the official scorer's own figures on the file as
    given, exclusions included, or where it would stop."""
    figures = report.headline
    if report.profile == "strict" or not report.exclusions or report.official is None:
        own = "as the official evaluator computes them" if report.profile != "strict" else "strict profile"
        return [f"Per prediction ({own}; denominator = {report.scored_predictions} predictions):",
                f"All:  {report.scored_predictions}",
                f"Exe acc:  {_value(figures.execution_per_prediction)}",
                f"Prog acc:  {_value(figures.program_per_prediction)}"]
    scorer = OFFICIAL_SCORERS.get(report.benchmark, "the official evaluator")
    official = report.official
    if official.stop is not None:
        return [f"Per prediction, as the official evaluator computes them: none. On the file as given, "
                f"{scorer} stops at entry {official.stop.position} with {official.stop.exception} "
                f"(the exclusions below are finscore's, not {scorer}'s)."]
    execution, program = official.execution, official.program
    if execution is None or program is None:
        raise ValueError("official figures are missing although the official walk did not stop")
    return [f"Per prediction (as the official evaluator computes them, on the file as given: denominator = "
            f"{official.entries} entries, the {len(report.exclusions)} excluded below included; "
            "a repeated id counts once per entry):",
            f"All:  {official.entries}",
            f"Exe acc:  {_value(execution)}",
            f"Prog acc:  {_value(program)}"]


def _header(report: FinqaReport) -> list[str]:
    figures = report.headline
    return [
        f"finscore {report.finscore_version} {report.benchmark}: profile {report.profile}, "
        f"sum() of CPython {report.python}",
        "",
        *_official_block(report),
        "",
        f"Per gold example (denominator = {report.gold_examples} gold examples; "
        "a missing prediction counts as a failure):",
        f"  execution accuracy  {_figure(figures.execution_per_gold_example)}",
        f"  program accuracy    {_figure(figures.program_per_gold_example)}",
        f"  execution per prediction {_figure(figures.execution_per_prediction)}, "
        f"program per prediction {_figure(figures.program_per_prediction)}",
        *_uncertainty(report),
    ]


def _uncertainty(report: FinqaReport) -> list[str]:
    """The honest execution accuracy's intervals, when the report has them (statistics load only then)."""
    if not report.uncertainty:
        return []
    from finscore.stats.headline import intervals_text

    return intervals_text(report.uncertainty, " per gold example")


def _accounting(report: FinqaReport) -> list[str]:
    lines = [
        "",
        f"Predictions: {report.prediction_entries} entries, {report.scored_predictions} scored, "
        f"{len(report.exclusions)} excluded; gold examples without a prediction: {len(report.missing_ids)}"
        + (f", with only excluded predictions: {len(report.excluded_ids)}" if report.excluded_ids else ""),
    ]
    if report.exceeded_bounds:
        lines.append(f"{report.exceeded_bounds} programs exceeded finscore's declared bounds "
                     "(scored invalid; not an official outcome)")
    if report.missing_ids:
        lines.append(f"  missing: {_ids(report.missing_ids)}")
    for exclusion in report.exclusions[:LISTED_IDS]:
        lines.append(f"  excluded {exclusion.kind}: {exclusion.describe()}")
    if len(report.exclusions) > LISTED_IDS:
        lines.append(f"  ... {len(report.exclusions) - LISTED_IDS} more exclusions in --json")
    for name, figures in report.figures.items():
        if name != report.profile:
            lines.append(
                f"{name} profile: execution {_figure(figures.execution_per_prediction)} per prediction, "
                f"{_figure(figures.execution_per_gold_example)} per gold example"
            )
    return lines


def _breakdown(report: FinqaReport) -> list[str]:
    lines = ["", "Gold examples by category:"]
    width = max(len(name) for name in report.categories) if report.categories else 0
    for name, count in report.categories.items():
        lines.append(f"  {name:<{width}}  {count:>6}  {CATEGORY_DESCRIPTIONS[name]}")
    lines.append("Statuses of the scored predictions: "
                 + ", ".join(f"{name} {count}" for name, count in report.statuses.items()))
    lines.append("Program equivalence decided by: "
                 + ", ".join(f"{name} {count}" for name, count in report.equivalence_methods.items()))
    if report.quirks:
        lines.append("Official quirks (relied on / decided a correct outcome that strict refuses):")
        lines += [f"  {q.status}: {q.relied_on} / {q.decided}" for q in report.quirks]
    else:
        lines.append("Official quirks: none relied on, none decided an outcome")
    if report.official_stops:
        lines.append(f"The official evaluator would have crashed at {len(report.official_stops)} "
                     "prediction(s); finscore scored them and went on:")
        lines += [f"  {example_id}: {reason}" for example_id, reason in report.official_stops[:LISTED_IDS]]
    return lines


def failing_lines(report: FinqaReport, examples: int) -> list[str]:
    """The first `examples` failing predictions, each on a line, after a blank line and a title."""
    failing = [row for row in report.examples if row.category != CORRECT and row.execution is not None]
    if examples <= 0 or not failing:
        return []
    return (["", f"First {min(examples, len(failing))} of {len(failing)} failing predictions:"]
            + [_example_line(row) for row in failing[:examples]])


def render_report(report: FinqaReport, *, examples: int = 10) -> str:
    """The whole terminal report; `examples` failing predictions are listed (0 for none)."""
    return "\n".join(_header(report) + _accounting(report) + _breakdown(report) + failing_lines(report, examples))
