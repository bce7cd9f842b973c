"""What the commands write when model output holds a lone surrogate.

JSON can carry one into a string (`"\\ud800"`) and UTF-8 cannot hold it. Every command
that echoes predictions (a report, a stream of JSON lines) must finish, write valid UTF-8,
keep the other rows, and give back, inside each JSON string, the very text it read:
the escape it writes is JSON's own, so `json.loads` of the output returns the input
string. Each case runs the real command in a new process, on the real standard output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.shared import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
LONE = "\ud800"


def _finscore(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "finscore", *argv], input=stdin.encode("ascii"), capture_output=True,
                          timeout=300)


def _utf8(data: bytes) -> str:
    """The bytes as UTF-8 text (strict: a raw surrogate or stray byte fails the test)."""
    return data.decode("utf-8")


def _strings(value: Any) -> list[str]:
    """Every string in decoded JSON, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in (key, *_strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _ascii_json(value: Any) -> str:
    return json.dumps(value)  # ensure_ascii: the lone surrogate travels as JSON's own escape


def test_finqa_json_report_on_standard_output_gives_the_predicted_token_back(tmp_path: Path) -> None:
    predictions = json.loads((EXAMPLES / "finqa" / "predictions.json").read_text(encoding="utf-8"))
    token = "58" + LONE
    predictions[0]["predicted"] = ["subtract(", token, "5735", ")", "EOF"]
    path = tmp_path / "predictions.json"
    path.write_text(_ascii_json(predictions), encoding="ascii")
    done = _finscore("finqa", str(path), str(EXAMPLES / "finqa" / "gold.json"), "--quiet", "--json", "-")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    report = json.loads(_utf8(done.stdout))
    assert token in _strings(report)
    assert report["counts"]["scored_predictions"] == len(predictions)


def test_tatqa_text_report_names_the_answer_escaped(tmp_path: Path) -> None:
    gold = json.loads((EXAMPLES / "tatqa" / "gold.json").read_text(encoding="utf-8"))
    uid = gold[0]["questions"][0]["uid"]
    path = tmp_path / "predictions.json"
    path.write_text(_ascii_json({uid: [LONE + " x", ""]}), encoding="ascii")
    done = _finscore("tatqa", str(path), str(EXAMPLES / "tatqa" / "gold.json"), "--quiet")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    text = _utf8(done.stdout)
    assert "\\ud800 x" in text and "Exact-match accuracy" in text


def test_convfinqa_json_report_in_a_file_gives_the_predicted_token_back(tmp_path: Path) -> None:
    predictions = json.loads((EXAMPLES / "convfinqa" / "predictions.json").read_text(encoding="utf-8"))
    token = "60.9" + LONE
    predictions[0]["predicted"] = [token, "EOF"]
    path = tmp_path / "predictions.json"
    path.write_text(_ascii_json(predictions), encoding="ascii")
    out = tmp_path / "report.json"
    done = _finscore("convfinqa", str(path), str(EXAMPLES / "convfinqa" / "gold.json"), "--quiet", "--json", str(out))
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert token in _strings(json.loads(_utf8(out.read_bytes())))


def test_answers_reports_in_files_are_utf8_with_the_completion_escaped(tmp_path: Path) -> None:
    lines = [json.loads(line) for line in
             (EXAMPLES / "answers" / "finqa_completions.jsonl").read_text(encoding="utf-8").splitlines()]
    lines[0]["completion"] = "Answer: " + LONE + " maybe"
    path = tmp_path / "completions.jsonl"
    path.write_text("".join(_ascii_json(line) + "\n" for line in lines), encoding="ascii")
    html, report = tmp_path / "report.html", tmp_path / "report.json"
    done = _finscore("answers", "--protocol", "finqa-answer/1", "--format", "answer-line", str(path),
                     str(EXAMPLES / "answers" / "finqa_gold.json"), "--quiet", "--html", str(html),
                     "--json", str(report))
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "\\ud800 maybe" in _utf8(html.read_bytes())
    assert json.loads(_utf8(report.read_bytes()))["counts"]["prediction_lines"] == len(lines)


#: A TAT-QA gold question whose answer is the span "x".
SPAN_GOLD = {"answer": ["x"], "answer_type": "span", "scale": ""}
#: (command line, the JSON lines sent on standard input): every line but the last holds a lone
#: surrogate in model output; the last is an ordinary one that must still come back. Each exits 0.
STREAMS = [
    (("exec-jsonl",), [{"program": ["add(", "1" + LONE, "2", ")", "EOF"]}, {"program": "add(1, 2" + LONE + ")"},
                       {"program": "add(1, 2)"}]),
    (("finqa", "equal-jsonl"), [{"gold": ["add(", "1", "2", ")", "EOF"], "pred": ["add(", "1" + LONE, "2", ")", "EOF"]},
                                {"gold": ["add(", "1", "2", ")", "EOF"], "pred": ["add(", "1", "2", ")", "EOF"]}]),
    (("tatqa", "decide-jsonl"), [{"gold": SPAN_GOLD, "pred": ["x" + LONE, ""]}, {"gold": SPAN_GOLD, "pred": ["x", ""]}]),
    (("answers", "decide-jsonl", "--protocol", "finqa-answer/1", "--format", "answer-line"),
     [{"completion": "Answer: 94" + LONE, "gold": {"exe_ans": 94.0}},
      {"completion": "Answer: 94", "gold": {"exe_ans": 94.0}}]),
]


@pytest.mark.parametrize("argv, lines", STREAMS, ids=[" ".join(case[0][:2]) for case in STREAMS])
def test_a_json_lines_stream_writes_every_line_back_with_the_text_it_read(argv: tuple[str, ...],
                                                                         lines: list[dict[str, Any]]) -> None:
    done = _finscore(*argv, stdin="".join(_ascii_json(line) + "\n" for line in lines))
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    back = [json.loads(line) for line in _utf8(done.stdout).splitlines()]
    assert len(back) == len(lines)
    for sent, written in zip(lines, back):
        assert "error" not in written, written
        assert all(written[key] == value for key, value in sent.items())  # the input, exactly, surrogates and all
