"""Every misuse docs/abi.md names, made as a foreign host would make it (wasmtime alone):
each gets its documented typed status, and a refused call writes nothing.

The statuses expected here are the document's (core/abi.toml's names); the arithmetic
expected of the good calls is CPython's.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest

from support.foreign_host import PAGE, ForeignHost

US, RS = b"\x1f", b"\x1e"
ONE = US.join([b"add(", b"1", b"2", b")", b"EOF"])  # 5 tokens: at most 1 step
TABLE_STEP = US.join([b"table_sum(", b"r", b"none", b")", b"EOF"])
TABLE = b"r" + US + b"3" + US + b"4"  # 2 value cells
SENTINEL = 0xAA
OUTPUTS = ("steps", "table_values", "step_values", "step_types", "program_spans", "results")
STATUS = {"ok": 1400, "buffer_too_short": 1402, "null_buffer": 1403, "bad_argument_kind": 1405,
          "table_slice_out_of_bounds": 1410, "unknown_sum_rule": 1416, "deferred": 1419,
          "negative_length": 1460, "buffer_outside_memory": 1461, "program_count_mismatch": 1462,
          "empty_program": 1463, "trailing_token_separator": 1464, "empty_table_row": 1465,
          "bad_utf8": 1466, "bad_table_index": 1467, "not_allocated": 1468}


@pytest.fixture(scope="module")
def host() -> ForeignHost:
    return ForeignHost()


class ReadCall:
    """One fs_read_execute_batch laid out in a block, every output filled with a sentinel."""

    SIZES = {"steps": 56, "table_values": 8, "step_values": 8, "step_types": 4, "program_spans": 4, "results": 40}

    def __init__(self, host: ForeignHost, text: bytes, program_tables: list[int], tables: bytes = b"",
                 spans: tuple[int, ...] = (), room: int = 8) -> None:
        self.host = host
        self.block = host.alloc(8192)
        host.write(self.block, bytes([SENTINEL]) * 8192)
        host.write(self.block, text)
        host.write(self.block + 1024, tables)
        host.write(self.block + 2048, struct.pack(f"<{len(spans)}i", *spans))
        host.write(self.block + 2304, struct.pack(f"<{len(program_tables)}i", *program_tables))
        self.at = {name: self.block + 3072 + 640 * k for k, name in enumerate(OUTPUTS)}
        count = len(program_tables)
        self.arguments: dict[str, int] = dict(
            text=self.block, text_len=len(text), program_count=count, tables=self.block + 1024,
            tables_len=len(tables), table_spans=self.block + 2048, table_count=len(spans) // 2,
            program_tables=self.block + 2304, program_tables_len=count, sum_rule=0,
            steps=self.at["steps"], steps_len=room, table_values=self.at["table_values"], table_values_len=room,
            step_values=self.at["step_values"], step_values_len=room, step_types=self.at["step_types"],
            step_types_len=room, program_spans=self.at["program_spans"], program_spans_len=2 * count,
            results=self.at["results"], results_len=count)

    def __call__(self, **changes: int) -> int:
        arguments = {**self.arguments, **changes}
        order = ["text", "text_len", "program_count", "tables", "tables_len", "table_spans", "table_count",
                 "program_tables", "program_tables_len", "sum_rule", "steps", "steps_len", "table_values",
                 "table_values_len", "step_values", "step_values_len", "step_types", "step_types_len",
                 "program_spans", "program_spans_len", "results", "results_len"]
        return self.host.call("fs_read_execute_batch", *(arguments[name] for name in order))

    def untouched(self) -> bool:
        """No output byte was written."""
        return all(self.host.read(at, 640) == bytes([SENTINEL]) * 640 for at in self.at.values())

    def result(self, k: int) -> tuple[Any, ...]:
        return struct.unpack("<iiiiddii", self.host.read(self.at["results"] + 40 * k, 40))


def refused(call: ReadCall, status: str, **changes: int) -> None:
    assert call(**changes) == STATUS[status], status
    assert call.untouched(), f"{status}: a refused call wrote an output"


def test_a_good_call_writes_its_outputs(host: ForeignHost) -> None:
    call = ReadCall(host, ONE + RS + TABLE_STEP, [-1, 0], TABLE, (0, len(TABLE)))
    assert call() == 1400
    assert call.result(0)[0] == 1400 and call.result(0)[4] == 1.0 + 2.0
    assert call.result(1)[0] == 1400 and call.result(1)[4] == 3.0 + 4.0


def test_program_spans_len_counts_int32s_two_per_program(host: ForeignHost) -> None:
    refused(ReadCall(host, ONE + RS + ONE, [-1, -1]), "buffer_too_short", program_spans_len=2)


def test_too_small_outputs_are_a_typed_error_never_deferred(host: ForeignHost) -> None:
    """S = floor(10 tokens / 4) = 2; C = the 2 value cells of the one program's table."""
    call = ReadCall(host, ONE + RS + TABLE_STEP, [-1, 0], TABLE, (0, len(TABLE)))
    for name in ("steps_len", "step_values_len", "step_types_len"):
        refused(call, "buffer_too_short", **{name: 1})
    refused(call, "buffer_too_short", table_values_len=1)
    assert call(steps_len=2, step_values_len=2, step_types_len=2, table_values_len=2) == 1400  # exactly S, C


