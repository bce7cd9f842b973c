"""`finscore answers`: reports, stamps, the denominator policy, decide-jsonl, on the shipped examples
and the real ConvFinQA / TAT-QA files."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.answers import decide_jsonl, get_protocol
from finscore.cli import main
from support.shared import CONVFINQA, TATQA, VECTORS, require

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLES = REPOSITORY / "examples" / "answers"
FINQA_RUN = ["answers", "--protocol", "finqa-answer/1", "--format", "answer-line",
             str(EXAMPLES / "finqa_completions.jsonl"), str(EXAMPLES / "finqa_gold.json"), "--quiet"]


def lines_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_text_report_and_json_report_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    assert main(FINQA_RUN + ["--json", str(out)]) == 0
    text = capsys.readouterr().out
    report = json.loads(out.read_text())
    golds = json.loads((EXAMPLES / "finqa_gold.json").read_text())
    assert report["counts"]["golds"] == len(golds) == len(report["decisions"])
    assert sum(report["reasons"].values()) == len(golds)
    assert report["counts"]["passed"] == sum(d["passed"] for d in report["decisions"])
    assert f"accuracy: {report['counts']['passed']}/{len(golds)}" in text
    assert report["stamp"]["protocol"] == "finqa-answer/1" and "0.005" in report["protocol"]["tolerance"]


def test_verify_holds_then_catches_a_changed_stamp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    assert main(FINQA_RUN + ["--json", str(out)]) == 0
    assert main(["answers", "verify", str(out)]) == 0
    report = json.loads(out.read_text())
    report["stamp"]["conformance_sha256"] = "0" * 64
    report["protocol"]["definition"]["comparison"]["tolerance"]["value"] = "0.01"
    out.write_text(json.dumps(report))
    capsys.readouterr()
    assert main(["answers", "verify", str(out), "--no-rerun"]) == 1
    err = capsys.readouterr().err
    assert "conformance_sha256" in err and "rules printed in the report differ" in err


def test_unknown_and_repeated_ids_are_rejected_and_all_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = lines_of(EXAMPLES / "finqa_completions.jsonl")[:5]
    rows += [{"id": "nope-1", "completion": "Answer: 1"}, {"id": "nope-2", "answer": "2"},
             {**rows[0], "completion": "Answer: 3"}, {"id": 7, "completion": "x"}]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    run = FINQA_RUN[:5] + [str(predictions), str(EXAMPLES / "finqa_gold.json"), "--quiet"]
    assert main(run) == 2
    err = capsys.readouterr().err
    for needle in ("'nope-1'", "'nope-2'", repr(rows[0]["id"]), "entry 9", "entry 10"):
        assert needle in err, needle
    assert main(run + ["--exclude-bad-ids", "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["exclusions"]) == 6
    assert report["counts"]["golds"] == 300 and report["reasons"]["missing_prediction"] == 300 - 4


def test_a_line_giving_a_key_twice_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """json.loads keeps the last of two "completion" keys without a word (checked here); the line is a
    malformed entry naming the key, as a repeated key is in every file finscore reads."""
    first = lines_of(EXAMPLES / "finqa_completions.jsonl")[0]
    line = '{"id": %s, "completion": "Answer: 1", "completion": %s}' % (json.dumps(first["id"]),
                                                                       json.dumps(first["completion"]))
    assert json.loads(line)["completion"] == first["completion"]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(line + "\n")
    run = FINQA_RUN[:5] + [str(predictions), str(EXAMPLES / "finqa_gold.json"), "--quiet"]
    assert main(run) == 2
    assert "entry 1" in (err := capsys.readouterr().err) and "gives the key 'completion' twice" in err
    assert main(run + ["--exclude-bad-ids", "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(e["kind"], e["detail"]) for e in report["exclusions"]] == [
        ("malformed_entry", "a JSON object that gives the key 'completion' twice")]
    assert report["reasons"]["missing_prediction"] == 300


def test_html_is_offline_and_lists_failures(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    assert main(FINQA_RUN + ["--html", str(page)]) == 0
    html = page.read_text()
    assert "<svg" in html and "<script" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")
    assert "what percentage of total facilities" in html  # a failing answer's question


def test_html_read_column_shows_what_was_read_or_a_dash_with_why(tmp_path: Path) -> None:
    """Issue #35: the "read" column showed None for an answer with nothing read."""
    from html.parser import HTMLParser

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []

        def handle_starttag(self, tag: str, attrs: object) -> None:
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.rows[-1].append("")

        def handle_data(self, data: str) -> None:
            if self.rows and self.rows[-1]:
                self.rows[-1][-1] += data

    page, out = tmp_path / "r.html", tmp_path / "r.json"
    assert main(FINQA_RUN + ["--html", str(page), "--json", str(out)]) == 0
    cells = Cells()
    cells.feed(page.read_text(encoding="utf-8"))
    header, *listed = cells.rows
    read_at, reason_at = header.index("read"), header.index("reason")
    rows = json.loads(out.read_text(encoding="utf-8"))["decisions"]
    failing = [row for row in rows if not row["passed"]]
    assert len(listed) == len(failing) and failing
    seen = set()
    for row, cell in zip(failing, listed):
        assert cell[reason_at].split(" ")[0] == row["reason"]
        if row["read"] is not None:
            assert cell[read_at] == row["read"]
        else:
            seen.add(row["reason"])
            assert "None" not in cell[read_at] and cell[read_at].startswith("\u2014 (")
            assert cell[read_at].endswith(f": {row['detail']})")
    assert {"no_final_answer", "several_numbers"} <= seen


