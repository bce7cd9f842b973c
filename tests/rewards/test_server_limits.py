"""The reward server's limits, held against bounded loopback clients (issue #30).

The real `finscore serve-reward` runs on 127.0.0.1 with small limits set through its options, so
the tests are quick; every bound a test waits on is generous (the machine is shared and noisy) and
the assertions are on answers and their order, not on tight timings.
"""

from __future__ import annotations

import fcntl
import json
import select
import socket
import struct
import subprocess
import sys
import termios
import time
from typing import Iterator

import httpx
import pytest
from starlette.responses import JSONResponse

from finscore.rewards.openrlhf import rewards_of
from support.reward_rows import recorded_reward_rows
from support.reward_server import Server, reward_environment, reward_server

HEADER_TIMEOUT = 1.0
BODY_TIMEOUT = 2.0
#: How long a test waits for something that should happen at once, or right after a timeout.
BOUND = 15.0
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def quick_timeouts() -> Iterator[Server]:
    with reward_server("--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT),
                       "--max-body-bytes", "1000000") as server:
        yield server


@pytest.fixture(scope="module")
def byte_cap() -> Iterator[Server]:
    """Eight bodies of 16 MiB at most held at once; the timeouts out of the way."""
    with reward_server("--max-body-bytes", str(16 * MIB), "--max-concurrent-bytes", str(128 * MIB),
                       "--header-timeout", "60", "--body-timeout", "120") as server:
        yield server


def _connect(port: int) -> socket.socket:
    client = socket.create_connection(("127.0.0.1", port), timeout=BOUND)
    client.settimeout(BOUND)
    return client


def _until_closed(client: socket.socket) -> bytes:
    """Everything the server writes until it closes the connection (a socket timeout fails the test)."""
    data = b""
    while chunk := client.recv(65536):
        data += chunk
    return data


