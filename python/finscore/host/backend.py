"""The few primitives a WebAssembly engine must offer the core, and the choice of engine."""

from __future__ import annotations

import sys
from importlib import resources
from typing import Protocol, Sequence

WASM_RESOURCE = "finscore_core.wasm"


class CoreLoadError(RuntimeError):
    """The WebAssembly core could not be found, compiled or instantiated."""


class WasmBackend(Protocol):
    """A live instance of the core module.

    Integer-returning calls only; every double crosses through linear memory.
    """

    def call(self, name: str, *args: int | float) -> int: ...

    def read(self, address: int, size: int) -> bytes: ...

    def write(self, address: int, data: bytes) -> None: ...

    def read_all(self, regions: Sequence[tuple[int, int]]) -> list[bytes]:
        """Several (address, size) regions at once: a batch reads its outputs in one go."""
        ...

    def write_all(self, writes: Sequence[tuple[int, bytes]]) -> None:
        """Several (address, data) writes at once."""
        ...


def module_bytes() -> bytes:
    """The shipped core module, from the installed package."""
    try:
        return resources.files("finscore").joinpath(WASM_RESOURCE).read_bytes()
    except (FileNotFoundError, OSError) as error:
        raise CoreLoadError(
            f"the WebAssembly core {WASM_RESOURCE} is missing from the finscore package: {error}"
        ) from error


def running_under_pyodide() -> bool:
    return sys.platform == "emscripten"


def load_backend() -> WasmBackend:
    """Instantiate the core in the engine of the current interpreter."""
    if running_under_pyodide():
        from finscore.host.pyodide_backend import PyodideBackend

        return PyodideBackend.create()
    from finscore.host.wasmtime_backend import WasmtimeBackend

    return WasmtimeBackend.create(module_bytes())
