"""`finscore exec` and `finscore exec-jsonl`, end to end."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.shared import FINQA, require, same_outcome, vector_rows

from finscore.cli import build_parser, main

CHAIN = "subtract(34.8, 1.2), divide(#0, 34.8), multiply(#1, const_100)"


def test_exec_prints_every_step_and_the_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", CHAIN]) == 0
    out = capsys.readouterr().out
    assert f"#0 subtract(34.8, 1.2)  = {34.8 - 1.2!r}  {(34.8 - 1.2).hex()}" in out
    assert f"answer: {round((34.8 - 1.2) / 34.8 * 100, 5)!r}" in out


def test_exec_json_and_a_table_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "example.json"
    table.write_text(json.dumps({"table": [["", "2019"], ["revenue", "13,053", "18,874"]]}))
    assert main(["exec", "table_average(revenue, none)", "--table", str(table), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["invalid"], report["result"]) == (0, {"float": ((13053.0 + 18874.0) / 2).hex()})
    assert report["steps"][0]["arguments"][0]["values"] == [13053.0, 18874.0]


def test_exec_reports_a_refusal_with_exit_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "add(1, 2), divide(#0, 0)"]) == 1
    out = capsys.readouterr().out
    assert "invalid at #1: divide_by_zero" in out


def test_exec_token_list_and_strict_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", '["add(", "1", "2", ")"]', "--profile", "strict"]) == 1
    assert "last_token_not_eof" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["exec", "add(1, 2)", "--table", "/nonexistent/t.json"], "cannot read"),
        (["exec", '["add(", 1]'], "JSON token list"),
        (["exec", "add(1, 2)", "--python", "three"], "python version"),
    ],
)
def test_exec_bad_usage_exits_2_with_a_message(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def run_jsonl(argv: list[str], stdin: str) -> tuple[int, list[str]]:
    args = build_parser().parse_args(["exec-jsonl", *argv])
    out = io.StringIO()
    status = args.handler(args, stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue().splitlines()


def test_exec_jsonl_reproduces_recorded_vectors_in_order() -> None:
    rows = list(itertools.islice(vector_rows("fuzz"), 3000))  # inline tables and table_ref rows
    finqa = [str(require(FINQA / f"finqa_{split}.json")) for split in ("train", "dev", "test")]
    stdin = "".join(json.dumps({k: v for k, v in r.items() if k not in ("invalid", "result")}) + "\n" for r in rows)
    argv = [arg for path in finqa for arg in ("--tables", path)] + ["--batch", "700"]
    status, lines = run_jsonl(argv, stdin)
    assert status == 0 and len(lines) == len(rows)
    for row, line in zip(rows, lines):
        record = json.loads(line)
        assert record["id"] == row["id"]
        result = record["result"]
        value = float.fromhex(result["float"]) if "float" in result else result["str"]
        assert same_outcome(row, record["invalid"], value), row["id"]


def test_exec_jsonl_keeps_bad_lines_and_reports_them() -> None:
    stdin = '{"program": "add(1, 2)"}\nnot json\n\n{"program": 5, "id": "x"}\n{"program": "add(1, 1)", "table_ref": "nope"}\n'
    status, lines = run_jsonl([], stdin)
    assert status == 1
    assert json.loads(lines[0])["result"] == {"float": (3.0).hex()}
    assert json.loads(lines[1])["line"] == 2 and "not JSON" in json.loads(lines[1])["error"]
    assert lines[2] == ""
    assert json.loads(lines[3])["id"] == "x" and "program" in json.loads(lines[3])["error"]
    assert "table_ref" in json.loads(lines[4])["error"]


def test_the_console_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "finscore", "exec", CHAIN], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert f"answer: {round((34.8 - 1.2) / 34.8 * 100, 5)!r}" in done.stdout
