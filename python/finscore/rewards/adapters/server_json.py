"""Reading a request body as JSON without holding the interpreter for long, for the reward server.

The server parses bodies on a worker thread so the event loop keeps answering (`/health`,
refusals) meanwhile. A thread alone is not enough: `json.loads` is one C call that keeps the
GIL until it returns, and a dense 60 MiB body (millions of tiny values) takes seconds, all of
them stolen from the event loop. So a body over `STEPPED_BYTES` is read in steps: containers
(`{` and `[`) by the standard library's own Python `JSONObject` and `JSONArray`, every other
value (string, number, constant) by the C scanner `json.loads` itself uses. Between two values
the thread runs Python bytecode, so the interpreter hands the GIL to the event loop at its
switch interval; the longest single hold is one scalar (a long string: tens of milliseconds).

The value and every error (type, message, position) are those of `json.loads` on the same
bytes: the same decoding step, the same scalar code, and the container code CPython keeps
equal to its C twin. One difference is by design: nesting costs two Python frames a level
here, so a body nested several hundred levels deep raises RecursionError sooner than
`json.loads` would (the server refuses either way, no valid payload nests past three levels).
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
from json.decoder import JSONDecoder
from typing import Any, Callable

#: Bodies up to this size go to `json.loads` in one call: at most about 0.1 s of C even when dense.
STEPPED_BYTES = 1024 * 1024

_ScanResult = tuple[Any, int]
_Scan = Callable[[str, int], _ScanResult]
# The standard library's own pieces (public in json's source, absent from its type stubs).
_JSON_OBJECT: Callable[..., _ScanResult] = getattr(json.decoder, "JSONObject")
_JSON_ARRAY: Callable[..., _ScanResult] = getattr(json.decoder, "JSONArray")
_C_MAKE_SCANNER: Callable[[JSONDecoder], _Scan] | None = getattr(json.scanner, "c_make_scanner", None)


def _scanner() -> _Scan:
    """A scan_once for JSONDecoder: containers in Python (a GIL hand-off point per value), scalars in C."""
    if _C_MAKE_SCANNER is None:  # an interpreter without the _json accelerator: its Python scanner already steps
        python_scan: _Scan = getattr(JSONDecoder(), "scan_once")
        return python_scan
    c_scan = _C_MAKE_SCANNER(JSONDecoder())
    memo: dict[str, str] = {}

    def scan(text: str, index: int) -> _ScanResult:
        first = text[index:index + 1]
        if first == "{":
            return _JSON_OBJECT((text, index + 1), True, scan, None, None, memo)
        if first == "[":
            return _JSON_ARRAY((text, index + 1), scan)
        return c_scan(text, index)

    return scan


def loads_body(body: bytes) -> Any:
    """`json.loads(body)`, the same value or the same exception, in GIL-sized steps for a large body."""
    if len(body) <= STEPPED_BYTES:
        return json.loads(body)
    text = body.decode(json.detect_encoding(body), "surrogatepass")  # what json.loads does with bytes
    decoder = JSONDecoder()
    setattr(decoder, "scan_once", _scanner())  # the hook JSONDecoder.raw_decode calls
    return decoder.decode(text)
