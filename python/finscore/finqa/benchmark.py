"""FinQA's descriptor in the benchmark registry (finscore.registry): its facts, written once."""

from __future__ import annotations

from typing import Any

from finscore.registry import Benchmark, Example, IndependenceUnit, Ref


def filing_of(example_id: str) -> str:
    """The filing a FinQA id names, company/year: "ETR/2016/page_23.pdf-2" -> "ETR/2016".

    Questions from one filing share its pages and tables, so they are not independent."""
    company, _, rest = example_id.partition("/")
    year = rest.partition("/")[0]
    return f"{company}/{year}" if year else company


def _id_problem(example: Any) -> str | None:
    return None if isinstance(example, dict) and isinstance(example.get("id"), str) else 'has no text "id"'


def units(gold: Any) -> dict[str, str]:
    """Each gold example's id -> its filing. The filing is read from the id alone, so only ids are
    required: a free-text answers file (no tables, `finscore answers`) groups the same way."""
    from finscore.finqa.inputs import unique_entries

    return {example["id"]: filing_of(example["id"]) for example in unique_entries(gold, _id_problem, "FinQA", "examples")}


def read_gold_file(path: str) -> Any:
    from finscore.finqa.files import read_json_file

    return read_json_file(path, "gold file")


def read_prediction_file(path: str) -> Any:
    from finscore.finqa.files import read_json_file

    return read_json_file(path, "prediction file")


BENCHMARK = Benchmark(
    name="finqa",
    title="FinQA",
    official_scorer="evaluate.py",
    data_source="czyssrs/FinQA",
    gold_reader=Ref("finscore.finqa.benchmark:read_gold_file"),
    prediction_reader=Ref("finscore.finqa.benchmark:read_prediction_file"),
    official_protocol="evaluate.py of czyssrs/FinQA: execution and program accuracy over the predictions given",
    honest_protocol="every gold example counted, a missing or excluded prediction a failure",
    reasons=Ref("finscore.scoring.program_categories:CATEGORY_DESCRIPTIONS"),
    unit=IndependenceUnit("filing", "the filing (company/year) a question's page comes from",
                          Ref("finscore.finqa.benchmark:units")),
    answer_protocols=("finqa-answer/1",),
    program_profile="official",
    command="finscore.commands.finqa",
    examples=(Example("examples/finqa/predictions.json", "examples/finqa/gold.json"),),
    program_comparer=Ref("finscore.finqa.equivalence:ProgramComparer"),
)
