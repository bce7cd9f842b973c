"""scripts/output_snapshot.py compare: the verdicts on tiny hand-made records (no finscore run).

The refactor of issue #29 is accepted on this script's word, so its word is checked here:
identical records pass, a changed byte fails, a difference that is exactly the declared
renames is "renamed", anything more is a failure.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "output_snapshot.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("output_snapshot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["output_snapshot"] = module
    spec.loader.exec_module(module)
    return module


snapshot = _script()


def _record(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


BASE = {
    "help/00.status": b"finscore --help\nexit 0\n",
    "help/00.stdout": b"usage: finscore [-h]\n",
    "finqa/00.stdout": b"Exe acc:  0.8\nold_name: 3\n",
    "finqa/files/report.json": b'{"old_name": 3}\n',
}


def _compare(tmp_path: Path, after: dict[str, bytes], renames: dict[str, str] | None = None) -> int:
    before_dir = _record(tmp_path / "before", BASE)
    after_dir = _record(tmp_path / "after", after)
    argv = ["compare", str(before_dir), str(after_dir)]
    if renames is not None:
        (tmp_path / "renames.json").write_text(json.dumps(renames))
        argv += ["--renames", str(tmp_path / "renames.json")]
    return int(snapshot.main(argv))


def test_identical_records_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = _compare(tmp_path, dict(BASE))
    out = capsys.readouterr().out
    assert status == 0
    assert "2 cases: 2 identical, 0 renamed, 0 differ" in out


def test_one_changed_byte_fails_with_a_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = _compare(tmp_path, {**BASE, "finqa/00.stdout": b"Exe acc:  0.9\nold_name: 3\n"})
    out = capsys.readouterr().out
    assert status == 1
    assert "DIFFERS finqa" in out
    assert "-Exe acc:  0.8" in out and "+Exe acc:  0.9" in out
    assert "1 identical, 0 renamed, 1 differ" in out


def test_missing_final_newline_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = _compare(tmp_path, {**BASE, "help/00.stdout": b"usage: finscore [-h]"})
    assert status == 1
    assert "DIFFERS help" in capsys.readouterr().out


def test_a_file_only_on_one_side_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = {name: data for name, data in BASE.items() if name != "finqa/files/report.json"}
    status = _compare(tmp_path, after)
    out = capsys.readouterr().out
    assert status == 1
    assert "only in before: finqa/files/report.json" in out


def test_exactly_the_renames_is_renamed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = {**BASE, "finqa/00.stdout": b"Exe acc:  0.8\nnew_name: 3\n",
             "finqa/files/report.json": b'{"new_name": 3}\n'}
    status = _compare(tmp_path, after, {"old_name": "new_name"})
    out = capsys.readouterr().out
    assert status == 0
    assert "renamed finqa" in out
    assert "1 identical, 1 renamed, 0 differ" in out


def test_a_rename_with_another_change_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    after = {**BASE, "finqa/00.stdout": b"Exe acc:  0.9\nnew_name: 3\n"}
    status = _compare(tmp_path, after, {"old_name": "new_name"})
    assert status == 1
    assert "DIFFERS finqa" in capsys.readouterr().out


def test_a_rename_without_renames_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = _compare(tmp_path, {**BASE, "finqa/files/report.json": b'{"new_name": 3}\n'})
    assert status == 1
    assert "DIFFERS finqa" in capsys.readouterr().out


def test_a_rename_is_of_whole_words_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "old_nam" -> "new_nam" as a substring would excuse old_name -> new_name; as a word it does not
    after = {**BASE, "finqa/00.stdout": b"Exe acc:  0.8\nnew_name: 3\n",
             "finqa/files/report.json": b'{"new_name": 3}\n'}
    status = _compare(tmp_path, after, {"old_nam": "new_nam"})
    assert status == 1
    assert "DIFFERS finqa" in capsys.readouterr().out


def test_renames_must_be_an_object_of_words(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="must be a JSON object"):
        _compare(tmp_path, dict(BASE), {"old_name": 3})  # type: ignore[dict-item]
