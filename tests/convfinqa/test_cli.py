"""`finscore convfinqa` end to end: ids, rejections, bad input, official stops, the example."""

from __future__ import annotations

from functools import partial

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from finscore.cli import main
from support.cli import run_command, write_json

from .fixtures import good_predictions, gold_file, prediction

REPOSITORY = Path(__file__).resolve().parents[2]
A, B = "Single_A/2019/page_1.pdf-1", "Double_B/2019/page_2.pdf"


_write = write_json
_run = partial(run_command, "convfinqa")


@pytest.fixture
def gold_path(tmp_path: Path) -> str:
    return _write(tmp_path / "gold.json", gold_file())


def test_a_clean_run(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, _write(tmp_path / "p.json", good_predictions()[:4]), gold_path, "--quiet")
    assert status == 0
    assert "All:  4\nExe acc:  1.0\nProg acc:  1.0\n" in out
    assert "execution accuracy  0.8  (4/5)" in out  # 4 of the 5 gold turns
    assert f"missing: {B}#t1" in out
    assert "execution 0.5000 (1/2)" in out  # one of the two conversations has every turn right


def test_the_turn_files_id_form_is_accepted(tmp_path: Path, gold_path: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    entries = good_predictions()
    entries[0]["id"] = f"{A}_0"
    entries[4]["id"] = f"{B}_1"
    status, out, _ = _run(capsys, _write(tmp_path / "p.json", entries), gold_path, "--quiet")
    assert status == 0 and "All:  5\nExe acc:  1.0\n" in out


def test_unknown_and_duplicate_ids_are_all_named(tmp_path: Path, gold_path: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    entries = good_predictions() + [
        prediction(f"{A}#t7", "1"), prediction("nope", "1"),
        prediction(f"{A}_1", "81"),  # the same turn as "#t1", in the other form, differently
        {"id": f"{B}#t0", "predicted": ["divide(", 30, "50", ")", "EOF"]},
    ]
    path = _write(tmp_path / "p.json", entries)
    status, out, err = _run(capsys, path, gold_path)
    assert status == 2 and out == ""
    for named in (f"'{A}#t7'", "'nope'", f"'{A}#t1' (entries 1, 7)", "entry 8", "token 1 of \"predicted\""):
        assert named in err
    status, out, _ = _run(capsys, path, gold_path, "--exclude-bad-ids", "--quiet")
    assert status == 0
    # #t1 (conflicting copies) and B#t0 (its copies conflict) are excluded: 3 scored predictions
    assert "execution per prediction 1.0  (3/3)" in out
    # the official block is evaluate_result on the file as given, which stops at the unknown id
    assert f"evaluate_result stops at entry 5 with KeyError: '{A}#t7'" in out and "All:  " not in out
    assert "excluded unknown_id" in out and "excluded duplicate_id" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b'[{"id": "x", "predicted": ["1", ', "not valid JSON"),
        (b"\xff\xfe[]", "not UTF-8"),
        (b'{"id": "x"}', "not a JSON object"),
        (b"[]", "no predictions"),
        (b"[" * 100_000 + b"]" * 100_000, "nests JSON too deeply"),
    ],
)
def test_unusable_prediction_files(tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str],
                                   content: bytes, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(content)
    status, out, err = _run(capsys, str(path), gold_path, "--exclude-bad-ids")
    assert status == 2 and out == ""
    assert err.startswith("finscore convfinqa: ") and message in err, err


def test_a_key_given_twice_is_refused_naming_the_key_and_the_entry(
        tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    # json.load would keep the last "predicted" silently; issue #30: one rule, the reading layer's
    good = good_predictions()
    text = json.dumps(good[:2])[:-1] + ', {"id": "%s", "predicted": ["1", "EOF"], "predicted": ["2", "EOF"]}]' % (
        good[2]["id"])
    path = tmp_path / "p.json"
    path.write_text(text, encoding="utf-8")
    for extra in ((), ("--exclude-bad-ids",)):
        status, out, err = _run(capsys, str(path), gold_path, *extra)
        assert status == 2 and out == ""
        assert err.startswith("finscore convfinqa: the prediction file ")
        assert "entry 2 has the key 'predicted' twice in one object" in err


def test_nan_and_wrong_shapes_are_named_entries_and_nothing_else_is_lost(
        tmp_path: Path, gold_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.json"
    good = good_predictions()
    text = json.dumps(good[:3])[:-1] + (', {"id": "%s#t0", "predicted": [NaN, "EOF"]}, ["x"], {"id": 5},'
                                         ' {"id": "%s#t1", "predicted": "table_max(revenue, none)"}]' % (B, B))
    path.write_text(text, encoding="utf-8")
    status, _, err = _run(capsys, str(path), gold_path)
    assert status == 2
    assert "entry 3 (id '%s#t0'): token 0 of \"predicted\" is a JSON float, not text" % B in err
    assert "entry 4: the entry is a JSON list, not an object" in err
    assert "entry 5: \"id\" is a JSON int, not text" in err
    assert "entry 6 (id '%s#t1'): \"predicted\" is a JSON text, not a list of tokens" % B in err
    status, out, _ = _run(capsys, str(path), gold_path, "--exclude-bad-ids", "--quiet", "--json", "-")
    report = json.loads(out)
    assert status == 0 and report["counts"]["scored_predictions"] == 3
    assert report["counts"]["excluded_entries"] == 4
    assert report["figures"]["convfinqa"]["per_prediction"]["execution_accuracy"]["value"] == 1.0


@pytest.mark.parametrize(
    ("gold", "message"),
    [
        ({"id": "x"}, "not a list of conversations"),
        ([], "no conversations"),
        ([{"id": "x", "table": []}], 'entry 0 has no "annotation" object'),
        ([{"id": "x", "table": [["a", "1"], 5], "annotation": {"turn_program": ["1"], "exe_ans_list": [1]}}],
         'entry 0 has a "table" row 1 that is a JSON int, not a list'),
        ([{"id": "x", "table": [], "annotation": {"turn_program": ["1"], "exe_ans_list": []}}],
         "one answer per turn"),
        ([{"id": "x", "table": [], "annotation": {"turn_program": ["1"], "exe_ans_list": [None]}}],
         "turn 0 has a gold answer that is a JSON null"),
        ([{"id": "x", "table": [], "annotation": {"turn_program": [1], "exe_ans_list": [1]}}],
         "turn_program\" list of text"),
        (gold_file() + gold_file()[:1], f"repeats 1 conversation id(s): '{A}' (entries 0 and 2)"),
    ],
)
def test_unusable_gold_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], gold: Any, message: str) -> None:
    predictions = _write(tmp_path / "p.json", good_predictions())
    status, out, err = _run(capsys, predictions, _write(tmp_path / "g.json", gold))
    assert status == 2 and out == "" and message in err, err


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path, gold_path: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate((1 << 30) + 1)  # sparse: nothing is written
    status, _, err = _run(capsys, str(path), gold_path)
    assert status == 2 and "more than the 1073741824 allowed" in err


