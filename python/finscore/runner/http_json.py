"""POSTing JSON to an HTTP endpoint with bounded reads and retries on transient failures only.

Retried: connection failures, timeouts, and the statuses that mean "try again"
(408, 409, 425, 429, 500, 502, 503, 504), honouring `Retry-After` up to the
policy's maximum delay. Never retried: any other status, a redirect (refused,
so a request cannot be sent somewhere the user did not name), a response over
the size limit or one that is not JSON. The content of a response is never a
reason to retry: a bad answer is the candidate's answer.
"""

from __future__ import annotations

import functools
import http.client
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from finscore.inputs import JsonValueError, loads_json
from finscore.runner.endpoint_proxy import MAX_STATUS_LINE
from finscore.runner.errors import EndpointError

TRANSIENT_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_ERROR_BODY = 500


@dataclass(frozen=True)
class RetryPolicy:
    """At most `attempts` tries; the wait doubles from `base_delay` and never exceeds `max_delay`."""

    attempts: int = 4
    base_delay: float = 1.0
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if not 1 <= self.attempts <= 10:
            raise EndpointError(f"retry attempts must be between 1 and 10, not {self.attempts}")

    def delay(self, retry: int, retry_after: float | None) -> float:
        wanted = retry_after if retry_after is not None else self.base_delay * (2**retry)
        return max(0.0, min(wanted, self.max_delay))


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def check_url(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise EndpointError(f"{url!r} is not an http(s) URL")
    return url


def _retry_after(headers: Any) -> float | None:
    """Seconds from a `Retry-After` header (an HTTP date is ignored: the policy's backoff applies)."""
    value = headers.get("Retry-After") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None




def _status_line(connection: socket.socket) -> bytes:
    line = b""
    while len(line) < MAX_STATUS_LINE:
        byte = connection.recv(1)
        if not byte or byte == b"\n":
            return line
        line += byte
    raise ConnectionError("the endpoint proxy's status line is too long")


def _unix_connection(path: str, timeout: Any) -> socket.socket:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        if isinstance(timeout, (int, float)):
            connection.settimeout(timeout)
        connection.connect(path)
        status = _status_line(connection)
        if status != b"+":  # the proxy could not reach the endpoint, and says why
            raise ConnectionError(status[1:].decode("utf-8", "replace") or "the endpoint proxy closed the connection")
    except BaseException:
        connection.close()
        raise
    return connection


class _UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP to the URL's host, carried over a Unix socket (the sandbox's endpoint proxy)."""

    def __init__(self, *args: Any, socket_path: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.socket_path = socket_path

    def connect(self) -> None:
        self.sock = _unix_connection(self.socket_path, self.timeout)


class _UnixHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS (TLS to the URL's host, its certificate checked) carried over a Unix socket."""

    def __init__(self, *args: Any, socket_path: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.socket_path = socket_path

    def connect(self) -> None:
        plain = _unix_connection(self.socket_path, self.timeout)
        self.sock = self._context.wrap_socket(plain, server_hostname=self.host)  # type: ignore[attr-defined]


class _UnixHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, socket_path: str) -> None:
        super().__init__()
        self.socket_path = socket_path

    def http_open(self, req: Any) -> Any:
        return self.do_open(functools.partial(_UnixHTTPConnection, socket_path=self.socket_path), req)


class _UnixHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, socket_path: str) -> None:
        super().__init__()
        self.socket_path = socket_path

    def https_open(self, req: Any) -> Any:
        # no context given: HTTPSConnection's default one, which checks the certificate and the host name
        return self.do_open(functools.partial(_UnixHTTPSConnection, socket_path=self.socket_path), req)


def _opener(use_env_proxy: bool, unix_socket: str | None = None) -> urllib.request.OpenerDirector:
    handlers: list[urllib.request.BaseHandler] = [_RefuseRedirects()]
    if not use_env_proxy or unix_socket is not None:
        handlers.append(urllib.request.ProxyHandler({}))
    if unix_socket is not None:
        handlers += [_UnixHTTPHandler(unix_socket), _UnixHTTPSHandler(unix_socket)]
    return urllib.request.build_opener(*handlers)


def _read_bounded(response: Any, max_bytes: int) -> bytes:
    body: bytes = response.read(max_bytes + 1)
    if len(body) > max_bytes:
        raise EndpointError(f"the response is larger than {max_bytes} bytes")
    return body


def _decode(body: bytes) -> Any:
    try:
        return loads_json(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise EndpointError("the response is not UTF-8") from None
    except JsonValueError as error:
        raise EndpointError(f"the response is not JSON: {error}") from None


#: How a request that never reached the endpoint (refused, no such host) is described; `finscore run`
#: looks for it in the trials' details to tell a dead or mistyped URL from a model that crashes.
CONNECTION_FAILED = "connection failed: "


def _one_try(
    opener: urllib.request.OpenerDirector, request: urllib.request.Request, timeout: float, max_bytes: int
) -> Any:
    """One request; raises EndpointError marked transient or not."""
    try:
        with opener.open(request, timeout=timeout) as response:
            return _decode(_read_bounded(response, max_bytes))
    except urllib.error.HTTPError as error:
        with error:
            snippet = error.read(MAX_ERROR_BODY).decode("utf-8", "replace")
            transient = error.code in TRANSIENT_STATUSES
            raise EndpointError(
                f"HTTP {error.code}: {snippet}",
                status=error.code,
                transient=transient,
                retry_after=_retry_after(error.headers),
            ) from None
    except (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError) as error:
        reason = getattr(error, "reason", error)
        if isinstance(reason, TimeoutError):
            raise EndpointError(f"no answer within {timeout:g} s: {reason}", transient=True, timed_out=True) from None
        raise EndpointError(f"{CONNECTION_FAILED}{reason}", transient=True) from None


def post_json(
    url: str,
    payload: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float,
    max_bytes: int,
    retry: RetryPolicy,
    sleep: Callable[[float], None] = time.sleep,
    use_env_proxy: bool = True,
    unix_socket: str | None = None,
) -> Any:
    """The JSON body of a successful POST; raises EndpointError when it cannot get one.

    `unix_socket`: connect there instead of to the URL's host (the sandbox's endpoint proxy,
    which forwards to that host); the request is otherwise the same, TLS included.
    """
    opener = _opener(use_env_proxy, unix_socket)
    request = urllib.request.Request(check_url(url), data=payload, headers=dict(headers), method="POST")
    for attempt in range(retry.attempts):
        try:
            return _one_try(opener, request, timeout, max_bytes)
        except EndpointError as error:
            if not error.transient or attempt + 1 == retry.attempts:
                raise
            sleep(retry.delay(attempt, error.retry_after))
    raise EndpointError("no attempt was made")  # unreachable: attempts >= 1
