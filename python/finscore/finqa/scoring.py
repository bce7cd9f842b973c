"""Score FinQA predictions: the official figures exactly, the honest ones beside them.

`score_predictions` takes decoded JSON (no paths, no printing, no threads or
subprocesses) so the command line and the browser playground under Pyodide
run the very same code. Both profiles are executed, each in one batched call
into the core: the report's profile gives the headline, the other one the
quirk accounting. Program equivalence is decided per prediction by
`finscore.finqa.equivalence`, which imports sympy only for the pairs that need it.
"""

from __future__ import annotations

import platform
from collections import Counter
from typing import Any, Callable, Sequence

from finscore import __version__
from finscore.engine.explanation import Execution
from finscore.engine.status import Status
from finscore.engine.api import PROFILES, check_options, execute_many
from finscore.finqa import categories
from finscore.finqa.inputs import FinqaInputError, GoldExample, read_gold, read_predictions
from finscore.finqa.joining import EXCLUDED, Join, join_predictions
from finscore.finqa.quirk_accounting import count_quirks
from finscore.finqa.report import Equivalence, ExampleResult, Figure, Figures, FinqaReport

#: progress(stage, done, total): called as each stage advances; stages are
#: "read", "execute official", "execute strict" and "equivalence".
Progress = Callable[[str, int, int], None]
EQUIVALENCE_PROGRESS_EVERY = 50
EXECUTION_CHUNK = 2000


def official_match(execution: Execution, gold_answer: Any) -> bool:
    """The official execution-accuracy test: a valid flag and the result `==` the gold exe_ans."""
    return execution.invalid == 0 and execution.result == gold_answer


def _execute(join: Join, profile: str, python: str, progress: Progress | None) -> list[Execution]:
    stage, total = f"execute {profile}", len(join.pairs)
    report = (lambda done: progress(stage, done, total)) if progress is not None else None
    return execute_many([(list(p.prediction.tokens), p.gold.table) for p in join.pairs],
                        profile=profile, python=python, chunk_size=EXECUTION_CHUNK, progress=report)


def _equivalences(join: Join, progress: Progress | None) -> list[Equivalence]:
    from finscore.finqa.equivalence import ProgramComparer

    comparer = ProgramComparer()
    decisions = []
    total = len(join.pairs)
    for done, pair in enumerate(join.pairs, start=1):
        decision = comparer.equal_program(list(pair.gold.tokens), list(pair.prediction.tokens))
        decisions.append(Equivalence(bool(decision.equal), str(decision.method), decision.divergence))
        if progress is not None and (done % EQUIVALENCE_PROGRESS_EVERY == 0 or done == total):
            progress("equivalence", done, total)
    return decisions


def _official_stop(official: Execution, gold: GoldExample, equivalence: Equivalence) -> str | None:
    """Where the official evaluator would have crashed on this prediction, or None."""
    if equivalence.divergence:
        return f"equal_program: {equivalence.divergence}"
    if equivalence.equal and official.result != gold.answer:
        return (f"AssertionError: the programs are equivalent but the result {official.result!r} "
                f"is not the gold answer {gold.answer!r}")
    return None


def _figures(correct: Sequence[bool], equivalent: Sequence[bool], gold_examples: int) -> Figures:
    executed, programs = sum(correct), sum(equivalent)
    return Figures(
        execution_per_prediction=Figure(executed, len(correct)),
        program_per_prediction=Figure(programs, len(equivalent)),
        execution_per_gold_example=Figure(executed, gold_examples),
        program_per_gold_example=Figure(programs, gold_examples),
    )


def _check_options(profile: str, python: str) -> None:
    try:
        check_options(profile, python)
    except ValueError as error:
        raise FinqaInputError(str(error)) from None


def score_predictions(
    predictions: Any,
    gold: Any,
    *,
    profile: str = "official",
    python: str = "3.11",
    exclude_bad_ids: bool = False,
    progress: Progress | None = None,
) -> FinqaReport:
    """Score decoded prediction JSON (the official format) against a decoded FinQA gold file.

    Raises FinqaInputError (PredictionsRejected for bad entries, unless
    `exclude_bad_ids`) with a readable message; never loses or double-counts a row.
    """
    _check_options(profile, python)
    gold_file = read_gold(gold)
    join = join_predictions(read_predictions(predictions), gold_file, exclude_bad=exclude_bad_ids)
    if progress is not None:
        progress("read", join.prediction_entries, join.prediction_entries)
    other = next(p for p in PROFILES if p != profile)
    runs = {name: _execute(join, name, python, progress) for name in (profile, other)}
    equivalences = _equivalences(join, progress)

    correct = {name: [official_match(e, pair.gold.answer) for e, pair in zip(runs[name], join.pairs)]
               for name in runs}
    equivalent = [e.equal for e in equivalences]
    rows: dict[str, ExampleResult] = {}
    stops: list[tuple[str, str]] = []
    for index, pair in enumerate(join.pairs):
        execution = runs[profile][index]
        stop = _official_stop(runs["official"][index], pair.gold, equivalences[index])
        if stop is not None:
            stops.append((pair.gold.id, stop))
        rows[pair.gold.id] = ExampleResult(
            id=pair.gold.id,
            category=categories.execution_category(execution, pair.gold.answer, correct[profile][index]),
            gold_answer=pair.gold.answer,
            gold_program=pair.gold.program,
            position=pair.prediction.position,
            predicted_tokens=pair.prediction.tokens,
            execution=execution,
            execution_correct=correct[profile][index],
            other_execution=runs[other][index],
            other_execution_correct=correct[other][index],
            equivalence=equivalences[index],
            official_stop=stop,
        )
    for example, why in join.unscored:
        category = categories.EXCLUDED_PREDICTION if why == EXCLUDED else categories.MISSING_PREDICTION
        rows[example.id] = ExampleResult(example.id, category, example.answer, example.program)
    examples = tuple(rows[example.id] for example in gold_file.examples)

    gold_count = len(gold_file.examples)
    return FinqaReport(
        profile=profile,
        python=python,
        finscore_version=__version__,
        host_python=platform.python_version(),
        prediction_entries=join.prediction_entries,
        scored_predictions=len(join.pairs),
        gold_examples=gold_count,
        figures={name: _figures(correct[name], equivalent, gold_count) for name in runs},
        exclusions=join.exclusions,
        missing_ids=tuple(join.missing_ids),
        excluded_ids=tuple(join.excluded_ids),
        categories=_ordered_counts(Counter(row.category for row in examples), categories.CATEGORY_DESCRIPTIONS),
        statuses=dict(Counter(e.status_name for e in runs[profile]).most_common()),
        quirks=count_quirks(zip(runs["official"], correct["official"], runs["strict"])),
        equivalence_methods=dict(Counter(e.method for e in equivalences).most_common()),
        official_stops=tuple(stops),
        examples=examples,
        exceeded_bounds=sum(any(runs[name][index].status is Status.EXCEEDS_BOUNDS for name in runs)
                            for index in range(len(join.pairs))),
    )


def _ordered_counts(counts: Counter[str], order: dict[str, str]) -> dict[str, int]:
    return {name: counts[name] for name in order if counts[name]}
