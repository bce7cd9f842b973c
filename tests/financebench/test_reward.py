"""FinanceBench as a reward source: correctness (score, passed, reason) and support (support,
support_reason) as separate columns, through score_arrow, `finscore rewards` and verl's dict."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from finscore.financebench.scoring import decide, score_answer
from finscore.financebench.results import answers_from
from finscore.rewards import REWARD_COLUMNS, REWARD_SCHEMA, RewardConfig, score_arrow
from finscore.rewards.adapters.trl import finscore_reward
from finscore.rewards.adapters.verl import compute_score
from finscore.rewards.arrow_batches import reward_schema
from finscore.rewards.errors import RewardInputError
from support.cli import run_command

from .excerpt import answer_records, gold_lines, question

CONFIG = RewardConfig(input="financebench", data_source="financebench")


def _gold_text(short: str) -> str:
    """The gold file's own line for a question: the record a reward row carries."""
    return next(line.decode() for line in gold_lines() if f'"financebench_id_{short}"' in line.decode())


def test_correctness_and_support_are_separate_columns_on_a_real_page() -> None:
    page = question("03029").evidence[0].full_page
    # the cash-flow page (3M 2018 10-K, "(Millions)") prints capital expenditure as an outflow
    assert "Purchases of property, plant and equipment (PP&E)\n \n \n(1,577)" in page and "(Millions)" in page
    assert "1,600" not in page
    gold = _gold_text("03029")  # gold "$1577.00", in USD millions
    completions = ["The FY2018 capital expenditure was $1,577 million.", "It was $1,600 million.",
                   "I cannot answer that question.", None]
    scored = score_arrow(pa.table({"completion": completions, "gold": [gold] * 4}), CONFIG)
    assert scored.schema.names == ["completion", "gold", *REWARD_COLUMNS, "support", "support_reason"]
    assert scored.column("score").to_pylist() == [1.0, 0.0, 0.0, 0.0]
    assert scored.column("reason").to_pylist() == ["exact", "wrong_value", "refusal", "missing_prediction"]
    assert scored.column("support").to_pylist() == [1.0, 0.0, None, None]
    assert scored.column("support_reason").to_pylist() == ["number_magnitude", "number_not_in_passage", "refusal",
                                                          "missing_prediction"]
    detail = json.loads(scored.column("detail")[0].as_py())["support"]
    assert detail == {"supported": True, "evidence": 0, "document": "not_cited", "page": "not_cited",
                      "number": "number_magnitude", "row": "row_matches", "period": "period_matches"}
    assert set(scored.column("protocol").to_pylist()) == {
        next(iter(set(scored.column("protocol").to_pylist())))}
    assert scored.column("protocol")[0].as_py().startswith("financebench-answer/1 support=financebench-support/1 ")


def test_a_claim_on_another_row_is_correct_for_nothing_and_unsupported_by_its_row() -> None:
    page = question("03029").evidence[0].full_page
    assert "(1,373)" in page  # the 2017 column of the same row
    scored = score_arrow(pa.table({"completion": ["The FY2018 capital expenditure was $1,373 million."],
                                   "gold": [_gold_text("03029")]}), CONFIG)
    assert scored.column("reason").to_pylist() == ["wrong_value"]
    assert scored.column("support").to_pylist() == [0.0]
    assert scored.column("support_reason").to_pylist() == ["period_mismatch"]


def test_support_agrees_with_finscore_financebench_on_every_excerpt_answer() -> None:
    """Both columns are the command's two axes for the same answer (the reward carries no citation)."""
    records = list(answer_records())
    completions = [r["model_answer"] if isinstance(r["model_answer"], str) else str(r["model_answer"])
                   for r in records]
    golds = [_gold_text(r["financebench_id"].removeprefix("financebench_id_")) for r in records]
    scored = score_arrow(pa.table({"completion": completions, "gold": golds}), CONFIG)
    answers = [answers_from([(1, {"financebench_id": r["financebench_id"], "model_answer": r["model_answer"]})])[0]
               for r in records]  # one results file's line at a time: the excerpt holds several files
    supports = scored.column("support").to_pylist()
    checked = 0
    for row, (record, answer) in enumerate(zip(records, answers)):
        both = score_answer(question(record["financebench_id"].removeprefix("financebench_id_")), answer)
        expected = None if both.support is None else 1.0 if both.support.supported else 0.0
        assert supports[row] == expected, record["financebench_id"]
        passed, reason = decide(completions[row], json.loads(golds[row]))
        assert (scored.column("passed")[row].as_py(), scored.column("reason")[row].as_py()) == (passed, reason)
        checked += expected is not None
    assert checked > 100 and 0.0 in supports and 1.0 in supports