def test_convfinqa_turn_ids_are_the_recorded_ones(tmp_path: Path) -> None:
    from finscore.answers.decide import reader_for
    from finscore.answers.gold_files import read_answer_golds
    from finscore.answers.registry import get_protocol

    protocol = get_protocol("convfinqa-answer/1")
    golds = read_answer_golds(json.loads(require(CONVFINQA / "convfinqa_dev.json").read_text()), protocol,
                              reader_for(protocol))
    with gzip.open(require(VECTORS / "convfinqa.jsonl.gz"), "rt") as rows:
        recorded = {row["id"]: row["exe_ans"] for row in map(json.loads, rows) if row["kind"] == "gold"}
    assert {entry.id for entry in golds.entries} == set(recorded)
    assert len(recorded) == 1490


def test_tatqa_text_answers_are_listed_outside_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    dev = require(TATQA / "tatqa_dataset_dev.json")
    data = json.loads(dev.read_text())
    numbers = sum(q["answer_type"] in ("arithmetic", "count") for d in data for q in d["questions"])
    assert main(["answers", "--protocol", "tatqa-answer/1", "--format", "answer-line",
                 str(EXAMPLES / "tatqa_completions.jsonl"), str(dev), "--quiet", "--exclude-bad-ids",
                 "--json", "-"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["golds"] + report["counts"]["out_of_protocol_golds"] == 1668
    assert report["counts"]["golds"] >= numbers
    assert all("multi-span" not in e["why"] or "items" in e["why"] for e in report["out_of_protocol"])


@pytest.mark.parametrize(("field", "value", "message"), [
    ("scale", "millions", "has \"scale\" 'millions', not one of"),
    ("answer_type", "sum", "\"answer_type\" 'sum', not one of"),
    ("answer", True, "the answer is a bool, not a number"),
    ("answer", float("nan"), "the answer is nan, not a finite number"),
])
def test_a_malformed_tatqa_gold_stops_the_file_rather_than_leaving_the_protocol(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: object, message: str) -> None:
    """Only a well-formed text or multi-span answer is out of the protocol; a corrupt gold would
    otherwise shrink the denominator without a word."""
    data = json.loads((EXAMPLES / "tatqa_gold.json").read_text())
    question = next(q for d in data for q in d["questions"] if q["answer_type"] == "arithmetic")
    question[field] = value
    (tmp_path / "gold.json").write_text(json.dumps(data))
    assert main(["answers", "--protocol", "tatqa-answer/1", "--format", "answer-line",
                 str(EXAMPLES / "tatqa_completions.jsonl"), str(tmp_path / "gold.json"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert repr(question["uid"]) in err and message in err, err


def test_a_protocol_for_another_dataset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["answers", "--protocol", "tatqa-answer/1", "--format", "answer-line",
                 str(EXAMPLES / "finqa_completions.jsonl"), str(EXAMPLES / "finqa_gold.json"), "--quiet"]) == 2
    assert "tatqa-answer/1 reads tatqa golds" in capsys.readouterr().err


def test_decide_jsonl_keeps_every_line() -> None:
    lines = [
        json.dumps({"completion": "Answer: 14.46%", "gold": {"exe_ans": 0.14464, "program": "divide(8.1, 56.0)"}}),
        json.dumps({"completion": "Answer: 94", "gold": {"exe_ans": "yes"}}),
        "not json",
        json.dumps({"completion": "Answer: 1"}),
        json.dumps({"completion": None, "gold": {"exe_ans": 3.0}}),
        json.dumps({"completion": "Answer: 1", "gold": {"exe_ans": "maybe"}}),
    ]
    stdin = ("\n".join(lines) + "\n").encode() + b"\xff\xfe\n"
    done = subprocess.run([sys.executable, "-m", "finscore", "answers", "decide-jsonl", "--protocol", "finqa-answer/1",
                           "--format", "answer-line"], input=stdin, capture_output=True, check=False)
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(out) == 7
    assert [o.get("decision", {}).get("reason") for o in out] == [
        "percent_declared", "unparseable", None, None, "missing_prediction", None, None]
    assert ["error" in o for o in out] == [False, False, True, True, False, True, True]


def test_decide_jsonl_reports_an_overlong_line_and_reads_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decide_jsonl, "MAX_LINE_BYTES", 200)
    short = json.dumps({"completion": "Answer: 3", "gold": {"exe_ans": 3.0}})
    long = json.dumps({"completion": "Answer: 3 " + "x" * 500, "gold": {"exe_ans": 3.0}})
    sink = io.StringIO()
    summary = decide_jsonl.stream_decide_jsonl(io.BytesIO(f"{long}\n{short}\n{long}".encode()), sink,
                                               get_protocol("finqa-answer/1"), "answer-line")
    out = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert out[0] == out[2] == {"line": None, "error": "longer than 200 bytes (its text is not kept)"}
    assert out[1]["decision"]["reason"] == "exact"
    assert summary.errors == ["line 1: longer than 200 bytes (its text is not kept)",
                              "line 3: longer than 200 bytes (its text is not kept)"]


def test_a_prediction_stream_past_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A pipe has no size to look at first: the reader stops one byte past the limit, not at the end."""
    import os
    import threading

    from finscore.commands import answers as command

    monkeypatch.setattr(command, "MAX_PREDICTION_BYTES", 1000)
    fifo = tmp_path / "predictions.jsonl"
    os.mkfifo(fifo)
    line = (EXAMPLES / "finqa_completions.jsonl").read_text().splitlines()[0] + "\n"
    sent: list[int] = []
    cut: list[BrokenPipeError] = []

    def write() -> None:  # far more than the limit; the writer stops when the reader has closed the pipe
        try:
            with fifo.open("w") as sink:
                for _ in range(100_000):
                    sink.write(line)
                    sent.append(len(line))
        except BrokenPipeError as closed:
            cut.append(closed)  # the reader closed its end: what this test wants

    writer = threading.Thread(target=write)
    writer.start()
    status = main(["answers", "--protocol", "finqa-answer/1", "--format", "answer-line", str(fifo),
                   str(EXAMPLES / "finqa_gold.json"), "--quiet"])
    writer.join(timeout=60)
    assert status == 2 and "is larger than 1000 bytes" in capsys.readouterr().err
    assert not writer.is_alive() and len(cut) == 1 and sum(sent) < 100_000 * len(line)


@pytest.mark.parametrize(("arguments", "prog"), [(["decide-jsonl", "--protocol", "finqa-answer/1"],
                                                  "finscore answers decide-jsonl"),
                                                 (["verify", "report.json"], "finscore answers verify")])
def test_the_forms_are_second_forms_of_the_command_line(arguments: list[str], prog: str) -> None:
    from finscore.commands.answers import second_form

    form = second_form(arguments)
    assert form is not None and form[0].prog == prog and form[1] == arguments[1:]
    assert second_form(["--protocol", "finqa-answer/1", "decide-jsonl"]) is None  # a file named so, scored


@pytest.mark.parametrize("arguments", [["verify", "report.json", "--bogus"],
                                       ["decide-jsonl", "--protocol", "finqa-answer/1", "--format", "boxed", "--bogus"]])
def test_an_unknown_argument_of_a_form_is_refused_as_before(arguments: list[str],
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The refusal, byte for byte, that `finscore answers` gave at fef6600 (its forms were then parsed
    within the `finscore` parser)."""
    with pytest.raises(SystemExit) as done:
        main(["answers", *arguments])
    assert done.value.code == 2
    assert capsys.readouterr().err == ("usage: finscore [-h] [--version] COMMAND ...\n"
                                       "finscore: error: unrecognized arguments: --bogus\n")
