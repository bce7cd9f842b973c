"""The OpenAI-compatible adapter against a chat-completions server started here, on 127.0.0.1 only."""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from finscore.contracts import load_kit_cases
from finscore.runner.agent import CallTools, CaseView, Finish, UnreadableArguments
from finscore.runner.cases import CaseSet, load_fixtures
from finscore.runner.agents.chat import ChatCompletionsAgent, ChatEndpoint, build_messages, parse_reply
from finscore.runner.episode import case_view, run_attempt
from finscore.runner.errors import EndpointError
from finscore.runner import os_sandbox
from finscore.runner.http_json import RetryPolicy
from finscore.runner.isolation import Isolation
from finscore.runner.limits import Limits
from finscore.runner.orchestrate import run_cases
from finscore.runner.output import write_predictions
from finscore.runner.reporting import score_predictions

Reply = tuple[int, dict[str, str], bytes]

FV_ARGUMENTS = (
    '{"scenario_id": "scenario-A", "as_of": "2026-09-01", "principal": 2500000, "annual_rate": 0.06, "years": 5}'
)


def completion(message: dict[str, Any]) -> Reply:
    body = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": "stop"}],
    }
    return 200, {"Content-Type": "application/json"}, json.dumps(body).encode()


def tool_call_reply(arguments: str = FV_ARGUMENTS) -> Reply:
    call = {"id": "call_abc", "type": "function", "function": {"name": "calc_future_value", "arguments": arguments}}
    return completion({"content": None, "tool_calls": [call]})


def scripted_model(request: dict[str, Any]) -> Reply:
    """A tiny model: calls the calculator first, then answers from the tool message it was sent."""
    last = request["messages"][-1]
    if last["role"] != "tool":
        return tool_call_reply()
    seen = json.loads(last["content"])
    fact = seen["result"]["facts"]["future_value"]
    claim = {
        "value": fact["value"],
        "unit": fact["unit"],
        "subject": seen["result"]["subject"],
        "as_of": seen["result"]["as_of"],
        "source": seen["result"]["source"],
    }
    final = {
        "kind": "answer",
        "claims": {"future_value": claim},
        "policy": "illustrative",
        "citations": {"future_value": seen["entry_id"]},
        "text": "About ₹33.46 lakh, illustrative.",
    }
    return completion({"content": "```json\n" + json.dumps(final, ensure_ascii=False) + "\n```"})