@pytest.mark.parametrize(("text", "count", "status"), [
    (ONE + RS, 1, "empty_program"),  # a terminator where a separator belongs
    (ONE + RS, 2, "empty_program"),
    (RS + ONE, 2, "empty_program"),
    (ONE + RS + RS + ONE, 3, "empty_program"),
    (b"", 1, "empty_program"),
    (ONE + US, 1, "trailing_token_separator"),  # 0x1F after EOF
    (ONE + RS + ONE, 1, "program_count_mismatch"),
    (ONE + RS + ONE, 3, "program_count_mismatch"),
    (ONE.replace(b"1", b"\xff"), 1, "bad_utf8"),
    (ONE.replace(b"1", b"\xe2\x82"), 1, "bad_utf8"),  # cut short
    (ONE.replace(b"1", b"\xf4\x90\x80\x80"), 1, "bad_utf8"),  # past U+10FFFF
])
def test_text_framing_is_refused_before_anything_runs(host: ForeignHost, text: bytes, count: int, status: str) -> None:
    """The good program first: had anything run, its result would have been written."""
    refused(ReadCall(host, text, [-1] * count), status)


@pytest.mark.parametrize(("table", "status"), [
    (RS + TABLE, "empty_table_row"), (TABLE + RS, "empty_table_row"), (TABLE + RS + RS + TABLE, "empty_table_row"),
    (b"", "empty_table_row"), (b"r" + US + b"\xc3", "bad_utf8"),
])
def test_table_framing_is_refused_before_anything_runs(host: ForeignHost, table: bytes, status: str) -> None:
    refused(ReadCall(host, ONE + RS + TABLE_STEP, [-1, 0], table, (0, len(table))), status)


def test_table_indexes_and_spans_are_checked(host: ForeignHost) -> None:
    refused(ReadCall(host, ONE + RS + TABLE_STEP, [-1, 1], TABLE, (0, len(TABLE))), "bad_table_index")
    refused(ReadCall(host, ONE + RS + TABLE_STEP, [-1, -2], TABLE, (0, len(TABLE))), "bad_table_index")
    refused(ReadCall(host, ONE + RS + TABLE_STEP, [-1, 0], TABLE, (1, len(TABLE))), "table_slice_out_of_bounds")


def test_utf8_names_compare_byte_for_byte_and_surrogatepass_is_accepted(host: ForeignHost) -> None:
    """Names are compared byte for byte, as Python compares str (no normalisation): x\u00e9x
    and xe\u0301x differ. A lone surrogate written as surrogatepass writes it is accepted."""
    text = US.join([b"table_max(", "x\u00e9x".encode(), b"none", b")", b"EOF"])
    for row_name, status in [("x\u00e9x", 1400), ("xe\u0301x", 1425)]:
        assert ("x\u00e9x" == row_name) == (status == 1400)  # what CPython's == says
        table = row_name.encode() + US + b"1"
        call = ReadCall(host, text, [0], table, (0, len(table)))
        assert call() == 1400 and call.result(0)[0] == status, row_name
    lone = ONE.replace(b"1", "\ud800".encode("utf-8", "surrogatepass"))
    call = ReadCall(host, lone, [-1])
    assert call() == 1400 and call.result(0)[0] == 1419


def test_grammar_of_plain_literals(host: ForeignHost) -> None:
    """docs/abi.md's examples of the plain grammar; values are CPython's float()."""
    for literal, value in [(b"1,000", 1000.0), (b"5%", 0.05), (b"-1", -1.0), (b"+2.5", 2.5), (b".5", 0.5),
                           (b"1.", 1.0)]:
        call = ReadCall(host, US.join([b"add(", literal, b"0", b")", b"EOF"]), [-1])
        assert call() == 1400 and call.result(0)[:1] == (1400,) and call.result(0)[4] == value + 0.0, literal
        assert value == float(literal.replace(b",", b"").rstrip(b"%")) / (100 if literal.endswith(b"%") else 1)
    # 1422 is only for a literal without "const" (docs/abi.md): one holding it, even at its end, is deferred
    for literal, status in [(b"1e3", 1419), (b" 1 ", 1419), (b"1_000", 1419), (b"1,0000", 1419), (b"inf", 1419),
                            (b"0x10", 1422), (b"$ 100", 1422), (b"1const", 1419), (b"xconst_1", 1419)]:
        call = ReadCall(host, US.join([b"add(", literal, b"0", b")", b"EOF"]), [-1])
        assert call() == 1400 and call.result(0)[0] == status, literal
    for cell, value in [(b"$ 100", 100.0), (b"13053 (1)", 13053.0), (b"18,874 ( a )", 18874.0), (b"12%", 0.12)]:
        table = b"r" + US + cell
        call = ReadCall(host, TABLE_STEP, [0], table, (0, len(table)))
        assert call() == 1400 and call.result(0)[0] == 1400 and call.result(0)[4] == value, cell


