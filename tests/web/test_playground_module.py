"""The playground's Python side under CPython: how pasted text is read, and its error messages.

These need no browser; the same module runs in the page under Pyodide, where
tests/web/test_playground_page.py checks that it answers exactly as here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finscore import execute, execute_many
from support.cli import run_command

from .conftest import REPOSITORY, load_playground_module


playground = load_playground_module()
ROWS = [["", "2008", "2007"], ["revenue", "$ 12", "$ -3 ( 3 )"]]


def test_program_text_is_a_string_or_a_token_list() -> None:
    assert playground.read_program_text("  add(1, 2) \n") == "add(1, 2)"
    assert playground.read_program_text('["add(", "1", "2", ")", "EOF"]') == ["add(", "1", "2", ")", "EOF"]


def test_an_empty_program_is_read_as_the_empty_program() -> None:
    assert playground.read_program_text("  \n") == ""


@pytest.mark.parametrize("text, words", [
    ('["add(", "1"', "not valid JSON"),
    ('["add(", 1, 2, ")"]', "list of strings"),
])
def test_unusable_program_text_says_why(text: str, words: str) -> None:
    with pytest.raises(playground.PlaygroundInputError, match=words):
        playground.read_program_text(text)


def test_tab_separated_rows() -> None:
    pasted = "\t2008\t2007\nrevenue\t $ 12 \t$ -3 ( 3 )\n\n"
    assert playground.read_table_text(pasted) == (ROWS, "tab")
    assert playground.read_table_text(pasted, "tab") == (ROWS, "tab")


def test_pipe_separated_rows_plain_and_markdown() -> None:
    plain = " | 2008 | 2007\nrevenue | $ 12 | $ -3 ( 3 )"
    markdown = "|  | 2008 | 2007 |\n|---|:---:|---|\n| revenue | $ 12 | $ -3 ( 3 ) |"
    assert playground.read_table_text(plain) == (ROWS, "pipe")
    assert playground.read_table_text(markdown, "pipe") == (ROWS, "pipe")


def test_json_rows_pass_through_as_written() -> None:
    assert playground.read_table_text(json.dumps(ROWS)) == (ROWS, "json")
    assert playground.read_table_text(json.dumps({"id": "x", "table": ROWS})) == (ROWS, "json")
    odd = [["revenue", 12]]  # not FinQA's text cells: the reader, not the page, decides what that means
    assert playground.read_table_text(json.dumps(odd), "json") == (odd, "json")
    assert playground.read_table_text("   \n") == (None, "none")


@pytest.mark.parametrize("text, table_format, words", [
    ("just words", "auto", "cannot tell how the table is written"),
    ("[1, 2", "auto", "not valid JSON"),
    ('{"rows": []}', "json", "list of rows"),
    ("a\tb", "csv", "table format must be one of"),
])
def test_unusable_table_text_says_why(text: str, table_format: str, words: str) -> None:
    with pytest.raises(playground.PlaygroundInputError, match=words):
        playground.read_table_text(text, table_format)


def test_run_program_answers_like_execute() -> None:
    request = {"program": "table_sum(revenue, none), divide(#0, 3)", "table": "\t2008\t2007\nrevenue\t$ 12\t$ -3 ( 3 )",
               "profile": "official", "python": "3.11"}
    answer = json.loads(playground.run_program(json.dumps(request)))
    expected = execute(request["program"], ROWS)
    assert answer["ok"] is True
    assert answer["execution"]["result"] == expected.vector_result()
    assert answer["execution"]["result_text"] == repr((12.0 + -3.0) / 3.0) == "3.0"
    assert [step["value_text"] for step in answer["execution"]["steps"]] == ["9.0", "3.0"]
    assert (answer["table_format"], answer["table_rows"], answer["program_kind"]) == ("tab", 2, "string")


def test_negative_zero_is_spelled_by_python() -> None:
    answer = json.loads(playground.run_program(json.dumps({"program": "multiply(-1, 0)"})))
    execution = answer["execution"]
    assert execution["result_text"] == "-0.0" and execution["result_hex"] == "-0x0.0p+0"
    assert execution["steps"][0]["value_text"] == "-0.0"


@pytest.mark.parametrize("request_fields, words", [
    ({"program": "add(1, 2)", "profile": "lenient"}, "profile must be one of"),
    ({"program": "add(1, 2)", "python": "three"}, "python version must be one of 3.11, 3.12, 3.13"),
    ({"program": "add(1, 2)", "table": "x" * 20_000_001}, "longer than the 20,000,000 characters allowed"),
])
def test_run_program_refuses_bad_requests_readably(request_fields: dict[str, str], words: str) -> None:
    answer = json.loads(playground.run_program(json.dumps(request_fields)))
    assert answer["ok"] is False and words in answer["error"]


def test_an_empty_program_runs_as_officially_and_is_said_to_be_empty() -> None:
    answer = json.loads(playground.run_program(json.dumps({"program": ""})))
    expected = execute("")
    assert answer["ok"] is True
    assert answer["execution"]["invalid"] == expected.invalid == 0
    assert answer["execution"]["notes"] == ["the program is empty: the official evaluator finds it valid, "
                                            "with the answer n/a"]


def test_execute_rows_keeps_order_across_summation_rules() -> None:
    rows = [
        {"program": ["table_sum(", "r", "none", ")", "EOF"], "table": [["r", "1e16", "1", "1"]], "python": "3.11"},
        {"program": ["table_sum(", "r", "none", ")", "EOF"], "table": [["r", "1e16", "1", "1"]], "python": "3.12"},
        {"program": ["divide(", "1", "0", ")", "EOF"], "table": None},
    ]
    answer = json.loads(playground.execute_rows(json.dumps(rows)))
    left_to_right = (0 + 1e16 + 1.0) + 1.0  # CPython 3.11's sum(): each addition rounded
    assert left_to_right == 1e16
    assert answer["answers"][0] == {"invalid": 0, "result": {"float": left_to_right.hex()}}
    assert answer["answers"][1] == {"invalid": 0, "result": {"float": (1e16 + 2.0).hex()}}  # compensated: exact
    assert answer["answers"][2] == {"invalid": 1, "result": {"str": "n/a"}}
    expected = execute_many([(rows[1]["program"], rows[1]["table"])], python="3.12")[0]
    assert answer["answers"][1]["result"] == expected.vector_result()


# -- the file scorer's shapes, and what it shows when the official TAT-QA script would stop --------

EXAMPLES = REPOSITORY / "examples"


@pytest.mark.parametrize("benchmark", ["finqa", "convfinqa", "tatqa"])
def test_each_shipped_example_is_recognised_by_its_shape(benchmark: str) -> None:
    predictions = json.loads((EXAMPLES / benchmark / "predictions.json").read_text(encoding="utf-8"))
    gold = json.loads((EXAMPLES / benchmark / "gold.json").read_text(encoding="utf-8"))
    assert playground.decide_benchmark(predictions, gold)[0] == benchmark


@pytest.mark.parametrize("predictions, gold, words", [
    ({}, [{"id": "a", "qa": {}}], "The two files are of different benchmarks"),
    ([{"id": "x#t0", "predicted": []}], [{"id": "a", "qa": {}}], "ConvFinQA prediction file"),
    ([], [{"id": "a", "qa": {}}, {"table": {}, "questions": []}], "The gold file mixes entries of FinQA and TAT-QA"),
    ([], [], "Cannot tell from these files whether they are ConvFinQA or FinQA"),
    (None, [], "The prediction file is a JSON number or null, not a shape the page scores"),
    ([], {"x": 1}, "The gold file is a JSON object of no shape the page knows"),
])
def test_a_shape_that_decides_nothing_says_what_was_expected(predictions: Any, gold: Any, words: str) -> None:
    with pytest.raises(playground.PlaygroundInputError, match=words):
        playground.decide_benchmark(predictions, gold)


def test_when_tatqa_eval_would_stop_the_page_shows_the_honest_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 3-item prediction stops tatqa_eval.py (it unpacks two); excluded, the rest is scored, and the
    page's cards are the command's honest figures, not official ones it does not have."""
    predictions = json.loads((EXAMPLES / "tatqa" / "predictions.json").read_text(encoding="utf-8"))
    predictions[next(iter(predictions))] = ["a", "b", "c"]
    path = tmp_path / "predictions.json"
    path.write_text(json.dumps(predictions), encoding="utf-8")
    gold = EXAMPLES / "tatqa" / "gold.json"
    out = tmp_path / "report.json"
    status, _, err = run_command("tatqa", capsys, str(path), str(gold), "--exclude-bad-ids", "--json", str(out),
                                 "--quiet")
    assert status == 0, err
    expected = json.loads(out.read_text(encoding="utf-8"))
    assert expected["official"] is None and expected["official_stop"] is not None
    answer = json.loads(playground.score_files(path.read_bytes(), "predictions.json", gold.read_bytes(), "gold.json",
                                               json.dumps({"exclude_bad_ids": True})))
    assert answer["ok"] and answer["report"] == expected
    assert [card["value"] for card in answer["cards"]] == [
        expected[group][metric] for group in ("honest", "per_prediction") for metric in ("em", "f1", "scale")]


def test_with_exclusions_the_page_shows_the_official_scorers_figures_on_the_file_as_given() -> None:
    """A repeated id, excluded: the official card is evaluate.py's own outcome on the whole file (recorded by
    tools/official_figures/record.py: All 4, 0.75), the kept-prediction card finscore's, labelled as such."""
    from support.official_figures import official_lines, recorded

    data = recorded("finqa")
    case = data["cases"]["repeated"]
    total, execution, program = official_lines(case["stdout"])
    answer = json.loads(playground.score_files(json.dumps(case["predictions"]).encode(), "predictions.json",
                                               json.dumps(data["gold"]).encode(), "gold.json",
                                               json.dumps({"exclude_bad_ids": True})))
    assert answer["ok"], answer
    official = [card for card in answer["cards"] if "the official scorer on the file as given" in card["label"]]
    assert [(repr(card["value"]), card["fraction"]) for card in official] == [
        (execution, f"{round(float(execution) * total)} / {total} entries"),
        (program, f"{round(float(program) * total)} / {total} entries")]
    kept = [card for card in answer["cards"] if "per kept prediction" in card["label"]]
    assert len(kept) == 2 and not any("official denominator" in card["label"] for card in answer["cards"])
