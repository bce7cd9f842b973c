"""`finscore tatqa` on files: the shipped example, honest accounting, and every kind of bad input."""

from __future__ import annotations

from functools import partial

import io
import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from finscore.tatqa import score_predictions
from finscore.tatqa.decide_jsonl import stream_decisions
from finscore.tatqa.files import MAX_FILE_BYTES
from support.cli import run_command
from support.shared import REPOSITORY

EXAMPLE = REPOSITORY / "examples" / "tatqa"


def _question(uid: str, answer: Any, answer_type: Any = "span", scale: str = "", source: Any = "text") -> dict[str, Any]:
    return {"uid": uid, "question": f"question {uid}?", "answer": answer, "answer_type": answer_type,
            "answer_from": source, "scale": scale}


GOLD = [{"table": {}, "paragraphs": [], "questions": [
    _question("q1", ["Paris"]),
    _question("q2", 12.5, "arithmetic", "million", "table"),
    _question("q3", "3", "count", "", "table"),
]}]


def _write(path: Path, data: Any) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


_run = partial(run_command, "tatqa")


@pytest.fixture
def gold(tmp_path: Path) -> str:
    return _write(tmp_path / "gold.json", GOLD)


def test_the_shipped_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, str(EXAMPLE / "predictions.json"), str(EXAMPLE / "gold.json"), "--quiet")
    assert status == 0
    assert "Exact-match accuracy " in out and "---- f1 detail ---" in out
    predicted = json.loads((EXAMPLE / "predictions.json").read_text(encoding="utf-8"))
    questions = [q for d in json.loads((EXAMPLE / "gold.json").read_text(encoding="utf-8")) for q in d["questions"]]
    missing = [q["uid"] for q in questions if q["uid"] not in predicted]
    assert len(missing) == 2 and f"missing: {', '.join(missing)}" in out
    assert f"denominator = {len(questions)})" in out
    assert "failing questions:" in out and "    question: " in out and "    gold: " in out


def test_missing_uids_are_named_and_score_zero(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "p.json", {"q1": [["Paris"], ""], "q2": ["12.5", "million"]})
    status, out, _ = _run(capsys, predictions, gold, "--quiet")
    assert status == 0
    assert "Exact-match accuracy 66.67" in out  # 2 of 3, as the official script divides
    assert "missing: q3" in out
    assert "exact match  0.6666666666666666" in out and "exact match  1.0  (100.00%)" in out