def test_plain_grammar_at_its_bounds(host: ForeignHost) -> None:
    """docs/abi.md's bounds of the plain form, each side: digits making an integer up to 2**53,
    a cell of at most 64 bytes, a reference to a step that is not a greater. Values are CPython's."""
    def literal_status(literal: bytes) -> tuple[int, float]:
        call = ReadCall(host, US.join([b"add(", literal, b"0", b")", b"EOF"]), [-1])
        assert call() == 1400
        return call.result(0)[0], call.result(0)[4]

    assert int(b"9007199254740992") == 2**53
    assert literal_status(b"9007199254740992") == (1400, float(b"9007199254740992"))
    assert literal_status(b"9007199254740993")[0] == 1419
    assert literal_status(b"900719925474099.2") == (1400, float(b"900719925474099.2"))
    for cell, status in [(b" " * 61 + b"100", 1400), (b" " * 62 + b"100", 1419), (b"$" * 70 + b"100", 1400)]:
        table = b"r" + US + cell
        call = ReadCall(host, TABLE_STEP, [0], table, (0, len(table)))
        assert call() == 1400 and call.result(0)[0] == status, (len(cell), cell[-8:])
        if status == 1400:  # '$' removed, then stripped: what the official evaluator reads
            assert call.result(0)[4] == float(cell.replace(b"$", b"").strip())
    for steps, status in [
        ([b"greater(", b"5", b"3", b")", b"add(", b"#0", b"1", b")"], 1419),  # officially text flows on
        ([b"greater(", b"5", b"3", b")", b"add(", b"2", b"1", b")", b"add(", b"#0", b"1", b")"], 1419),
        ([b"greater(", b"5", b"3", b")", b"add(", b"2", b"1", b")", b"add(", b"#1", b"1", b")"], 1400),
    ]:
        call = ReadCall(host, US.join([*steps, b"EOF"]), [-1])
        assert call() == 1400 and call.result(0)[0] == status, steps


#: Boundary sequences of every UTF-8 lead byte: overlong forms, the surrogates, the last code
#: point, and past it. Whether each is UTF-8 is what CPython's decoder says (surrogatepass:
#: lone surrogates written in three bytes are accepted, docs/abi.md).
UTF8_EDGES = [b"\x7f", b"\x80", b"\xc0\x80", b"\xc1\xbf", b"\xc2\x80", b"\xdf\xbf", b"\xe0\x80\x80",
              b"\xe0\x9f\xbf", b"\xe0\xa0\x80", b"\xe1\x80\x80", b"\xec\xbf\xbf", b"\xed\x80\x80",
              b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xee\x80\x80", b"\xef\xbf\xbf", b"\xf0\x80\x80\x80",
              b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf1\x80\x80\x80", b"\xf3\xbf\xbf\xbf",
              b"\xf4\x80\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
              b"\xf8\x88\x80\x80\x80", b"\xff", b"\xe1\x80", b"\xf1\x80\x80", b"\xc2\xc2\x80"]


@pytest.mark.parametrize("sequence", UTF8_EDGES, ids=lambda b: b.hex())
def test_utf8_is_what_cpythons_decoder_accepts(host: ForeignHost, sequence: bytes) -> None:
    try:
        sequence.decode("utf-8", "surrogatepass")
        expected = 1400  # the call runs; a literal holding non-ASCII is then deferred
    except UnicodeDecodeError:
        expected = 1466
    call = ReadCall(host, ONE.replace(b"1", b"7" + sequence), [-1])
    assert call() == expected
    if expected == 1466:
        assert call.untouched()
    else:
        # non-ASCII literals go to the host; DEL is ASCII that no float() text holds: 1422
        assert call.result(0)[0] == (1422 if sequence == b"\x7f" else 1419)


