"""The OpenRLHF reward server, started for real on 127.0.0.1 and spoken to over HTTP."""

from __future__ import annotations

import json
import signal
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import httpx
import pytest

from finscore.rewards.openrlhf import rewards_of
from support.reward_rows import recorded_reward_rows
from support.reward_server import Server, reward_server

ROWS = recorded_reward_rows()[::97][:120]
MAX_BODY = 200_000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with reward_server("--max-body-bytes", str(MAX_BODY)) as running:
        yield running


def _payload(rows: object) -> dict[str, list[str]]:
    chosen = list(rows)  # type: ignore[call-overload]
    prompts = [f"Q{i}: " for i in range(len(chosen))]
    return {"query": [p + " ".join(r.program) for p, r in zip(prompts, chosen)], "prompts": prompts,
            "labels": [r.gold for r in chosen]}


def test_rewards_equal_the_in_process_function(server: Server) -> None:
    url = server.url
    payload = _payload(ROWS[:20])
    answer = httpx.post(f"{url}/get_reward", json=payload, timeout=60)
    assert answer.status_code == 200
    assert answer.json() == rewards_of(payload["query"], payload["prompts"], payload["labels"])


def test_concurrent_clients(server: Server) -> None:
    url = server.url
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
def test_bad_requests_are_refused_with_a_message(server: Server, body: bytes,
                                                 status: int, words: str) -> None:
    url = server.url
    answer = httpx.post(f"{url}/get_reward", content=body, headers={"content-type": "application/json"},
                        timeout=30)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_clean_shutdown(server: Server) -> None:
    """Runs last in this module. On SIGTERM uvicorn stops accepting, finishes what is in
    flight, runs the app's shutdown, then ends by the signal it caught (its convention)."""
    url, process = server.url, server.process
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == -signal.SIGTERM
    assert b"Traceback" not in server.stderr()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/health", timeout=2)
