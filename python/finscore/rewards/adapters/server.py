"""An HTTP reward server for OpenRLHF's `--remote_rm_url http://HOST:PORT/get_reward`.

`POST /get_reward` takes `{"query": [...], "prompts": [...], "labels": [...]}` and
answers `{"rewards": [...], "scores": [...], "extra_logs": {...}}`. Built on
Starlette and served by uvicorn (the `finscore[serve]` extra): a well-kept ASGI
stack rather than a home-made server. Scoring runs on one worker thread, because
the core's WebAssembly store must never be entered by two threads at once; the
event loop stays free to accept and refuse requests meanwhile.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from finscore.rewards.adapters.openrlhf import rewards_of
from finscore.rewards.config import RewardConfig
from finscore.rewards.errors import RewardInputError

#: The largest request body accepted (a rollout batch of 8,192 rows of 4 KiB is 32 MiB).
MAX_BODY_BYTES = 64 * 1024 * 1024
#: The most rows one request may carry.
MAX_ROWS = 100_000


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BadRequest(413, f"the request body is {int(declared):,} bytes, over the {limit:,} limit")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BadRequest(413, f"the request body is over the {limit:,} byte limit")
        chunks.append(chunk)
    return b"".join(chunks)


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


def create_app(config: RewardConfig | None = None, *, max_body_bytes: int = MAX_BODY_BYTES) -> Starlette:
    """The ASGI application (uvicorn serves it; tests may too)."""
    chosen = config or RewardConfig()
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="finscore-reward")

    async def get_reward(request: Request) -> JSONResponse:
        try:
            body = await _body(request, max_body_bytes)
            try:
                payload = json.loads(body)
            except (ValueError, UnicodeDecodeError) as error:
                raise BadRequest(400, f"the body is not JSON: {error}") from None
            except RecursionError:
                raise BadRequest(400, "the body is JSON nested too deeply to read") from None
            queries, prompts, labels = _lists(payload)
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(worker, rewards_of, queries, prompts, labels, chosen)
        except BadRequest as error:
            return JSONResponse({"error": str(error)}, status_code=error.status)
        except RewardInputError as error:
            return JSONResponse({"error": str(error)}, status_code=400)
        return JSONResponse(result)

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok", "protocol": chosen.stamp(chosen.data_source)})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        worker.shutdown(wait=True)  # a request being scored finishes before the process ends

    return Starlette(routes=[Route("/get_reward", get_reward, methods=["POST"]),
                             Route("/health", health, methods=["GET"])],
                     lifespan=lifespan)
