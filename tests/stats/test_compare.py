"""`finscore compare <benchmark>`: the paired table by hand from both reports, McNemar against scipy,
refusals, three systems, and the shipped second prediction file is fresh."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.cli import main

scipy_stats = pytest.importorskip("scipy.stats")

ROOT = Path(__file__).resolve().parents[2]
A, B, GOLD = "examples/finqa/predictions.json", "examples/finqa/predictions_b.json", "examples/finqa/gold.json"


def _report(capsys: pytest.CaptureFixture[str], predictions: str) -> dict[str, object]:
    assert main(["finqa", predictions, GOLD, "--quiet", "--json", "-", "--resamples", "10"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_paired_table_and_mcnemar(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    rows_a = {r["id"]: r for r in _report(capsys, A)["examples"]}  # type: ignore[attr-defined]
    rows_b = {r["id"]: r for r in _report(capsys, B)["examples"]}  # type: ignore[attr-defined]
    only_a = sorted(i for i in rows_a if rows_a[i]["execution_correct"] and not rows_b[i]["execution_correct"])
    only_b = sorted(i for i in rows_a if rows_b[i]["execution_correct"] and not rows_a[i]["execution_correct"])
    both = sum(1 for i in rows_a if rows_a[i]["execution_correct"] and rows_b[i]["execution_correct"])
    out = tmp_path / "c.json"
    assert main(["compare", "finqa", A, B, GOLD, "--json", str(out), "--html", str(tmp_path / "c.html"),
                 "--resamples", "300"]) == 0
    text = capsys.readouterr().out
    (pair,) = json.loads(out.read_text())["pairs"]
    table = pair["overall"]["table"]
    assert (table["a_only"], table["b_only"], table["both_right"]) == (len(only_a), len(only_b), both)
    assert table["both_wrong"] == len(rows_a) - both - len(only_a) - len(only_b)
    expected = scipy_stats.binomtest(len(only_a), len(only_a) + len(only_b), 0.5).pvalue
    assert pair["overall"]["mcnemar_exact_p"] == pytest.approx(expected, rel=1e-12)
    assert sorted(i for ids in pair["transitions"]["fixed_by_b"].values() for i in ids) == only_b
    assert sorted(i for ids in pair["transitions"]["introduced_by_b"].values() for i in ids) == only_a
    low, high = pair["overall"]["difference_interval"]
    assert low <= pair["overall"]["difference"] <= high
    assert "exact McNemar p" in text and "<svg" in (tmp_path / "c.html").read_text()


def test_three_systems_give_every_pair_and_a_ranking_sentence(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["compare", "finqa", A, B, A, GOLD, "--labels", "x", "y", "z", "--json", "-",
                 "--resamples", "100"]) == 0
    comparison = json.loads(capsys.readouterr().out)
    assert [(p["a"], p["b"]) for p in comparison["pairs"]] == [("x", "y"), ("x", "z"), ("y", "z")]
    assert "is not supported by the data" in comparison["ranking_statement"]


def test_files_of_another_gold_are_refused_by_name(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"id": "NOPE/2000/page_1.pdf-1", "predicted": ["EOF"]}]))
    assert main(["compare", "finqa", A, str(other), GOLD]) == 2
    err = capsys.readouterr().err
    assert "B (" in err and "NOPE/2000/page_1.pdf-1" in err


def test_the_contracts_form_is_still_the_contracts_form(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    assert "A.json" in capsys.readouterr().out


def test_the_second_prediction_file_is_fresh() -> None:
    status = subprocess.run([sys.executable, str(ROOT / "tools/compare/make_perturbed_finqa.py"), "--check"])
    assert status.returncode == 0


def test_the_python_api_gives_what_the_commands_print(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import finscore
    from finscore.finqa.scoring import score_predictions

    monkeypatch.chdir(ROOT)
    gold = json.loads(Path(GOLD).read_text())
    reports = [score_predictions(json.loads(Path(path).read_text()), gold) for path in (A, B)]
    (interval,) = finscore.headline_intervals("finqa", reports[0], gold, resamples=150)
    assert main(["finqa", A, GOLD, "--quiet", "--json", "-", "--resamples", "150"]) == 0
    assert json.loads(capsys.readouterr().out)["uncertainty"] == [interval.to_json()]
    comparison = finscore.compare_systems("finqa", [finscore.System("A", r) for r in reports[:1]]
                                          + [finscore.System("B", reports[1])], gold, resamples=150)
    assert main(["compare", "finqa", A, B, GOLD, "--json", "-", "--resamples", "150"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["pairs"] == comparison["pairs"] and "wilson_interval" in finscore.__all__


def test_tatqa_subgroups_are_the_reports_answer_type_source_and_scale(capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    predictions = json.loads((ROOT / "examples/tatqa/predictions.json").read_text())
    dropped = sorted(predictions)[0]
    fewer = tmp_path / "fewer.json"
    fewer.write_text(json.dumps({uid: value for uid, value in predictions.items() if uid != dropped}))
    assert main(["compare", "tatqa", "examples/tatqa/predictions.json", str(fewer), "examples/tatqa/gold.json",
                 "--json", "-", "--resamples", "100"]) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairs"]
    gold = json.loads((ROOT / "examples/tatqa/gold.json").read_text())
    questions = [q for d in gold for q in d["questions"]]
    cells: dict[str, int] = {}
    for q in questions:
        name = f"{q['answer_type']} x {q['answer_from']}"
        cells[name] = cells.get(name, 0) + 1
    assert {r["group"]: r["rows"] for r in pair["subgroups"] if r["kind"] == "answer type x source"} == cells
    assert sum(r["rows"] for r in pair["subgroups"] if r["kind"] == "scale") == len(questions)
    # the dropped uid is B's failure: introduced, or already wrong for A
    introduced = [i for ids in pair["transitions"]["introduced_by_b"].values() for i in ids]
    assert pair["transitions"]["fixed_by_b"] == {} and introduced in ([], [dropped])
