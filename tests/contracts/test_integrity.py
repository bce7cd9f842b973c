"""Sealed traces: an edited, re-ordered, copied or cross-run line fails as integrity, critical.

Each test does what an adversarial user would do to a predictions file written
by `finscore run`, then scores it with `finscore contracts` and the key. The
expected verdicts come from the issue (#12): before sealing, deleting the
recorded place_order entries gave 24/24 passed and 0 critical.
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any, Callable

import pytest

from finscore.cli import main

INTEGRITY = {"integrity_unsealed", "integrity_seal_mismatch", "integrity_other_run", "integrity_replay_mismatch"}


def run_agent(agent: str, out: Path, key: Path, *extra: str) -> list[dict[str, Any]]:
    argv = ["run", "--quiet", "--bootstrap", "20", "--agent", agent, "--out", str(out), "--key-file", str(key)]
    assert main([*argv, *extra]) == 0
    return read_lines(out / "predictions.jsonl")


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def score(predictions: Path, *options: str) -> dict[str, Any]:
    out = predictions.with_suffix(".report.json")
    argv = ["contracts", "@kit", str(predictions), "--bootstrap", "20", "--output", str(out), *options]
    assert main(argv) == 0
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def codes_by_case(report: dict[str, Any]) -> dict[str, set[str]]:
    codes: dict[str, set[str]] = {row["case_id"]: set() for row in report["outcomes"]}
    for row in report["failures"]:
        codes[row["case_id"]].add(row["code"])
    return codes


def critical_integrity(report: dict[str, Any], case_id: str) -> bool:
    rows = [row for row in report["failures"] if row["case_id"] == case_id and row["code"] in INTEGRITY]
    return bool(rows) and all(row["category"] == "runtime" and row["critical"] for row in rows)


@pytest.fixture(scope="module")
def key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("keys") / "trace.key"


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory: pytest.TempPathFactory, key: Path) -> list[dict[str, Any]]:
    return run_agent("oracle", tmp_path_factory.mktemp("oracle"), key)


def test_the_key_is_created_private_and_never_written_into_an_output(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    secret = key.read_text(encoding="ascii").strip()
    run_agent("oracle", tmp_path, key, "--only", oracle_run[0]["case_id"])
    for path in tmp_path.iterdir():
        assert secret not in path.read_text(encoding="utf-8"), path.name


def test_an_oracle_run_verifies_24_of_24(oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path) -> None:
    report = score(write_lines(tmp_path / "p.jsonl", oracle_run), "--key-file", str(key))
    assert report["counts"]["passed"] == 24 and report["counts"]["critical"] == 0
    assert report["integrity"]["seals"] == "verified" and report["integrity"]["attempts_failing_integrity"] == 0
    assert "warning" not in report


def _edit_result(line: dict[str, Any]) -> None:
    entry = line["trace"]["entries"][0]
    if entry["result"] is not None:
        entry["result"]["subject"] += " (edited)"
    else:
        entry["message"] = (entry["message"] or "") + " (edited)"


def _edit_arguments(line: dict[str, Any]) -> None:
    line["trace"]["entries"][0]["arguments"]["edited"] = True


def _drop_entry(line: dict[str, Any]) -> None:
    del line["trace"]["entries"][0]


def _add_entry(line: dict[str, Any]) -> None:
    line["trace"]["entries"].append(dict(line["trace"]["entries"][0], id="e99"))


EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "result": _edit_result,
    "arguments": _edit_arguments,
    "dropped": _drop_entry,
    "added": _add_entry,
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_editing_any_entry_fails_that_attempt_as_integrity_critical(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path, edit: str
) -> None:
    lines = json.loads(json.dumps(oracle_run))
    edited = set()
    for line in lines:
        if line["trace"]["entries"]:
            EDITS[edit](line)
            edited.add(line["case_id"])
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert edited and all(critical_integrity(report, case_id) for case_id in edited)
    codes = codes_by_case(report)
    assert all(not codes[case_id] for case_id in codes if case_id not in edited)
    assert report["counts"]["critical"] == len(edited) and report["counts"]["passed"] == 24 - len(edited)


def test_editing_the_answer_or_the_status_fails_as_integrity(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    lines = json.loads(json.dumps(oracle_run))
    lines[0]["final"]["text"] = "edited"
    lines[1]["status_detail"] = "edited"
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert critical_integrity(report, lines[0]["case_id"]) and critical_integrity(report, lines[1]["case_id"])


def test_a_lone_surrogate_edited_into_a_sealed_line_fails_as_integrity(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    """JSON can escape a lone surrogate into a forged line ("\\ud800"): the line fails its seal
    like any other edit; the scorer neither crashes nor loses the other lines."""
    lines = json.loads(json.dumps(oracle_run))
    lines[0]["final"]["text"] = "edited \ud800"
    lines[1]["status_detail"] = "\udfff"
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="ascii")  # escaped, as JSON allows
    report = score(path, "--key-file", str(key))
    assert critical_integrity(report, lines[0]["case_id"]) and critical_integrity(report, lines[1]["case_id"])
    assert report["counts"]["passed"] == 22


def test_deleting_the_recorded_orders_no_longer_passes(key: Path, tmp_path: Path) -> None:
    """Observation 1 of issue #12: edit out place_order, score: it used to give 24/24, 0 critical."""
    lines = run_agent("write_in_read_only", tmp_path / "run", key)
    report_before = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    ordered = {line["case_id"] for line in lines if any(e["tool"] == "place_order" for e in line["trace"]["entries"])}
    assert ordered and report_before["counts"]["critical"] >= len(ordered)
    for line in lines:
        line["trace"]["entries"] = [e for e in line["trace"]["entries"] if e["tool"] != "place_order"]
    report = score(write_lines(tmp_path / "edited.jsonl", lines), "--key-file", str(key))
    assert all(critical_integrity(report, case_id) for case_id in ordered)
    assert report["counts"]["critical"] >= len(ordered) and report["counts"]["passed"] == 24 - len(ordered)
    assert {"attempted", "submitted", "completed", "passed", "critical"} <= set(report["counts"])


