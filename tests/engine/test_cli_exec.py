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
    assert json.loads(lines[2]) == {"line": 3, "error": "an empty line (no JSON value)"}  # issue #30: no blank pass-through
    assert json.loads(lines[3])["id"] == "x" and "program" in json.loads(lines[3])["error"]
    assert "table_ref" in json.loads(lines[4])["error"]


def test_a_table_row_that_is_not_a_list_is_that_lines_error_only(tmp_path: Path) -> None:
    tables = tmp_path / "finqa.json"
    tables.write_text(json.dumps([{"id": "t", "table": [["a", "1"], "b 2"]}]))
    stdin = ('{"program": "add(1, 2)"}\n{"program": "add(1, 2)", "table": [["a", "1"], 5]}\n'
             '{"program": "add(1, 1)", "table_ref": "t"}\n{"program": "add(2, 2)", "table": [["a", "1"]]}\n')
    status, lines = run_jsonl(["--tables", str(tables)], stdin)
    assert status == 1 and len(lines) == 4
    assert json.loads(lines[1])["error"] == '"table": table row 1 is a int, not a sequence of cells'
    assert json.loads(lines[2])["error"] == """the table of "table_ref" 't': table row 1 is a str, not a sequence of cells"""
    assert [json.loads(lines[k])["result"] for k in (0, 3)] == [{"float": (3.0).hex()}, {"float": (4.0).hex()}]


@pytest.mark.parametrize(("row", "shown"), [("5", "5"), ("null", "null"), ('"b 2"', '"b 2"'),
                                            ('{"x": "' + "y" * 50 + '"}', '{"x": "' + "y" * 30 + "...")])
def test_exec_refuses_a_table_row_that_is_not_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str], row: str,
                                                     shown: str) -> None:
    table = tmp_path / "t.json"
    table.write_text(f'[["a", "1"], {row}]')
    assert main(["exec", "add(1, 2)", "--table", str(table)]) == 2
    assert capsys.readouterr().err == f"finscore exec: the table {table}: row 1 is {shown}, not a list of cells\n"


def test_exec_jsonl_keeps_the_lines_around_one_nested_too_deeply() -> None:
    deep = '{"program": ' + "[" * 100_000 + "]" * 100_000 + "}"  # past the recursion limit of Python's parser
    status, lines = run_jsonl([], f'{{"program": "add(1, 2)"}}\n{deep}\n{{"program": "add(2, 2)"}}\n')
    assert status == 1 and len(lines) == 3
    assert json.loads(lines[1]) == {"line": 2, "error": "not JSON that can be read: nested too deeply"}
    assert [json.loads(lines[k])["result"] for k in (0, 2)] == [{"float": (3.0).hex()}, {"float": (4.0).hex()}]


def test_the_console_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "finscore", "exec", CHAIN], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert f"answer: {round((34.8 - 1.2) / 34.8 * 100, 5)!r}" in done.stdout


# -- what a person most often gets wrong (issue #16) --------------------------------------

def test_a_comma_without_a_space_stays_invalid_and_says_how_finqa_separates(capsys: pytest.CaptureFixture[str]) -> None:
    # the official tokenization keeps "1,2" as one argument token: the step has one argument
    assert main(["exec", "add(1,2)"]) == 1
    out = capsys.readouterr().out
    assert "invalid at #0: malformed_step" in out
    assert "note: FinQA separates arguments and steps with ', ' (a comma and a space)" in out
    assert "did you mean 'add(1, 2)'?" in out
    assert main(["exec", "add(1, 2)"]) == 0  # the spaced form, as suggested, runs
    assert "note:" not in capsys.readouterr().out


@pytest.mark.parametrize("version", ["2.7", "4.0", "3.9", "3", "3.12.x"])
def test_an_unknown_python_version_is_refused_with_the_accepted_ones(version: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "add(1, 2)", "--python", version]) == 2
    assert f"python version must be one of 3.11, 3.12, 3.13 (the CPython whose sum() to imitate), not {version!r}" \
        in capsys.readouterr().err


def test_a_patch_release_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "add(1, 2)", "--python", "3.12.1"]) == 0
    assert "sum() of CPython 3.12.1" in capsys.readouterr().out