def test_where_the_authors_assert_would_stop_the_run_it_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gold (1e16 + 1) + 1 and pred 1e16 + (1 + 1) are the same expression (sympy), but
    in floats 1e16 + 1 == 1e16 while 1e16 + 2 is exact: evaluate_result asserts."""
    gold = [{"id": "Single_C/2020/page_3.pdf-1", "table": [],
             "annotation": {"turn_program": ["add(1e16, 1), add(#0, 1)", "7"], "exe_ans_list": [1e16, 7.0]}}]
    predictions = [prediction("Single_C/2020/page_3.pdf-1#t0", "add(", "1", "1", ")", "add(", "1e16", "#0", ")"),
                   prediction("Single_C/2020/page_3.pdf-1#t1", "7")]
    status, out, _ = _run(capsys, _write(tmp_path / "p.json", predictions), _write(tmp_path / "g.json", gold),
                          "--quiet")
    assert status == 0
    assert "The official evaluator would have crashed at 1 prediction(s)" in out
    assert "Single_C/2020/page_3.pdf-1#t0: AssertionError" in out
    assert "All:  2\nExe acc:  0.5\nProg acc:  1.0\n" in out  # counted as evaluate_result counts it


def test_program_accuracy_counts_valid_programs_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """evaluate_result checks equal_program only when the prediction executed validly."""
    gold = [{"id": "Single_D/2020/page_4.pdf-1", "table": [],
             "annotation": {"turn_program": ["divide(5, 0)"], "exe_ans_list": [0.0]}}]
    predictions = [prediction("Single_D/2020/page_4.pdf-1#t0", "divide(", "5", "0", ")")]
    status, out, _ = _run(capsys, _write(tmp_path / "p.json", predictions), _write(tmp_path / "g.json", gold),
                          "--quiet")
    assert status == 0 and "Exe acc:  0.0\nProg acc:  0.0\n" in out
    assert "not-checked-invalid 1" in out


def test_the_shipped_example_runs_as_installed() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY / "python")}
    done = subprocess.run([sys.executable, "-m", "finscore", "convfinqa", "examples/convfinqa/predictions.json",
                           "examples/convfinqa/gold.json"], cwd=REPOSITORY, capture_output=True, text=True,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "Exe acc:" in done.stdout and "Conversations with every turn right:" in done.stdout


def test_the_example_is_what_its_script_makes(tmp_path: Path) -> None:
    import gzip
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_example", REPOSITORY / "examples/convfinqa/make_example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = REPOSITORY / "tests/data/convfinqa/convfinqa_dev.json.gz"
    gold, predictions = module.make(json.loads(gzip.decompress(source.read_bytes())))
    shipped = REPOSITORY / "examples/convfinqa"
    assert json.loads((shipped / "gold.json").read_text(encoding="utf-8")) == gold
    assert json.loads((shipped / "predictions.json").read_text(encoding="utf-8")) == predictions


def test_finqa_scoring_refuses_the_convfinqa_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = [{"id": "x", "table": [], "qa": {"program": "add(1, 2)", "exe_ans": 3.0}}]
    with pytest.raises(SystemExit) as stopped:  # argparse offers only the FinQA profiles
        main(["finqa", _write(tmp_path / "p.json", [prediction("x", "add(", "1", "2", ")")]),
              _write(tmp_path / "g.json", gold), "--profile", "convfinqa"])
    assert stopped.value.code == 2 and "invalid choice: 'convfinqa'" in capsys.readouterr().err
