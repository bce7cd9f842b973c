"""Comparing an answer's claims with the case's claims contract.

A claim passes only with exactly the declared claim names and field sets and
every field equal: the value as an exact decimal (within a declared tolerance),
every other field as an exact string. Each comparison is recorded, including
the normalization it used, so the report can show why a value was accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from finscore.contracts.checks.values import read_value, within_tolerance
from finscore.contracts.failures import Code, Failure, failure
from finscore.contracts.formats.models import ClaimContract, ClaimTolerance

#: Exact-string fields and the code a mismatch gets (dates are a freshness matter,
#: sources an evidence matter, the rest a matter of stating the answer).
_FIELD_CODES: dict[str, Code] = {
    "unit": Code.CLAIM_UNIT_MISMATCH,
    "subject": Code.CLAIM_SUBJECT_MISMATCH,
    "as_of": Code.CLAIM_AS_OF_MISMATCH,
    "source": Code.CLAIM_SOURCE_MISMATCH,
}


@dataclass(frozen=True)
class ClaimCheck:
    """How one predicted claim was read and compared (recorded in the report)."""

    name: str
    passed: bool
    value: Decimal | None
    normalizations: tuple[str, ...]
    tolerance: ClaimTolerance | None


def _show(value: Any) -> Any:
    return value if isinstance(value, (str, int, type(None))) and not isinstance(value, bool) else str(value)


def _units_agree(contract: ClaimContract, claimed_unit: Any, as_percent: bool) -> bool:
    gold_unit = contract.fields["unit"]
    if claimed_unit == gold_unit:
        return True
    return as_percent and gold_unit == "ratio" and claimed_unit == "percent"


def compare_claim(contract: ClaimContract, claim: Mapping[str, Any]) -> tuple[ClaimCheck, list[Failure]]:
    part = f"claims.{contract.name}"
    expected_fields = sorted(contract.fields)
    if sorted(claim) != expected_fields:
        problem = failure(Code.CLAIM_FIELDS_MISMATCH, part, expected=expected_fields, actual=sorted(claim))
        return ClaimCheck(contract.name, False, None, (), contract.tolerance), [problem]
    failures: list[Failure] = []
    reading = read_value(claim["value"], contract.accept, claim["unit"])
    if reading.value is None:
        failures.append(
            failure(
                Code.CLAIM_VALUE_UNREADABLE,
                f"{part}.value",
                expected=contract.fields["value"],
                actual=_show(claim["value"]),
                message=reading.problem or "",
            )
        )
    elif not within_tolerance(reading.value, contract.value, contract.tolerance):
        failures.append(
            failure(
                Code.CLAIM_VALUE_MISMATCH,
                f"{part}.value",
                expected=contract.fields["value"],
                actual=_show(claim["value"]),
                message=f"read as {reading.value}",
            )
        )
    for name in expected_fields:
        if name == "value":
            continue
        actual = claim[name]
        if name == "unit":
            agrees = _units_agree(contract, actual, reading.as_percent)
        else:
            agrees = isinstance(actual, str) and actual == contract.fields[name]
        if not agrees:
            code = _FIELD_CODES.get(name, Code.CLAIM_FIELDS_MISMATCH)
            failures.append(failure(code, f"{part}.{name}", expected=contract.fields[name], actual=_show(actual)))
    check = ClaimCheck(contract.name, not failures, reading.value, reading.applied, contract.tolerance)
    return check, failures


def compare_claims(
    contracts: Mapping[str, ClaimContract], claims: Mapping[str, Any]
) -> tuple[list[ClaimCheck], list[Failure]]:
    """Compare every declared claim; name every missing and every unexpected one."""
    checks: list[ClaimCheck] = []
    failures: list[Failure] = []
    for name, contract in contracts.items():
        if name not in claims:
            failures.append(failure(Code.CLAIM_MISSING, f"claims.{name}", expected=dict(contract.fields), actual=None))
            continue
        check, found = compare_claim(contract, claims[name])
        checks.append(check)
        failures.extend(found)
    for name in claims:
        if name not in contracts:
            failures.append(failure(Code.CLAIM_UNEXPECTED, f"claims.{name}", expected=None, actual=name))
    return checks, failures
