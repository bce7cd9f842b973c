"""ConvFinQA's descriptor in the benchmark registry (finscore.registry): its facts, written once."""

from __future__ import annotations

from typing import Any

from finscore.registry import Benchmark, Example, IndependenceUnit, Ref


def _turns_problem(entry: Any) -> str | None:
    notes = entry.get("annotation") if isinstance(entry, dict) else None
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
        return 'has no text "id"'
    if not isinstance(notes, dict) or not isinstance(notes.get("turn_program"), list):
        return 'has no "annotation.turn_program" list'
    return None


def units(gold: Any) -> dict[str, str]:
    """Each turn's id -> its conversation: a conversation's turns build on each other. Only the ids and
    the turn count are read, so a free-text answers file (no tables) groups the same way."""
    from finscore.finqa.inputs import unique_entries
    from finscore.inputs.turn_ids import turn_id

    entries = unique_entries(gold, _turns_problem, "ConvFinQA", "conversations", "conversation id(s)")
    return {turn_id(entry["id"], turn): entry["id"]
            for entry in entries for turn in range(len(entry["annotation"]["turn_program"]))}


BENCHMARK = Benchmark(
    name="convfinqa",
    title="ConvFinQA",
    official_scorer="the authors' evaluate_result",
    data_source="czyssrs/ConvFinQA",
    gold_reader=Ref("finscore.finqa.benchmark:read_gold_file"),
    prediction_reader=Ref("finscore.finqa.benchmark:read_prediction_file"),
    official_protocol="the authors' evaluate_result of czyssrs/ConvFinQA: per turn, over the predictions given",
    honest_protocol="every gold turn counted, a missing or excluded prediction a failure",
    reasons=Ref("finscore.scoring.program_categories:CATEGORY_DESCRIPTIONS"),
    unit=IndependenceUnit("conversation", "the conversation a turn belongs to",
                          Ref("finscore.convfinqa.benchmark:units")),
    answer_protocols=("convfinqa-answer/1",),
    program_profile="convfinqa",
    command="finscore.commands.convfinqa",
    examples=(Example("examples/convfinqa/predictions.json", "examples/convfinqa/gold.json"),),
)
