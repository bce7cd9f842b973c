"""The core under CPython, in wasmtime: the Python bindings of a mature, spec-tested engine."""

from __future__ import annotations

from typing import Any

from finscore.host.backend import CoreLoadError


class WasmtimeBackend:
    def __init__(self, store: Any, exports: Any) -> None:
        self._store = store
        self._exports = exports
        self._memory = exports["memory"]

    @classmethod
    def create(cls, wasm: bytes) -> "WasmtimeBackend":
        try:
            import wasmtime
        except ImportError as error:  # pragma: no cover - a broken install
            raise CoreLoadError("wasmtime is not installed: pip install wasmtime") from error
        try:
            engine = wasmtime.Engine()
            store = wasmtime.Store(engine)
            module = wasmtime.Module(engine, wasm)
            instance = wasmtime.Instance(store, module, [])
        except wasmtime.WasmtimeError as error:
            raise CoreLoadError(f"wasmtime could not load the core: {error}") from error
        exports = instance.exports(store)
        exports["_initialize"](store)
        return cls(store, exports)

    def call(self, name: str, *args: int | float) -> int:
        result = self._exports[name](self._store, *args)
        return 0 if result is None else int(result)

    def read(self, address: int, size: int) -> bytes:
        return bytes(self._memory.read(self._store, address, address + size))

    def write(self, address: int, data: bytes) -> None:
        self._memory.write(self._store, data, address)