def test_a_reordered_trace_fails_as_integrity(key: Path, tmp_path: Path) -> None:
    lines = run_agent("write_in_read_only", tmp_path / "run", key, "--no-score")
    line = next(line for line in lines if len(line["trace"]["entries"]) >= 2)
    entries = line["trace"]["entries"]
    entries[0], entries[1] = entries[1], entries[0]
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert critical_integrity(report, line["case_id"])
    assert any("re-ordered" in row["message"] for row in report["failures"] if row["case_id"] == line["case_id"])


def test_a_trace_copied_from_another_case_fails_as_integrity(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    lines = json.loads(json.dumps(oracle_run))
    donor = lines[0]
    target, sealed = [line for line in lines if line["trace"]["entries"] != donor["trace"]["entries"]][:2]
    target["trace"]["entries"] = donor["trace"]["entries"]  # the trace alone
    sealed["seal"], sealed["trace"]["entries"] = donor["seal"], donor["trace"]["entries"]  # with its seal
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert critical_integrity(report, target["case_id"]) and critical_integrity(report, sealed["case_id"])


def test_a_line_from_another_run_fails_as_integrity(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    other = run_agent("oracle", tmp_path / "other", key, "--only", oracle_run[5]["case_id"])
    lines = json.loads(json.dumps(oracle_run))
    lines[5] = other[0]
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert codes_by_case(report)[lines[5]["case_id"]] == {"integrity_other_run"}
    assert critical_integrity(report, lines[5]["case_id"]) and report["counts"]["passed"] == 23


def test_a_seal_under_another_key_or_no_seal_fails(oracle_run: list[dict[str, Any]], tmp_path: Path) -> None:
    lines = json.loads(json.dumps(oracle_run))
    del lines[3]["seal"]
    other_key = tmp_path / "other.key"
    other_key.write_text(secrets.token_hex(32), encoding="ascii")
    other_key.chmod(0o600)
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(other_key))
    assert report["counts"]["passed"] == 0 and report["counts"]["critical"] == 24
    assert codes_by_case(report)[lines[3]["case_id"]] == {"integrity_unsealed"}


def test_accepting_unsealed_traces_says_so_first_and_still_replays(
    oracle_run: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = json.loads(json.dumps(oracle_run))
    line = next(line for line in lines if any(e["result"] and e["result"]["facts"] for e in line["trace"]["entries"]))
    entry = next(e for e in line["trace"]["entries"] if e["result"] and e["result"]["facts"])
    fact = next(iter(entry["result"]["facts"].values()))
    fact["value"] = str(int(float(fact["value"])) + 1)
    predictions = write_lines(tmp_path / "p.jsonl", lines)
    report = score(predictions, "--accept-unsealed")
    assert predictions.with_suffix(".report.json").read_text(encoding="utf-8").splitlines()[1].startswith(
        '  "warning": "TRACES WERE NOT VERIFIED'
    )
    assert capsys.readouterr().out.startswith("TRACES WERE NOT VERIFIED")
    replayed = [r for r in report["failures"] if r["code"] == "integrity_replay_mismatch"]
    assert [(r["case_id"], r["critical"]) for r in replayed] == [(line["case_id"], True)]


def test_a_sealed_line_made_unparseable_is_attempted_and_unsealed(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    """A delivered line that is not exact JSON (a repeated key) is read leniently only to name its
    attempt: there is no canonical form for its seal to cover, so it fails as unsealed, and the
    scorer goes on with the other lines."""
    lines = [json.dumps(line, ensure_ascii=False) for line in oracle_run]
    broken = oracle_run[2]
    assert lines[2].startswith("{")
    lines[2] = '{"status": ' + json.dumps(broken["status"]) + ", " + lines[2][1:]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = score(predictions, "--key-file", str(key))
    assert codes_by_case(report)[broken["case_id"]] == {"record_malformed", "integrity_unsealed"}
    assert critical_integrity(report, broken["case_id"])
    assert report["counts"]["attempted"] == 24 and report["counts"]["passed"] == 23
    assert report["predictions"]["rejected_lines"] == []


def test_the_seal_covers_the_producer(oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path) -> None:
    """`finscore run` writes the producer before sealing: passing a scripted run off as a model's fails."""
    assert all(line["producer"] == {"kind": "scripted_agent", "name": "oracle"} for line in oracle_run)
    lines = json.loads(json.dumps(oracle_run))
    lines[4]["producer"] = {"kind": "model", "endpoint": "http://127.0.0.1:9/v1", "model": "m"}
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    assert codes_by_case(report)[lines[4]["case_id"]] == {"integrity_seal_mismatch"}
    assert critical_integrity(report, lines[4]["case_id"]) and report["counts"]["passed"] == 23
