"""Direct calls into the shipped .wasm through its raw ABI, lengths and all.

The executor never sends a malformed program to the core, so the core's own
checks (step counts beyond buffers, bad kinds, slices past the table) are
exercised here, the way a host in another language could misuse them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Sequence

from finscore.engine.core.abi import RESULT_STRUCT, STEP_STRUCT
from finscore.engine.core.hosts.backend import module_bytes
from finscore.engine.core.hosts.wasmtime_backend import WasmtimeBackend

# (kind, index, length, number)
Arg = tuple[int, int, int, float]


def lit(value: float) -> Arg:
    return (0, 0, 0, value)


def ref(step: int) -> Arg:
    return (1, step, 0, 0.0)


def row(offset: int, length: int) -> Arg:
    return (2, offset, length, 0.0)


@dataclass(frozen=True)
class RawResult:
    status: int
    has_value: int
    value_type: int
    failed_step: int
    value: float
    unrounded: float
    steps_executed: int
    step_values: tuple[float, ...]
    step_types: tuple[int, ...]


class RawCore:
    def __init__(self) -> None:
        self.backend = WasmtimeBackend.create(module_bytes())
        self.base = self.backend.call("fs_alloc", 1 << 16)

    def pack_steps(self, steps: Sequence[tuple[int, Arg, Arg]]) -> bytes:
        return b"".join(STEP_STRUCT.pack(op, 0, a[0], a[1], a[2], 0, a[3], b[0], b[1], b[2], 0, b[3])
                        for op, a, b in steps)

    def execute(self, steps: Sequence[tuple[int, Arg, Arg]], *, table: Sequence[float] = (),
                step_count: int | None = None, steps_len: int | None = None,
                values_len: int | None = None, types_len: int | None = None,
                table_len: int | None = None, sum_rule: int = 0) -> RawResult:
        """fs_execute with real buffers of len(steps) and declared lengths as given."""
        n = len(steps)
        steps_at, table_at = self.base, self.base + 8192
        values_at, types_at, result_at = self.base + 16384, self.base + 24576, self.base + 32768
        self.backend.write(steps_at, self.pack_steps(steps))
        self.backend.write(table_at, struct.pack(f"<{len(table)}d", *table))
        self.backend.write(values_at, b"\x55" * 8 * max(n, 1))
        self.backend.write(types_at, b"\x55" * 4 * max(n, 1))
        status = self.backend.call(
            "fs_execute", steps_at, n if steps_len is None else steps_len,
            n if step_count is None else step_count,
            table_at, len(table) if table_len is None else table_len, sum_rule,
            values_at, n if values_len is None else values_len,
            types_at, n if types_len is None else types_len, result_at,
        )
        fields = RESULT_STRUCT.unpack(self.backend.read(result_at, RESULT_STRUCT.size))
        assert fields[0] == status
        values = struct.unpack(f"<{n}d", self.backend.read(values_at, 8 * n))
        types = struct.unpack(f"<{n}i", self.backend.read(types_at, 4 * n))
        return RawResult(*fields[:7], step_values=values, step_types=types)
