"""The conformance stamp on every report, and its re-check.

Two reports can be compared only when they used the same rules: the stamp names
the protocol and version, the finscore version and the SHA-256 of the protocol's
conformance file. `verify_stamp` re-computes each from this installation and
re-decides the conformance file, so a stamp is checked, not trusted.
"""

from __future__ import annotations

import gzip
import json
from typing import Any, Mapping

from finscore.answers.protocol import LENIENT_FORMATS, Protocol, ProtocolError
from finscore.answers.registry import registration


def lenient_label(format: str | None) -> str | None:
    """What a report or stamp made with a lenient format says about it (None for the others)."""
    if format not in LENIENT_FORMATS:
        return None
    return f"{format} is lenient: the completion does not mark its answer, the last number is taken"


def make_stamp(protocol: Protocol, format: str | None = None) -> dict[str, Any]:
    """The stamp; made with a lenient format (last-number) it also says so ("lenient")."""
    from finscore import __version__

    stamp: dict[str, Any] = {"protocol": protocol.name, "finscore": __version__,
                             "conformance_sha256": registration(protocol.name).conformance_sha256()}
    label = lenient_label(format)
    if label is not None:
        stamp["lenient"] = label
    return stamp


def conformance_rows(protocol: Protocol) -> list[dict[str, Any]]:
    """The rows of the protocol's conformance file (gzip JSON Lines)."""
    read = registration(protocol.name).conformance
    if read is None:
        raise ProtocolError(f"{protocol.name} has no conformance file")
    return [json.loads(line) for line in gzip.decompress(read()).decode("utf-8").splitlines()]


def conformance_failures(protocol: Protocol) -> tuple[int, list[str]]:
    """(rows, descriptions of rows not decided as labelled) for the protocol's conformance file."""
    from finscore.answers.decide import decide

    rows = conformance_rows(protocol)
    failures = []
    for row in rows:
        decision = decide(row["completion"], row["gold"], protocol, row["format"])
        got = {"passed": decision.passed, "reason": decision.reason, "k": decision.k}
        if got != row["expect"]:
            failures.append(f"row {row['row']} ({row['label']}): expected {row['expect']}, decided {got}")
    return len(rows), failures


def verify_stamp(report: Mapping[str, Any], *, rerun: bool = True) -> list[str]:
    """Every way the report's stamp disagrees with this installation; empty when it holds."""
    stamp = report.get("stamp")
    if not isinstance(stamp, dict) or not isinstance(stamp.get("protocol"), str):
        return ["the report has no conformance stamp"]
    try:
        protocol = registration(stamp["protocol"]).protocol
    except ProtocolError as error:
        return [str(error)]
    problems = []
    here = make_stamp(protocol)
    for key in ("finscore", "conformance_sha256"):
        if stamp.get(key) != here[key]:
            problems.append(f"{key}: the report says {stamp.get(key)!r}, this installation has {here[key]!r}")
    rules = report.get("protocol", {}).get("definition") if isinstance(report.get("protocol"), dict) else None
    if rules != dict(protocol.data):
        problems.append(f"the rules printed in the report differ from {protocol.name} as registered here")
    if rerun:
        rows, failures = conformance_failures(protocol)
        problems += [f"conformance: {failure}" for failure in failures[:20]]
        if len(failures) > 20:
            problems.append(f"conformance: ... and {len(failures) - 20} more of {rows} rows")
    return problems