def test_unknown_and_repeated_uids_stop_the_run_naming_each(tmp_path: Path, gold: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = '{"q1": [["Paris"], ""], "zz": ["x", ""], "q2": ["1", ""], "q2": ["12.5", "million"], "yy": ["y", ""]}'
    status, _, err = _run(capsys, _write(tmp_path / "p.json", text), gold)
    assert status == 2
    assert "'zz'" in err and "'yy'" in err and "not in the gold file" in err
    assert "'q2' (entries 2, 3)" in err and "json.load keeps the last one silently" in err


def test_exclude_bad_ids_scores_the_rest(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = '{"q1": [["Paris"], ""], "zz": ["x", ""], "q2": ["1", ""], "q2": ["12.5", "million"], "q3": [3, ""]}'
    out_json = tmp_path / "report.json"
    status, out, _ = _run(capsys, _write(tmp_path / "p.json", text), gold, "--exclude-bad-ids", "--quiet",
                          "--json", str(out_json))
    assert status == 0
    report = json.loads(out_json.read_text(encoding="utf-8"))
    # the official script reads the last q2 (right) and str(3) for q3 (right): 3 of 3
    assert report["official"]["em"] == 1.0
    # honestly only q1 is scored: q2's copies differ, q3's answer is a number
    assert report["honest"] == {"denominator": 3, "em": 1 / 3, "f1": 1 / 3, "scale": 1 / 3}
    assert {e["kind"] for e in report["exclusions"]} == {"unknown_id", "duplicate_id", "malformed_entry"}
    assert report["excluded_uids"] == ["q2", "q3"]
    assert [q["reason"] for q in report["questions"]] == ["correct", "excluded_prediction", "excluded_prediction"]
    assert "excluded duplicate_id" in out
    assert "the 4 entries excluded below included (a repeated uid: its last value)" in out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"Paris"', "the value is a JSON text, not a list [answer, scale]"),
        ('["Paris"]', "a list of 1 items"),
        ('["a", "", "b"]', "a list of 3 items"),
        ('[12.5, ""]', "the answer is a JSON number (12.5)"),
        ('[null, ""]', "the answer is a JSON null"),
        ('[true, ""]', "the answer is a JSON boolean"),
        ('[{"a": 1}, ""]', "the answer is a JSON object"),
        ('[["a", 1], ""]', "item 1 of the answer is a JSON number"),
        ('[["a", ["b"]], ""]', "item 1 of the answer is a JSON list"),
        ('[NaN, ""]', "the answer is a JSON NaN"),
        ('[["1", -Infinity], ""]', "item 1 of the answer is a JSON Infinity"),
        ('[1e999, ""]', "the answer is a JSON Infinity"),
        ('["Paris", null]', "the scale is a JSON null"),
        ('["Paris", 1]', "the scale is a JSON number"),
    ],
)
def test_malformed_entries_are_named(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str],
                                     value: str, message: str) -> None:
    text = '{"q1": [["Paris"], ""], "q3": ' + value + "}"
    status, _, err = _run(capsys, _write(tmp_path / "p.json", text), gold)
    assert status == 2
    assert "1 malformed entry: entry 1 (uid 'q3'): " in err and message in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b" \n", "is empty"),
        (b'{"q1": [["Paris"], ""]', "is not valid JSON: Expecting ',' delimiter at line 1, column 23"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'[["q1", "Paris"]]', "a prediction file is a JSON object {uid: [answer, scale], ...}, not a JSON list"),
        (b'"q1"', "not a JSON text"),
        (b"[" * 100000 + b"]" * 100000, "nests JSON too deeply"),
    ],
)
def test_unusable_prediction_files(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str],
                                   content: bytes, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(content)
    status, out, err = _run(capsys, str(path), gold)
    assert status == 2 and out == ""
    assert message in err


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk is used
    status, _, err = _run(capsys, str(path), gold)
    assert status == 2
    assert f"is {MAX_FILE_BYTES + 1} bytes, more than the {MAX_FILE_BYTES} allowed" in err


@pytest.mark.parametrize(
    ("gold_data", "message"),
    [
        ({"questions": []}, "not a list of documents"),
        ([{"questions": [_question("q1", ["a"], answer_type=True)]}], "has \"answer_type\" True, not text or null"),
        ([{"questions": [_question("q1", ["a"], source=5)]}], "has \"answer_from\" 5, not text or null"),
        ([{"questions": [{"uid": "q1", "answer": ["a"], "answer_from": "text", "scale": ""}]}],
         "has no \"answer_type\" (the official metric raises KeyError on it)"),
        ([{"questions": [_question("q1", ["a"], source=None)]}], "no gold question has both an answer_type and"),
        ([{"questions": [_question("q1", ["a"], scale="millions")]}], "has \"scale\" 'millions'"),
        ([{"questions": [_question("q1", "a")]}], "cannot read (AssertionError: a span answer must be a list"),
        ([{"questions": [_question("q1", "three", "count")]}], "ValueError in int()"),
        ([{"questions": []}], "holds no questions"),
        ([{"paragraphs": []}], "document 0 has no \"questions\" list"),
    ],
)
def test_unusable_gold_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], gold_data: Any, message: str) -> None:
    status, _, err = _run(capsys, _write(tmp_path / "p.json", {"q1": ["a", ""]}),
                          _write(tmp_path / "g.json", gold_data))
    assert status == 2
    assert message in err


