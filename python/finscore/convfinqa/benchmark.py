"""ConvFinQA's descriptor in the benchmark registry (finscore.registry): its facts, written once."""

from __future__ import annotations

from typing import Any

from finscore.registry import Benchmark, Example, IndependenceUnit, Ref


def units(gold: Any) -> dict[str, str]:
    """Each turn's id -> its conversation: a conversation's turns build on each other."""
    from finscore.convfinqa.turns import read_conversations, split_turn_id

    return {example.id: split_turn_id(example.id)[0] for example in read_conversations(gold).gold.examples}


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
