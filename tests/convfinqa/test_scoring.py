"""`finscore convfinqa` on the whole dev set: every printed figure against an independent count.

The prediction file is made from the recorded vectors: for each dev turn, its gold
program, or a mutant whose outcome (`invalid`, `result`) and whose `equal_program`
decision against the gold program ConvFinQA's own evaluator recorded, or nothing.
The expected figures are counted here from those recordings and the dev file's
`exe_ans_list` only (never from finscore's output): a turn is executed right when the
recorded evaluator gave a valid result `==` the gold answer, and its program right when
the recorded result was valid and the recorded decision equivalent (evaluate_result
checks programs of valid predictions only).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from support.shared import CONVFINQA, convfinqa_conversations, require, vector_rows

from finscore.cli import main


def _value(recorded: dict[str, str]) -> Any:
    return float.fromhex(recorded["float"]) if "float" in recorded else recorded["str"]


class Expected:
    def __init__(self) -> None:
        self.predictions: list[dict[str, Any]] = []
        self.executed: dict[str, bool] = {}  # turn id -> right (absent: no prediction)
        self.program: dict[str, bool] = {}
        self.stops: list[str] = []


@lru_cache(maxsize=1)
def _expected() -> Expected:
    rows = list(vector_rows("convfinqa"))
    gold = {row["id"]: row for row in rows if row["kind"] == "gold"}
    decided = {(row["id"].rsplit("e", 1)[0], json.dumps(row["pred"])): row["equal"]
               for row in rows if row["kind"] == "equal"}
    mutants: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["kind"] == "mutant":
            turn = row["id"].rsplit("m", 1)[0]
            if (turn, json.dumps(row["program"])) in decided:  # its equivalence was recorded
                mutants[turn].append(row)
    conversations = convfinqa_conversations()
    expected = Expected()
    for number, (turn, row) in enumerate(gold.items()):
        conversation, index = turn.rsplit("#t", 1)
        answer = conversations[conversation]["annotation"]["exe_ans_list"][int(index)]
        if number % 11 == 5:
            continue  # no prediction for this turn
        chosen = mutants[turn][0] if mutants[turn] and number % 3 else row
        equal = True if chosen is row else decided[(turn, json.dumps(chosen["program"]))]
        valid = chosen["invalid"] == 0
        right = valid and _value(chosen["result"]) == answer
        expected.executed[turn] = right
        expected.program[turn] = valid and equal
        if valid and equal and not right:
            expected.stops.append(turn)
        # every seventh prediction is named as the authors' turn files name turns
        name = f"{conversation}_{index}" if number % 7 == 3 else turn
        expected.predictions.append({"id": name, "predicted": chosen["program"]})
    return expected


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("convfinqa")
    predictions = folder / "predictions.json"
    predictions.write_text(json.dumps(_expected().predictions), encoding="utf-8")
    out = folder / "report.json"
    gold = str(require(CONVFINQA / "convfinqa_dev.json"))
    assert main(["convfinqa", str(predictions), gold, "--quiet", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    return str(predictions), report


def _figure(correct: int, total: int) -> dict[str, Any]:
    return {"correct": correct, "total": total, "value": float(correct) / total if total else None}


def test_the_authors_figures_and_the_honest_ones(scored: tuple[str, dict[str, Any]]) -> None:
    expected = _expected()
    _, report = scored
    given = len(expected.predictions)
    executed, programs = sum(expected.executed.values()), sum(expected.program.values())
    assert 1000 < given < 1490 and 0 < executed < given and 0 < programs < given
    figures = report["figures"]["convfinqa"]
    assert figures["per_prediction"] == {"execution_accuracy": _figure(executed, given),
                                         "program_accuracy": _figure(programs, given)}
    assert figures["per_gold_example"] == {"execution_accuracy": _figure(executed, 1490),
                                           "program_accuracy": _figure(programs, 1490)}
    assert report["counts"]["missing_predictions"] == 1490 - given
    assert sorted(stop["id"] for stop in report["official_stops"]) == sorted(expected.stops)


def test_the_printed_lines(scored: tuple[str, dict[str, Any]], capsys: pytest.CaptureFixture[str]) -> None:
    expected = _expected()
    predictions, _ = scored
    assert main(["convfinqa", predictions, str(require(CONVFINQA / "convfinqa_dev.json")), "--quiet"]) == 0
    out = capsys.readouterr().out
    given = len(expected.predictions)
    executed, programs = sum(expected.executed.values()), sum(expected.program.values())
    assert f"All:  {given}\nExe acc:  {float(executed) / given!r}\nProg acc:  {float(programs) / given!r}\n" in out
    assert f"execution accuracy  {float(executed) / 1490!r}  ({executed}/1490)" in out


def _groups(key: Any) -> dict[str, list[int]]:
    expected = _expected()
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for conversation in convfinqa_conversations().values():
        for index in range(len(conversation["annotation"]["turn_program"])):
            turn = f"{conversation['id']}#t{index}"
            count = counts[key(conversation["id"], index)]
            count[0] += 1
            count[1] += turn in expected.executed
            count[2] += expected.executed.get(turn, False)
            count[3] += expected.program.get(turn, False)
    return counts


def test_by_turn_index_and_by_conversation_type(scored: tuple[str, dict[str, Any]]) -> None:
    _, report = scored
    for field, key in (("by_turn_index", lambda c, i: str(i)),
                       ("by_conversation_type", lambda c, i: c.split("_", 1)[0])):
        counts = _groups(key)
        got = {group["group"]: group for group in report[field]}
        assert set(got) == set(counts)
        for name, (turns, predicted, executed, programs) in counts.items():
            assert got[name]["gold_turns"] == turns and got[name]["predicted_turns"] == predicted
            assert got[name]["execution_per_gold_turn"] == _figure(executed, turns)
            assert got[name]["program_per_gold_turn"] == _figure(programs, turns)
            assert got[name]["execution_per_prediction"] == _figure(executed, predicted)
    assert {g["group"]: g["gold_turns"] for g in report["by_conversation_type"]} == {"Single": 1052, "Double": 438}


def test_conversations_with_every_turn_right(scored: tuple[str, dict[str, Any]]) -> None:
    expected = _expected()
    _, report = scored
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for conversation in convfinqa_conversations().values():
        turns = [f"{conversation['id']}#t{i}" for i in range(len(conversation["annotation"]["turn_program"]))]
        for name in ("all", conversation["id"].split("_", 1)[0]):
            totals[name][0] += 1
            totals[name][1] += all(expected.executed.get(t, False) for t in turns)
            totals[name][2] += all(expected.program.get(t, False) for t in turns)
    got = {group["group"]: group for group in report["conversations"]}
    assert set(got) == set(totals)
    for name, (count, executed, programs) in totals.items():
        assert got[name]["conversations"] == count
        assert got[name]["every_turn_execution_correct"] == _figure(executed, count)
        assert got[name]["every_turn_program_correct"] == _figure(programs, count)
    assert 0 < totals["all"][1] < totals["all"][0]


def test_every_turn_has_one_row_with_its_diagnostics(scored: tuple[str, dict[str, Any]]) -> None:
    expected = _expected()
    _, report = scored
    rows = {row["id"]: row for row in report["examples"]}
    assert len(rows) == len(report["examples"]) == 1490
    for turn, right in expected.executed.items():
        row = rows[turn]
        assert row["execution_correct"] == right
        assert row["program_equivalent"] == expected.program[turn]
        assert (row["category"] == "correct") == right
        assert row["status"] and "execution" in row
    missing = [turn for turn in rows if turn not in expected.executed]
    assert all(rows[turn]["category"] == "missing_prediction" for turn in missing)
    assert sorted(report["missing_ids"]) == sorted(missing)
    assert not math.isnan(report["figures"]["convfinqa"]["per_prediction"]["execution_accuracy"]["value"])
