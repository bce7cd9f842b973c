"""Provenance that survives (issue #12, observation 3).

The instrument's records and a scripted agent's run must never read as a model
result: not when scored by hand later, not in a comparison, and the self-check
page leads with its verdict instead of pass rates.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.contracts import ComparisonError, compare_reports, evaluate, load_kit_cases, read_predictions
from finscore.contracts.formats.provenance import model, read_producer
from finscore.contracts.kit import KIT_DIRECTORY
from finscore.contracts.reports.html import render_report_html
from finscore.contracts.reports.contracts_report import build_report

ORACLE = KIT_DIRECTORY / "oracle.jsonl"
EVALUATION_WORDS = "Evaluation of recorded predictions"


def _contracts(tmp_path: Path, predictions: Path, name: str, *extra: str) -> dict:
    out = tmp_path / f"{name}.json"
    code = main(["contracts", "@kit", str(predictions), "--bootstrap", "20", "--output", str(out), *extra])
    assert code == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_shipped_oracle_records_say_they_are_the_instrument(tmp_path, capsys):
    assert all(line["producer"]["kind"] == "instrument" for line in _lines(ORACLE))
    report = _contracts(tmp_path, ORACLE, "oracle", "--accept-unsealed")
    assert report["kind"] == "instrument_self_check"
    assert EVALUATION_WORDS not in report["statement"] and "not a model accuracy" in report["statement"]
    assert report["producers"] == [_lines(ORACLE)[0]["producer"]]
    out = capsys.readouterr().out
    # unsealed records: that the traces were not verified comes first, the verdict right after it
    first, second = out.splitlines()[:2]
    assert first.startswith("TRACES WERE NOT VERIFIED")
    assert second.startswith("verdict: oracle records 24/24") and "failure rate" not in out


def test_an_oracle_agent_run_rescored_by_hand_stays_a_scripted_run(tmp_path, capsys):
    run_dir = tmp_path / "run"
    assert main(["run", "--agent", "oracle", "--out", str(run_dir), "--quiet", "--bootstrap", "20"]) == 0
    predictions = run_dir / "predictions.jsonl"
    assert {json.dumps(line["producer"]) for line in _lines(predictions) if "case_id" in line} == {
        json.dumps({"kind": "scripted_agent", "name": "oracle"})
    }
    rescored = _contracts(tmp_path, predictions, "rescored")
    assert rescored["kind"] == "scripted_run"
    assert "scripted agent oracle" in rescored["statement"] and EVALUATION_WORDS not in rescored["statement"]
    written = json.loads((run_dir / "report.json").read_text(encoding="utf-8"))
    assert (written["kind"], written["producers"]) == (rescored["kind"], rescored["producers"])


def test_a_model_producer_keeps_endpoint_and_model_but_never_credentials():
    producer = model("https://user:secret@example.test:8443/v1?key=abc#x", "m-7b")
    assert producer.as_json() == {"kind": "model", "endpoint": "https://example.test:8443/v1", "model": "m-7b"}
    assert read_producer(producer.as_json()) == producer
    assert isinstance(read_producer({"kind": "model", "model": "m"}), str)


def test_a_model_run_is_an_evaluation_of_that_model(tmp_path):
    lines = _lines(ORACLE)
    for line in lines:
        line["producer"] = {"kind": "model", "endpoint": "http://127.0.0.1:9/v1", "model": "tiny"}
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    report = _contracts(tmp_path, path, "model", "--accept-unsealed")
    assert report["kind"] == "model_evaluation"
    assert report["statement"].startswith("Evaluation of model tiny at http://127.0.0.1:9/v1")


def test_a_malformed_producer_fails_its_line_as_a_parser_failure(tmp_path):
    lines = _lines(ORACLE)
    lines[0]["producer"] = {"kind": "model", "model": "x"}
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    evaluation = evaluate(load_kit_cases(), read_predictions(path), 1)
    result = next(r for r in evaluation.results if r.case_id == lines[0]["case_id"])
    assert result.attempted and {f.code.value for f in result.failures} == {"record_malformed"}


def test_compare_refuses_a_self_check_or_scripted_report_unless_asked(tmp_path, capsys):
    self_check = tmp_path / "self.json"
    assert main(["contracts", "--oracle", "--bootstrap", "20", "--output", str(self_check)]) == 0
    lines = _lines(ORACLE)
    for line in lines:
        line["producer"] = {"kind": "model", "endpoint": "http://127.0.0.1:9/v1", "model": "tiny"}
    path = tmp_path / "m.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    _contracts(tmp_path, path, "model", "--accept-unsealed")
    other = tmp_path / "model.json"
    capsys.readouterr()
    assert main(["compare", str(self_check), str(other), "--bootstrap", "20"]) == 2
    err = capsys.readouterr().err
    assert "A is an instrument self-check" in err and "--allow-non-model" in err
    out = tmp_path / "c.json"
    html = tmp_path / "c.html"
    code = main(
        ["compare", str(self_check), str(other), "--allow-non-model", "--bootstrap", "20", "--output", str(out),
         "--html", str(html)]
    )
    assert code == 0
    comparison = json.loads(out.read_text(encoding="utf-8"))
    assert comparison["banner"].startswith("Not a model comparison: A is an instrument self-check")
    assert capsys.readouterr().out.startswith("Not a model comparison")
    assert "Not a model comparison" in html.read_text(encoding="utf-8")
    with pytest.raises(ComparisonError):
        compare_reports(comparison_input(other), comparison_input(self_check), replicates=20)


def comparison_input(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_the_self_check_page_leads_with_its_verdict_and_shows_no_pass_rate(tmp_path, capsys):
    report_path, html_path = tmp_path / "s.json", tmp_path / "s.html"
    assert main(["contracts", "--oracle", "--bootstrap", "20", "--output", str(report_path), "--html",
                 str(html_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verdict: oracle 24/24, mutations ") and "failure rate" not in out
    page = html_path.read_text(encoding="utf-8")
    verdict = page.index("Verdict:")
    assert verdict < page.index("<h2>Failures</h2>")
    for apparatus in ("failure rate", "Pass rate by", "Family bootstrap", "pass^k", "Clopper-Pearson"):
        assert apparatus not in page, apparatus


def test_the_family_language_table_keeps_each_cell_under_its_language():
    cases = load_kit_cases()
    records = read_predictions(ORACLE)
    kept = [replace(r, producer=None) for r in records.records if r.case_id in {"fv-ta", "sip-en", "sip-hi", "sip-ta"}]
    evaluation = evaluate([c for c in cases if c.case_id in {"fv-ta", "sip-en", "sip-hi", "sip-ta"}],
                          type(records)(records.source, tuple(kept), ()), 1)
    page = render_report_html(build_report(evaluation, replicates=20))
    table_start = page.index("<th>family</th>")
    section = page[table_start: page.index("</table>", table_start)]
    assert "<th>en</th><th>hi</th><th>ta</th>" in section
    assert "<td>future_value</td><td></td><td></td><td>1/1</td>" in section