def test_a_gold_without_evidence_keeps_its_correctness_and_checks_no_support() -> None:
    scored = score_arrow(pa.table({"completion": ["$1,577 million"], "gold": [json.dumps("$1577.00")]}), CONFIG)
    assert scored.column("reason").to_pylist() == [decide("$1,577 million", "$1577.00")[1]]
    assert (scored.column("support").to_pylist(), scored.column("support_reason").to_pylist()) == (
        [None], ["no_evidence"])


def test_a_gold_with_malformed_evidence_is_named_by_its_row() -> None:
    bad = json.loads(_gold_text("03029"))
    bad["evidence"] = [{"evidence_text": "x"}]
    with pytest.raises(RewardInputError) as caught:
        score_arrow(pa.table({"completion": ["a", "b"], "gold": [_gold_text("03029"), json.dumps(bad)]}), CONFIG)
    assert (caught.value.column, caught.value.row) == ("gold", 1)
    assert "evidence 0 lacks" in str(caught.value)


def test_rows_of_another_source_get_null_support() -> None:
    scored = score_arrow(pa.table({"completion": ["$1,577 million", "add(1, 2)"],
                                   "gold": [_gold_text("03029"), "{}"],
                                   "data_source": ["financebench", "finqa"]}), CONFIG)
    assert scored.column("reason").to_pylist() == ["exact", "not_scored"]
    assert scored.column("support").to_pylist() == [1.0, None]
    assert scored.column("support_reason").to_pylist() == ["number_magnitude", None]


def test_other_inputs_keep_the_five_columns() -> None:
    for config in (RewardConfig(), RewardConfig(input="answer"), RewardConfig(input="tatqa", data_source="tatqa")):
        assert reward_schema(config) is REWARD_SCHEMA
        assert config.extra_columns() == ()


def test_finscore_rewards_writes_the_support_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, output = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"completion": ["The FY2018 capital expenditure was $1,577 million.",
                                            "It was $1,600 million."],
                             "gold": [_gold_text("03029")] * 2}), source)
    status, _, err = run_command("rewards", capsys, str(source), str(output), "--input", "financebench", "--quiet")
    assert status == 0, err
    scored = pq.read_table(output)
    assert scored.schema.names == ["completion", "gold", *REWARD_COLUMNS, "support", "support_reason"]
    assert scored.column("passed").to_pylist() == [True, False]
    assert scored.column("support").to_pylist() == [1.0, 0.0]
    assert scored.column("support_reason").to_pylist() == ["number_magnitude", "number_not_in_passage"]


def test_verl_gets_support_beside_the_score() -> None:
    result = compute_score("financebench", "It was $1,600 million.", _gold_text("03029"), input="financebench")
    assert (result["score"], result["support"], result["support_reason"]) == (0.0, 0.0, "number_not_in_passage")


def test_trl_gets_correctness_and_support_as_two_reward_functions() -> None:
    golds = [_gold_text("03029")] * 3
    completions = ["The FY2018 capital expenditure was $1,577 million.", "It was $1,600 million.", "I cannot say."]
    correct = finscore_reward(CONFIG, name="correct")
    supported = finscore_reward(CONFIG, name="supported", column="support")
    assert correct(prompts=None, completions=completions, gold=golds) == [1.0, 0.0, 0.0]
    assert supported(prompts=None, completions=completions, gold=golds) == [1.0, 0.0, None]
    with pytest.raises(RewardInputError, match="support_reason"):
        finscore_reward(CONFIG, column="support_reason")
    with pytest.raises(RewardInputError, match="score, not 'support'"):
        finscore_reward(RewardConfig(), column="support")
