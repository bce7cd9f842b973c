"""Every streaming command writes back exactly one line for every line it reads, whatever it holds.

`exec-jsonl`, `answers decide-jsonl`, `tatqa decide-jsonl` and `finqa equal-jsonl` read their
input through inputs/lines.py. Each is run here as a user runs it (a subprocess, standard input
as bytes, a strict UTF-8 standard input) on lines the audits of issue #30 sent: an empty line, a
1,000,000-digit integer (which CPython's json.loads refuses), bytes that are not UTF-8, lines that
are not objects, a key given twice, nesting deeper than the parser goes. The good lines around
them are still decided, every bad one is an "error" line, and the exit status is 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(REPOSITORY / "python"), PYTHONIOENCODING="utf-8:strict")

COMMANDS = {
    "exec-jsonl": (["exec-jsonl"], {"program": "add(1, 2)"}),
    "answers": (["answers", "decide-jsonl", "--protocol", "finqa-answer/1", "--format", "answer-line"],
                {"completion": "Answer: 3", "gold": {"exe_ans": 3.0}}),
    "tatqa": (["tatqa", "decide-jsonl"],
              {"gold": {"answer": "3", "answer_type": "arithmetic", "scale": ""}, "pred": ["3", ""]}),
    "equal": (["finqa", "equal-jsonl"],
              {"gold": ["add(", "1", "2", ")", "EOF"], "pred": ["add(", "2", "1", ")", "EOF"]}),
}

BAD_LINES = [b"", b"  \t", b"[" + b"1" * 1_000_000 + b"]", b'{"x": "\xff"}', b"[1, 2]", b"7", b"not json",
             b'{"a": 1, "a": 2}', b"[" * 100_000]


def _run(argv: list[str], data: bytes) -> tuple[int, list[bytes], str]:
    done = subprocess.run([sys.executable, "-m", "finscore", *argv], input=data, capture_output=True, env=ENV,
                          check=False, timeout=300)
    return done.returncode, done.stdout.split(b"\n")[:-1], done.stderr.decode()


def _decided(name: str, record: dict[str, object]) -> bool:
    return "error" not in record and any(key in record for key in ("result", "decision", "em", "equal"))


@pytest.mark.parametrize("name", COMMANDS)
def test_every_line_in_is_one_line_out(name: str) -> None:
    argv, good = COMMANDS[name]
    good_line = json.dumps(good).encode()
    lines = [good_line]
    for bad in BAD_LINES:
        lines += [bad, good_line]
    status, out, err = _run(argv, b"\n".join(lines) + b"\n")
    assert "Traceback" not in err
    assert status == 1 and len(out) == len(lines)
    records = [json.loads(line) for line in out]
    for number, record in enumerate(records, start=1):
        if number % 2:
            assert _decided(name, record), (number, record)
        else:
            assert "error" in record, (number, record)
            if name != "answers":  # answers decide-jsonl names a line by its text, as it always has
                assert record["line"] == number, record
    assert f"{len(BAD_LINES)} line(s)" in err


@pytest.mark.parametrize("name", COMMANDS)
def test_a_repeated_key_is_refused_naming_it(name: str) -> None:
    argv, good = COMMANDS[name]
    text = json.dumps(good)
    repeated = text[:-1] + ', "zz": 1, "zz": 2}'
    status, out, _ = _run(argv, f"{text}\n{repeated}\n".encode())
    assert status == 1 and len(out) == 2
    assert _decided(name, json.loads(out[0]))
    assert "the JSON object has the key 'zz' twice" in json.loads(out[1])["error"]


@pytest.mark.parametrize("name", COMMANDS)
def test_an_empty_line_is_an_error_line_that_keeps_the_numbers_aligned(name: str) -> None:
    argv, good = COMMANDS[name]
    line = json.dumps(good).encode()
    status, out, _ = _run(argv, line + b"\n\n" + line + b"\n")
    records = [json.loads(x) for x in out]
    assert status == 1 and len(records) == 3
    assert _decided(name, records[0]) and _decided(name, records[2])
    assert "an empty line (no JSON value)" in str(records[1]["error"])
    assert ("line 2" in str(records[1]["error"])) if name == "answers" else records[1]["line"] == 2


@pytest.mark.parametrize("name", COMMANDS)
def test_valid_lines_only_exit_0(name: str) -> None:
    argv, good = COMMANDS[name]
    status, out, _ = _run(argv, b"\xef\xbb\xbf" + json.dumps(good).encode() + b"\n")  # a BOM opening line 1 is dropped
    assert status == 0 and len(out) == 1 and _decided(name, json.loads(out[0]))
