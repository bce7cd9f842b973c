"""The OpenRLHF reward server, started for real on 127.0.0.1 and spoken to over HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from finscore.rewards.openrlhf import rewards_of
from support.reward_rows import recorded_reward_rows

REPOSITORY = Path(__file__).resolve().parents[2]
ROWS = recorded_reward_rows()[::97][:120]
MAX_BODY = 200_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPOSITORY / "python"),
                                                                        os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, "-m", "finscore", "serve-reward", "--host", "127.0.0.1",
                                "--port", str(port), "--max-body-bytes", str(MAX_BODY)],
                               env=env, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the server did not start: {process.stderr.read() if process.stderr else b''!r}")
        time.sleep(0.2)
    yield url, process
    if process.poll() is None:
        process.kill()
        process.wait(10)


def _payload(rows: object) -> dict[str, list[str]]:
    chosen = list(rows)  # type: ignore[call-overload]
    prompts = [f"Q{i}: " for i in range(len(chosen))]
    return {"query": [p + " ".join(r.program) for p, r in zip(prompts, chosen)], "prompts": prompts,
            "labels": [r.gold for r in chosen]}


def test_rewards_equal_the_in_process_function(server: tuple[str, subprocess.Popen[bytes]]) -> None:
    url, _ = server
    payload = _payload(ROWS[:20])
    answer = httpx.post(f"{url}/get_reward", json=payload, timeout=60)
    assert answer.status_code == 200
    assert answer.json() == rewards_of(payload["query"], payload["prompts"], payload["labels"])


def test_concurrent_clients(server: tuple[str, subprocess.Popen[bytes]]) -> None:
    url, _ = server
    batches = [ROWS[i:i + 10] for i in range(0, len(ROWS), 10)]
    expected = [rewards_of(**{"queries": p["query"], "prompts": p["prompts"], "labels": p["labels"]})
                for p in map(_payload, batches)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda b: httpx.post(f"{url}/get_reward", json=_payload(b), timeout=120).json(),
                                batches))
    assert answers == expected


@pytest.mark.parametrize("body, status, words", [
    (b"{not json", 400, "not JSON"),
    (b'{"query": ["a"], "prompts": ["a", "b"], "labels": ["{}"]}', 400, "differ in length"),
    (b'{"query": "a", "prompts": [], "labels": []}', 400, "query must be a list"),
    (b'[1, 2]', 400, "JSON object"),
    (b"[" * 50_000 + b"]" * 50_000, 400, "nested too deeply"),
    (json.dumps({"query": ["x"], "prompts": ["y"], "labels": ["{}"]}).encode(), 400, "does not start with its prompt"),
    (json.dumps({"query": ["a" * (MAX_BODY + 10)], "prompts": ["a"], "labels": ["{}"]}).encode(), 413, "limit"),
])
def test_bad_requests_are_refused_with_a_message(server: tuple[str, subprocess.Popen[bytes]], body: bytes,
                                                 status: int, words: str) -> None:
    url, _ = server
    answer = httpx.post(f"{url}/get_reward", content=body, headers={"content-type": "application/json"},
                        timeout=30)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_clean_shutdown(server: tuple[str, subprocess.Popen[bytes]]) -> None:
    """Runs last in this module. On SIGTERM uvicorn stops accepting, finishes what is in
    flight, runs the app's shutdown, then ends by the signal it caught (its convention)."""
    url, process = server
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == -signal.SIGTERM
    assert process.stderr is not None
    assert b"Traceback" not in process.stderr.read()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/health", timeout=2)
