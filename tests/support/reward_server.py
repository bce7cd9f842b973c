"""`finscore serve-reward` started for real on 127.0.0.1, for the server tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

import httpx

REPOSITORY = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """A running server: its URL and port, and what it wrote on standard error so far."""

    def __init__(self, url: str, port: int, process: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
        self.url, self.port, self.process, self._stderr = url, port, process, stderr

    def stderr(self) -> bytes:
        self._stderr.seek(0)
        return self._stderr.read()


def reward_environment() -> dict[str, str]:
    """This checkout's package first on the path of a `python -m finscore` child."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPOSITORY / "python"),
                                                                        os.environ.get("PYTHONPATH")]))}


@contextmanager
def reward_server(*options: str) -> Iterator[Server]:
    """The server, once /health answers (standard error in a file: a pipe nobody reads could fill
    and stall it); killed on the way out."""
    port = free_port()
    env = reward_environment()
    with tempfile.NamedTemporaryFile() as stderr:
        process = subprocess.Popen([sys.executable, "-m", "finscore", "serve-reward", "--host", "127.0.0.1",
                                    "--port", str(port), *options], env=env, stderr=stderr)
        server = Server(f"http://127.0.0.1:{port}", port, process, stderr)
        deadline = time.monotonic() + 60
        try:
            while True:
                try:
                    if httpx.get(f"{server.url}/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start: {server.stderr()!r}")
                time.sleep(0.2)
            yield server
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(10)