def _response(client: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP response read off the socket: status, headers, body (by its content-length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        assert chunk, f"the connection closed before a response: {data!r}"
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    while len(rest) < int(headers["content-length"]):
        chunk = client.recv(65536)
        assert chunk, "the connection closed inside a response body"
        rest += chunk
    return int(lines[0].split()[1]), headers, rest


def _wait_until_taken(clients: list[socket.socket]) -> None:
    """Until the kernel has handed the server every byte sent (Linux tells; elsewhere a pause), and a
    moment more for the server, whose event loop is free until a body completes, to read them."""
    deadline = time.monotonic() + BOUND
    if hasattr(termios, "TIOCOUTQ"):
        def unsent(client: socket.socket) -> int:
            return int(struct.unpack("i", fcntl.ioctl(client.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0])

        while any(unsent(client) for client in clients):
            assert time.monotonic() < deadline, "the server stopped reading"
            time.sleep(0.05)
    time.sleep(1.0)


def _payload(count: int) -> dict[str, list[str]]:
    rows = recorded_reward_rows()[::211][:count]
    prompts = [f"Q{i}: " for i in range(len(rows))]
    return {"query": [p + " ".join(r.program) for p, r in zip(prompts, rows)], "prompts": prompts,
            "labels": [r.gold for r in rows]}


def _timeout_error(data: bytes, words: str) -> None:
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), data[:200]
    assert b"connection: close" in head.lower()
    assert words in json.loads(body)["error"]


def test_unfinished_headers_are_closed_after_the_header_timeout(quick_timeouts: Server) -> None:
    started = time.monotonic()
    talkers = [_connect(quick_timeouts.port) for _ in range(60)]
    silent = [_connect(quick_timeouts.port) for _ in range(30)]
    for client in talkers:
        client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
    assert httpx.get(f"{quick_timeouts.url}/health", timeout=BOUND).status_code == 200  # others are served
    answers = [_until_closed(client) for client in talkers]
    silences = [_until_closed(client) for client in silent]
    assert time.monotonic() - started >= HEADER_TIMEOUT  # not before the timeout
    for answer in answers:
        _timeout_error(answer, f"headers did not arrive within {HEADER_TIMEOUT:g} s")
    assert silences == [b""] * len(silent)  # nothing of a request sent: closed without a word
    for client in talkers + silent:
        client.close()


def test_a_pipelined_unfinished_request_is_closed_after_the_header_timeout(quick_timeouts: Server) -> None:
    with _connect(quick_timeouts.port) as client:
        client.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /health HTTP/1.1\r\nHost:")
        status, _, body = _response(client)
        assert status == 200 and json.loads(body)["status"] == "ok"
        _timeout_error(_until_closed(client), "headers did not arrive")


def test_an_unfinished_body_is_closed_after_the_body_timeout(quick_timeouts: Server) -> None:
    with _connect(quick_timeouts.port) as client:
        started = time.monotonic()
        client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                       b"Content-Length: 1000\r\n\r\n{\"query\": [")
        answer = _until_closed(client)
        assert time.monotonic() - started >= BODY_TIMEOUT
    _timeout_error(answer, f"body did not arrive within {BODY_TIMEOUT:g} s of its headers")


def test_a_dribbled_body_is_closed_after_the_body_timeout(quick_timeouts: Server) -> None:
    """A byte every 50 ms would take 50 s for this body: the timeout is a total, not a gap."""
    with _connect(quick_timeouts.port) as client:
        client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n")
        deadline = time.monotonic() + BOUND
        sent = 0
        while not select.select([client], [], [], 0.05)[0]:
            assert time.monotonic() < deadline, "the dribbling client was never closed"
            client.sendall(b" ")
            sent += 1
        answer = _until_closed(client)
    assert sent < 1000
    _timeout_error(answer, "body did not arrive")


def test_a_refused_body_cannot_keep_its_connection(quick_timeouts: Server) -> None:
    """Over --max-body-bytes: 413 at once, as before; the unread rest, dribbled, may not hold the
    connection past the body timeout (each byte used to restart uvicorn's keep-alive timeout)."""
    with _connect(quick_timeouts.port) as client:
        client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n\r\n[")
        status, _, body = _response(client)
        assert status == 413 and "limit" in json.loads(body)["error"]
        deadline = time.monotonic() + BOUND
        while not select.select([client], [], [], 0.05)[0]:
            assert time.monotonic() < deadline, "the refused request's connection was never closed"
            client.sendall(b" ")
        assert _until_closed(client) == b""


def test_requests_past_the_byte_cap_get_503_until_bytes_are_free(byte_cap: Server) -> None:
    payload = _payload(5)
    holders = [_connect(byte_cap.port) for _ in range(8)]
    try:
        for client in holders:  # 8 x 16 MiB declared: the whole cap, one byte of each sent
            client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           + f"Content-Length: {16 * MIB}\r\n\r\n".encode() + b"{")
        deadline = time.monotonic() + BOUND
        while (refused := httpx.post(f"{byte_cap.url}/get_reward", json=payload, timeout=BOUND)).status_code != 503:
            assert time.monotonic() < deadline, f"never refused: {refused.status_code} {refused.text[:200]}"
            time.sleep(0.1)
        assert refused.headers["retry-after"] == "1"
        assert "retry later" in refused.json()["error"]
        assert httpx.get(f"{byte_cap.url}/health", timeout=BOUND).status_code == 200
    finally:
        for client in holders:
            client.close()
    deadline = time.monotonic() + BOUND
    while (answer := httpx.post(f"{byte_cap.url}/get_reward", json=payload, timeout=BOUND)).status_code == 503:
        assert time.monotonic() < deadline, "the bytes of closed connections were never given back"
        time.sleep(0.1)
    assert answer.status_code == 200
    # byte for byte the answer of the server before the limits: Starlette's JSON of the in-process result
    assert answer.content == JSONResponse(rewards_of(payload["query"], payload["prompts"], payload["labels"])).body


def test_health_answers_while_large_bodies_are_parsed(byte_cap: Server) -> None:
    """Eight 16 MiB bodies complete at once; each is seconds of parsing in C (int() near its digit
    limit, value after value). /health answers within a generous 2 s, before some of them."""
    count = 3800
    body = b'{"query": [' + b",".join([b"7" * 4300] * count) + b'], "prompts": [], "labels": []}'
    assert len(body) <= 16 * MIB
    expected = f"query, prompts and labels differ in length: {len(json.loads(body)['query'])}, 0, 0"
    head = (b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode())
    senders = [_connect(byte_cap.port) for _ in range(8)]
    try:
        for client in senders:
            client.sendall(head + body[:-1])
        _wait_until_taken(senders)  # so the last bytes complete all eight bodies together
        for client in senders:
            client.sendall(body[-1:])
        asked = time.monotonic()
        health = httpx.get(f"{byte_cap.url}/health", timeout=BOUND)
        answered = time.monotonic() - asked
        waiting = [client for client in senders if not select.select([client], [], [], 0)[0]]
        assert health.status_code == 200
        assert answered < 2.0, f"/health took {answered:.1f} s"
        assert waiting, "every large body was already answered: nothing was being parsed"
        for client in senders:
            status, _, answer = _response(client)
            assert (status, json.loads(answer)["error"]) == (400, expected)
    finally:
        for client in senders:
            client.close()


def test_a_chunked_body_past_the_byte_cap_gets_503(byte_cap: Server) -> None:
    """Without a Content-Length the bytes are counted as they come."""
    holders = [_connect(byte_cap.port) for _ in range(8)]
    try:
        for client in holders:
            client.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           + f"Content-Length: {16 * MIB}\r\n\r\n".encode() + b"{")

        def chunks() -> Iterator[bytes]:
            yield json.dumps(_payload(3)).encode()

        deadline = time.monotonic() + BOUND
        while (refused := httpx.post(f"{byte_cap.url}/get_reward", content=chunks(), timeout=BOUND)).status_code != 503:
            assert time.monotonic() < deadline, f"never refused: {refused.status_code}"
            time.sleep(0.1)
        assert "retry later" in refused.json()["error"]
    finally:
        for client in holders:
            client.close()


