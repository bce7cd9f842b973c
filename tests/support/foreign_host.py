"""The shipped module driven as a host in another language would drive it: wasmtime alone.

Nothing of finscore is imported: the module is loaded from its file, and every record is
built from docs/abi.md's layouts by the tests themselves. This is how the tests check that
the document is enough to use the ABI.
"""

from __future__ import annotations

import struct
from pathlib import Path

import wasmtime

MODULE = Path(__file__).resolve().parents[2] / "python" / "finscore" / "finscore_core.wasm"
PAGE = 65536


class ForeignHost:
    """One instance of the module, with raw calls and raw memory."""

    def __init__(self) -> None:
        self.store = wasmtime.Store()
        module = wasmtime.Module.from_file(self.store.engine, str(MODULE))
        self.instance = wasmtime.Instance(self.store, module, [])
        memory = self.instance.exports(self.store)["memory"]
        assert isinstance(memory, wasmtime.Memory)
        self.memory: wasmtime.Memory = memory
        self.call("_initialize")

    def export_names(self) -> set[str]:
        return {name for name, _ in self.instance.exports(self.store).items()}

    def call(self, name: str, *arguments: int | float) -> int:
        function = self.instance.exports(self.store)[name]
        assert isinstance(function, wasmtime.Func)
        result = function(self.store, *arguments)
        return 0 if result is None else int(result)

    def memory_size(self) -> int:
        return int(self.memory.data_len(self.store))

    def write(self, address: int, data: bytes) -> None:
        self.memory.write(self.store, data, address)

    def read(self, address: int, length: int) -> bytes:
        return bytes(self.memory.read(self.store, address, address + length))

    def alloc(self, size: int) -> int:
        address = self.call("fs_alloc", size)
        assert address != 0 and address % 8 == 0
        return address

    def status_name(self, status: int) -> str:
        raw = self.read(self.call("fs_status_name", status), 64)
        assert b"\0" in raw, "a status name is NUL-terminated within 64 bytes"
        return raw.split(b"\0", 1)[0].decode("ascii")

    def read_f64(self, address: int) -> float:
        value: float = struct.unpack("<d", self.read(address, 8))[0]
        return value

    def read_i32s(self, address: int, count: int) -> tuple[int, ...]:
        return struct.unpack(f"<{count}i", self.read(address, 4 * count))
