"""The runtime reads an agent's messages with their numbers in the canonical form a seal covers.

RFC 8785 writes a number as its double; finscore's exact reader reads that text back as an int or
a Decimal. What the runtime executes and records is that value, so the line it seals holds
canonical numbers only (docs/contracts-format.md section 5.1).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from finscore.runner.wire import WireError, decode


@pytest.mark.parametrize(
    ("written", "read"),
    [("5", 5), ("5.0", 5), ("5e0", 5), ("1E+2", 100), ("0.060", Decimal("0.06")), ("2500000.00", 2500000),
     ("0.1000000000000000000001", Decimal("0.1")), ("1e21", Decimal("1E+21"))],
)
def test_numbers_from_an_agent_are_read_in_canonical_form(written: str, read: int | Decimal) -> None:
    value = decode(('{"type": "calls", "n": ' + written + "}").encode("utf-8"))["n"]
    assert type(value) is type(read) and value == read and str(value) == str(read)


def test_a_number_beyond_a_double_is_a_protocol_error_naming_it() -> None:
    with pytest.raises(WireError, match="1E.400"):
        decode(b'{"type": "calls", "n": 1e400}')
