"""An HTTP reward server for OpenRLHF's `--remote_rm_url http://HOST:PORT/get_reward`.

`POST /get_reward` takes `{"query": [...], "prompts": [...], "labels": [...]}` and
answers `{"rewards": [...], "scores": [...], "extra_logs": {...}}`. Built on
Starlette and served by uvicorn (the `finscore[serve]` extra): a well-kept ASGI
stack rather than a home-made server. Scoring runs on one worker thread, because
the core's WebAssembly store must never be entered by two threads at once; bodies
are parsed on a thread of their own, in steps (`server_json`); the event loop stays
free to accept, refuse and answer `/health` meanwhile.

The limits a client cannot stretch: the size of one body (413), the body bytes held
at once by all requests together (503, with Retry-After), and the time to send a
request's headers and body (408, `server_guard`, on the connection itself).

A refused request is loud on the server's side: OpenRLHF logs a failed reward request at
INFO and trains on with a None reward, so each refusal is a WARNING line on the
`finscore.rewards.server` logger (status, client, message) and `/health` counts the
requests answered, the rows scored and the refusals by status.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from finscore.rewards.adapters.openrlhf import rewards_of
from finscore.rewards.adapters.server_json import loads_body
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError

#: The largest request body accepted (a rollout batch of 8,192 rows of 4 KiB is 32 MiB).
MAX_BODY_BYTES = 64 * 1024 * 1024
#: The most rows one request may carry.
MAX_ROWS = 100_000
#: The request body bytes held at once by all requests together, by default: this many of the largest bodies.
CONCURRENT_BODIES = 4
#: Seconds a connection has to send a request's headers (from connecting, or its request's first byte).
HEADER_TIMEOUT = 10.0
#: Seconds a request has to send its whole body, from its headers (64 MiB at about 1 MiB/s).
BODY_TIMEOUT = 60.0

LOG = logging.getLogger(__name__)


class BadRequest(Exception):
    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers


class ByteBudget:
    """The body bytes held by the requests in flight, against a cap: only touched on the event loop."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.held = 0

    def take(self, size: int, taken: list[int]) -> None:
        """Hold `size` more bytes for a request (its running total in `taken`), or refuse it with 503."""
        if self.held + size > self.cap:
            raise BadRequest(503, f"the server holds {self.held:,} bytes of request bodies; this request's "
                                  f"{taken[0] + size:,} would pass the {self.cap:,} byte limit on bodies held "
                                  "at once: retry later", headers={"retry-after": "1"})
        self.held += size
        taken[0] += size

    def give_back(self, taken: list[int]) -> None:
        self.held -= taken[0]
        taken[0] = 0