def test_negative_lengths_and_sum_rules(host: ForeignHost) -> None:
    call = ReadCall(host, ONE, [-1])
    for name in ("text_len", "program_count", "tables_len", "table_count", "steps_len", "results_len"):
        refused(call, "negative_length", **{name: -1})
    refused(call, "unknown_sum_rule", sum_rule=7)
    refused(call, "null_buffer", results=0)
    block = host.alloc(64)
    assert host.call("fs_python_sum", block, -1, 0, block + 32) == STATUS["negative_length"]


def test_dishonest_lengths_get_a_status_not_a_wipe(host: ForeignHost) -> None:
    """A length past the end of memory is refused before anything is written (ABI 2 first
    wiped memory up to the end for step_values with INT32_MAX steps)."""
    call = ReadCall(host, ONE, [-1])
    for name in ("step_values_len", "steps_len", "table_values_len", "results_len", "text_len"):
        refused(call, "buffer_outside_memory", **{name: 2**31 - 1})
    end = host.memory_size()
    refused(call, "buffer_outside_memory", results=end - 8)
    steps = host.alloc(256)
    host.write(steps, struct.pack("<ii iiiid iiiid", 0, 0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 2.0))
    tail = host.read(end - PAGE, PAGE)
    status = host.call("fs_execute", steps, 1, 1, 0, 0, 0, steps + 64, 2**31 - 1, steps + 128, 1, steps + 160)
    assert status == STATUS["buffer_outside_memory"]
    assert host.read(end - PAGE, PAGE) == tail
    assert host.call("fs_execute", steps, 1, 1, 0, 0, 0, steps + 64, 1, steps + 128, 1, end - 8) == 1461
    assert host.call("fs_round_half_even_scaled", 1.0, 10.0, end - 4) == 1461


def test_fs_execute_contract_edges(host: ForeignHost) -> None:
    """A NULL table with length 0 is fine; a NULL step_types is 1403; reserved fields are
    ignored; a table op whose first argument is a reference is 1405; the sum rule is
    checked even when nothing is summed."""
    block = host.alloc(512)
    add = struct.pack("<ii iiiid iiiid", 0, 77, 0, 0, 9, -5, 1.0, 0, 3, 0, 8, 2.0)  # junk in reserved fields
    host.write(block, add + struct.pack("<ii iiiid iiiid", 8, 0, 1, 0, 0, 0, 0.0, 0, 0, 0, 0, 0.0))
    values, types, result = block + 128, block + 160, block + 192

    def execute(count: int, **change: int) -> int:
        arguments = dict(steps=block, steps_len=2, step_count=count, table_values=0, table_len=0, sum_rule=0,
                         step_values=values, step_values_len=2, step_types=types, step_types_len=2, result=result)
        arguments.update(change)
        return host.call("fs_execute", *arguments.values())

    assert execute(1) == 1400 and host.read_f64(result + 16) == 3.0
    assert execute(1, step_types=0) == STATUS["null_buffer"]
    assert execute(2) == STATUS["bad_argument_kind"] and host.read_i32s(result, 4)[3] == 1
    assert execute(1, sum_rule=7) == STATUS["unknown_sum_rule"]


def test_fs_execute_batch_negative_step_count_in_its_result(host: ForeignHost) -> None:
    block = host.alloc(512)
    host.write(block, struct.pack("<4i", 0, 1, 0, -1))
    host.write(block + 16, struct.pack("<ii iiiid iiiid", 0, 0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 2.0))
    assert host.call("fs_execute_batch", block, 2, block + 16, 1, 0, 0, 0, block + 80, 1, block + 96, 1,
                     block + 104, 2) == 1400
    assert host.read_i32s(block + 104, 1)[0] == 1400
    assert host.read_i32s(block + 144, 4) == (STATUS["negative_length"], 0, 0, -1)


def test_alloc_and_free(host: ForeignHost) -> None:
    assert host.call("fs_alloc", 0) == 0 and host.call("fs_alloc", -16) == 0
    assert host.call("fs_alloc", 2**31 - 1) == 0  # past the 1 GiB cap
    before = host.memory_size()
    big = host.alloc(before)  # more than is free: memory grows inside fs_alloc
    assert host.memory_size() > before and big % 8 == 0
    assert host.call("fs_free", big + 8) == STATUS["not_allocated"]
    assert host.call("fs_free", 12345) == STATUS["not_allocated"]
    assert host.call("fs_free", big) == 1400
    assert host.call("fs_free", big) == STATUS["not_allocated"]  # freed already
    assert host.call("fs_free", 0) == 1400


def test_every_status_has_a_name_under_64_bytes(host: ForeignHost) -> None:
    for code in range(1380, 1500):
        name = host.status_name(code)
        assert name.isascii() and 0 < len(name) < 64
    assert [host.status_name(code) for code in STATUS.values()] == list(STATUS)
