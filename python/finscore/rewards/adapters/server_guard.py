"""How long a connection to the reward server may take to send a request: the header and body timeouts.

uvicorn has a keep-alive timeout (an idle connection between two requests is closed after 5 s)
and h11 caps the size of a request's headers (16 KiB, then 400), but nothing bounds the time a
client takes to send a request: a connection that never finishes its headers, or a body sent a
byte at a time, is held open for as long as the client likes. These are uvicorn's own h11
protocol with one timer added (uvicorn takes a protocol class as its `http` setting):

- headers: a connection must complete a request's headers within `header_timeout` seconds of
  connecting, or of the first byte of its next request on a kept-alive connection;
- body: the whole body must have arrived within `body_timeout` seconds of the headers (a total,
  not a gap between bytes, so dribbling does not extend it); this also bounds the time a refused
  request's unread body may keep the connection while it is discarded.

When a timer fires on a request the server has not answered, the client gets 408 with a JSON
error, like every refusal of the server, and the connection is closed; a connection that has
sent nothing of a new request is closed without a word (what uvicorn's keep-alive timeout does).
The h11 protocol is used whatever else is installed, so the timers hold everywhere (uvicorn's
httptools protocol, picked when httptools is installed, would need its own).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: The server's logger (finscore.rewards.adapters.server's): a 408 is a refusal, logged as the others are.
LOG = logging.getLogger("finscore.rewards.adapters.server")


def timeout_response(message: str, default_headers: list[tuple[bytes, bytes]]) -> bytes:
    """The bytes of a 408 answer with `{"error": message}`, written as Starlette's JSONResponse writes JSON."""
    body = json.dumps({"error": message}, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")
    headers = [*default_headers, (b"content-length", str(len(body)).encode("ascii")),
               (b"content-type", b"application/json"), (b"connection", b"close")]
    return b"".join([b"HTTP/1.1 408 Request Timeout\r\n", *(name + b": " + value + b"\r\n" for name, value in headers),
                     b"\r\n", body])


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with the header and body timeouts (set on a subclass: `guarded_protocol`)."""

    header_timeout: float = 10.0
    body_timeout: float = 60.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._guard: asyncio.TimerHandle | None = None
        self._guarding: str | None = None  # "headers" or "body", while the timer runs
        self._started = False  # some bytes of the request being waited for have arrived

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("headers", self.header_timeout)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if data and self.conn.their_state is h11.IDLE:
            self._started = True
        self._watch(arm_headers=True)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        pipelined = self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])
        if pipelined:  # part of the next request is already in: its headers are on the clock
            self._started = True
        # otherwise the kept-alive connection is idle, and that is uvicorn's keep-alive timeout
        self._watch(arm_headers=pipelined)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _watch(self, *, arm_headers: bool) -> None:
        """Start, keep or stop the timer for the part of a request now awaited."""
        if self.transport.is_closing():
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            if self._guarding != "headers" and arm_headers and self._started:
                self._arm("headers", self.header_timeout)
            elif self._guarding == "body" or not arm_headers:
                self._disarm()
        elif state is h11.SEND_BODY:
            if self._guarding != "body":
                self._arm("body", self.body_timeout)
        else:  # the request is in (DONE), or the connection is closing or switching protocol
            self._disarm()
            self._started = False

    def _arm(self, part: str, seconds: float) -> None:
        self._disarm()
        self._guarding = part
        self._guard = self.loop.call_later(seconds, self._expire, part)

    def _disarm(self) -> None:
        if self._guard is not None:
            self._guard.cancel()
        self._guard = None
        self._guarding = None

    def _expire(self, part: str) -> None:
        """The client took too long: answer 408 if it is waiting for an answer, then close."""
        self._guard = None
        self._guarding = None
        if self.transport.is_closing():
            return
        cycle = self.cycle if part == "body" else None
        if part == "headers" and self._started:
            message = f"the request's headers did not arrive within {self.header_timeout:g} s"
            self.transport.write(timeout_response(message, self.server_state.default_headers))
            LOG.warning("refused a request from %s with 408: %s", self._client(), message)
        elif cycle is not None and not cycle.response_started:
            message = f"the request's body did not arrive within {self.body_timeout:g} s of its headers"
            self.transport.write(timeout_response(message, self.server_state.default_headers))
            LOG.warning("refused POST %s from %s with 408: %s", cycle.scope["path"], self._client(), message)
            cycle.disconnected = True  # the application now sees the client gone, and writes nothing more
            cycle.message_event.set()
        self.transport.close()


    def _client(self) -> str:
        peer = self.client
        return f"{peer[0]}:{peer[1]}" if peer else "an unknown client"


def guarded_protocol(header_seconds: float, body_seconds: float) -> type[GuardedH11Protocol]:
    """The protocol class to hand uvicorn (`uvicorn.run(app, http=...)`) for these timeouts, in seconds."""

    class Configured(GuardedH11Protocol):
        header_timeout = float(header_seconds)
        body_timeout = float(body_seconds)

    return Configured
