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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from finscore import __version__
from finscore.engine.explanation import Execution
from finscore.engine.api import check_options, execute_many
from finscore.engine.status import Status
from finscore.finqa import categories
from finscore.finqa.inputs import FinqaInputError, GoldExample, GoldFile, read_gold, read_predictions
from finscore.scoring.exclusions import EXCLUDED
from finscore.finqa.joining import Join, Pair, join_predictions
from finscore.finqa.official_run import OfficialWalk, walk_predictions
from finscore.finqa.quirk_accounting import count_quirks
from finscore.finqa.report import Equivalence, ExampleResult, Figure, Figures, FinqaReport, OfficialFigures

if TYPE_CHECKING:
    from finscore.finqa.equal_jsonl import Comparer

#: progress(stage, done, total): called as each stage advances; stages are
#: "read", "execute official", "execute strict" and "equivalence".
Progress = Callable[[str, int, int], None]
EQUIVALENCE_PROGRESS_EVERY = 50
EXECUTION_CHUNK = 2000


#: The method of a prediction whose program equivalence the official scorer never checks.
NOT_CHECKED_INVALID = "not-checked-invalid"


def _finqa_comparer() -> Comparer:
    from finscore.finqa.equivalence import ProgramComparer

    return ProgramComparer()


@dataclass(frozen=True)
class ScoringRules:
    """What differs between the official scorers that share this machinery (FinQA's
    evaluate.py, ConvFinQA's evaluate_result).

    `official_profile` is the execution profile that reads as that scorer does;
    `programs_of_valid_only`: the scorer checks program equivalence only for a
    prediction that executed validly (ConvFinQA), not for every one (FinQA);
    `comparer` makes its `equal_program`; `quirk_scope` says which predictions the
    official-vs-strict quirk accounting covers (None: all); `joins_equivalent_tokens`: the
    scorer joins an equivalent prediction's tokens into text, which raises on a token that is
    not text (FinQA's evaluate.py prints the ones that differ from the gold's).
    """

    benchmark: str
    official_profile: str
    programs_of_valid_only: bool
    comparer: Callable[[], Comparer]
    quirk_scope: Callable[[Pair], bool] | None = None
    joins_equivalent_tokens: bool = False


FINQA_RULES = ScoringRules(benchmark="finqa", official_profile="official", programs_of_valid_only=False,
                           comparer=_finqa_comparer, joins_equivalent_tokens=True)


def official_match(execution: Execution, gold_answer: Any) -> bool:
    """The official execution-accuracy test: a valid flag and the result `==` the gold exe_ans."""
    return execution.invalid == 0 and execution.result == gold_answer


def _execute(programs: Sequence[tuple[GoldExample, Sequence[str]]], profile: str, python: str,
             progress: Progress | None) -> list[Execution]:
    stage, total = f"execute {profile}", len(programs)
    report = (lambda done: progress(stage, done, total)) if progress is not None else None
    return execute_many([(list(tokens), gold.table) for gold, tokens in programs],
                        profile=profile, python=python, chunk_size=EXECUTION_CHUNK, progress=report)


def _equivalences(programs: Sequence[tuple[GoldExample, Sequence[str]]], rules: ScoringRules,
                  official: Sequence[Execution], progress: Progress | None) -> list[Equivalence]:
    comparer = rules.comparer()
    decisions = []
    total = len(programs)
    for done, ((gold, tokens), execution) in enumerate(zip(programs, official), start=1):
        if rules.programs_of_valid_only and execution.invalid:
            decisions.append(Equivalence(False, NOT_CHECKED_INVALID, None))
        else:
            decision = comparer.equal_program(list(gold.tokens), list(tokens))
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


def check_scoring_options(profile: str, python: str, profiles: Sequence[str]) -> None:
    """FinqaInputError unless the profile is one of `profiles` and both options are known."""
    try:
        check_options(profile, python)
    except ValueError as error:
        raise FinqaInputError(str(error)) from None
    if profile not in profiles:
        raise FinqaInputError(f"profile {profile!r} does not score this benchmark; use one of {', '.join(profiles)}")


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
    check_scoring_options(profile, python, ("official", "strict"))
    gold_file = read_gold(gold)
    join = join_predictions(read_predictions(predictions), gold_file, exclude_bad=exclude_bad_ids)
    other = "strict" if profile == "official" else "official"
    by_id = gold_file.by_id()
    walk = walk_predictions(predictions, lambda identifier: by_id.get(identifier) if isinstance(identifier, str)
                            else None)
    return score_join(join, gold_file, FINQA_RULES, profile=profile, other=other, python=python, progress=progress,
                      walk=walk)


