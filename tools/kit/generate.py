"""Writes the public kit (cases, oracle records, probes) from kit.json, questions/ and probes.json.

The kit is data committed in the package (python/finscore/contracts/kit/);
this generator is how it was made and stays outside the wheel. Expected
values come from executing each case's expected call with finscore's own
tools (`finscore.world`, exact fractions); tests/contracts/test_kit.py
regenerates the kit into a temporary folder and checks it is byte-identical
to the committed files, and recomputes every value from each case's
documented `derivation` independently.

    PYTHONPATH=python python tools/kit/generate.py            # rewrite the kit
    PYTHONPATH=python python tools/kit/generate.py --check    # only list stale files
    PYTHONPATH=python python tools/kit/generate.py --out DIR  # write elsewhere
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from derivations import DERIVATIONS
from finscore.world import CASE_FORMAT
from probes import build_probes
from records import (
    CALLS,
    DATA,
    LANGUAGES,
    QUESTIONS,
    SCRIPT_OF,
    Call,
    answer_from,
    execute,
    record,
    snapshots,
    tool_specs,
)

KIT = Path(__file__).resolve().parents[2] / "python" / "finscore" / "contracts" / "kit"


def _world(family: dict[str, Any]) -> dict[str, Any]:
    cached: list[dict[str, Any]] = []
    world: dict[str, Any] = {
        "today": DATA["today"],
        "household_scope": [family["household"]],
        "households": DATA["households"],
        "snapshots": snapshots(),
        "cached_evidence": cached,
        "tools": tool_specs(family["tools"]),
    }
    for entry in execute(world, [CALLS[name] for name in family["cached"]], turn=0):
        entry["id"] = f"cache-{entry['result']['source']}"
        cached.append(entry)
    return world


def _accept(unit: str, language: str) -> list[str]:
    accept = ["currency_symbol", "grouping_indian"] if unit == "INR" else ["percent_display"]
    if language == "en" and unit == "INR":
        accept.append("grouping_western")
    if language in SCRIPT_OF:
        accept.append(SCRIPT_OF[language])
    return accept


def _plan(family: dict[str, Any], expected: Call | None) -> dict[str, Any]:
    if family["plan_kind"] == "no_calls":
        return {"kind": "no_calls", "category": family["no_calls_category"]}
    assert expected is not None, family["name"]
    requirement = expected.requirement("r1", family["requirement_category"])
    if family["plan_kind"] == "sequence":
        return {"kind": "sequence", "steps": [requirement]}
    return {"kind": "requirements", "required_calls": [requirement], "permitted_tools": list(family["permitted"])}


def _claims(family: dict[str, Any], expected: Call, world: dict[str, Any], language: str) -> dict[str, Any]:
    result = execute(world, [expected])[0]["result"]
    claims: dict[str, Any] = {}
    for spec in family["claims"]:
        fact = result["facts"][spec["name"]]
        tolerance = None
        if spec["tolerance"] is not None:
            tolerance = {"unit": fact["unit"], "absolute": spec["tolerance"], "relative": "0"}
        claims[spec["name"]] = {
            "fields": {
                "value": fact["value"],
                "unit": fact["unit"],
                "subject": result["subject"],
                "as_of": result["as_of"],
                "source": result["source"],
            },
            "tolerance": tolerance,
            "accept": _accept(fact["unit"], language),
            "evidence": {"fact": spec["name"]},
        }
    return claims


def build_case(family: dict[str, Any], language: str) -> dict[str, Any]:
    world = _world(family)
    expected = CALLS[family["expected_call"]] if family["expected_call"] is not None else None
    policy = family["policy"]
    case: dict[str, Any] = {
        "format": CASE_FORMAT,
        "case_id": f"{family['prefix']}-{language}",
        "family": family["name"],
        "language": language,
        "question": QUESTIONS[language][family["name"]],
        "world": world,
        "contract": {
            "response": family["response"],
            "claims": {} if expected is None else _claims(family, expected, world, language),
            "policy": None if policy is None else {"label": policy},
            "trace": {
                "plan": _plan(family, expected),
                "forbidden_calls": DATA["forbidden_calls"],
                "final_writes": 0,
                "cached_evidence": "permitted" if family["cached"] else "not_permitted",
            },
        },
    }
    if family["derivation"] is not None and expected is not None:
        case["derivation"] = DERIVATIONS[family["derivation"]](expected, world)
    return case


def oracle_record(family: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    """The oracle's prediction: its calls (JSON numbers in Tamil), then the answer citing the expected call."""
    language = case["language"]
    names = family["oracle_calls"][language]
    entries = execute(case["world"], [CALLS[name] for name in names], numbers=language == "ta")
    if family["response"]["kind"] != "answer":
        final = dict(family["response"])
    else:
        cited = next(entry["id"] for entry, name in zip(entries, names, strict=True) if name == family["expected_call"])
        final = answer_from(case, cited, language)
    return record(case["case_id"], final, entries)


def build_kit() -> dict[str, str]:
    """Every kit file, as relative path -> exact text."""
    files: dict[str, str] = {}
    oracle_lines = []
    cases: dict[str, dict[str, Any]] = {}
    for family in DATA["families"]:
        for language in LANGUAGES:
            case = build_case(family, language)
            cases[case["case_id"]] = case
            files[f"cases/{case['case_id']}.json"] = json.dumps(case, ensure_ascii=False, indent=2) + "\n"
            oracle_lines.append(json.dumps(oracle_record(family, case), ensure_ascii=False))
    files["oracle.jsonl"] = "\n".join(oracle_lines) + "\n"
    for name, probe in build_probes(cases).items():
        files[f"probes/{name}.json"] = json.dumps(probe, ensure_ascii=False, indent=2) + "\n"
    return files


def stale_files(root: Path = KIT) -> list[str]:
    """Kit files under `root` that differ from what this generator writes (or are missing, or extra)."""
    expected = build_kit()
    present = {str(path.relative_to(root)) for path in root.rglob("*.json*")}
    stale = [
        name
        for name, text in expected.items()
        if not (root / name).is_file() or (root / name).read_bytes() != text.encode("utf-8")
    ]
    return sorted(stale + sorted(present - expected.keys()))


def write_kit(root: Path) -> None:
    for name, text in build_kit().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the contracts kit.")
    parser.add_argument("--check", action="store_true", help="only list files that differ; status 1 if any")
    parser.add_argument("--out", type=Path, default=KIT, help=f"folder to write (default {KIT})")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.out)
        for name in stale:
            print(f"stale: {name}")
        return 1 if stale else 0
    write_kit(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
