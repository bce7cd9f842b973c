"""The hash chain of a trace and the HMAC-SHA256 seal of a prediction line.

Each trace entry's digest is SHA-256 over the previous digest (32 zero bytes
before the first entry) and the entry's canonical JSON; the last digest is the
chain head. The seal is an HMAC-SHA256, under the evaluator's key, of the
canonical JSON of: the run id, the scope (a line of a sealed run, or a line on
its own), the case id, the attempt, the entry count, the chain head, and the
digest of the rest of the line (status, detail, final response, raw output,
producer). Removing, adding, editing or re-ordering any entry, or editing the
answer, changes what the seal covers; only the key holder can compute a new
seal. Canonical JSON is RFC 8785 (finscore.integrity.jcs), and a sealed line
holds canonical numbers only, so one sealed byte string is one line as the
scorer reads it (`5e0` for `5` breaks the seal).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from finscore.inputs import JsonValueError
from finscore.inputs.jsonvalues import canonical_exact_bytes
from finscore.integrity.jcs import canonical_numbers, canonicalize, first_noncanonical_number

SEAL_FORMAT = "finscore-seal/2"
#: Seal formats this finscore reads but no longer verifies, and why.
RETIRED_FORMATS = {
    "finscore-seal/1": "its canonical form was not unique (a number written 5e0 sealed like 5), and it binds no run",
}
#: A line sealed as part of a run needs the file's sealed run header and footer (integrity.run_seal);
#: a line sealed on its own (one sample of an inspect log) is verified by itself.
SCOPES = ("run", "line")
GENESIS = bytes(32)
#: The line's fields the `record` digest covers besides the trace; an absent field counts as null,
#: so `producer` (what made the line) is sealed as soon as the runtime writes it.
RECORD_FIELDS = ("status", "status_detail", "final", "raw_output", "producer")
_SEAL_FIELDS = {"format", "run_id", "scope", "case_id", "attempt", "entries", "head", "record", "hmac"}
_HEX64 = frozenset("0123456789abcdef")


#: The exact canonical form replay compares values in (public here: contracts checks import it from
#: this module); seals cover `sealed_bytes`, RFC 8785.
canonical_bytes = canonical_exact_bytes
sealed_bytes = canonicalize


def chain_head(entries: Sequence[Any]) -> str:
    """The chain head of a list of entries (hex); the genesis value for an empty trace."""
    digest = GENESIS
    for entry in entries:
        digest = hashlib.sha256(digest + sealed_bytes(entry)).digest()
    return digest.hex()


def _record_digest(line: Mapping[str, Any]) -> str:
    return hashlib.sha256(sealed_bytes(_record(line))).hexdigest()


def _record(line: Mapping[str, Any]) -> dict[str, Any]:
    return {name: line.get(name) for name in RECORD_FIELDS}


def mac(key: bytes, body: Mapping[str, Any]) -> str:
    """HMAC-SHA256 under `key` of the RFC 8785 form of `body` (hex)."""
    return hmac.new(key, sealed_bytes(body), hashlib.sha256).hexdigest()


def new_run_id() -> str:
    """A fresh random run id (128 bits, hex)."""
    return secrets.token_hex(16)


def _body(line: Mapping[str, Any], entries: Sequence[Any], run_id: str, scope: str) -> dict[str, Any]:
    return {
        "format": SEAL_FORMAT,
        "run_id": run_id,
        "scope": scope,
        "case_id": line.get("case_id"),
        "attempt": line.get("attempt"),
        "entries": len(entries),
        "head": chain_head(entries),
        "record": _record_digest(line),
    }


def seal_prediction(line: Mapping[str, Any], key: bytes, run_id: str, scope: str = "line") -> dict[str, Any]:
    """A copy of a prediction line, its numbers in canonical form, with its `seal` field.

    The line's trace must hold `entries`. `scope` is "run" for a line of a sealed run
    (the file must then carry the run's header and footer) or "line" for a line on its own.
    """
    if scope not in SCOPES:
        raise ValueError(f"a seal's scope is one of {', '.join(SCOPES)}, not {scope!r}")
    canonical: dict[str, Any] = canonical_numbers(dict(line))
    body = _body(canonical, canonical["trace"]["entries"], run_id, scope)
    return {**canonical, "seal": {**body, "hmac": mac(key, body)}}


@dataclass(frozen=True)
class SealCheck:
    """The verdict on one line's seal: `problem` is None when it verifies; `run_id` when readable."""

    problem: str | None
    missing: bool = False
    run_id: str | None = None
    #: The seal is in a format this finscore no longer verifies (RETIRED_FORMATS).
    retired: bool = False
    #: "run" when the line says it belongs to a sealed run (its header and footer must then verify).
    scope: str | None = None


def _is_hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= _HEX64


def check_seal(line: Mapping[str, Any], key: bytes) -> SealCheck:
    """Does the line's seal verify under `key` and cover exactly this line and this trace?"""
    seal = line.get("seal")
    if seal is None:
        return SealCheck("the line has no seal", missing=True)
    retired = RETIRED_FORMATS.get(str(seal.get("format"))) if isinstance(seal, Mapping) else None
    if retired is not None:
        return SealCheck(
            f"the seal is {seal['format']}, which this finscore no longer verifies ({retired}); "
            f"run the agent again to seal it as {SEAL_FORMAT}",
            retired=True,
        )
    if not isinstance(seal, Mapping) or set(seal) != _SEAL_FIELDS or seal.get("format") != SEAL_FORMAT:
        return SealCheck(f"the seal is not a {SEAL_FORMAT} object with fields {', '.join(sorted(_SEAL_FIELDS))}")
    run_id, scope = seal["run_id"], seal["scope"]
    if not isinstance(run_id, str) or not _is_hex64(seal["hmac"]) or scope not in SCOPES:
        return SealCheck("the seal's run_id, scope or hmac is malformed")
    trace = line.get("trace")
    entries = trace.get("entries") if isinstance(trace, Mapping) else None
    if not isinstance(entries, list):
        return SealCheck("the trace has no list of entries to check against the seal", run_id=run_id)
    try:
        body = _body(line, entries, run_id, scope)
        expected = {name: seal[name] for name in body}
        verifies = hmac.compare_digest(mac(key, expected), str(seal["hmac"]))
    except JsonValueError as error:
        return SealCheck(f"the line cannot be put in canonical form (RFC 8785): {error}", run_id=run_id)
    if not verifies:
        return SealCheck("the seal's HMAC does not verify under this key", run_id=run_id)
    noncanonical = first_noncanonical_number({"trace": {"entries": entries}, **_record(line)})
    if noncanonical is not None:
        return SealCheck(f"a sealed line holds canonical numbers only: {noncanonical}", run_id=run_id)
    for name, what in (
        ("case_id", "case"),
        ("attempt", "attempt"),
        ("entries", "number of trace entries"),
        ("head", "trace (an entry was edited, removed, added or re-ordered)"),
        ("record", "status, final response or raw output"),
    ):
        if body[name] != expected[name]:
            return SealCheck(f"the {what} differs from what the runtime sealed", run_id=run_id)
    return SealCheck(None, run_id=run_id, scope=scope)
