"""The exact arithmetic of the calculator tools (docs/contracts-format.md section 3.3).

Everything is `fractions.Fraction` on the exact decimal inputs and is rounded
once, at the end, half to even: a rounded intermediate would move a result by
a paisa on some inputs, and the kit's expected values are computed this way.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

MONTHS_PER_YEAR = 12
LONG_TERM_AFTER_MONTHS = 12
LONG_TERM_EXEMPTION = Fraction(125000)
LONG_TERM_RATE = Fraction(125, 1000)
SHORT_TERM_RATE = Fraction(20, 100)


def round_half_even(value: Fraction, places: int) -> Decimal:
    """`value` rounded to `places` decimals, ties to even (what `Fraction.__round__` does)."""
    units = round(value * 10**places)
    return Decimal(f"{units}E-{places}")  # from text: exact at any size, no context rounding


def canonical(value: Decimal) -> str:
    """The canonical decimal string `-?[0-9]+(.[0-9]+)?` of a finite Decimal, trailing zeros kept."""
    return format(value, "f")


def inr(value: Fraction) -> str:
    """An amount in rupees: two places."""
    return canonical(round_half_even(value, 2))


def ratio(value: Fraction) -> str:
    """A ratio: four places."""
    return canonical(round_half_even(value, 4))


def future_value(principal: Fraction, annual_rate: Fraction, years: int) -> Fraction:
    """Yearly compounding: P × (1 + r)^y."""
    return principal * (1 + annual_rate) ** years


def sip_maturity(installment: Fraction, annual_rate: Fraction, years: int) -> Fraction:
    """Instalments at the start of each month, monthly compounding at r/12."""
    months = MONTHS_PER_YEAR * years
    if annual_rate == 0:
        return installment * months
    monthly = annual_rate / MONTHS_PER_YEAR
    return installment * ((1 + monthly) ** months - 1) / monthly * (1 + monthly)


def emi(principal: Fraction, annual_rate: Fraction, years: int) -> Fraction:
    """Reducing-balance monthly instalment."""
    months = MONTHS_PER_YEAR * years
    if annual_rate == 0:
        return principal / months
    monthly = annual_rate / MONTHS_PER_YEAR
    growth = (1 + monthly) ** months
    return principal * monthly * growth / (growth - 1)


@dataclass(frozen=True)
class CapitalGains:
    gain: Fraction
    taxable: Fraction
    tax: Fraction
    term: str


def capital_gains(sale_value: Fraction, cost_basis: Fraction, holding_months: int) -> CapitalGains:
    """Listed equity: long-term (held over 12 months) gets the exemption and the lower rate."""
    gain = sale_value - cost_basis
    long_term = holding_months > LONG_TERM_AFTER_MONTHS
    exemption = LONG_TERM_EXEMPTION if long_term else Fraction(0)
    rate = LONG_TERM_RATE if long_term else SHORT_TERM_RATE
    taxable = max(Fraction(0), gain - exemption)
    return CapitalGains(gain=gain, taxable=taxable, tax=taxable * rate, term="long" if long_term else "short")
