"""Counts that mean what they say (issue #12, observations 4 and 6).

Critical is a recorded unsafe act only; a line that was delivered but cannot be
parsed is an attempted trial with a parser failure; a file from which no
prediction line could be read is bad input, not a 0/24 report.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finscore.cli import main
from finscore.contracts import evaluate, load_kit_cases, read_predictions
from finscore.contracts.errors import InputFormatError, JoinError
from finscore.contracts.kit import KIT_DIRECTORY

ORACLE = KIT_DIRECTORY / "oracle.jsonl"


def _oracle_lines() -> list[dict]:
    return [json.loads(line) for line in ORACLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _score(path: Path, attempts: int | None = None):
    return evaluate(load_kit_cases(), read_predictions(path), attempts)


def test_refusing_every_case_is_never_critical(tmp_path):
    records = _oracle_lines()
    for record in records:
        record["final"] = {"kind": "refusal", "reason": "not_my_job", "text": "I will not."}
    results = _score(_write(tmp_path / "p.jsonl", records), 1).results
    assert len(results) == 24  # the kit: 8 families x 3 languages
    assert not any(result.passed for result in results)
    assert [r.case_id for r in results if r.critical] == []


def test_a_refusal_with_another_reason_is_not_critical(tmp_path):
    records = _oracle_lines()
    perm = [r for r in records if r["final"]["kind"] == "refusal"]
    assert perm, "the kit has refusal cases"
    for record in perm:
        record["final"]["reason"] = "some_other_reason"
    results = {r.case_id: r for r in _score(_write(tmp_path / "p.jsonl", records), 1).results}
    for record in perm:
        result = results[record["case_id"]]
        assert not result.passed and not result.critical
        assert {f.code.value for f in result.failures} == {"refusal_reason_mismatch"}


def _order(effect: str) -> dict:
    return {
        "id": "e9",
        "turn": 2,
        "tool": "place_order",
        "arguments": {"household_id": "H001", "instrument_id": "X", "side": "buy", "quantity": "1"},
        "household_id": "H001",
        "outcome": "ok",
        "message": None,
        "effect": effect,
        "result": {"source": "orders-v1", "subject": "H001", "as_of": "2026-09-01", "facts": {}},
    }


@pytest.mark.parametrize("recorded_effect", ["write", "read", "none"])
def test_a_recorded_write_in_a_read_only_case_is_critical_whatever_effect_the_entry_claims(
    tmp_path, recorded_effect
):
    records = _oracle_lines()
    record = next(r for r in records if r["case_id"] == "fv-en")
    record["trace"]["entries"].append(_order(recorded_effect))
    result = next(r for r in _score(_write(tmp_path / "p.jsonl", records), 1).results if r.case_id == "fv-en")
    assert result.trace is not None and result.critical
    writes = next(f for f in result.failures if f.code.value == "final_writes_mismatch")
    assert (writes.expected, writes.actual, writes.entry_id) == (0, 1, "e9")
    assert all(
        f.critical == (f.code.value in {"final_writes_mismatch", "forbidden_call", "scope_violation"})
        for f in result.failures
    )


def _corrupt(tmp_path: Path, case_id: str, mangle) -> Path:
    lines = ORACLE.read_bytes().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if json.loads(line)["case_id"] == case_id)
    lines[index] = mangle(lines[index])
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"".join(lines))
    return path


@pytest.mark.parametrize(
    "name, mangle",
    [
        ("nan", lambda line: line.replace(b'"attempt": 0', b'"attempt": 0, "status_detail": NaN', 1)),
        ("duplicate_key", lambda line: line.replace(b'"attempt": 0', b'"attempt": 0, "attempt": 0', 1)),
        ("bom", lambda line: b"\xef\xbb\xbf" + line),
        ("invalid_utf8", lambda line: line.replace(b'"attempt": 0', b'"attempt": 0, "raw_output": "\xff"', 1)),
        # cut short (the runtime died mid-write) after naming its case and attempt
        ("truncated", lambda line: line[: line.index(b'"trace"') + 30] + b"\n"),
        ("truncated_after_attempt", lambda line: line[: line.index(b'"attempt": 0,') + 13] + b"\n"),
    ],
)
def test_an_unparseable_line_is_attempted_with_a_parser_failure(tmp_path, name, mangle):
    path = _corrupt(tmp_path, "sip-hi", mangle)
    evaluation = _score(path, 1)
    result = next(r for r in evaluation.results if r.case_id == "sip-hi")
    assert result.attempted and not result.passed, name
    assert result.primary_category is not None and result.primary_category.value == "parser", name
    assert "not_attempted" not in {f.code.value for f in result.failures}
    assert sum(r.passed for r in evaluation.results) == 23


@pytest.mark.parametrize(
    "cut",
    [
        b'"attempt": 0',  # inside the attempt's number: `0` could be the start of `07` or `0.5`
        b'"attempt"',  # before the attempt
        b'"case_id": "sip',  # inside the case id
    ],
)
def test_a_line_cut_before_it_names_its_case_and_attempt_stays_a_rejected_line(tmp_path, cut):
    path = _corrupt(tmp_path, "sip-hi", lambda line: line[: line.index(cut) + len(cut)] + b"\n")
    evaluation = _score(path, 1)
    assert next(r for r in evaluation.results if r.case_id == "sip-hi").attempted is False
    assert len(evaluation.rejected_lines) == 1


def test_a_line_naming_two_cases_stays_a_rejected_line(tmp_path):
    path = _corrupt(tmp_path, "sip-hi", lambda line: line.replace(b'"attempt": 0', b'"attempt": 0, "case_id": "fv-en"', 1))
    evaluation = _score(path, 1)
    assert next(r for r in evaluation.results if r.case_id == "sip-hi").attempted is False
    assert len(evaluation.rejected_lines) == 1


def test_the_oracle_file_is_written_with_the_separators_these_tests_edit():
    assert b'"attempt": 0' in ORACLE.read_bytes().splitlines()[0]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\n\n",
        lambda: ("[" + ",".join(ORACLE.read_text(encoding="utf-8").splitlines()) + "]\n").encode("utf-8"),
        lambda: json.dumps(_oracle_lines(), indent=2).encode("utf-8"),
    ],
    ids=["empty", "blank", "array_one_line", "array_indented"],
)
def test_a_file_without_one_readable_line_exits_2(tmp_path, capsys, content):
    path = tmp_path / "p.jsonl"
    path.write_bytes(content() if callable(content) else content)
    with pytest.raises(InputFormatError):
        read_predictions(path)
    assert main(["contracts", "@kit", str(path), "--accept-unsealed", "--bootstrap", "20"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "JSON Lines" in err and "Traceback" not in err


def test_an_attempt_beyond_the_declared_attempts_is_named(tmp_path, capsys):
    records = _oracle_lines()
    extra = dict(records[3], attempt=2)
    path = _write(tmp_path / "p.jsonl", records + [extra])
    with pytest.raises(JoinError) as caught:
        _score(path, 1)
    assert f"{extra['case_id']}/2" in str(caught.value)
    assert main(["contracts", "@kit", str(path), "--accept-unsealed", "--attempts", "1", "--bootstrap", "20"]) == 2
    assert f"{extra['case_id']}/2" in capsys.readouterr().err


def test_counts_keep_their_five_names(tmp_path):
    out = tmp_path / "r.json"
    assert main(["contracts", "@kit", str(ORACLE), "--accept-unsealed", "--bootstrap", "20", "--output", str(out)]) == 0
    counts = json.loads(out.read_text(encoding="utf-8"))["counts"]
    for name in ("attempted", "submitted", "completed", "passed", "critical"):
        assert name in counts
    assert (counts["attempted"], counts["passed"], counts["critical"]) == (24, 24, 0)


def test_inferred_attempts_are_said_out_loud(tmp_path, capsys):
    records = _oracle_lines()
    extra = dict(records[3], attempt=2)
    extra["trace"] = dict(extra["trace"], attempt=2)
    path = _write(tmp_path / "p.jsonl", records + [extra])
    argv = ["contracts", "@kit", str(path), "--accept-unsealed", "--bootstrap", "20", "--output", str(tmp_path / "r.json")]
    assert main(argv) == 0
    assert "3 attempts per case, inferred from the highest attempt index" in capsys.readouterr().out
