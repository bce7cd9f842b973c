"""The one canonical-JSON writer: keys sorted, no spaces, text as is (not \\u-escaped).

Three callers need three number rules, so the writer has three entry points, all here:
- `canonical_json`: reward and answer details; NaN, infinities and non-JSON types are refused.
- `canonical_digest_json`: digests of read data; Decimals written as strings, NaN written as NaN.
- `canonical_exact_bytes`: seals of traces; the value as the scorer reads it back (Decimals as
  exact JSON numbers), UTF-8 with lone surrogates kept, so writer and reader agree to the byte.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Callable, Mapping


def _decimal_as_text(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__}")


_COMPACT = (",", ":")
#: json.dumps with these arguments builds a new encoder per call; one shared encoder writes the same bytes.
_STRICT = json.JSONEncoder(sort_keys=True, separators=_COMPACT, ensure_ascii=False, allow_nan=False)
_DIGEST = json.JSONEncoder(sort_keys=True, separators=_COMPACT, ensure_ascii=False, default=_decimal_as_text)

#: Compact, sorted, strict JSON text (the bound method itself: rewards call it once per row).
canonical_json: Callable[[Any], str] = _STRICT.encode
#: Compact, sorted JSON text with Decimals as strings, for digests of data read with exact numbers.
canonical_digest_json: Callable[[Any], str] = _DIGEST.encode


def _sorted(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def canonical_exact_bytes(value: Any) -> bytes:
    """The value as written and read back (exact numbers), keys sorted, compact, UTF-8.

    A lone surrogate (never in a trace the runner seals; a forged record may hold one) is
    encoded as surrogatepass writes it, so such a record fails its check instead of crashing it.
    Raises JsonValueError for a value that is not JSON data.
    """
    # Imported here: the reward and answer paths use this module without loading the input layer.
    from finscore.inputs.jsonfiles import loads_exact
    from finscore.inputs.jsonvalues import dumps_json

    return dumps_json(_sorted(loads_exact(dumps_json(value)))).encode("utf-8", "surrogatepass")