@pytest.mark.parametrize("options, words", [
    (("--header-timeout", "0"), "must be more than 0 seconds"),
    (("--body-timeout", "nan"), "must be more than 0 seconds"),
    (("--max-body-bytes", "1000", "--max-concurrent-bytes", "999"),
     "--max-concurrent-bytes (999) must be at least the largest body, --max-body-bytes (1,000)"),
    (("--max-body-bytes", "-5"), "max_body_bytes (-5)"),
])
def test_bad_limits_are_refused_before_serving(options: tuple[str, ...], words: str) -> None:
    finished = subprocess.run([sys.executable, "-m", "finscore", "serve-reward", "--port", "1", *options],
                              env=reward_environment(), capture_output=True, timeout=120)
    assert finished.returncode == 2
    assert words in finished.stderr.decode()
    assert b"Traceback" not in finished.stderr


def test_the_options_say_the_server_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """--help loads no server code, so its defaults are written twice: they must agree."""
    from finscore.cli import build_parser, main
    from finscore.rewards.adapters import server

    args = build_parser().parse_args(["serve-reward"])
    assert (args.header_timeout, args.body_timeout) == (server.HEADER_TIMEOUT, server.BODY_TIMEOUT)
    assert args.max_concurrent_bytes is None  # four of the largest bodies, whatever --max-body-bytes says
    with pytest.raises(SystemExit):
        main(["serve-reward", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert (server.CONCURRENT_BODIES, server.MAX_BODY_BYTES) == (4, 64 * MIB)
    for words in ("default four times --max-body-bytes, 256 MiB", "gets 503 with Retry-After",
                  f"(default {server.HEADER_TIMEOUT:g}); then 408", f"(default {server.BODY_TIMEOUT:g}); then 408"):
        assert words in text


def test_no_traceback(quick_timeouts: Server, byte_cap: Server) -> None:
    """Runs last: whatever the clients did, neither server wrote a word (a traceback, a warning) but
    its "listening on" line and one line per refused request (issue #35: refusals are loud)."""
    for running in (quick_timeouts, byte_cap):
        lines = running.stderr().decode().splitlines()
        assert lines[0] == f"finscore serve-reward: listening on http://127.0.0.1:{running.port}"
        assert lines[1:] and all(line.startswith("finscore serve-reward: refused ") for line in lines[1:]), lines
