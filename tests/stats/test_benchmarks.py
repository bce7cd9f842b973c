"""The benchmark commands' headline intervals: the right rows, the right units, scipy's Wilson,
the documented defaults, and the same interval in another process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.cli import main

scipy_stats = pytest.importorskip("scipy.stats")

ROOT = Path(__file__).resolve().parents[2]


def _json_report(capsys: pytest.CaptureFixture[str], benchmark: str, *extra: str) -> dict[str, object]:
    status = main([benchmark, f"examples/{benchmark}/predictions.json", f"examples/{benchmark}/gold.json",
                   "--quiet", "--json", "-", *extra])
    assert status == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_finqa_interval_over_filings(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report = _json_report(capsys, "finqa", "--resamples", "300")
    (interval,) = report["uncertainty"]  # type: ignore[misc]
    honest = report["figures"]["official"]["per_gold_example"]["execution_accuracy"]  # type: ignore[index]
    expected = scipy_stats.binomtest(honest["correct"], honest["total"]).proportion_ci(0.95, method="wilson")
    assert interval["row_level"]["interval"] == pytest.approx([expected.low, expected.high], abs=1e-12)
    gold = json.loads((ROOT / "examples/finqa/gold.json").read_text())
    filings = {"/".join(example["id"].split("/")[:2]) for example in gold}
    assert interval["cluster_bootstrap"]["clusters"] == len(filings)
    assert interval["cluster_bootstrap"]["resamples"] == 300 and interval["rows"] == len(gold)
    low, high = interval["cluster_bootstrap"]["interval"]
    assert low <= honest["value"] <= high


def test_tatqa_has_exact_match_and_f1_intervals_over_tables(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report = _json_report(capsys, "tatqa", "--resamples", "200")
    em, f1 = report["uncertainty"]  # type: ignore[misc]
    gold = json.loads((ROOT / "examples/tatqa/gold.json").read_text())
    assert em["cluster_bootstrap"]["clusters"] == len({d["table"]["uid"] for d in gold})
    assert f1["row_level"] is None and f1["figure"] == "F1"
    assert em["estimate"] == pytest.approx(report["honest"]["em"])  # type: ignore[index]


def test_the_text_report_prints_the_interval_seed_and_design_effect(capsys: pytest.CaptureFixture[str],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["convfinqa", "examples/convfinqa/predictions.json", "examples/convfinqa/gold.json", "--quiet",
                 "--seed", "7", "--resamples", "100"]) == 0
    out = capsys.readouterr().out
    assert "rows as independent (Wilson)" in out and "filing clusters (percentile, seed 7, 100 resamples)" in out
    assert "design effect" in out and "effective sample size" in out


def test_bad_resamples_is_a_usage_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["finqa", "examples/finqa/predictions.json", "examples/finqa/gold.json", "--quiet",
                 "--resamples", "0"]) == 2
    assert "--resamples must be 1 to 100000" in capsys.readouterr().err


def test_same_seed_same_interval_in_another_process(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    here = _json_report(capsys, "finqa", "--resamples", "200")["uncertainty"]
    env = dict(os.environ, PYTHONHASHSEED="123", PYTHONPATH=str(ROOT / "python"))
    there = subprocess.run([sys.executable, "-m", "finscore", "finqa", "examples/finqa/predictions.json",
                            "examples/finqa/gold.json", "--quiet", "--json", "-", "--resamples", "200"],
                           cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    assert json.loads(there)["uncertainty"] == here


def test_answers_report_gets_its_interval_over_the_gold_files_unit(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    page = tmp_path / "answers.html"
    assert main(["answers", "--protocol", "finqa-answer/1", "--format", "answer-line",
                 "examples/answers/finqa_completions.jsonl", "examples/answers/finqa_gold.json", "--quiet",
                 "--json", "-", "--html", str(page), "--resamples", "200"]) == 0
    report = json.loads(capsys.readouterr().out)
    (interval,) = report["uncertainty"]
    counts = report["counts"]
    expected = scipy_stats.binomtest(counts["passed"], counts["golds"]).proportion_ci(0.95, method="wilson")
    assert interval["row_level"]["interval"] == pytest.approx([expected.low, expected.high], abs=1e-12)
    gold = json.loads((ROOT / "examples/answers/finqa_gold.json").read_text())
    assert interval["cluster_bootstrap"]["clusters"] == len({"/".join(e["id"].split("/")[:2]) for e in gold})
    assert '<section id="uncertainty">' in page.read_text()


def test_a_gold_row_without_a_unit_is_a_readable_input_error(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import finscore.finqa.benchmark as finqa_benchmark

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(finqa_benchmark, "units", lambda gold: {})
    assert main(["finqa", "examples/finqa/predictions.json", "examples/finqa/gold.json", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "the finqa unit (filing) names no unit for 60 row(s): 'ETR/2016/page_23.pdf-2'" in err