@pytest.mark.parametrize(("program", "named"), [
    ("foo(1, 2)", "token 0, 'foo(', is not one of the ten ops (add, subtract, multiply, divide, exp, greater, "
                  "table_max, table_min, table_sum, table_average)"),
    ("add(1, 2), mod(#0, 3)", "token 4, 'mod(', is not one of the ten ops"),
    ("what is the answer", "token 0, 'what is the answer', stands where an op such as 'add(' must"),
    ('["add(", "1", "2", "3", ")", "EOF"]', "token 3, '3', stands where a step's closing ')' must"),
])
def test_a_broken_structure_names_the_offending_token(program: str, named: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", program]) == 1
    out = capsys.readouterr().out
    assert f"note: {named}" in out
    assert out.count("malformed_structure") == 1 and out.count("tokens are not op(, arg, arg, ) groups") == 1


def test_an_empty_program_is_valid_as_officially_and_said_to_be_empty(capsys: pytest.CaptureFixture[str]) -> None:
    # the official evaluator's eval_program on [] (the empty program's tokens) gives (0, "n/a")
    empty = [row for row in vector_rows("mutants") if row["program"] == ["EOF"]]
    assert empty and all((row["invalid"], row["result"]) == (0, {"str": "n/a"}) for row in empty)
    assert main(["exec", ""]) == 0
    out = capsys.readouterr().out
    assert "answer: 'n/a'" in out and "note: the program is empty" in out
    assert main(["exec", "", "--profile", "strict"]) == 1
    assert "note: the program is empty: it has no steps" in capsys.readouterr().out


def test_exec_jsonl_lines_carry_the_status_name_and_the_failed_step() -> None:
    stdin = ('{"program": "add(1, 2)"}\n{"program": "add(1, 2), divide(#0, 0)"}\n'
             '{"program": "table_sum(nothing, none)", "table": [["revenue", "1"]]}\n')
    status, lines = run_jsonl([], stdin)
    assert status == 0
    records = [json.loads(line) for line in lines]
    assert (records[0]["status"], "failed_step" in records[0]) == ("ok", False)
    assert (records[1]["invalid"], records[1]["status"], records[1]["failed_step"]) == (1, "divide_by_zero", 1)
    assert (records[2]["status"], records[2]["failed_step"]) == ("unknown_row", 0)


def test_exec_reads_a_byte_order_mark_and_refuses_bytes_that_are_not_utf8(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("\ufeffadd(1, 2)\n".encode("utf-8"))))
    assert main(["exec", "-"]) == 0
    assert "answer: 3.0" in capsys.readouterr().out
    table = tmp_path / "table.json"
    table.write_bytes(b'[["revenue", "1\xff"]]')
    assert main(["exec", "table_sum(revenue, none)", "--table", str(table)]) == 2
    assert "the table file is not UTF-8 text (byte 15)" in capsys.readouterr().err
    table.write_bytes(b'{"table": [], "table": [["revenue", "1"]]}')
    assert main(["exec", "table_sum(revenue, none)", "--table", str(table)]) == 2
    assert "has the key 'table' twice" in capsys.readouterr().err


def _unclosed_last_step(program: list[str]) -> bool:
    return len(program) == 4 and program[0].endswith("(")


def test_a_missing_closing_parenthesis_keeps_the_official_verdict_and_says_what_was_meant(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The official eval_program's recorded verdicts on programs whose last step never closes:
    # valid, answer n/a when no whole step comes before it (e.g. fuzz1-132: divide(91141.7, -0.3 ).
    recorded = [row for row in vector_rows("fuzz") if _unclosed_last_step(row["program"])
                and row["program"][-1] == "EOF" and row["program"][0] in ("add(", "divide(", "subtract(", "multiply(")
                and not any(mark in token for token in row["program"][1:] for mark in "()")]
    assert recorded and all((row["invalid"], row["result"]) == (0, {"str": "n/a"}) for row in recorded)
    assert main(["exec", "add(1, 2"]) == 0
    out = capsys.readouterr().out
    assert "answer: 'n/a'" in out and "quirk at #0: trailing_tokens: 3 trailing tokens ignored" in out
    note = [line for line in out.splitlines() if line.startswith("note:")]
    assert note == ["note: the last step has no closing ')': the official evaluator splits steps at ')' and drops "
                    "the tokens after the last one ('add(', '1', '2'), so no step is left: it finds the program "
                    "valid, with the answer n/a; did you mean 'add(1, 2)'?"]
    assert main(["exec", "add(1, 2)"]) == 0  # what was meant runs, with no note
    assert "note:" not in capsys.readouterr().out
    for row in recorded[:20]:  # the same verdict as recorded, with the note, for each recorded program
        assert main(["exec", "--json", json.dumps(row["program"]), "--python", row["python"]]) == 0
        view = json.loads(capsys.readouterr().out)
        assert (view["invalid"], view["result"]) == (0, {"str": "n/a"})
        assert view["notes"] and "did you mean the token list with ')' before 'EOF'?" in view["notes"][0]


def test_a_missing_closing_parenthesis_after_whole_steps_names_the_step_whose_answer_counts(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exec", "add(1, 2), divide(#0, 3"]) == 0
    out = capsys.readouterr().out
    assert "answer: 3.0" in out  # eval_program: the last step executed is #0 (docs/finqa-official.md, point 8)
    assert "so the answer is step #0's; did you mean 'add(1, 2), divide(#0, 3)'?" in out
    assert main(["exec", "add(1, 2", "--profile", "strict"]) == 1  # strict refuses it; the note stays
    assert "did you mean 'add(1, 2)'?" in capsys.readouterr().out


def test_exec_jsonl_and_exec_json_give_the_decimal_beside_the_hex(capsys: pytest.CaptureFixture[str]) -> None:
    # issue #35: "result_repr" is CPython's repr of the float "result" holds in hex; null for a text result
    rows = [row for row in itertools.islice(vector_rows("fuzz"), 2000) if "table" in row]
    stdin = "".join(json.dumps({"program": r["program"], "table": r["table"]}) + "\n" for r in rows)
    status, lines = run_jsonl([], stdin)
    assert status == 0 and len(lines) == len(rows)
    records = [json.loads(line) for line in lines]
    floats = [record for record in records if "float" in record["result"]]
    assert len(floats) > 100 and any(record["result"].get("str") == "n/a" for record in records)
    for record in records:
        result = record["result"]
        expected = repr(float.fromhex(result["float"])) if "float" in result else None
        assert record["result_repr"] == expected
        assert list(record)[list(record).index("result") + 1] == "result_repr"
    assert main(["exec", "--json", "subtract(34.8, 1.2), divide(#0, 34.8)"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["result"] == {"float": (33.599999999999994 / 34.8).__round__(5).hex()}
    assert view["result_repr"] == repr(round(33.599999999999994 / 34.8, 5)) == "0.96552"
    assert main(["exec", "--json", "greater(1, 2)"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert (view["result"], view["result_repr"]) == ({"str": "no"}, None)
