"""The public kit: its shape, its freshness, and every expected value recomputed independently.

Each expected value is recomputed here from the inputs its case documents, with
`fractions.Fraction` and CPython's own exact half-even rounding of fractions
(`round(Fraction, n)`), never by calling the code that wrote the kit.
"""

from __future__ import annotations

import decimal
import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import finscore
from finscore.contracts import KIT_DIRECTORY

GENERATOR = Path(__file__).resolve().parents[2] / "tools" / "kit" / "generate.py"

CALCULATOR_FAMILIES = {"future_value", "sip_maturity", "loan_emi", "capital_gains"}
SNAPSHOT_FAMILIES = {"equity_concentration", "freshness"}


def test_24_cases_are_8_families_in_3_languages(kit_cases):
    assert len(kit_cases) == 24
    families = Counter(case.family for case in kit_cases.values())
    assert len(families) == 8 and set(families.values()) == {3}
    for family in families:
        assert {c.language for c in kit_cases.values() if c.family == family} == {"en", "hi", "ta"}


def test_questions_are_in_their_language_and_typed_fields_are_not(kit_cases):
    for case in kit_cases.values():
        text = case.question
        if case.language == "hi":
            assert any("\u0900" <= ch <= "\u097f" for ch in text), case.case_id
        if case.language == "ta":
            assert any("\u0b80" <= ch <= "\u0bff" for ch in text), case.case_id
    for family in {c.family for c in kit_cases.values()}:
        siblings = [c for c in kit_cases.values() if c.family == family]
        assert len({c.raw["contract"]["policy"] and c.raw["contract"]["policy"]["label"] for c in siblings}) == 1
        assert (
            len({tuple(sorted((n, tuple(sorted(cl.fields.items()))) for n, cl in c.claims.items())) for c in siblings})
            == 1
        )


def _files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def test_the_committed_kit_is_what_the_generator_writes(tmp_path):
    # tools/kit/generate.py (outside the wheel) writes a fresh kit into a temporary folder; the
    # committed files must be exactly those bytes, no file missing and none extra.
    environment = dict(os.environ, PYTHONPATH=str(Path(finscore.__file__).resolve().parents[1]))
    run = subprocess.run(
        [sys.executable, str(GENERATOR), "--out", str(tmp_path)], capture_output=True, text=True, env=environment
    )
    assert run.returncode == 0, run.stderr
    fresh, committed = _files(tmp_path), _files(KIT_DIRECTORY)
    assert sorted(fresh) == sorted(committed)
    assert len(fresh) == 36  # 24 cases, the oracle records, 11 probes
    assert [name for name in fresh if fresh[name] != committed[name]] == []


def _arguments(case) -> dict[str, object]:
    call = case.trace.plan.calls[0]
    return {name: spec.value for name, spec in call.arguments.items()}


def _input(derivation, name) -> Fraction:
    return Fraction(str(derivation["inputs"][name]["value"]))


def recompute(case) -> dict[str, tuple[Fraction, int]]:
    """claim name -> (exact value, decimal places), from the case's own documented inputs."""
    d = case.raw["derivation"]
    if case.family in SNAPSHOT_FAMILIES:
        holdings = d["inputs"]["holdings"]
        total = sum(Fraction(h["units"]) * Fraction(h["price"]) for h in holdings)
        equity = sum(Fraction(h["units"]) * Fraction(h["price"]) for h in holdings if h["asset_class"] == "equity")
        return {"equity_share": (equity / total, 4), "total_value": (total, 2)}
    if case.family == "capital_gains":
        gain = _input(d, "sale_value") - _input(d, "cost_basis")
        assert d["inputs"]["holding_months"]["value"] > 12  # long-term: the documented exemption applies
        taxable = max(Fraction(0), gain - _input(d, "exemption"))
        return {"taxable_gain": (taxable, 2), "estimated_tax": (taxable * _input(d, "rate"), 2)}
    rate, years = _input(d, "annual_rate"), int(d["inputs"]["years"]["value"])
    i, n = rate / 12, 12 * years
    if case.family == "future_value":
        return {"future_value": (_input(d, "principal") * (1 + rate) ** years, 2)}
    if case.family == "sip_maturity":
        return {"maturity_value": (_input(d, "monthly_installment") * ((1 + i) ** n - 1) / i * (1 + i), 2)}
    principal = _input(d, "principal")
    return {"emi": (principal * i * (1 + i) ** n / ((1 + i) ** n - 1), 2)}


