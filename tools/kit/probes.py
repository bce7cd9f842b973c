"""The ten scorer probes (probes.json) as prediction files.

Each probe is one small prediction with a hand-written expectation: five must
pass (each by a different valid route) and five must fail (each for a
different reason, with the exact failure codes written by hand in
probes.json, not computed).
"""

from __future__ import annotations

import json
from typing import Any

from records import CALLS, HERE, answer_from, execute, record

PROBE_FORMAT = "finscore-contracts-probe/1"
PROBES: dict[str, Any] = json.loads((HERE / "probes.json").read_text(encoding="utf-8"))


def _probe(case: dict[str, Any], claim_name: str, spec: dict[str, Any]) -> dict[str, Any]:
    entries = execute(case["world"], [CALLS[name] for name in spec["calls"]])
    final = answer_from(case, spec["cited"], case["language"])
    claim = final["claims"][claim_name]
    if spec.get("claim_from_cited_result"):
        cited = next(entry for entry in entries if entry["id"] == spec["cited"])["result"]
        claim.update({key: cited[key] for key in ("source", "subject", "as_of")})
        claim["value"] = cited["facts"][claim_name]["value"]
    claim.update(spec.get("claim", {}))
    final.update(spec.get("final", {}))
    return {
        "format": PROBE_FORMAT,
        "case_id": case["case_id"],
        "description": spec["description"],
        "expect": spec["expect"],
        "prediction": record(case["case_id"], final, entries),
    }


def build_probes(cases: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Probe name -> probe document, against the case probes.json names."""
    case = cases[PROBES["case_id"]]
    return {spec["name"]: _probe(case, PROBES["claim"], spec) for spec in PROBES["probes"]}
