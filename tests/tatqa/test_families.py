"""Issue #30's TAT-QA families against the official scorer's recorded behaviour.

data/official_families.json was made by tools/tatqa/record_families.py: the
official tatqa_metric.py / tatqa_eval.py (NExTplusplus/TAT-QA at 870accc) and
pandas, run on the inputs of family_cases.py. Here finscore runs on the same
inputs and must give what they gave.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from finscore.tatqa import decide, explain, official_text, run_official, score_predictions
from finscore.tatqa.decide_jsonl import stream_decisions
from finscore.tatqa.inputs import read_gold
from finscore.tatqa.pivots import Pivots, render
from finscore.tatqa.reasons import REASON_DESCRIPTIONS
from finscore.tatqa.reward import decide_tatqa

from .family_cases import FILES, FRAMES, file_inputs

RECORDED = json.loads((Path(__file__).parent / "data" / "official_families.json").read_text(encoding="utf-8"))
PAIRS = RECORDED["pairs"]


def test_the_recording_names_its_provenance_and_holds_every_case() -> None:
    assert RECORDED["official_commit"] == "870accc41953dcde885aabeb963d94aabdc0fbc3"
    assert set(RECORDED["files"]) == set(FILES) and len(RECORDED["frames"]) == len(FRAMES)
    assert all("exception" not in pair for pair in PAIRS)  # the official metric scores every pair


@pytest.mark.parametrize("pair", PAIRS, ids=range(len(PAIRS)))
def test_a_reason_never_stops_the_official_score(pair: dict[str, Any]) -> None:
    gold, (answer, scale) = pair["gold"], pair["pred"]
    decision = decide(gold, answer, scale)
    assert (repr(decision.em), repr(decision.f1), decision.scale_match) == (pair["em"], pair["f1"],
                                                                              pair["scale_match"])
    why = explain(gold, answer, scale, decision)
    assert why.kind in REASON_DESCRIPTIONS
    if decision.em != 1.0:
        assert why.kind != "correct" and why.detail


def test_the_reward_is_the_official_f1_on_those_answers() -> None:
    completions = [json.dumps(pair["pred"]) for pair in PAIRS]
    rows = decide_tatqa(completions, [pair["gold"] for pair in PAIRS], score="f1")
    for row, pair in enumerate(PAIRS):
        assert rows.reasons[row] != "official_crash", rows.details[row]
        assert repr(rows.scores[row]) == pair["f1"] and rows.passed[row] == (pair["em"] == "1.0")


def test_the_reward_reads_those_golds_from_their_json_and_scores_each() -> None:
    """Through the reward's own gold reading (an answer type outside the four is scored, as officially)."""
    from finscore.rewards import RewardConfig, decide_rows

    decided = decide_rows([json.dumps(pair["pred"]) for pair in PAIRS], [json.dumps(pair["gold"]) for pair in PAIRS],
                          ["tatqa"] * len(PAIRS), RewardConfig(input="tatqa"))
    assert [repr(decision.score) for decision, _ in decided] == [pair["f1"] for pair in PAIRS]


def test_decide_jsonl_decides_every_one_of_those_lines() -> None:
    source = io.StringIO("".join(json.dumps({"gold": p["gold"], "pred": p["pred"]}) + "\n" for p in PAIRS))
    sink = io.StringIO()
    summary = stream_decisions(source, sink)
    assert summary.errors == [] and summary.decided == len(PAIRS)
    lines = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [(line["em"], line["f1"], line["scale_match"]) for line in lines] == [
        (p["em"], p["f1"], p["scale_match"]) for p in PAIRS]


@pytest.mark.parametrize("case", FILES)
def test_the_official_text_is_the_recorded_printout(case: str) -> None:
    recorded = RECORDED["files"][case]
    assert recorded["exit"] == 0
    gold, predictions = file_inputs(case)
    run = run_official(read_gold(gold), predictions)
    assert run.totals is not None and run.pivots is not None
    assert official_text(run.totals, run.pivots) + "\n" == recorded["stdout"]


