"""Honest uncertainty (issue #12, observation 5): the headline rests on independent families.

Every expected figure comes from scipy (the exact binomial test and the beta
quantiles of the Clopper-Pearson interval), never from our own code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import beta, binomtest

from finscore.cli import main
from finscore.contracts import compare_reports, load_report
from finscore.contracts.kit import KIT_DIRECTORY

ORACLE = KIT_DIRECTORY / "oracle.jsonl"


def _report(tmp_path: Path, name: str, records: list[dict] | None = None) -> dict:
    """The report of these records (default: the oracle's), scored as a candidate's."""
    source = tmp_path / f"{name}.jsonl"
    candidate = [{k: v for k, v in r.items() if k != "producer"} for r in records or _oracle_lines()]
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in candidate), encoding="utf-8")
    out = tmp_path / f"{name}.json"
    assert main(["contracts", "@kit", str(source), "--accept-unsealed", "--bootstrap", "50", "--output", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _oracle_lines() -> list[dict]:
    return [json.loads(line) for line in ORACLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _failing(families: set[str]) -> list[dict]:
    records = _oracle_lines()
    for record in records:
        if record["case_id"].split("-")[0] in families:
            record["status"], record["status_detail"], record["final"] = "crashed", "boom", None
    return records


def test_zero_failures_bound_is_over_the_eight_families(tmp_path):
    report = _report(tmp_path, "oracle")
    headline = report["pass_rate"]
    assert headline["unit"] == "family" and headline["independent_units"] == 8
    assert (headline["passed"], headline["trials"]) == (8, 8)
    # two-sided 95% exact interval, as everywhere: lower bound of 8/8 is the 2.5% beta quantile
    expected = 1 - beta.ppf(0.025, 8, 1)
    assert headline["failure_rate_upper"] == pytest.approx(expected, abs=1e-12)
    assert "36.9%" in headline["statement"] and "8 independent families" in headline["statement"]
    rows = report["row_pass_rate"]
    assert rows["unit"] == "row" and rows["trials"] == 24 and rows["independent_units"] == 8
    assert "row-level" in rows["statement"] and "not independent" in rows["statement"]


def test_a_family_fails_when_any_of_its_rows_fails(tmp_path):
    records = _oracle_lines()
    record = next(r for r in records if r["case_id"] == "emi-ta")
    record["status"], record["status_detail"], record["final"] = "crashed", "boom", None
    headline = _report(tmp_path, "one", records)["pass_rate"]
    assert (headline["passed"], headline["trials"]) == (7, 8)
    low, high = headline["clopper_pearson"]
    assert low == pytest.approx(beta.ppf(0.025, 7, 2), abs=1e-9)
    assert high == pytest.approx(beta.ppf(0.975, 8, 1), abs=1e-9)
    assert "7 of 8 independent families" in headline["statement"]


def test_every_interval_says_how_many_independent_units_it_rests_on(tmp_path):
    report = _report(tmp_path, "oracle")
    assert set(report["by_language"]) == {"en", "hi", "ta"} and len(report["by_family"]) == 8
    for language, group in report["by_language"].items():
        assert group["pass_rate"]["independent_units"] == 8, language
        assert "8 independent families" in group["pass_rate"]["statement"]
    for family, group in report["by_family"].items():
        assert group["pass_rate"]["independent_units"] == 1, family
        assert "not independent" in group["pass_rate"]["statement"]


def test_a_paired_comparison_uses_families_and_says_when_too_few_changed(tmp_path):
    a = _report(tmp_path, "a")
    b = _report(tmp_path, "b", _failing({"fv", "cg"}))
    comparison = compare_reports(a, b, replicates=50)
    family_test = comparison["family_test"]
    assert (family_test["improved"], family_test["worsened"], family_test["unchanged"]) == (0, 2, 6)
    assert family_test["p_value"] == pytest.approx(binomtest(0, 2, 0.5).pvalue, rel=1e-12)
    assert family_test["conclusive"] is False
    assert "only 2 families changed" in family_test["note"]
    rows = comparison["exact_paired_test"]
    assert rows["p_value"] == pytest.approx(binomtest(0, 6, 0.5).pvalue, rel=1e-12)
    assert "row-level" in rows["name"] and "not independent" in rows["note"]


def test_the_compare_command_prints_the_family_test_first(tmp_path, capsys):
    a = _report(tmp_path, "a")
    b = _report(tmp_path, "b", _failing({"fv", "cg"}))
    pa, pb = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["compare", str(pa), str(pb), "--bootstrap", "50", "--output", str(tmp_path / "c.json")]) == 0
    out = capsys.readouterr().out
    assert "only 2 families changed" in out
    assert load_report(pa)["pass_rate"]["unit"] == "family" and a and b
