"""The ABI's one source, core/abi.toml, against everything that repeats it.

The generated files must be fresh; the hand-written prototypes of core/finscore_core.h
and the definitions in core/*.c must take exactly the parameters the source lists, in its
order; the module must export exactly what it lists; and a packed call whose arguments
were swapped must be caught by a test, which the last test proves for every swap.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from support.foreign_host import ForeignHost

ROOT = Path(__file__).resolve().parents[2]
with (ROOT / "core" / "abi.toml").open("rb") as _handle:
    ABI: dict[str, Any] = tomllib.load(_handle)
EXPORTS = {export["name"]: export for export in ABI["export"]}
_PROTOTYPE = re.compile(r"^(?:const )?\w+ \**(fs_\w+)\(([^)]*)\)\s*[;{]", re.M)


def _parameters(text: str) -> dict[str, list[tuple[str, str]]]:
    """Every fs_ function declared or defined in C text: its parameters as (C type, name)."""
    found = {}
    for name, params in _PROTOTYPE.findall(text):
        params = " ".join(params.split())
        pairs = []
        for param in ([] if params in ("", "void") else params.split(",")):
            match = re.fullmatch(r"\s*(.*?)\s*(\w+)\s*", param)
            assert match, param
            pairs.append((match.group(1).replace(" *", "*").replace("* ", "*").strip(), match.group(2)))
        found[name] = pairs
    return found


def _expected(export: dict[str, Any]) -> list[tuple[str, str]]:
    c_types = {"i32": "int32_t", "f64": "double"}
    return [((p["c"] if p["type"] == "ptr" else c_types[p["type"]]).replace(" *", "*"), p["name"])
            for p in export["params"]]


def test_generated_files_are_fresh() -> None:
    """build/gen_abi.py --check: the header section, fs_abi.c, exports.txt, the Python and
    JavaScript constants and docs/abi.md's tables are what the source says."""
    check = subprocess.run([sys.executable, str(ROOT / "build" / "gen_abi.py"), "--check"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_header_prototypes_take_the_parameters_of_the_source() -> None:
    declared = _parameters((ROOT / "core" / "finscore_core.h").read_text(encoding="utf-8"))
    for name, export in EXPORTS.items():
        assert declared.get(name) == _expected(export), name


def test_definitions_take_the_parameters_of_the_source() -> None:
    """The C compiler checks definitions against prototypes by type only: two int32
    parameters swapped in a definition would pass it, so the names are compared here."""
    defined: dict[str, list[tuple[str, str]]] = {}
    for source in sorted((ROOT / "core").glob("fs_*.c")):
        defined.update(_parameters(source.read_text(encoding="utf-8")))
    for name, export in EXPORTS.items():
        assert defined.get(name) == _expected(export), name


def test_the_module_exports_exactly_what_the_source_lists() -> None:
    listed = [line for line in (ROOT / "build" / "exports.txt").read_text().splitlines() if not line.startswith("#")]
    exported = ForeignHost().export_names()
    assert exported == set(listed)
    assert not exported & {"stackSave", "stackRestore", "stackAlloc", "__errno_location", "__indirect_function_table"}


# fs_read_execute_batch with every integer argument distinct (lengths larger than needed), so
# that any two arguments exchanged change what the call does.
_TEXT = b"add(\x1f1\x1f2\x1f)\x1fEOF\x1etable_sum(\x1fr\x1fnone\x1f)\x1fEOF\x1etable_max(\x1fs\x1fnone\x1f)\x1fEOF"
_TABLES = b"r\x1f3\x1f4" + b"s\x1f10"


def _read_call(host: ForeignHost, order: list[str], swap: tuple[int, int] | None) -> tuple[int, bytes]:
    """Call fs_read_execute_batch_packed with the arguments in `order` (one name each), the
    two at `swap` exchanged; the status and every output buffer's bytes."""
    block = host.alloc(4096)
    host.write(block, b"\0" * 4096)
    host.write(block, _TEXT)
    host.write(block + 128, _TABLES)
    host.write(block + 160, struct.pack("<4i", 0, 5, 5, 4))
    host.write(block + 176, struct.pack("<4i", -1, 0, 1, -1))
    values = dict(text=block, text_len=len(_TEXT), program_count=3, tables=block + 128, tables_len=len(_TABLES),
                  table_spans=block + 160, table_count=2, program_tables=block + 176, program_tables_len=4,
                  sum_rule=0, steps=block + 256, steps_len=5, table_values=block + 640, table_values_len=6,
                  step_values=block + 768, step_values_len=7, step_types=block + 1024, step_types_len=11,
                  program_spans=block + 1280, program_spans_len=12, results=block + 1536, results_len=13)
    assert len(set(values.values())) == len(values)
    arguments = [values[name] for name in order]
    if swap is not None:
        arguments[swap[0]], arguments[swap[1]] = arguments[swap[1]], arguments[swap[0]]
    host.write(block + 3072, struct.pack(f"<{len(arguments)}q", *arguments))
    status = host.call("fs_read_execute_batch_packed", block + 3072, len(arguments))
    return status, host.read(block + 256, 1536 + 13 * 40 - 256)


def test_the_packed_call_is_the_plain_call_in_the_headers_order() -> None:
    """The packed twin, given its arguments in the order parsed from the header, does what
    the plain call does (same status, same bytes in every output buffer)."""
    order = [name for _, name in _parameters((ROOT / "core" / "finscore_core.h").read_text())["fs_read_execute_batch"]]
    host = ForeignHost()
    status, outputs = _read_call(host, order, None)
    assert status == 1400
    results = [struct.unpack_from("<iiiiddii", outputs, 1536 - 256 + 40 * k) for k in range(3)]
    assert [(r[0], r[4]) for r in results] == [(1400, 1.0 + 2.0), (1400, 3.0 + 4.0), (1400, 10.0)]


#: Arguments whose value alone decides the call's outcome: pointers (distinct addresses) and the
#: integers that must be exact. Two lengths that each only need to be large enough cannot be told
#: apart by running (results_len and program_tables_len both need program_count); for those, the
#: test below reads the generated wrapper instead.
_EXACT = {"text_len", "program_count", "sum_rule", "table_count"}


@pytest.mark.parametrize("first", range(22))
def test_a_swapped_argument_is_caught(first: int) -> None:
    """Exchange a pointer or an exact integer with any other argument: the call no longer gives
    the correct outputs, so a packed call whose C side swapped them would fail the test above."""
    params = _parameters((ROOT / "core" / "finscore_core.h").read_text())["fs_read_execute_batch"]
    order = [name for _, name in params]
    decisive = {name for c_type, name in params if c_type.endswith("*")} | _EXACT
    host = ForeignHost()
    correct = _read_call(host, order, None)
    for second in range(len(order)):
        if second != first and (order[first] in decisive or order[second] in decisive):
            assert _read_call(host, order, (first, second)) != correct, (order[first], order[second])


@pytest.mark.parametrize("entry", [e for e in ABI["export"] if e.get("packed")], ids=lambda e: e["name"])
def test_each_packed_wrapper_passes_argument_k_to_parameter_k(entry: dict[str, Any]) -> None:
    """The generated *_packed wrapper hands a[0], a[1], ... to the plain call in order, each
    cast to the header's type of that parameter."""
    source = (ROOT / "core" / "fs_abi.c").read_text(encoding="utf-8")
    body = source[source.index(f"int32_t {entry['name']}_packed("):]
    call = body[body.index(f"return {entry['name']}(") : body.index(");", body.index(f"return {entry['name']}("))]
    passed = re.findall(r"\(([^()]*?)\)(?:\(uintptr_t\))?a\[(\d+)\]", call)
    expected = _parameters((ROOT / "core" / "finscore_core.h").read_text())[entry["name"]]
    assert [int(k) for _, k in passed] == list(range(len(expected)))
    assert [c_type.replace(" *", "*") for c_type, _ in passed] == [c_type for c_type, _ in expected]