@dataclass
class FakeServer:
    """Serves queued replies first, then the scripted model; records every request."""

    url: str
    queue: list[Callable[[dict[str, Any]], Reply]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


@pytest.fixture()
def server() -> Iterator[FakeServer]:
    state = FakeServer(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            state.headers.append(dict(self.headers))
            respond = state.queue.pop(0) if state.queue else scripted_model
            status, headers, payload = respond(body)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def kit() -> CaseSet:
    return CaseSet("@kit", tuple(load_kit_cases()))


def fv_case(kit: CaseSet) -> dict[str, Any]:
    return next(case.raw for case in kit.cases if case.case_id == "fv-en")


def agent_for(server: FakeServer, delays: list[float] | None = None, **options: Any) -> ChatCompletionsAgent:
    endpoint = ChatEndpoint(
        base_url=server.url,
        model="test-model",
        api_key="test-key",
        use_env_proxy=False,
        retry=RetryPolicy(attempts=3, base_delay=0.5, max_delay=4.0),
        **options,
    )
    return ChatCompletionsAgent(endpoint, sleep=(delays if delays is not None else []).append)


LIMITS = Limits(deadline_seconds=30, max_turns=4, max_tool_calls=4)


def test_a_tool_calling_model_runs_a_kit_case_and_passes(server: FakeServer, kit: CaseSet, tmp_path: Path) -> None:
    only = CaseSet("@kit", tuple(case for case in kit.cases if case.case_id == "fv-en"))
    results = run_cases(only.raw, agent_for(server), LIMITS)
    line = results[0].prediction
    assert line["status"] == "completed"
    entry = line["trace"]["entries"][0]
    assert (entry["tool"], entry["outcome"], str(entry["arguments"]["annual_rate"])) == (
        "calc_future_value",
        "ok",
        "0.06",
    )
    report = score_predictions(only, write_predictions(tmp_path, results), 1, replicates=10)
    assert report["counts"]["passed"] == 1


def test_the_request_speaks_the_protocol(server: FakeServer, kit: CaseSet) -> None:
    case = fv_case(kit)
    run_attempt(case, agent_for(server), LIMITS)
    first, second = server.requests
    assert server.headers[0]["Authorization"] == "Bearer test-key"
    assert first["model"] == "test-model" and first["temperature"] == 0
    assert [message["role"] for message in first["messages"]] == ["system", "user"]
    assert f"Today is {case['world']['today']}." in first["messages"][0]["content"]
    assert first["messages"][1]["content"] == case["question"]
    tools = {tool["function"]["name"]: tool for tool in first["tools"]}
    assert tools["calc_future_value"]["type"] == "function"
    assert tools["calc_future_value"]["function"]["parameters"]["properties"]["annual_rate"]["maximum"] == 1
    assistant, tool_message = second["messages"][2], second["messages"][3]
    assert assistant["tool_calls"][0]["id"] == "call_abc" == tool_message["tool_call_id"]
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == json.loads(FV_ARGUMENTS)
    assert json.loads(tool_message["content"])["entry_id"] == "e1"


def first_view(kit: CaseSet) -> CaseView:
    return case_view(load_fixtures(fv_case(kit)), 0)


# The retry tests call the adapter in this process, because its `sleep` is how they see the delays;
# in a run the adapter is in its own process and sees nothing of the test.


def test_transient_errors_are_retried_with_backoff(server: FakeServer, kit: CaseSet) -> None:
    unavailable: Reply = (503, {}, b"busy")
    server.queue += [lambda _: unavailable, lambda _: unavailable]
    delays: list[float] = []
    assert isinstance(agent_for(server, delays)(first_view(kit), ()), CallTools)
    assert delays == [0.5, 1.0]
    assert len(server.requests) == 3
    server.queue += [lambda _: unavailable]
    assert run_attempt(fv_case(kit), agent_for(server), LIMITS).prediction["status"] == "completed"


def test_retry_after_is_honoured_up_to_the_maximum(server: FakeServer, kit: CaseSet) -> None:
    server.queue += [lambda _: (429, {"Retry-After": "2"}, b""), lambda _: (429, {"Retry-After": "600"}, b"")]
    delays: list[float] = []
    agent_for(server, delays)(first_view(kit), ())
    assert delays == [2.0, 4.0]


def test_retries_are_bounded(server: FakeServer, kit: CaseSet) -> None:
    server.queue += [lambda _: (502, {}, b"bad gateway")] * 5
    line = run_attempt(fv_case(kit), agent_for(server), LIMITS).prediction
    assert line["status"] == "crashed" and "HTTP 502" in line["status_detail"]
    assert len(server.requests) == 3


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ((400, {}, b'{"error": "bad request"}'), "HTTP 400"),
        ((401, {}, b"no key"), "HTTP 401"),
        ((307, {"Location": "http://127.0.0.1:9/elsewhere"}, b""), "HTTP 307"),
        ((200, {}, b"<html>not json</html>"), "not JSON"),
        ((200, {}, b'{"choices": []}'), "no choices"),
    ],
)
def test_other_failures_are_not_retried(server: FakeServer, kit: CaseSet, reply: Reply, fragment: str) -> None:
    server.queue.append(lambda _: reply)
    line = run_attempt(fv_case(kit), agent_for(server), LIMITS).prediction
    assert line["status"] == "crashed" and fragment in line["status_detail"]
    assert len(server.requests) == 1


def test_an_oversized_reply_is_refused(server: FakeServer, kit: CaseSet) -> None:
    server.queue.append(lambda _: completion({"content": "x" * 5000}))
    line = run_attempt(fv_case(kit), agent_for(server, max_response_bytes=1000), LIMITS).prediction
    assert line["status"] == "crashed" and "larger than 1000 bytes" in line["status_detail"]


def test_unparsable_tool_arguments_are_recorded_as_an_error_and_returned(server: FakeServer, kit: CaseSet) -> None:
    server.queue.append(lambda _: tool_call_reply('{"scenario_id": "scenario-A", "years": 5'))
    line = run_attempt(fv_case(kit), agent_for(server), LIMITS).prediction
    first = line["trace"]["entries"][0]
    assert (first["outcome"], first["arguments"], first["result"]) == ("error", {}, None)
    assert "not valid JSON" in first["message"]
    shown = json.loads(server.requests[1]["messages"][-1]["content"])
    assert shown["outcome"] == "error" and "not valid JSON" in shown["message"]
    assert server.requests[1]["messages"][2]["tool_calls"][0]["function"]["arguments"].startswith('{"scenario_id"')


def test_a_prose_answer_is_malformed_output(server: FakeServer, kit: CaseSet) -> None:
    server.queue.append(lambda _: completion({"content": "It will be about 33 lakh."}))
    line = run_attempt(fv_case(kit), agent_for(server), LIMITS).prediction
    assert (line["status"], line["raw_output"]) == ("malformed_output", "It will be about 33 lakh.")