def score_join(join: Join, gold_file: GoldFile, rules: ScoringRules, *, profile: str, other: str, python: str,
               progress: Progress | None, walk: OfficialWalk) -> FinqaReport:
    """The report of joined predictions under one official scorer's rules: `profile` gives
    the headline, `other` the comparison; one of them is `rules.official_profile` and the
    other "strict" (the quirk accounting compares those two). `walk` is the official
    scorer's reading of the file as given, for its own figures."""
    if progress is not None:
        progress("read", join.prediction_entries, join.prediction_entries)
    official = rules.official_profile
    if {profile, other} != {official, "strict"}:
        raise ValueError(f"scoring runs {official!r} and 'strict', not {profile!r} and {other!r}")
    programs = [(pair.gold, pair.prediction.tokens) for pair in join.pairs]
    runs = {name: _execute(programs, name, python, progress) for name in (profile, other)}
    equivalences = _equivalences(programs, rules, runs[official], progress)

    correct = {name: [official_match(e, pair.gold.answer) for e, pair in zip(runs[name], join.pairs)]
               for name in runs}
    equivalent = [e.equal for e in equivalences]
    rows: dict[str, ExampleResult] = {}
    stops: list[tuple[int, str, str]] = []  # (position, id, reason)
    for index, pair in enumerate(join.pairs):
        execution = runs[profile][index]
        stop = _official_stop(runs[official][index], pair.gold, equivalences[index])
        if stop is not None:
            stops.append((pair.prediction.position, pair.gold.id, stop))
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
    in_scope = [rules.quirk_scope is None or rules.quirk_scope(pair) for pair in join.pairs]
    accounted = [(o, c, s) for o, c, s, keep in zip(runs[official], correct[official], runs["strict"], in_scope)
                 if keep]

    gold_count = len(gold_file.examples)
    official_figures, left_out_stops = _official_figures(join, walk, rules, python, correct[official], equivalences)
    stops = sorted(stops + left_out_stops)  # the official evaluator crashes on a left-out entry all the same
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
        quirks=count_quirks(accounted),
        equivalence_methods=dict(Counter(e.method for e in equivalences).most_common()),
        official_stops=tuple((example_id, reason) for _, example_id, reason in stops),
        examples=examples,
        exceeded_bounds=sum(any(runs[name][index].status is Status.EXCEEDS_BOUNDS for name in runs)
                            for index in range(len(join.pairs))),
        benchmark=rules.benchmark,
        official=official_figures,
    )


def _official_figures(join: Join, walk: OfficialWalk, rules: ScoringRules, python: str,
                      kept_correct: Sequence[bool], kept_equivalences: Sequence[Equivalence],
                      ) -> tuple[OfficialFigures, list[tuple[int, str, str]]]:
    """The official scorer's figures on the file as given: the joined predictions' own decisions,
    and the entries the join left out (repeated copies, entries finscore cannot score but the
    official code reads) decided the official way; or its stop. Also where it would crash on
    those left-out entries (their official_stop)."""
    if walk.stop is not None:
        return OfficialFigures(join.prediction_entries, None, None, walk.stop), []
    kept = {pair.prediction.position: index for index, pair in enumerate(join.pairs)}
    executed = sum(kept_correct[kept[e.position]] for e in walk.entries if e.position in kept)
    programs = sum(kept_equivalences[kept[e.position]].equal for e in walk.entries if e.position in kept)
    left_out = [e for e in walk.entries if e.position not in kept and e.tokens is not None]
    others = [(e.gold, e.tokens or ()) for e in left_out]
    stops = []
    if others:
        runs = _execute(others, rules.official_profile, python, None)
        decided = _equivalences(others, rules, runs, None)
        for entry, execution, equivalence in zip(left_out, runs, decided):
            executed += official_match(execution, entry.gold.answer)
            programs += equivalence.equal
            stop = _official_stop(execution, entry.gold, equivalence)
            if stop is None and equivalence.equal and rules.joins_equivalent_tokens:
                stop = entry.join_error
            if stop is not None:
                stops.append((entry.position, entry.gold.id, stop))
    unreadable = [e for e in walk.entries if e.position not in kept and e.tokens is None]
    if unreadable and not rules.programs_of_valid_only:
        # equal_program still reads the gold program first, and can crash on it
        comparer = rules.comparer()
        for entry in unreadable:
            divergence = comparer.equal_program(list(entry.gold.tokens), []).divergence
            if divergence:
                stops.append((entry.position, entry.gold.id, f"equal_program: {divergence}"))
    entries = len(walk.entries)
    return OfficialFigures(entries, Figure(executed, entries), Figure(programs, entries), None), stops


def _ordered_counts(counts: Counter[str], order: dict[str, str]) -> dict[str, int]:
    return {name: counts[name] for name in order if counts[name]}
