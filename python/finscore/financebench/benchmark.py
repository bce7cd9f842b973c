"""FinanceBench's descriptor in the benchmark registry (finscore.registry): its facts, written once."""

from __future__ import annotations

from typing import Any

from finscore.registry import Benchmark, IndependenceUnit, Ref


def units(gold: Any) -> dict[str, str]:
    """Each question's financebench_id -> its document (doc_name, "3M_2018_10K"): questions on one filing
    share its pages, so they are not independent."""
    return {identifier: question.doc_name for identifier, question in gold.items()}


BENCHMARK = Benchmark(
    name="financebench",
    title="FinanceBench",
    official_scorer="human graders (the paper's labels); no official scoring code",
    data_source="patronus-ai/financebench",
    gold_reader=Ref("finscore.financebench.gold:read_gold_file"),
    prediction_reader=Ref("finscore.financebench.results:read_predictions"),
    official_protocol="human graders' labels (Correct Answer, Incorrect Answer, Refusal) in results/*.jsonl",
    honest_protocol="financebench-answer/1 on every metrics-generated question with a numeric gold, a missing "
                    "answer a failure; support by the evidence reported beside it",
    reasons=Ref("finscore.financebench.reasons:REASON_DESCRIPTIONS"),
    unit=IndependenceUnit("document", "the filing a question is asked of (doc_name)",
                          Ref("finscore.financebench.benchmark:units")),
    command="finscore.commands.financebench",
    decide=Ref("finscore.financebench.scoring:decide"),
    prediction_reward=Ref("finscore.financebench.reward:FINANCEBENCH_REWARD"),
)