def answer_cases(kit_cases):
    return [c for c in kit_cases.values() if c.response.kind == "answer"]


def test_every_expected_value_recomputed_from_its_documented_inputs(kit_cases):
    checked = 0
    for case in answer_cases(kit_cases):
        expected = recompute(case)
        for name, claim in case.claims.items():
            exact, places = expected[name]
            assert Fraction(claim.fields["value"]) == round(exact, places), (case.case_id, name)
            checked += 1
    assert checked == 21  # 18 answer cases, capital gains with two claims each


def test_documented_inputs_are_the_contracts_and_the_fixtures(kit_cases):
    for case in answer_cases(kit_cases):
        d = case.raw["derivation"]
        if case.family in CALCULATOR_FAMILIES:
            arguments = _arguments(case)
            for name, spec in d["inputs"].items():
                if name in arguments:
                    assert Fraction(str(spec["value"])) == Fraction(str(arguments[name])), (case.case_id, name)
        else:
            snapshot = next(s for s in case.raw["world"]["snapshots"] if s["snapshot_id"] == d["inputs"]["snapshot_id"])
            assert snapshot["holdings"] == d["inputs"]["holdings"] and snapshot["authorized"]
            assert _arguments(case)["as_of"] == snapshot["as_of"]


def test_the_freshness_case_expects_the_latest_authorized_snapshot(kit_cases):
    cases = [c for c in kit_cases.values() if c.family == "freshness"]
    assert len(cases) == 3  # one a language
    for case in cases:
        household = next(iter(case.world.household_scope))
        snapshots = [s for s in case.raw["world"]["snapshots"] if s["household_id"] == household]
        latest = max((s for s in snapshots if s["authorized"]), key=lambda s: s["as_of"])
        assert any(s["as_of"] > latest["as_of"] and not s["authorized"] for s in snapshots)
        assert case.claims["total_value"].fields["source"] == latest["snapshot_id"]
        assert case.claims["total_value"].fields["as_of"] == latest["as_of"]


def test_the_concentration_verdict_follows_the_60_percent_limit(kit_cases):
    cases = [c for c in kit_cases.values() if c.family == "equity_concentration"]
    assert len(cases) == 3  # one a language
    for case in cases:
        share = Fraction(case.claims["equity_share"].fields["value"])
        assert case.policy_label == ("exceeds_limit" if share > Fraction(60, 100) else "within_limit")


def test_no_expected_value_is_near_a_rounding_tie_so_decimal_at_50_digits_agrees(kit_cases):
    # The format document promises this margin, so a runtime using decimal at 50 digits gets the same digits.
    for case in answer_cases(kit_cases):
        for name, (exact, places) in recompute(case).items():
            scaled = exact * 10**places
            distance_to_tie = abs(scaled - (scaled.numerator // scaled.denominator) - Fraction(1, 2))
            assert distance_to_tie >= Fraction(1, 10**6), (case.case_id, name)  # in units of the last place
            with decimal.localcontext() as context:
                context.prec = 50
                approx = decimal.Decimal(exact.numerator) / decimal.Decimal(exact.denominator)
                quantized = approx.quantize(decimal.Decimal(1).scaleb(-places), rounding=decimal.ROUND_HALF_EVEN)
            assert Fraction(quantized) == round(exact, places)


@pytest.mark.parametrize("family", sorted(CALCULATOR_FAMILIES | SNAPSHOT_FAMILIES))
def test_each_answer_case_documents_its_arithmetic(kit_cases, family):
    cases = [c for c in kit_cases.values() if c.family == family]
    assert len(cases) == 3  # one a language
    for case in cases:
        derivation = case.raw["derivation"]
        assert derivation["formula"] and derivation["steps"] and derivation["inputs"]
        assert "ROUND_HALF_EVEN" in derivation["rounding"]
