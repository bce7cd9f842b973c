"""The file scorer's compare view in Chromium gives what `finscore protocols compare` gives.

A completions file (JSON lines of {"id", "completion"}: the 1,050 HELM vector predictions as program
text) and FinQA's test file are chosen in the page; the command line runs the same files here under
CPython. Both run the same Python under two hosts (Pyodide and CPython), so a difference is a host
difference; the external check is HELM's recorded figure, 0.7 over the 1,050 completions given
(tests/data/vectors/README.md), which the "as published" column shows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.peer_vectors import vector_lines

from .conftest import FINQA, require


@pytest.fixture(scope="module")
def completions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows = [line for line in vector_lines("helm") if line["label"] == "example_prediction"]
    path = tmp_path_factory.mktemp("compare") / "completions.jsonl"
    path.write_text("".join(json.dumps({"id": r["id"], "completion": r["generated"]}) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def cli_report(completions: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("cli") / "compare.json"
    subprocess.run([sys.executable, "-m", "finscore", "protocols", "compare", str(completions), "--benchmark", "finqa",
                    str(require(FINQA / "finqa_test.json")), "--json", str(out)], capture_output=True, text=True,
                   check=True)
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


@pytest.fixture(scope="module")
def compared(playground: Any, completions: Path) -> Any:
    page = playground.page
    page.set_input_files("#predictions-file", str(completions))
    page.set_input_files("#gold-file", str(require(FINQA / "finqa_test.json")))
    page.wait_for_selector("#compare-protocols:not([disabled])")
    page.click("#compare-protocols")
    page.wait_for_selector("body:not([data-busy])")
    page.wait_for_selector("#protocols-view:not([hidden])")
    return page


def test_the_table_is_the_commands(page: Any, compared: Any, cli_report: dict[str, Any]) -> None:
    cells = page.eval_on_selector_all("#protocols-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    expected = [[row["protocol"], f"{100 * row['score']:.2f}%", str(row["accepted"]), str(row["denominator"]),
                 f"{100 * row['published_score']:.2f}% of {row['published_denominator']}", str(row["raises"]),
                 str(row["not_decided"]), str(row["peer_executes_code"]), str(row["missing"])]
                for row in cli_report["protocols"]]
    assert cells == expected
    helm = cli_report["protocols"][0]
    assert (helm["protocol"], helm["published_score"]) == ("helm-finqa", 0.7)  # HELM's recorded figure
    bars = page.eval_on_selector_all("#protocols-view g[data-protocol]", "bars => bars.map(b => b.dataset.protocol)")
    assert bars == [row["protocol"] for row in cli_report["protocols"]]


def test_the_disagreements_and_their_reasons_are_the_commands(page: Any, compared: Any,
                                                              cli_report: dict[str, Any]) -> None:
    listed = page.eval_on_selector_all("#protocols-disagreements tbody tr", "rows => rows.map(r => r.cells[0].textContent)")
    assert listed == [item["id"] for item in cli_report["disagreements"][:50]]
    counted = ", ".join(f"{r} {n}" for r, n in cli_report["disagreement_reasons"].items() if n)
    assert page.text_content("#protocols-reasons") == counted
    heading = page.text_content("#protocols-view h4")
    assert heading == f"{len(cli_report['disagreements'])} example(s) where the protocols disagree"


def test_the_saved_json_is_the_commands_and_the_page_is_offline(page: Any, compared: Any, cli_report: dict[str, Any],
                                                                tmp_path: Path) -> None:
    with page.expect_download() as download_info:
        page.click("#protocols-save-json")
    saved = tmp_path / "compare.json"
    download_info.value.save_as(str(saved))
    assert json.loads(saved.read_text(encoding="utf-8")) == cli_report
    with page.expect_download() as download_info:
        page.click("#protocols-save-html")
    html = tmp_path / "compare.html"
    download_info.value.save_as(str(html))
    text = html.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "http://" not in text.split("</style>", 1)[1].replace(
        'xmlns="http://www.w3.org/2000/svg"', "") and "<script" not in text


def test_a_bad_gold_file_is_named(page: Any, compared: Any, completions: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad_gold.json"
    bad.write_text('{"not": "a list"}')
    page.set_input_files("#gold-file", str(bad))
    page.click("#compare-protocols")
    page.wait_for_selector("body:not([data-busy])")
    page.wait_for_selector("#protocols-error:not([hidden])")
    assert "not one the compare view reads" in page.text_content("#protocols-error")
    page.set_input_files("#gold-file", str(require(FINQA / "finqa_test.json")))
