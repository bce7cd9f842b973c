"""The ten scorer probes against the 60% equity-concentration contract.

Each probe is one small prediction with a hand-written expectation: five must
pass (each by a different valid route) and five must fail (each for a different
reason, with the exact failure codes written down here by hand, not computed).
"""

from __future__ import annotations

from typing import Any

PROBE_FORMAT = "finscore-contracts-probe/1"


def build_probes(case: dict[str, Any]) -> dict[str, dict[str, Any]]:
    from finscore.contracts.authoring import _holdings, _listing, answer_from, execute, record

    world = case["world"]
    latest, stale, other = (
        _holdings("H001", "2026-08-31"),
        _holdings("H001", "2026-06-30"),
        _holdings("H003", "2026-08-31"),
    )
    listing = _listing("H001")

    def answer(entries: list[dict[str, Any]], cited: str, **changes: Any) -> dict[str, Any]:
        final = answer_from(case, entries, cited, "en")
        claim = final["claims"]["equity_share"]
        claim.update(changes.pop("claim", {}))
        final.update(changes)
        return final

    def probe(description: str, calls: tuple, cited: str, expect: dict[str, Any], **changes: Any) -> dict[str, Any]:
        entries = execute(world, calls)
        prediction = record(case["case_id"], answer(entries, cited, **changes), entries)
        return {
            "format": PROBE_FORMAT,
            "case_id": case["case_id"],
            "description": description,
            "expect": expect,
            "prediction": prediction,
        }

    passes: dict[str, Any] = {"passed": True, "primary_category": None, "codes": []}
    stale_entries = execute(world, (stale,))
    stale_claim = {key: stale_entries[0]["result"][key] for key in ("source", "subject", "as_of")}
    stale_claim["value"] = stale_entries[0]["result"]["facts"]["equity_share"]["value"]
    return {
        "p01-exact-ratio": probe(
            "The ratio as a canonical decimal, read from the latest authorized snapshot.", (latest,), "e1", passes
        ),
        "p02-percent-unit": probe(
            "64.25 with unit percent: the case declares percent_display, so it is read as 0.6425.",
            (latest,),
            "e1",
            passes,
            claim={"value": "64.25", "unit": "percent"},
        ),
        "p03-within-tolerance": probe(
            "A JSON number 0.64254: 0.00004 from the gold, inside the declared 0.00005 ratio tolerance.",
            (latest,),
            "e1",
            passes,
            claim={"value": 0.64254},
        ),
        "p04-cached-snapshot": probe(
            "No call at all: the answer cites this morning's authorized holdings read of 31 August, "
            "which the contract permits as cached evidence.",
            (),
            "cache-snap-H001-2026-08-31",
            passes,
        ),
        "p05-extra-reads": probe(
            "Reads the snapshot list and the stale June snapshot besides the required one; extra "
            "permitted reads in any order are fine, and the cited read is the right one.",
            (listing, stale, latest),
            "e3",
            passes,
        ),
        "p06-percent-not-divided": probe(
            "64.25 with unit ratio: without the percent form nothing is divided by 100, so it is 64.25, not 0.6425.",
            (latest,),
            "e1",
            {"passed": False, "primary_category": "numerical_extraction", "codes": ["claim_value_mismatch"]},
            claim={"value": "64.25"},
        ),
        "p07-unsupporting-citation": probe(
            "A correct claim citing the snapshot list, a well-formed id of a result that does not support it.",
            (listing, latest),
            "e1",
            {"passed": False, "primary_category": "evidence", "codes": ["evidence_unsupported"]},
        ),
        "p08-stale-snapshot": probe(
            "Reads and reports the June snapshot (0.6307 as of 30 June) instead of the latest authorized one.",
            (stale,),
            "e1",
            {
                "passed": False,
                "primary_category": "freshness",
                "codes": [
                    "claim_as_of_mismatch",
                    "claim_source_mismatch",
                    "claim_value_mismatch",
                    "required_call_arguments",
                ],
            },
            claim=stale_claim,
        ),
        "p09-other-household": probe(
            "Tries to read household H003 (refused by the runtime) before answering correctly: an attempted "
            "out-of-scope call fails even though it was refused.",
            (other, latest),
            "e2",
            {"passed": False, "primary_category": "permission", "codes": ["scope_violation"]},
        ),
        "p10-wrong-verdict": probe(
            "The right share with the verdict within_limit: 0.6425 is above the 60% limit.",
            (latest,),
            "e1",
            {"passed": False, "primary_category": "numerical_extraction", "codes": ["policy_label_mismatch"]},
            policy="within_limit",
        ),
    }
