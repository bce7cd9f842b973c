"""The hash chain of a trace and the HMAC-SHA256 seal of a prediction line.

Each trace entry's digest is SHA-256 over the previous digest (32 zero bytes
before the first entry) and the entry's canonical JSON; the last digest is the
chain head. The seal is an HMAC-SHA256, under the evaluator's key, of the
canonical JSON of: the run id, the case id, the attempt, the entry count, the
chain head, and the digest of the rest of the line (status, detail, final
response, raw output, producer). Removing, adding, editing or re-ordering any entry, or
editing the answer, changes what the seal covers; only the key holder can
compute a new seal. Canonical JSON is the value as the scorer reads it back
(exact decimals), keys sorted, no spaces, so writer and reader agree to the byte.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from finscore.inputs import JsonValueError
from finscore.inputs.jsonvalues import canonical_exact_bytes

SEAL_FORMAT = "finscore-seal/1"
GENESIS = bytes(32)
#: The line's fields the `record` digest covers besides the trace; an absent field counts as null,
#: so `producer` (what made the line) is sealed as soon as the runtime writes it.
RECORD_FIELDS = ("status", "status_detail", "final", "raw_output", "producer")
_SEAL_FIELDS = {"format", "run_id", "case_id", "attempt", "entries", "head", "record", "hmac"}
_HEX64 = frozenset("0123456789abcdef")


#: The canonical form seals cover (public here: contracts checks import it from this module).
canonical_bytes = canonical_exact_bytes


def chain_head(entries: Sequence[Any]) -> str:
    """The chain head of a list of entries (hex); the genesis value for an empty trace."""
    digest = GENESIS
    for entry in entries:
        digest = hashlib.sha256(digest + canonical_bytes(entry)).digest()
    return digest.hex()


def _record_digest(line: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_bytes({name: line.get(name) for name in RECORD_FIELDS})).hexdigest()


def _mac(key: bytes, body: Mapping[str, Any]) -> str:
    return hmac.new(key, canonical_bytes(body), hashlib.sha256).hexdigest()


def new_run_id() -> str:
    """A fresh random run id (128 bits, hex)."""
    return secrets.token_hex(16)


def _body(line: Mapping[str, Any], entries: Sequence[Any], run_id: str) -> dict[str, Any]:
    return {
        "format": SEAL_FORMAT,
        "run_id": run_id,
        "case_id": line.get("case_id"),
        "attempt": line.get("attempt"),
        "entries": len(entries),
        "head": chain_head(entries),
        "record": _record_digest(line),
    }


def seal_prediction(line: Mapping[str, Any], key: bytes, run_id: str) -> dict[str, Any]:
    """A copy of a prediction line with its `seal` field (the line's trace must hold `entries`)."""
    entries = line["trace"]["entries"]
    body = _body(line, entries, run_id)
    return {**line, "seal": {**body, "hmac": _mac(key, body)}}


@dataclass(frozen=True)
class SealCheck:
    """The verdict on one line's seal: `problem` is None when it verifies; `run_id` when readable."""

    problem: str | None
    missing: bool = False
    run_id: str | None = None


def _is_hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX64


def check_seal(line: Mapping[str, Any], key: bytes) -> SealCheck:
    """Does the line's seal verify under `key` and cover exactly this line and this trace?"""
    seal = line.get("seal")
    if seal is None:
        return SealCheck("the line has no seal", missing=True)
    if not isinstance(seal, Mapping) or set(seal) != _SEAL_FIELDS or seal.get("format") != SEAL_FORMAT:
        return SealCheck(f"the seal is not a {SEAL_FORMAT} object with fields {', '.join(sorted(_SEAL_FIELDS))}")
    run_id = seal["run_id"]
    if not isinstance(run_id, str) or not _is_hex64(seal["hmac"]):
        return SealCheck("the seal's run_id or hmac is malformed")
    trace = line.get("trace")
    entries = trace.get("entries") if isinstance(trace, Mapping) else None
    if not isinstance(entries, list):
        return SealCheck("the trace has no list of entries to check against the seal", run_id=run_id)
    try:
        body = _body(line, entries, run_id)
    except JsonValueError as error:
        return SealCheck(f"the line cannot be put in canonical form: {error}", run_id=run_id)
    expected = {name: seal[name] for name in body}
    if not hmac.compare_digest(_mac(key, expected), str(seal["hmac"])):
        return SealCheck("the seal's HMAC does not verify under this key", run_id=run_id)
    for name, what in (
        ("case_id", "case"),
        ("attempt", "attempt"),
        ("entries", "number of trace entries"),
        ("head", "trace (an entry was edited, removed, added or re-ordered)"),
        ("record", "status, final response or raw output"),
    ):
        if body[name] != expected[name]:
            return SealCheck(f"the {what} differs from what the runtime sealed", run_id=run_id)
    return SealCheck(None, run_id=run_id)
