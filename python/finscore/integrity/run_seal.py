"""The seal over a whole run: a sealed header before its prediction lines and a sealed footer after them.

A line's seal binds one attempt; it cannot say which attempts the run made or
that the file holds all of them. The header (first line of predictions.jsonl)
binds the run id the runtime chose, the case set (its SHA-256 and size), the
kit's version, the attempts per case and so the number of lines the run will
write; the footer (last line) binds the number of lines written and the chain
head over their seals, in file order. Splicing lines of several runs,
deleting attempts, re-ordering or truncating the file then fails as integrity
(docs/contracts-format.md section 5.1).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from finscore.inputs import JsonValueError
from finscore.integrity.seal import GENESIS, mac, sealed_bytes

RUN_SEAL_FORMAT = "finscore-run-seal/1"
HEADER_FIELDS = frozenset(
    {"format", "part", "run_id", "case_set", "case_ids", "cases", "kit", "attempts", "lines", "hmac"}
)
FOOTER_FIELDS = frozenset({"format", "part", "run_id", "lines", "head", "hmac"})


def is_run_seal(value: Any) -> bool:
    """Is this parsed line a run header or footer (rather than a prediction)?"""
    return isinstance(value, Mapping) and value.get("format") == RUN_SEAL_FORMAT


def lines_head(seals: Sequence[Any]) -> str:
    """The chain head over the lines' seals in file order (a missing seal counts as null)."""
    digest = GENESIS
    for seal in seals:
        digest = hashlib.sha256(digest + sealed_bytes(seal)).digest()
    return digest.hex()


def run_header(
    key: bytes, run_id: str, case_set: str, case_ids: Sequence[str], kit: str | None, attempts: int
) -> dict[str, Any]:
    """The sealed header: `case_set` is the SHA-256 of the cases run, `case_ids` their ids (sorted)."""
    cases = len(case_ids)
    body = {
        "format": RUN_SEAL_FORMAT,
        "part": "header",
        "run_id": run_id,
        "case_set": case_set,
        "case_ids": sorted(case_ids),
        "cases": cases,
        "kit": kit,
        "attempts": attempts,
        "lines": cases * attempts,
    }
    return {**body, "hmac": mac(key, body)}


def run_footer(key: bytes, run_id: str, seals: Sequence[Any]) -> dict[str, Any]:
    body = {"format": RUN_SEAL_FORMAT, "part": "footer", "run_id": run_id, "lines": len(seals), "head": lines_head(seals)}
    return {**body, "hmac": mac(key, body)}


@dataclass(frozen=True)
class RunCheck:
    """The verdict on a file's run seal.

    `problem` None: the header and footer verify and bind exactly these lines. Otherwise
    `kind` says which integrity failure it is: "unsealed" (no run header, or one that does
    not verify), "truncated" (no footer that verifies: the file ends before the run did),
    "mismatch" (the lines are not the ones the run sealed). `header` is the verified header.
    """

    problem: str | None
    kind: str | None = None
    header: Mapping[str, Any] | None = None
    #: The header verifies and fits the scoring, but the lines differ from those the run sealed
    #: (their count or chain): each line's own checks may already name the difference.
    lines: bool = False


def _verified(value: Any, fields: frozenset[str], part: str, key: bytes) -> str | None:
    """Why `value` is not a run seal `part` that verifies under `key`, or None."""
    if not isinstance(value, Mapping) or set(value) != fields or value.get("part") != part:
        return f"the run {part} is not a {RUN_SEAL_FORMAT} {part} with fields {', '.join(sorted(fields))}"
    body = {name: value[name] for name in fields - {"hmac"}}
    try:
        expected = mac(key, body)
    except JsonValueError as error:
        return f"the run {part} cannot be put in canonical form (RFC 8785): {error}"
    if not hmac.compare_digest(expected, str(value["hmac"])):
        return f"the run {part}'s HMAC does not verify under this key"
    return None


def check_run(
    header: Any,
    footer: Any,
    seals: Sequence[Any],
    key: bytes,
    *,
    case_set: Callable[[Sequence[str]], str | None],
    attempts: int | None,
) -> RunCheck:
    """Do the header and footer verify under `key` and bind these line seals, these cases, these attempts?

    `header`/`footer`: the file's first and last run-seal lines (None when absent); `seals`: every
    prediction line's seal in file order; `case_set`: the SHA-256 of the scored cases with these ids
    (None if the scored set lacks one), so a run of some cases is scored against a set that holds
    them unchanged; `attempts`: what the scorer was told (None: not told).
    """
    if header is None:
        return RunCheck("the file has no sealed run header: nothing binds its lines into one run", "unsealed")
    problem = _verified(header, HEADER_FIELDS, "header", key)
    if problem is not None:
        return RunCheck(problem, "unsealed")
    ids = header["case_ids"]
    scored = case_set(ids) if isinstance(ids, list) and all(isinstance(i, str) for i in ids) else None
    if scored != header["case_set"]:
        return RunCheck(
            f"the run was sealed for the case set {str(header['case_set'])[:16]}… ({header['cases']} cases), "
            "which the scored case set does not hold unchanged",
            "mismatch",
            header,
        )
    if attempts is not None and attempts != header["attempts"]:
        return RunCheck(
            f"the run was sealed with {header['attempts']} attempt(s) per case; it is scored as {attempts}",
            "mismatch",
            header,
        )
    if footer is None:
        return RunCheck(
            "the file has no run footer: it ends before the run did (cut short, or the run was interrupted)",
            "truncated",
            header,
        )
    problem = _verified(footer, FOOTER_FIELDS, "footer", key)
    if problem is not None:
        return RunCheck(problem, "truncated", header)
    if footer["run_id"] != header["run_id"]:
        return RunCheck("the run footer names another run than the header", "mismatch", header)
    if footer["lines"] != header["lines"] or len(seals) != footer["lines"]:
        return RunCheck(
            f"the run sealed {footer['lines']} line(s) of {header['lines']} announced; the file holds {len(seals)}",
            "mismatch",
            header,
            lines=True,
        )
    if lines_head(seals) != footer["head"]:
        return RunCheck(
            "the lines are not the ones the run sealed, in its order (a line removed, added, replaced or re-ordered)",
            "mismatch",
            header,
            lines=True,
        )
    return RunCheck(None, header=header)