async def _body(request: Request, limit: int, budget: ByteBudget, taken: list[int]) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit():
        if int(declared) > limit:
            raise BadRequest(413, f"the request body is {int(declared):,} bytes, over the {limit:,} limit")
        budget.take(int(declared), taken)  # held from the start: a slow body cannot pass the cap unseen
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, f"the request body is over the {limit:,} byte limit")
        if size > taken[0]:
            budget.take(size - taken[0], taken)
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(body: bytes) -> tuple[list[Any], list[Any], list[Any]]:
    """The three lists of a body (on the parsing thread)."""
    try:
        payload = loads_body(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BadRequest(400, f"the body is not JSON: {error}") from None
    except RecursionError:
        raise BadRequest(400, "the body is JSON nested too deeply to read") from None
    return _lists(payload)


def _score(queries: list[Any], prompts: list[Any], labels: list[Any], config: RewardConfig) -> JSONResponse:
    """The answer to a request, rendered on the scoring thread (a large answer is JSON to write, too)."""
    return JSONResponse(rewards_of(queries, prompts, labels, config))


def _lists(payload: Any) -> tuple[list[Any], list[Any], list[Any]]:
    if not isinstance(payload, dict):
        raise BadRequest(400, "the body must be a JSON object with query, prompts and labels")
    fields = []
    for name in ("query", "prompts", "labels"):
        value = payload.get(name)
        if not isinstance(value, list):
            raise BadRequest(400, f"{name} must be a list")
        fields.append(value)
    if not len(fields[0]) == len(fields[1]) == len(fields[2]):
        raise BadRequest(400, f"query, prompts and labels differ in length: {', '.join(str(len(f)) for f in fields)}")
    if len(fields[0]) > MAX_ROWS:
        raise BadRequest(413, f"{len(fields[0]):,} rows, over the {MAX_ROWS:,} limit")
    return fields[0], fields[1], fields[2]


def create_app(config: RewardConfig | None = None, *, max_body_bytes: int = MAX_BODY_BYTES,
               max_concurrent_bytes: int | None = None) -> Starlette:
    """The ASGI application (uvicorn serves it; tests may too). The timeouts are the connection's:
    serve it with `uvicorn.run(app, http=server_guard.guarded_protocol(...))`."""
    if max_concurrent_bytes is None:
        max_concurrent_bytes = CONCURRENT_BODIES * max_body_bytes
    if max_body_bytes < 1 or max_concurrent_bytes < max_body_bytes:
        raise ValueError(f"the byte limits need 1 <= max_body_bytes ({max_body_bytes:,}) <= "
                         f"max_concurrent_bytes ({max_concurrent_bytes:,})")
    chosen = config or RewardConfig()
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="finscore-reward")
    parser = ThreadPoolExecutor(max_workers=2, thread_name_prefix="finscore-parse")
    budget = ByteBudget(max_concurrent_bytes)
    counts = {"scored_requests": 0, "scored_rows": 0}
    refused: Counter[int] = Counter()  # touched on the event loop only, as the counts are

    def refuse(request: Request, status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
        refused[status] += 1
        client = f"{request.client.host}:{request.client.port}" if request.client else "an unknown client"
        LOG.warning("refused POST /get_reward from %s with %d: %s", client, status, message)
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    async def get_reward(request: Request) -> JSONResponse:
        taken = [0]
        try:
            body = await _body(request, max_body_bytes, budget, taken)
            loop = asyncio.get_running_loop()
            queries, prompts, labels = await loop.run_in_executor(parser, _parse, body)
            del body
            answer = await loop.run_in_executor(worker, _score, queries, prompts, labels, chosen)
            counts["scored_requests"] += 1
            counts["scored_rows"] += len(queries)
            return answer
        except BadRequest as error:
            return refuse(request, error.status, str(error), error.headers)
        except RewardInputError as error:
            return refuse(request, 400, str(error))
        except ClientDisconnect:  # gone (or timed out) before its body arrived: nobody reads this answer
            return refuse(request, 400, "the client went away before its body arrived")
        finally:
            budget.give_back(taken)  # the parsed rows go with the request, so the bytes count until its end

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "protocol": chosen.stamp(chosen.data_source), **counts,
                             "refused_requests": sum(refused.values()),
                             "refused_by_status": {str(status): n for status, n in sorted(refused.items())}})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        parser.shutdown(wait=True)
        worker.shutdown(wait=True)  # a request being scored finishes before the process ends

    return Starlette(routes=[Route("/get_reward", get_reward, methods=["POST"]),
                             Route("/health", health, methods=["GET"])],
                     lifespan=lifespan)


def serve(app: Starlette, *, host: str, port: int, http: Any) -> bool:
    """uvicorn serving `app`, saying "listening on http://HOST:PORT" on standard error once its socket
    is open (the port the system chose for port 0), and each refusal logged there. False when it
    never started (uvicorn has logged why: the port taken, say), as `uvicorn.run` exits then."""
    import uvicorn

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("finscore serve-reward: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(logging.WARNING)
    LOG.propagate = False

    class AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                bound = self.servers[0].sockets[0].getsockname() if self.servers else (host, port)
                where = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
                print(f"finscore serve-reward: listening on http://{where}:{bound[1]}", file=sys.stderr, flush=True)

    server = AnnouncingServer(uvicorn.Config(app, host=host, port=port, log_level="warning", http=http))
    try:
        server.run()
    except KeyboardInterrupt:  # Ctrl+C before uvicorn's own handler is in place: the documented stop, as uvicorn.run
        pass
    return bool(server.started)
