"""The file scorer takes FinQA, ConvFinQA and TAT-QA files, decides which from their shape, says
which protocol it used, and shows the figures the command line's `--json` report holds.

The expected figures come from the command itself (`finscore finqa|convfinqa|tatqa`, run in this
process on the shipped examples the README uses); the page scores the same files chosen through
its file inputs. Nothing expected is written here but the protocol each benchmark must name.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from support.cli import run_command

from .conftest import REPOSITORY
from .test_file_scoring import DROP

#: a claim rests on these tests: under CI a skip fails the run (tests/conftest.py)
pytestmark = pytest.mark.essential

EXAMPLES = REPOSITORY / "examples"
#: The official script each benchmark's protocol is named by, as the page must say it.
PROTOCOLS = {
    "finqa": "Scored under FinQA's official protocol (evaluate.py)",
    "convfinqa": "Scored under ConvFinQA's official protocol (the authors' evaluate_result)",
    "tatqa": "Scored under TAT-QA's official protocol (tatqa_eval.py)",
}


def _files(benchmark: str) -> tuple[Path, Path]:
    return EXAMPLES / benchmark / "predictions.json", EXAMPLES / benchmark / "gold.json"


def _cli(benchmark: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[dict[str, Any], str]:
    """(the --json report, the text report) of `finscore BENCHMARK PREDICTIONS GOLD`, run here."""
    predictions, gold = _files(benchmark)
    out = tmp_path / "report.json"
    status, _, err = run_command(benchmark, capsys, str(predictions), str(gold), "--json", str(out), "--quiet")
    assert status == 0, err
    status, text, err = run_command(benchmark, capsys, str(predictions), str(gold), "--quiet")
    assert status == 0, err
    return json.loads(out.read_text(encoding="utf-8")), text


def _score_in_page(page: Any, predictions: Path, gold: Path, benchmark: str = "auto") -> None:
    page.select_option("#score-benchmark", benchmark)
    page.set_input_files("#predictions-file", str(predictions))
    page.set_input_files("#gold-file", str(gold))
    page.wait_for_selector("#score:not([disabled])")
    page.click("#score")
    page.wait_for_selector("body:not([data-busy])")


def _card(value: float, fraction: str) -> list[str]:
    """As the page shows a figure: rounded half-even to 4 places (CPython's round) as a
    percentage, the exact repr under it, and its fraction."""
    percent = format((Decimal(repr(round(value, 4))) * 100).normalize(), "f")
    return [f"{percent} %", f"exact: {value!r}", fraction]


def _expected_cards(benchmark: str, report: dict[str, Any]) -> list[list[str]]:
    """The cards the page must show, each figure read from the command line's JSON report."""
    if benchmark == "tatqa":
        return [_card(report[group][metric], f"over {report[group]['denominator']} {unit}")
                for group, unit in (("official", "gold questions"), ("per_prediction", "scored predictions"))
                for metric in ("em", "f1", "scale")]
    own = report["figures"][report["profile"]]
    unit = {"per_prediction": "predictions", "per_gold_example": "gold turns" if benchmark == "convfinqa"
            else "gold examples"}
    cards = [_card(figure["value"], f"{figure['correct']} / {figure['total']} {unit[denominator]}")
             for denominator in ("per_prediction", "per_gold_example")
             for figure in (own[denominator]["execution_accuracy"], own[denominator]["program_accuracy"])]
    if benchmark == "convfinqa":
        every = report["conversations"][0]
        cards += [_card(every[key]["value"], f"{every[key]['correct']} / {every[key]['total']} conversations")
                  for key in ("every_turn_execution_correct", "every_turn_program_correct")]
    return cards


@pytest.mark.parametrize("benchmark", ["convfinqa", "tatqa", "finqa"])
def test_a_shipped_example_is_scored_under_its_own_protocol(page: Any, benchmark: str,
                                                           capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    expected, text = _cli(benchmark, capsys, tmp_path)
    _score_in_page(page, *_files(benchmark))
    assert page.is_hidden("#score-error"), page.text_content("#score-error")
    assert page.get_attribute("#report", "data-benchmark") == benchmark
    assert page.text_content("#score-protocol").startswith(PROTOCOLS[benchmark])
    assert page.text_content("#score-decided").startswith("Decided from the files' shape")

    cards = page.eval_on_selector_all(
        "#report-figures .figure", "cards => cards.map(c => [c.querySelector('.big').textContent, "
                                   "c.querySelector('.exact').textContent, c.querySelector('.fraction').textContent])")
    assert cards == _expected_cards(benchmark, expected)
    assert page.text_content("#text-report") + "\n" == text

    with page.expect_download() as download_info:
        page.click("#save-report")
    saved = tmp_path / "saved.json"
    download_info.value.save_as(str(saved))
    in_page = json.loads(saved.read_text(encoding="utf-8"))
    assert download_info.value.suggested_filename == f"finscore-{benchmark}-report.json"
    # only the interpreter that ran the scorer may differ (Pyodide's against this one)
    assert {k: v for k, v in in_page.items() if k != "host_python"} == \
           {k: v for k, v in expected.items() if k != "host_python"}

    counted = expected["reasons"] if benchmark == "tatqa" else expected["categories"]
    bars = page.eval_on_selector_all(
        "#category-chart g[data-category]", "bars => bars.map(b => [b.dataset.category, b.querySelector('.count').textContent])")
    assert bars == [[name, str(count)] for name, count in counted.items()]


def test_a_lone_surrogate_in_a_prediction_is_scored_as_the_command_line_scores_it(
        page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON carries a lone surrogate into an answer ("\\ud800"); the page scores the file, and the
    report it saves is the command line's, the answer's text included (JSON escapes it both ways)."""
    predictions_path, gold = _files("tatqa")
    predictions = json.loads(predictions_path.read_text(encoding="utf-8"))
    uid = next(iter(predictions))
    predictions[uid] = ["\ud800 " + str(predictions[uid][0]), predictions[uid][1]]
    odd = tmp_path / "lone_surrogate.json"
    odd.write_text(json.dumps(predictions), encoding="ascii")  # the file holds JSON's escape, as a model's would
    out = tmp_path / "report.json"
    status, _, err = run_command("tatqa", capsys, str(odd), str(gold), "--json", str(out), "--quiet")
    assert status == 0, err
    expected = json.loads(out.read_text(encoding="utf-8"))
    _score_in_page(page, odd, gold)
    assert page.is_hidden("#score-error"), page.text_content("#score-error")
    with page.expect_download() as download_info:
        page.click("#save-report")
    saved = tmp_path / "saved.json"
    download_info.value.save_as(str(saved))
    in_page = json.loads(saved.read_text(encoding="utf-8"))
    assert {k: v for k, v in in_page.items() if k != "host_python"} == \
           {k: v for k, v in expected.items() if k != "host_python"}
    assert any(row["uid"] == uid and row["predicted_answer"].startswith("\ud800 ") for row in expected["questions"])
    _, text, _ = run_command("tatqa", capsys, str(odd), str(gold), "--quiet")
    assert page.text_content("#text-report") + "\n" == text  # the escape printed as the command prints it


def test_turn_file_ids_are_convfinqa_too(page: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The authors' turn files' form `<conversation id>_<turn>` is recognised as ConvFinQA."""
    predictions_path, gold = _files("convfinqa")
    predictions = json.loads(predictions_path.read_text(encoding="utf-8"))
    for entry in predictions:
        if "#t" in entry["id"]:  # the shipped file has some turn-file ids already
            conversation, _, turn = entry["id"].rpartition("#t")
            entry["id"] = f"{conversation}_{turn}"
    assert not any("#t" in entry["id"] for entry in predictions)
    renamed = tmp_path / "turn_file_ids.json"
    renamed.write_text(json.dumps(predictions), encoding="utf-8")
    out = tmp_path / "report.json"
    status, _, err = run_command("convfinqa", capsys, str(renamed), str(gold), "--json", str(out), "--quiet")
    assert status == 0, err
    _score_in_page(page, renamed, gold)
    assert page.get_attribute("#report", "data-benchmark") == "convfinqa"
    expected = json.loads(out.read_text(encoding="utf-8"))
    assert page.eval_on_selector_all("#report-figures .figure .exact", "nodes => nodes.map(n => n.textContent)") == \
           [card[1] for card in _expected_cards("convfinqa", expected)]


def _error_for(page: Any, predictions: tuple[str, str], gold: tuple[str, str], benchmark: str = "auto") -> str:
    page.select_option("#score-benchmark", benchmark)
    page.evaluate(DROP, ["predictions", *predictions])
    page.evaluate(DROP, ["gold", *gold])
    page.click("#score")
    page.wait_for_selector("body:not([data-busy])")
    assert page.is_hidden("#report")
    return str(page.text_content("#score-error"))


def test_files_of_two_benchmarks_are_refused_naming_both(page: Any) -> None:
    tatqa_predictions = (EXAMPLES / "tatqa" / "predictions.json").read_text(encoding="utf-8")
    finqa_gold = (EXAMPLES / "finqa" / "gold.json").read_text(encoding="utf-8")
    message = _error_for(page, ("predictions.json", tatqa_predictions), ("gold.json", finqa_gold))
    assert message.startswith("The two files are of different benchmarks")
    assert "TAT-QA prediction file" in message and "FinQA gold file" in message


def test_an_ambiguous_or_unknown_shape_says_what_was_expected(page: Any, capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    message = _error_for(page, ("empty.json", "[]"), ("empty_gold.json", "[]"))
    assert message.startswith("Cannot tell from these files whether they are ConvFinQA or FinQA files")
    assert "choose the benchmark under Protocol" in message
    message = _error_for(page, ("numbers.json", "[1, 2]"), ("gold.json", "[]"))
    assert message.startswith("The prediction file is a JSON list, not a shape the page scores. Expected")
    for shape in ("FinQA prediction file", "ConvFinQA prediction file", "TAT-QA prediction file"):
        assert shape in message
    message = _error_for(page, ("predictions.json", "{}"), ("gold.json", '{"data": []}'))
    assert message.startswith("The gold file is a JSON object of no shape the page knows. Expected")
    # a chosen protocol is used as chosen: the command's own reader then speaks, in its own words
    (tmp_path / "p.json").write_text("[]", encoding="utf-8")
    (tmp_path / "g.json").write_text("[]", encoding="utf-8")
    status, _, err = run_command("tatqa", capsys, str(tmp_path / "p.json"), str(tmp_path / "g.json"), "--quiet")
    assert status == 2
    message = _error_for(page, ("p.json", "[]"), ("g.json", "[]"), benchmark="tatqa")
    assert err.strip() == f"finscore tatqa: {message}".replace(str(tmp_path) + "/", "")
    page.select_option("#score-benchmark", "auto")
