"""The core under CPython, in wasmtime: the Python bindings of a mature, spec-tested engine."""

from __future__ import annotations

import atexit
import os
from typing import Any

from finscore.host.backend import CoreLoadError


CACHE_VARIABLE = "FINSCORE_WASM_CACHE"


def _engine_config(wasmtime: Any) -> Any:
    """wasmtime's own compilation cache (in the user's cache folder) saves ~15 ms a start.

    Set FINSCORE_WASM_CACHE=0 to compile afresh each time; a cache that cannot be set
    up is simply not used.
    """
    config = wasmtime.Config()
    if os.environ.get(CACHE_VARIABLE, "1") != "0":
        try:
            config.cache = True
        except wasmtime.WasmtimeError:
            pass  # no usable cache folder: compiling without one gives the same module
    return config


class WasmtimeBackend:
    def __init__(self, engine: Any, module: Any, store: Any, exports: Any) -> None:
        self._engine = engine
        self._module = module
        self._store = store
        self._exports = exports
        self._memory = exports["memory"]
        # Release the native objects while the interpreter is still whole: left to
        # garbage collection at shutdown, wasmtime's finalizers run after its C
        # bindings are gone and print tracebacks.
        atexit.register(self.close)

    def close(self) -> None:
        for handle in (self._store, self._module, self._engine):
            close = getattr(handle, "close", None)
            if close is not None:
                close()

    @classmethod
    def create(cls, wasm: bytes) -> "WasmtimeBackend":
        try:
            import wasmtime
        except ImportError as error:  # pragma: no cover - a broken install
            raise CoreLoadError("wasmtime is not installed: pip install wasmtime") from error
        try:
            engine = wasmtime.Engine(_engine_config(wasmtime))
            store = wasmtime.Store(engine)
            module = wasmtime.Module(engine, wasm)
            instance = wasmtime.Instance(store, module, [])
        except wasmtime.WasmtimeError as error:
            raise CoreLoadError(f"wasmtime could not load the core: {error}") from error
        exports = instance.exports(store)
        exports["_initialize"](store)
        return cls(engine, module, store, exports)

    def call(self, name: str, *args: int | float) -> int:
        result = self._exports[name](self._store, *args)
        return 0 if result is None else int(result)

    def read(self, address: int, size: int) -> bytes:
        return bytes(self._memory.read(self._store, address, address + size))

    def write(self, address: int, data: bytes) -> None:
        self._memory.write(self._store, data, address)
