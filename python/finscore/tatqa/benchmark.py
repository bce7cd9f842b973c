"""TAT-QA's descriptor in the benchmark registry (finscore.registry): its facts, written once."""

from __future__ import annotations

from typing import Any

from finscore.registry import Benchmark, Example, IndependenceUnit, Ref


def units(gold: Any) -> dict[str, str]:
    """Each question's uid -> the uid of its document's table: questions on one table share it. Only the
    uids are read, so a free-text answers file (`finscore answers`, whose documents may carry no table)
    groups the same way: a document without a table uid is its own unit, named by its position. A uid
    that questions on two tables share has no one table, and is refused."""
    from finscore.tatqa.files import TatqaInputError

    if not isinstance(gold, list):
        raise TatqaInputError("the gold file is not TAT-QA: not a list of documents")
    keys: dict[str, str] = {}
    for position, document in enumerate(gold):
        questions = document.get("questions") if isinstance(document, dict) else None
        if not isinstance(questions, list):
            raise TatqaInputError(f"gold document {position} has no list of questions")
        table = document.get("table")
        table_uid = table.get("uid") if isinstance(table, dict) else None
        unit = table_uid if isinstance(table_uid, str) else f"document {position}"
        for index, question in enumerate(questions):
            uid = question.get("uid") if isinstance(question, dict) else None
            if not isinstance(uid, str):
                raise TatqaInputError(f"gold document {position} question {index} has no text \"uid\"")
            if keys.get(uid, unit) != unit:  # a uid repeated on one table keeps its one unit
                raise TatqaInputError(f"the gold uid {uid!r} is asked of two tables ({keys[uid]!r} and "
                                      f"{unit!r}): its questions cannot be grouped by table")
            keys[uid] = unit
    return keys


def decision_question_problem(question: Any) -> str | None:
    """Why one decision cannot read a gold question (its answer_type, scale and answer), or None:
    what `finscore tatqa` checks of it, in its words; its answer_from is not needed to decide."""
    from finscore.tatqa.inputs import question_problem

    return question_problem(question, whole=False)


BENCHMARK = Benchmark(
    name="tatqa",
    title="TAT-QA",
    official_scorer="tatqa_eval.py",
    data_source="NExTplusplus/TAT-QA",
    gold_reader=Ref("finscore.tatqa.files:read_gold_file"),
    prediction_reader=Ref("finscore.tatqa.files:read_predictions_file"),
    official_protocol="tatqa_eval.py of NExTplusplus/TAT-QA: exact match and F1 over every gold question",
    honest_protocol="every gold question counted, a missing or excluded prediction a failure",
    reasons=Ref("finscore.tatqa.reasons:REASON_DESCRIPTIONS"),
    unit=IndependenceUnit("table", "the table (document) a question is asked about",
                          Ref("finscore.tatqa.benchmark:units")),
    answer_protocols=("tatqa-answer/1",),
    command="finscore.commands.tatqa",
    prediction_reward=Ref("finscore.tatqa.reward:TATQA_REWARD"),
    examples=(Example("examples/tatqa/predictions.json", "examples/tatqa/gold.json"),),
    question_problem=Ref("finscore.tatqa.benchmark:decision_question_problem"),
)
