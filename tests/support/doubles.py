"""Seeded generators of awkward doubles: every magnitude, specials, near-ties."""

from __future__ import annotations

import math
import random
import struct

SPECIALS = (
    0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 10.0, 9.0, 17.0, 0.1, 1.5, -1.5,
    math.inf, -math.inf, math.nan, 1e308, -1e308, 5e-324, -5e-324, 2.2250738585072014e-308,
    1e-300, 1.7976931348623157e308, 1e16, -1e16, 2.675, 4503599627370496.5,
)


def bits_to_double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def double_to_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def random_double(rnd: random.Random) -> float:
    """Any finite or special double, magnitudes spread over the whole exponent range."""
    kind = rnd.randrange(6)
    if kind == 0:
        return rnd.choice(SPECIALS)
    if kind == 1:
        return bits_to_double(rnd.getrandbits(64))
    if kind == 2:
        return rnd.uniform(-1, 1) * 10.0 ** rnd.randrange(-30, 30)
    if kind == 3:
        return float(rnd.randrange(-100, 100))
    if kind == 4:
        return round(rnd.uniform(-1e4, 1e4), rnd.randrange(0, 8))
    return rnd.uniform(-3, 3)


def near_decimal_tie(rnd: random.Random, places: int) -> float:
    """A double within a few ulps of k + 1/2 units of the last of `places` decimals."""
    k = rnd.randrange(-10**6, 10**6)
    tie = (k + 0.5) / 10**places
    for _ in range(rnd.randrange(-3, 4)):
        tie = math.nextafter(tie, math.inf if rnd.random() < 0.5 else -math.inf)
    return tie
