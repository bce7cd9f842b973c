"""The values of the eval()-based peers: tagged JSON to Python, peer objects to their recorded description.

The vector files write values as tagged numbers (`{"int": "12"}`, `{"float": x.hex(), ...}`) so that a
string "5", an int 5 and a float 5.0 stay distinct; the peers' `normalize` results are described as
`{"type", "repr", "hex"}` (repr only for plain values, hex for floats). This module reads the one and
writes the other, and holds the stand-ins for the few numpy and sympy objects the peers can return.
"""

from __future__ import annotations

import math
from typing import Any

from finscore.protocols.arith import Opaque, PeerExecutesCode, PeerRaised, Pure


class PeerValueError(ValueError):
    """A vector line's value is not in the tagged form the vector files use (names the field)."""


def decode(value: Any, field: str) -> object:
    """A tagged JSON value as the Python value the peer was given."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, dict):
        if set(value) == {"int"} and isinstance(value["int"], str):
            return int(value["int"])
        if "float" in value and isinstance(value["float"], str):
            text = value["float"]
            if text in ("nan", "inf", "-inf"):
                return float(text)
            return float.fromhex(text)
    raise PeerValueError(f"{field}: not a tagged value: {value!r}")


class Float64:
    """numpy.float64: a float subclass to the peer's comparisons (only its value is reproduced)."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value

    def __float__(self) -> float:
        return self.value


class NumpyArray:
    """numpy.ndarray of a flat list of numbers: the peer keeps only its `tolist()`."""

    __slots__ = ("items",)

    def __init__(self, items: list[object]) -> None:
        self.items = items


class SympyRational:
    """sympy.Rational(p, q): the peer keeps only `float()` of it (correctly rounded p/q)."""

    __slots__ = ("p", "q")

    def __init__(self, p: int, q: int) -> None:
        self.p = p
        self.q = q

    def __float__(self) -> float:
        return self.p / self.q


def _np_float64(*args: object) -> object:
    if len(args) != 1 or not isinstance(args[0], (int, float)):
        raise PeerExecutesCode("numpy.float64 of a non-number")
    return Float64(float(args[0]))


def _np_int64(*args: object) -> object:
    if len(args) != 1 or not isinstance(args[0], int) or not -2 ** 63 <= args[0] < 2 ** 63:
        raise PeerExecutesCode("numpy.int64 outside its range")
    return Opaque("int64", "numpy.int64")


def _np_array(*args: object) -> object:
    if len(args) != 1 or not isinstance(args[0], list) or not args[0]:
        raise PeerExecutesCode("numpy.array of other than a flat list of numbers")
    items = args[0]
    if all(isinstance(item, int) and not isinstance(item, bool) and -2 ** 63 <= item < 2 ** 63 for item in items):
        return NumpyArray(list(items))
    if all(isinstance(item, (int, float)) and not isinstance(item, bool) for item in items):
        return NumpyArray([float(item) for item in items])
    raise PeerExecutesCode("numpy.array of mixed values")


def _sympy_rational(*args: object) -> object:
    if not 1 <= len(args) <= 2 or not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise PeerExecutesCode("sympy.Rational of other than integers")
    p = int(args[0])  # type: ignore[call-overload]
    q = int(args[1]) if len(args) == 2 else 1  # type: ignore[call-overload]
    if q == 0 or max(abs(p), abs(q)) >= 2 ** 53:
        raise PeerExecutesCode("sympy.Rational outside the reproduced range")
    return SympyRational(p, q)


NUMPY_MODULE = Opaque("module", "numpy", {
    "pi": math.pi, "e": math.e,
    "float64": Pure("numpy.float64", _np_float64),
    "int64": Pure("numpy.int64", _np_int64),
    "array": Pure("numpy.array", _np_array),
})
RATIONAL = Pure("sympy.Rational", _sympy_rational)


def _sys_exit(*args: object) -> object:
    raise PeerRaised("SystemExit", "sys.exit")


SYS_MODULE = Opaque("module", "sys", {"exit": Pure("sys.exit", _sys_exit)})

_REPR_TYPES = (bool, int, float, complex, str, type(None), list, tuple)


def _plain(value: object) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_plain(item) for item in value)
    return isinstance(value, _REPR_TYPES)


def describe(value: object) -> dict[str, str]:
    """The recorded description of a value the peer's `normalize` returned: type, repr, hex."""
    if isinstance(value, Float64):
        return {"type": "float64", "repr": repr(value.value), "hex": value.value.hex()}
    if isinstance(value, Opaque):
        return {"type": value.type_name}
    if isinstance(value, (Pure, NumpyArray, SympyRational)):
        raise PeerExecutesCode("a callable or object whose type the peer names itself")
    name = type(value).__name__
    if isinstance(value, _REPR_TYPES):
        if isinstance(value, (list, tuple)) and not _plain(value):
            raise PeerExecutesCode("a container of objects")
        described = {"type": name, "repr": repr(value)}
        if isinstance(value, float):
            described["hex"] = value.hex()
        return described
    return {"type": name}


def function(name: str) -> Opaque:
    """A function of the peer's module, known by its type."""
    return Opaque("function", name)


def module(name: str) -> Opaque:
    """A module the peer imported, known by its type (attributes other than listed are code)."""
    return Opaque("module", name)
