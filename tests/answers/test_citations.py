"""FinQA citations in the answers JSON format: cited ids against the gold's qa.gold_inds, and the
answer's number in a cited row or line, reported apart from correctness by `finscore answers`.

The examples are real FinQA test examples (tests/data/finqa/finqa_test.json.gz); the citing
predictions are written by hand, each assertion's fact checked on the example's own text first."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from finscore.answers.citations import check_citations
from support.cli import run_command

DATA = Path(__file__).parent.parent / "data" / "finqa" / "finqa_test.json.gz"
IDS = ("ETR/2016/page_23.pdf-2", "INTC/2015/page_41.pdf-4", "ADI/2011/page_61.pdf-2", "FIS/2010/page_70.pdf-2",
       "SYY/2006/page_71.pdf-1")


def _examples() -> dict[str, dict[str, Any]]:
    data = json.loads(gzip.decompress(DATA.read_bytes()))
    return {example["id"]: example for example in data if example["id"] in IDS}


def test_the_examples_say_what_the_cases_rely_on() -> None:
    examples = _examples()
    etr, intc, adi = examples[IDS[0]], examples[IDS[1]], examples[IDS[2]]
    assert sorted(etr["qa"]["gold_inds"]) == ["table_1", "table_8"] and etr["qa"]["exe_ans"] == 94.0
    assert "is $ 5829 ;" in etr["qa"]["gold_inds"]["table_8"] and "( in millions )" in etr["qa"]["gold_inds"]["table_8"]
    assert len(intc["table"]) < 99 and len(intc["pre_text"]) + len(intc["post_text"]) < 999
    assert list(adi["qa"]["gold_inds"]) == ["text_22"] and "text_0" not in adi["qa"]["gold_inds"]
    assert adi["qa"]["gold_inds"]["text_22"] == (adi["pre_text"] + adi["post_text"])[22]
    assert "153.7" not in adi["pre_text"][0]


def test_each_reason_on_a_real_example() -> None:
    examples = _examples()
    etr = examples[IDS[0]]
    computed = check_citations(IDS[0], json.dumps({"answer": "94", "evidence": ["table_1", "table_8"]}), etr)
    assert (computed.reason, computed.supporting, computed.number) == (
        "cited_supporting", ("table_1", "table_8"), "number_not_in_passage")  # 5829 - 5735: in no row
    looked_up = check_citations(IDS[0], '```json\n{"answer": "5829", "evidence": ["table_8"]}\n```', etr)
    assert (looked_up.reason, looked_up.number) == ("cited_supporting", "number_found")
    adi = examples[IDS[2]]
    unrelated = check_citations(IDS[2], json.dumps({"answer": "153.7", "evidence": ["text_0"]}), adi)
    assert (unrelated.reason, unrelated.supporting, unrelated.number) == (
        "cited_unrelated", (), "number_not_in_passage")
    found = check_citations(IDS[2], json.dumps({"answer": "$153.7 million", "evidence": ["text_22"]}), adi)
    assert (found.reason, found.number) == ("cited_supporting", "number_found")
    intc = examples[IDS[1]]
    for evidence in (["table_2", "table_99"], ["text_999"], [3]):
        unknown = check_citations(IDS[1], json.dumps({"answer": "14%", "evidence": evidence}), intc)
        assert (unknown.reason, unknown.number) == ("unknown_id", None)
    for completion in ('{"answer": "14%"}', '{"answer": "14%", "evidence": []}', "The answer is 14%."):
        assert check_citations(IDS[1], completion, intc).reason == "no_citation"


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[dict[str, Any]],
         answer_format: str = "json") -> tuple[str, dict[str, Any]]:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(list(_examples().values())), encoding="utf-8")
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    status, out, err = run_command("answers", capsys, str(predictions), str(gold), "--protocol", "finqa-answer/1",
                                   "--format", answer_format, "--json", str(tmp_path / "r.json"), "--resamples", "200")
    assert status == 0, err
    return out, json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))


def test_finscore_answers_reports_citations_as_their_own_axis(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"id": IDS[0], "completion": json.dumps({"answer": "5829", "evidence": ["table_8"]})},  # wrong, supported
        {"id": IDS[1], "completion": json.dumps({"answer": "14%", "evidence": ["table_99"]})},  # right, unknown id
        {"id": IDS[2], "completion": json.dumps({"answer": "9.9%", "evidence": ["text_0"]})},  # right, unrelated
        {"id": IDS[3], "completion": json.dumps({"answer": "2.9%"})},  # right, no citation
    ]  # SYY: missing
    out, report = _run(tmp_path, capsys, lines)
    reasons = {d["id"]: d["reason"] for d in report["decisions"]}
    assert reasons[IDS[0]] == "wrong_value" and reasons[IDS[4]] == "missing_prediction"
    evidence = report["evidence"]
    assert evidence["reasons"] == {"cited_supporting": 1, "cited_unrelated": 1, "unknown_id": 1, "no_citation": 2}
    assert [(c["id"], c["reason"], c["number"]) for c in evidence["checks"]] == [
        (IDS[0], "cited_supporting", "number_found"), (IDS[1], "unknown_id", None),
        (IDS[2], "cited_unrelated", "number_not_in_passage"), (IDS[3], "no_citation", None),
        (IDS[4], "no_citation", None)]
    assert "evidence cited (against qa.gold_inds; apart from correctness):\n  cited_supporting" in out
    assert "  no_citation                  2\n" in out


def test_without_citations_the_report_has_no_citation_axis(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    plain = [{"id": IDS[0], "completion": json.dumps({"answer": "94"})}]
    out, report = _run(tmp_path, capsys, plain)
    assert "evidence" not in report and "evidence cited" not in out
    citing = [{"id": IDS[0], "completion": json.dumps({"answer": "94", "evidence": ["table_8"]})}]
    again, with_citation = _run(tmp_path, capsys, citing)
    assert "evidence" in with_citation
    del with_citation["evidence"]
    cited, uncited = with_citation.pop("decisions"), report.pop("decisions")
    assert with_citation == report  # the rest of the report is the same, cited or not
    # each decision the same, but for where the JSON object ends in the longer completion
    assert [{k: v for k, v in d.items() if k != "span"} for d in cited] == [
        {k: v for k, v in d.items() if k != "span"} for d in uncited]
    assert again.replace(again[again.index("\n\nevidence cited"):again.index("\n\nfirst")], "") == out
    # another answer format reads no citations
    _, other = _run(tmp_path, capsys, [{"id": IDS[0], "completion": 'Answer: 94 {"evidence": ["table_8"]}'}],
                    "answer-line")
    assert "evidence" not in other
