"""`finscore finqa` on files: official lines, exit statuses, readable errors, the JSON report."""

from __future__ import annotations

from functools import partial

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.finqa.progress import ProgressBar, progress_bar
from support.cli import run_command, write_json
from support.shared import FINQA, require, vector_rows

from .fixtures import gold_file, good_predictions, prediction


_write = write_json
_run = partial(run_command, "finqa")


@pytest.fixture
def gold_path(tmp_path: Path) -> str:
    return _write(tmp_path / "gold.json", gold_file())


def test_clean_run_prints_the_official_lines(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "pred.json", good_predictions()[:2])
    status, out, _ = _run(capsys, predictions, gold_path, "--quiet")
    assert status == 0
    assert "All:  2\nExe acc:  1.0\nProg acc:  1.0\n" in out
    assert "execution accuracy  0.6666666666666666  (2/3)" in out  # 2 of 3 gold examples
    assert "missing: C" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"  \n", "is empty"),
        (b'[{"id": "A", "predicted": ["add(", ', "not valid JSON"),
        (b"\xff\xfe[]", "not UTF-8"),
        (b'{"id": "A", "predicted": []}', "not a JSON object"),
        (b"[]", "no predictions"),
        (b'[{"id": "A", "predicted": ["EOF"], "id": "B"}]', "entry 0 has the key 'id' twice"),  # issue #30
    ],
)
def test_unusable_prediction_file(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str],
                                  content: bytes, message: str) -> None:
    path = tmp_path / "pred.json"
    path.write_bytes(content)
    status, out, err = _run(capsys, str(path), gold_path, "--exclude-bad-ids")
    assert status == 2 and out == ""
    assert err.startswith("finscore finqa: ") and message in err


def test_missing_files(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, str(tmp_path / "nope.json"), gold_path)
    assert status == 2 and "cannot read the prediction file" in err
    status, _, err = _run(capsys, gold_path, str(tmp_path))
    assert status == 2 and "is a directory" in err


