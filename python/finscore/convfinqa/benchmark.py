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


def filing_of_conversation(conversation_id: str) -> str:
    """The filing (company/year) of the page a conversation is built on:
    "Double_HII/2017/page_104.pdf" -> "HII/2017", "Single_MRO/2007/page_134.pdf-1" -> "MRO/2007"."""
    from finscore.finqa.benchmark import filing_of

    for prefix in ("Single_", "Double_"):
        if conversation_id.startswith(prefix):
            return filing_of(conversation_id[len(prefix):])
    return filing_of(conversation_id)


def units(gold: Any) -> dict[str, str]:
    """Each turn's id -> the filing of its conversation's page: a conversation's turns build on each other,
    and the Single and Double conversations made from one page (or one filing's pages) share its tables,
    so the filing holds them all. Only the ids and the turn count are read, so a free-text answers file
    (no tables) groups the same way."""
    from finscore.finqa.inputs import unique_entries
    from finscore.inputs.turn_ids import turn_id

    entries = unique_entries(gold, _turns_problem, "ConvFinQA", "conversations", "conversation id(s)")
    return {turn_id(entry["id"], turn): filing_of_conversation(entry["id"])
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
    unit=IndependenceUnit("filing", "the filing (company/year) of the page a turn's conversation is built on "
                                    "(its turns, and the Single and Double conversations of one page)",
                          Ref("finscore.convfinqa.benchmark:units")),
    answer_protocols=("convfinqa-answer/1",),
    program_profile="convfinqa",
    command="finscore.commands.convfinqa",
    examples=(Example("examples/convfinqa/predictions.json", "examples/convfinqa/gold.json"),),
)
