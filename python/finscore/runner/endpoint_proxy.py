"""The one way out of the sandbox for a chat agent: a Unix socket the runtime owns, forwarded to
the configured endpoint only.

A sandboxed agent has no network (its own network namespace, not even the host's loopback).
A chat agent still needs its endpoint, so for each attempt the runtime listens on a Unix
socket in a private folder, binds that one socket into the sandbox
(finscore.runner.os_sandbox.ENDPOINT_SOCKET), and forwards every connection made to it
to the endpoint's host and port, and nowhere else: whatever the agent sends, the runtime
chooses the destination. The bytes themselves (HTTP, or TLS end to end for https) are not
read, except for one line the proxy writes first on each connection: `+` when it reached
the endpoint, or `-` and why not (so the agent's error names the real cause, a refused
connection say). Connections at once and bytes per connection are bounded; closing the proxy (the
attempt's end) closes every connection.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import threading
from typing import Protocol

from finscore.runner.agent import Agent

#: Connections the agent may hold open through the proxy at once (the chat adapter uses one).
MAX_CONNECTIONS = 8
#: Bytes forwarded in each direction of one connection (a request and its reply are far smaller).
MAX_CONNECTION_BYTES = 256 << 20
CHUNK_BYTES = 64 << 10
#: The status line each connection starts with (`+`, or `-` and why the endpoint was not reached).
MAX_STATUS_LINE = 1024
#: Seconds to connect to the endpoint.
CONNECT_SECONDS = 30.0


class ReachesEndpoint(Protocol):
    """An agent that needs one network endpoint (the chat adapter)."""

    def endpoint_address(self) -> tuple[str, int]:
        """The host and port its requests go to."""
        ...

    def through_socket(self, path: str) -> Agent:
        """The same agent, connecting through the Unix socket at `path` instead."""
        ...


def reaches_endpoint(agent: object) -> bool:
    return callable(getattr(agent, "endpoint_address", None)) and callable(getattr(agent, "through_socket", None))


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy source to sink until either end closes or the byte bound is reached; then close both ways."""
    sent = 0
    try:
        while sent < MAX_CONNECTION_BYTES:
            data = source.recv(min(CHUNK_BYTES, MAX_CONNECTION_BYTES - sent))
            if not data:
                break
            sink.sendall(data)
            sent += len(data)
    except OSError:
        pass  # either end went away: the connection is over, and both ends are shut below
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already shut by the other direction


class EndpointProxy:
    """Listens on a private Unix socket and forwards each connection to (host, port)."""

    def __init__(self, host: str, port: int) -> None:
        self.address = (host, port)
        self._folder = tempfile.mkdtemp(prefix="finscore-endpoint-")
        self.socket_path = os.path.join(self._folder, "endpoint.sock")
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(self.socket_path)
        os.chmod(self.socket_path, 0o666)  # the sandboxed agent may run as a uid of its own; the folder stays 0700
        self._listener.listen(MAX_CONNECTIONS)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="finscore-endpoint-proxy", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # the listener was closed: the attempt is over
            with self._lock:
                if self._closed or len(self._open) >= 2 * MAX_CONNECTIONS:
                    client.close()
                    continue
            self._forward(client)

    def _forward(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.address, timeout=CONNECT_SECONDS)
        except OSError as error:
            try:
                client.sendall(b"-" + str(error).encode("utf-8", "replace")[:MAX_STATUS_LINE - 2] + b"\n")
            except OSError:
                pass  # the agent is gone already: nobody to tell
            client.close()
            return
        upstream.settimeout(None)
        try:
            client.sendall(b"+\n")
        except OSError:
            client.close()
            upstream.close()
            return
        with self._lock:
            self._open.update((client, upstream))
        for source, sink in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._run_pump, args=(source, sink, client, upstream), daemon=True,
                             name="finscore-endpoint-pump").start()

    def _run_pump(self, source: socket.socket, sink: socket.socket, client: socket.socket,
                  upstream: socket.socket) -> None:
        _pump(source, sink)
        if source is upstream:  # the reply direction ends last: the pair is done
            with self._lock:
                self._open.difference_update((client, upstream))
            client.close()
            upstream.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            still_open = list(self._open)
        for end in still_open:
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already shut
        try:
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (closing alone does not)
        except OSError:
            pass  # not connected: nothing to wake
        self._listener.close()
        self._thread.join(timeout=5)
        shutil.rmtree(self._folder, ignore_errors=True)
