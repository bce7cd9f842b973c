"""docs/abi.md's worked examples, run byte for byte against the shipped module.

Each `abi-example` block of the document is parsed and executed as the document says a host
should: a block from fs_alloc, the `in` bytes written, the calls made, the returned statuses
and the `out` bytes compared. The expected numbers in the document are CPython's, and the
tests below recompute them with CPython, so that neither the document nor the module is
checked against itself.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from support.foreign_host import ForeignHost

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "abi.md"
_BYTES = re.compile(r"^(in|out)\s+\+(\d+)\s+((?:[0-9a-f]{8}|[0-9a-f]{16})(?: (?:[0-9a-f]{8}|[0-9a-f]{16}))*)(?:\s{2,}.*)?$")
_TEXT = re.compile(r'^(in|out)\s+\+(\d+)\s+"((?:[^"\\]|\\x[0-9a-f]{2})*)"$')
_CALL = re.compile(r"^call (\w+)\((.*)\) (=|->) (.*)$")


@dataclass
class Call:
    name: str
    arguments: list[tuple[str, str]]
    expected: str  # a status, or `name "..."` for fs_status_name
    outputs: list[tuple[int, bytes]] = field(default_factory=list)


@dataclass
class Example:
    title: str
    block: int
    inputs: list[tuple[int, bytes]] = field(default_factory=list)
    calls: list[Call] = field(default_factory=list)


def _text_bytes(text: str) -> bytes:
    """A quoted string of the document: ASCII, with \\xHH for a byte."""
    return re.sub(r"\\x([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), text).encode("latin-1")


def examples() -> list[Example]:
    found: list[Example] = []
    blocks = re.findall(r"```abi-example\n(.*?)```", DOCUMENT.read_text(encoding="utf-8"), re.S)
    for block in blocks:
        lines = block.strip().splitlines()
        title = lines[0].removeprefix("example ")
        example = Example(title, int(lines[1].removeprefix("block ")))
        for line in lines[2:]:
            if match := _BYTES.match(line):
                data = bytes.fromhex(match.group(3).replace(" ", ""))
                if match.group(1) == "in":
                    example.inputs.append((int(match.group(2)), data))
                else:
                    example.calls[-1].outputs.append((int(match.group(2)), data))
            elif match := _TEXT.match(line):
                text = (int(match.group(2)), _text_bytes(match.group(3)))
                if match.group(1) == "in":
                    example.inputs.append(text)
                else:
                    example.calls[-1].outputs.append(text)
            elif match := _CALL.match(line):
                pairs = [part.strip().split("=") for part in match.group(2).split(",")]
                example.calls.append(Call(match.group(1), [(name, value) for name, value in pairs], match.group(4)))
            else:
                raise AssertionError(f"{title}: a line the document's format does not have: {line!r}")
        found.append(example)
    return found


def test_the_document_has_an_example_of_every_call() -> None:
    called = {call.name for example in examples() for call in example.calls}
    assert called >= {"fs_execute", "fs_execute_batch", "fs_read_execute_batch", "fs_round_half_even_scaled",
                      "fs_python_pow", "fs_python_sum", "fs_status_name", "fs_decide_answers"}


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.title.split(":")[0])
def test_worked_example(example: Example) -> None:
    host = ForeignHost()
    block = host.alloc(example.block)
    host.write(block, b"\xaa" * example.block)  # not zeroed: only what the example writes counts
    for offset, data in example.inputs:
        host.write(block + offset, data)
    for call in example.calls:
        values: list[int | float] = []
        for name, text in call.arguments:
            if text.startswith("+"):
                values.append(block + int(text[1:]))
            elif name in ("x", "scale", "base", "exponent"):
                values.append(float(text))
            else:
                values.append(int(text))
        returned = host.call(call.name, *values)
        if call.expected.startswith("name "):
            assert host.status_name(int(call.arguments[0][1])) == call.expected.removeprefix("name ").strip('"')
        else:
            assert returned == int(call.expected), call
        for offset, expected in call.outputs:
            assert host.read(block + offset, len(expected)) == expected, (call.name, offset)


def _document_doubles(example: str, offset: int) -> list[float]:
    """The doubles an example's `out +offset` lines show, in order."""
    return [struct.unpack("<d", data[:8])[0] for e in examples() if e.title.startswith(example)
            for call in e.calls for at, data in call.outputs if at == offset]


def test_the_documented_numbers_are_cpythons() -> None:
    """The bits the examples promise are what CPython computes (the official evaluator's
    arithmetic), not what the module happened to write."""
    x = (34.8 - 1.2) / 34.8 * 100.0
    assert _document_doubles("fs_execute:", 224) == [round(x, 5)] == [96.55172]
    assert _document_doubles("fs_execute:", 232) == [x]
    assert _document_doubles("fs_read_execute_batch", 464) == [(float("13053") + float("18874")) / 2]
    left_to_right = 0.0  # CPython <= 3.11 sum(): from integer 0, left to right
    for value in [0.1] * 10:
        left_to_right += value
    assert _document_doubles("fs_round_half_even_scaled", 0) == [round(2.675, 2), left_to_right]
    assert _document_doubles("fs_round_half_even_scaled", 8) == [math.fsum([0.1] * 10)]  # 3.12's compensated sum