def test_when_the_official_script_would_stop_there_are_no_official_figures(
        tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "p.json", {"q1": [["Paris"], ""], "q2": ["12.5", "million", "x"]})
    status, out, _ = _run(capsys, predictions, gold, "--exclude-bad-ids", "--quiet")
    assert status == 0
    assert "Official figures: none. tatqa_eval.py would stop with an exception at uid q2: ValueError" in out
    assert "Exact-match accuracy" not in out
    assert "exact match  0.3333333333333333" in out


def test_json_to_standard_output(tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "p.json", {"q1": [["paris"], ""], "q2": ["12.5", ""], "q3": ["4", ""]})
    status, out, _ = _run(capsys, predictions, gold, "--json", "-", "--quiet")
    assert status == 0
    report = json.loads(out)
    assert report["format"] == "finscore-tatqa-report/1"
    assert [q["reason"] for q in report["questions"]] == ["correct", "scale_mismatch", "wrong_count"]
    assert report["official_pivots"][0] == {"answer_type": "arithmetic", "answer_from": "table", "count": 1,
                                            "em": 0.0, "f1": 0.0}


def test_progress_is_reported_to_the_end() -> None:
    seen: list[tuple[str, int, int]] = []
    predictions = {"q1": [["Paris"], ""]}
    score_predictions(predictions, list(predictions.items()), GOLD,
                      progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert ("official", 3, 3) in seen and ("reasons", 1, 1) in seen


def test_a_huge_answer_is_read_in_linear_time() -> None:
    answer = "1." + "1" * 200_000 + " %"  # the official regular expressions backtrack quadratically here
    predictions = {"q1": [answer, ""]}
    report = score_predictions(predictions, list(predictions.items()), GOLD)
    assert report.questions[0].reason == "wrong_answer"


def test_an_integer_past_cpythons_digit_limit_is_unreadable_officially_too() -> None:
    predictions = {"q1": ["1" * 5000, ""]}
    report = score_predictions(predictions, list(predictions.items()), GOLD)
    assert report.questions[0].reason == "unreadable_prediction"
    assert report.official is None and report.official_stop is not None
    assert report.official_stop[0] == "q1" and "ValueError" in report.official_stop[1]


@pytest.mark.parametrize("answer", ["1" * 400 + "%", ["1" * 400 + "%"]])
def test_an_integer_too_large_for_a_float_read_as_a_percent_is_unreadable_officially_too(answer: Any) -> None:
    # The official to_number multiplies the integer it read by 0.01 here; CPython itself refuses that:
    with pytest.raises(OverflowError):
        int("1" * 400) * 0.01
    predictions = {"q1": [answer, ""]}
    report = score_predictions(predictions, list(predictions.items()), GOLD)
    assert report.questions[0].reason == "unreadable_prediction"
    assert report.official is None and report.official_stop is not None
    assert report.official_stop[0] == "q1" and "OverflowError" in report.official_stop[1]


def test_decide_jsonl_writes_every_line_back(capsys: pytest.CaptureFixture[str]) -> None:
    good = {"gold": _question("q1", ["Paris"]), "pred": ["paris", ""]}
    lines = [json.dumps(good), "not json", "[1, 2]", json.dumps({"gold": {"answer": "x"}, "pred": ["x", ""]}),
             json.dumps({"gold": _question("q1", ["a"]), "pred": [["a", 1], ""]}), "", json.dumps(good),
             json.dumps({"file_totals": None})]
    sink = io.StringIO()
    summary = stream_decisions(io.StringIO("\n".join(lines) + "\n"), sink)
    written = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert summary.exit_code == 1 and summary.decided == 2 and len(summary.errors) == 5
    assert len(written) == 8  # the blank line is written back as an error (issue #30: line numbers stay aligned)
    assert (written[0]["em"], written[0]["f1"], written[0]["scale_match"], written[0]["reason"]) == (
        "1.0", "1.0", 1, "correct")
    assert written[1]["error"].startswith("line 2: not valid JSON") and written[1]["text"] == "not json"
    assert written[2]["error"] == "line 3: expected a JSON object, got list"
    # no answer_type at all: the official metric raises KeyError (an unknown or null one it scores)
    assert "line 4: \"gold\" has no \"answer_type\" (the official metric raises KeyError on it)" in written[3]["error"]
    assert "TypeError in sorted()" in written[4]["error"] and written[4]["pred"] == [["a", 1], ""]
    assert written[5] == {"line": 6, "error": "line 6: an empty line (no JSON value)", "text": ""}
    assert written[7]["file_totals"] == {"rows": 2, "em": "1.0", "f1": "1.0", "scale": "1.0"}


def test_decide_jsonl_exit_status(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(REPOSITORY / "python"))
    done = subprocess.run([sys.executable, "-m", "finscore", "tatqa", "decide-jsonl"], input="{]\n",
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 1
    assert json.loads(done.stdout)["line"] == 1
    assert "1 line(s) could not be decided" in done.stderr


@pytest.mark.parametrize("pred", ['[NaN, ""]', '[Infinity, ""]', '[["1", -Infinity], ""]', '["1", NaN]',
                                  '[1e999, ""]'])
def test_decide_jsonl_refuses_a_nan_or_infinite_prediction_as_finscore_tatqa_does(
        tmp_path: Path, gold: str, capsys: pytest.CaptureFixture[str], pred: str) -> None:
    # the oracle: what `finscore tatqa` says of the same entry in a prediction file (issue #30: one rule)
    status, _, err = _run(capsys, _write(tmp_path / "p.json", '{"q3": ' + pred + "}"), gold)
    assert status == 2
    refusal = err.split("entry 0 (uid 'q3'): ", 1)[1].splitlines()[0]
    nan_gold = _question("q3", float("nan"), "arithmetic", "", "table")
    line = '{"gold": ' + json.dumps(nan_gold) + ', "pred": ' + pred + "}"
    sink = io.StringIO()
    summary = stream_decisions(io.StringIO(line + "\n"), sink)
    written = json.loads(sink.getvalue())
    assert summary.exit_code == 1 and summary.decided == 0
    assert written["error"] == f'line 1: "pred": {refusal}'
    assert "em" not in written and written["pred"] == json.loads(pred)


def test_decide_jsonl_still_decides_finite_numbers_as_the_official_metric_does() -> None:
    # the recorded official vectors hold number and null answers: those are decided, as the official em says
    from support.shared import vector_rows

    rows = [row for row in itertools.islice(vector_rows("tatqa"), 3000)
            if isinstance(row.get("pred"), list) and not isinstance(row["pred"][0], (str, list))][:50]
    assert rows
    sink = io.StringIO()
    stdin = "".join(json.dumps({"gold": r["gold"], "pred": r["pred"]}) + "\n" for r in rows)
    assert stream_decisions(io.StringIO(stdin), sink).exit_code == 0
    written = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [(w["em"], w["f1"]) for w in written] == [(r["em"], r["f1"]) for r in rows]


def test_a_gold_file_with_a_key_given_twice_is_refused_naming_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """json.load keeps the last of two "answer" keys without a word (CPython's documented behaviour,
    checked here); finscore's reading layer refuses it, as for every FinQA and ConvFinQA file."""
    text = ('[{"table": {"uid": "t1"}, "questions": [{"uid": "q1", "answer": ["a"], "answer": ["b"], '
            '"answer_type": "span", "answer_from": "text", "scale": ""}]}]')
    assert json.loads(text)[0]["questions"][0]["answer"] == ["b"]
    gold = tmp_path / "g.json"
    gold.write_text(text, encoding="utf-8")
    status, _, err = _run(capsys, _write(tmp_path / "p.json", {"q1": [["a"], ""]}), str(gold))
    assert status == 2
    assert "cannot be read: duplicated key 'answer'" in err