@pytest.mark.parametrize("case", FILES)
def test_the_command_scores_it_and_prints_it(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, predictions = file_inputs(case)
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "pred.json").write_text(json.dumps(predictions), encoding="utf-8")
    assert main(["tatqa", str(tmp_path / "pred.json"), str(tmp_path / "gold.json"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\n" + RECORDED["files"][case]["stdout"] in out
    assert ("Warning: " in out) == case.startswith("gold-")


def test_repeated_gold_uids_are_each_counted_and_named() -> None:
    gold, predictions = file_inputs("gold-repeated-uids")
    report = score_predictions(predictions, list(predictions.items()), gold)
    questions = [q for document in gold for q in document["questions"]]
    assert report.gold_questions == len(questions) == len(report.questions)
    assert [row.uid for row in report.questions] == [q["uid"] for q in questions]
    assert report.official is not None and report.honest == report.official  # every gold question predicted
    (warning,) = report.gold_warnings
    assert warning.startswith("the gold file repeats 2 uid(s)") and repr(questions[0]["uid"]) in warning
    assert report.to_json()["gold_warnings"] == [warning]


def test_labels_outside_the_known_ones_are_named() -> None:
    gold, predictions = file_inputs("gold-labels-odd")
    report = score_predictions(predictions, list(predictions.items()), gold)
    assert [w.split(";")[0] for w in report.gold_warnings] == [
        "1 question(s) have an answer_type outside arithmetic, count, multi-span, span",
        "2 question(s) have an answer_from outside table, table-text, text"]
    assert "'0', 'tablé'" in report.gold_warnings[1]


def test_null_or_missing_labels_are_named_and_left_out_of_the_pivots() -> None:
    gold, predictions = file_inputs("gold-labels-null")
    report = score_predictions(predictions, list(predictions.items()), gold)
    questions = [q for document in gold for q in document["questions"]]
    assert [w.split(";")[0] for w in report.gold_warnings] == [
        "2 question(s) have no answer_type (null or missing)", "3 question(s) have no answer_from (null or missing)"]
    assert repr(questions[5]["uid"]) in report.gold_warnings[1]  # the one whose key is missing
    assert report.official is not None and report.official.rows == len(questions)
    assert report.official_pivots is not None and sum(report.official_pivots.counts.values()) == len(questions) - 4
    assert report.to_json()["questions"][9]["answer_type"] is None


def test_a_file_of_known_labels_and_unique_uids_has_no_warning_key() -> None:
    gold, predictions = file_inputs("reason-overflow")
    report = score_predictions(predictions, list(predictions.items()), gold)
    assert report.gold_warnings == () and "gold_warnings" not in report.to_json()


@pytest.mark.parametrize("frame", RECORDED["frames"], ids=range(len(RECORDED["frames"])))
def test_float_columns_are_formatted_as_pandas_formats_them(frame: dict[str, Any]) -> None:
    cells = {(answer_type, source): value for answer_type, row in frame["cells"].items()
             for source, value in row.items()}
    types = tuple(sorted(frame["cells"]))
    sources = tuple(sorted({source for _, source in cells}))
    pivots = Pivots(types, sources, {cell: 1 for cell in cells}, cells, cells)
    assert render(pivots, frame["value_name"], cells) == frame["text"]


def test_a_uid_repeated_on_another_table_has_no_independence_unit() -> None:
    from finscore.tatqa.benchmark import units
    from finscore.tatqa.files import TatqaInputError

    gold, _ = file_inputs("gold-repeated-uids")
    assert len(set(units(gold[:-1]).values())) == len(gold) - 1  # every table its own unit
    other = [*gold[:-1], {**gold[-1], "table": {"uid": "another-table"}}]
    with pytest.raises(TatqaInputError, match="is asked of two tables"):
        units(other)
