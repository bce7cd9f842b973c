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

import shutil

import pytest

from finscore.cli import main
from finscore.contracts import KIT_DIRECTORY

INTEGRITY = {
    "integrity_unsealed", "integrity_seal_mismatch", "integrity_other_run", "integrity_replay_mismatch",
    "integrity_seal_retired", "integrity_run_unsealed", "integrity_run_truncated", "integrity_run_mismatch",
}


def run_agent(agent: str, out: Path, key: Path, *extra: str) -> list[dict[str, Any]]:
    argv = ["run", "--quiet", "--bootstrap", "20", "--agent", agent, "--out", str(out), "--key-file", str(key)]
    assert main([*argv, *extra]) == 0
    return read_lines(out / "predictions.jsonl")


#: The sealed run header and footer of every run read so far, by run id: `read_lines` returns the
#: prediction lines only, and `write_lines` puts back the frame of the run the first line names, as an
#: editor who keeps the file's first and last lines would.
FRAMES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}


def read_all(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def read_lines(path: Path) -> list[dict[str, Any]]:
    every = read_all(path)
    header, *lines, footer = every
    assert header["part"] == "header" and footer["part"] == "footer" and header["run_id"] == footer["run_id"]
    FRAMES[header["run_id"]] = (header, footer)
    return lines


def framed(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    run_id = next((line["seal"]["run_id"] for line in lines if isinstance(line.get("seal"), dict)), None)
    if run_id not in FRAMES:
        return lines
    header, footer = FRAMES[run_id]
    return [header, *lines, footer]


def write_raw(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    return write_raw(path, framed(lines))


def score(predictions: Path, *options: str, cases: str = "@kit") -> dict[str, Any]:
    out = predictions.with_suffix(".report.json")
    argv = ["contracts", cases, str(predictions), "--bootstrap", "20", "--output", str(out), *options]
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
    path.write_text("".join(json.dumps(line) + "\n" for line in framed(lines)), encoding="ascii")  # escaped
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
    lines = [json.dumps(line, ensure_ascii=False) for line in framed(oracle_run)]
    broken = oracle_run[2]
    assert lines[3].startswith("{")
    lines[3] = '{"status": ' + json.dumps(broken["status"]) + ", " + lines[3][1:]
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


# --- one canonical form (RFC 8785) and the seal over the run (issue #31) -------------------------


def _integer_argument(lines: list[dict[str, Any]]) -> tuple[int, str, int]:
    """A line, an argument name and its integer value: a number an editor can re-write as 5e0 or 5.0."""
    for index, line in enumerate(lines):
        for entry in line["trace"]["entries"]:
            for name, value in entry["arguments"].items():
                if isinstance(value, int) and not isinstance(value, bool):
                    return index, name, value
    raise AssertionError("no recorded call has an integer argument")


@pytest.mark.parametrize("written", ["{v}e0", "{v}.0", "{v}E+0"])
def test_a_number_written_another_way_fails_its_seal(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path, written: str
) -> None:
    """Issue #31: `5e0` for `5` kept the seal valid. Sealed bytes are RFC 8785 and a sealed line holds
    numbers in their canonical form only, so the same number written another way fails as integrity."""
    index, name, value = _integer_argument(oracle_run)
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in framed(oracle_run))
    plain = f'"{name}": {value}'
    line_text = json.dumps(oracle_run[index], ensure_ascii=False)
    assert plain in line_text
    edited_line = line_text.replace(plain, f'"{name}": {written.format(v=value)}', 1)
    path = tmp_path / "p.jsonl"
    path.write_text(text.replace(line_text, edited_line, 1), encoding="utf-8")
    report = score(path, "--key-file", str(key))
    case_id = oracle_run[index]["case_id"]
    assert codes_by_case(report)[case_id] == {"integrity_seal_mismatch"}
    assert any("canonical" in row["message"] for row in report["failures"] if row["case_id"] == case_id)
    assert critical_integrity(report, case_id) and report["counts"]["passed"] == 23


def test_a_line_of_the_retired_seal_format_is_refused_by_name(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    lines = json.loads(json.dumps(oracle_run))
    old = {name: value for name, value in lines[0]["seal"].items() if name != "scope"}
    lines[0]["seal"] = old | {"format": "finscore-seal/1"}
    report = score(write_lines(tmp_path / "p.jsonl", lines), "--key-file", str(key))
    rows = [row for row in report["failures"] if row["case_id"] == lines[0]["case_id"]]
    assert {row["code"] for row in rows} == {"integrity_seal_retired"}
    assert "finscore-seal/1" in rows[0]["message"] and critical_integrity(report, lines[0]["case_id"])


def test_the_audits_splice_of_four_runs_gains_nothing(key: Path, tmp_path: Path) -> None:
    """Issue #31: four sealed runs spliced, best line per case, gave 21/24 with no integrity failure.
    Now each run has its own runtime-chosen id bound by its header: a line of another run fails as
    integrity, and the splice scores no better than the run whose header it keeps."""
    base = run_agent("wrong_unit", tmp_path / "base", key)
    ids = [line["case_id"] for line in base]
    others = [run_agent("oracle", tmp_path / f"o{i}", key, *sum((["--only", c] for c in ids[i::3]), [])) for i in range(3)]
    base_report = json.loads((tmp_path / "base" / "report.json").read_text(encoding="utf-8"))
    runs = {line["seal"]["run_id"] for run in [base, *others] for line in run}
    assert len(runs) == 4
    best = {line["case_id"]: line for run in others for line in run}
    spliced = [best.get(line["case_id"], line) for line in base]
    frame = FRAMES[base[0]["seal"]["run_id"]]
    report = score(write_raw(tmp_path / "spliced.jsonl", [frame[0], *spliced, frame[1]]), "--key-file", str(key))
    assert report["counts"]["passed"] <= base_report["counts"]["passed"] < 24
    codes = codes_by_case(report)
    assert all("integrity_other_run" in codes[case_id] for case_id in best)
    assert all(critical_integrity(report, case_id) for case_id in best)
    # Framed by an oracle run's header instead: only that run's own lines can pass.
    donor = FRAMES[others[0][0]["seal"]["run_id"]]
    report = score(write_raw(tmp_path / "other-frame.jsonl", [donor[0], *spliced, donor[1]]), "--key-file", str(key))
    own = {line["case_id"] for line in others[0]}
    assert report["counts"]["passed"] <= len(own) == 8
    assert report["integrity"]["run_seal"]["code"] == "integrity_run_mismatch"
    codes = codes_by_case(report)
    assert all(codes[case_id] & INTEGRITY for case_id in codes if case_id not in own)


def test_deleting_attempts_of_a_sealed_run_fails_as_integrity(key: Path, tmp_path: Path) -> None:
    """Issue #31: deleting attempts 1-2 of a sealed three-attempt run went unnoticed (no attempt count
    was sealed). The header seals 3 attempts: the deleted ones fail as integrity, whether the scorer is
    told nothing or told `--attempts 1`."""
    cases = tmp_path / "cases"
    cases.mkdir()
    for case_id in ("cg-en", "fv-en"):
        shutil.copy(KIT_DIRECTORY / "cases" / f"{case_id}.json", cases / f"{case_id}.json")
    lines = run_agent("oracle", tmp_path / "run", key, "--attempts", "3", "--cases", str(cases))
    assert sorted({line["attempt"] for line in lines}) == [0, 1, 2]
    kept = [line for line in lines if line["attempt"] == 0]
    path = write_lines(tmp_path / "deleted.jsonl", kept)
    assert score(write_lines(tmp_path / "whole.jsonl", lines), "--key-file", str(key), cases=str(cases))[
        "counts"
    ]["passed"] == 6
    report = score(path, "--key-file", str(key), cases=str(cases))
    assert report["attempts_per_case"] == 3 and report["counts"]["passed"] == 2
    deleted = [row for row in report["failures"] if row["code"] == "integrity_run_mismatch"]
    assert sorted((row["case_id"], row["attempt"]) for row in deleted) == sorted(
        (case_id, attempt) for case_id in ("cg-en", "fv-en") for attempt in (1, 2)
    )
    assert all(row["critical"] for row in deleted)
    told = score(path, "--key-file", str(key), "--attempts", "1", cases=str(cases))
    assert told["counts"]["passed"] == 0 and told["integrity"]["run_seal"]["code"] == "integrity_run_mismatch"
    assert "3 attempt(s)" in told["integrity"]["run_seal"]["problem"]
    # Sealed for these two cases: the whole kit holds them unchanged; a set without one of them does not.
    kit = score(write_lines(tmp_path / "whole-kit.jsonl", lines), "--key-file", str(key))
    assert kit["counts"]["passed"] == 6 and kit["integrity"]["run_seal"]["status"] == "verified"
    (cases / "fv-en.json").unlink()
    one = tmp_path / "one.jsonl"
    write_lines(one, [line for line in lines if line["case_id"] == "cg-en"])
    fewer = score(one, "--key-file", str(key), cases=str(cases))
    assert fewer["counts"]["passed"] == 0 and "case set" in fewer["integrity"]["run_seal"]["problem"]


@pytest.mark.parametrize("cut", ["footer", "lines", "mid-line"])
def test_a_truncated_run_fails_every_attempt_as_integrity(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path, cut: str
) -> None:
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in framed(oracle_run))
    lines = text.splitlines(keepends=True)
    truncated = {
        "footer": "".join(lines[:-1]),
        "lines": "".join(lines[:13]),
        "mid-line": "".join(lines[:13]) + lines[13][: len(lines[13]) // 2],
    }[cut]
    path = tmp_path / "p.jsonl"
    path.write_text(truncated, encoding="utf-8")
    report = score(path, "--key-file", str(key))
    assert report["counts"]["passed"] == 0 and report["counts"]["critical"] == 24
    assert report["integrity"]["run_seal"]["code"] == "integrity_run_truncated"
    assert all("integrity_run_truncated" in codes or codes & INTEGRITY for codes in codes_by_case(report).values())


def test_a_run_without_its_header_and_footer_or_re_ordered_fails(
    oracle_run: list[dict[str, Any]], key: Path, tmp_path: Path
) -> None:
    """The seal's scope ("run") is sealed too: stripping the frame does not make lines stand alone."""
    report = score(write_raw(tmp_path / "bare.jsonl", oracle_run), "--key-file", str(key))
    assert report["counts"]["passed"] == 0 and report["integrity"]["run_seal"]["code"] == "integrity_run_unsealed"
    swapped = json.loads(json.dumps(oracle_run))
    swapped[0], swapped[1] = swapped[1], swapped[0]
    report = score(write_lines(tmp_path / "swapped.jsonl", swapped), "--key-file", str(key))
    assert report["counts"]["passed"] == 0 and report["integrity"]["run_seal"]["code"] == "integrity_run_mismatch"


def test_a_run_id_given_by_hand_names_one_run_per_key(
    tmp_path: Path, key: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The audit spliced four runs sealed under one `--run-id`. An id given by hand is now used once per
    key; and were the record of used ids deleted, the footer's chain still tells the runs apart."""
    own_key = tmp_path / "own.key"
    first = run_agent("oracle", tmp_path / "a", own_key, "--run-id", "0123abcd", "--no-score")
    argv = ["run", "--quiet", "--agent", "wrong_unit", "--out", str(tmp_path / "b"), "--key-file", str(own_key)]
    assert main([*argv, "--run-id", "0123abcd", "--no-score"]) == 2
    assert "the run id '0123abcd' was already used with the key" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()
    (tmp_path / "own.key.runs").unlink()  # what an evaluator splicing runs by hand would have to do
    second = run_agent("wrong_unit", tmp_path / "b", own_key, "--run-id", "0123abcd", "--no-score")
    assert {line["seal"]["run_id"] for line in first + second} == {"0123abcd"}
    spliced = [first[0], *second[1:]]  # one line of the other run, same id
    report = score(write_raw(tmp_path / "p.jsonl", framed(spliced)), "--key-file", str(own_key))
    assert report["integrity"]["run_seal"]["code"] == "integrity_run_mismatch"
    assert report["counts"]["passed"] == 0 and report["counts"]["critical"] == 24
