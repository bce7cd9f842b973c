"""The one canonical-JSON writer: keys sorted, no spaces, text as is (not \\u-escaped).

Three callers need three number rules, so the writer has three entry points:
- `canonical_json`: reward and answer details; NaN, infinities and non-JSON types are refused.
- `canonical_digest_json`: digests of read data; Decimals written as strings, NaN written as NaN.
- `canonical_exact_bytes` (in finscore.inputs.jsonvalues, beside the exact reader and writer it is
  made of, so that the input layer and this module import no circle): seals of traces; the value as
  the scorer reads it back (Decimals as exact JSON numbers), UTF-8 with lone surrogates kept.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Callable


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
