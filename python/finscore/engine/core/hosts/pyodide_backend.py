"""The core under Pyodide, in the browser's WebAssembly engine.

The page compiles the module asynchronously (browsers refuse large synchronous
compiles on the main thread) and hands the instance over by setting
`globalThis.finscoreCoreInstance`; in a worker, or where no instance was given,
the module bytes from the package are compiled synchronously.
"""

from __future__ import annotations

from typing import Any, Sequence

from finscore.engine.core.hosts.backend import CoreLoadError, module_bytes


class PyodideBackend:
    def __init__(self, exports: Any) -> None:
        self._exports = exports

    @classmethod
    def create(cls) -> "PyodideBackend":
        import js
        from pyodide.ffi import to_js

        instance = getattr(js.globalThis, "finscoreCoreInstance", None)
        if instance is None:
            try:
                module = js.WebAssembly.Module.new(to_js(module_bytes()))
                instance = js.WebAssembly.Instance.new(module, js.Object.new())
            except Exception as error:  # a JsException from the engine
                raise CoreLoadError(f"the browser could not load the core: {error}") from error
            instance.exports._initialize()
        return cls(instance.exports)

    def call(self, name: str, *args: int | float) -> int:
        result = getattr(self._exports, name)(*args)
        return 0 if result is None else int(result)

    def _view(self, address: int, size: int) -> Any:
        import js

        # memory.buffer is replaced whenever memory grows: take it afresh each time
        return js.Uint8Array.new(self._exports.memory.buffer, address, size)

    def read(self, address: int, size: int) -> bytes:
        return bytes(self._view(address, size).to_bytes())

    def write(self, address: int, data: bytes) -> None:
        self._view(address, len(data)).assign(data)

    def read_all(self, regions: Sequence[tuple[int, int]]) -> list[bytes]:
        return [self.read(address, size) for address, size in regions]

    def write_all(self, writes: Sequence[tuple[int, bytes]]) -> None:
        for address, data in writes:
            self.write(address, data)
