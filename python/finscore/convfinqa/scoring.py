"""Score ConvFinQA predictions: its authors' figures exactly, the honest ones beside them.

ConvFinQA's `evaluate_result` differs from FinQA's `evaluate.py` in three ways,
all kept here: a program executes under the `convfinqa` profile (a one-token
program is a number selection); program equivalence is ConvFinQA's
`equal_program`; and it is checked only for a prediction that executed validly,
so program accuracy counts valid, equivalent programs. Its `assert` that an
equivalent program gives the gold answer would stop the whole run; here such a
turn is reported (`official_stops`) and scoring goes on.

Takes decoded JSON, like `finscore.finqa.scoring`, whose joining, execution,
equivalence and report machinery does the work.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable

from finscore.convfinqa.equivalence import ConvFinqaComparer
from finscore.convfinqa.report import ConversationGroup, ConvFinqaReport, TurnGroup
from finscore.convfinqa.turns import (Conversation, canonical_id, read_conversations, split_turn_id,
                                      with_canonical_ids)
from finscore.engine.reader.convfinqa import PROFILE, read_selection
from finscore.scoring.program_categories import CORRECT
from finscore.finqa.inputs import read_predictions
from finscore.finqa.joining import Pair, join_predictions
from finscore.finqa.official_run import walk_predictions
from finscore.finqa.report import ExampleResult
from finscore.finqa.scoring import Progress, ScoringRules, check_scoring_options, score_join


def _outside_number_selections(pair: Pair) -> bool:
    """The quirk accounting compares the official and strict readings of FinQA programs;
    a number selection has no strict reading (strict refuses every one-token program)."""
    return read_selection(pair.prediction.tokens) is None


CONVFINQA_RULES = ScoringRules(benchmark="convfinqa", official_profile=PROFILE, programs_of_valid_only=True,
                               comparer=ConvFinqaComparer, quirk_scope=_outside_number_selections)


def score_convfinqa(
    predictions: Any,
    gold: Any,
    *,
    python: str = "3.11",
    exclude_bad_ids: bool = False,
    progress: Progress | None = None,
) -> ConvFinqaReport:
    """Score decoded prediction JSON (a list of {"id", "predicted": [tokens]}, one per turn)
    against a decoded ConvFinQA conversation file (dev.json as released).

    Raises FinqaInputError (PredictionsRejected for unknown, duplicate or malformed
    entries, unless `exclude_bad_ids`) with a message naming every offender.
    """
    check_scoring_options(PROFILE, python, (PROFILE,))
    turns = read_conversations(gold)
    entries = with_canonical_ids(read_predictions(predictions), turns.gold)
    join = join_predictions(entries, turns.gold, exclude_bad=exclude_bad_ids)
    by_id = turns.gold.by_id()
    known = frozenset(by_id)
    walk = walk_predictions(predictions, lambda identifier: by_id.get(canonical_id(identifier, known))
                            if isinstance(identifier, str) else None)
    report = score_join(join, turns.gold, CONVFINQA_RULES, profile=PROFILE, other="strict", python=python,
                        progress=progress, walk=walk)
    by_turn = _turn_groups(report.examples, lambda row: str(split_turn_id(row.id)[1]))
    kind_of = {conversation.id: conversation.kind for conversation in turns.conversations}
    by_type = _turn_groups(report.examples, lambda row: kind_of[split_turn_id(row.id)[0]])
    return ConvFinqaReport(report, by_turn, by_type, _conversation_groups(report.examples, turns.conversations))


def _program_right(row: ExampleResult) -> bool:
    return row.program_equivalent


def _turn_groups(rows: Iterable[ExampleResult], key: Callable[[ExampleResult], str]) -> tuple[TurnGroup, ...]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in rows:
        count = counts[key(row)]
        count[0] += 1
        count[1] += row.execution is not None
        count[2] += row.category == CORRECT
        count[3] += _program_right(row)
    order = sorted(counts, key=lambda name: (len(name), name))  # turn indices in numeric order
    return tuple(TurnGroup(name, *counts[name]) for name in order)


def _conversation_groups(rows: Iterable[ExampleResult],
                         conversations: tuple[Conversation, ...]) -> tuple[ConversationGroup, ...]:
    executed: dict[str, bool] = {}
    programs: dict[str, bool] = {}
    for row in rows:
        conversation = split_turn_id(row.id)[0]
        executed[conversation] = executed.get(conversation, True) and row.category == CORRECT
        programs[conversation] = programs.get(conversation, True) and _program_right(row)
    groups = []
    for name in ["all", *sorted({c.kind for c in conversations})]:
        members = [c.id for c in conversations if name in ("all", c.kind)]
        groups.append(ConversationGroup(name, len(members), sum(executed[c] for c in members),
                                        sum(programs[c] for c in members)))
    return tuple(groups)