def test_bad_entries_stop_the_run_listing_them(tmp_path: Path, gold_path: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    entries = good_predictions() + [prediction("NOPE", "add(", "1", "2", ")"), prediction("A", "add(", "1", "2", ")"),
                                    {"id": "B", "predicted": ["divide(", 30, "50", ")", "EOF"]}]
    path = _write(tmp_path / "pred.json", entries)
    status, out, err = _run(capsys, path, gold_path)
    assert status == 2 and out == ""
    assert "'NOPE'" in err
    assert "'A' (entries 0, 4)" in err
    assert "entry 5 (id 'B'): token 1 of \"predicted\" is a JSON int, not text" in err


def test_bad_entries_excluded_with_the_flag(tmp_path: Path, gold_path: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    entries = good_predictions() + [prediction("NOPE", "add(", "1", "2", ")"), prediction("A", "add(", "1", "2", ")"),
                                    {"id": "B", "predicted": ["divide(", 30, "50", ")", "EOF"]}]
    path = _write(tmp_path / "pred.json", entries)
    out_json = tmp_path / "report.json"
    status, out, _ = _run(capsys, path, gold_path, "--exclude-bad-ids", "--json", str(out_json), "--quiet")
    assert status == 0
    report = json.loads(out_json.read_text(encoding="utf-8"))
    kinds = [(e["position"], e["kind"]) for e in report["exclusions"]]
    assert kinds == [(0, "duplicate_id"), (1, "duplicate_id"), (3, "unknown_id"), (4, "duplicate_id"),
                     (5, "malformed_entry")]
    assert report["counts"] == {"prediction_entries": 6, "scored_predictions": 1, "excluded_entries": 5,
                                "gold_examples": 3, "missing_predictions": 0, "excluded_predictions": 2,
                                "exceeded_bounds": 0}
    assert [row["category"] for row in report["examples"]] == ["excluded_prediction", "excluded_prediction", "correct"]
    assert "excluded unknown_id: entry 3 (id 'NOPE')" in out


def test_gold_file_that_is_not_finqa(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "pred.json", good_predictions())
    gold_programs = _write(tmp_path / "gold.json", [{"id": "A", "program": "subtract(100, 80)", "exe_ans": 20.0}])
    status, _, err = _run(capsys, predictions, gold_programs)
    assert status == 2 and "not FinQA" in err and "entry 0" in err


def test_json_to_standard_output(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "pred.json", good_predictions())
    status, out, _ = _run(capsys, predictions, gold_path, "--json", "-", "--profile", "strict", "--python", "3.12")
    assert status == 0
    report = json.loads(out)
    assert (report["profile"], report["python"]) == ("strict", "3.12")
    assert report["figures"]["strict"]["per_gold_example"]["execution_accuracy"] == {
        "correct": 3, "total": 3, "value": 1.0}


def test_usage_errors(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "pred.json", good_predictions())
    status, _, err = _run(capsys, predictions, gold_path, "--python", "three")
    assert status == 2 and "python version" in err
    status, _, err = _run(capsys, predictions, gold_path, "--examples", "-1")
    assert status == 2 and "--examples" in err
    with pytest.raises(SystemExit) as caught:
        main(["finqa", predictions, gold_path, "--profile", "lenient"])
    assert caught.value.code == 2


def test_help_documents_both_forms(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["finqa", "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "finscore finqa PREDICTIONS GOLD" in out and "finscore finqa equal-jsonl" in out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal() -> None:
    assert progress_bar(io.StringIO(), quiet=False) is None
    assert progress_bar(_Terminal(), quiet=True) is None
    stream = _Terminal()
    bar = progress_bar(stream, quiet=False)
    assert isinstance(bar, ProgressBar)
    bar("equivalence", 5, 10)
    bar("equivalence", 10, 10)
    assert "10/10 equivalence" in stream.getvalue()
    bar.close()
    assert stream.getvalue().endswith("\r")


def test_entry_point_on_the_official_example(tmp_path: Path) -> None:
    predictions = require(FINQA / "example_predictions.json")
    gold = require(FINQA / "finqa_test.json")
    out_json = tmp_path / "report.json"
    run = subprocess.run([sys.executable, "-m", "finscore", "finqa", str(predictions), str(gold),
                          "--json", str(out_json)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # not a terminal: no progress bar
    assert "All:  1050\nExe acc:  0.7\nProg acc:  0.6876190476190476\n" in run.stdout
    assert "(735/1147)" in run.stdout
    report = json.loads(out_json.read_text(encoding="utf-8"))
    assert report["counts"]["missing_predictions"] == 97


def test_equal_jsonl_form_against_recorded_decisions() -> None:
    rows = []
    for row in vector_rows("equal"):
        rows.append(row)
        if len(rows) == 300:
            break
    lines = "".join(json.dumps({"gold": r["gold"], "pred": r["pred"], "id": r["id"]}) + "\n" for r in rows)
    lines += "not json\n"
    run = subprocess.run([sys.executable, "-m", "finscore", "finqa", "equal-jsonl", "--explain"],
                         input=lines, capture_output=True, text=True, check=False)
    assert "Traceback" not in run.stderr
    assert run.returncode == 1  # the last line cannot be decided, and says so
    written = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(written) == len(rows) + 1
    assert [w["equal"] for w in written[:-1]] == [r["equal"] for r in rows]
    assert [w["id"] for w in written[:-1]] == [r["id"] for r in rows]
    assert all("equal_method" in w for w in written[:-1])
    assert "error" in written[-1] and "1 line(s) could not be decided" in run.stderr


def test_equal_jsonl_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["finqa", "equal-jsonl", "--help"])
    assert caught.value.code == 0
    assert "finscore finqa equal-jsonl" in capsys.readouterr().out


def test_swapped_files_are_detected_and_said(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    predictions = _write(tmp_path / "pred.json", good_predictions())
    status, out, err = _run(capsys, gold_path, predictions)
    assert status == 2 and out == ""
    assert "the two files look swapped: PREDICTIONS is a FinQA gold file and GOLD a prediction file" in err
    status, _, err = _run(capsys, predictions, predictions)
    assert status == 2 and "GOLD looks like a prediction file" in err


def test_swapped_official_files_are_detected(capsys: pytest.CaptureFixture[str]) -> None:
    gold = str(require(FINQA / "finqa_test.json"))
    predictions = str(require(FINQA / "example_predictions.json"))
    status, _, err = _run(capsys, gold, predictions, "--quiet")
    assert status == 2 and "look swapped" in err and "has no table" not in err