def test_a_closed_port_is_a_transient_failure_then_a_crash(kit: CaseSet) -> None:
    probe = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = probe.server_address[1]
    probe.server_close()
    delays: list[float] = []
    endpoint = ChatEndpoint(
        base_url=f"http://127.0.0.1:{port}/v1",
        model="m",
        use_env_proxy=False,
        retry=RetryPolicy(attempts=2, base_delay=0.25),
    )
    with pytest.raises(EndpointError, match="connection failed"):
        ChatCompletionsAgent(endpoint, sleep=delays.append)(first_view(kit), ())
    assert delays == [0.25]
    line = run_attempt(fv_case(kit), ChatCompletionsAgent(endpoint), LIMITS).prediction
    assert line["status"] == "crashed" and "connection failed" in line["status_detail"]


def test_reply_parsing() -> None:
    parts = {
        "choices": [{"message": {"content": [{"type": "text", "text": '{"kind":'}, {"type": "text", "text": " 1}"}]}}]
    }
    assert parse_reply(parts) == Finish('{"kind": 1}')
    odd = {"choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"name": "x", "arguments": "[1"}}]}}]}
    turn = parse_reply(odd)
    assert isinstance(turn, CallTools) and isinstance(turn.calls[0].arguments, UnreadableArguments)
    empty = {"choices": [{"message": {"tool_calls": [{"id": "c1", "function": {"name": "x", "arguments": ""}}]}}]}
    assert parse_reply(empty).calls[0].arguments == {}  # type: ignore[union-attr]
    with pytest.raises(EndpointError):
        parse_reply({"choices": [{"message": {"tool_calls": "calc"}}]})


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/", "127.0.0.1:8000"])
def test_only_http_urls_are_accepted(url: str) -> None:
    with pytest.raises(EndpointError):
        ChatEndpoint(base_url=url, model="m")


def test_an_http_timeout_is_a_timeout_not_a_crash(server: FakeServer, kit: CaseSet) -> None:
    import time

    def slow(request: dict[str, Any]) -> Reply:
        time.sleep(1.0)
        return tool_call_reply()

    server.queue.append(slow)
    agent = agent_for(server, timeout_seconds=0.2)
    agent.endpoint = ChatEndpoint(
        base_url=server.url, model="test-model", use_env_proxy=False, timeout_seconds=0.2, retry=RetryPolicy(attempts=1)
    )
    line = run_attempt(fv_case(kit), agent, LIMITS).prediction
    assert line["status"] == "timeout", line["status_detail"]
    assert "timed out" in line["status_detail"]


def test_a_model_is_shown_the_case_document_passages(kit: CaseSet) -> None:
    case = next(c.raw for c in kit.cases if c.case_id == "conc-en")
    system = build_messages(case_view(load_fixtures(case), 0), [])[0]["content"]
    for passage in case["world"]["documents"]:
        assert json.dumps(passage["text"], ensure_ascii=False)[1:-1] in system and passage["id"] in system


@pytest.mark.essential
@pytest.mark.skipif(os_sandbox.unavailable_reason() is not None,
                    reason=f"no OS sandbox on this machine: {os_sandbox.unavailable_reason()}")
def test_a_sandboxed_chat_agent_reaches_its_endpoint_through_the_runtimes_proxy(server: FakeServer, kit: CaseSet) -> None:
    """Issue #31: the sandbox has no network, not even the host's loopback where this server listens;
    the chat agent still reaches it, through the Unix socket the runtime forwards to the endpoint."""
    isolation = Isolation.for_deadline(30, os_sandbox="required")
    line = run_attempt(fv_case(kit), agent_for(server), LIMITS, isolation=isolation).prediction
    assert line["status"] == "completed", line["status_detail"]
    assert len(server.requests) == 2 and server.headers[0]["Authorization"] == "Bearer test-key"
    assert server.headers[0]["Host"] == server.url.split("/")[2]  # the request names the endpoint's host


@pytest.mark.essential
@pytest.mark.skipif(os_sandbox.unavailable_reason() is not None,
                    reason=f"no OS sandbox on this machine: {os_sandbox.unavailable_reason()}")
def test_a_sandboxed_chat_agent_whose_endpoint_is_down_says_why(kit: CaseSet) -> None:
    """The proxy tells the agent why it could not reach the endpoint: the run's error names the cause."""
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    endpoint = ChatEndpoint(base_url=f"http://127.0.0.1:{port}/v1", model="m", use_env_proxy=False,
                            retry=RetryPolicy(attempts=1))
    isolation = Isolation.for_deadline(30, os_sandbox="required")
    line = run_attempt(fv_case(kit), ChatCompletionsAgent(endpoint), LIMITS, isolation=isolation).prediction
    assert line["status"] == "crashed"
    assert "connection failed: " in line["status_detail"] and "Connection refused" in line["status_detail"]
