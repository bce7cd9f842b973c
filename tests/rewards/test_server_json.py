"""The reward server's stepped JSON reading against CPython's `json.loads`, the oracle, on the same bytes.

Every body gives the value `json.loads` gives (compared by repr, so 1 and 1.0 and True differ, and
NaN equals NaN) or the exception `json.loads` raises (its type and message, position included),
and the stepped path lets another thread run while it reads a large body.
"""

from __future__ import annotations

import json
import random
import threading
import time
from typing import Any, Iterator

import pytest

from finscore.rewards.adapters import server_json

SEEDS = [
    b'{"query": ["Q0: add(1, 2)", "Q1: x"], "prompts": ["Q0: ", "Q1: "], "labels": ["{\\"exe_ans\\": 3.0}", "{}"]}',
    b'{"a": [1, -2, 3.5, 1e5, -0.0, 1E-3, 12345678901234567890], "b": {"c": [true, false, null]}, "a": 7}',
    b'[NaN, Infinity, -Infinity, "\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\", "\xc3\xa9", [], {}, [[]], [{}]]',
    b' \t\n\r{ "k" : [ 1 , { "x" : [ ] } ] } \n',
    b'"just a string"',
    b"123",
    b"[1, 2, 3]",
    b'{"": "", "\\u0000": 0}',
]
#: Characters a mutation may insert or put in place of another: JSON's own and some it refuses.
ALPHABET = list('{}[]:,"\\ 0123456789.eE+-tfnaNIu\x00\x01\t\n') + ["\u0661", "\u00e9", "\ud800"]


def _outcome(function: Any, body: bytes) -> tuple[str, str]:
    try:
        return "value", repr(function(body))
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, the int digit limit
        return type(error).__name__, str(error)
    except RecursionError:  # its words name the C function that gave up; the server says its own
        return "RecursionError", ""


def _mutants(seed: bytes, rng: random.Random) -> Iterator[bytes]:
    yield seed
    for cut in range(len(seed)):
        yield seed[:cut]
    text = seed.decode("utf-8")
    for _ in range(150):
        at = rng.randrange(len(text) + 1)
        character = rng.choice(ALPHABET)
        kind = rng.randrange(3)
        if kind == 0:
            mutant = text[:at] + character + text[at:]
        elif kind == 1:
            mutant = text[:at] + character + text[at + 1:]
        else:
            mutant = text[:at] + text[at + 1:]
        yield mutant.encode("utf-8", "surrogatepass")


def _bodies() -> list[bytes]:
    rng = random.Random(30)
    bodies = [mutant for seed in SEEDS for mutant in _mutants(seed, rng)]
    bodies += [
        b"", b" ", b"\xef\xbb\xbf[1]", b"\xef\xbb\xbf\xef\xbb\xbf[1]", "[\"\u00e9\"]".encode("utf-16"),
        "[\"\u00e9\"]".encode("utf-32-le"), "{\"a\": 1}".encode("utf-16-be"), b'["\xff"]', b'["\xed\xa0\x80"]',
        b"[" + b"9" * 5000 + b"]", b"[1.5" + b"0" * 5000 + b"]", b"[1e999, -1e999]", b"[01]", b"[1,]",
        b'{"a": 1,}', b'{"a" 1}', b"{1: 2}", b"[1 2]", b"[\"a\x01\"]", b"[] []", b"[-]", b"[.5]",
        b"[" * 200 + b"]" * 200, b"[" * 50_000 + b"]" * 50_000, b'{"a": ' * 30 + b"1" + b"}" * 30,
    ]
    return bodies


@pytest.fixture()
def stepped_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every body, however small, read in steps."""
    monkeypatch.setattr(server_json, "STEPPED_BYTES", -1)


def test_stepped_reading_equals_json_loads(stepped_everywhere: None) -> None:
    bodies = _bodies()
    assert len(bodies) > 1500
    outcomes = [(_outcome(json.loads, body), _outcome(server_json.loads_body, body)) for body in bodies]
    assert [mine for _, mine in outcomes] == [oracle for oracle, _ in outcomes]
    kinds = {oracle[0] for oracle, _ in outcomes}
    assert {"value", "JSONDecodeError", "UnicodeDecodeError", "RecursionError"} <= kinds  # both sides covered


def test_a_large_body_is_read_in_steps_and_equals_json_loads() -> None:
    rows = [f"Q{i}: subtract({i}, 1.5), divide(#0, {i + 1})" for i in range(40_000)]
    body = json.dumps({"query": rows, "prompts": [f"Q{i}: " for i in range(40_000)],
                       "labels": [json.dumps({"exe_ans": i / 7}) for i in range(40_000)]}).encode()
    assert len(body) > server_json.STEPPED_BYTES
    assert repr(server_json.loads_body(body)) == repr(json.loads(body))
    broken = body[:-2] + b",]"
    assert _outcome(server_json.loads_body, broken) == _outcome(json.loads, broken)


def test_another_thread_runs_while_a_large_body_is_read() -> None:
    """Ordering, not speed: a thread ticking every millisecond gets many turns during one read
    (one `json.loads` call would keep the GIL, and the ticker, for the whole read)."""
    digits = b"7" * 4300  # each value is one costly C step (int() near its digit limit)
    body = b'{"query": [' + b",".join([digits] * 1500) + b'], "prompts": [], "labels": []}'
    ticks: list[float] = []
    done = threading.Event()

    def read() -> None:
        try:
            server_json.loads_body(body)
        finally:
            done.set()

    reader = threading.Thread(target=read)
    reader.start()
    while not done.is_set():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    reader.join()
    assert len(ticks) >= 10
