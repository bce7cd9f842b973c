"""`finscore financebench GOLD ANSWERS`: the text report, --json, --html, typed input errors, the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore import registry
from finscore.financebench.scoring import decide
from support.cli import run_command

from .excerpt import question, write_answers, write_gold


def test_the_command_scores_a_results_file_against_its_human_labels(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    gold = write_gold(tmp_path / "gold.jsonl")
    answers = write_answers(tmp_path / "gpt-4_oracle.jsonl", "gpt-4_oracle.jsonl")
    status, out, err = run_command("financebench", capsys, gold, answers, "--json", str(tmp_path / "r.json"),
                                   "--html", str(tmp_path / "r.html"))
    assert (status, err) == (0, "")
    assert out.startswith("FinanceBench (financebench-answer/1)\n")
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["questions"] == 14 and report["decided"] == 12
    by_id = {a["id"]: a for a in report["answers"]}
    # gpt-4_oracle's 03029 answer, "... for 3M is $1,577 million.", labelled Correct Answer
    assert (by_id["financebench_id_03029"]["label"], by_id["financebench_id_03029"]["decision"]) == (
        "Correct Answer", "correct")
    assert by_id["financebench_id_03029"]["support"]["passage_number"] == "-1577"  # the page's "(1,577)"
    assert by_id["financebench_id_01319"]["decision"] is None  # a free-text gold: not decided
    table = report["agreement"]["confusion"]
    assert sum(sum(row.values()) for row in table.values()) == 12
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<mark>(1,577)</mark>" in page and "<script" not in page


def test_bad_lines_are_all_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write_gold(tmp_path / "gold.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"financebench_id": "financebench_id_03029", "model_answer": "1"}\n[1]\n'
                   '{"financebench_id": "financebench_id_03029", "model_answer": "2"}\n{"model_answer": "3"}\n',
                   encoding="utf-8")
    status, _, err = run_command("financebench", capsys, gold, str(bad))
    assert status == 2
    assert "line 2: not a JSON object" in err and "line 3: financebench_id 'financebench_id_03029' repeated" in err
    assert "line 4: needs text financebench_id and model_answer" in err
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"financebench_id": "financebench_id_99999", "model_answer": "1"}\n', encoding="utf-8")
    assert run_command("financebench", capsys, gold, str(unknown))[0] == 2


def test_a_bad_gold_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"financebench_id": "x", "question_type": "other"}\n', encoding="utf-8")
    answers = tmp_path / "a.jsonl"
    answers.write_text("", encoding="utf-8")
    status, _, err = run_command("financebench", capsys, str(gold), str(answers))
    assert status == 2 and "line 1: field 'company' is not text" in err


def test_the_descriptor_groups_questions_by_document_and_decides_rewards() -> None:
    benchmark = registry.get_benchmark("financebench")
    assert benchmark.command == "finscore.commands.financebench"
    q = question("03029")
    assert benchmark.unit.key.load()({q.id: q}) == {q.id: "3M_2018_10K"}
    record = {"answer": q.answer, "question": q.question}
    assert decide("Therefore capex is $1,577 million.", record) == (True, "exact")
    assert decide({"model_answer": "So it was $1,500 million."}, json.dumps(record)) == (False, "wrong_value")
    assert decide("It is $1577.", '"$1577.00"') == (True, "exact")
    assert decide(3, record) == (False, "unparseable")
    assert decide("1", "{not json") == (False, "not_scored")


def test_a_json_number_answer_is_read_as_its_text_and_html_escapes_the_data(tmp_path: Path) -> None:
    from finscore.financebench.html import render_html
    from finscore.financebench.results import answers_from
    from finscore.financebench.scoring import score_answer

    # results/gpt-4-1106-preview_inContext_reverse.jsonl line 18 answers financebench_id_01319 with `0`
    [number] = answers_from([(18, {"financebench_id": "financebench_id_01319", "model_answer": 0})])
    assert number.answer == "0"
    hostile = answers_from([(1, {"financebench_id": "financebench_id_03029",
                                 "model_answer": "<script>x</script> So it is $1,577 million."})])[0]
    page = render_html([score_answer(question("03029"), hostile)])
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_the_python_api_names_load_lazily() -> None:
    import subprocess
    import sys

    import finscore.financebench as api

    assert api.read_claim("So it is 5.").value == 5  # type: ignore[union-attr]
    assert api.score.__module__ == "finscore.financebench.scoring"
    loaded = subprocess.run([sys.executable, "-c", "import sys, finscore.financebench.benchmark; "
                             "print(sorted(m for m in sys.modules if m.startswith('finscore.financebench')))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "['finscore.financebench', 'finscore.financebench.benchmark']"


def test_citations_are_read_and_a_bad_one_is_named() -> None:
    from finscore.financebench.gold import FinancebenchInputError
    from finscore.financebench.results import answers_from
    from finscore.financebench.support import Citation

    base = {"financebench_id": "financebench_id_03029", "model_answer": "1"}
    [cited] = answers_from([(1, {**base, "doc_name": "3M_2018_10K", "page": 59})])
    assert cited.citation == Citation("3M_2018_10K", 59, "pdf_index")
    [printed] = answers_from([(1, {**base, "doc_name": "3M_2018_10K", "page": "60", "page_convention": "printed"})])
    assert printed.citation == Citation("3M_2018_10K", "60", "printed")
    with pytest.raises(FinancebenchInputError, match="line 1: a citation is a text doc_name and a page"):
        answers_from([(1, {**base, "doc_name": "3M_2018_10K", "page": "59"})])
